/* For tests/record.sh: with no argument, prints the BPF programs' functions
 * (symbolize/bpf_functions.h) one a line, "address name", as /proc/kallsyms
 * shows them; with KALLSYMS CACHE [MODULES], names the kernel addresses
 * read from standard input (symbolize/kernel_symbols.h, BPF functions from
 * the programs, the modules loaded from MODULES, by default
 * /proc/modules), "address name" a line. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "../src/lib/xalloc.h"
#include "../src/symbolize/bpf_functions.h"

static int dump_functions(void)
{
	struct kernel_function *functions;
	size_t count;

	if (bpf_functions__read(&functions, &count) != 0) {
		perror("bpf_functions_dump: cannot list the BPF programs");
		return 1;
	}
	for (size_t i = 0; i < count; i++)
		printf("%016" PRIx64 " %s\n", functions[i].addr, functions[i].name);
	kernel_functions__free(functions, count);
	return 0;
}

static int name_addresses(const char *kallsyms, const char *cache, const char *modules)
{
	struct kernel_symbol_sources sources = { kallsyms, modules, cache, bpf_functions__read };
	struct kernel_symbols *k = kernel_symbols__new();
	uint64_t *addrs = NULL, addr;
	size_t count = 0, cap = 0;

	while (scanf("%" SCNx64, &addr) == 1) {
		addrs = fk_grow(addrs, &cap, count + 1, sizeof(*addrs));
		addrs[count++] = addr;
		kernel_symbols__want(k, addr);
	}
	if (kernel_symbols__resolve(k, &sources) != 0)
		return 1;
	for (size_t i = 0; i < count; i++)
		printf("%016" PRIx64 " %s\n", addrs[i], kernel_symbols__name(k, addrs[i]));
	kernel_symbols__free(k);
	free(addrs);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 1)
		return dump_functions();
	if (argc == 3 || argc == 4)
		return name_addresses(argv[1], argv[2], argc == 4 ? argv[3] : "/proc/modules");
	fprintf(stderr, "usage: bpf_functions_dump [KALLSYMS CACHE [MODULES] < ADDRESSES]\n");
	return 2;
}
