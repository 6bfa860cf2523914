#include "entry_memo.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../lib/xalloc.h"

void entry_memo__init(struct entry_memo *m)
{
	memset(m, 0, sizeof(*m));
	index_table__init(&m->index, 1024);
}

void entry_memo__release(struct entry_memo *m)
{
	buf__free(&m->lines);
	buf__free(&m->texts);
	free(m->blocks);
	index_table__release(&m->index);
}

static uint64_t block_hash_of(const void *blocks, size_t index)
{
	return ((const struct memo_block *)blocks)[index].hash;
}

bool entry_memo__find(struct entry_memo *m, size_t *profile_entry)
{
	m->read_at = 0;
	m->hash = XXH3_64bits(m->lines.data ? m->lines.data : "", m->lines.len);
	size_t i = index_table__first(&m->index, m->hash);
	for (uint32_t at; (at = m->index.slots[i]) != 0; i = index_table__next(&m->index, i)) {
		const struct memo_block *b = &m->blocks[at - 1];
		if (b->hash == m->hash && b->text_len == m->lines.len &&
		    memcmp(m->texts.data + b->text_offset, m->lines.data, m->lines.len) == 0) {
			*profile_entry = b->profile_entry;
			return true;
		}
	}
	m->slot = i;
	return false;
}

bool entry_memo__next_kept(struct entry_memo *m, struct span *line)
{
	if (m->read_at >= m->lines.len)
		return false;
	const char *start = m->lines.data + m->read_at;
	const char *nl = memchr(start, '\n', m->lines.len - m->read_at);
	*line = (struct span){ start, (size_t)(nl - start) };
	m->read_at += line->len + 1;
	return true;
}

void entry_memo__remember(struct entry_memo *m, size_t profile_entry)
{
	if (m->texts.len + m->lines.len <= MEMO_MAX_BYTES) {
		m->blocks = fk_grow(m->blocks, &m->cap, m->count + 1, sizeof(*m->blocks));
		m->blocks[m->count] = (struct memo_block){ m->hash, m->texts.len, m->lines.len,
							   profile_entry };
		buf__append(&m->texts, m->lines.data ? m->lines.data : "", m->lines.len);
		index_table__insert(&m->index, m->slot, m->count++, block_hash_of, m->blocks);
	}
	entry_memo__clear(m);
}

void entry_memo__clear(struct entry_memo *m)
{
	buf__reset(&m->lines);
	m->read_at = 0;
}
