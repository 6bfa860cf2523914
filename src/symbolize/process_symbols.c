#include "process_symbols.h"

#include <errno.h>
#include <gelf.h>
#include <signal.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "../lib/buf.h"
#include "../lib/clock.h"
#include "../lib/index_table.h"
#include "../lib/pid_table.h"
#include "../lib/xalloc.h"
#include "../lib/procfs.h"
#include "binary_symbols.h"
#include "jvm_attach.h"
#include "symbol_table.h"

#define UNKNOWN "[unknown]"          /* no mapping there */
#define UNKNOWN_JIT "[unknown:jit]"  /* anonymous code without a perf map entry */

/* A file mapped, one for all its mappings (intern_file()): a build's
 * thousands of processes map the same dozen files. */
struct mapped_file {
	uint64_t dev, inode;
	uint64_t hash;
	bool used;               /* forget_unused_files()'s mark */
	char path[];
};

/* One executable mapping of a process, from /proc/PID/maps (time 0: it was
 * there before anything was recorded) or from an mmap record (its time). */
struct mapping {
	uint64_t start, end, offset;
	uint64_t time;
	struct mapped_file *file;  /* NULL: anonymous (JIT code, see perf_map), or the vDSO */
	struct binary *binary;   /* opened once the process is sampled; NULL: anonymous */
	uint32_t binary_id;      /* process_module.key of binary */
	bool vdso;
};

struct process {
	uint32_t pid;
	/* forked from parent_pid at fork_time (0: from none known): until it
	 * execs, its address space is the parent's at the fork, which
	 * mapping_at() looks in (not copied: most children exec at once) */
	uint32_t parent_pid;
	uint64_t fork_time;
	struct mapping *mappings;  /* in the order they were learnt; see mapping_at() */
	size_t mapping_count, mapping_cap;
	uint64_t *execs;           /* times it exec'd or was forked, ascending */
	size_t exec_count, exec_cap;
	uint64_t generation;       /* bumped whenever mappings change */
	uint64_t exited;           /* when it exited (ns); 0: alive, as far as told */
	struct process_jit *jit;   /* NULL until its JIT code is looked at */
	bool sampled;              /* its binaries are opened as they are learnt */
	bool snapshot_taken;
	bool mapped_since_forget;  /* mappings for process_symbols__forget_shadowed() to look at */
	/* HotSpot (it maps libjvm.so): asked for its perf map (jvm_attach.h) */
	bool jvm;
};

/* What naming a process's JIT code keeps: most processes (a build's
 * thousands) have none, and the record of each is kept to the end. */
struct process_jit {
	struct symbol_table perf_map;  /* /tmp/perf-PID.map, sorted */
	char **perf_map_names;     /* one block of names per read: names never move */
	size_t perf_map_reads;
	long perf_map_offset;      /* read up to here (the JIT appends) */
	uint64_t perf_map_checked; /* CLOCK_MONOTONIC_COARSE ns of the last look */
	bool jvm_asked_while_naming;  /* once, at its first JIT frame without a name */
	bool jvm_answered;         /* an ask succeeded once */
	struct jvm_ask *jvm_ask;   /* the ask in flight, if any */
	uint64_t jvm_next_ask;     /* CLOCK_MONOTONIC ns; 0: not scheduled yet */
	uint64_t jvm_interval;     /* ns to the ask after the next */
	char *jvm_refusal;         /* why the last ask failed */
};

/* A binary opened, by the file it is (device and inode). */
struct known_binary {
	uint64_t dev, inode;
	struct binary *binary;
	uint64_t id;               /* process_module.key: never given to another */
	unsigned unmapped_forgets; /* process_symbols__forget_binaries() calls that found
				    * no process mapping it, in a row */
};

/* Names given by lookups, by binary and address (direct-mapped: a newer
 * address takes an older one's slot): a stack's frames are looked up one
 * by one, and the same functions recur from stack to stack. Addresses
 * wanted are kept there too, without a name, so that the same recurring
 * frames are wanted once (binary__want() finds an address in a table as
 * big as the binary's wanted: a cache miss for each frame). */
#define NAME_SLOTS 4096

struct named_address {
	const struct binary *binary;  /* NULL: an empty slot */
	uint64_t vaddr;
	const char *name;             /* NULL: wanted, not named yet */
	enum symbol_miss miss;
};

/* One of mapping_at()'s last answers in a process's own mappings: the same
 * for any address in [low, high) of that process, while its mappings are as
 * they were (generation), at the same time. A stack's frames are mostly in
 * a few binaries (the program's, libc's, ...), and a process maps dozens (a
 * scan from the last learnt): the last MAPPING_HITS are kept. */
#define MAPPING_HITS 4

struct mapping_hit {
	const struct process *process;
	uint64_t generation, time, low, high;
	size_t index;
};

