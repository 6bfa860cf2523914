#include "kernel_unwind.h"

#include <errno.h>
#include <gelf.h>
#include <linux/types.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "../bpf/record.h"
#include "../lib/cache_dir.h"
#include "../lib/index_table.h"
#include "../lib/xalloc.h"
#include "../symbolize/unwind_table.h"

/* Rows loaded into the kernel per batch call. */
#define LOAD_BATCH 65536

/* A binary, by process_module.key: its table in the kernel, or none, and
 * the file the kernel knows it by (entered: in unwind_binaries). */
struct binary_table {
	uint64_t key;
	uint32_t id;                /* its first row in unwind_rows; RECORD_UNWIND_NO_TABLE: none */
	uint32_t rows;
	uint32_t page_lo, pages;    /* its page index, the pages rows after its own (0: none) */
	struct record_unwind_file file;
	bool entered;
};

/* Rows of unwind_rows that no table uses any more (their binaries closed). */
struct row_range {
	uint32_t first, count;
};

/*
 * A binary's table for walks of copied stacks in user space: the cache's
 * file of it (the kernel's map, mapped, would count whole in our RSS).
 * The recording thread's. A binary whose file is not there yet is looked
 * for again once the builder has finished another table.
 */
struct binary_view {
	uint64_t key;
	struct unwind_table_file *table;  /* NULL: not there */
	uint64_t built;             /* the builder's count of jobs done when it was not */
};

/* A binary the kernel asked for, as the recording's thread found it, for
 * the builder's thread; or (forget_keys) binaries closed, whose tables go. */
struct table_job {
	struct record_unwind_file file;
	uint64_t key;               /* process_module.key */
	int fd;                     /* the binary's, dup'ed: the builder's to close; -1: none */
	uint64_t vaddr;             /* an address of the binary the kernel met */
	uint64_t *forget_keys;      /* process_module.keys of closed binaries; NULL: none */
	size_t forget_count;
	struct table_job *next;
};

/*
 * Tables are built on a thread of their own: a big one takes half a second
 * (cc1), and the recording's thread must go on reading the rings meanwhile
 * (the samples copied while the table is missing, the interpreters' news).
 * The builder owns binaries, index and next_row; the lock guards the queue,
 * stopping, stats and jobs_done. The views (kernel_unwind__table_at) are
 * the recording's thread's.
 */
struct kernel_unwind {
	int rows_fd, binaries_fd, asked_fd;
	struct process_symbols *ps;
	struct binary_table *binaries;
	size_t binary_count, binary_cap;
	struct index_table index;
	uint32_t next_row;          /* the first row of unwind_rows never used */
	struct row_range *free_rows;       /* by first row, none adjacent */
	size_t free_count, free_cap;
	char *cache_dir;                   /* of tables by build id; NULL: none */
	pthread_t builder;
	bool builder_started, stopping;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct table_job *first, *last;
	struct kernel_unwind_stats stats;
	uint64_t jobs_done;                /* tables the builder has finished (or found none for) */
	struct binary_view *views;
	size_t view_count, view_cap;
	struct index_table view_index;
};

static void *build_tables(void *arg);

static void table_job__free(struct table_job *job)
{
	if (job->fd >= 0)
		close(job->fd);
	free(job->forget_keys);
	free(job);
}

static void binary_view__close(struct binary_view *v)
{
	if (v->table)
		unwind_table_file__close(v->table);
	free(v->table);
}

static uint64_t binary_hash(const void *items, size_t index)
{
	return index_table__mix(((const struct binary_table *)items)[index].key);
}

struct kernel_unwind *kernel_unwind__new(int rows_fd, int binaries_fd, int asked_fd,
					 struct process_symbols *ps)
{
	struct kernel_unwind *ku = fk_calloc(1, sizeof(*ku));

	ku->rows_fd = rows_fd;
	ku->binaries_fd = binaries_fd;
	ku->asked_fd = asked_fd;
	ku->ps = ps;
	index_table__init(&ku->index, 64);
	index_table__init(&ku->view_index, 64);
	ku->cache_dir = cache_dir__path("unwind");
	pthread_mutex_init(&ku->lock, NULL);
	pthread_cond_init(&ku->wake, NULL);
	/* without the thread, tables are built where they are asked for */
	ku->builder_started = pthread_create(&ku->builder, NULL, build_tables, ku) == 0;
	return ku;
}

