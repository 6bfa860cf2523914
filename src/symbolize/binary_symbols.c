#include "binary_symbols.h"

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <xxhash.h>

#include "../lib/buf.h"
#include "../lib/cache_dir.h"
#include "../lib/index_table.h"
#include "../lib/pages.h"
#include "../lib/key_directory.h"
#include "../lib/xalloc.h"
#include "debuginfo.h"
#include "symbol_file.h"

/* A loadable segment: file offsets [offset, offset + size) hold vaddr... */
struct segment {
	uint64_t offset, vaddr, size;
};

struct binary {
	uint64_t dev, inode;
	char *path;              /* as the process named it */
	char *unknown_name;      /* "[unknown:no-symbols NAME]", made on first use */
	int fd;
	Elf *elf;
	struct symbol_file symbols;  /* see binary__load_symbols() */
	struct segment *segments;
	size_t segment_count;
	uint64_t image_low, image_high;  /* the loaded image's own addresses, pages whole */
	bool symbols_loaded;     /* binary__load_symbols() ran */
	bool in_memory;          /* elf is our own memory (the vDSO's image), not a file's */
	bool read_since_release;  /* pages read since binary__release_pages(): names
				   * looked up, or the ELF image handed out */
	unsigned idle_forgets;   /* binary__forget_names() calls since it last named */
	struct debuginfod_fetcher *fetch;  /* while the symbols load: where else to look */
	/* binary__want()'s addresses, each once (wanted_index finds them), and
	 * once binary__name_wanted() ran, sorted, with their names */
	uint64_t *wanted;
	size_t wanted_count, wanted_cap;
	struct index_table wanted_index;
	const char **wanted_names;
	struct key_directory wanted_directory;  /* over the sorted wanted */
	char *wanted_text;       /* copies of those of them read from the mapped symbol file */
};

/* Drops the wanted addresses and their names. */
static void binary__unwant(struct binary *b)
{
	free(b->wanted);
	free(b->wanted_names);
	free(b->wanted_text);
	index_table__release(&b->wanted_index);
	key_directory__release(&b->wanted_directory);
	b->wanted = NULL;
	b->wanted_names = NULL;
	b->wanted_text = NULL;
	b->wanted_count = b->wanted_cap = 0;
}

void binary__free(struct binary *b)
{
	if (!b)
		return;
	symbol_file__release(&b->symbols);
	binary__unwant(b);
	free(b->segments);
	free(b->path);
	free(b->unknown_name);
	if (b->elf)
		elf_end(b->elf);
	if (b->fd >= 0)
		close(b->fd);
	free(b);
}

/* Whether a symbol names code: a function, or an untyped label in code
 * (ld.so's _start), as perf takes them. */
static bool symbol_names_code(const GElf_Sym *sym, GElf_Word section_index, Elf *elf,
			      const char *name)
{
	int type = GELF_ST_TYPE(sym->st_info);
	GElf_Shdr section;

	if ((type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE) ||
	    section_index == SHN_UNDEF || section_index >= SHN_LORESERVE || sym->st_value == 0 ||
	    !name || !*name)
		return false;
	return type != STT_NOTYPE ||
	       (name[0] != '$' && gelf_getshdr(elf_getscn(elf, section_index), &section) &&
		(section.sh_flags & SHF_EXECINSTR));
}

/*
 * Gives back the pages of a mapped file read so far (its symbol tables):
 * they are the page cache's, our resident set need not hold them, and a
 * name used later faults its page in again. A big program's .symtab and
 * .strtab (node's: 20 MB) would otherwise stay resident to the end.
 */
static void release_elf_pages(Elf *elf)
{
	size_t size;
	const char *raw = elf ? elf_rawfile(elf, &size) : NULL;

	if (raw)
		pages__give_back(raw, size);
}

/* Lets go of the symbols binary__load_symbols() read or mapped. */
static void binary__unload_symbols(struct binary *b)
{
	symbol_file__release(&b->symbols);
	b->symbols_loaded = false;
}

void binary__forget_names(struct binary *b)
{
	binary__unwant(b);
	symbol_file__forget_names(&b->symbols);
	if (b->symbols_loaded && ++b->idle_forgets > BINARY_IDLE_FORGETS)
		binary__unload_symbols(b);
}

void binary__release_pages(struct binary *b, bool only_if_read)
{
	if (only_if_read && !b->read_since_release)
		return;
	b->read_since_release = false;
	if (!b->in_memory)
		release_elf_pages(b->elf);
	symbol_file__release_pages(&b->symbols);
}

