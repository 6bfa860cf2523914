#include "kernel_unwind.h"

#include <errno.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <gelf.h>

#include <bpf/bpf.h>

#include "../bpf/record.h"
#include "../lib/cache_dir.h"
#include "../lib/index_table.h"
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

struct kernel_unwind {
	int rows_fd, binaries_fd, asked_fd;
	struct process_symbols *ps;
	struct binary_table *binaries;
	size_t binary_count, binary_cap;
	struct index_table index;
	uint32_t next_row;          /* the first row of unwind_rows not used */
	struct kernel_unwind_stats stats;
	char *cache_dir;                   /* of tables by build id; NULL: none */
};

static uint64_t binary_hash(const void *items, size_t index)
{
	return index_table__mix((uintptr_t)((const struct binary_table *)items)[index].key);
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
	ku->cache_dir = cache_dir__path("unwind");
	return ku;
}

void kernel_unwind__free(struct kernel_unwind *ku)
{
	if (!ku)
		return;
	free(ku->binaries);
	index_table__release(&ku->index);
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

void kernel_unwind__add(struct kernel_unwind *ku, uint32_t pid, uint64_t pc, uint64_t dev,
			uint64_t inode)
{
	struct record_unwind_file file = { dev, inode };
	struct record_unwind_binary entry = { RECORD_UNWIND_NO_TABLE, 0, 0 };
	struct process_module m;

	if (!process_symbols__module_at(ku->ps, pid, pc, UINT64_MAX, &m)) {
		/* a process not read yet (its first sample is this one) */
		process_symbols__add(ku->ps, pid);
		if (!process_symbols__module_at(ku->ps, pid, pc, UINT64_MAX, &m)) {
			/* ask again at the next sample that meets it */
			ku->stats.unknown++;
			bpf_map_delete_elem(ku->asked_fd, &file);
			return;
		}
	}
	const struct binary_table *b = table_of(ku, &m);
	int64_t delta;
	if (b->id != RECORD_UNWIND_NO_TABLE && m.elf && vaddr_delta(m.elf, pc - m.bias, &delta))
		entry = (struct record_unwind_binary){ b->id, b->rows, delta };
	bpf_map_update_elem(ku->binaries_fd, &file, &entry, BPF_ANY);
}

void kernel_unwind__stats(const struct kernel_unwind *ku, struct kernel_unwind_stats *out)
{
	*out = ku->stats;
}
