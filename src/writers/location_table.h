/*
 * The tables pprof and OpenTelemetry profiles share: mappings, locations
 * and functions, each deduplicated and numbered 1..N in the order the
 * stacks first use them (pprof's ids and OTLP's table indexes alike; Parca
 * wants pprof's ids so), built from a profile's stacks as they are written.
 *
 * A location is a frame, or a frame and the frames inlined into it (kind
 * PROFILE_FRAME_INLINED, after it in the stack): its lines, innermost
 * first, the frame they were inlined into last (as profile.proto orders
 * them). A function is one frame name. A location's mapping says what kind
 * of code it is, for the kinds that have one (profile/pprof_names.h);
 * others have none (0).
 *
 *	struct location_table *t = location_table__new(profile);
 *	for each stack s:
 *		const uint32_t *ids;
 *		size_t n = location_table__stack(t, &s, &ids);  // leaf first
 *		... write ids[0 .. n-1] ...
 *	for (uint32_t id = 1; id <= location_table__locations(t); id++) {
 *		struct table_location loc;
 *		location_table__location(t, id, &loc);
 *		...
 *	}
 *	location_table__free(t);
 *
 * The table reads the profile's frames (names, kinds) and keeps pointers
 * into nothing of it: the profile must outlive it and not change meanwhile.
 * The ids location_table__stack() gives stay valid until its next call.
 */
#ifndef FLAMEKIT_WRITERS_LOCATION_TABLE_H
#define FLAMEKIT_WRITERS_LOCATION_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "../lib/buf.h"
#include "../profile/profile.h"

struct location_table;

struct table_location {
	uint32_t mapping;        /* 0: none */
	const frame_id *lines;   /* innermost first; the last is its function proper */
	uint32_t line_count;
};

struct location_table *location_table__new(const struct profile *profile);
void location_table__free(struct location_table *t);

/* The location ids of stack s, leaf first; new locations, functions and
 * mappings get the next ids. Returns how many (0 for an empty stack). */
size_t location_table__stack(struct location_table *t, const struct profile_stack *s,
			     const uint32_t **ids);

uint32_t location_table__locations(const struct location_table *t);
void location_table__location(const struct location_table *t, uint32_t id,
			      struct table_location *out);
/* Location `id`'s lines as protobuf fields `field` of b, each a Line
 * message holding its function id (field 1 in pprof and OTLP alike). */
void location_table__encode_lines(const struct location_table *t, uint32_t id,
				  struct buf *b, uint32_t field);
/* Functions: the frame whose name function `id` has; and a frame's
 * function id (0 when no location used it). */
uint32_t location_table__functions(const struct location_table *t);
/* How many functions the table will hold once it has seen every stack of
 * its profile (one for each distinct frame they have), known before any
 * is added; *frames gets the number of frames of all the stacks. */
uint32_t location_table__functions_ahead(const struct location_table *t, size_t *frames);
frame_id location_table__function_frame(const struct location_table *t, uint32_t id);
uint32_t location_table__function_of(const struct location_table *t, frame_id frame);
/* Mappings: the file name of mapping `id` and the kind of frame it is for. */
uint32_t location_table__mappings(const struct location_table *t);
const char *location_table__mapping_name(const struct location_table *t, uint32_t id);
enum profile_frame_kind location_table__mapping_kind(const struct location_table *t, uint32_t id);

#endif
