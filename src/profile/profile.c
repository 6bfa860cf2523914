#include "profile.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../lib/index_table.h"
#include "../lib/xalloc.h"

struct frame {
	uint64_t name_offset;
	uint32_t name_len;
	uint32_t hash;        /* low bits of the name's hash, to skip most memcmp */
	uint8_t kind;         /* enum profile_frame_kind */
};

/*
 * An entry's frames are kept in stack_bytes, encoded: each frame id in
 * LEB128 (7 bits a byte, the high bit set on all but an id's last byte),
 * where ids of few bytes are most (the first names met, the frames of most
 * stacks): three builds recorded host-wide made 585,000 frames of 1.85
 * bytes on average, 1.1 MB where they took 2.3 MB as ids. A stack deeper
 * than PROFILE_STACK_INLINE, which a struct profile_stack has no room to
 * decode, is kept as its ids, 4-byte aligned, for profile__stack() to
 * point at.
 */
struct entry {
	uint64_t bytes_offset;  /* into stack_bytes */
	/* (no hash kept: the index's resize hashes the bytes again, and an
	 * entry of 24 bytes, not 32, is 200 KB less at the peak of a build's
	 * recording, its 25,000 stacks) */
	uint32_t depth;
	uint32_t byte_count;
	struct profile_key key;
};

struct profile {
	unsigned columns;
	enum profile_value_type type;
	enum profile_unit unit;
	enum profile_order order;
	struct profile_time time;
	struct profile_source source;

	char *names;                 /* every frame name, each NUL-terminated */
	size_t names_len, names_cap;
	struct frame *frames;
	size_t frame_count, frames_cap;
	struct index_table frame_index;

	uint8_t *stack_bytes;        /* the frames of every entry, back to back */
	size_t stack_bytes_len, stack_bytes_cap;
	uint8_t *encoded;            /* profile__add()'s stack, encoded */
	size_t encoded_cap;
	struct entry *entries;
	union profile_value *values; /* columns per entry */
	size_t entry_count, entries_cap, values_cap;
	struct index_table entry_index;
};

struct profile *profile__new(unsigned columns, enum profile_value_type type)
{
	struct profile *p = fk_calloc(1, sizeof(*p));
	p->columns = columns >= 1 && columns <= PROFILE_MAX_COLUMNS ? columns : 1;
	p->type = type;
	index_table__init(&p->frame_index, 1024);
	index_table__init(&p->entry_index, 1024);
	return p;
}

struct profile *profile__new_like(const struct profile *p)
{
	struct profile *like = profile__new(p->columns, p->type);
	like->unit = p->unit;
	like->order = p->order;
	like->time = p->time;
	like->source = p->source;
	return like;
}

void profile__free(struct profile *p)
{
	if (!p)
		return;
	free(p->names);
	free(p->frames);
	index_table__release(&p->frame_index);
	free(p->stack_bytes);
	free(p->encoded);
	free(p->entries);
	free(p->values);
	index_table__release(&p->entry_index);
	free(p);
}

unsigned profile__columns(const struct profile *p) { return p->columns; }
enum profile_value_type profile__value_type(const struct profile *p) { return p->type; }
size_t profile__frame_count(const struct profile *p) { return p->frame_count; }
size_t profile__size(const struct profile *p) { return p->entry_count; }
void profile__set_unit(struct profile *p, enum profile_unit unit) { p->unit = unit; }
enum profile_unit profile__unit(const struct profile *p) { return p->unit; }
void profile__set_time(struct profile *p, const struct profile_time *time) { p->time = *time; }
void profile__set_source(struct profile *p, const struct profile_source *source) { p->source = *source; }
const struct profile_source *profile__source(const struct profile *p) { return &p->source; }
const struct profile_time *profile__time(const struct profile *p) { return &p->time; }
void profile__set_order(struct profile *p, enum profile_order order) { p->order = order; }
enum profile_order profile__order(const struct profile *p) { return p->order; }

