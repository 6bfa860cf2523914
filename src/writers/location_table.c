#include "location_table.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../lib/index_table.h"
#include "../lib/protobuf.h"
#include "../lib/xalloc.h"
#include "../profile/pprof_names.h"

#define KINDS (PROFILE_FRAME_PROCESS + 1)

struct location {
	uint32_t mapping;
	uint32_t line_count;
	size_t lines_offset;   /* into lines[] */
	uint64_t hash;         /* of its lines, for locations of several */
};

struct location_table {
	const struct profile *profile;
	/* a location of one line, by its frame; 0: none yet */
	uint32_t *location_of_frame;
	uint32_t *function_of_frame;
	struct location *locations;
	size_t location_count, locations_cap;
	frame_id *lines;
	size_t lines_len, lines_cap;
	struct index_table inlined;   /* locations of several lines, by their lines */
	frame_id *function_frames;
	size_t function_count, functions_cap;
	uint32_t mapping_of_kind[KINDS];
	enum profile_frame_kind mapping_kinds[KINDS];
	uint32_t mapping_count;
	uint32_t *ids;                /* one stack's, leaf first */
	size_t ids_cap;
	/* whether a frame is inlined, by frame id: read for every frame of
	 * every stack, where a call into the profile showed */
	bool *inlined_frame;
};

struct location_table *location_table__new(const struct profile *profile)
{
	struct location_table *t = fk_calloc(1, sizeof(*t));
	size_t frames = profile__frame_count(profile);
	t->profile = profile;
	t->location_of_frame = fk_calloc(frames ? frames : 1, sizeof(*t->location_of_frame));
	t->function_of_frame = fk_calloc(frames ? frames : 1, sizeof(*t->function_of_frame));
	t->inlined_frame = fk_calloc(frames ? frames : 1, sizeof(*t->inlined_frame));
	for (size_t f = 0; f < frames; f++)
		t->inlined_frame[f] = profile__frame_kind(profile, (frame_id)f) == PROFILE_FRAME_INLINED;
	index_table__init(&t->inlined, 64);
	return t;
}

void location_table__free(struct location_table *t)
{
	if (!t)
		return;
	free(t->location_of_frame);
	free(t->function_of_frame);
	free(t->locations);
	free(t->lines);
	index_table__release(&t->inlined);
	free(t->function_frames);
	free(t->ids);
	free(t->inlined_frame);
	free(t);
}

static uint64_t location_hash_of(const void *locations, size_t index)
{
	return ((const struct location *)locations)[index].hash;
}

static uint32_t mapping_of(struct location_table *t, enum profile_frame_kind kind)
{
	if (!pprof_names__mapping(kind))
		return 0;
	if (!t->mapping_of_kind[kind]) {
		t->mapping_kinds[t->mapping_count] = kind;
		t->mapping_of_kind[kind] = ++t->mapping_count;
	}
	return t->mapping_of_kind[kind];
}

/* A new location of lines[0 .. n-1] (innermost first). */
static uint32_t add_location(struct location_table *t, const frame_id *lines, uint32_t n,
			     uint64_t hash)
{
	t->lines = fk_grow(t->lines, &t->lines_cap, t->lines_len + n, sizeof(*t->lines));
	memcpy(t->lines + t->lines_len, lines, n * sizeof(*lines));
	for (uint32_t i = 0; i < n; i++) {
		frame_id f = lines[i];
		if (!t->function_of_frame[f]) {
			t->function_frames = fk_grow(t->function_frames, &t->functions_cap,
						     t->function_count + 1, sizeof(*t->function_frames));
			t->function_frames[t->function_count++] = f;
			t->function_of_frame[f] = (uint32_t)t->function_count;
		}
	}
	t->locations = fk_grow(t->locations, &t->locations_cap, t->location_count + 1,
			       sizeof(*t->locations));
	t->locations[t->location_count] = (struct location){
		mapping_of(t, profile__frame_kind(t->profile, lines[n - 1])), n, t->lines_len, hash,
	};
	t->lines_len += n;
	return (uint32_t)++t->location_count;
}

