#include "kernel_unwind.h"

#include <errno.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>

#include "../bpf/record.h"
#include "../lib/cache_dir.h"
#include "../lib/index_table.h"
#include "../lib/pid_table.h"
#include "../lib/xalloc.h"
#include "../symbolize/unwind_table.h"

/* Rows loaded into the kernel per batch call. */
#define LOAD_BATCH 65536

/* A binary, by process_module.key: its table in the kernel, or none. */
struct binary_table {
	const void *key;
	uint32_t id;                /* its first row in unwind_rows; RECORD_UNWIND_NO_TABLE: none */
	uint32_t rows;
};

struct unwind_process {
	uint32_t pid;
	bool installed;
	uint64_t generation;        /* of the mappings it was filled from */
	uint64_t installed_at;      /* CLOCK_MONOTONIC ns */
};

struct kernel_unwind {
	int rows_fd, procs_fd;
	struct process_symbols *ps;
	struct binary_table *binaries;
	size_t binary_count, binary_cap;
	struct index_table index;
	struct pid_table processes;
	uint32_t next_row;          /* the first row of unwind_rows not used */
	struct kernel_unwind_stats stats;
	struct record_unwind_proc *entry;  /* scratch: the one being filled */
	char *cache_dir;                   /* of tables by build id; NULL: none */
};

static uint64_t binary_hash(const void *items, size_t index)
{
	return index_table__mix((uintptr_t)((const struct binary_table *)items)[index].key);
}

struct kernel_unwind *kernel_unwind__new(int rows_fd, int procs_fd, struct process_symbols *ps)
{
	struct kernel_unwind *ku = fk_calloc(1, sizeof(*ku));

	ku->rows_fd = rows_fd;
	ku->procs_fd = procs_fd;
	ku->ps = ps;
	index_table__init(&ku->index, 64);
	pid_table__init(&ku->processes);
	ku->entry = fk_calloc(1, sizeof(*ku->entry));
	ku->cache_dir = cache_dir__path("unwind");
	return ku;
}

void kernel_unwind__free(struct kernel_unwind *ku)
{
	if (!ku)
		return;
	free(ku->binaries);
	index_table__release(&ku->index);
	pid_table__release(&ku->processes, NULL);
	free(ku->entry);
	free(ku->cache_dir);
	free(ku);
}

/* Loads a table's rows into unwind_rows from row first on; 0 or -1. */
static int load_table(struct kernel_unwind *ku, uint32_t first, const struct unwind_table *t)
{
	size_t batch = t->count < LOAD_BATCH ? t->count : LOAD_BATCH;
	__u32 *keys = fk_calloc(batch, sizeof(*keys));
	int err = 0;

	for (size_t done = 0; done < t->count && !err; done += batch) {
		__u32 n = (__u32)(t->count - done < batch ? t->count - done : batch);
		for (__u32 i = 0; i < n; i++)
			keys[i] = (__u32)(first + done + i);
		err = bpf_map_update_batch(ku->rows_fd, keys, t->rows + done, &n, NULL);
	}
	free(keys);
	return err ? -1 : 0;
}

/* The kernel table of a module's binary, built and loaded on first sight. */
static const struct binary_table *table_of(struct kernel_unwind *ku,
					   const struct process_module *m)
{
	uint64_t hash = index_table__mix((uintptr_t)m->key);
	size_t slot = index_table__first(&ku->index, hash);
	for (uint32_t at; (at = ku->index.slots[slot]) != 0; slot = index_table__next(&ku->index, slot))
		if (ku->binaries[at - 1].key == m->key)
			return &ku->binaries[at - 1];

	struct binary_table b = { m->key, RECORD_UNWIND_NO_TABLE, 0 };
	struct unwind_table t;
	if (!m->elf || unwind_table__get(m->elf, ku->cache_dir, &t) < 0) {
		ku->stats.no_table++;
	} else {
		uint64_t bytes = t.count * sizeof(*t.rows);
		if (ku->next_row + t.count > KERNEL_UNWIND_ROWS) {
			ku->stats.over_budget++;
		} else if (load_table(ku, ku->next_row, &t) == 0) {
			b.id = ku->next_row;
			b.rows = (uint32_t)t.count;
			ku->next_row += (uint32_t)t.count;
			ku->stats.tables++;
			ku->stats.rows += t.count;
			ku->stats.bytes += bytes;
		} else {
			ku->stats.no_table++;
		}
		unwind_table__release(&t);
	}
	ku->binaries = fk_grow(ku->binaries, &ku->binary_cap, ku->binary_count + 1,
			       sizeof(*ku->binaries));
	ku->binaries[ku->binary_count] = b;
	index_table__insert(&ku->index, slot, ku->binary_count, binary_hash, ku->binaries);
	return &ku->binaries[ku->binary_count++];
}

static int compare_mappings(const void *a, const void *b)
{
	const struct record_unwind_mapping *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

void kernel_unwind__install(struct kernel_unwind *ku, uint32_t pid, uint64_t time, bool stale)
{
	struct unwind_process *p = pid_table__get(&ku->processes, pid, sizeof(*p), NULL);
	uint64_t generation = process_symbols__generation(ku->ps, pid);

	/* a sample from before the entry was filled says nothing of it */
	if (p->installed && p->generation == generation &&
	    (!stale || time < p->installed_at))
		return;
	struct process_module *modules;
	/* the mappings as they are now, which the kernel's next walks meet
	 * (a sample's own time may be before the loader mapped the libraries) */
	size_t count = process_symbols__modules(ku->ps, pid, UINT64_MAX, &modules);
	struct record_unwind_proc *e = ku->entry;
	memset(e, 0, sizeof(*e));
	for (size_t i = 0; i < count && e->count < RECORD_UNWIND_MAPPINGS; i++) {
		const struct binary_table *b = table_of(ku, &modules[i]);
		e->mappings[e->count++] = (struct record_unwind_mapping){
			.start = modules[i].low,
			.end = modules[i].high,
			.bias = modules[i].bias,
			.table = b->id,
			.rows = b->rows,
		};
	}
	free(modules);
	qsort(e->mappings, e->count, sizeof(e->mappings[0]), compare_mappings);
	/* images that overlap (one mapped over another's gap): the first keeps its range */
	size_t kept = 0;
	for (size_t i = 0; i < e->count; i++) {
		if (kept && e->mappings[i].start < e->mappings[kept - 1].end)
			continue;
		e->mappings[kept++] = e->mappings[i];
	}
	e->count = (__u32)kept;
	if (bpf_map_update_elem(ku->procs_fd, &pid, e, BPF_ANY) == 0) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		p->installed = true;
		p->generation = generation;
		p->installed_at = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
		ku->stats.processes++;
	}
}

void kernel_unwind__forget(struct kernel_unwind *ku, uint32_t pid)
{
	struct unwind_process *p = pid_table__get(&ku->processes, pid, 0, NULL);

	bpf_map_delete_elem(ku->procs_fd, &pid);
	if (p)
		p->installed = false;
}

void kernel_unwind__stats(const struct kernel_unwind *ku, struct kernel_unwind_stats *out)
{
	*out = ku->stats;
}
