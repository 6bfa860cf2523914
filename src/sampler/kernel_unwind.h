/*
 * User space's half of unwinding in the kernel (src/bpf/unwind.bpf.h): the
 * unwind tables of the binaries the kernel's walk meets, each built once
 * (symbolize/unwind_table.h) and loaded into a range of the kernel's
 * `unwind_rows`, entered in `unwind_binaries` under the file's identity as
 * the kernel knows it (device and inode), so that every process mapping
 * the binary is walked with it from its first sample on.
 *
 * Nothing is built ahead: the kernel asks for a binary (unwind_misses) the
 * first time its walk meets one it has no entry for, with a pc of a
 * process in it; the process symbols name the binary at that pc, and a
 * thread of ku's own builds its table, loads it and enters it, or an entry
 * saying it has none (its samples keep taking the copy path), while the
 * caller goes on reading samples. Meanwhile the binary's samples are copied
 * and unwound in user space, so nothing is lost while tables are missing.
 *
 * Tables are kept on disk by build id in the cache directory's unwind/
 * (lib/cache_dir.h: $FLAMEKIT_CACHE_DIR, default /var/cache/flamekit), so
 * a binary's table is built once, not once per run. The samples the kernel
 * copies after all (a mapping it could not look up in the interrupt, a
 * table not loaded yet) are walked in user space by the same rules from
 * those files (kernel_unwind__table_at(), for user_unwinder.h).
 *
 * The tables together hold at most KERNEL_UNWIND_ROWS rows (8 bytes each:
 * 32 MiB of kernel memory, the size of unwind_rows; cc1 takes 480k, libc
 * 28k): a binary that would pass it gets no table, and stats say so. A
 * long run gives the rows of closed binaries back (kernel_unwind__forget()):
 * else the tables of every program a host ever ran, each new build of a
 * service, would spend the budget, and the next ones go without.
 *
 *	struct kernel_unwind *ku = kernel_unwind__new(rows_fd, binaries_fd, asked_fd, ps);
 *	kernel_unwind__add(ku, &miss);               // the kernel asked
 *	kernel_unwind__table_at(ku, pid, pc, time, &at);  // a copied stack's frame
 *	kernel_unwind__forget(ku, keys, count);       // their binaries closed
 *	kernel_unwind__stats(ku, &stats);
 *	kernel_unwind__free(ku);
 *
 * The map fds and ps stay the caller's and must outlive ku; ps is used on
 * the caller's thread only (in kernel_unwind__add). Failures are
 * not errors: a binary the kernel cannot be given a table for is unwound
 * on the copy path, as with --unwind=dwarf.
 */
#ifndef FLAMEKIT_SAMPLER_KERNEL_UNWIND_H
#define FLAMEKIT_SAMPLER_KERNEL_UNWIND_H

#include <stdbool.h>
#include <stdint.h>

#include "../symbolize/process_symbols.h"
#include "../symbolize/user_unwinder.h"
#include "bpf_sampler.h"

#define KERNEL_UNWIND_ROWS BPF_SAMPLER_UNWIND_ROWS

struct kernel_unwind_stats {
	uint64_t tables, bytes;         /* tables loaded, and their bytes */
	uint64_t no_table;              /* binaries with no table this can read */
	uint64_t over_budget;           /* binaries left without one: the budget was spent */
	uint64_t tables_let_go, bytes_let_go;  /* of binaries closed since (their rows free) */
};

struct kernel_unwind;

struct kernel_unwind *kernel_unwind__new(int rows_fd, int binaries_fd, int asked_fd,
					 struct process_symbols *ps);
void kernel_unwind__free(struct kernel_unwind *ku);
/* The kernel's walk has no entry for miss->file, met at miss->pc in
 * miss->pid: enters the table of the binary there, or that it has none
 * (soon: on ku's thread). */
void kernel_unwind__add(struct kernel_unwind *ku, const struct record_unwind_miss *miss);
void kernel_unwind__stats(struct kernel_unwind *ku, struct kernel_unwind_stats *out);
/* The table the kernel walks pid's binary at pc with (as mapped at time),
 * for a copied stack walked in user space by the same rules
 * (user_unwinder.h); false: none, or not yet. The caller's thread. */
bool kernel_unwind__table_at(struct kernel_unwind *ku, uint32_t pid, uint64_t pc, uint64_t time,
			     struct unwind_table_at *out);
/* The binaries of these keys (process_module.key) are closed: lets go of
 * their tables' files opened for kernel_unwind__table_at(), and (soon: on
 * ku's thread) of their tables in the kernel, whose rows later tables take.
 * The caller's thread. */
void kernel_unwind__forget(struct kernel_unwind *ku, const uint64_t *keys, size_t count);

#endif