const char *profile_unit__name(enum profile_unit unit)
{
	switch (unit) {
	case PROFILE_SAMPLES: return "samples";
	case PROFILE_EVENTS: return "events";
	case PROFILE_PERIODS: return "periods";
	case PROFILE_NANOSECONDS: return "ns";
	case PROFILE_MICROSECONDS: return "us";
	case PROFILE_BYTES: return "bytes";
	}
	return "samples";
}

/* "... (FILE)" or "... (FILE:LINE)" where FILE ends in .py or .pyw or is
 * "<...>" (frozen modules, <string>, <stdin>). */
static bool interpreted_form(const char *name, size_t len)
{
	if (len < 6 || name[len - 1] != ')')
		return false;
	size_t open = len - 1;
	while (open > 0 && name[open - 1] != '(' && name[open - 1] != ';')
		open--;
	if (open < 2 || name[open - 1] != '(' || name[open - 2] != ' ')
		return false;
	size_t end = len - 1;  /* FILE[:LINE] is name[open .. end) */
	size_t colon = end;
	while (colon > open && name[colon - 1] >= '0' && name[colon - 1] <= '9')
		colon--;
	if (colon < end && colon > open && name[colon - 1] == ':')
		end = colon - 1;
	size_t n = end - open;
	const char *file = name + open;
	return (n > 3 && memcmp(file + n - 3, ".py", 3) == 0) ||
	       (n > 4 && memcmp(file + n - 4, ".pyw", 4) == 0) ||
	       (n > 2 && file[0] == '<' && file[n - 1] == '>');
}

enum profile_frame_kind profile_frame_kind__of_name(const char *name, size_t len)
{
	/* "_[k]_[o]", "_[k]_[w]": the kind is the annotation before the marks
	 * of where the time went (off CPU) and whose it is (a waker) */
	while (len >= 4 && memcmp(name + len - 4, "_[", 2) == 0 && name[len - 1] == ']') {
		switch (name[len - 2]) {
		case 'k': return PROFILE_FRAME_KERNEL;
		case 'j': return PROFILE_FRAME_JIT;
		case 'i': return PROFILE_FRAME_INLINED;
		case 'o':
		case 'w': len -= 4; continue;
		}
		break;
	}
	return interpreted_form(name, len) ? PROFILE_FRAME_INTERPRETED : PROFILE_FRAME_NATIVE;
}

void profile__set_frame_kind(struct profile *p, frame_id id, enum profile_frame_kind kind)
{
	p->frames[id].kind = (uint8_t)kind;
}

enum profile_frame_kind profile__frame_kind(const struct profile *p, frame_id id)
{
	return (enum profile_frame_kind)p->frames[id].kind;
}

static uint64_t frame_hash_of(const void *frames, size_t id)
{
	return ((const struct frame *)frames)[id].hash;
}

frame_id profile__intern(struct profile *p, const char *name, size_t len)
{
	uint32_t hash = (uint32_t)XXH3_64bits(name, len);
	size_t slot = index_table__first(&p->frame_index, hash);
	for (uint32_t at; (at = p->frame_index.slots[slot]) != 0;
	     slot = index_table__next(&p->frame_index, slot)) {
		const struct frame *f = &p->frames[at - 1];
		if (f->hash == hash && f->name_len == len &&
		    memcmp(p->names + f->name_offset, name, len) == 0)
			return at - 1;
	}
	frame_id id = (frame_id)p->frame_count;
	p->frames = fk_grow(p->frames, &p->frames_cap, p->frame_count + 1, sizeof(*p->frames));
	p->names = fk_grow(p->names, &p->names_cap, p->names_len + len + 1, 1);
	memcpy(p->names + p->names_len, name, len);
	p->names[p->names_len + len] = '\0';
	p->frames[id] = (struct frame){ p->names_len, (uint32_t)len, hash,
					(uint8_t)profile_frame_kind__of_name(name, len) };
	p->names_len += len + 1;
	p->frame_count++;
	index_table__insert(&p->frame_index, slot, id, frame_hash_of, p->frames);
	return id;
}

