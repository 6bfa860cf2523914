/*
 * User space's half of unwinding in the kernel (src/bpf/unwind.bpf.h): the
 * unwind tables of the binaries sampled processes map, each built once
 * (symbolize/unwind_table.h) and loaded into a range of the kernel's
 * `unwind_rows`, shared by every process that maps the binary; and each
 * process's executable mappings in `unwind_procs`, naming those ranges.
 *
 * Nothing is built ahead: a process's entry is filled when the kernel first
 * tells of it (new_pids, again after an exec), and again when one of its
 * samples comes down the copy path because the kernel had none or because a
 * pc was in none of its mappings (a library loaded since); a binary's table
 * is built when an entry first needs it. Meanwhile its samples are copied
 * and unwound in user space, so nothing is lost while tables are missing.
 *
 * Tables are kept on disk by build id in the cache directory's unwind/
 * (lib/cache_dir.h: $FLAMEKIT_CACHE_DIR, default /var/cache/flamekit), so
 * a binary's table is built once, not once per run.
 *
 * The tables together hold at most KERNEL_UNWIND_ROWS rows (8 bytes each:
 * 16 MiB of kernel memory, the size of unwind_rows; cc1 takes 480k, libc
 * 28k): a binary that would pass it gets no table (its samples keep taking
 * the copy path), and stats say so.
 *
 *	struct kernel_unwind *ku = kernel_unwind__new(rows_fd, procs_fd, ps);
 *	kernel_unwind__install(ku, pid, sample_time, stale);  // its mappings now
 *	kernel_unwind__forget(ku, pid);          // it exited
 *	kernel_unwind__stats(ku, &stats);
 *	kernel_unwind__free(ku);
 *
 * The map fds and ps stay the caller's and must outlive ku. Failures are
 * not errors: a binary or process the kernel cannot be given tables for is
 * unwound on the copy path, as with --unwind=dwarf.
 */
#ifndef FLAMEKIT_SAMPLER_KERNEL_UNWIND_H
#define FLAMEKIT_SAMPLER_KERNEL_UNWIND_H

#include <stdbool.h>
#include <stdint.h>

#include "../symbolize/process_symbols.h"
#include "bpf_sampler.h"

#define KERNEL_UNWIND_ROWS BPF_SAMPLER_UNWIND_ROWS

struct kernel_unwind_stats {
	uint64_t tables, rows, bytes;   /* tables loaded, their rows and bytes */
	uint64_t no_table;              /* binaries with no table this can read */
	uint64_t over_budget;           /* binaries left without one: the budget was spent */
	uint64_t processes;             /* process entries filled */
};

struct kernel_unwind;

struct kernel_unwind *kernel_unwind__new(int rows_fd, int procs_fd, struct process_symbols *ps);
void kernel_unwind__free(struct kernel_unwind *ku);
/* Fills pid's entry from its mappings as they are now, unless it is
 * filled from them already (a repeat costs a lookup) and the entry was
 * right (stale: a sample taken at time, after the entry was filled, says
 * the kernel has none, an exec dropped it, or lacks a binary known here). */
void kernel_unwind__install(struct kernel_unwind *ku, uint32_t pid, uint64_t time, bool stale);
void kernel_unwind__forget(struct kernel_unwind *ku, uint32_t pid);
void kernel_unwind__stats(const struct kernel_unwind *ku, struct kernel_unwind_stats *out);

#endif
