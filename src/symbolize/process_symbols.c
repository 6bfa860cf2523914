#include "process_symbols.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <libiberty/demangle.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "../lib/buf.h"
#include "../lib/index_table.h"
#include "../lib/xalloc.h"

#define UNKNOWN "[unknown]"          /* no mapping there */
#define UNKNOWN_JIT "[unknown:jit]"  /* anonymous code without a perf map entry */

struct symbol {
	uint64_t addr, size;
	const char *name;       /* in the ELF image or a perf map's names */
	char *demangled;        /* made on first use; NULL: not yet or not mangled */
	bool demangle_tried;
	unsigned char binding;  /* STB_*: which of several names of one address wins */
	char *annotated;        /* a perf map's name with _[j], made on first use */
};

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
	int debug_fd;            /* the separate debug file, if one is installed */
	Elf *debug_elf;
	char *mini_image;        /* MiniDebugInfo (.gnu_debugdata), inflated */
	Elf *mini_elf;
	struct symbol *symbols;  /* sorted by addr */
	size_t symbol_count;
	struct segment *segments;
	size_t segment_count;
	uint64_t image_low, image_high;  /* the loaded image's own addresses, pages whole */
	bool symbols_loaded;     /* binary__load_symbols() ran */
	bool from_file;          /* elf maps fd (not the vDSO's memory) */
};

/* One executable mapping of a process, from /proc/PID/maps (time 0: it was
 * there before anything was recorded) or from an mmap record (its time). */
struct mapping {
	uint64_t start, end, offset;
	uint64_t time;
	uint64_t dev, inode;
	char *path;              /* NULL: anonymous (JIT code, see perf_map) */
	struct binary *binary;   /* opened once the process is sampled; NULL: anonymous */
	bool vdso;
};

struct process {
	uint32_t pid;
	struct mapping *mappings;  /* in the order they were learnt; see mapping_at() */
	size_t mapping_count, mapping_cap;
	uint64_t *execs;           /* times it exec'd or was forked, ascending */
	size_t exec_count, exec_cap;
	uint64_t generation;       /* bumped whenever mappings change */
	bool sampled;              /* its binaries are opened as they are learnt */
	bool snapshot_taken;
	struct symbol *perf_map;   /* /tmp/perf-PID.map, sorted */
	size_t perf_map_count, perf_map_cap;
	char **perf_map_names;     /* one block of names per read: names never move */
	size_t perf_map_reads;
	long perf_map_offset;      /* read up to here (the JIT appends) */
	uint64_t perf_map_checked; /* CLOCK_MONOTONIC_COARSE ns of the last look */
};

struct process_symbols {
	struct process **processes;
	size_t process_count, process_cap;
	struct index_table process_index;
	struct binary **binaries;
	size_t binary_count, binary_cap;
	struct index_table binary_index;
	struct binary *vdso;     /* our own vDSO: every process on this kernel maps the same */
	bool vdso_tried;
	bool jit_suffix;         /* names from perf maps end in _[j] */
};

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	return x ^ (x >> 33);
}

static uint64_t process_hash_of(const void *items, size_t index)
{
	return mix64(((struct process *const *)items)[index]->pid);
}

static uint64_t binary_key_hash(uint64_t dev, uint64_t inode)
{
	return mix64(dev * 0x9e3779b97f4a7c15ULL ^ inode);
}

static uint64_t binary_hash_of(const void *items, size_t index)
{
	const struct binary *b = ((struct binary *const *)items)[index];
	return binary_key_hash(b->dev, b->inode);
}

struct process_symbols *process_symbols__new(void)
{
	struct process_symbols *ps = fk_calloc(1, sizeof(*ps));
	elf_version(EV_CURRENT);
	index_table__init(&ps->process_index, 64);
	index_table__init(&ps->binary_index, 64);
	return ps;
}

static void binary__free(struct binary *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->symbol_count; i++)
		free(b->symbols[i].demangled);
	free(b->symbols);
	free(b->segments);
	free(b->path);
	free(b->unknown_name);
	if (b->elf)
		elf_end(b->elf);
	if (b->fd >= 0)
		close(b->fd);
	if (b->debug_elf)
		elf_end(b->debug_elf);
	if (b->debug_fd >= 0)
		close(b->debug_fd);
	if (b->mini_elf)
		elf_end(b->mini_elf);
	free(b->mini_image);
	free(b);
}

