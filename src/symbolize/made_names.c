#include "made_names.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/xalloc.h"
#include "demangle.h"

struct made_name {
	uint64_t addr;
	const char *raw;
	char *shown;             /* NULL: the raw name as it is */
	char *annotated;
};

static uint64_t made_hash(uint64_t addr, const char *raw)
{
	return index_table__mix(addr ^ (uintptr_t)raw * 31);
}

static uint64_t made_hash_of(const void *items, size_t index)
{
	const struct made_name *n = (const struct made_name *)items + index;
	return made_hash(n->addr, n->raw);
}

/* The names made from (addr, raw), made now if not yet. */
static struct made_name *made_name(struct made_names *m, uint64_t addr, const char *raw)
{
	uint64_t hash = made_hash(addr, raw);
	if (!m->index.slots)
		index_table__init(&m->index, 64);
	size_t slot = index_table__first(&m->index, hash);
	for (uint32_t at; (at = m->index.slots[slot]) != 0; slot = index_table__next(&m->index, slot))
		if (m->names[at - 1].addr == addr && m->names[at - 1].raw == raw)
			return &m->names[at - 1];

	/* "clock_gettime@@GLIBC_2.17" (a .symtab's versioned name): the name */
	size_t versioned = raw[0] != '@' ? strcspn(raw, "@") : strlen(raw);
	char *unversioned = raw[versioned] ? fk_memdup(raw, versioned) : NULL;
	char *shown = demangle(unversioned ? unversioned : raw);
	if (shown)
		free(unversioned);
	else
		shown = unversioned;
	m->names = fk_grow(m->names, &m->cap, m->count + 1, sizeof(*m->names));
	m->names[m->count] = (struct made_name){ addr, raw, shown, NULL };
	index_table__insert(&m->index, slot, m->count, made_hash_of, m->names);
	return &m->names[m->count++];
}

const char *made_names__shown(struct made_names *m, uint64_t addr, const char *raw)
{
	struct made_name *n = made_name(m, addr, raw);
	return n->shown ? n->shown : n->raw;
}

const char *made_names__annotated(struct made_names *m, uint64_t addr, const char *raw,
				  const char *suffix)
{
	struct made_name *n = made_name(m, addr, raw);
	if (!n->annotated) {
		struct buf b = BUF_INIT;
		buf__printf(&b, "%s%s", n->shown ? n->shown : n->raw, suffix);
		n->annotated = b.data;
	}
	return n->annotated;
}

void made_names__forget(struct made_names *m)
{
	for (size_t i = 0; i < m->count; i++) {
		free(m->names[i].shown);
		free(m->names[i].annotated);
	}
	free(m->names);
	index_table__release(&m->index);
	*m = (struct made_names){ 0 };
}