struct process_symbols {
	struct pid_table processes;  /* of struct process */
	struct process *last_process;  /* process_for()'s last answer (records never move) */
	/* NULL process: none (the records they name may go); the next to
	 * replace is hits[next_hit % MAPPING_HITS] */
	struct mapping_hit hits[MAPPING_HITS];
	unsigned next_hit;
	struct named_address *named;   /* NAME_SLOTS of them, once a lookup made one */
	size_t named_since_release;  /* binary__name() calls since the pages were given back */
	uint64_t jvm_turns_seen;     /* when process_symbols__ask_jvms() last went through (ns) */
	bool jvm_mapped;             /* a process mapped libjvm.so: there are JVMs to ask */
	struct known_binary *binaries;
	size_t binary_count, binary_cap;
	struct index_table binary_index;
	uint64_t last_binary_id;
	struct binary *vdso;     /* our own vDSO: every process on this kernel maps the same */
	uint64_t vdso_id;
	bool vdso_tried;
	bool jit_suffix;         /* names from perf maps end in _[j] */
	struct debuginfod_fetcher *fetch;  /* debug files missing here: from there */
	/* the files mapped (intern_file()) */
	struct mapped_file **files;
	size_t file_count, file_cap;
	struct index_table file_index;
};

struct process_symbols *process_symbols__new(void)
{
	struct process_symbols *ps = fk_calloc(1, sizeof(*ps));
	elf_version(EV_CURRENT);
	pid_table__init(&ps->processes);
	index_table__init(&ps->binary_index, 64);
	index_table__init(&ps->file_index, 64);
	return ps;
}

static void process__free(void *record)
{
	struct process *p = record;
	free(p->mappings);
	free(p->execs);
	if (p->jit) {
		symbol_table__release(&p->jit->perf_map);
		for (size_t j = 0; j < p->jit->perf_map_reads; j++)
			free(p->jit->perf_map_names[j]);
		free(p->jit->perf_map_names);
		free(p->jit->jvm_refusal);
		jvm_ask__free(p->jit->jvm_ask);
		free(p->jit);
	}
	free(p);
}

/* p's JIT naming state, made at the first need. */
static struct process_jit *process__jit(struct process *p)
{
	if (!p->jit)
		p->jit = fk_calloc(1, sizeof(*p->jit));
	return p->jit;
}

void process_symbols__free(struct process_symbols *ps)
{
	if (!ps)
		return;
	pid_table__release(&ps->processes, process__free);
	for (size_t i = 0; i < ps->binary_count; i++)
		binary__free(ps->binaries[i].binary);
	free(ps->binaries);
	index_table__release(&ps->binary_index);
	binary__free(ps->vdso);
	free(ps->named);
	for (size_t i = 0; i < ps->file_count; i++)
		free(ps->files[i]);
	free(ps->files);
	index_table__release(&ps->file_index);
	free(ps);
}

static uint64_t file_hash(const char *path, uint64_t dev, uint64_t inode)
{
	return XXH3_64bits_withSeed(path, strlen(path), dev * 0x9e3779b97f4a7c15ULL ^ inode);
}

static uint64_t file_hash_of(const void *items, size_t index)
{
	return ((struct mapped_file *const *)items)[index]->hash;
}

/* The file (path, dev, inode) once for all its mappings, kept while a
 * mapping has it (forget_unused_files()). */
static struct mapped_file *intern_file(struct process_symbols *ps, const char *path, uint64_t dev,
				       uint64_t inode)
{
	uint64_t hash = file_hash(path, dev, inode);
	size_t slot = index_table__first(&ps->file_index, hash);
	for (uint32_t at; (at = ps->file_index.slots[slot]) != 0;
	     slot = index_table__next(&ps->file_index, slot)) {
		struct mapped_file *f = ps->files[at - 1];
		if (f->hash == hash && f->dev == dev && f->inode == inode && strcmp(f->path, path) == 0)
			return f;
	}
	size_t len = strlen(path);
	struct mapped_file *f = fk_malloc(sizeof(*f) + len + 1);
	*f = (struct mapped_file){ dev, inode, hash, false };
	memcpy(f->path, path, len + 1);
	ps->files = fk_grow(ps->files, &ps->file_cap, ps->file_count + 1, sizeof(*ps->files));
	ps->files[ps->file_count] = f;
	index_table__insert(&ps->file_index, slot, ps->file_count++, file_hash_of, ps->files);
	return f;
}

/* Lets go of the files that no process's mappings have now. */
static void forget_unused_files(struct process_symbols *ps)
{
	size_t kept = 0;

	for (size_t i = 0; i < ps->file_count; i++)
		ps->files[i]->used = false;
	for (size_t i = 0; i < ps->processes.count; i++) {
		const struct process *p = ps->processes.records[i];
		for (size_t j = 0; j < p->mapping_count; j++)
			if (p->mappings[j].file)
				p->mappings[j].file->used = true;
	}
	for (size_t i = 0; i < ps->file_count; i++) {
		if (ps->files[i]->used)
			ps->files[kept++] = ps->files[i];
		else
			free(ps->files[i]);
	}
	if (kept < ps->file_count) {
		ps->file_count = kept;
		index_table__rebuild(&ps->file_index, kept, file_hash_of, ps->files);
	}
}

static uint64_t binary_key_hash(uint64_t dev, uint64_t inode)
{
	return index_table__mix(dev * 0x9e3779b97f4a7c15ULL ^ inode);
}

static uint64_t known_binary_hash_of(const void *items, size_t index)
{
	const struct known_binary *k = &((const struct known_binary *)items)[index];
	return binary_key_hash(k->dev, k->inode);
}