void process_symbols__free(struct process_symbols *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->process_count; i++) {
		struct process *p = ps->processes[i];
		for (size_t j = 0; j < p->mapping_count; j++)
			free(p->mappings[j].path);
		free(p->mappings);
		free(p->execs);
		for (size_t j = 0; j < p->perf_map_count; j++) {
			free(p->perf_map[j].demangled);
			free(p->perf_map[j].annotated);
		}
		free(p->perf_map);
		for (size_t j = 0; j < p->perf_map_reads; j++)
			free(p->perf_map_names[j]);
		free(p->perf_map_names);
		free(p);
	}
	free(ps->processes);
	index_table__release(&ps->process_index);
	for (size_t i = 0; i < ps->binary_count; i++)
		binary__free(ps->binaries[i]);
	free(ps->binaries);
	index_table__release(&ps->binary_index);
	if (ps->vdso) {
		ps->vdso->fd = -1;
		binary__free(ps->vdso);
	}
	free(ps);
}

static size_t leading_underscores(const char *name)
{
	size_t n = 0;
	while (name[n] == '_')
		n++;
	return n;
}

/*
 * Of two names of one address, the better first, as perf picks (so that
 * stacks read the same in both): a sized one, then not weak, then global,
 * then fewer leading underscores, then the longer name ("__libc_start_main"
 * over its local aliases, "clock_gettime" over "__clock_gettime").
 */
static int compare_aliases(const struct symbol *x, const struct symbol *y)
{
	if ((x->size == 0) != (y->size == 0))
		return x->size == 0 ? 1 : -1;
	if ((x->binding == STB_WEAK) != (y->binding == STB_WEAK))
		return x->binding == STB_WEAK ? 1 : -1;
	if ((x->binding == STB_GLOBAL) != (y->binding == STB_GLOBAL))
		return x->binding == STB_GLOBAL ? -1 : 1;
	size_t ux = leading_underscores(x->name), uy = leading_underscores(y->name);
	if (ux != uy)
		return ux < uy ? -1 : 1;
	size_t lx = strcspn(x->name, "@"), ly = strcspn(y->name, "@");
	if (lx != ly)
		return lx > ly ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int compare_symbols(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return compare_aliases(x, y);
}

/* Keeps one symbol per address, sorted. */
static void sort_symbols(struct symbol *symbols, size_t *count)
{
	size_t kept = 0;

	if (*count)
		qsort(symbols, *count, sizeof(*symbols), compare_symbols);
	for (size_t i = 0; i < *count; i++)
		if (kept == 0 || symbols[kept - 1].addr != symbols[i].addr)
			symbols[kept++] = symbols[i];
	*count = kept;
}

/* Adds the function symbols of .symtab and .dynsym of elf. */
static void binary__read_symbols(struct binary *b, Elf *elf, size_t *cap)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		if (!gelf_getshdr(scn, &shdr) ||
		    (shdr.sh_type != SHT_SYMTAB && shdr.sh_type != SHT_DYNSYM) || !shdr.sh_entsize)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		size_t n = shdr.sh_size / shdr.sh_entsize;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(data, (int)i, &sym))
				break;
			int type = GELF_ST_TYPE(sym.st_info);
			if ((type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE) ||
			    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
			    sym.st_value == 0)
				continue;
			/* untyped labels name code too where they sit in code (ld.so's
			 * _start), as perf takes them */
			GElf_Shdr section;
			if (type == STT_NOTYPE &&
			    (!gelf_getshdr(elf_getscn(elf, sym.st_shndx), &section) ||
			     !(section.sh_flags & SHF_EXECINSTR)))
				continue;
			const char *name = elf_strptr(elf, shdr.sh_link, sym.st_name);
			if (!name || !*name || (name[0] == '$' && type == STT_NOTYPE))
				continue;
			b->symbols = fk_grow(b->symbols, cap, b->symbol_count + 1, sizeof(*b->symbols));
			b->symbols[b->symbol_count++] = (struct symbol){
				sym.st_value, sym.st_size, name, NULL, false, GELF_ST_BIND(sym.st_info), NULL };
		}
	}
}

