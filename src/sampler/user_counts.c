#include "user_counts.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/index_table.h"
#include "../lib/xalloc.h"

struct entry {
	struct user_count count;
	uint64_t hash;
};

struct user_counts {
	struct entry *entries;
	size_t count, cap;
	struct index_table index;
};

static uint64_t mix(uint64_t h, uint64_t word)
{
	h ^= word;
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 32);
}

static uint64_t hash_of_key(const struct user_count *k)
{
	uint64_t h = mix(mix(mix(0x5bd1e995, k->pid), (uint64_t)k->tid << 32 | k->slice),
			 k->kernel_stack ^ k->interp_stack * 0x9e3779b97f4a7c15ULL);
	uint64_t comm[2];
	memcpy(comm, k->comm, sizeof(comm));
	h = mix(mix(h, comm[0]), comm[1]);
	for (size_t i = 0; i < k->depth; i++)
		h = mix(h, k->pcs[i]);
	return mix(h, k->depth);
}

static uint64_t entry_hash_of(const void *items, size_t index)
{
	return ((const struct entry *)items)[index].hash;
}

static bool same_key(const struct user_count *a, const struct user_count *b)
{
	return a->pid == b->pid && a->tid == b->tid && a->slice == b->slice &&
	       a->kernel_stack == b->kernel_stack && a->interp_stack == b->interp_stack &&
	       a->depth == b->depth &&
	       memcmp(a->comm, b->comm, sizeof(a->comm)) == 0 &&
	       (a->depth == 0 || memcmp(a->pcs, b->pcs, a->depth * sizeof(*a->pcs)) == 0);
}

struct user_counts *user_counts__new(void)
{
	struct user_counts *uc = fk_calloc(1, sizeof(*uc));
	index_table__init(&uc->index, 1024);
	return uc;
}

void user_counts__free(struct user_counts *uc)
{
	if (!uc)
		return;
	for (size_t i = 0; i < uc->count; i++)
		free(uc->entries[i].count.pcs);
	free(uc->entries);
	index_table__release(&uc->index);
	free(uc);
}

void user_counts__add(struct user_counts *uc, const struct user_count *key)
{
	uint64_t hash = hash_of_key(key);
	size_t slot = index_table__first(&uc->index, hash);

	for (uint32_t at; (at = uc->index.slots[slot]) != 0; slot = index_table__next(&uc->index, slot)) {
		struct entry *e = &uc->entries[at - 1];
		if (e->hash == hash && same_key(&e->count, key)) {
			e->count.count++;
			return;
		}
	}
	uc->entries = fk_grow(uc->entries, &uc->cap, uc->count + 1, sizeof(*uc->entries));
	struct entry *e = &uc->entries[uc->count];
	e->count = *key;
	e->count.count = 1;
	e->count.pcs = fk_malloc((key->depth + 1) * sizeof(*key->pcs));
	if (key->depth)
		memcpy(e->count.pcs, key->pcs, key->depth * sizeof(*key->pcs));
	e->hash = hash;
	index_table__insert(&uc->index, slot, uc->count++, entry_hash_of, uc->entries);
}

void user_counts__forget_through(struct user_counts *uc, uint32_t slice)
{
	size_t kept = 0;

	for (size_t i = 0; i < uc->count; i++) {
		if (uc->entries[i].count.slice <= slice)
			free(uc->entries[i].count.pcs);
		else
			uc->entries[kept++] = uc->entries[i];
	}
	uc->count = kept;
	if (kept == 0) {  /* (not kept at the most a window had) */
		free(uc->entries);
		uc->entries = NULL;
		uc->cap = 0;
	}
	/* the index holds positions: made again over what is left */
	index_table__release(&uc->index);
	index_table__init(&uc->index, 1024);
	for (size_t i = 0; i < uc->count; i++) {
		size_t slot = index_table__first(&uc->index, uc->entries[i].hash);
		while (uc->index.slots[slot] != 0)
			slot = index_table__next(&uc->index, slot);
		index_table__insert(&uc->index, slot, i, entry_hash_of, uc->entries);
	}
}

size_t user_counts__size(const struct user_counts *uc)
{
	return uc->count;
}

const struct user_count *user_counts__entry(const struct user_counts *uc, size_t index)
{
	return &uc->entries[index].count;
}