/* m's binary, opened now if it was not (m->binary_id too). */
static void open_binary(struct process_symbols *ps, uint32_t pid, struct mapping *m)
{
	uint64_t dev = m->file->dev, inode = m->file->inode;
	uint64_t hash = binary_key_hash(dev, inode);
	size_t slot = index_table__first(&ps->binary_index, hash);
	for (uint32_t at; (at = ps->binary_index.slots[slot]) != 0;
	     slot = index_table__next(&ps->binary_index, slot)) {
		const struct known_binary *k = &ps->binaries[at - 1];
		if (k->dev == dev && k->inode == inode) {
			m->binary = k->binary;
			m->binary_id = (uint32_t)k->id;
			return;
		}
	}
	/* The process's own view of the file first: it may be deleted, or in
	 * another mount namespace (a container). Once it has exited, the path
	 * as seen from here. */
	char where[4200];
	const char *path = m->file->path;
	struct binary *b;
	snprintf(where, sizeof where, "/proc/%u/map_files/%" PRIx64 "-%" PRIx64, pid, m->start,
		 m->end);
	b = binary__open(where, path, dev, inode);
	if (!binary__readable(b)) {
		binary__free(b);
		snprintf(where, sizeof where, "/proc/%u/root%s", pid, path);
		b = binary__open(where, path, dev, inode);
	}
	if (!binary__readable(b)) {
		binary__free(b);
		b = binary__open(path, path, dev, inode);
	}
	ps->binaries = fk_grow(ps->binaries, &ps->binary_cap, ps->binary_count + 1,
			       sizeof(*ps->binaries));
	ps->binaries[ps->binary_count] = (struct known_binary){ dev, inode, b,
								++ps->last_binary_id, 0 };
	index_table__insert(&ps->binary_index, slot, ps->binary_count++, known_binary_hash_of,
			    ps->binaries);
	m->binary = b;
	m->binary_id = (uint32_t)ps->last_binary_id;
}

/* Our own vDSO: the kernel maps the same image into every process. */
static struct binary *vdso(struct process_symbols *ps)
{
	if (!ps->vdso_tried) {
		ps->vdso_tried = true;
		ps->vdso = binary__open_vdso();
		ps->vdso_id = ++ps->last_binary_id;
	}
	return ps->vdso;
}

static void mapping__open(struct process_symbols *ps, uint32_t pid, struct mapping *m)
{
	if (m->binary)
		return;
	if (m->vdso) {
		m->binary = vdso(ps);
		m->binary_id = (uint32_t)ps->vdso_id;
	} else if (m->file) {
		open_binary(ps, pid, m);
	}
}

static void process__add_mapping(struct process_symbols *ps, struct process *p,
				 const struct mapping *m)
{
	p->mappings = fk_grow(p->mappings, &p->mapping_cap, p->mapping_count + 1,
			      sizeof(*p->mappings));
	struct mapping *added = &p->mappings[p->mapping_count++];
	*added = *m;
	added->binary = NULL;
	added->binary_id = 0;
	p->generation++;
	p->mapped_since_forget = true;
	if (m->file && jvm_attach__is_hotspot(m->file->path))
		p->jvm = ps->jvm_mapped = true;
	if (p->sampled)
		mapping__open(ps, p->pid, added);
}

/* A mapping of path: a file, the vDSO, or anonymous. */
static void mapping__init(struct process_symbols *ps, struct mapping *m, uint64_t start,
			  uint64_t end, uint64_t offset, uint64_t dev, uint64_t inode,
			  const char *path, uint64_t time)
{
	*m = (struct mapping){ .start = start, .end = end, .offset = offset, .time = time };
	if (strcmp(path, "[vdso]") == 0)
		m->vdso = true;
	else if (path[0] == '/' && inode != 0)
		m->file = intern_file(ps, path, dev, inode);
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
		mapping__init(ps, &m, start, end, offset, (uint64_t)major << 32 | minor, inode, name,
			      0);
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
	if (ps->last_process && ps->last_process->pid == pid)
		return ps->last_process;  /* (sampled: see below) */
	struct process *p = process_find(ps, pid, true);
	ps->last_process = p;

	if (!p->sampled) {
		p->sampled = true;
		if (!p->snapshot_taken && p->exec_count == 0)
			process__read_maps(ps, p);
		for (size_t i = 0; i < p->mapping_count; i++)
			mapping__open(ps, pid, &p->mappings[i]);
	}
	return p;
}

void process_symbols__fetch_debuginfo(struct process_symbols *ps, struct debuginfod_fetcher *fetch)
{
	ps->fetch = fetch;
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
	if (p->exited < time)
		p->exited = 0;  /* a new process under the pid of one gone */
}

/* When the address space in use at `time` began: its last exec or fork. */
static uint64_t process__epoch(const struct process *p, uint64_t time)
{
	uint64_t epoch = 0;
	for (size_t i = 0; i < p->exec_count && p->execs[i] <= time; i++)
		epoch = p->execs[i];
	return epoch;
}

/* Forks followed back from a process to the one whose address space it
 * shares (a shell's subshell's child...): a bound, not a depth met. */
#define FORK_DEPTH 16

/* The process p's address space at time came from at its fork (its
 * parent, *time set to the fork's), or NULL: p's own. */
static struct process *forked_from(struct process_symbols *ps, const struct process *p,
				   uint64_t *time)
{
	if (!p->fork_time || process__epoch(p, *time) != p->fork_time)
		return NULL;
	*time = p->fork_time;
	return process_find(ps, p->parent_pid, false);
}

/* The mapping that held addr at time: the last learnt of those made in
 * the address space of that time, before it; else, in a child that has
 * not exec'd since its fork, its parent's at the fork (opened now). */