static bool has_symtab(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_SYMTAB)
			return true;
	return false;
}

/* A debug file candidate: opened if it is an ELF file other than b's own. */
/* The CRC-32 of the whole file that .gnu_debuglink gives (zlib's crc32). */
static bool file_crc32(int fd, uint32_t *crc)
{
	unsigned char chunk[65536];
	uLong sum = crc32(0L, Z_NULL, 0);
	off_t at = 0;
	for (ssize_t n; (n = pread(fd, chunk, sizeof(chunk), at)) != 0; at += n) {
		if (n < 0)
			return false;
		sum = crc32(sum, chunk, (uInt)n);
	}
	*crc = (uint32_t)sum;
	return true;
}

/*
 * Whether a debug file found by name belongs to the binary: its build id is
 * the binary's, or, for a binary without one, the file's CRC is the one its
 * .gnu_debuglink names (crc NULL: none to check). A debug file left from
 * another build would otherwise name every frame wrongly.
 */
static bool binary__debug_file_matches(const struct binary *b, Elf *debug, int fd,
				       const GElf_Word *crc)
{
	const void *id, *debug_id;
	ssize_t len = dwelf_elf_gnu_build_id(b->elf, &id);
	if (len > 0) {
		ssize_t debug_len = dwelf_elf_gnu_build_id(debug, &debug_id);
		return debug_len == len && memcmp(id, debug_id, (size_t)len) == 0;
	}
	uint32_t sum;
	return !crc || (file_crc32(fd, &sum) && sum == *crc);
}

static bool binary__try_debug_file(struct binary *b, const char *path, const GElf_Word *crc)
{
	struct stat mine, theirs;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (fstat(fd, &theirs) != 0 || (fstat(b->fd, &mine) == 0 && mine.st_dev == theirs.st_dev &&
					mine.st_ino == theirs.st_ino)) {
		close(fd);
		return false;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !has_symtab(elf) ||
	    !binary__debug_file_matches(b, elf, fd, crc)) {
		if (elf)
			elf_end(elf);
		close(fd);
		return false;
	}
	b->debug_fd = fd;
	b->debug_elf = elf;
	return true;
}

/*
 * Opens the separate debug file of a stripped binary where distributions
 * put them: by build id (/usr/lib/debug/.build-id/xx/yyyy.debug, as
 * Debian's -dbgsym packages and debuginfod caches lay them out), else by
 * its .gnu_debuglink name beside it, in .debug/ there, or under
 * /usr/lib/debug/DIR/ (gdb's and libdwfl's places, in their order).
 */
static void binary__open_debug_file(struct binary *b, const char *named)
{
	const void *id;
	ssize_t len = dwelf_elf_gnu_build_id(b->elf, &id);
	char path[4400];
	int at;

	if (len > 1 && len <= 64) {
		at = snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%02x/",
			      ((const unsigned char *)id)[0]);
		for (ssize_t i = 1; i < len; i++)
			at += snprintf(path + at, sizeof path - (size_t)at, "%02x",
				       ((const unsigned char *)id)[i]);
		snprintf(path + at, sizeof path - (size_t)at, ".debug");
		if (binary__try_debug_file(b, path, NULL))
			return;
	}
	GElf_Word crc;
	const char *link = dwelf_elf_gnu_debuglink(b->elf, &crc);
	const char *slash = named ? strrchr(named, '/') : NULL;
	if (!link || strchr(link, '/') || !slash)
		return;
	int dir = (int)(slash - named);
	snprintf(path, sizeof path, "%.*s/%s", dir, named, link);
	if (binary__try_debug_file(b, path, &crc))
		return;
	snprintf(path, sizeof path, "%.*s/.debug/%s", dir, named, link);
	if (binary__try_debug_file(b, path, &crc))
		return;
	snprintf(path, sizeof path, "/usr/lib/debug%.*s/%s", dir, named, link);
	binary__try_debug_file(b, path, &crc);
}

