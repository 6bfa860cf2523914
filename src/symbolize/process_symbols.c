#include "process_symbols.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <libiberty/demangle.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/buf.h"
#include "../lib/index_table.h"
#include "../lib/pid_table.h"
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
	Dwfl *dwfl;              /* the files the symbols come from; see binary__load_symbols() */
	struct symbol *symbols;  /* sorted by addr */
	size_t symbol_count;
	struct segment *segments;
	size_t segment_count;
	uint64_t image_low, image_high;  /* the loaded image's own addresses, pages whole */
	bool symbols_loaded;     /* binary__load_symbols() ran */
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
	struct pid_table processes;  /* of struct process */
	struct binary **binaries;
	size_t binary_count, binary_cap;
	struct index_table binary_index;
	struct binary *vdso;     /* our own vDSO: every process on this kernel maps the same */
	bool vdso_tried;
	bool jit_suffix;         /* names from perf maps end in _[j] */
};

static uint64_t binary_key_hash(uint64_t dev, uint64_t inode)
{
	return index_table__mix(dev * 0x9e3779b97f4a7c15ULL ^ inode);
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
	pid_table__init(&ps->processes);
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
	if (b->dwfl)
		dwfl_end(b->dwfl);
	free(b);
}

static void process__free(void *record)
{
	struct process *p = record;
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

void process_symbols__free(struct process_symbols *ps)
{
	if (!ps)
		return;
	pid_table__release(&ps->processes, process__free);
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

/* Whether addr lies in a mapping of a file (not memory of our own, such as
 * the MiniDebugInfo image libdwfl inflates). */
static bool in_file_mapping(const void *addr)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[512];
	bool found = false, file = false;

	while (maps && !found && fgets(line, sizeof line, maps)) {
		uint64_t low, high, inode;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %*s %*s %" SCNu64, &low, &high,
			   &inode) == 3 && (uintptr_t)addr >= low && (uintptr_t)addr < high) {
			found = true;
			file = inode != 0;
		}
	}
	if (maps)
		fclose(maps);
	return file;
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

/*
 * Reads the function symbols, the first time a name is wanted: recording
 * needs only the open file (and its unwind table), and reading a big
 * program's symbols (node's: 150,000) would hold up the copied stacks.
 *
 * The symbol table is the one libdwfl's standard lookups choose: the
 * binary's own .symtab; else the separate debug file where distributions
 * put it (/usr/lib/debug/.build-id/xx/yyyy.debug, or the .gnu_debuglink
 * name beside the binary, in .debug/ there or under /usr/lib/debug/DIR/),
 * taken only when its build id or CRC says it belongs to the binary; else
 * .dynsym with MiniDebugInfo's (.gnu_debugdata, xz). The Dwfl is kept:
 * the names point into its files.
 */
static void binary__load_symbols(struct binary *b)
{
	static const Dwfl_Callbacks callbacks = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
	};
	size_t cap = 0;

	if (b->symbols_loaded)
		return;
	b->symbols_loaded = true;
	int fd = b->fd >= 0 && b->elf ? dup(b->fd) : -1;
	if (fd < 0 || !(b->dwfl = dwfl_begin(&callbacks))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	/* named as the process named it: the debug link is looked for there */
	Dwfl_Module *module = dwfl_report_elf(b->dwfl, b->path, b->path, fd, 0, true);
	dwfl_report_end(b->dwfl, NULL, NULL);
	int count = module ? dwfl_module_getsymtab(module) : -1;
	Elf *files[3] = { NULL };
	for (int i = 1; i < count; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word section_index;
		Elf *elf;
		const char *name = dwfl_module_getsym_info(module, i, &sym, &addr, &section_index,
							   &elf, NULL);
		if (!symbol_names_code(&sym, section_index, elf, name))
			continue;
		for (size_t f = 0; f < 3 && files[f] != elf; f++)
			if (!files[f]) {
				files[f] = elf;
				break;
			}
		b->symbols = fk_grow(b->symbols, &cap, b->symbol_count + 1, sizeof(*b->symbols));
		b->symbols[b->symbol_count++] = (struct symbol){
			addr, sym.st_size, name, NULL, false, GELF_ST_BIND(sym.st_info), NULL };
	}
	sort_symbols(b->symbols, &b->symbol_count);
	for (size_t f = 0; f < 3 && files[f]; f++) {
		size_t size;
		const char *raw = elf_rawfile(files[f], &size);
		if (raw && in_file_mapping(raw))
			release_pages(files[f]);
	}
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
	return pid_table__get(&ps->processes, pid, create ? sizeof(struct process) : 0, NULL);
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