/* Reads function symbols and loadable segments from an open ELF image. */
static void binary__read_elf(struct binary *b)
{
	size_t phnum = 0, segment_cap = 0;

	if (elf_kind(b->elf) != ELF_K_ELF || elf_getphdrnum(b->elf, &phnum) != 0)
		return;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr phdr;
		if (gelf_getphdr(b->elf, (int)i, &phdr) && phdr.p_type == PT_LOAD) {
			uint64_t align = phdr.p_align > 1 ? phdr.p_align : 1;
			if (b->segment_count == 0)
				b->image_low = phdr.p_vaddr & -align;
			if (phdr.p_vaddr + phdr.p_memsz > b->image_high)
				b->image_high = (phdr.p_vaddr + phdr.p_memsz + 4095) & -4096ULL;
			b->segments = fk_grow(b->segments, &segment_cap, b->segment_count + 1,
					      sizeof(*b->segments));
			b->segments[b->segment_count++] = (struct segment){
				phdr.p_offset, phdr.p_vaddr, phdr.p_filesz };
		}
	}
}

/* The debug file: this machine's (debuginfo__find_local()), else, when the
 * names may fetch it, a debuginfod server's by the binary's build id. */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct binary *b = *userdata;
	const unsigned char *bits;
	GElf_Addr vaddr;
	int fd = debuginfo__find_local(mod, userdata, modname, base, file_name, debuglink_file,
				       debuglink_crc, debuginfo_file_name);
	/* (the vDSO is the kernel's: no server has it) */
	if (fd >= 0 || !b || !b->fetch || !b->path || b->path[0] == '[')
		return fd;
	int len = dwfl_module_build_id(mod, &bits, &vaddr);
	return len > 0 ? debuginfod_fetcher__find(b->fetch, bits, len, b->path,
						  debuginfo_file_name) : -1;
}

/* Gives back the pages of the symbol files read so far (of a Dwfl). */
static void release_symbol_files(Elf *const files[3])
{
	for (size_t f = 0; f < 3 && files[f]; f++)
		release_elf_pages(files[f]);
}

/*
 * Reads the function symbols with libdwfl, from the files binary_symbols.h
 * says, packed into b->symbols (in our memory), and lets the files go (the
 * names are copied): false if the files could not be read (then b has no
 * symbols, for now). The files' pages are given back every
 * SYMBOLS_BETWEEN_RELEASES symbols read (or libLLVM's 1 MB of symbols and
 * 3 MB of their names would all be resident for a moment).
 */
#define SYMBOLS_BETWEEN_RELEASES 4096

static bool binary__read_symbols(struct binary *b)
{
	static const Dwfl_Callbacks callbacks = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = find_debuginfo,
	};
	int fd = b->fd >= 0 && b->elf ? dup(b->fd) : -1;
	Dwfl *dwfl = fd >= 0 ? dwfl_begin(&callbacks) : NULL;
	if (!dwfl) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	/* named as the process named it: the debug link is looked for there */
	Dwfl_Module *module = dwfl_report_elf(dwfl, b->path, b->path, fd, 0, true);
	dwfl_report_end(dwfl, NULL, NULL);
	if (!module) {
		dwfl_end(dwfl);
		return false;
	}
	void **userdata;
	if (dwfl_module_info(module, &userdata, NULL, NULL, NULL, NULL, NULL, NULL))
		*userdata = b;  /* for find_debuginfo() */
	int count = dwfl_module_getsymtab(module);  /* (-1: none at all) */
	Elf *seen[3] = { NULL }, *mapped[3] = { NULL };
	size_t kept = 0;
	struct symbol_table read = { 0 };
	if (count > 1)
		symbol_table__reserve(&read, (size_t)count - 1);
	for (int i = 1; i < count; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word section_index;
		Elf *elf;
		const char *name = dwfl_module_getsym_info(module, i, &sym, &addr, &section_index,
							   &elf, NULL);
		if (i % SYMBOLS_BETWEEN_RELEASES == 0)
			release_symbol_files(mapped);
		if (!symbol_names_code(&sym, section_index, elf, name))
			continue;
		for (size_t f = 0; f < 3 && seen[f] != elf; f++)
			if (!seen[f]) {
				size_t size;
				const char *raw = elf_rawfile(elf, &size);
				seen[f] = elf;
				if (raw && pages__in_file_mapping(raw))
					mapped[kept++] = elf;
				break;
			}
		symbol_table__add(&read, addr, sym.st_size, name, GELF_ST_BIND(sym.st_info));
	}
	symbol_table__sort(&read);
	symbol_file__pack(&read, &b->symbols);
	symbol_table__release(&read);
	dwfl_end(dwfl);
	return true;
}