/* MiniDebugInfo: an xz-compressed ELF file of the function symbols that
 * .dynsym lacks, in section .gnu_debugdata (Fedora's and others' way of
 * keeping names of stripped binaries without debug packages). */
static void binary__open_mini_debuginfo(struct binary *b)
{
	size_t strings;
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	Elf_Data *data = NULL;

	if (elf_getshdrstrndx(b->elf, &strings) != 0)
		return;
	while (!data && (scn = elf_nextscn(b->elf, scn)) != NULL) {
		const char *name = gelf_getshdr(scn, &shdr) ?
			elf_strptr(b->elf, strings, shdr.sh_name) : NULL;
		if (name && strcmp(name, ".gnu_debugdata") == 0 && shdr.sh_type == SHT_PROGBITS)
			data = elf_rawdata(scn, NULL);
	}
	if (!data || data->d_size == 0)
		return;
	size_t cap = data->d_size * 8 < (64u << 20) ? data->d_size * 8 : (64u << 20), len = 0;
	for (;;) {
		uint64_t memlimit = UINT64_MAX;
		size_t in_pos = 0;
		len = 0;
		b->mini_image = fk_realloc(b->mini_image, cap);
		lzma_ret ret = lzma_stream_buffer_decode(&memlimit, 0, NULL, data->d_buf, &in_pos,
							 data->d_size, (uint8_t *)b->mini_image, &len,
							 cap);
		if (ret == LZMA_OK)
			break;
		if (ret != LZMA_BUF_ERROR || cap >= (256u << 20)) {
			free(b->mini_image);
			b->mini_image = NULL;
			return;
		}
		cap *= 2;
	}
	b->mini_elf = elf_memory(b->mini_image, len);
	if (b->mini_elf && elf_kind(b->mini_elf) != ELF_K_ELF) {
		elf_end(b->mini_elf);
		b->mini_elf = NULL;
	}
}

/*
 * Gives back the pages of a mapped file read so far (its symbol tables):
 * they are the page cache's, our resident set need not hold them, and a
 * name used later faults its page in again. A big program's .symtab and
 * .strtab (node's: 20 MB) would otherwise stay resident to the end.
 */