static struct mapping *mapping_at(struct process_symbols *ps, struct process *p, uint64_t addr,
				  uint64_t time)
{
	for (unsigned i = 0; p && i < MAPPING_HITS; i++) {
		const struct mapping_hit *hit = &ps->hits[i];
		if (hit->process == p && hit->generation == p->generation && hit->time == time &&
		    addr >= hit->low && addr < hit->high)
			return &p->mappings[hit->index];
	}
	for (unsigned depth = 0; p && depth < FORK_DEPTH; depth++) {
		uint64_t epoch = process__epoch(p, time);
		/* where a mapping learnt later begins or ends beside addr */
		uint64_t low = 0, high = UINT64_MAX;
		for (size_t i = p->mapping_count; i > 0; i--) {
			struct mapping *m = &p->mappings[i - 1];
			if (m->time > time || m->time < epoch)
				continue;
			if (addr >= m->start && addr < m->end) {
				if (depth > 0)
					mapping__open(ps, p->pid, m);
				else
					ps->hits[ps->next_hit++ % MAPPING_HITS] = (struct mapping_hit){
						p, p->generation, time, low > m->start ? low : m->start,
						high < m->end ? high : m->end, i - 1 };
				return m;
			}
			if (m->end <= addr && m->end > low)
				low = m->end;
			else if (m->start > addr && m->start < high)
				high = m->start;
		}
		p = forked_from(ps, p, &time);
	}
	return NULL;
}

void process_symbols__mmap(struct process_symbols *ps, uint32_t pid, uint64_t start,
			   uint64_t len, uint64_t offset, uint64_t dev, uint64_t inode,
			   const char *path, uint64_t time)
{
	struct process *p = process_find(ps, pid, true);
	struct mapping m;

	mapping__init(ps, &m, start, start + len, offset, dev, inode, path, time);
	process__add_mapping(ps, p, &m);
}

void process_symbols__exec(struct process_symbols *ps, uint32_t pid, uint64_t time)
{
	process__add_exec(process_find(ps, pid, true), time);
}

/* An array of count items of size, in cap's room, made to hold only them. */
static void *shrunk_to_fit(void *items, size_t count, size_t *cap, size_t size)
{
	if (count == *cap)
		return items;
	*cap = count;
	if (count > 0)
		return fk_realloc(items, count * size);
	free(items);
	return NULL;
}

void process_symbols__exit(struct process_symbols *ps, uint32_t pid, uint64_t time)
{
	struct process *p = process_find(ps, pid, false);
	if (!p)
		return;
	p->exited = time;
	/* its mappings and execs are learnt: no room kept for more (a build's
	 * thousands of exited processes are kept to the end, for naming) */
	p->mappings = shrunk_to_fit(p->mappings, p->mapping_count, &p->mapping_cap,
				    sizeof(*p->mappings));
	p->execs = shrunk_to_fit(p->execs, p->exec_count, &p->exec_cap, sizeof(*p->execs));
}

/* Copies into p the mappings of from's address space at time (from's
 * parent's first, where from had not exec'd since its fork), as made at
 * p's fork. */
static void process__copy_space(struct process_symbols *ps, struct process *p,
				const struct process *from, uint64_t time, unsigned depth)
{
	uint64_t epoch = process__epoch(from, time), at = time;
	const struct process *up = depth < FORK_DEPTH ? forked_from(ps, from, &at) : NULL;
	if (up)
		process__copy_space(ps, p, up, at, depth + 1);
	for (size_t i = 0; i < from->mapping_count; i++) {
		struct mapping m = from->mappings[i];
		if (m.time > time || m.time < epoch)
			continue;
		m.time = p->fork_time;
		process__add_mapping(ps, p, &m);
	}
}

/* Ends p's lookups in its parent's address space: copied into its own,
 * where lookups at `before` or later may still need it (it has not exec'd
 * since), else dropped. The parent may go, or change, after. */
static void process__settle_fork(struct process_symbols *ps, struct process *p, uint64_t before)
{
	if (!p->fork_time)
		return;
	uint64_t at = before;
	struct process *parent = forked_from(ps, p, &at);
	if (parent) {
		/* the copies first, its own after them (learnt since the fork: they win) */
		struct mapping *own = p->mappings;
		size_t own_count = p->mapping_count;
		p->mappings = NULL;
		p->mapping_count = p->mapping_cap = 0;
		process__copy_space(ps, p, parent, p->fork_time, 1);
		p->mappings = fk_grow(p->mappings, &p->mapping_cap, p->mapping_count + own_count + 1,
				      sizeof(*p->mappings));
		if (own_count)
			memcpy(p->mappings + p->mapping_count, own, own_count * sizeof(*own));
		p->mapping_count += own_count;
		free(own);
	}
	p->fork_time = 0;
}

/* process__settle_fork() for every process (before a parent may go). */
static void settle_forks(struct process_symbols *ps, uint64_t before)
{
	for (size_t i = 0; i < ps->processes.count; i++)
		process__settle_fork(ps, ps->processes.records[i], before);
}

static bool exited_before(const void *record, void *arg)
{
	const struct process *p = record;
	return p->exited && p->exited < *(const uint64_t *)arg;
}