/* Adds what stat says of a file to a hash: which file it is and its
 * version (any write changes the ctime), or that there is none. */
static void hash_file(XXH3_state_t *state, const char *path, const struct stat *st)
{
	uint64_t fields[7] = { 0 };
	if (st)
		memcpy(fields, (uint64_t[7]){ 1, st->st_dev, st->st_ino, (uint64_t)st->st_size,
					      (uint64_t)st->st_mtim.tv_sec,
					      (uint64_t)st->st_mtim.tv_nsec,
					      (uint64_t)st->st_ctim.tv_sec << 32 ^
					      (uint64_t)st->st_ctim.tv_nsec },
		       sizeof(fields));
	if (path)
		XXH3_128bits_update(state, path, strlen(path) + 1);
	XXH3_128bits_update(state, fields, sizeof(fields));
}

/* Adds a place a debug file is looked for, and what is there, to a hash. */
static bool hash_place(const char *path, void *state)
{
	struct stat st;
	hash_file(state, path, stat(path, &st) == 0 ? &st : NULL);
	return false;  /* all of them */
}

/*
 * The cache file of b's symbols (symbol_file.h): DIR/symbols/KEY, KEY a
 * hash of everything the symbols are read from: the binary's file as it
 * is now, the name it was mapped by, and each place a separate debug file
 * would be looked for (by build id, by .gnu_debuglink), with the file
 * there or none. A binary rebuilt or replaced, or a debug file installed,
 * changed or removed, is another key, read again. NULL where there is no
 * cache directory, or for the vDSO (our memory, a few symbols).
 */
static char *symbol_cache_path(const struct binary *b)
{
	struct stat st;
	if (b->in_memory || b->fd < 0 || !b->elf || fstat(b->fd, &st) != 0)
		return NULL;
	char *dir = cache_dir__path("symbols");
	if (!dir)
		return NULL;
	XXH3_state_t *state = XXH3_createState();
	XXH3_128bits_reset(state);
	XXH3_128bits_update(state, symbol_file__version, strlen(symbol_file__version));
	hash_file(state, b->path, &st);
	const unsigned char *id;
	ssize_t id_len = dwelf_elf_gnu_build_id(b->elf, (const void **)&id);
	GElf_Word crc;
	debuginfo__each_place(b->path, id, id_len > 0 ? (size_t)id_len : 0,
			      dwelf_elf_gnu_debuglink(b->elf, &crc), hash_place, state);
	XXH128_hash_t key = XXH3_128bits_digest(state);
	XXH3_freeState(state);
	struct buf path = BUF_INIT;
	buf__printf(&path, "%s/%016" PRIx64 "%016" PRIx64, dir, (uint64_t)key.high64,
		    (uint64_t)key.low64);
	free(dir);
	return path.data;
}

/*
 * Loads the function symbols (see binary_symbols.h), the first time a name
 * is wanted: recording needs only the open file (and its unwind table),
 * and reading a big program's symbols (node's: 150,000) would hold up the
 * copied stacks. They are mapped from the cache where an earlier run left
 * them; else read, packed, and left there for the next run (and mapped from
 * there: the file's pages can be given back, our heap's could not). Not
 * while a debuginfod server may be asked: what it gives is no file here.
 */
static void binary__load_symbols(struct binary *b)
{
	if (b->symbols_loaded)
		return;
	b->symbols_loaded = true;
	char *path = b->fetch ? NULL : symbol_cache_path(b);
	if (path && symbol_file__map(path, &b->symbols) == 0) {
		free(path);
		return;
	}
	struct symbol_file mapped;
	if (binary__read_symbols(b) && path && symbol_file__write(&b->symbols, path) == 0 &&
	    symbol_file__map(path, &mapped) == 0) {
		symbol_file__release(&b->symbols);
		b->symbols = mapped;
	}
	free(path);
}

struct binary *binary__open(const char *path, const char *named, uint64_t dev, uint64_t inode)
{
	struct binary *b = fk_calloc(1, sizeof(*b));
	struct stat st;

