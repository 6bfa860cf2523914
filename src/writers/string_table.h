/*
 * The string table of pprof and OTLP profiles: each distinct string once,
 * numbered from 0 in the order added, 0 being "" (both formats require
 * it), encoded as it grows as one protobuf field per string (pprof's
 * string_table = 6, OTLP's dictionary string_table = 5), for the writer
 * to append to its message when all are in.
 *
 *	struct string_table s;
 *	string_table__init(&s, profile, 6);
 *	uint64_t unit = string_table__add(&s, "count", 5);
 *	uint64_t name = string_table__frame(&s, frame);  // a frame's name, cached by id
 *	buf__append(out, s.encoded.data, s.encoded.len);
 *	string_table__release(&s);
 *
 * The profile (whose frame names string_table__frame() reads) must outlive
 * the table.
 */
#ifndef FLAMEKIT_WRITERS_STRING_TABLE_H
#define FLAMEKIT_WRITERS_STRING_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "../lib/buf.h"
#include "../lib/index_table.h"
#include "../profile/profile.h"

struct string_table {
	struct buf encoded;        /* the fields, in order */
	uint32_t field;
	uint64_t count;
	const struct profile *profile;
	uint64_t *of_frame;        /* a frame's string + 1; 0: not added yet */
	struct string_entry *entries;
	size_t entries_cap;
	struct buf text;           /* every string, back to back */
	struct index_table index;
};

void string_table__init(struct string_table *t, const struct profile *profile, uint32_t field);
void string_table__release(struct string_table *t);
uint64_t string_table__add(struct string_table *t, const char *s, size_t len);
uint64_t string_table__add_text(struct string_table *t, const char *s);  /* NUL-terminated */
uint64_t string_table__frame(struct string_table *t, frame_id frame);

struct sample_type;
/* A ValueType message as field `field` of b: (type, unit) as indexes of t,
 * fields 1 and 2 in pprof and OpenTelemetry alike. */
void string_table__value_type(struct string_table *t, struct buf *b, uint32_t field,
			      const struct sample_type *type);

#endif