void kernel_unwind__free(struct kernel_unwind *ku)
{
	if (!ku)
		return;
	pthread_mutex_lock(&ku->lock);
	ku->stopping = true;
	pthread_cond_signal(&ku->wake);
	pthread_mutex_unlock(&ku->lock);
	if (ku->builder_started)
		pthread_join(ku->builder, NULL);
	for (struct table_job *job = ku->first, *next; job; job = next) {
		next = job->next;
		table_job__free(job);
	}
	pthread_mutex_destroy(&ku->lock);
	pthread_cond_destroy(&ku->wake);
	for (size_t i = 0; i < ku->view_count; i++)
		binary_view__close(&ku->views[i]);
	free(ku->views);
	index_table__release(&ku->view_index);
	free(ku->binaries);
	free(ku->free_rows);
	index_table__release(&ku->index);
	free(ku->cache_dir);
	free(ku);
}

/* Rows copied at once: a big table's (libLLVM's: 8 MB) is not held whole. */
#define LOAD_ROWS 65536

/* Writes a table's rows straight into unwind_rows' memory (the map is
 * mmapable: bpf_sampler.c), through a mapping of a block of their pages at
 * a time, each let go at once (its pages would count in our RSS). A batch
 * update copies and checks row by row: a second for a build's tables
 * (cc1's, libLLVM's), most of a recording's own CPU. 0; -1: not mappable
 * here (rows_written: none written); -2: the table could not be read. */
static int write_table(struct kernel_unwind *ku, uint32_t first, const struct unwind_table *t)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), row = sizeof(struct record_unwind_row);

	for (size_t done = 0; done < t->count;) {
		size_t n = t->count - done < LOAD_ROWS ? t->count - done : LOAD_ROWS;
		size_t from = (first + done) * row;
		size_t begin = from & ~(page - 1), end = (from + n * row + page - 1) & ~(page - 1);
		char *window = mmap(NULL, end - begin, PROT_READ | PROT_WRITE, MAP_SHARED,
				    ku->rows_fd, (off_t)begin);
		if (window == MAP_FAILED)
			return done ? -2 : -1;
		int err = unwind_table__read(t, done, (struct record_unwind_row *)(window + (from - begin)), n);
		munmap(window, end - begin);
		if (err)
			return -2;
		done += n;
	}
	return 0;
}

/* Loads a table's rows into unwind_rows from row first on; 0 or -1. */
static int load_table(struct kernel_unwind *ku, uint32_t first, const struct unwind_table *t)
{
	int written = t->count ? write_table(ku, first, t) : -1;
	if (written != -1)
		return written;
	size_t batch = t->count < LOAD_BATCH ? t->count : LOAD_BATCH;
	__u32 *keys = fk_calloc(batch, sizeof(*keys));
	struct record_unwind_row *rows = fk_calloc(batch, sizeof(*rows));
	int err = 0;

	for (size_t done = 0; done < t->count && !err; done += batch) {
		__u32 n = (__u32)(t->count - done < batch ? t->count - done : batch);
		for (__u32 i = 0; i < n; i++)
			keys[i] = (__u32)(first + done + i);
		err = unwind_table__read(t, done, rows, n);
		if (!err)
			err = bpf_map_update_batch(ku->rows_fd, keys, rows, &n, NULL);
	}
	free(keys);
	free(rows);
	return err ? -1 : 0;
}

/* Gives rows back: a range freed, merged with its neighbours. */
static void give_rows(struct kernel_unwind *ku, uint32_t first, uint32_t count)
{
	size_t at = 0;

	if (count == 0)
		return;
	while (at < ku->free_count && ku->free_rows[at].first < first)
		at++;
	bool joins_before = at > 0 &&
		ku->free_rows[at - 1].first + ku->free_rows[at - 1].count == first;
	bool joins_after = at < ku->free_count && first + count == ku->free_rows[at].first;
	if (joins_before && joins_after) {
		ku->free_rows[at - 1].count += count + ku->free_rows[at].count;
		memmove(&ku->free_rows[at], &ku->free_rows[at + 1],
			(ku->free_count - at - 1) * sizeof(*ku->free_rows));
		ku->free_count--;
	} else if (joins_before) {
		ku->free_rows[at - 1].count += count;
	} else if (joins_after) {
		ku->free_rows[at].first = first;
		ku->free_rows[at].count += count;
	} else {
		ku->free_rows = fk_grow(ku->free_rows, &ku->free_cap, ku->free_count + 1,
					sizeof(*ku->free_rows));
		memmove(&ku->free_rows[at + 1], &ku->free_rows[at],
			(ku->free_count - at) * sizeof(*ku->free_rows));
		ku->free_rows[at] = (struct row_range){ first, count };
		ku->free_count++;
	}
}

