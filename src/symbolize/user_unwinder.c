#include "user_unwinder.h"

#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../lib/index_table.h"
#include "../lib/pages.h"
#include "../lib/pid_table.h"
#include "../lib/xalloc.h"
#include "debuginfo.h"

/* Cache slots: a direct-mapped table, a newer walk replaces an older one. */
#define CACHE_SLOTS 4096
/* Frames kept per stack: a recursion 250 deep and some. */
#define MAX_FRAMES 1024

#define NO_HANDOVER SIZE_MAX
/* How many times libdwfl may step a frame for the tables in one stack. */
#define MAX_HANDOVERS 8

/* What the tables' walk needs of a frame: its pc (as found: a return
 * address, or the sampled pc of frame 0), sp and rbp. */
struct frame_state {
	uint64_t pc, sp, bp;
};

/* A binary's image without section headers, for libdw (see headless()). */
struct headless_image {
	uint64_t key;               /* process_module.key */
	Elf *elf;                   /* NULL: the binary is given as it is */
	void *image;
	size_t size;
};

/* A binary as reported to a Dwfl, at its bias. */
struct reported_module {
	uint64_t key;
	uint64_t bias;
};

struct unwind_process {
	uint32_t pid;
	Dwfl *dwfl;
	uint64_t generation;        /* of the mappings its modules were reported from */
	bool reported, attached;
	struct reported_module *modules;
	size_t module_count, module_cap;
	size_t cached_walks;        /* cache entries holding its walks */
};

/* A stack word a walk read, as an offset from sp. */
struct stack_read {
	uint32_t offset;
	uint64_t value;
};

/* A walk kept, with its pcs and reads in the same block after it: a slot
 * of the cache holds one (NULL: none), made and freed whole, so that the
 * cache's memory is that of the walks it holds (processes exit and take
 * theirs), not that of every slot ever filled. */
struct cache_entry {
	uint32_t pid;
	bool stopped;
	uint64_t generation, pc, sp;
	struct stack_read *reads;
	size_t read_count;
	uint64_t *pcs;
	size_t pc_count;
	struct unwind_stop stop;    /* see user_unwinder__stops() */
};

struct user_unwinder {
	struct process_symbols *ps;
	struct pid_table processes;  /* of struct unwind_process */

	/* the walk under way */
	const struct unwind_input *input;
	struct stack_read *reads;
	size_t read_count, read_cap;
	bool read_failed;           /* it read just past the copy: more would help */
	uint64_t read_end;          /* past the highest stack word read */
	uint64_t *pcs;
	size_t pc_count, pc_max;
	bool record_reads;          /* the tables' walk notes its reads too (a mixed walk) */
	size_t handover;            /* libdwfl stops after stepping this frame (NO_HANDOVER: never) */
	bool handed_over;           /* and it did: resume holds the frame after it */
	struct frame_state resume;
	struct frame_state stuck;   /* the frame the tables could not step */
	const struct frame_state *start;  /* libdwfl's first frame (NULL: the sampled registers) */

	struct unwind_table_source tables;  /* table_at NULL: none */
	struct cache_entry **cache;  /* CACHE_SLOTS slots */
	struct user_unwinder_stats stats;
	struct unwind_stop *stops;
	size_t stop_count, stop_cap;
	struct headless_image *headless;
	size_t headless_count, headless_cap;
};

/* A module's ELF when libdwfl first needs it (its unwind table): the one
 * process_symbols has open, shared (libelf counts the references: each
 * Dwfl's elf_end() drops one), so a binary mapped by a hundred processes is
 * mapped into flamekit once. Binaries no stack passes through stay unread. */
static int find_elf(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr base,
		    char **file_name, Elf **elf)
{
	(void)mod, (void)name, (void)base;
	*file_name = NULL;
	*elf = *userdata ? elf_begin(-1, ELF_C_READ_MMAP, *userdata) : NULL;
	return -1;
}

/* Whether elf has a section named name; *after: one named after_name came
 * before it (may be NULL). */
static bool has_section(Elf *elf, const char *name, const char *after_name, bool *after)
{
	size_t strings;
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	if (after)
		*after = false;
	if (elf_getshdrstrndx(elf, &strings) != 0)
		return false;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n = gelf_getshdr(scn, &shdr) ? elf_strptr(elf, strings, shdr.sh_name) : NULL;
		if (n && strcmp(n, name) == 0)
			return true;
		if (n && after && strcmp(n, after_name) == 0)
			*after = true;
	}
	return false;
}

