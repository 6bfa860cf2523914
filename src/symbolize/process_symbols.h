/*
 * User-space symbols of live processes: each process's executable mappings
 * from /proc/PID/maps, each binary's ELF function symbols (.symtab and
 * .dynsym, through libelf), the vDSO, and /tmp/perf-PID.map for JIT code.
 *
 * A binary is opened once (keyed by device and inode) however many
 * processes map it, and stays open (its symbol names point into the file's
 * mapping) until process_symbols__free(). A process is snapshotted the
 * first time it is asked about, or earlier with process_symbols__add()
 * while it is still alive (record does that as each pid is first sampled,
 * so processes that exit before the end still resolve).
 *
 *	struct process_symbols *ps = process_symbols__new();
 *	process_symbols__add(ps, pid);                    // optional, early
 *	const char *name = process_symbols__name(ps, pid, addr);
 *	process_symbols__free(ps);
 *
 * Names are function names (C++ demangled), or "[unknown]". They stay valid
 * until process_symbols__free().
 */
#ifndef FLAMEKIT_SYMBOLIZE_PROCESS_SYMBOLS_H
#define FLAMEKIT_SYMBOLIZE_PROCESS_SYMBOLS_H

#include <stdint.h>

struct process_symbols;

struct process_symbols *process_symbols__new(void);
void process_symbols__free(struct process_symbols *ps);
void process_symbols__add(struct process_symbols *ps, uint32_t pid);
const char *process_symbols__name(struct process_symbols *ps, uint32_t pid, uint64_t addr);

#endif
