/*
 * An open-addressing hash index over items that the caller stores itself
 * (in an array, by index). A slot holds an item's index + 1, 0 when empty;
 * the table keeps no keys, so the caller compares its own items while
 * probing. Growth rehashes every item through the caller's hash_of().
 *
 *	size_t slot = index_table__first(&t, hash);
 *	for (uint32_t at; (at = t.slots[slot]) != 0; slot = index_table__next(&t, slot))
 *		if (same_key(&items[at - 1], key))
 *			return at - 1;
 *	items[count] = new item;
 *	index_table__insert(&t, slot, count++, hash_of, items);
 *
 * Slots are valid until the next insert (which may grow the table).
 */
#ifndef FLAMEKIT_INDEX_TABLE_H
#define FLAMEKIT_INDEX_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct index_table {
	uint32_t *slots;
	size_t size;     /* a power of two */
	size_t used;
};

/* The hash of item `index`, as it was given when the item was inserted. */
typedef uint64_t (*index_hash_fn)(const void *items, size_t index);

void index_table__init(struct index_table *t, size_t initial_size);
void index_table__release(struct index_table *t);
/* Puts item `index` in the empty `slot` found by probing; grows past half full. */
void index_table__insert(struct index_table *t, size_t slot, size_t index,
			 index_hash_fn hash_of, const void *items);
/* Room for `more` items without growing again (growing one doubling at a
 * time rehashes every item at each). */
void index_table__reserve(struct index_table *t, size_t more, index_hash_fn hash_of,
			  const void *items);
/* Empties the table, its size kept: for one filled and emptied again and
 * again (no allocation, no growing back). */
void index_table__clear(struct index_table *t);
/* Indexes items 0 .. count - 1 afresh: after the caller has removed some
 * and moved the rest (the table keeps no keys to remove one by). */
void index_table__rebuild(struct index_table *t, size_t count, index_hash_fn hash_of,
			  const void *items);

/* Spreads a key of few varying bits (a pid, an inode) over all 64 (the
 * finalizer of MurmurHash3), for keys that are not hashes already. */
static inline uint64_t index_table__mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static inline size_t index_table__first(const struct index_table *t, uint64_t hash)
{
	return (size_t)hash & (t->size - 1);
}

static inline size_t index_table__next(const struct index_table *t, size_t slot)
{
	return (slot + 1) & (t->size - 1);
}

#endif
