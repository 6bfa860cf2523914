#include "group_cache.h"

#include <stdlib.h>
#include <xxhash.h>

#include "../lib/xalloc.h"

void group_cache__init(struct group_cache *c)
{
	memset(c, 0, sizeof(*c));
	index_table__init(&c->index, 1024);
}

void group_cache__release(struct group_cache *c)
{
	index_table__release(&c->index);
	free(c->groups);
	free(c->keys);
	free(c->ids);
	memset(c, 0, sizeof(*c));
}

uint64_t group_cache__hash(struct span a, struct span b, uint32_t tag)
{
	/* One hash call: b enters by its length and its last bytes, which tell
	 * modules apart well; lookups compare the whole key anyway. */
	uint64_t tail = 0;
	if (b.len)
		memcpy(&tail, b.p + (b.len > 8 ? b.len - 8 : 0), b.len < 8 ? b.len : 8);
	uint64_t h = XXH3_64bits_withSeed(a.p, a.len, tail ^ ((uint64_t)b.len << 8) ^ tag);
	h ^= h >> 29;
	return h * 0xbf58476d1ce4e5b9ull;
}

static uint64_t group_hash_of(const void *groups, size_t index)
{
	return ((const struct cached_group *)groups)[index].hash;
}

const struct cached_group *group_cache__find(const struct group_cache *c, uint64_t hash,
					     struct span a, struct span b, uint32_t tag,
					     size_t *slot)
{
	size_t i = index_table__first(&c->index, hash);
	for (uint32_t at; (at = c->index.slots[i]) != 0; i = index_table__next(&c->index, i)) {
		const struct cached_group *g = &c->groups[at - 1];
		if (g->hash == hash && g->tag == tag && g->a_len == a.len && g->b_len == b.len &&
		    memcmp(c->keys + g->key_offset, a.p, a.len) == 0 &&
		    (b.len == 0 || memcmp(c->keys + g->key_offset + a.len, b.p, b.len) == 0))
			return g;
	}
	*slot = i;
	return NULL;
}

void group_cache__add(struct group_cache *c, size_t slot, uint64_t hash, struct span a,
		      struct span b, uint32_t tag, const frame_id *ids, size_t count)
{
	c->keys = fk_grow(c->keys, &c->keys_cap, c->keys_len + a.len + b.len, 1);
	memcpy(c->keys + c->keys_len, a.p, a.len);
	if (b.len)
		memcpy(c->keys + c->keys_len + a.len, b.p, b.len);
	c->ids = fk_grow(c->ids, &c->ids_cap, c->ids_len + count, sizeof(frame_id));
	if (count)
		memcpy(c->ids + c->ids_len, ids, count * sizeof(frame_id));
	c->groups = fk_grow(c->groups, &c->cap, c->count + 1, sizeof(*c->groups));
	c->groups[c->count] = (struct cached_group){ hash, c->keys_len, (uint32_t)a.len,
						     (uint32_t)b.len, (uint32_t)c->ids_len,
						     (uint32_t)count, tag };
	c->keys_len += a.len + b.len;
	c->ids_len += count;
	index_table__insert(&c->index, slot, c->count++, group_hash_of, c->groups);
}