const char *profile__frame_name(const struct profile *p, frame_id id, size_t *len)
{
	*len = p->frames[id].name_len;
	return p->names + p->frames[id].name_offset;
}

/* Whether a stack of depth frames is kept as its ids (see struct entry). */
static bool kept_whole(uint32_t depth)
{
	return depth > PROFILE_STACK_INLINE;
}

/* frames into p->encoded as struct entry keeps them; their byte count. */
static size_t encode_frames(struct profile *p, const frame_id *frames, uint32_t depth)
{
	size_t n = 0;

	p->encoded = fk_grow(p->encoded, &p->encoded_cap, (size_t)depth * 5 + 1, 1);
	if (kept_whole(depth)) {
		memcpy(p->encoded, frames, depth * sizeof(*frames));
		return depth * sizeof(*frames);
	}
	for (uint32_t i = 0; i < depth; i++) {
		frame_id id = frames[i];
		for (; id >= 0x80; id >>= 7)
			p->encoded[n++] = (uint8_t)(id | 0x80);
		p->encoded[n++] = (uint8_t)id;
	}
	return n;
}

/* The next id at *at in an encoded stack (moving *at past it). */
static frame_id decode_frame(const uint8_t *bytes, size_t *at)
{
	frame_id id = 0;
	unsigned shift = 0;
	uint8_t byte;

	do {
		byte = bytes[(*at)++];
		id |= (frame_id)(byte & 0x7f) << shift;
		shift += 7;
	} while (byte & 0x80);
	return id;
}

/* An entry's frames read one at a time, first to last. */
struct frame_cursor {
	const uint8_t *bytes;       /* encoded (NULL: ids kept whole) */
	const frame_id *ids;
	size_t at;                  /* the next frame's first byte, in bytes */
	uint32_t index, depth;      /* the next frame's index, of depth */
};

static void frame_cursor__init(struct frame_cursor *c, const struct profile *p,
			       const struct entry *en)
{
	const uint8_t *bytes = p->stack_bytes + en->bytes_offset;
	*c = (struct frame_cursor){ bytes, NULL, 0, 0, en->depth };
	if (kept_whole(en->depth)) {
		c->bytes = NULL;
		c->ids = (const frame_id *)(const void *)bytes;
	}
}

static frame_id frame_cursor__next(struct frame_cursor *c)
{
	frame_id id = c->bytes ? decode_frame(c->bytes, &c->at) : c->ids[c->index];
	c->index++;
	return id;
}

/* An entry's frames: decoded into room (PROFILE_STACK_INLINE of them), or
 * where its ids are kept whole. */
static const frame_id *entry_frames(const struct profile *p, const struct entry *en,
				    frame_id *room)
{
	struct frame_cursor c;

	frame_cursor__init(&c, p, en);
	if (!c.bytes)
		return c.ids;
	while (c.index < c.depth)
		room[c.index] = frame_cursor__next(&c);
	return room;
}

static uint64_t stack_hash(const uint8_t *encoded, size_t byte_count,
			   const struct profile_key *key)
{
	return XXH3_64bits_withSeed(encoded, byte_count,
				    key->slice | (uint64_t)key->pid << 32);
}

static bool entry_is(const struct profile *p, const struct entry *en, uint32_t depth,
		     size_t byte_count, const struct profile_key *key)
{
	/* no bytes compares nothing, and stack_bytes may still be NULL */
	return en->depth == depth && en->byte_count == byte_count &&
	       en->key.slice == key->slice && en->key.pid == key->pid &&
	       (byte_count == 0 ||
		memcmp(p->stack_bytes + en->bytes_offset, p->encoded, byte_count) == 0);
}

/* index_table's hash of p's entry at index (the profile passed as items). */
static uint64_t entry_hash_of(const void *profile, size_t index)
{
	const struct profile *p = profile;
	const struct entry *en = &p->entries[index];
	return stack_hash(en->byte_count ? p->stack_bytes + en->bytes_offset : NULL,
			  en->byte_count, &en->key);
}