static void release_pages(Elf *elf)
{
	size_t size;
	char *raw = elf ? elf_rawfile(elf, &size) : NULL;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	if (!raw || size == 0)
		return;
	uintptr_t start = (uintptr_t)raw & ~(page - 1);
	madvise((void *)start, size + ((uintptr_t)raw - start), MADV_DONTNEED);
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

/* Reads the function symbols, the first time a name is wanted: recording
 * needs only the open file (and its unwind table), and reading a big
 * program's symbols (node's: 150,000) would hold up the copied stacks. */
static void binary__load_symbols(struct binary *b)
{
	size_t cap = 0;

	if (b->symbols_loaded)
		return;
	b->symbols_loaded = true;
	if (!b->elf || elf_kind(b->elf) != ELF_K_ELF)
		return;
	binary__read_symbols(b, b->elf, &cap);
	if (b->from_file && elf_getscn(b->elf, 0) && !has_symtab(b->elf)) {
		binary__open_debug_file(b, b->path);
		if (b->debug_elf)
			binary__read_symbols(b, b->debug_elf, &cap);
		else
			binary__open_mini_debuginfo(b);
		if (b->mini_elf)
			binary__read_symbols(b, b->mini_elf, &cap);
	}
	sort_symbols(b->symbols, &b->symbol_count);
	release_pages(b->from_file ? b->elf : NULL);
	release_pages(b->debug_elf);
}

/* Opens path, the binary the process names `named` (where its debug file
 * is looked for, when its symbols are). */
static struct binary *binary__open(const char *path, const char *named, uint64_t dev,
				   uint64_t inode)
{
	struct binary *b = fk_calloc(1, sizeof(*b));
	struct stat st;

	b->dev = dev;
	b->inode = inode;
	b->debug_fd = -1;
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
	b->from_file = b->elf != NULL;
	if (b->elf)
		binary__read_elf(b);
	return b;
}

/* Our own vDSO, read from memory: the kernel maps the same image everywhere. */
static struct binary *vdso(struct process_symbols *ps)
{
	if (ps->vdso_tried)
		return ps->vdso;
	ps->vdso_tried = true;
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
	b->debug_fd = -1;
	b->path = fk_strdup("[vdso]");
	/* a file of it too, for the unwinder (libdwfl reads modules from files) */
	int fd = memfd_create("vdso", MFD_CLOEXEC);
	if (fd >= 0 && write(fd, (const void *)(uintptr_t)start, end - start) ==
	    (ssize_t)(end - start))
		b->fd = fd;
	else if (fd >= 0)
		close(fd);
	b->elf = elf_memory((char *)(uintptr_t)start, end - start);
	if (b->elf)
		binary__read_elf(b);
	ps->vdso = b;
	return b;
}

static struct binary *binary_for(struct process_symbols *ps, uint32_t pid, uint64_t start,
				 uint64_t end, const char *path, uint64_t dev, uint64_t inode)
{
	uint64_t hash = binary_key_hash(dev, inode);
	size_t slot = index_table__first(&ps->binary_index, hash);
	for (uint32_t at; (at = ps->binary_index.slots[slot]) != 0;
	     slot = index_table__next(&ps->binary_index, slot)) {
		struct binary *b = ps->binaries[at - 1];
		if (b->dev == dev && b->inode == inode)
			return b;
	}
	/* The process's own view of the file first: it may be deleted, or in
	 * another mount namespace (a container). Once it has exited, the path
	 * as seen from here. */
	char where[4200];
	struct binary *b;
	snprintf(where, sizeof where, "/proc/%u/map_files/%" PRIx64 "-%" PRIx64, pid, start, end);
	b = binary__open(where, path, dev, inode);
	if (!b->elf) {
		binary__free(b);
		snprintf(where, sizeof where, "/proc/%u/root%s", pid, path);
		b = binary__open(where, path, dev, inode);
	}
	if (!b->elf) {
		binary__free(b);
		b = binary__open(path, path, dev, inode);
	}
	ps->binaries = fk_grow(ps->binaries, &ps->binary_cap, ps->binary_count + 1,
			       sizeof(*ps->binaries));
	ps->binaries[ps->binary_count] = b;
	index_table__insert(&ps->binary_index, slot, ps->binary_count++, binary_hash_of,
			    ps->binaries);
	return b;
}

static void mapping__open(struct process_symbols *ps, uint32_t pid, struct mapping *m)
{
	if (m->binary)
		return;
	if (m->vdso)
		m->binary = vdso(ps);
	else if (m->path)
		m->binary = binary_for(ps, pid, m->start, m->end, m->path, m->dev, m->inode);
}

static void process__add_mapping(struct process_symbols *ps, struct process *p,
				 const struct mapping *m)
{
	p->mappings = fk_grow(p->mappings, &p->mapping_cap, p->mapping_count + 1,
			      sizeof(*p->mappings));
	struct mapping *added = &p->mappings[p->mapping_count++];
	*added = *m;
	added->path = m->path ? fk_strdup(m->path) : NULL;
	added->binary = NULL;
	p->generation++;
	if (p->sampled)
		mapping__open(ps, p->pid, added);
}

/* A mapping of path: a file, the vDSO, or anonymous (NULL path). */
static void mapping__init(struct mapping *m, uint64_t start, uint64_t end, uint64_t offset,
			  uint64_t dev, uint64_t inode, const char *path, uint64_t time)
{
	*m = (struct mapping){ start, end, offset, time, dev, inode, NULL, NULL, false };
	if (strcmp(path, "[vdso]") == 0)
		m->vdso = true;
	else if (path[0] == '/' && inode != 0)
		m->path = (char *)path;  /* copied by process__add_mapping */
}

/* Reads the executable mappings of pid (none if it is gone), as at time 0. */
static void process__read_maps(struct process_symbols *ps, struct process *p)
{
	char path[64], line[4400];

	p->snapshot_taken = true;
	snprintf(path, sizeof path, "/proc/%u/maps", p->pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		uint64_t start, end, offset, inode;
		unsigned major, minor;
		char perms[8];
		int name_at = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %n",
			   &start, &end, perms, &offset, &major, &minor, &inode, &name_at) < 7 ||
		    strchr(perms, 'x') == NULL)
			continue;
		char *name = line + name_at;
		name[strcspn(name, "\n")] = 0;
		struct mapping m;
		mapping__init(&m, start, end, offset, (uint64_t)major << 32 | minor, inode, name, 0);
		process__add_mapping(ps, p, &m);
	}
	fclose(f);
}