/* count rows for a table: the first freed range they fit in, else rows
 * never used; false: the budget has no room. */
static bool take_rows(struct kernel_unwind *ku, uint32_t count, uint32_t *first)
{
	for (size_t i = 0; i < ku->free_count; i++) {
		struct row_range *r = &ku->free_rows[i];
		if (r->count < count)
			continue;
		*first = r->first;
		r->first += count;
		r->count -= count;
		if (r->count == 0) {
			memmove(r, r + 1, (ku->free_count - i - 1) * sizeof(*r));
			ku->free_count--;
		}
		return true;
	}
	if ((uint64_t)ku->next_row + count > KERNEL_UNWIND_ROWS)
		return false;
	*first = ku->next_row;
	ku->next_row += count;
	return true;
}

/* A table's page index (record.h: record_unwind_binary) as rows, each
 * entry in a row's pc; *page_lo the page of its first row, *pages the
 * entries. NULL (*pages 0) when the table cannot be read. */
static struct record_unwind_row *page_index(const struct unwind_table *t, uint32_t *page_lo,
					    uint32_t *pages)
{
	struct record_unwind_row first, last;

	*pages = 0;
	if (t->count == 0 || unwind_table__read(t, 0, &first, 1) ||
	    unwind_table__read(t, t->count - 1, &last, 1))
		return NULL;
	*page_lo = first.pc >> RECORD_UNWIND_PAGE_SHIFT;
	/* a page for each of the rows' pages, and one past the last */
	size_t entries = (last.pc >> RECORD_UNWIND_PAGE_SHIFT) - *page_lo + 2;
	struct record_unwind_row *index = fk_calloc(entries, sizeof(*index));
	struct record_unwind_row *block = fk_calloc(LOAD_ROWS, sizeof(*block));
	size_t filled = 0;

	for (size_t done = 0; done < t->count;) {
		size_t n = t->count - done < LOAD_ROWS ? t->count - done : LOAD_ROWS;
		if (unwind_table__read(t, done, block, n)) {
			free(block);
			free(index);
			return NULL;
		}
		for (size_t k = 0; k < n; k++)
			while (filled < entries &&
			       ((uint64_t)(*page_lo + filled) << RECORD_UNWIND_PAGE_SHIFT) < block[k].pc)
				index[filled++].pc = (uint32_t)(done + k);
		done += n;
	}
	while (filled < entries)
		index[filled++].pc = (uint32_t)t->count;
	free(block);
	*pages = (uint32_t)entries;
	return index;
}

/* The kernel table of a binary (key: process_module.key), built from elf
 * and loaded on first sight, its page index after it. The builder's. */
static struct binary_table *table_of(struct kernel_unwind *ku, uint64_t key, Elf *elf)
{
	uint64_t hash = index_table__mix(key);
	size_t slot = index_table__first(&ku->index, hash);
	for (uint32_t at; (at = ku->index.slots[slot]) != 0; slot = index_table__next(&ku->index, slot))
		if (ku->binaries[at - 1].key == key)
			return &ku->binaries[at - 1];

	struct binary_table b = { .key = key, .id = RECORD_UNWIND_NO_TABLE };
	struct unwind_table t;
	struct kernel_unwind_stats add = { 0 };
	uint32_t first;
	if (!elf || unwind_table__get(elf, ku->cache_dir, &t) < 0) {
		add.no_table = 1;
	} else {
		uint32_t page_lo = 0, pages = 0;
		struct unwind_table index = { page_index(&t, &page_lo, &pages), 0, -1 };
		index.count = pages;
		uint64_t count = t.count + index.count;
		if (count > KERNEL_UNWIND_ROWS || !take_rows(ku, (uint32_t)count, &first)) {
			add.over_budget = 1;
		} else if (load_table(ku, first, &t) == 0 &&
			   (!pages || load_table(ku, first + (uint32_t)t.count, &index) == 0)) {
			b.id = first;
			b.rows = (uint32_t)t.count;
			b.page_lo = page_lo;
			b.pages = pages;
			add.tables = 1;
			add.bytes = count * sizeof(*t.rows);
		} else {
			give_rows(ku, first, (uint32_t)count);
			add.no_table = 1;
		}
		free(index.rows);
		unwind_table__release(&t);
	}
	pthread_mutex_lock(&ku->lock);
	ku->stats.tables += add.tables;
	ku->stats.bytes += add.bytes;
	ku->stats.no_table += add.no_table;
	ku->stats.over_budget += add.over_budget;
	pthread_mutex_unlock(&ku->lock);
	ku->binaries = fk_grow(ku->binaries, &ku->binary_cap, ku->binary_count + 1,
			       sizeof(*ku->binaries));
	ku->binaries[ku->binary_count] = b;
	index_table__insert(&ku->index, slot, ku->binary_count, binary_hash, ku->binaries);
	return &ku->binaries[ku->binary_count++];
}

