/*
 * User stacks unwound from copies (record --unwind=dwarf): the sampler hands
 * over a thread's user registers and the top of its stack as they were at
 * the sample, and this walks the frames with libdwfl's unwinder, from each
 * binary's unwind tables (.eh_frame, or .debug_frame in the binary or its
 * separate debug file), as perf's libdw unwinder does.
 *
 * Each process gets one Dwfl whose modules are the binaries it had mapped
 * (process_symbols.h gives them, as at the sample's time), attached with
 * our own thread callbacks: the registers come from the sample, memory
 * reads from the copied stack (an address outside it ends the walk there).
 *
 * A repeated stack costs little: the result of each walk is kept under
 * (pid, pc, sp) with every stack word the walk read; a later sample with
 * the same pc and sp whose stack holds the same words at those places
 * unwinds to the same frames (the walk is a function of what it read), and
 * is answered from the cache without walking.
 *
 *	struct user_unwinder *u = user_unwinder__new(ps);
 *	size_t n = user_unwinder__unwind(u, &input, pcs, max, &end);  // leaf first
 *	user_unwinder__forget(u, pids, count);                    // they exited
 *	user_unwinder__forget_all(u);                             // a window's end
 *	user_unwinder__free(u);
 *
 * Most copied stacks are walked as the kernel would have walked them, with
 * the kernel's own tables (user_unwinder__use_tables(): symbolize/
 * unwind_table.h's rows, the rules of src/bpf/unwind.bpf.h), when every
 * binary the walk meets has one: the kernel copies a stack it could have
 * walked when it could not look up a mapping in the interrupt, or the table
 * was not loaded yet. libdwfl takes the rest (a rule the tables do not
 * hold, a binary without a table, code in no binary).
 *
 * The frames are addresses (a return address less one, so that it lies in
 * the call's function), for process_symbols__name_at() with the sample's
 * time: names are looked up once per distinct stack, at the end, not per
 * sample. The unwinder keeps a pointer to ps, which must outlive it.
 * x86-64 only.
 */
#ifndef FLAMEKIT_SYMBOLIZE_USER_UNWINDER_H
#define FLAMEKIT_SYMBOLIZE_USER_UNWINDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "process_symbols.h"
#include "unwind_table.h"

#define USER_UNWINDER_REGS 17   /* x86-64 DWARF registers 0-16; 7 is sp, 16 the pc */
#define USER_UNWINDER_MAX_COPY 65536  /* the most of a stack the sampler copies */

struct unwind_input {
	uint32_t pid, tid;
	uint64_t time;              /* CLOCK_MONOTONIC ns, for the mappings of the time */
	const uint64_t *regs;       /* USER_UNWINDER_REGS of them */
	const uint8_t *stack;       /* stack_size bytes from regs[7] up */
	size_t stack_size;
};

struct user_unwinder_stats {
	uint64_t table_walks;       /* stacks walked with the kernel's tables */
	uint64_t walks;             /* stacks unwound by libdwfl */
	uint64_t cached;            /* stacks answered from the cache */
};

/* Why a walk stopped before the stack's root. */
enum unwind_stop_reason {
	UNWIND_STOP_NO_ENTRY,     /* a binary has no unwind entry for the pc */
	UNWIND_STOP_JIT,          /* the pc is in code outside any binary */
	UNWIND_STOP_COPY_END,     /* the stack went on beyond the copy */
};

/* Samples whose walk stopped early, by why and where. */
struct unwind_stop {
	enum unwind_stop_reason reason;
	const char *binary;         /* UNWIND_STOP_NO_ENTRY's; valid as long as the process_symbols */
	uint64_t samples;
};

struct user_unwinder;

/* A binary's unwind table as a process maps it: the table, the process's
 * addresses [start, end) it covers, and bias (an address less bias is the
 * binary's own). */
struct unwind_table_at {
	struct unwind_table_file *table;
	uint64_t start, end, bias;
};

/* Where the tables come from (sampler/kernel_unwind.h): table_at() finds
 * the table of pid's binary at pc as at time; false: none (yet). */
struct unwind_table_source {
	bool (*table_at)(void *arg, uint32_t pid, uint64_t pc, uint64_t time,
			 struct unwind_table_at *out);
	void *arg;
};

struct user_unwinder *user_unwinder__new(struct process_symbols *ps);
void user_unwinder__free(struct user_unwinder *u);
/* Walks with these tables where they hold (source is copied). */
void user_unwinder__use_tables(struct user_unwinder *u, const struct unwind_table_source *source);
/* Writes the addresses of at most max frames, leaf first; returns how many.
 * *stack_end: where this thread's stack ends as far as the walk could tell
 * (copies of later samples need go no further), 0 when the walk wanted more
 * than the copy held, UINT64_MAX when it tells nothing new. */
size_t user_unwinder__unwind(struct user_unwinder *u, const struct unwind_input *in,
			     uint64_t *pcs, size_t max, uint64_t *stack_end);
/* Lets go of what it knew of these processes, their Dwfls and cached
 * walks (they exited): pids is sorted in place. */
void user_unwinder__forget(struct user_unwinder *u, uint32_t *pids, size_t count);
/* Lets go of every process's unwinding state, the cache of walks and the
 * headless images (the stops and stats stay): once nothing more is to be
 * unwound, and at each end of record --every's windows. */
void user_unwinder__forget_all(struct user_unwinder *u);
/* Gives back the pages of the headless images' files that walks read, as
 * process_symbols__release_pages() does the binaries'. */
void user_unwinder__release_pages(struct user_unwinder *u);
void user_unwinder__stats(const struct user_unwinder *u, struct user_unwinder_stats *stats);
/* Where walks stopped early so far: *stops valid until the next unwind. */
size_t user_unwinder__stops(const struct user_unwinder *u, const struct unwind_stop **stops);

#endif