static struct process *process_find(struct process_symbols *ps, uint32_t pid, bool create)
{
	uint64_t hash = mix64(pid);
	size_t slot = index_table__first(&ps->process_index, hash);
	for (uint32_t at; (at = ps->process_index.slots[slot]) != 0;
	     slot = index_table__next(&ps->process_index, slot))
		if (ps->processes[at - 1]->pid == pid)
			return ps->processes[at - 1];
	if (!create)
		return NULL;
	struct process *p = fk_calloc(1, sizeof(*p));
	p->pid = pid;
	ps->processes = fk_grow(ps->processes, &ps->process_cap, ps->process_count + 1,
				sizeof(*ps->processes));
	ps->processes[ps->process_count] = p;
	index_table__insert(&ps->process_index, slot, ps->process_count++, process_hash_of,
			    ps->processes);
	return p;
}

/* The process, its mappings known and its binaries open: a process that
 * began before the recording (no exec or fork of it seen) is read from
 * /proc/PID/maps the first time it is asked about. */
static struct process *process_for(struct process_symbols *ps, uint32_t pid)
{
	struct process *p = process_find(ps, pid, true);

	if (!p->sampled) {
		p->sampled = true;
		if (!p->snapshot_taken && p->exec_count == 0)
			process__read_maps(ps, p);
		for (size_t i = 0; i < p->mapping_count; i++)
			mapping__open(ps, pid, &p->mappings[i]);
	}
	return p;
}

void process_symbols__annotate_jit(struct process_symbols *ps, bool on)
{
	ps->jit_suffix = on;
}

void process_symbols__add(struct process_symbols *ps, uint32_t pid)
{
	process_for(ps, pid);
}

/* Times of execs (and forks: a new address space too), kept ascending. */
static void process__add_exec(struct process *p, uint64_t time)
{
	size_t at = p->exec_count;
	p->execs = fk_grow(p->execs, &p->exec_cap, p->exec_count + 1, sizeof(*p->execs));
	while (at > 0 && p->execs[at - 1] > time) {
		p->execs[at] = p->execs[at - 1];
		at--;
	}
	p->execs[at] = time;
	p->exec_count++;
	p->generation++;
}

/* When the address space in use at `time` began: its last exec or fork. */
static uint64_t process__epoch(const struct process *p, uint64_t time)
{
	uint64_t epoch = 0;
	for (size_t i = 0; i < p->exec_count && p->execs[i] <= time; i++)
		epoch = p->execs[i];
	return epoch;
}

/* The mapping that held addr at time: the last learnt of those made in
 * the address space of that time, before it. */
static struct mapping *mapping_at(struct process *p, uint64_t addr, uint64_t time)
{
	uint64_t epoch = process__epoch(p, time);
	for (size_t i = p->mapping_count; i > 0; i--) {
		struct mapping *m = &p->mappings[i - 1];
		if (addr >= m->start && addr < m->end && m->time <= time && m->time >= epoch)
			return m;
	}
	return NULL;
}

void process_symbols__mmap(struct process_symbols *ps, uint32_t pid, uint64_t start,
			   uint64_t len, uint64_t offset, uint64_t dev, uint64_t inode,
			   const char *path, uint64_t time)
{
	struct process *p = process_find(ps, pid, true);
	struct mapping m;

	mapping__init(&m, start, start + len, offset, dev, inode, path, time);
	process__add_mapping(ps, p, &m);
}

void process_symbols__exec(struct process_symbols *ps, uint32_t pid, uint64_t time)
{
	process__add_exec(process_find(ps, pid, true), time);
}