/* The location of lines[0 .. n-1], made on first sight. */
static uint32_t location_of(struct location_table *t, const frame_id *lines, uint32_t n)
{
	if (n == 1) {
		if (!t->location_of_frame[lines[0]])
			t->location_of_frame[lines[0]] = add_location(t, lines, 1, 0);
		return t->location_of_frame[lines[0]];
	}
	uint64_t hash = XXH3_64bits(lines, n * sizeof(*lines));
	size_t slot = index_table__first(&t->inlined, hash);
	for (uint32_t at; (at = t->inlined.slots[slot]) != 0;
	     slot = index_table__next(&t->inlined, slot)) {
		const struct location *l = &t->locations[at - 1];
		if (l->hash == hash && l->line_count == n &&
		    memcmp(t->lines + l->lines_offset, lines, n * sizeof(*lines)) == 0)
			return at;
	}
	uint32_t id = add_location(t, lines, n, hash);
	index_table__insert(&t->inlined, slot, id - 1, location_hash_of, t->locations);
	return id;
}

size_t location_table__stack(struct location_table *t, const struct profile_stack *s,
			     const uint32_t **ids)
{
	frame_id group[64];
	size_t n = s->depth;
	t->ids = fk_grow(t->ids, &t->ids_cap, s->depth ? s->depth : 1, sizeof(*t->ids));
	/* from the root, so that new ids follow the stacks' paths (close ids
	 * compress better): a frame and the frames inlined into it after it;
	 * written from the end of ids, as both formats list them leaf first */
	for (uint32_t first = 0; first < s->depth;) {
		uint32_t end = first + 1;
		while (end < s->depth && end - first < sizeof group / sizeof group[0] &&
		       t->inlined_frame[s->frames[end]])
			end++;
		uint32_t lines = end - first;
		if (lines == 1) {
			t->ids[--n] = location_of(t, s->frames + first, 1);
		} else {
			for (uint32_t i = 0; i < lines; i++)
				group[i] = s->frames[end - 1 - i];
			t->ids[--n] = location_of(t, group, lines);
		}
		first = end;
	}
	/* fewer locations than frames (inlined ones): move them to the front */
	if (n)
		memmove(t->ids, t->ids + n, (s->depth - n) * sizeof(*t->ids));
	*ids = t->ids;
	return s->depth - n;
}

uint32_t location_table__locations(const struct location_table *t)
{
	return (uint32_t)t->location_count;
}

void location_table__location(const struct location_table *t, uint32_t id,
			      struct table_location *out)
{
	const struct location *l = &t->locations[id - 1];
	*out = (struct table_location){ l->mapping, t->lines + l->lines_offset, l->line_count };
}

void location_table__encode_lines(const struct location_table *t, uint32_t id,
				  struct buf *b, uint32_t field)
{
	const struct location *l = &t->locations[id - 1];
	for (uint32_t i = 0; i < l->line_count; i++) {
		size_t line = pb__begin(b, field);
		pb__uint(b, 1, t->function_of_frame[t->lines[l->lines_offset + i]]);
		pb__end(b, line);
	}
}

uint32_t location_table__functions(const struct location_table *t)
{
	return (uint32_t)t->function_count;
}

uint32_t location_table__functions_ahead(const struct location_table *t, size_t *frames)
{
	size_t n = profile__size(t->profile);
	bool *seen = fk_calloc(profile__frame_count(t->profile) + 1, sizeof(*seen));
	uint32_t functions = 0;
	*frames = 0;
	for (size_t i = 0; i < n; i++) {
		struct profile_stack s;
		profile__stack(t->profile, i, &s);
		*frames += s.depth;
		for (uint32_t k = 0; k < s.depth; k++) {
			functions += !seen[s.frames[k]];
			seen[s.frames[k]] = true;
		}
	}
	free(seen);
	return functions;
}

frame_id location_table__function_frame(const struct location_table *t, uint32_t id)
{
	return t->function_frames[id - 1];
}

uint32_t location_table__function_of(const struct location_table *t, frame_id frame)
{
	return t->function_of_frame[frame];
}

uint32_t location_table__mappings(const struct location_table *t)
{
	return t->mapping_count;
}

const char *location_table__mapping_name(const struct location_table *t, uint32_t id)
{
	return pprof_names__mapping(t->mapping_kinds[id - 1]);
}

enum profile_frame_kind location_table__mapping_kind(const struct location_table *t, uint32_t id)
{
	return t->mapping_kinds[id - 1];
}