void profile__sum_values(const struct profile *p, union profile_value *sum,
			 const union profile_value *values)
{
	for (unsigned c = 0; c < p->columns; c++) {
		if (p->type == PROFILE_INTEGER)
			sum[c].integer += values[c].integer;
		else
			sum[c].decimal += values[c].decimal;
	}
}

void profile__add_to_entry(struct profile *p, size_t e, const union profile_value *values)
{
	profile__sum_values(p, p->values + e * p->columns, values);
}

/* The entry the stack (in p->encoded) merges into: by hash, or only the
 * last one added. */
static bool find_entry(struct profile *p, uint32_t depth, size_t byte_count,
		       const struct profile_key *key, size_t *slot, size_t *e)
{
	switch (p->order) {
	case PROFILE_MERGE:
		*slot = index_table__first(&p->entry_index,
					   stack_hash(p->encoded, byte_count, key));
		for (uint32_t at; (at = p->entry_index.slots[*slot]) != 0;
		     *slot = index_table__next(&p->entry_index, *slot))
			if (entry_is(p, &p->entries[at - 1], depth, byte_count, key)) {
				*e = at - 1;
				return true;
			}
		return false;
	case PROFILE_KEEP_RUNS:
		*e = p->entry_count - 1;
		return p->entry_count > 0 &&
		       entry_is(p, &p->entries[*e], depth, byte_count, key);
	case PROFILE_KEEP_EACH:
		break;
	}
	return false;
}

size_t profile__add(struct profile *p, const frame_id *frames, uint32_t depth,
		    const struct profile_key *key, const union profile_value *values)
{
	static const struct profile_key no_key = { 0, 0 };
	if (!key)
		key = &no_key;
	/* One empty frame folds to the same line as no frame: keep one form. */
	if (depth == 1 && p->frames[frames[0]].name_len == 0)
		depth = 0;
	size_t byte_count = encode_frames(p, frames, depth);
	size_t slot = 0, e;
	if (!find_entry(p, depth, byte_count, key, &slot, &e)) {
		e = p->entry_count;
		p->entries = fk_grow(p->entries, &p->entries_cap, e + 1, sizeof(*p->entries));
		p->values = fk_grow(p->values, &p->values_cap, (e + 1) * p->columns,
				  sizeof(*p->values));
		size_t offset = p->stack_bytes_len;
		if (kept_whole(depth))  /* (ids, for profile__stack() to point at) */
			offset = (offset + sizeof(frame_id) - 1) & ~(sizeof(frame_id) - 1);
		/* + 1: never NULL, even for empty stacks (entry_frames() adds
		 * an offset to it) */
		p->stack_bytes = fk_grow(p->stack_bytes, &p->stack_bytes_cap,
					 offset + byte_count + 1, 1);
		if (byte_count)
			memcpy(p->stack_bytes + offset, p->encoded, byte_count);
		p->entries[e] = (struct entry){ offset, depth, (uint32_t)byte_count, *key };
		p->stack_bytes_len = offset + byte_count;
		memset(p->values + e * p->columns, 0, p->columns * sizeof(*p->values));
		p->entry_count++;
		/* only the merging order looks entries up by hash */
		if (p->order == PROFILE_MERGE)
			index_table__insert(&p->entry_index, slot, e, entry_hash_of, p);
	}
	profile__add_to_entry(p, e, values);
	return e;
}