	elf_version(EV_CURRENT);
	b->dev = dev;
	b->inode = inode;
	b->fd = open(path, O_RDONLY | O_CLOEXEC);
	/* A file replaced since it was mapped (same file system, another
	 * inode) is not the one that ran: its symbols would lie. Other file
	 * systems (overlayfs in containers) report other devices: trusted. */
	if (b->fd >= 0 && fstat(b->fd, &st) == 0 && inode &&
	    ((uint64_t)major(st.st_dev) << 32 | minor(st.st_dev)) == dev && st.st_ino != inode) {
		close(b->fd);
		b->fd = -1;
	}
	if (b->fd >= 0)
		b->elf = elf_begin(b->fd, ELF_C_READ_MMAP, NULL);
	b->path = fk_strdup(named);
	if (b->elf) {
		binary__read_elf(b);
		/* the header pages read, and the 64 KB around each that the
		 * kernel maps with them: a build opens hundreds of binaries */
		release_elf_pages(b->elf);
	}
	return b;
}

struct binary *binary__open_vdso(void)
{
	elf_version(EV_CURRENT);
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uint64_t start = 0, end = 0;
	while (f && fgets(line, sizeof line, f))
		if (strstr(line, "[vdso]") && sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) == 2)
			break;
	if (f)
		fclose(f);
	if (end <= start)
		return NULL;
	struct binary *b = fk_calloc(1, sizeof(*b));
	b->fd = -1;
	b->path = fk_strdup("[vdso]");
	/* a file of it too, for the unwinder (libdwfl reads modules from files) */
	int fd = memfd_create("vdso", MFD_CLOEXEC);
	if (fd >= 0 && write(fd, (const void *)(uintptr_t)start, end - start) ==
	    (ssize_t)(end - start))
		b->fd = fd;
	else if (fd >= 0)
		close(fd);
	b->elf = elf_memory((char *)(uintptr_t)start, end - start);
	b->in_memory = true;
	if (b->elf)
		binary__read_elf(b);
	return b;
}

uint64_t binary__vaddr(const struct binary *b, uint64_t offset)
{
	for (size_t i = 0; i < b->segment_count; i++) {
		const struct segment *s = &b->segments[i];
		if (offset >= s->offset && offset < s->offset + s->size)
			return offset - s->offset + s->vaddr;
	}
	return offset;
}

/* Why a frame in b has no name, in the frame: its file could not be read
 * (gone, replaced), or it has no symbol there (stripped, no debug file). */
static const char *binary__unknown_name(struct binary *b)
{
	if (!b->unknown_name) {
		const char *base = b->path ? strrchr(b->path, '/') : NULL;
		struct buf name = BUF_INIT;
		buf__printf(&name, "[unknown:%s %s]", b->elf ? "no-symbols" : "unreadable",
			    base ? base + 1 : b->path ? b->path : "?");
		for (size_t i = 0; i < name.len; i++)
			if (name.data[i] == ';')
				name.data[i] = ':';
		b->unknown_name = name.data;
	}
	return b->unknown_name;
}

bool binary__is(const struct binary *b, uint64_t dev, uint64_t inode)
{
	return b->dev == dev && b->inode == inode;
}

bool binary__readable(const struct binary *b) { return b->elf != NULL; }
int binary__fd(const struct binary *b) { return b->fd; }
Elf *binary__elf(struct binary *b)
{
	b->read_since_release = true;  /* (its reader reads pages now or later) */
	return b->elf;
}
const char *binary__path(const struct binary *b) { return b->path; }

void binary__image(const struct binary *b, uint64_t *low, uint64_t *high)
{
	*low = b->image_low;
	*high = b->image_high;
}

/* Why a name binary__name() gave is what it is. */
static enum symbol_miss miss_of(const struct binary *b, const char *name)
{
	return name != b->unknown_name ? SYMBOL_FOUND : b->elf ? SYMBOL_NO_SYMBOL :
		SYMBOL_UNREADABLE;
}

static uint64_t wanted_hash_of(const void *items, size_t index)
{
	return index_table__mix(((const uint64_t *)items)[index]);
}

void binary__want(struct binary *b, uint64_t vaddr)
{
	if (b->wanted_names)
		return;  /* (named: what comes after is looked up as it comes) */
	if (!b->wanted_index.slots)
		index_table__init(&b->wanted_index, 64);
	size_t slot = index_table__first(&b->wanted_index, index_table__mix(vaddr));
	for (uint32_t at; (at = b->wanted_index.slots[slot]) != 0;
	     slot = index_table__next(&b->wanted_index, slot))
		if (b->wanted[at - 1] == vaddr)
			return;
	b->wanted = fk_grow(b->wanted, &b->wanted_cap, b->wanted_count + 1, sizeof(*b->wanted));
	b->wanted[b->wanted_count] = vaddr;
	index_table__insert(&b->wanted_index, slot, b->wanted_count++, wanted_hash_of, b->wanted);
}