static bool has_eh_frame_segment(Elf *elf)
{
	size_t count;
	GElf_Phdr phdr;

	if (elf_getphdrnum(elf, &count) != 0)
		return false;
	for (size_t i = 0; i < count; i++)
		if (gelf_getphdr(elf, (int)i, &phdr) && phdr.p_type == PT_GNU_EH_FRAME)
			return true;
	return false;
}

/*
 * libdw (0.188) finds a binary's .eh_frame_hdr, the sorted table of its
 * FDEs, by its section only when it comes before .eh_frame, as GNU ld puts
 * it. After it (lld's order: libLLVM, libclang-cpp), libdw reads .eh_frame
 * FDE by FDE from its start to find an address, and keeps every FDE read:
 * 5 MB read and 100,000 FDEs kept by each process whose walk goes through
 * one. With no section headers, libdw takes the table from the
 * PT_GNU_EH_FRAME segment instead. So such a binary is given to libdwfl as
 * a copy-on-write mapping of its file whose header lists no sections (one
 * per binary, shared by every Dwfl as the binary's own Elf is); NULL for
 * any other.
 */
static Elf *headless(struct user_unwinder *u, const struct process_module *m)
{
	for (size_t i = 0; i < u->headless_count; i++)
		if (u->headless[i].key == m->key)
			return u->headless[i].elf;
	struct headless_image h = { m->key, NULL, MAP_FAILED, 0 };
	GElf_Ehdr ehdr;
	bool hdr_after_eh_frame;
	if (m->elf && m->fd >= 0 && elf_rawfile(m->elf, &h.size) && gelf_getehdr(m->elf, &ehdr) &&
	    ehdr.e_ident[EI_CLASS] == ELFCLASS64 &&
	    has_section(m->elf, ".eh_frame_hdr", ".eh_frame", &hdr_after_eh_frame) &&
	    hdr_after_eh_frame && has_eh_frame_segment(m->elf))
		h.image = mmap(NULL, h.size, PROT_READ | PROT_WRITE, MAP_PRIVATE, m->fd, 0);
	if (h.image != MAP_FAILED) {
		Elf64_Ehdr *header = h.image;
		header->e_shoff = 0;
		header->e_shnum = 0;
		header->e_shstrndx = SHN_UNDEF;
		h.elf = elf_memory(h.image, h.size);
		if (!h.elf) {
			munmap(h.image, h.size);
			h.image = MAP_FAILED;
		}
	}
	u->headless = fk_grow(u->headless, &u->headless_cap, u->headless_count + 1,
			      sizeof(*u->headless));
	u->headless[u->headless_count++] = h;
	return h.elf;
}

static void headless_image__release(struct headless_image *h)
{
	elf_end(h->elf);
	munmap(h->image, h->size);
}

/*
 * .debug_frame, from the binary or its separate debug file (.gnu_debuglink,
 * /usr/lib/debug/.build-id), only for binaries without .eh_frame: libdwfl
 * turns to it whenever a step fails (at a stack's copied end too), and
 * reading one means inflating and indexing all of it.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *name,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);

	/* (a headless image has .eh_frame, in PT_GNU_EH_FRAME's segment) */
	if (elf && (has_section(elf, ".eh_frame", NULL, NULL) || has_eh_frame_segment(elf)))
		return -1;
	return debuginfo__find_local(mod, userdata, name, base, file_name, debuglink_file,
				     debuglink_crc, debuginfo_file_name);
}

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = find_elf,
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_arg)
{
	struct user_unwinder *u = arg;
	(void)dwfl;
	if (*thread_arg)
		return 0;
	*thread_arg = u;
	return u->input->tid ? (pid_t)u->input->tid : (pid_t)u->input->pid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_arg)
{
	(void)dwfl, (void)tid;
	*thread_arg = arg;
	return true;
}

/*
 * The stack word at addr from the copy into *value, noting how far the walk
 * read (and the word, when record: a cached walk is checked against them);
 * false outside the copy, noting when more copy would have held it.
 */