/* p_vaddr - p_offset of elf's loadable segment holding vaddr; false: none */
static bool vaddr_delta(Elf *elf, uint64_t vaddr, int64_t *delta)
{
	size_t count;

	if (elf_getphdrnum(elf, &count) != 0)
		return false;
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_memsz) {
			*delta = (int64_t)(ph.p_vaddr - ph.p_offset);
			return true;
		}
	}
	return false;
}

/* Builds and loads a job's table, and enters the binary in the kernel's
 * unwind_binaries, with it or with none. */
static void do_job(struct kernel_unwind *ku, const struct table_job *job)
{
	struct record_unwind_binary entry = { RECORD_UNWIND_NO_TABLE, 0, 0, 0, 0 };
	Elf *elf = elf_begin(job->fd, ELF_C_READ_MMAP, NULL);
	struct binary_table *b = table_of(ku, job->key, elf);
	int64_t delta;

	if (b->id != RECORD_UNWIND_NO_TABLE && elf && vaddr_delta(elf, job->vaddr, &delta))
		entry = (struct record_unwind_binary){ b->id, b->rows, delta, b->page_lo, b->pages };
	if (bpf_map_update_elem(ku->binaries_fd, &job->file, &entry, BPF_ANY) == 0 &&
	    !b->entered) {
		b->file = job->file;
		b->entered = true;
	}
	if (elf)
		elf_end(elf);
}

/* Takes the tables of closed binaries out of the kernel: their entries in
 * unwind_binaries and unwind_asked (a process still mapping the file, not
 * sampled yet, has it asked for again), and their rows, used again once no
 * walk can be reading them. */
static void forget_tables(struct kernel_unwind *ku, const uint64_t *keys, size_t count)
{
	struct row_range *freed = NULL;
	size_t freed_count = 0, freed_cap = 0, kept = 0;
	uint64_t tables = 0, bytes = 0;

	for (size_t i = 0; i < ku->binary_count; i++) {
		const struct binary_table *b = &ku->binaries[i];
		if (!process_module__key_in(b->key, keys, count)) {
			ku->binaries[kept++] = *b;
			continue;
		}
		if (b->entered) {
			bpf_map_delete_elem(ku->binaries_fd, &b->file);
			bpf_map_delete_elem(ku->asked_fd, &b->file);
		}
		if (b->id == RECORD_UNWIND_NO_TABLE)
			continue;
		freed = fk_grow(freed, &freed_cap, freed_count + 1, sizeof(*freed));
		freed[freed_count++] = (struct row_range){ b->id, b->rows + b->pages };
		tables++;
		bytes += (uint64_t)(b->rows + b->pages) * sizeof(struct record_unwind_row);
	}
	if (kept == ku->binary_count)
		return;
	ku->binary_count = kept;
	index_table__rebuild(&ku->index, kept, binary_hash, ku->binaries);
	if (freed_count) {
		bpf_sampler__wait_for_programs();
		for (size_t i = 0; i < freed_count; i++)
			give_rows(ku, freed[i].first, freed[i].count);
	}
	free(freed);
	pthread_mutex_lock(&ku->lock);
	ku->stats.tables_let_go += tables;
	ku->stats.bytes_let_go += bytes;
	pthread_mutex_unlock(&ku->lock);
}

/* Does a job, and frees it. */
static void run_job(struct kernel_unwind *ku, struct table_job *job)
{
	if (job->forget_keys)
		forget_tables(ku, job->forget_keys, job->forget_count);
	else
		do_job(ku, job);
	table_job__free(job);
}

static void *build_tables(void *arg)
{
	struct kernel_unwind *ku = arg;

	pthread_mutex_lock(&ku->lock);
	for (;;) {
		while (!ku->first && !ku->stopping)
			pthread_cond_wait(&ku->wake, &ku->lock);
		if (ku->stopping)
			break;
		struct table_job *job = ku->first;
		ku->first = job->next;
		if (!ku->first)
			ku->last = NULL;
		pthread_mutex_unlock(&ku->lock);
		run_job(ku, job);
		pthread_mutex_lock(&ku->lock);
		ku->jobs_done++;
	}
	pthread_mutex_unlock(&ku->lock);
	return NULL;
}

