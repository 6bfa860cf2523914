#include "kernel_symbols.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "../lib/buf.h"
#include "../lib/error.h"
#include "../lib/output.h"
#include "../lib/sysctl.h"
#include "../lib/upper_bound.h"
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

/*
 * The symbol nearest below one wanted address as the symbols go by, its
 * name in a buffer used again: kallsyms lists 100,000 and more text symbols
 * by address, and every one between two wanted addresses is nearer to the
 * upper one than the one before it. Only the last of such a run is copied
 * into `nearest` (keep_candidate()), not each in turn.
 */
struct candidate {
	size_t at;              /* the wanted address's index; count: none */
	uint64_t addr;
	char *name;
	size_t len, cap;
};

/* The candidate made the nearest symbol of its address, where it is nearer
 * than the one kept (the modules' part of kallsyms comes after the
 * kernel's own, out of order). */
static void keep_candidate(struct kernel_symbols *k, struct candidate *c)
{
	if (c->at >= k->count)
		return;
	struct nearest *n = &k->nearest[c->at];
	if (!n->name || n->addr < c->addr) {
		free(n->name);
		*n = (struct nearest){ c->addr, fk_memdup(c->name, c->len), true };
	}
	c->at = k->count;
}

/* A text symbol at addr: the candidate for the wanted address it is
 * nearest below, if nearer than what that address has. */
static void offer_symbol(struct kernel_symbols *k, struct candidate *c, uint64_t addr,
			 const char *name, size_t len)
{
	/* (kallsyms and the cache go up by address: most symbols are nearest
	 * below the same wanted address as the one before them) */
	bool same = c->at < k->count && k->wanted[c->at] >= addr &&
		    (c->at == 0 || k->wanted[c->at - 1] < addr);
	size_t at = same ? c->at : lower_bound(k->wanted, k->count, addr);
	if (at == k->count || (k->nearest[at].name && k->nearest[at].addr >= addr))
		return;
	if (at != c->at)
		keep_candidate(k, c);
	else if (c->addr >= addr)
		return;
	c->name = fk_grow(c->name, &c->cap, len + 1, 1);
	memcpy(c->name, name, len);
	c->len = len;
	c->addr = addr;
	c->at = at;
}

/*
 * The cache of the kernel's own text symbols (see kernel_symbols.h):
 *
 *	"FKKSYM1\n", the boot id (36 characters and "\n"),
 *	uint64 lowest, uint64 highest address,
 *	then per symbol, ascending: uint64 address, uint16 length, the name.
 *
 * The modules' cache beside it is the same but for its first line,
 * "FKKMOD1\n", and its two numbers: the key of the modules loaded when it
 * was written (read_modules()), and 0.
 *
 * Native byte order: the files never leave the machine that wrote them.
 */
#define CACHE_MAGIC "FKKSYM1\n"
#define MODULES_CACHE_MAGIC "FKKMOD1\n"
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

/* The cache is read this much at a time (and parsed where it lies): its
 * 120,000 records read one fread() each cost more than the copy. A record
 * is at most 10 + 65,535 bytes, so one always fits. */
#define CACHE_READ_BLOCK (128 << 10)

/* Whether the open cache file is one of magic's kind and this boot's, and
 * the two numbers of its header (the kernel's: the range of addresses its
 * symbols cover). */
static bool read_cache_header(int fd, const char *magic, const char *boot_id, uint64_t *first,
			      uint64_t *second)
{
	struct stat st;
	char header[CACHE_HEADER];

	if (fstat(fd, &st) != 0 || st.st_uid != geteuid() ||
	    read(fd, header, sizeof header) != (ssize_t)sizeof header ||
	    memcmp(header, magic, 8) != 0 || memcmp(header + 8, boot_id, BOOT_ID_LEN) != 0)
		return false;
	memcpy(first, header + 8 + BOOT_ID_LEN, 8);
	memcpy(second, header + 16 + BOOT_ID_LEN, 8);
	return true;
}