static bool stack_word(struct user_unwinder *u, const struct unwind_input *in, uint64_t addr,
		       uint64_t *value, bool record)
{
	uint64_t sp = in->regs[7];

	if (addr < sp || addr - sp > in->stack_size || in->stack_size - (addr - sp) < 8) {
		/* above the copy, within what a copy can hold: the stack goes on
		 * (a read far off is a guess through garbage, as the frame-pointer
		 * fallback makes one; no copy would answer it) */
		if (addr >= sp && addr - sp < USER_UNWINDER_MAX_COPY + 4096)
			u->read_failed = true;
		return false;
	}
	memcpy(value, in->stack + (addr - sp), sizeof(*value));
	if (addr + 8 > u->read_end)
		u->read_end = addr + 8;
	if (record) {
		u->reads = fk_grow(u->reads, &u->read_cap, u->read_count + 1, sizeof(*u->reads));
		u->reads[u->read_count++] = (struct stack_read){ (uint32_t)(addr - sp), *value };
	}
	return true;
}

/* Memory is the copied stack; anything else ends the walk. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct user_unwinder *u = arg;
	uint64_t value;
	(void)dwfl;

	if (!stack_word(u, u->input, addr, &value, true))
		return false;
	*result = value;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct user_unwinder *u = arg;
	Dwarf_Word regs[USER_UNWINDER_REGS];

	if (u->start) {
		/* a caller's frame: rbp and sp, and the call (its return address less one) */
		Dwarf_Word bp_sp[2] = { u->start->bp, u->start->sp };
		if (!dwfl_thread_state_registers(thread, 6, 2, bp_sp))
			return false;
		dwfl_thread_state_register_pc(thread, u->start->pc - 1);
		return true;
	}

	for (int i = 0; i < USER_UNWINDER_REGS; i++)
		regs[i] = u->input->regs[i];
	return dwfl_thread_state_registers(thread, 0, USER_UNWINDER_REGS, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

struct user_unwinder *user_unwinder__new(struct process_symbols *ps)
{
	struct user_unwinder *u = fk_calloc(1, sizeof(*u));

	u->ps = ps;
	pid_table__init(&u->processes);
	u->cache = fk_calloc(CACHE_SLOTS, sizeof(*u->cache));
	u->pcs = fk_calloc(MAX_FRAMES, sizeof(*u->pcs));
	return u;
}

void user_unwinder__use_tables(struct user_unwinder *u, const struct unwind_table_source *source)
{
	u->tables = *source;
}

/* How a walk with the tables ended. */
enum table_walk_end {
	TABLES_DONE,        /* at the root, or as deep as asked */
	TABLES_STUCK,       /* the last frame in u->pcs is not theirs to step (a binary
			     * without a table, a FALLBACK row): libdwfl's */
	TABLES_COPY_END,    /* a word the step needs is outside the copy */
};

/*
 * Walks in's stack from frame u->pc_count, whose state is at, with the
 * kernel's tables, by the rules the kernel's walk follows
 * (src/bpf/unwind.bpf.h, record.h's RECORD_UNWIND_*), into u->pcs.
 */
static enum table_walk_end walk_with_tables(struct user_unwinder *u, const struct unwind_input *in,
					    struct frame_state at_frame)
{
	uint64_t pc = at_frame.pc, sp = at_frame.sp, bp = at_frame.bp;
	struct unwind_table_at at = { 0 };

	while (u->pc_count < u->pc_max) {
		uint64_t frame = u->pc_count ? pc - 1 : pc;  /* a return address: the call's */
		u->pcs[u->pc_count++] = frame;
		u->stuck = (struct frame_state){ pc, sp, bp };
		if ((frame < at.start || frame >= at.end) &&
		    !u->tables.table_at(u->tables.arg, in->pid, frame, in->time, &at))
			return TABLES_STUCK;
		if (frame - at.bias > UINT32_MAX)
			return TABLES_STUCK;
		struct record_unwind_row found;
		const struct record_unwind_row *row =
			unwind_table_file__row(at.table, (uint32_t)(frame - at.bias), &found) ?
			&found : NULL;
		uint64_t cfa, ra, saved;
		switch (row ? row->kind & RECORD_UNWIND_CFA_MASK : RECORD_UNWIND_FALLBACK) {
		case RECORD_UNWIND_END:
			return TABLES_DONE;
		case RECORD_UNWIND_NO_CFI:
			if (bp == 0)
				return TABLES_DONE;
			cfa = bp + 16;
			if (!stack_word(u, in, bp, &saved, u->record_reads))
				return TABLES_COPY_END;
			bp = saved;
			break;
		case RECORD_UNWIND_CFA_RSP:
			cfa = sp + (uint64_t)(int64_t)row->cfa_off;
			break;
		case RECORD_UNWIND_CFA_RBP:
			cfa = bp + (uint64_t)(int64_t)row->cfa_off;
			break;
		case RECORD_UNWIND_CFA_PLT:
			cfa = sp + (uint64_t)(int64_t)row->cfa_off +
			      ((pc & 15) >= (uint8_t)row->rbp_off ? 8 : 0);
			break;
		default:
			return TABLES_STUCK;
		}
		if ((row->kind & RECORD_UNWIND_RBP_SAVED) &&
		    !stack_word(u, in, cfa + (uint64_t)((int64_t)row->rbp_off * 8), &bp,
				u->record_reads))
			return TABLES_COPY_END;
		if (!stack_word(u, in, cfa - 8, &ra, u->record_reads))
			return TABLES_COPY_END;
		if (ra == 0)
			return TABLES_DONE;
		pc = ra;
		sp = cfa;
	}
	return TABLES_DONE;
}

/* Counts a sample whose walk stopped early (stop NULL: it did not).
 * Returns the binary's path as the count keeps it (its own copy: the
 * binary may be closed before the end), for a cached walk to count again. */
static const char *count_stop(struct user_unwinder *u, const struct unwind_stop *stop)
{
	if (!stop)
		return NULL;
	for (size_t i = 0; i < u->stop_count; i++)
		if (u->stops[i].reason == stop->reason &&
		    process_module__same_path(u->stops[i].binary, stop->binary)) {
			u->stops[i].samples++;
			return u->stops[i].binary;
		}
	u->stops = fk_grow(u->stops, &u->stop_cap, u->stop_count + 1, sizeof(*u->stops));
	u->stops[u->stop_count] = (struct unwind_stop){ stop->reason,
		stop->binary ? fk_strdup(stop->binary) : NULL, 1 };
	return u->stops[u->stop_count++].binary;
}

size_t user_unwinder__stops(const struct user_unwinder *u, const struct unwind_stop **stops)
{
	*stops = u->stops;
	return u->stop_count;
}

static void cache_slot__clear(struct cache_entry **slot)
{
	free(*slot);
	*slot = NULL;
}

static void unwind_process__free(void *record)
{
	struct unwind_process *p = record;
	if (p->dwfl)
		dwfl_end(p->dwfl);
	free(p->modules);
	free(p);
}

void user_unwinder__forget_all(struct user_unwinder *u)
{
	pid_table__release(&u->processes, unwind_process__free);
	pid_table__init(&u->processes);
	for (size_t i = 0; i < CACHE_SLOTS; i++)
		cache_slot__clear(&u->cache[i]);
	for (size_t i = 0; i < u->headless_count; i++)
		if (u->headless[i].elf)
			headless_image__release(&u->headless[i]);
	u->headless_count = 0;
}

void user_unwinder__free(struct user_unwinder *u)
{
	if (!u)
		return;
	user_unwinder__forget_all(u);
	pid_table__release(&u->processes, NULL);
	free(u->headless);
	free(u->cache);
	free(u->reads);
	free(u->pcs);
	for (size_t i = 0; i < u->stop_count; i++)
		free((char *)u->stops[i].binary);
	free(u->stops);
	free(u);
}

static struct unwind_process *process_for(struct user_unwinder *u, uint32_t pid)
{
	return pid_table__get(&u->processes, pid, sizeof(struct unwind_process), NULL);
}

static void process__drop_dwfl(struct unwind_process *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
	p->reported = p->attached = false;
	p->module_count = 0;
}

void user_unwinder__forget(struct user_unwinder *u, uint32_t *pids, size_t count)
{
	if (count == 0)
		return;
	size_t cached_walks = 0;
	for (size_t i = 0; i < count; i++) {
		const struct unwind_process *p = pid_table__get(&u->processes, pids[i], 0, NULL);
		cached_walks += p ? p->cached_walks : 0;
	}
	pid_table__remove_pids(&u->processes, pids, count, unwind_process__free);
	/* their walks cannot come again: a build's compilers left a slot in
	 * ten filled with theirs, and the cache's memory grew for minutes. Most
	 * processes have none (the kernel walks their stacks): the slots are
	 * looked through only for those that do, not at every exit */
	for (size_t i = 0; cached_walks > 0 && i < CACHE_SLOTS; i++)
		if (u->cache[i] && pid_table__sorted_has(pids, count, u->cache[i]->pid)) {
			cache_slot__clear(&u->cache[i]);
			cached_walks--;
		}
}

void user_unwinder__release_pages(struct user_unwinder *u)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	/* (the first page holds the header made headless: our own copy) */
	for (size_t i = 0; i < u->headless_count; i++)
		if (u->headless[i].elf && u->headless[i].size > page)
			pages__give_back((char *)u->headless[i].image + page,
					 u->headless[i].size - page);
}

