/*
 * Samples counted in user space: the ones whose user stacks were copied out
 * and unwound there (record --unwind=dwarf), keyed as the kernel keys the
 * samples it counts itself (process, thread, slice, comm, kernel stack),
 * with the user stack as its frames' addresses instead of a hash, and the
 * time of the first such sample (to name the addresses by the mappings of
 * then).
 *
 *	struct user_counts *uc = user_counts__new();
 *	user_counts__add(uc, &key);        // per sample: key.pcs, key.depth the stack
 *	for (size_t i = 0; i < user_counts__size(uc); i++)
 *		... user_counts__entry(uc, i) ...
 *	user_counts__free(uc);
 *
 */
#ifndef FLAMEKIT_USER_COUNTS_H
#define FLAMEKIT_USER_COUNTS_H

#include <stddef.h>
#include <stdint.h>

struct user_count {
	uint32_t pid, tid, slice;
	char comm[16];
	uint64_t kernel_stack;      /* the sampler's hash of the kernel stack */
	uint64_t interp_stack;      /* and of the interpreter frames */
	uint64_t *pcs;              /* user frames, leaf first */
	size_t depth;
	uint64_t count;
	uint64_t time;              /* of the first sample (CLOCK_MONOTONIC ns) */
};

struct user_counts;

struct user_counts *user_counts__new(void);
void user_counts__free(struct user_counts *uc);
/* key->pcs and key->depth are the stack (copied); key->count is ignored
 * (adds 1); key->time is kept from the first sample of the key. */
void user_counts__add(struct user_counts *uc, const struct user_count *key);
size_t user_counts__size(const struct user_counts *uc);
/* Valid until the next user_counts__add() or user_counts__forget_through(). */
const struct user_count *user_counts__entry(const struct user_counts *uc, size_t index);
/* Drops the keys of slices up to `slice` (record --every: a window written),
 * keeping the others in their order. */
void user_counts__forget_through(struct user_counts *uc, uint32_t slice);

#endif
