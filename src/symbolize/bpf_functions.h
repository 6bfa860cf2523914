/*
 * The functions of the BPF programs loaded now, named as /proc/kallsyms
 * names them ("bpf_prog_" TAG "_" NAME), read from the programs themselves
 * (bpf(2): their JITed addresses, lengths and tags, and their BTF's
 * function names) instead of from kallsyms, which lists them last, after
 * every symbol of the kernel and its modules: reading that far costs the
 * kernel some 50 ms each time, and programs come and go, so no cache
 * holds them. A recording's own programs run on every exec, and a busy
 * host's samples land in them now and then.
 *
 *	struct kernel_function *functions;
 *	size_t count;
 *	if (bpf_functions__read(&functions, &count) == 0) {
 *		...;   // sorted by address
 *		kernel_functions__free(functions, count);
 *	}
 */
#ifndef FLAMEKIT_SYMBOLIZE_BPF_FUNCTIONS_H
#define FLAMEKIT_SYMBOLIZE_BPF_FUNCTIONS_H

#include "kernel_symbols.h"

/* 0, or -1 when the programs cannot be listed (not root, no bpf(2)). */
int bpf_functions__read(struct kernel_function **functions, size_t *count);

#endif
