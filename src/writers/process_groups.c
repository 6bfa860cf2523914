#include "process_groups.h"

#include <stdbool.h>
#include <stdlib.h>

#include "../lib/index_table.h"
#include "../lib/xalloc.h"

static frame_id comm_of(const struct profile *p, const struct profile_stack *s)
{
	return s->depth && profile__frame_kind(p, s->frames[0]) == PROFILE_FRAME_PROCESS
		       ? s->frames[0] : NO_COMM;
}

/* A group's key: its pid, or (without pids) its process name's frame. */
static uint64_t key_hash_of(const void *keys, size_t index)
{
	return index_table__mix(((const uint64_t *)keys)[index]);
}

void process_groups__init(struct process_groups *g, const struct profile *p)
{
	size_t n = profile__size(p), cap = 0, keys_cap = 0;
	uint64_t *keys = NULL;
	bool by_pid = false;
	*g = (struct process_groups){ .of_entry = fk_calloc(n ? n : 1, sizeof(*g->of_entry)) };
	for (size_t e = 0; e < n && !by_pid; e++) {
		struct profile_stack s;
		profile__stack(p, e, &s);
		by_pid = s.key.pid != 0;
	}
	struct index_table index;
	index_table__init(&index, 64);
	for (size_t e = 0; e < n; e++) {
		struct profile_stack s;
		profile__stack(p, e, &s);
		frame_id comm = comm_of(p, &s);
		uint64_t key = by_pid ? s.key.pid : comm;
		size_t slot = index_table__first(&index, index_table__mix(key));
		uint32_t at;
		while ((at = index.slots[slot]) != 0 && keys[at - 1] != key)
			slot = index_table__next(&index, slot);
		if (!at) {
			g->groups = fk_grow(g->groups, &cap, g->count + 1, sizeof(*g->groups));
			keys = fk_grow(keys, &keys_cap, g->count + 1, sizeof(*keys));
			g->groups[g->count] = (struct process_group){ by_pid ? s.key.pid : 0, comm };
			keys[g->count] = key;
			index_table__insert(&index, slot, g->count, key_hash_of, keys);
			at = (uint32_t)++g->count;
		}
		/* by pid: the name of its first entry that has one */
		if (g->groups[at - 1].comm == NO_COMM)
			g->groups[at - 1].comm = comm;
		g->of_entry[e] = at - 1;
	}
	index_table__release(&index);
	free(keys);
}

void process_groups__release(struct process_groups *g)
{
	free(g->groups);
	free(g->of_entry);
}