void profile__reserve(struct profile *p, const struct profile_reserve *more)
{
	p->frames = fk_grow(p->frames, &p->frames_cap, p->frame_count + more->frames,
			    sizeof(*p->frames));
	p->names = fk_grow(p->names, &p->names_cap, p->names_len + more->name_bytes, 1);
	index_table__reserve(&p->frame_index, more->frames, frame_hash_of, p->frames);
	size_t entries = p->entry_count + more->stacks;
	p->entries = fk_grow(p->entries, &p->entries_cap, entries, sizeof(*p->entries));
	p->values = fk_grow(p->values, &p->values_cap, entries * p->columns, sizeof(*p->values));
	/* (about 2 bytes a frame: see struct entry) */
	p->stack_bytes = fk_grow(p->stack_bytes, &p->stack_bytes_cap,
				 p->stack_bytes_len + more->stack_frames * 2 + 1, 1);
	if (p->order == PROFILE_MERGE)
		index_table__reserve(&p->entry_index, more->stacks, entry_hash_of, p);
}

void profile__merge(struct profile *dst, const struct profile *src)
{
	/* Map src's frame ids to dst's once, then add each stack. */
	frame_id *map = fk_malloc((src->frame_count ? src->frame_count : 1) * sizeof(*map));
	for (size_t id = 0; id < src->frame_count; id++) {
		size_t len;
		const char *name = profile__frame_name(src, (frame_id)id, &len);
		map[id] = profile__intern(dst, name, len);
		profile__set_frame_kind(dst, map[id], profile__frame_kind(src, (frame_id)id));
	}
	frame_id *frames = NULL;
	size_t cap = 0;
	for (size_t e = 0; e < src->entry_count; e++) {
		struct profile_stack s;
		profile__stack(src, e, &s);
		frames = fk_grow(frames, &cap, s.depth ? s.depth : 1, sizeof(*frames));
		for (uint32_t d = 0; d < s.depth; d++)
			frames[d] = map[s.frames[d]];
		profile__add(dst, frames, s.depth, &s.key, s.values);
	}
	free(frames);
	free(map);
}

void profile__stack(const struct profile *p, size_t index, struct profile_stack *out)
{
	const struct entry *en = &p->entries[index];
	out->frames = entry_frames(p, en, out->decoded);
	out->depth = en->depth;
	out->key = en->key;
	out->values = p->values + index * p->columns;
}

/* Entries with equal frames: by slice, then pid (then in the order added:
 * the sort below is stable). */
static int compare_keys(const struct entry *a, const struct entry *b)
{
	if (a->key.slice != b->key.slice)
		return a->key.slice < b->key.slice ? -1 : 1;
	return a->key.pid < b->key.pid ? -1 : a->key.pid > b->key.pid;
}

/* How many bytes a and b (n each) have the same at their start: eight
 * compared at once (x86-64 is little-endian: the lowest differing bit is
 * in the first differing byte). */
static size_t common_bytes(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t k = 0;

	for (; k + 8 <= n; k += 8) {
		uint64_t x, y;
		memcpy(&x, a + k, 8);
		memcpy(&y, b + k, 8);
		if (x != y)
			return k + (size_t)__builtin_ctzll(x ^ y) / 8;
	}
	while (k < n && a[k] == b[k])
		k++;
	return k;
}

/* The ids of encoded bytes[0 .. n): the bytes that end one (high bit clear). */
static uint32_t ids_in(const uint8_t *bytes, size_t n)
{
	uint32_t ids = 0;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x;
		memcpy(&x, bytes + i, 8);
		/* a 1 in each byte that ends an id, summed into the top byte */
		uint64_t ends = (~x & 0x8080808080808080ULL) >> 7;
		ids += (uint32_t)((ends * 0x0101010101010101ULL) >> 56);
	}
	for (; i < n; i++)
		ids += !(bytes[i] & 0x80);
	return ids;
}

/* Moves both cursors past the frames a and b share at their start: by
 * bytes where both are encoded (an id's bytes are the same just when the
 * ids are), else id by id. */