void process_symbols__fork(struct process_symbols *ps, uint32_t pid, uint32_t parent_pid,
			   uint64_t time)
{
	struct process *parent = process_find(ps, parent_pid, false);
	struct process *p = process_find(ps, pid, true);

	process__add_exec(p, time);
	if (!parent)
		return;  /* not known: the child's exec (or its /proc maps) will tell */
	if (!parent->snapshot_taken && parent->exec_count == 0)
		process__read_maps(ps, parent);
	/* the parent's address space, copied at the fork */
	uint64_t epoch = process__epoch(parent, time);
	size_t count = parent->mapping_count;
	for (size_t i = 0; i < count; i++) {
		struct mapping m = parent->mappings[i];
		if (m.time > time || m.time < epoch)
			continue;
		m.time = time;
		process__add_mapping(ps, p, &m);
	}
}
/* /tmp/perf-PID.map: "START SIZE name" per line, hex, as JITs write it,
 * appending as they compile: read from where the last read stopped. */
static void process__read_perf_map(struct process *p)
{
	char path[64], line[4096];
	struct buf names = BUF_INIT;
	size_t first = p->perf_map_count;
	struct stat st;

	snprintf(path, sizeof path, "/tmp/perf-%u.map", p->pid);
	if (stat(path, &st) != 0 || st.st_size <= p->perf_map_offset)
		return;
	FILE *f = fopen(path, "r");
	if (!f || fseek(f, p->perf_map_offset, SEEK_SET) != 0) {
		if (f)
			fclose(f);
		return;
	}
	while (fgets(line, sizeof line, f)) {
		uint64_t start, size;
		int name_at = 0;
		size_t len = strlen(line);
		if (len == 0 || line[len - 1] != '\n')
			break;  /* a line being written: next time */
		p->perf_map_offset += (long)len;
		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %n", &start, &size, &name_at) < 2 ||
		    !name_at)
			continue;
		char *name = line + name_at;
		name[strcspn(name, "\n")] = 0;
		p->perf_map = fk_grow(p->perf_map, &p->perf_map_cap, p->perf_map_count + 1,
				      sizeof(*p->perf_map));
		/* name holds an offset into names until the names stop moving */
		p->perf_map[p->perf_map_count++] = (struct symbol){
			start, size, (const char *)(uintptr_t)names.len, NULL, false, STB_GLOBAL, NULL };
		buf__append(&names, name, strlen(name) + 1);
	}
	fclose(f);
	if (p->perf_map_count == first) {
		buf__free(&names);
		return;
	}
	p->perf_map_names = fk_realloc(p->perf_map_names,
				       (p->perf_map_reads + 1) * sizeof(*p->perf_map_names));
	p->perf_map_names[p->perf_map_reads++] = names.data;
	for (size_t i = first; i < p->perf_map_count; i++)
		p->perf_map[i].name = names.data + (uintptr_t)p->perf_map[i].name;
	sort_symbols(p->perf_map, &p->perf_map_count);
}

/* Whether to look at the perf map again for an address outside every
 * mapping (a guess through garbage, mostly): at most every 50 ms per
 * process, as a stat per such frame would cost more than the names. */
static bool process__may_read_perf_map(struct process *p)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
	uint64_t ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	if (p->perf_map_checked && ns - p->perf_map_checked < 50000000u)
		return false;
	p->perf_map_checked = ns;
	return true;
}

static const char *symbol_name(struct symbol *s)
{
	if (!s->demangle_tried) {
		s->demangle_tried = true;
		if (s->name[0] == '_' && s->name[1] == 'Z')
			s->demangled = cplus_demangle(s->name, DMGL_PARAMS | DMGL_ANSI);
		/* "clock_gettime@@GLIBC_2.17" (a .symtab's versioned name): the name */
		else if (s->name[0] != '@' && strchr(s->name, '@'))
			s->demangled = fk_memdup(s->name, strcspn(s->name, "@"));
	}
	return s->demangled ? s->demangled : s->name;
}