void process_symbols__forget_exited(struct process_symbols *ps, uint64_t before)
{
	settle_forks(ps, before);
	ps->last_process = NULL;
	for (unsigned i = 0; i < MAPPING_HITS; i++)
		ps->hits[i].process = NULL;
	pid_table__remove_if(&ps->processes, exited_before, &before, process__free);
	forget_unused_files(ps);
}

/* A mapping's place among a process's: sorted by start, then as learnt. */
struct mapping_place {
	uint64_t start;
	size_t index;
};

static int by_start_then_learnt(const void *a, const void *b)
{
	const struct mapping_place *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Drops the mappings of p that no lookup at `before` or later can find
 * (mapping_at()): those of an address space replaced before it, and those
 * at the same start as one learnt later, made no earlier and no later than
 * `before`, that covers them whole. Returns how many went; `undecided`:
 * whether some mapping made after `before` was kept (a later call may let
 * it or those under it go). */
static size_t process__forget_shadowed(struct process *p, uint64_t before, bool *undecided)
{
	uint64_t epoch = process__epoch(p, before);
	struct mapping_place *places = fk_malloc(p->mapping_count * sizeof(*places));
	bool *gone = fk_calloc(p->mapping_count, sizeof(*gone));
	size_t removed = 0;

	for (size_t i = 0; i < p->mapping_count; i++)
		places[i] = (struct mapping_place){ p->mappings[i].start, i };
	qsort(places, p->mapping_count, sizeof(*places), by_start_then_learnt);
	/* each run of one start, from the last learnt back: a mapping that a
	 * later one (the cover) holds whole goes */
	const struct mapping *cover = NULL;
	for (size_t k = p->mapping_count; k > 0; k--) {
		const struct mapping *m = &p->mappings[places[k - 1].index];
		if (k == p->mapping_count || places[k].start != m->start)
			cover = NULL;
		if (m->time < epoch) {
			gone[places[k - 1].index] = true;
		} else if (cover && cover->end >= m->end && cover->time >= m->time) {
			gone[places[k - 1].index] = true;
		} else if (m->time <= before && (!cover || m->end > cover->end)) {
			cover = m;
		}
	}
	size_t kept = 0;
	*undecided = false;
	for (size_t i = 0; i < p->mapping_count; i++) {
		if (gone[i]) {
			removed++;
		} else {
			*undecided |= p->mappings[i].time > before;
			p->mappings[kept++] = p->mappings[i];
		}
	}
	p->mapping_count = kept;
	if (removed)
		p->generation++;
	free(places);
	free(gone);
	return removed;
}

size_t process_symbols__forget_shadowed(struct process_symbols *ps, uint64_t before)
{
	size_t removed = 0;

	settle_forks(ps, before);  /* (a parent's mappings may go) */

	for (size_t i = 0; i < ps->processes.count; i++) {
		struct process *p = ps->processes.records[i];
		if (p->mapped_since_forget)
			removed += process__forget_shadowed(p, before, &p->mapped_since_forget);
	}
	if (removed)
		forget_unused_files(ps);
	return removed;
}

size_t process_symbols__gone(const struct process_symbols *ps, uint32_t **pids)
{
	size_t count = 0, cap = 0;

	*pids = NULL;
	for (size_t i = 0; i < ps->processes.count; i++) {
		const struct process *p = ps->processes.records[i];
		if (p->exited || kill((pid_t)p->pid, 0) == 0 || errno != ESRCH)
			continue;
		*pids = fk_grow(*pids, &cap, count + 1, sizeof(**pids));
		(*pids)[count++] = p->pid;
	}
	return count;
}

size_t process_symbols__count(const struct process_symbols *ps, size_t *mappings)
{
	*mappings = 0;
	for (size_t i = 0; i < ps->processes.count; i++)
		*mappings += ((const struct process *)ps->processes.records[i])->mapping_count;
	return ps->processes.count;
}

void process_symbols__fork(struct process_symbols *ps, uint32_t pid, uint32_t parent_pid,
			   uint64_t time)
{
	struct process *parent = process_find(ps, parent_pid, false);
	struct process *p = process_find(ps, pid, true);

	/* (a pid used again: the one before keeps its address space) */
	process__settle_fork(ps, p, p->fork_time);
	process__add_exec(p, time);
	if (!parent)
		return;  /* not known: the child's exec (or its /proc maps) will tell */
	if (!parent->snapshot_taken && parent->exec_count == 0)
		process__read_maps(ps, parent);
	p->parent_pid = parent_pid;
	p->fork_time = time;
}
/* Where p's perf map is: in its own /tmp, by its own pid number, while it
 * lives (a JIT in a container writes it there); else /tmp/perf-PID.map. */
static void process__perf_map_path(const struct process *p, char *path, size_t size)
{
	snprintf(path, size, "/proc/%u/root/tmp/perf-%u.map", p->pid, procfs__ns_pid(p->pid));
	if (access(path, F_OK) != 0)
		snprintf(path, size, "/tmp/perf-%u.map", p->pid);
}

/* Has the perf map this symbol already (the same start, size and name)? */
static bool perf_map__has(struct symbol_table *map, uint64_t start, uint64_t size,
			  const char *name)
{
	struct symbol *s = symbol_table__find(map, start);
	return s && s->addr == start && s->size == size && strcmp(symbol_table__name(map, s), name) == 0;
}

/* /tmp/perf-PID.map: "START SIZE name" per line, hex, as JITs write it,
 * appending as they compile: read from where the last read stopped. A JVM
 * asked for its map writes it anew from the start (then perf_map_offset is
 * 0): what is already known is not added twice. */
static void process__read_perf_map(struct process *p)
{
	char path[128], line[4096];
	struct buf names = BUF_INIT;
	struct process_jit *j = process__jit(p);
	size_t first = j->perf_map.count;
	struct stat st;

	process__perf_map_path(p, path, sizeof path);
	if (stat(path, &st) != 0 || st.st_size <= j->perf_map_offset)
		return;
	FILE *f = fopen(path, "r");
	if (!f || fseek(f, j->perf_map_offset, SEEK_SET) != 0) {
		if (f)
			fclose(f);
		return;
	}
	bool dedupe = first > 0;
	while (fgets(line, sizeof line, f)) {
		uint64_t start, size;
		int name_at = 0;
		size_t len = strlen(line);
		if (len == 0 || line[len - 1] != '\n')
			break;  /* a line being written: next time */
		j->perf_map_offset += (long)len;
		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %n", &start, &size, &name_at) < 2 ||
		    !name_at)
			continue;
		char *name = line + name_at;
		name[strcspn(name, "\n")] = 0;
		if (dedupe && perf_map__has(&j->perf_map, start, size, name))
			continue;
		/* name holds an offset into names until the names stop moving */
		symbol_table__add(&j->perf_map, start, size, (const char *)(uintptr_t)names.len,
				  STB_GLOBAL);
		buf__append(&names, name, strlen(name) + 1);
	}
	fclose(f);
	if (j->perf_map.count == first) {
		buf__free(&names);
		return;
	}
	j->perf_map_names = fk_realloc(j->perf_map_names,
				       (j->perf_map_reads + 1) * sizeof(*j->perf_map_names));
	j->perf_map_names[j->perf_map_reads++] = names.data;
	for (size_t i = first; i < j->perf_map.count; i++)
		j->perf_map.symbols[i].name = names.data + (uintptr_t)j->perf_map.symbols[i].name;
	symbol_table__sort(&j->perf_map);
}

