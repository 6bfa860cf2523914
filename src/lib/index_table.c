#include "index_table.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void index_table__init(struct index_table *t, size_t initial_size)
{
	size_t size = 16;
	while (size < initial_size)
		size *= 2;
	t->slots = fk_calloc(size, sizeof(*t->slots));
	t->size = size;
	t->used = 0;
}

void index_table__release(struct index_table *t)
{
	free(t->slots);
	t->slots = NULL;
	t->size = t->used = 0;
}

/* Rehashes every item into a table of `size` slots. */
static void resize(struct index_table *t, size_t size, index_hash_fn hash_of, const void *items)
{
	uint32_t *slots = fk_calloc(size, sizeof(*slots));
	for (size_t i = 0; i < t->size; i++) {
		uint32_t at = t->slots[i];
		if (!at)
			continue;
		size_t s = (size_t)hash_of(items, at - 1) & (size - 1);
		while (slots[s])
			s = (s + 1) & (size - 1);
		slots[s] = at;
	}
	free(t->slots);
	t->slots = slots;
	t->size = size;
}

void index_table__insert(struct index_table *t, size_t slot, size_t index,
			 index_hash_fn hash_of, const void *items)
{
	t->slots[slot] = (uint32_t)index + 1;
	if (++t->used * 2 > t->size)
		resize(t, t->size * 2, hash_of, items);
}

void index_table__reserve(struct index_table *t, size_t more, index_hash_fn hash_of,
			  const void *items)
{
	size_t size = t->size;
	while ((t->used + more) * 2 > size)
		size *= 2;
	if (size != t->size)
		resize(t, size, hash_of, items);
}

void index_table__clear(struct index_table *t)
{
	memset(t->slots, 0, t->size * sizeof(*t->slots));
	t->used = 0;
}

void index_table__rebuild(struct index_table *t, size_t count, index_hash_fn hash_of,
			  const void *items)
{
	size_t size = 16;
	while (count * 2 > size)
		size *= 2;
	free(t->slots);
	t->slots = fk_calloc(size, sizeof(*t->slots));
	t->size = size;
	t->used = count;
	for (size_t i = 0; i < count; i++) {
		size_t s = index_table__first(t, hash_of(items, i));
		while (t->slots[s])
			s = index_table__next(t, s);
		t->slots[s] = (uint32_t)i + 1;
	}
}