/* The symbol containing addr in a sorted table, or NULL. */
static struct symbol *find_symbol(struct symbol *symbols, size_t count, uint64_t addr)
{
	size_t lo = 0, hi = count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (symbols[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	struct symbol *s = &symbols[lo - 1];
	/* Size 0 (hand-written assembly) counts as reaching the next symbol. */
	return s->size == 0 || addr < s->addr + s->size ? s : NULL;
}

static uint64_t file_offset_to_vaddr(const struct binary *b, uint64_t offset)
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

static const char *name_in(struct process_symbols *ps, struct process *p,
			   const struct mapping *m, uint64_t addr)
{
	if (m && m->binary) {
		binary__load_symbols(m->binary);
		uint64_t vaddr = file_offset_to_vaddr(m->binary, addr - m->start + m->offset);
		struct symbol *s = find_symbol(m->binary->symbols, m->binary->symbol_count, vaddr);
		if (s)
			return symbol_name(s);
	}
	if (m && m->binary)
		return binary__unknown_name(m->binary);
	/* JIT code is anonymous memory: named by the perf map, if any */
	struct symbol *s = find_symbol(p->perf_map, p->perf_map_count, addr);
	if (!s && (m || process__may_read_perf_map(p))) {
		process__read_perf_map(p);
		s = find_symbol(p->perf_map, p->perf_map_count, addr);
	}
	if (!s)
		return m ? UNKNOWN_JIT : UNKNOWN;
	if (!ps->jit_suffix)
		return symbol_name(s);
	if (!s->annotated) {
		struct buf b = BUF_INIT;
		buf__printf(&b, "%s_[j]", symbol_name(s));
		s->annotated = b.data;
	}
	return s->annotated;
}

const char *process_symbols__name(struct process_symbols *ps, uint32_t pid, uint64_t addr)
{
	return process_symbols__name_at(ps, pid, addr, UINT64_MAX);
}

const char *process_symbols__name_at(struct process_symbols *ps, uint32_t pid, uint64_t addr,
				     uint64_t time)
{
	struct process *p = process_for(ps, pid);
	return name_in(ps, p, mapping_at(p, addr, time), addr);
}

void process_symbols__see_code(struct process_symbols *ps, uint32_t pid, uint64_t addr,
			       uint64_t time)
{
	struct process *p = process_for(ps, pid);
	const struct mapping *m = mapping_at(p, addr, time);

	if (m && !m->binary && !find_symbol(p->perf_map, p->perf_map_count, addr))
		process__read_perf_map(p);
}

bool process_symbols__mapped(struct process_symbols *ps, uint32_t pid, uint64_t addr,
			     uint64_t time)
{
	return mapping_at(process_for(ps, pid), addr, time) != NULL;
}

uint64_t process_symbols__generation(struct process_symbols *ps, uint32_t pid)
{
	return process_for(ps, pid)->generation;
}

static void module_of(const struct mapping *m, struct process_module *out)
{
	const struct binary *b = m->binary;
	uint64_t vaddr = file_offset_to_vaddr(b, m->offset);

	out->fd = b->fd;
	out->elf = b->elf;
	out->path = b->path;
	out->start = m->start;
	out->end = m->end;
	out->bias = m->start - vaddr;
	out->low = out->bias + b->image_low;
	out->high = out->bias + b->image_high;
	out->key = b;
}

bool process_symbols__module_at(struct process_symbols *ps, uint32_t pid, uint64_t addr,
				uint64_t time, struct process_module *out)
{
	struct process *p = process_for(ps, pid);
	const struct mapping *m = mapping_at(p, addr, time);

	if (!m || !m->binary || !m->binary->elf)
		return false;
	module_of(m, out);
	return true;
}

size_t process_symbols__modules(struct process_symbols *ps, uint32_t pid, uint64_t time,
				struct process_module **modules)
{
	struct process *p = process_for(ps, pid);
	size_t count = 0, cap = 0;

	*modules = NULL;
	for (size_t i = p->mapping_count; i > 0; i--) {
		const struct mapping *m = &p->mappings[i - 1];
		if (!m->binary || !m->binary->elf || m->binary->fd < 0 || mapping_at(p, m->start, time) != m)
			continue;
		struct process_module module;
		module_of(m, &module);
		bool seen = false;
		for (size_t j = 0; j < count && !seen; j++)
			seen = (*modules)[j].key == module.key && (*modules)[j].bias == module.bias;
		if (seen)
			continue;
		*modules = fk_grow(*modules, &cap, count + 1, sizeof(**modules));
		(*modules)[count++] = module;
	}
	return count;
}