/* How long a JVM may take to start its attach listener and answer. */
#define JVM_ASK_TIMEOUT_MS 5000

static void process__jvm_refused(struct process *p, const char *why)
{
	struct process_jit *j = process__jit(p);
	free(j->jvm_refusal);
	j->jvm_refusal = fk_strdup(why);
}

/* Goes on with p's ask for its perf map, waiting at most wait_ms; once the
 * JVM has written it, reads it from the start. */
static void process__step_jvm_ask(struct process *p, int wait_ms)
{
	char why[256];
	struct process_jit *j = process__jit(p);
	enum jvm_ask_state state = jvm_ask__step(j->jvm_ask, wait_ms, why, sizeof why);

	if (state == JVM_ASK_PENDING)
		return;
	jvm_ask__free(j->jvm_ask);
	j->jvm_ask = NULL;
	if (state == JVM_ASK_FAILED) {
		process__jvm_refused(p, why);
		return;
	}
	j->jvm_answered = true;
	j->perf_map_offset = 0;
	process__read_perf_map(p);
}

/* Starts asking the JVM p for its perf map, unless an ask is in flight. */
static void process__start_jvm_ask(struct process *p)
{
	char why[256], alive[32];
	struct process_jit *j = process__jit(p);

	snprintf(alive, sizeof alive, "/proc/%u", p->pid);
	if (j->jvm_ask || access(alive, F_OK) != 0)
		return;
	j->jvm_ask = jvm_ask__start(p->pid, JVM_ASK_TIMEOUT_MS, why, sizeof why);
	if (!j->jvm_ask)
		process__jvm_refused(p, why);
}

/* A second after a JVM is first sampled (its hot methods compiled by then),
 * then at doubling intervals up to a minute: the JIT's code of a long run,
 * which it may free before the end, is named while it runs. */
#define JVM_FIRST_ASK_NS 1000000000ull
#define JVM_MAX_INTERVAL_NS 60000000000ull

static void process__ask_jvm_on_schedule(struct process *p, uint64_t now)
{
	if (!p->jvm || !p->sampled)
		return;
	struct process_jit *j = process__jit(p);
	if (j->jvm_ask)
		process__step_jvm_ask(p, 0);
	if (!j->jvm_next_ask) {
		j->jvm_next_ask = now + JVM_FIRST_ASK_NS;
		j->jvm_interval = 2 * JVM_FIRST_ASK_NS;
	}
	if (now < j->jvm_next_ask)
		return;
	process__start_jvm_ask(p);
	j->jvm_next_ask = now + j->jvm_interval;
	j->jvm_interval = j->jvm_interval * 2 < JVM_MAX_INTERVAL_NS ? j->jvm_interval * 2
								     : JVM_MAX_INTERVAL_NS;
}

/* How often the JVMs' turns are looked at: the recording's loop turns at
 * every ring wakeup, and going through every process each time showed. */
#define JVM_TURNS_EVERY_NS 100000000u

void process_symbols__ask_jvms(struct process_symbols *ps)
{
	if (!ps->jvm_mapped)
		return;  /* (a build's thousands of processes: none to go through) */
	uint64_t now = monotonic_ns();
	if (now - ps->jvm_turns_seen < JVM_TURNS_EVERY_NS)
		return;
	ps->jvm_turns_seen = now;
	for (size_t i = 0; i < ps->processes.count; i++)
		process__ask_jvm_on_schedule(ps->processes.records[i], now);
}