static void skip_common_frames(const struct entry *a, const struct entry *b,
			       struct frame_cursor *ca, struct frame_cursor *cb)
{
	if (ca->bytes && cb->bytes) {
		size_t n = a->byte_count < b->byte_count ? a->byte_count : b->byte_count;
		size_t k = common_bytes(ca->bytes, cb->bytes, n);
		while (k > 0 && (ca->bytes[k - 1] & 0x80))  /* back to an id's first byte */
			k--;
		ca->at = cb->at = k;
		ca->index = cb->index = ids_in(ca->bytes, k);
		return;
	}
	while (ca->index < ca->depth && cb->index < cb->depth) {
		struct frame_cursor next_a = *ca, next_b = *cb;
		if (frame_cursor__next(&next_a) != frame_cursor__next(&next_b))
			return;
		*ca = next_a;
		*cb = next_b;
	}
}

/*
 * Compares two stacks as the byte strings of their folded lines (frames
 * joined by ';') without building those strings. Frames equal by id are
 * equal by bytes, which skips the common prefix quickly.
 */
static int compare_folded(const struct profile *p, const struct entry *a,
			  const struct entry *b)
{
	struct frame_cursor ca, cb;
	frame_cursor__init(&ca, p, a);
	frame_cursor__init(&cb, p, b);
	skip_common_frames(a, b, &ca, &cb);
	if (ca.index == a->depth || cb.index == b->depth) {
		if (a->depth != b->depth)
			return a->depth < b->depth ? -1 : 1;
		return compare_keys(a, b);
	}
	/* Walk both joined strings from the first frame that differs on. */
	size_t pa = 0, pb = 0, la, lb;
	const unsigned char *na = (const unsigned char *)profile__frame_name(
		p, frame_cursor__next(&ca), &la);
	const unsigned char *nb = (const unsigned char *)profile__frame_name(
		p, frame_cursor__next(&cb), &lb);
	for (;;) {
		int ca_char, cb_char; /* -1: end of the whole string */
		if (pa < la)
			ca_char = na[pa];
		else
			ca_char = ca.index < a->depth ? ';' : -1;
		if (pb < lb)
			cb_char = nb[pb];
		else
			cb_char = cb.index < b->depth ? ';' : -1;
		if (ca_char != cb_char)
			return ca_char < cb_char ? -1 : 1;
		if (ca_char == -1)
			return compare_keys(a, b);
		if (pa < la) {
			pa++;
		} else {
			pa = 0;
			na = (const unsigned char *)profile__frame_name(p, frame_cursor__next(&ca), &la);
		}
		if (pb < lb) {
			pb++;
		} else {
			pb = 0;
			nb = (const unsigned char *)profile__frame_name(p, frame_cursor__next(&cb), &lb);
		}
	}
}

/* qsort has no context argument in C11; sort with a small merge sort instead. */
static void merge_sort(const struct profile *p, size_t *v, size_t *tmp, size_t n)
{
	if (n < 2)
		return;
	if (n <= 8) {
		for (size_t i = 1; i < n; i++) {
			size_t x = v[i], j = i;
			while (j > 0 && compare_folded(p, &p->entries[v[j - 1]], &p->entries[x]) > 0) {
				v[j] = v[j - 1];
				j--;
			}
			v[j] = x;
		}
		return;
	}
	size_t half = n / 2;
	merge_sort(p, v, tmp, half);
	merge_sort(p, v + half, tmp, n - half);
	/* halves already in order (sorted input, the common case): done */
	if (compare_folded(p, &p->entries[v[half]], &p->entries[v[half - 1]]) >= 0)
		return;
	size_t i = 0, j = half, k = 0;
	while (i < half && j < n) {
		if (compare_folded(p, &p->entries[v[j]], &p->entries[v[i]]) < 0)
			tmp[k++] = v[j++];
		else
			tmp[k++] = v[i++];
	}
	while (i < half)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

size_t *profile__sorted(const struct profile *p)
{
	size_t n = p->entry_count;
	size_t *order = fk_malloc((n ? n : 1) * sizeof(*order));
	size_t *tmp = fk_malloc((n ? n : 1) * sizeof(*tmp));
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	if (p->order == PROFILE_MERGE)
		merge_sort(p, order, tmp, n);
	free(tmp);
	return order;
}