/* Hands a job to the builder (done here, without it). */
static void queue_job(struct kernel_unwind *ku, struct table_job *job)
{
	if (!ku->builder_started) {
		run_job(ku, job);
		return;
	}
	pthread_mutex_lock(&ku->lock);
	if (ku->last)
		ku->last->next = job;
	else
		ku->first = job;
	ku->last = job;
	pthread_cond_signal(&ku->wake);
	pthread_mutex_unlock(&ku->lock);
}

void kernel_unwind__add(struct kernel_unwind *ku, const struct record_unwind_miss *miss)
{
	struct record_unwind_file file = miss->file;
	struct process_module m;

	if (!process_symbols__module_at(ku->ps, miss->pid, miss->pc, UINT64_MAX, &m)) {
		/* a process not read yet (its first sample is this one) */
		process_symbols__add(ku->ps, miss->pid);
		if (!process_symbols__module_at(ku->ps, miss->pid, miss->pc, UINT64_MAX, &m)) {
			/* ask again at the next sample that meets it */
			bpf_map_delete_elem(ku->asked_fd, &file);
			return;
		}
	}
	struct table_job *job = fk_calloc(1, sizeof(*job));
	*job = (struct table_job){ .file = file, .key = m.key,
				   .fd = m.fd >= 0 ? dup(m.fd) : -1, .vaddr = miss->pc - m.bias };
	queue_job(ku, job);
}

static uint64_t view_hash(const void *items, size_t index)
{
	return index_table__mix(((const struct binary_view *)items)[index].key);
}

/* The view of m's binary: found, or made now. */
static struct binary_view *view_of(struct kernel_unwind *ku, const struct process_module *m)
{
	uint64_t hash = index_table__mix(m->key);
	size_t slot = index_table__first(&ku->view_index, hash);
	for (uint32_t at; (at = ku->view_index.slots[slot]) != 0;
	     slot = index_table__next(&ku->view_index, slot))
		if (ku->views[at - 1].key == m->key)
			return &ku->views[at - 1];
	ku->views = fk_grow(ku->views, &ku->view_cap, ku->view_count + 1, sizeof(*ku->views));
	struct binary_view *v = &ku->views[ku->view_count];
	*v = (struct binary_view){ m->key, NULL, UINT64_MAX };
	index_table__insert(&ku->view_index, slot, ku->view_count, view_hash, ku->views);
	ku->view_count++;
	return v;
}

bool kernel_unwind__table_at(struct kernel_unwind *ku, uint32_t pid, uint64_t pc, uint64_t time,
			     struct unwind_table_at *out)
{
	struct process_module m;

	if (!process_symbols__module_at(ku->ps, pid, pc, time, &m)) {
		process_symbols__add(ku->ps, pid);  /* its first sample, perhaps */
		if (!process_symbols__module_at(ku->ps, pid, pc, time, &m))
			return false;
	}
	struct binary_view *v = view_of(ku, &m);
	if (!v->table && m.elf) {
		pthread_mutex_lock(&ku->lock);
		uint64_t done = ku->jobs_done;
		pthread_mutex_unlock(&ku->lock);
		struct unwind_table_file *f = done != v->built ? fk_malloc(sizeof(*f)) : NULL;
		if (f && unwind_table_file__open(m.elf, ku->cache_dir, f) == 0) {
			v->table = f;
		} else {
			free(f);
			v->built = done;
		}
	}
	if (!v->table)
		return false;
	*out = (struct unwind_table_at){ v->table, m.start, m.end, m.bias };
	return true;
}

void kernel_unwind__forget(struct kernel_unwind *ku, const uint64_t *keys, size_t count)
{
	size_t kept = 0;

	if (count == 0)
		return;
	for (size_t i = 0; i < ku->view_count; i++) {
		if (process_module__key_in(ku->views[i].key, keys, count))
			binary_view__close(&ku->views[i]);
		else
			ku->views[kept++] = ku->views[i];
	}
	if (kept != ku->view_count) {
		ku->view_count = kept;
		index_table__rebuild(&ku->view_index, kept, view_hash, ku->views);
	}
	struct table_job *job = fk_calloc(1, sizeof(*job));
	*job = (struct table_job){ .fd = -1, .forget_keys = fk_malloc(count * sizeof(*keys)),
				   .forget_count = count };
	memcpy(job->forget_keys, keys, count * sizeof(*keys));
	queue_job(ku, job);
}

void kernel_unwind__stats(struct kernel_unwind *ku, struct kernel_unwind_stats *out)
{
	pthread_mutex_lock(&ku->lock);
	*out = ku->stats;
	pthread_mutex_unlock(&ku->lock);
}