void process_symbols__jvm_refusals(struct process_symbols *ps,
				   void (*each)(uint32_t pid, const char *why, void *arg),
				   void *arg)
{
	for (size_t i = 0; i < ps->processes.count; i++) {
		const struct process *p = ps->processes.records[i];
		if (p->jvm && p->jit && p->jit->jvm_refusal && !p->jit->jvm_answered)
			each(p->pid, p->jit->jvm_refusal, arg);
	}
}

/* Whether to look at the perf map again for an address outside every
 * mapping (a guess through garbage, mostly): at most every 50 ms per
 * process, as a stat per such frame would cost more than the names. */
static bool process__may_read_perf_map(struct process *p)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
	uint64_t ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	struct process_jit *j = process__jit(p);
	if (j->perf_map_checked && ns - j->perf_map_checked < 50000000u)
		return false;
	j->perf_map_checked = ns;
	return true;
}

/* Names looked up in binaries between two givings back of the pages they
 * read (each a page, mostly: 2 MB at most resident). */
#define RELEASE_PAGES_EVERY 512

void process_symbols__release_pages(struct process_symbols *ps, bool only_read)
{
	ps->named_since_release = 0;
	for (size_t i = 0; i < ps->binary_count; i++)
		if (ps->binaries[i].binary)
			binary__release_pages(ps->binaries[i].binary, only_read);
	if (ps->vdso)
		binary__release_pages(ps->vdso, only_read);
}

void process_symbols__forget_names(struct process_symbols *ps)
{
	free(ps->named);
	ps->named = NULL;
	for (size_t i = 0; i < ps->binary_count; i++)
		if (ps->binaries[i].binary)
			binary__forget_names(ps->binaries[i].binary);
	if (ps->vdso)
		binary__forget_names(ps->vdso);
	for (size_t i = 0; i < ps->processes.count; i++) {
		const struct process *p = ps->processes.records[i];
		if (p->jit)
			symbol_table__forget_names(&p->jit->perf_map);
	}
}

static int compare_pointers(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;
	return (x > y) - (x < y);
}

/* The binaries that some process known now has mapped, sorted (the caller frees). */
static struct binary **mapped_binaries(struct process_symbols *ps, size_t *count)
{
	struct binary **mapped = NULL;
	size_t cap = 0;

	*count = 0;
	for (size_t i = 0; i < ps->processes.count; i++) {
		const struct process *p = ps->processes.records[i];
		for (size_t j = 0; j < p->mapping_count; j++) {
			if (!p->mappings[j].binary)
				continue;
			mapped = fk_grow(mapped, &cap, *count + 1, sizeof(*mapped));
			mapped[(*count)++] = p->mappings[j].binary;
		}
	}
	if (*count)
		qsort(mapped, *count, sizeof(*mapped), compare_pointers);
	return mapped;
}

size_t process_symbols__forget_binaries(struct process_symbols *ps, uint64_t **keys)
{
	size_t mapped_count, kept = 0, gone = 0, cap = 0;
	struct binary **mapped = mapped_binaries(ps, &mapped_count);

	*keys = NULL;
	for (size_t i = 0; i < ps->binary_count; i++) {
		struct known_binary k = ps->binaries[i];
		if (mapped_count && bsearch(&k.binary, mapped, mapped_count, sizeof(*mapped),
					    compare_pointers))
			k.unmapped_forgets = 0;
		else if (++k.unmapped_forgets > BINARY_IDLE_FORGETS) {
			binary__free(k.binary);
			*keys = fk_grow(*keys, &cap, gone + 1, sizeof(**keys));
			(*keys)[gone++] = k.id;
			continue;
		}
		ps->binaries[kept++] = k;
	}
	free(mapped);
	if (gone) {
		free(ps->named);  /* (a binary's slots: another may be made where it was) */
		ps->named = NULL;
		ps->binary_count = kept;
		index_table__rebuild(&ps->binary_index, kept, known_binary_hash_of, ps->binaries);
	}
	return gone;
}

/* addr's address in the binary m maps. */
static uint64_t mapping__vaddr(const struct mapping *m, uint64_t addr)
{
	return binary__vaddr(m->binary, addr - m->start + m->offset);
}

/* The slot of ps->named for vaddr in binary, made the first time. */
static struct named_address *named_slot(struct process_symbols *ps, const struct binary *binary,
					uint64_t vaddr)
{
	if (!ps->named)
		ps->named = fk_calloc(NAME_SLOTS, sizeof(*ps->named));
	return &ps->named[index_table__mix((uintptr_t)binary ^ vaddr) & (NAME_SLOTS - 1)];
}

