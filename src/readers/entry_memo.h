/*
 * Memoised entries for aggregation formats (bpftrace maps, SystemTap and
 * DTrace aggregations): an entry is the block of lines that makes one stack,
 * ended by its count. The same blocks come again and again when a tool
 * prints its map at every interval, or when captures are concatenated; then
 * the block's text alone says which stack it is.
 *
 * The reader hands every line of an entry to entry_memo__line() instead of
 * parsing it; at the entry's end, entry_memo__find() either gives the profile
 * entry that block made before (add the count to it) or nothing: then the
 * reader parses the kept lines (entry_memo__next_kept) and records the
 * result with entry_memo__remember(). The memo stops remembering new blocks
 * past MEMO_MAX_BYTES of text, so inputs of distinct entries stay lean.
 */
#ifndef FLAMEKIT_READERS_ENTRY_MEMO_H
#define FLAMEKIT_READERS_ENTRY_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/buf.h"
#include "../lib/index_table.h"
#include "perl_text.h"

#define MEMO_MAX_BYTES (64u << 20)

struct memo_block {
	uint64_t hash;
	uint64_t text_offset;
	uint64_t text_len;
	size_t profile_entry;
};

struct entry_memo {
	struct buf lines;            /* the current entry's lines, each ending in '\n' */
	size_t read_at;              /* entry_memo__next_kept()'s position */
	struct memo_block *blocks;
	size_t count, cap;
	struct index_table index;
	struct buf texts;            /* remembered blocks' text */
	uint64_t hash;               /* of the current entry, set by find */
	size_t slot;
};

void entry_memo__init(struct entry_memo *m);
void entry_memo__release(struct entry_memo *m);

/* Keeps a line of the current entry. (Runs on every line: one reservation,
 * and locals, as char stores would make the compiler reload len and cap.) */
static inline void entry_memo__line(struct entry_memo *m, struct span line)
{
	size_t len = m->lines.len;
	if (len + line.len + 2 > m->lines.cap)
		buf__reserve(&m->lines, line.len + 1);
	char *d = m->lines.data;
	memcpy(d + len, line.p, line.len);
	d[len + line.len] = '\n';
	d[len + line.len + 1] = '\0';
	m->lines.len = len + line.len + 1;
}

/* The profile entry this block made before, or false (then parse it). */
bool entry_memo__find(struct entry_memo *m, size_t *profile_entry);
/* The kept lines one by one, for parsing after a miss. */
bool entry_memo__next_kept(struct entry_memo *m, struct span *line);
/* After a miss: the block made profile_entry. Starts the next entry. */
void entry_memo__remember(struct entry_memo *m, size_t profile_entry);
/* Starts the next entry (after a hit, or to drop the current lines). */
void entry_memo__clear(struct entry_memo *m);

#endif
