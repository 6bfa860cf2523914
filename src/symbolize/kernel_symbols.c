#include "kernel_symbols.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/error.h"
#include "../lib/xalloc.h"

struct nearest {
	uint64_t addr;          /* the symbol's address */
	char *name;             /* NULL: none; shared with the next entries after resolving */
	bool owner;             /* this entry frees name */
};

struct kernel_symbols {
	uint64_t *wanted;       /* sorted and unique once resolved */
	size_t count, cap;
	struct nearest *nearest;  /* per wanted address, after resolving */
	bool resolved;
};

struct kernel_symbols *kernel_symbols__new(void)
{
	return fk_calloc(1, sizeof(struct kernel_symbols));
}

void kernel_symbols__free(struct kernel_symbols *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->count && k->nearest; i++)
		if (k->nearest[i].owner)
			free(k->nearest[i].name);
	free(k->wanted);
	free(k->nearest);
	free(k);
}

void kernel_symbols__want(struct kernel_symbols *k, uint64_t addr)
{
	k->wanted = fk_grow(k->wanted, &k->cap, k->count + 1, sizeof(*k->wanted));
	k->wanted[k->count++] = addr;
}

static int compare_addr(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The first wanted address >= addr (count if none). */
static size_t lower_bound(const uint64_t *v, size_t count, uint64_t addr)
{
	size_t lo = 0, hi = count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool is_text_type(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

int kernel_symbols__resolve(struct kernel_symbols *k, const char *kallsyms_path)
{
	if (k->count)
		qsort(k->wanted, k->count, sizeof(*k->wanted), compare_addr);
	size_t unique = 0;
	for (size_t i = 0; i < k->count; i++)
		if (unique == 0 || k->wanted[unique - 1] != k->wanted[i])
			k->wanted[unique++] = k->wanted[i];
	k->count = unique;
	k->nearest = fk_malloc((k->count ? k->count : 1) * sizeof(*k->nearest));
	for (size_t i = 0; i < k->count; i++)
		k->nearest[i] = (struct nearest){ 0, NULL, false };
	k->resolved = true;
	if (k->count == 0)
		return 0;

	FILE *f = fopen(kallsyms_path, "r");
	if (!f) {
		warning("cannot read %s (%s): kernel frames show as [unknown]", kallsyms_path,
			strerror(errno));
		return -1;
	}
	/* Big reads: each read of /proc/kallsyms costs a system call and
	 * the kernel's setup; the default 4 KB buffer makes thousands. */
	size_t buffer_size = 256 * 1024;
	char *buffer = fk_malloc(buffer_size);  /* glibc ignores the size without one */
	setvbuf(f, buffer, _IOFBF, buffer_size);
	char line[512];
	bool any_address = false, ascending = true;
	uint64_t previous = 0, highest_wanted = k->wanted[k->count - 1];
	while (fgets(line, sizeof line, f)) {
		char *end;
		uint64_t addr = strtoull(line, &end, 16);
		if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
			continue;
		any_address |= addr != 0;
		/* The kernel lists its own symbols by address, then modules' and
		 * BPF programs' above them. Generating the text costs the kernel
		 * most of the time here, so stop once the ascending part has
		 * passed every wanted address: nothing later can be nearer. */
		ascending &= addr >= previous;
		previous = addr;
		if (ascending && addr > highest_wanted && any_address)
			break;
		if (!is_text_type(end[1]))
			continue;
		size_t at = lower_bound(k->wanted, k->count, addr);
		if (at == k->count || (k->nearest[at].name && k->nearest[at].addr >= addr))
			continue;
		/* Replaced, not appended: memory stays one name per address. */
		const char *name = end + 3;
		free(k->nearest[at].name);
		k->nearest[at] = (struct nearest){ addr, fk_memdup(name, strcspn(name, " \t\n")),
						   true };
	}
	fclose(f);
	free(buffer);
	if (!any_address) {
		for (size_t i = 0; i < k->count; i++) {
			free(k->nearest[i].name);
			k->nearest[i] = (struct nearest){ 0, NULL, false };
		}
		warning("%s shows no addresses (kernel.kptr_restrict): kernel frames show as "
			"[unknown]; run as root or set `sysctl kernel.kptr_restrict=0`",
			kallsyms_path);
		return -1;
	}
	/* Symbols between two wanted addresses were kept for the upper one; an
	 * address with none of its own has the lower one's nearest symbol. */
	for (size_t i = 1; i < k->count; i++)
		if (!k->nearest[i].name) {
			k->nearest[i] = k->nearest[i - 1];
			k->nearest[i].owner = false;
		}
	return 0;
}

const char *kernel_symbols__name(const struct kernel_symbols *k, uint64_t addr)
{
	if (!k->resolved)
		return "[unknown]";
	size_t at = lower_bound(k->wanted, k->count, addr);
	if (at == k->count || k->wanted[at] != addr || !k->nearest[at].name)
		return "[unknown]";
	return k->nearest[at].name;
}