static void lookup_in(struct process_symbols *ps, struct process *p, const struct mapping *m,
		      uint64_t addr, struct symbol_lookup *out)
{
	*out = (struct symbol_lookup){ NULL, SYMBOL_FOUND, NULL, false };
	if (m && m->binary) {
		uint64_t vaddr = mapping__vaddr(m, addr);
		struct named_address *n = named_slot(ps, m->binary, vaddr);
		if (n->binary != m->binary || n->vaddr != vaddr || !n->name) {
			/* (named already, mostly: process_symbols__name_wanted()) */
			*n = (struct named_address){ m->binary, vaddr, NULL, SYMBOL_FOUND };
			n->name = binary__name(m->binary, vaddr, ps->fetch, &n->miss);
			if (++ps->named_since_release == RELEASE_PAGES_EVERY)
				process_symbols__release_pages(ps, true);
		}
		out->name = n->name;
		out->miss = n->miss;
		out->binary = binary__path(m->binary);
		return;
	}
	/* JIT code is anonymous memory: named by the perf map, if any; a JVM
	 * is asked for its map at the first such frame without a name */
	struct process_jit *j = process__jit(p);
	struct symbol *s = symbol_table__find(&j->perf_map, addr);
	if (!s && (m || process__may_read_perf_map(p))) {
		process__read_perf_map(p);
		s = symbol_table__find(&j->perf_map, addr);
	}
	if (!s && m && p->jvm && !j->jvm_asked_while_naming) {
		j->jvm_asked_while_naming = true;
		process__start_jvm_ask(p);
		if (j->jvm_ask)
			process__step_jvm_ask(p, JVM_ASK_TIMEOUT_MS);
		s = symbol_table__find(&j->perf_map, addr);
	}
	if (!s) {
		out->miss = m ? SYMBOL_NO_JIT_NAME : SYMBOL_NOT_MAPPED;
		out->name = m ? UNKNOWN_JIT : UNKNOWN;
		return;
	}
	out->jit = true;
	out->name = ps->jit_suffix ? symbol_table__annotated(&j->perf_map, s, "_[j]") :
		symbol_table__name(&j->perf_map, s);
}

void process_symbols__want(struct process_symbols *ps, uint32_t pid, uint64_t addr,
			   uint64_t time)
{
	const struct mapping *m = mapping_at(ps, process_for(ps, pid), addr, time);
	if (!m || !m->binary)
		return;
	uint64_t vaddr = mapping__vaddr(m, addr);
	struct named_address *n = named_slot(ps, m->binary, vaddr);
	if (n->binary == m->binary && n->vaddr == vaddr)
		return;  /* wanted, or named, already */
	*n = (struct named_address){ m->binary, vaddr, NULL, SYMBOL_FOUND };
	binary__want(m->binary, vaddr);
}

void process_symbols__name_wanted(struct process_symbols *ps)
{
	for (size_t i = 0; i < ps->binary_count; i++)
		if (ps->binaries[i].binary)
			binary__name_wanted(ps->binaries[i].binary, ps->fetch);
	if (ps->vdso)
		binary__name_wanted(ps->vdso, ps->fetch);
}

void process_symbols__lookup(struct process_symbols *ps, uint32_t pid, uint64_t addr,
			     uint64_t time, struct symbol_lookup *out)
{
	struct process *p = process_for(ps, pid);
	lookup_in(ps, p, mapping_at(ps, p, addr, time), addr, out);
}

void process_symbols__see_code(struct process_symbols *ps, uint32_t pid, uint64_t addr,
			       uint64_t time)
{
	struct process *p = process_for(ps, pid);
	const struct mapping *m = mapping_at(ps, p, addr, time);

	if (m && !m->binary && !symbol_table__find(&process__jit(p)->perf_map, addr))
		process__read_perf_map(p);
}

bool process_symbols__mapped(struct process_symbols *ps, uint32_t pid, uint64_t addr,
			     uint64_t time)
{
	return mapping_at(ps, process_for(ps, pid), addr, time) != NULL;
}

bool process_symbols__replaced_since(struct process_symbols *ps, uint32_t pid, uint64_t time)
{
	const struct process *p = process_find(ps, pid, false);
	return p && p->exec_count > 0 && p->execs[p->exec_count - 1] > time;
}

uint64_t process_symbols__generation(struct process_symbols *ps, uint32_t pid)
{
	return process_for(ps, pid)->generation;
}

static void module_of(const struct mapping *m, struct process_module *out)
{
	struct binary *b = m->binary;
	uint64_t low, high;

	binary__image(b, &low, &high);
	out->fd = binary__fd(b);
	out->elf = binary__elf(b);
	out->path = binary__path(b);
	out->start = m->start;
	out->end = m->end;
	out->bias = m->start - binary__vaddr(b, m->offset);
	out->low = out->bias + low;
	out->high = out->bias + high;
	out->key = m->binary_id;
}

bool process_symbols__module_at(struct process_symbols *ps, uint32_t pid, uint64_t addr,
				uint64_t time, struct process_module *out)
{
	struct process *p = process_for(ps, pid);
	const struct mapping *m = mapping_at(ps, p, addr, time);

	if (!m || !m->binary || !binary__readable(m->binary))
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
	/* its own mappings, and its parent's where it shares the parent's */
	uint64_t at = time;
	struct process *q = p;
	for (unsigned depth = 0; q && depth < FORK_DEPTH; depth++, q = forked_from(ps, q, &at)) {
		for (size_t i = q->mapping_count; i > 0; i--) {
			const struct mapping *m = &q->mappings[i - 1];
			if (mapping_at(ps, p, m->start, time) != m || !m->binary ||
			    !binary__readable(m->binary) || binary__fd(m->binary) < 0)
				continue;
			struct process_module module;
			module_of(m, &module);
			bool seen = false;
			for (size_t j = 0; j < count && !seen; j++)
				seen = (*modules)[j].key == module.key &&
				       (*modules)[j].bias == module.bias;
			if (seen)
				continue;
			*modules = fk_grow(*modules, &cap, count + 1, sizeof(**modules));
			(*modules)[count++] = module;
		}
	}
	return count;
}