/* Offers the symbols of a cache file, read on from its header, to the
 * wanted addresses before end (the kernel's cache: those within its range).
 * Read, not mapped: mapped pages would count in the recording's memory. */
static void resolve_from_cache(struct kernel_symbols *k, int fd, size_t end)
{
	char *block = fk_malloc(CACHE_READ_BLOCK);
	size_t held = 0;         /* bytes in block, from its start */
	bool past = end == 0;    /* a record above every such address was met */
	struct candidate candidate = { .at = k->count };

	while (!past) {
		ssize_t got = read(fd, block + held, CACHE_READ_BLOCK - held);
		if (got <= 0)
			break;
		held += (size_t)got;
		size_t at = 0;
		for (;;) {
			uint64_t addr;
			uint16_t len;
			if (held - at < 10)
				break;
			memcpy(&addr, block + at, 8);
			memcpy(&len, block + at + 8, 2);
			if (addr > k->wanted[end - 1]) {
				past = true;
				break;
			}
			if (held - at - 10 < len)
				break;
			offer_symbol(k, &candidate, addr, block + at + 10, len);
			at += 10 + (size_t)len;
		}
		memmove(block, block + at, held - at);
		held -= at;
	}
	keep_candidate(k, &candidate);
	free(candidate.name);
	free(block);
}

/* Every wanted address without a symbol again (before kallsyms is read
 * for them all). */
static void forget_nearest(struct kernel_symbols *k)
{
	for (size_t i = 0; i < k->count; i++) {
		free(k->nearest[i].name);
		k->nearest[i] = (struct nearest){ 0, NULL, false };
	}
}

/*
 * The modules loaded, from /proc/modules ("NAME SIZE REFS DEPS STATE
 * ADDRESS" a line): where each lies, from its address for its size, as
 * perf places them, and a key that changes when one is loaded, unloaded or
 * moved. (Since Linux 6.4 a module's data lies apart from its code, and its
 * size counts both: code placed right after a module's, a BPF trampoline
 * say, is taken for the module's, as perf takes it.)
 */
struct module_range {
	uint64_t start, end;
};

struct loaded_modules {
	struct module_range *ranges;
	size_t count, cap;
	uint64_t key;
};

/* false (none kept) without modules, or when their addresses are hidden
 * (kernel.kptr_restrict shows them as 0). */
static bool read_modules(const char *path, struct loaded_modules *m)
{
	FILE *f = path ? fopen(path, "re") : NULL;
	char *line = NULL;
	size_t line_cap = 0;
	bool hidden = false;

	*m = (struct loaded_modules){ 0 };
	if (!f)
		return false;
	XXH3_state_t *key = XXH3_createState();
	XXH3_64bits_reset(key);
	while (getline(&line, &line_cap, f) > 0) {
		char name[64];
		uint64_t size, address;
		if (sscanf(line, "%63s %" SCNu64 " %*s %*s %*s %" SCNx64, name, &size, &address) != 3)
			continue;
		hidden |= address == 0;
		XXH3_64bits_update(key, name, strlen(name) + 1);
		XXH3_64bits_update(key, &size, sizeof(size));
		XXH3_64bits_update(key, &address, sizeof(address));
		m->ranges = fk_grow(m->ranges, &m->cap, m->count + 1, sizeof(*m->ranges));
		m->ranges[m->count++] = (struct module_range){ address, address + size };
	}
	m->key = XXH3_64bits_digest(key);
	XXH3_freeState(key);
	free(line);
	fclose(f);
	if (hidden || m->count == 0) {
		free(m->ranges);
		*m = (struct loaded_modules){ 0 };
		return false;
	}
	return true;
}

static bool in_module(const struct loaded_modules *m, uint64_t addr)
{
	for (size_t i = 0; i < m->count; i++)
		if (addr >= m->ranges[i].start && addr < m->ranges[i].end)
			return true;
	return false;
}

