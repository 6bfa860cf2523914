/*
 * A cache from the text of an input line to the frames it yields (a group,
 * as stack_builder stores it), for readers whose per-line tidying costs more
 * than a hash lookup: real captures repeat a few thousand distinct lines
 * millions of times.
 *
 * A key is two spans and a small tag (e.g. function text, module, and
 * "process is Java"); the reader decides what the result depends on, and
 * must not cache a line whose result depends on anything else.
 *
 *	uint64_t h = group_cache__hash(a, b, tag);
 *	size_t slot;
 *	const struct cached_group *g = group_cache__find(&c, h, a, b, tag, &slot);
 *	if (g) { stack_builder__add_ids(sb, group_cache__ids(&c, g), g->count); ... }
 *	else { ... build the group ...; group_cache__add(&c, slot, h, a, b, tag, ids, n); }
 *
 * A found group's pointer is valid until the next add.
 */
#ifndef FLAMEKIT_READERS_GROUP_CACHE_H
#define FLAMEKIT_READERS_GROUP_CACHE_H

#include <stdint.h>
#include <string.h>

#include "../lib/index_table.h"
#include "../profile/profile.h"
#include "perl_text.h"

struct cached_group {
	uint64_t hash;
	uint64_t key_offset;   /* into keys: a's bytes, then b's */
	uint32_t a_len, b_len;
	uint32_t ids_offset;   /* into ids */
	uint32_t count;
	uint32_t tag;
};

struct group_cache {
	struct cached_group *groups;
	size_t count, cap;
	struct index_table index;
	char *keys;
	size_t keys_len, keys_cap;
	frame_id *ids;
	size_t ids_len, ids_cap;
};

void group_cache__init(struct group_cache *c);
void group_cache__release(struct group_cache *c);
uint64_t group_cache__hash(struct span a, struct span b, uint32_t tag);
const struct cached_group *group_cache__find(const struct group_cache *c, uint64_t hash,
					     struct span a, struct span b, uint32_t tag,
					     size_t *slot);
void group_cache__add(struct group_cache *c, size_t slot, uint64_t hash, struct span a,
		      struct span b, uint32_t tag, const frame_id *ids, size_t count);

static inline const frame_id *group_cache__ids(const struct group_cache *c,
					       const struct cached_group *g)
{
	return c->ids + g->ids_offset;
}

#endif
