/*
 * Values of record's `stacks` map read many at a time (record_lookup.bpf.c),
 * where a lookup a system call each costs 1.4 us, most of it the call:
 * some 60,000 of them at the end of three builds' recording.
 *
 *	struct stack_fetch *f = stack_fetch__open(stacks_fd, value_size);
 *	if (f && stack_fetch__run(f, 0, hashes, n) == 0)
 *		... stack_fetch__value(f, i): hashes[i]'s value, or NULL ...
 *	stack_fetch__free(f);
 *
 * A fetch has STACK_FETCH_BATCH places: a run fills places first to
 * first + n - 1, and leaves the others as they were (a second run can
 * fetch what the first one's values name: the rest of deep stacks).
 * NULL from stack_fetch__open() (a kernel before 6.1, where a `syscall`
 * program may not read a map that takes memory as it comes), or -1 from a
 * run: the caller looks each value up itself.
 */
#ifndef FLAMEKIT_STACK_FETCH_H
#define FLAMEKIT_STACK_FETCH_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "../bpf/record.h"

#define STACK_FETCH_BATCH RECORD_FETCH_BATCH

struct stack_fetch;

struct stack_fetch *stack_fetch__open(int stacks_fd, size_t value_size);
void stack_fetch__free(struct stack_fetch *f);

int stack_fetch__run(struct stack_fetch *f, size_t first, const uint64_t *hashes, size_t n);
/* The value fetched at place i, NULL where the map had none. */
const struct record_stack *stack_fetch__value(const struct stack_fetch *f, size_t i);

#endif