/* The modules' cache of the kernel's cache_path: the same name, "-modules"
 * after it. */
static char *modules_cache_path(const char *cache_path)
{
	struct buf path = BUF_INIT;
	buf__printf(&path, "%s-modules", cache_path);
	return path.data;
}

/* The modules' cache open at its symbols, if it is this boot's and was
 * written with these modules loaded; else -1. */
static int open_modules_cache(const char *cache_path, const char *boot_id,
			      const struct loaded_modules *m)
{
	char *path = modules_cache_path(cache_path);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint64_t key, unused;

	free(path);
	if (fd >= 0 && !(read_cache_header(fd, MODULES_CACHE_MAGIC, boot_id, &key, &unused) &&
			 key == m->key)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

void kernel_functions__free(struct kernel_function *functions, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(functions[i].name);
	free(functions);
}

_Static_assert(offsetof(struct kernel_function, addr) == 0,
	       "upper_bound() keys lead their elements");

/* The function holding addr, if any. */
static const struct kernel_function *function_at(const struct kernel_function *functions,
						 size_t count, uint64_t addr)
{
	size_t below = upper_bound(functions, count, sizeof(*functions), sizeof(functions->addr),
				   addr);
	if (below == 0 || addr - functions[below - 1].addr >= functions[below - 1].len)
		return NULL;
	return &functions[below - 1];
}

/* Names the wanted addresses outside [first, end) (the kernel's cache's
 * range): those in functions more lists from them, the rest, when each
 * lies in a module loaded now (/proc/modules is read only then), from the
 * modules' cache of these modules. true if it named them all (else it
 * names none). */
static bool name_outside(struct kernel_symbols *k, size_t first, size_t end,
			 const struct kernel_symbol_sources *from, const char *boot_id)
{
	struct kernel_function *functions = NULL;
	struct loaded_modules modules;
	size_t count = 0, unnamed = 0;
	bool in_modules;

	if (first == 0 && end == k->count)
		return true;
	if (from->more && from->more(&functions, &count) != 0)
		count = 0;
	for (size_t i = 0; i < k->count; i++) {
		if (i >= first && i < end)
			continue;
		const struct kernel_function *f = function_at(functions, count, k->wanted[i]);
		if (f)
			k->nearest[i] = (struct nearest){ f->addr, fk_strdup(f->name), true };
		else
			unnamed++;
	}
	kernel_functions__free(functions, count);
	if (unnamed == 0)
		return true;
	in_modules = read_modules(from->modules, &modules);
	for (size_t i = 0; i < k->count && in_modules; i++)
		in_modules = (i >= first && i < end) || k->nearest[i].name ||
			in_module(&modules, k->wanted[i]);
	int fd = in_modules ? open_modules_cache(from->cache, boot_id, &modules) : -1;
	free(modules.ranges);
	if (fd < 0) {
		forget_nearest(k);
		return false;
	}
	/* (symbols nearer than a module's, where the functions' are, are
	 * kept; an address without one of its own gets the one below it in
	 * kernel_symbols__resolve(), as from kallsyms) */
	resolve_from_cache(k, fd, k->count);
	close(fd);
	return true;
}

/*
 * Resolves the wanted addresses from a cache file of this boot: true if it
 * could (those outside the kernel's own text named by from->more and the
 * modules' cache). *current says whether the file is this boot's (then it
 * need not be written again).
 */
static bool resolve_with_cache(struct kernel_symbols *k, const struct kernel_symbol_sources *from,
			       const char *boot_id, bool *current)
{
	uint64_t lowest, highest;
	int fd = open(from->cache, O_RDONLY | O_CLOEXEC);
	bool resolved = false;

	*current = fd >= 0 && read_cache_header(fd, CACHE_MAGIC, boot_id, &lowest, &highest);
	if (*current) {
		size_t first = lower_bound(k->wanted, k->count, lowest);
		size_t end = highest == UINT64_MAX ? k->count :
			lower_bound(k->wanted, k->count, highest + 1);
		if (name_outside(k, first, end, from, boot_id)) {
			if (end > first)
				resolve_from_cache(k, fd, end);
			resolved = true;
		}
	}
	if (fd >= 0)
		close(fd);
	return resolved;
}

/* The cache as it is written: in the same pass over kallsyms as the
 * resolving, which then reads the kernel's whole own part. */
struct cache_writer {
	struct output *out;
	uint64_t lowest, highest;   /* the text symbols written (0: none yet) */
};

/* Starts a cache file of magic's kind, its header's numbers first and
 * second (the kernel's: its range, left 0 until cache_writer__finish()).
 * false (after output__open()'s message) when it cannot be written. */
static bool cache_writer__open(struct cache_writer *c, const char *path, const char *magic,
			       const char *boot_id, uint64_t first, uint64_t second)
{
	*c = (struct cache_writer){ NULL, 0, 0 };
	if (output__open(&c->out, path) < 0)
		return false;
	FILE *f = output__stream(c->out);
	fwrite(magic, 1, 8, f);
	fwrite(boot_id, 1, BOOT_ID_LEN, f);
	fwrite(&first, 8, 1, f);
	fwrite(&second, 8, 1, f);
	return true;
}

/* One text symbol, in ascending order. */
static void cache_writer__put(struct cache_writer *c, uint64_t addr, const char *name, size_t len)
{
	uint16_t n = len > UINT16_MAX ? UINT16_MAX : (uint16_t)len;
	FILE *f = output__stream(c->out);

	if (!c->lowest)
		c->lowest = addr;
	c->highest = addr;
	fwrite(&addr, 8, 1, f);
	fwrite(&n, 2, 1, f);
	fwrite(name, 1, n, f);
}

/* Whether the symbols written so far hold every address from low to high. */
static bool cache_writer__covers(const struct cache_writer *c, uint64_t low, uint64_t high)
{
	return low >= c->lowest && high <= c->highest;
}

/* The kernel's cache's range, in its header; the file is kept only when
 * the scan saw real addresses and some text symbols. */
static void cache_writer__finish(struct cache_writer *c, bool any_address, const char *path)
{
	FILE *f = output__stream(c->out);

	if (any_address && c->highest && fseek(f, 8 + BOOT_ID_LEN, SEEK_SET) == 0) {
		fwrite(&c->lowest, 8, 1, f);
		fwrite(&c->highest, 8, 1, f);
		if (output__commit(c->out) < 0)
			warning("could not write the kernel symbol cache %s", path);
	} else {
		output__abort(c->out);
	}
}

/*
 * The modules' text symbols as kallsyms lists them (module by module, each
 * by address), kept to be written sorted at the end of the pass: a record
 * as the cache has it, and its place, for each.
 */
struct module_symbols {
	struct buf records;
	struct module_symbol {
		uint64_t addr;
		size_t at;   /* in records; also the order kallsyms gave */
	} *symbols;
	size_t count, cap;
};

static void module_symbols__add(struct module_symbols *m, uint64_t addr, const char *name,
				size_t len)
{
	uint16_t n = len > UINT16_MAX ? UINT16_MAX : (uint16_t)len;

	m->symbols = fk_grow(m->symbols, &m->cap, m->count + 1, sizeof(*m->symbols));
	m->symbols[m->count++] = (struct module_symbol){ addr, m->records.len };
	buf__append(&m->records, &addr, 8);
	buf__append(&m->records, &n, 2);
	buf__append(&m->records, name, n);
}

/* By address, then as kallsyms listed them (the first of one address is
 * the one resolving keeps). */
static int compare_module_symbols(const void *a, const void *b)
{
	const struct module_symbol *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* Writes the modules' cache of the kernel's cache_path, for the modules
 * of key. */
static void module_symbols__write(struct module_symbols *m, const char *cache_path,
				  const char *boot_id, uint64_t key)
{
	struct cache_writer writer;
	char *path = modules_cache_path(cache_path);

	if (m->count)
		qsort(m->symbols, m->count, sizeof(*m->symbols), compare_module_symbols);
	if (cache_writer__open(&writer, path, MODULES_CACHE_MAGIC, boot_id, key, 0)) {
		for (size_t i = 0; i < m->count; i++) {
			const char *record = m->records.data + m->symbols[i].at;
			uint16_t len;
			memcpy(&len, record + 8, 2);
			cache_writer__put(&writer, m->symbols[i].addr, record + 10, len);
		}
		if (output__commit(writer.out) < 0)
			warning("could not write the kernel symbol cache %s", path);
	}
	free(path);
}

/* One line of kallsyms, as scan_kallsyms() hands it over. */
struct kallsyms_line {
	uint64_t addr;
	char type;                /* 't', 'T', 'w', 'W': text (is_text_type()) */
	const char *name;         /* len bytes, not NUL-terminated */
	size_t len;
	const char *owner;        /* owner_len bytes: "ext4" of "[ext4]", "bpf"; 0: the kernel's own */
	size_t owner_len;
	bool ascending;           /* no address so far below the one before it */
	bool any_address;         /* some address so far, this one too, was not 0 */
};

/* Whether l is a module's ("[ext4]"; not "[bpf]" nor "[__builtin__ftrace]"). */
static bool in_module_line(const struct kallsyms_line *l)
{
	return l->owner_len && !(l->owner_len == 3 && memcmp(l->owner, "bpf", 3) == 0) &&
	       !(l->owner_len >= 11 && memcmp(l->owner, "__builtin__", 11) == 0);
}

/*
 * Hands every well-formed line of f (kallsyms, just opened) to visit until
 * it returns false, then closes f. Returns whether some line showed an
 * address other than 0 (with kernel.kptr_restrict all are 0).
 */
static bool scan_kallsyms(FILE *f, bool (*visit)(const struct kallsyms_line *, void *), void *arg)
{
	struct kallsyms_line l = { .ascending = true };
	uint64_t previous = 0;
	char line[512];

	/* Big reads: each read of /proc/kallsyms costs a system call and
	 * the kernel's setup; the default 4 KB buffer makes thousands. */
	size_t buffer_size = 256 * 1024;
	char *buffer = fk_malloc(buffer_size);  /* glibc ignores the size without one */
	setvbuf(f, buffer, _IOFBF, buffer_size);
	while (fgets(line, sizeof line, f)) {
		char *end;
		l.addr = strtoull(line, &end, 16);
		if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
			continue;
		l.any_address |= l.addr != 0;
		l.ascending &= l.addr >= previous;
		previous = l.addr;
		l.type = end[1];
		l.name = end + 3;
		l.len = strcspn(l.name, " \t\n");
		l.owner = l.name + l.len + strspn(l.name + l.len, " \t");
		l.owner_len = l.owner[0] == '[' ? strcspn(++l.owner, "]\n") : 0;
		if (!visit(&l, arg))
			break;
	}
	fclose(f);
	free(buffer);
	return l.any_address;
}

struct resolving {
	struct kernel_symbols *k;
	struct cache_writer *cache;       /* NULL: none to write */
	struct module_symbols *modules;   /* NULL: no modules' cache to write */
	struct candidate candidate;
};

static bool resolve_line(const struct kallsyms_line *l, void *arg)
{
	struct resolving *r = arg;
	uint64_t lowest_wanted = r->k->wanted[0], highest_wanted = r->k->wanted[r->k->count - 1];

	/* The kernel lists its own symbols by address, then modules' and BPF
	 * programs' above them. Generating the text costs the kernel most of
	 * the time here, so stop once the ascending part has passed every
	 * wanted address: nothing later can be nearer. (The modules' cache,
	 * when one is written, takes the whole pass.) */
	if (!r->cache && !r->modules && l->ascending && l->addr > highest_wanted && l->any_address)
		return false;
	/* With the cache to write, the same stop comes after the kernel's own
	 * part, when that part held every wanted address */
	if (r->cache && !r->modules && !l->ascending &&
	    cache_writer__covers(r->cache, lowest_wanted, highest_wanted))
		return false;
	if (!is_text_type(l->type))
		return true;
	if (r->cache && l->ascending && l->addr && !l->owner_len)
		cache_writer__put(r->cache, l->addr, l->name, l->len);
	if (r->modules && l->addr && in_module_line(l))
		module_symbols__add(r->modules, l->addr, l->name, l->len);
	offer_symbol(r->k, &r->candidate, l->addr, l->name, l->len);
	return true;
}

/* Sorts the wanted addresses, drops repeats, and makes room for their
 * symbols, none found yet. */
static void prepare_wanted(struct kernel_symbols *k)
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
}

/* Resolves the wanted addresses in one pass over kallsyms, writing the
 * caches that are not this boot's (and the modules loaded now's) on the
 * way. */
static int resolve_from_kallsyms(struct kernel_symbols *k, const struct kernel_symbol_sources *from,
				 const char *boot_id, bool cache_current)
{
	struct cache_writer cache;
	struct loaded_modules modules = { 0 };
	struct module_symbols module_symbols = { BUF_INIT, NULL, 0, 0 };
	struct resolving r = { k, NULL, NULL, { .at = k->count } };
	FILE *f = fopen(from->kallsyms, "r");
	if (!f) {
		warning("cannot read %s (%s): kernel frames show as [unknown]", from->kallsyms,
			strerror(errno));
		return -1;
	}
	if (from->cache && !cache_current &&
	    cache_writer__open(&cache, from->cache, CACHE_MAGIC, boot_id, 0, 0))
		r.cache = &cache;
	if (from->cache && read_modules(from->modules, &modules)) {
		int fd = open_modules_cache(from->cache, boot_id, &modules);
		if (fd >= 0)
			close(fd);
		else
			r.modules = &module_symbols;
	}
	bool any_address = scan_kallsyms(f, resolve_line, &r);
	keep_candidate(k, &r.candidate);
	free(r.candidate.name);
	if (r.cache)
		cache_writer__finish(&cache, any_address, from->cache);
	if (r.modules && any_address)
		module_symbols__write(&module_symbols, from->cache, boot_id, modules.key);
	buf__free(&module_symbols.records);
	free(module_symbols.symbols);
	free(modules.ranges);
	if (!any_address) {
		forget_nearest(k);
		long kptr_restrict = -1;
		sysctl__read_long("kernel.kptr_restrict", &kptr_restrict);
		if (kptr_restrict >= 2)
			warning("%s shows no addresses: kernel.kptr_restrict is %ld, which hides "
				"them even from root: kernel frames show as [unknown]; set "
				"`sysctl kernel.kptr_restrict=1` (root sees them) and record again",
				from->kallsyms, kptr_restrict);
		else
			warning("%s shows no addresses (kernel.kptr_restrict is %ld): kernel "
				"frames show as [unknown]; run as root (CAP_SYSLOG) or set "
				"`sysctl kernel.kptr_restrict=0`", from->kallsyms, kptr_restrict);
		return -1;
	}
	return 0;
}

int kernel_symbols__resolve(struct kernel_symbols *k, const struct kernel_symbol_sources *from)
{
	struct kernel_symbol_sources sources = *from;
	char boot_id[BOOT_ID_LEN + 1];
	bool cache_current = false;

	prepare_wanted(k);
	if (k->count == 0)
		return 0;
	if (sources.cache && !read_boot_id(boot_id))
		sources.cache = NULL;
	if ((!sources.cache || !resolve_with_cache(k, &sources, boot_id, &cache_current)) &&
	    resolve_from_kallsyms(k, &sources, boot_id, cache_current) < 0)
		return -1;
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