/* The name of vaddr from the symbols, read or mapped now if they were not;
 * cursor: NULL, or as symbol_file__find_from() takes it (addresses asked in
 * ascending order). */
static const char *name_from_symbols(struct binary *b, uint64_t vaddr,
				     struct debuginfod_fetcher *fetch, size_t *cursor)
{
	const struct packed_symbol *s = NULL;
	if (b->elf) {
		b->fetch = fetch;
		b->read_since_release = true;
		b->idle_forgets = 0;
		binary__load_symbols(b);
		b->fetch = NULL;
		s = cursor ? symbol_file__find_from(&b->symbols, vaddr, cursor) :
			symbol_file__find(&b->symbols, vaddr);
	}
	return s ? symbol_file__name(&b->symbols, s) : binary__unknown_name(b);
}

static int compare_addresses(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Names given back per binary__release_pages() while the wanted are named
 * in address order: the pages behind are not read again (the symbols' and
 * the names' pages go up with the addresses). */
#define WANTED_RELEASE_EVERY 256

/*
 * The wanted names that are the mapped symbol file's own bytes (a name
 * shown as it is written: C's), copied into b->wanted_text. binary__name()
 * hands them out in stack order, and the profile reads each the first time
 * it meets it: read from the file, every such first read would map 64 KB
 * around it (the kernel's fault-around), all of a big binary's file over a
 * run's names. (Names made from them, demangled ones, are our memory.)
 */
static void copy_mapped_names(struct binary *b)
{
	/* each name once: the same symbol's addresses come in a row */
	size_t bytes = 0;
	const char *raw = NULL;
	for (size_t i = 0; i < b->wanted_count; i++)
		if (symbol_file__maps(&b->symbols, b->wanted_names[i]) && b->wanted_names[i] != raw) {
			raw = b->wanted_names[i];
			bytes += strlen(raw) + 1;
		}
	if (bytes == 0)
		return;
	b->read_since_release = true;  /* (pages read: given back after) */
	char *at = b->wanted_text = fk_malloc(bytes);
	const char *copy = NULL;
	raw = NULL;
	for (size_t i = 0; i < b->wanted_count; i++) {
		if (!symbol_file__maps(&b->symbols, b->wanted_names[i]))
			continue;
		if (b->wanted_names[i] != raw) {
			size_t size = strlen(b->wanted_names[i]) + 1;
			raw = b->wanted_names[i];
			copy = memcpy(at, raw, size);
			at += size;
		}
		b->wanted_names[i] = copy;
	}
}

void binary__name_wanted(struct binary *b, struct debuginfod_fetcher *fetch)
{
	if (b->wanted_names || b->wanted_count == 0)
		return;
	index_table__release(&b->wanted_index);
	qsort(b->wanted, b->wanted_count, sizeof(*b->wanted), compare_addresses);
	b->wanted = fk_realloc(b->wanted, b->wanted_count * sizeof(*b->wanted));
	b->wanted_cap = b->wanted_count;
	key_directory__build(&b->wanted_directory, b->wanted, b->wanted_count, sizeof(*b->wanted),
			     sizeof(*b->wanted));
	b->wanted_names = fk_malloc(b->wanted_count * sizeof(*b->wanted_names));
	size_t cursor = 0;
	for (size_t i = 0; i < b->wanted_count; i++) {
		b->wanted_names[i] = name_from_symbols(b, b->wanted[i], fetch, &cursor);
		if ((i + 1) % WANTED_RELEASE_EVERY == 0)
			binary__release_pages(b, true);
	}
	copy_mapped_names(b);
	binary__release_pages(b, true);
}

const char *binary__name(struct binary *b, uint64_t vaddr, struct debuginfod_fetcher *fetch,
			 enum symbol_miss *miss)
{
	const char *name = NULL;
	if (b->wanted_names) {
		size_t at = key_directory__upper_bound(&b->wanted_directory, b->wanted,
						       b->wanted_count, sizeof(*b->wanted),
						       sizeof(*b->wanted), vaddr);
		if (at && b->wanted[at - 1] == vaddr)
			name = b->wanted_names[at - 1];
	}
	if (!name)
		name = name_from_symbols(b, vaddr, fetch, NULL);
	if (miss)
		*miss = miss_of(b, name);
	return name;
}