static bool process__has_module(const struct unwind_process *p, const struct process_module *m)
{
	for (size_t i = 0; i < p->module_count; i++)
		if (p->modules[i].key == m->key && p->modules[i].bias == m->bias)
			return true;
	return false;
}

static bool modules_include(const struct process_module *modules, size_t count,
			    const struct reported_module *r)
{
	for (size_t i = 0; i < count; i++)
		if (modules[i].key == r->key && modules[i].bias == r->bias)
			return true;
	return false;
}

/*
 * Brings the Dwfl's modules up to the binaries pid has mapped. A
 * module cannot be reported twice (libdwfl opens the file anew and calls
 * that an overlap), so new binaries are added to what is there; when one
 * reported has gone (unmapped, or an exec), the Dwfl is built again.
 */
static bool process__report(struct user_unwinder *u, struct unwind_process *p)
{
	uint64_t generation = process_symbols__generation(u->ps, p->pid);

	if (p->reported && p->generation == generation)
		return p->attached;
	struct process_module *modules;
	/* as the process is now: samples may be older than the last mapping
	 * learnt, and a module reported early is harmless */
	size_t count = process_symbols__modules(u->ps, p->pid, UINT64_MAX, &modules);
	for (size_t i = 0; i < p->module_count; i++)
		if (!modules_include(modules, count, &p->modules[i])) {
			process__drop_dwfl(p);
			break;
		}
	if (!p->dwfl)
		p->dwfl = dwfl_begin(&dwfl_callbacks);
	if (!p->dwfl) {
		free(modules);
		return false;
	}
	dwfl_report_begin_add(p->dwfl);
	for (size_t i = 0; i < count; i++) {
		if (process__has_module(p, &modules[i]))
			continue;
		/* its range only: the ELF is read when a stack passes through */
		const char *base = strrchr(modules[i].path, '/');
		Dwfl_Module *mod = dwfl_report_module(p->dwfl, base ? base + 1 : modules[i].path,
						      modules[i].low, modules[i].high);
		void **userdata;
		if (!mod || !dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL))
			continue;
		Elf *headless_elf = headless(u, &modules[i]);
		*userdata = headless_elf ? headless_elf : modules[i].elf;
		p->modules = fk_grow(p->modules, &p->module_cap, p->module_count + 1,
				     sizeof(*p->modules));
		p->modules[p->module_count++] = (struct reported_module){ modules[i].key,
									  modules[i].bias };
	}
	dwfl_report_end(p->dwfl, NULL, NULL);
	free(modules);
	p->reported = true;
	p->generation = generation;
	if (!p->attached && p->module_count > 0)
		p->attached = dwfl_attach_state(p->dwfl, NULL, (pid_t)p->pid, &thread_callbacks, u);
	return p->attached;
}

