/*
 * Kernel symbols for a set of addresses, from /proc/kallsyms.
 *
 * The kernel lists some 200,000 symbols; holding them all costs megabytes.
 * A recording needs a few hundred, so the addresses are collected first and
 * resolved in one pass that keeps, for each, only the nearest text symbol
 * at or below it:
 *
 *	struct kernel_symbols *k = kernel_symbols__new();
 *	kernel_symbols__want(k, addr);  ...           // every address
 *	kernel_symbols__resolve(k, &(struct kernel_symbol_sources){
 *		"/proc/kallsyms", "/proc/modules", cache_path_or_NULL, NULL });  // one read
 *	const char *name = kernel_symbols__name(k, addr);
 *
 * Names are bare symbol names (a module's "[name]" dropped), or "[unknown]"
 * where nothing resolves. They stay valid until kernel_symbols__free().
 *
 * Reading /proc/kallsyms costs the kernel some 50 ms of CPU (it formats all
 * the symbols for every reader). With a cache path, the kernel's own text
 * symbols (not modules', which come and go) are kept in that file for the
 * rest of the boot, as perf keeps kallsyms in its build-id cache: later runs
 * whose addresses all fall in the kernel's own text read the file instead.
 * The run that writes the file does so in its one pass over kallsyms, and
 * so reads the kernel's whole own part, not only up to the highest address.
 * Addresses in BPF programs, which come and go and kallsyms lists last,
 * are named from the programs themselves (a kernel_functions_reader), so
 * that a sample in one does not cost a read of all of kallsyms. Modules'
 * text symbols, which kallsyms lists after the kernel's own, are kept in a
 * cache of their own beside it, for this boot and the modules loaded when
 * it was written (their names, sizes and addresses in /proc/modules): a
 * run whose other addresses all lie in those modules reads that. A run
 * that reads kallsyms for other reasons (a trampoline's address) leaves
 * caches of this boot and these modules as they are, and writes those that
 * are not, on the way (the modules' takes the whole pass).
 * The file is private to its owner (the caller makes its directory 0700:
 * record's is chosen in sampler/sampled_profile.c; the file itself is
 * written by lib/output's rules) and names the boot it belongs to.
 */
#ifndef FLAMEKIT_SYMBOLIZE_KERNEL_SYMBOLS_H
#define FLAMEKIT_SYMBOLIZE_KERNEL_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

struct kernel_symbols;

/* Code outside the kernel's own text that kallsyms lists too (BPF
 * programs': symbolize/bpf_functions.h), as a reader lists it: sorted by
 * address. */
struct kernel_function {
	uint64_t addr, len;
	char *name;
};
typedef int (*kernel_functions_reader)(struct kernel_function **functions, size_t *count);
void kernel_functions__free(struct kernel_function *functions, size_t count);

struct kernel_symbols *kernel_symbols__new(void);
void kernel_symbols__free(struct kernel_symbols *k);
void kernel_symbols__want(struct kernel_symbols *k, uint64_t addr);
/* Where kernel_symbols__resolve() finds names. */
struct kernel_symbol_sources {
	const char *kallsyms;          /* "/proc/kallsyms" */
	const char *modules;           /* "/proc/modules"; NULL: none */
	const char *cache;             /* NULL: none (see above); the modules'
					* cache is beside it, "-modules" after */
	kernel_functions_reader more;  /* NULL: none */
};

/* Returns 0, or -1 after a warning (every name is then "[unknown]").
 * With a cache of this boot, the addresses outside the kernel's own text
 * are named from more and the modules' cache, when those have them all,
 * not from kallsyms. */
int kernel_symbols__resolve(struct kernel_symbols *k, const struct kernel_symbol_sources *from);
/* Only for addresses given to kernel_symbols__want() before resolving. */
const char *kernel_symbols__name(const struct kernel_symbols *k, uint64_t addr);

#endif
