#include "kernel_symbols.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/error.h"
#include "../lib/output.h"
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

/* A text symbol at addr: keep it for the wanted address it is nearest below. */
static void offer_symbol(struct kernel_symbols *k, uint64_t addr, const char *name, size_t len)
{
	size_t at = lower_bound(k->wanted, k->count, addr);
	if (at == k->count || (k->nearest[at].name && k->nearest[at].addr >= addr))
		return;
	/* Replaced, not appended: memory stays one name per address. */
	free(k->nearest[at].name);
	k->nearest[at] = (struct nearest){ addr, fk_memdup(name, len), true };
}

/*
 * The cache of the kernel's own text symbols (see kernel_symbols.h):
 *
 *	"FKKSYM1\n", the boot id (36 characters and "\n"),
 *	uint64 lowest, uint64 highest address,
 *	then per symbol, ascending: uint64 address, uint16 length, the name.
 *
 * Native byte order: the file never leaves the machine that wrote it.
 */
#define CACHE_MAGIC "FKKSYM1\n"
#define BOOT_ID_LEN 37
#define CACHE_HEADER (8 + BOOT_ID_LEN + 16)

static bool read_boot_id(char id[BOOT_ID_LEN + 1])
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (!f)
		return false;
	bool ok = fgets(id, BOOT_ID_LEN + 1, f) && strlen(id) == BOOT_ID_LEN;
	fclose(f);
	return ok;
}

/* Resolves every wanted address from the cache: true if it could (the file
 * is this boot's and every address lies in the kernel's own text). Read,
 * not mapped: mapped pages would count in the recording's memory. */
static bool resolve_from_cache(struct kernel_symbols *k, const char *cache_path,
			       const char *boot_id)
{
	FILE *f = fopen(cache_path, "re");
	if (!f)
		return false;
	struct stat st;
	char header[CACHE_HEADER];
	bool usable = fstat(fileno(f), &st) == 0 && st.st_uid == geteuid() &&
		      fread(header, 1, sizeof header, f) == sizeof header &&
		      memcmp(header, CACHE_MAGIC, 8) == 0 &&
		      memcmp(header + 8, boot_id, BOOT_ID_LEN) == 0;
	if (usable) {
		uint64_t lowest, highest;
		memcpy(&lowest, header + 8 + BOOT_ID_LEN, 8);
		memcpy(&highest, header + 16 + BOOT_ID_LEN, 8);
		usable = k->wanted[0] >= lowest && k->wanted[k->count - 1] <= highest;
	}
	char name[UINT16_MAX];
	unsigned char record[10];
	while (usable && fread(record, 1, sizeof record, f) == sizeof record) {
		uint64_t addr;
		uint16_t len;
		memcpy(&addr, record, 8);
		memcpy(&len, record + 8, 2);
		if (addr > k->wanted[k->count - 1] || fread(name, 1, len, f) != len)
			break;
		offer_symbol(k, addr, name, len);
	}
	fclose(f);
	return usable;
}

static void cache_put(FILE *cache, uint64_t addr, const char *name, size_t len)
{
	uint16_t n = len > UINT16_MAX ? UINT16_MAX : (uint16_t)len;
	fwrite(&addr, 8, 1, cache);
	fwrite(&n, 2, 1, cache);
	fwrite(name, 1, n, cache);
}

int kernel_symbols__resolve(struct kernel_symbols *k, const char *kallsyms_path,
			    const char *cache_path)
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

	char boot_id[BOOT_ID_LEN + 1];
	if (cache_path && !read_boot_id(boot_id))
		cache_path = NULL;
	if (cache_path && resolve_from_cache(k, cache_path, boot_id))
		goto nearest_below;

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
	/* This pass also writes the cache: it then reads the whole ascending
	 * (kernel's own) part instead of stopping at the highest address. */
	struct output *cache = NULL;
	if (cache_path && output__open(&cache, cache_path) < 0)
		cache = NULL;
	uint64_t lowest = 0;
	if (cache) {
		fwrite(CACHE_MAGIC, 1, 8, output__stream(cache));
		fwrite(boot_id, 1, BOOT_ID_LEN, output__stream(cache));
		fwrite(&lowest, 8, 1, output__stream(cache));
		fwrite(&lowest, 8, 1, output__stream(cache));
	}
	char line[512];
	bool any_address = false, ascending = true;
	uint64_t previous = 0, highest_wanted = k->wanted[k->count - 1], highest_text = 0;
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
		if (ascending && addr > highest_wanted && any_address && !cache)
			break;
		/* With the cache to write, the same stop comes after the kernel's
		 * own part, when that part held every wanted address */
		if (!ascending && cache && k->wanted[0] >= lowest && highest_wanted <= highest_text)
			break;
		if (!is_text_type(end[1]))
			continue;
		const char *name = end + 3;
		size_t len = strcspn(name, " \t\n");
		if (cache && ascending && addr) {
			if (!lowest)
				lowest = addr;
			highest_text = addr;
			cache_put(output__stream(cache), addr, name, len);
		}
		offer_symbol(k, addr, name, len);
	}
	if (cache) {
		/* the range the cache covers, in its header; kept only when whole */
		FILE *c = output__stream(cache);
		if (any_address && highest_text && fseek(c, 8 + BOOT_ID_LEN, SEEK_SET) == 0) {
			fwrite(&lowest, 8, 1, c);
			fwrite(&highest_text, 8, 1, c);
			if (output__commit(cache) < 0)
				warning("could not write the kernel symbol cache %s", cache_path);
		} else {
			output__abort(cache);
		}
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
nearest_below:
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