/* Each frame libdwfl finds; after the frame it was to step for the tables,
 * it stops with the state of the next (its sp and rbp known) in u->resume. */
static int on_frame(Dwfl_Frame *state, void *arg)
{
	struct user_unwinder *u = arg;
	Dwarf_Addr pc;
	Dwarf_Word sp, bp;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (u->handover != NO_HANDOVER && u->pc_count == u->handover + 1 && !activation &&
	    dwfl_frame_reg(state, 7, &sp) == 0 && dwfl_frame_reg(state, 6, &bp) == 0) {
		u->resume = (struct frame_state){ pc, sp, bp };
		u->handed_over = true;
		return DWARF_CB_ABORT;
	}
	/* a return address is after the call: name the call's function */
	if (!activation && pc > 0)
		pc--;
	u->pcs[u->pc_count++] = pc;
	return u->pc_count < u->pc_max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

/* Where a stack ends for later copies, from a walk that got as far as it
 * could and read up to read_end: there, at least a page above sp. */
static uint64_t stack_end_after(const struct unwind_input *in, uint64_t read_end)
{
	uint64_t end = read_end > in->regs[7] + 4096 ? read_end : in->regs[7] + 4096;
	return (end + 15) & ~15ULL;
}

/* The walk's frames into pcs, each told to the process symbols as code
 * that ran (JIT code's names are read while the process lives). */
static void hand_frames_over(struct user_unwinder *u, const struct unwind_input *in, uint64_t *pcs)
{
	memcpy(pcs, u->pcs, u->pc_count * sizeof(*pcs));
	for (size_t i = 0; i < u->pc_count; i++)
		process_symbols__see_code(u->ps, in->pid, u->pcs[i], in->time);
}

static bool cache_entry__matches(const struct cache_entry *e, const struct unwind_input *in,
				 uint64_t generation)
{
	if (!e || e->pid != in->pid || e->generation != generation ||
	    e->pc != in->regs[16] || e->sp != in->regs[7])
		return false;
	for (size_t i = 0; i < e->read_count; i++) {
		uint64_t value;
		if (in->stack_size < 8 || e->reads[i].offset > in->stack_size - 8)
			return false;
		memcpy(&value, in->stack + e->reads[i].offset, sizeof(value));
		if (value != e->reads[i].value)
			return false;
	}
	return true;
}

size_t user_unwinder__unwind(struct user_unwinder *u, const struct unwind_input *in,
			     uint64_t *pcs, size_t max, uint64_t *stack_end)
{
	uint64_t generation = process_symbols__generation(u->ps, in->pid);
	uint64_t key = index_table__mix(index_table__mix(in->pid ^ generation << 32) ^ in->regs[16] * 31 ^ in->regs[7]);
	struct cache_entry **slot = &u->cache[key & (CACHE_SLOTS - 1)], *e = *slot;

	if (max == 0)
		return 0;
	u->pc_max = max < MAX_FRAMES ? max : MAX_FRAMES;
	u->input = in;
	u->read_failed = false;
	u->read_end = 0;
	u->pc_count = 0;
	u->read_count = 0;
	/* noted for the cache, should libdwfl be needed */
	u->record_reads = true;
	struct frame_state sampled = { in->regs[16], in->regs[7], in->regs[6] };
	enum table_walk_end tables = u->tables.table_at ? walk_with_tables(u, in, sampled) :
		TABLES_STUCK;
	if (u->tables.table_at && tables == TABLES_DONE) {
		u->stats.table_walks++;
		hand_frames_over(u, in, pcs);
		*stack_end = stack_end_after(in, u->read_end);
		u->input = NULL;
		return u->pc_count;
	}
	if (cache_entry__matches(e, in, generation)) {
		size_t n = e->pc_count < max ? e->pc_count : max;
		memcpy(pcs, e->pcs, n * sizeof(*pcs));
		u->stats.cached++;
		*stack_end = UINT64_MAX;  /* as it was */
		count_stop(u, e->stopped ? &e->stop : NULL);
		u->input = NULL;
		return n;
	}

	/*
	 * libdwfl steps the frame the tables could not, and the tables go on
	 * from the frame after it. libdwfl walks from that frame with its pc,
	 * sp and rbp; where the step needs more (ld.so's lazy-binding resolver:
	 * rbx), from the sampled registers, and stops once past that frame. It
	 * walks the whole stack only when the tables had none of it, or a step
	 * needed a word outside the copy. (Each process reads its own unwind
	 * data into libdw; libdw reads the .eh_frame of an lld-linked library,
	 * whose .eh_frame_hdr comes after it, FDE by FDE from the start:
	 * libLLVM's 5 MB, 100,000 FDEs kept.)
	 */
	struct unwind_process *p = process_for(u, in->pid);
	int walked = -1;
	u->handover = u->tables.table_at && tables == TABLES_STUCK ? u->pc_count - 1 : NO_HANDOVER;
	for (int handovers = 0; process__report(u, p); handovers++) {
		pid_t tid = in->tid ? (pid_t)in->tid : (pid_t)in->pid;
		if (handovers == MAX_HANDOVERS)
			u->handover = NO_HANDOVER;
		u->handed_over = false;
		if (u->handover != NO_HANDOVER && u->handover > 0) {
			u->pc_count = u->handover;
			u->start = &u->stuck;
			walked = dwfl_getthread_frames(p->dwfl, tid, on_frame, u);
			u->start = NULL;
		}
		if (!u->handed_over) {
			u->read_count = 0;
			u->read_failed = false;
			u->read_end = 0;
			u->pc_count = 0;
			walked = dwfl_getthread_frames(p->dwfl, tid, on_frame, u);
			if (!u->handed_over)
				break;
		}
		tables = walk_with_tables(u, in, u->resume);
		walked = tables == TABLES_DONE ? 0 : -1;
		if (tables != TABLES_STUCK)
			break;
		u->handover = u->pc_count - 1;
	}
	u->handover = NO_HANDOVER;
	u->stats.walks++;
	/* where a walk that did not reach the stack's root (an outermost frame
	 * whose return address is undefined, as _start's and clone's are) gave up */
	struct unwind_stop stop = { UNWIND_STOP_NO_ENTRY, NULL, 0 };
	struct process_module module;
	bool stopped = walked != 0 && u->pc_count > 0 && u->pc_count < u->pc_max;
	if (stopped && u->read_failed && in->stack_size >= USER_UNWINDER_MAX_COPY)
		stop.reason = UNWIND_STOP_COPY_END;
	else if (stopped && process_symbols__module_at(u->ps, in->pid, u->pcs[u->pc_count - 1],
						       in->time, &module))
		stop.binary = module.path;
	else if (stopped)
		stop.reason = UNWIND_STOP_JIT;
	stop.binary = count_stop(u, stopped ? &stop : NULL);
	/* no module there, or no Dwfl: the pc alone, if it was mapped at all (a
	 * sample in execve has the old program's registers and the new
	 * program's address space: no user stack, as perf shows it) */
	if (u->pc_count == 0 && process_symbols__mapped(u->ps, in->pid, in->regs[16], in->time))
		u->pcs[u->pc_count++] = in->regs[16];
	hand_frames_over(u, in, pcs);

	/* where the stack ends, for the next copy: past the last word read by a
	 * walk that got as far as it could (to the root, or to a frame it cannot
	 * step over: more stack would not take it further), at least a page above
	 * sp; unknown (0) when it wanted more than the copy held */
	*stack_end = u->read_failed ? 0 : process__report(u, p) ? stack_end_after(in, u->read_end) :
		UINT64_MAX;
	/* a walk that read past the copy may go further with more: not kept */
	if (!u->read_failed) {
		struct unwind_process *before = *slot ?
			pid_table__get(&u->processes, (*slot)->pid, 0, NULL) : NULL;
		if (before && before->cached_walks)
			before->cached_walks--;
		cache_slot__clear(slot);
		p->cached_walks++;
		_Static_assert(sizeof(struct cache_entry) % _Alignof(uint64_t) == 0 &&
			       _Alignof(struct stack_read) <= _Alignof(uint64_t), "the block's parts aligned");
		e = *slot = fk_malloc(sizeof(*e) + u->pc_count * sizeof(*e->pcs) +
				      u->read_count * sizeof(*e->reads));
		*e = (struct cache_entry){ in->pid, stopped, generation, in->regs[16], in->regs[7],
					   NULL, u->read_count, (uint64_t *)(e + 1), u->pc_count, stop };
		e->reads = (struct stack_read *)(e->pcs + u->pc_count);
		if (u->pc_count)
			memcpy(e->pcs, u->pcs, u->pc_count * sizeof(*e->pcs));
		if (u->read_count)
			memcpy(e->reads, u->reads, u->read_count * sizeof(*e->reads));
	}
	u->input = NULL;
	return u->pc_count;
}

void user_unwinder__stats(const struct user_unwinder *u, struct user_unwinder_stats *stats)
{
	*stats = u->stats;
}
