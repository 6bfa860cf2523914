#include "pprof.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/error.h"
#include "../lib/gzip.h"
#include "../lib/protobuf.h"
#include "../lib/xalloc.h"
#include "../profile/pprof_names.h"
#include "location_table.h"

/* profile.proto's field numbers */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE, PROFILE_MAPPING, PROFILE_LOCATION,
	PROFILE_FUNCTION, PROFILE_STRING_TABLE, PROFILE_TIME_NANOS = 9, PROFILE_DURATION_NANOS,
	PROFILE_PERIOD_TYPE, PROFILE_PERIOD, PROFILE_COMMENT,
};
enum { SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE, SAMPLE_LABEL };
enum { LABEL_KEY = 1, LABEL_STR, LABEL_NUM, LABEL_NUM_UNIT };
enum { MAPPING_ID = 1, MAPPING_FILENAME = 5, MAPPING_HAS_FUNCTIONS = 7 };
enum { LOCATION_ID = 1, LOCATION_MAPPING_ID, LOCATION_LINE = 4 };
enum { FUNCTION_ID = 1, FUNCTION_NAME, FUNCTION_SYSTEM_NAME };

static void label_num(struct buf *b, uint64_t key, uint64_t num, uint64_t unit)
{
	size_t m = pb__begin(b, SAMPLE_LABEL);
	pb__uint(b, LABEL_KEY, key);
	pb__uint(b, LABEL_NUM, num);
	if (unit)
		pb__uint(b, LABEL_NUM_UNIT, unit);
	pb__end(b, m);
}

/*
 * The strings that are not frame names (sample types, label keys, mapping
 * names, the comment): few, each once, after the names. The names are
 * strings 1..F in function order, so that a function's name is its id:
 * neighbouring functions then differ in the same bytes, which compresses.
 */
struct fixed_strings {
	const char *text[24];
	size_t count;
	uint64_t first;  /* the index of text[0] */
};

static uint64_t fixed_string(struct fixed_strings *f, const char *text)
{
	for (size_t i = 0; i < f->count; i++)
		if (strcmp(f->text[i], text) == 0)
			return f->first + i;
	f->text[f->count] = text;
	return f->first + f->count++;
}

static void value_type(struct buf *b, uint32_t field, struct fixed_strings *f,
		       const struct sample_type *t)
{
	size_t m = pb__begin(b, field);
	pb__uint(b, 1, fixed_string(f, t->type));
	pb__uint(b, 2, fixed_string(f, t->unit));
	pb__end(b, m);
}

/* Where the message goes: b, and when it is written to a file, on to gzip
 * parts of about PART_BYTES, compressed while the next is made.
 * next_record() is called between the Profile's fields, next_part() where
 * a table of another kind starts: the functions repeat each id three times
 * in a row, which takes a compressor that sees 3-byte repeats to shrink. */
enum { PART_BYTES = 512 << 10, TABLES_EVERY = 16384 };

struct message {
	struct buf *b;
	struct gzip_parts *parts;
	enum gzip_part_kind kind;
};

static void next_record(struct message *out)
{
	if (out->parts && out->b->len >= PART_BYTES) {
		gzip_parts__add(out->parts, out->b, out->kind);
		buf__reserve(out->b, PART_BYTES + 4096);
	}
}

/* What follows compresses as `kind`: what came before is a part. */
static void next_part(struct message *out, enum gzip_part_kind kind)
{
	if (out->parts && out->kind != kind)
		gzip_parts__add(out->parts, out->b, out->kind);
	out->kind = kind;
}

/* Each table's records are written as the samples before them make them
 * (a repeated field keeps its order across the other fields), so that they
 * are compressed while the next samples are made: the ones since `w`. */
struct written {
	uint32_t locations, functions;
};

static void write_new_tables(struct message *out, const struct profile *p,
			     const struct location_table *t, struct written *w)
{
	struct buf *b = out->b;
	next_part(out, GZIP_PART_SMALL);
	for (uint32_t id = w->locations + 1; id <= location_table__locations(t); id++) {
		struct table_location loc;
		location_table__location(t, id, &loc);
		size_t m = pb__begin(b, PROFILE_LOCATION);
		pb__uint(b, LOCATION_ID, id);
		if (loc.mapping)
			pb__uint(b, LOCATION_MAPPING_ID, loc.mapping);
		location_table__encode_lines(t, id, b, LOCATION_LINE);
		pb__end(b, m);
		next_record(out);
	}
	next_part(out, GZIP_PART_SHORT_REPEATS);
	for (uint32_t id = w->functions + 1; id <= location_table__functions(t); id++) {
		size_t m = pb__begin(b, PROFILE_FUNCTION);
		pb__uint(b, FUNCTION_ID, id);
		/* string `id` (see fixed_strings); the system name too, as Go
		 * writes it, for the tools that show that one */
		pb__uint(b, FUNCTION_NAME, id);
		pb__uint(b, FUNCTION_SYSTEM_NAME, id);
		pb__end(b, m);
		next_record(out);
	}
	next_part(out, GZIP_PART_SMALL);
	for (uint32_t id = w->functions + 1; id <= location_table__functions(t); id++) {
		size_t len;
		const char *name = profile__frame_name(p, location_table__function_frame(t, id), &len);
		pb__bytes(b, PROFILE_STRING_TABLE, name, len);
		next_record(out);
	}
	w->locations = location_table__locations(t);
	w->functions = location_table__functions(t);
	next_part(out, GZIP_PART_FAST);
}

static void write_mappings(struct buf *b, const struct location_table *t,
			   struct fixed_strings *fixed)
{
	for (uint32_t id = 1; id <= location_table__mappings(t); id++) {
		size_t m = pb__begin(b, PROFILE_MAPPING);
		pb__uint(b, MAPPING_ID, id);
		pb__uint(b, MAPPING_FILENAME, fixed_string(fixed, location_table__mapping_name(t, id)));
		/* named already: nothing for pprof to look up in binaries */
		pb__uint(b, MAPPING_HAS_FUNCTIONS, 1);
		pb__end(b, m);
	}
}

static int encode(const struct profile *p, struct message *out)
{
	struct buf *b = out->b;
	if (profile__columns(p) != 1)
		return error("pprof holds one value per sample: a difference of two profiles "
			     "cannot be written as pprof; write it as folded stacks");
	const size_t n = profile__size(p);
	const struct profile_source *source = profile__source(p);
	const struct profile_time *time = profile__time(p);
	struct location_table *t = location_table__new(p);
	struct sample_types types;
	pprof_names__sample_types(p, &types);

	/* the strings that are not names follow the functions' names (see
	 * fixed_strings): how many functions there will be is counted first */
	size_t frames;
	struct fixed_strings fixed = { .first = location_table__functions_ahead(t, &frames) + 1 };
	/* an estimate, so that the message is not copied as it grows */
	buf__reserve(b, out->parts ? PART_BYTES + 4096 : frames * 3 + n * 24 + fixed.first * 40);
	/* the stacks in the folded writer's order: neighbours share their
	 * roots, and ids given along the sorted paths are close (both compress) */
	size_t *order = profile__sorted(p);

	struct written written = { 0 };
	pb__bytes(b, PROFILE_STRING_TABLE, "", 0);
	for (size_t i = 0; i < types.count; i++)
		value_type(b, PROFILE_SAMPLE_TYPE, &fixed, &types.types[i]);
	for (size_t i = 0; i < n; i++) {
		struct profile_stack s;
		const uint32_t *ids;
		profile__stack(p, order[i], &s);
		size_t depth = location_table__stack(t, &s, &ids);
		uint64_t v = pprof_names__int64(p, s.values[0]);
		uint64_t values[2] = { v, v * types.period };
		size_t m = pb__begin(b, PROFILE_SAMPLE);
		pb__packed32(b, SAMPLE_LOCATION_ID, ids, depth);
		pb__packed(b, SAMPLE_VALUE, values, types.count);
		if (s.depth && profile__frame_kind(p, s.frames[0]) == PROFILE_FRAME_PROCESS) {
			size_t l = pb__begin(b, SAMPLE_LABEL);
			pb__uint(b, LABEL_KEY, fixed_string(&fixed, "comm"));
			pb__uint(b, LABEL_STR, location_table__function_of(t, s.frames[0]));
			pb__end(b, l);
		}
		if (s.key.pid)
			label_num(b, fixed_string(&fixed, "pid"), s.key.pid, 0);
		if (time->slice_ns)
			label_num(b, fixed_string(&fixed, "time"), (uint64_t)s.key.slice * time->slice_ns,
				  fixed_string(&fixed, "nanoseconds"));
		pb__end(b, m);
		next_record(out);
		if ((i + 1) % TABLES_EVERY == 0)
			write_new_tables(out, p, t, &written);
	}
	free(order);
	write_new_tables(out, p, t, &written);

	/* what pprof shows with the profile */
	if (source->start_unix_ns)
		pb__uint(b, PROFILE_TIME_NANOS, source->start_unix_ns);
	if (source->duration_ns)
		pb__uint(b, PROFILE_DURATION_NANOS, source->duration_ns);
	if (types.period) {
		value_type(b, PROFILE_PERIOD_TYPE, &fixed, &types.period_type);
		pb__uint(b, PROFILE_PERIOD, types.period);
	}
	char comment[128];
	if (time->slice_ns) {
		snprintf(comment, sizeof comment, PPROF_NAMES_TIME_COMMENT " slice_ns=%" PRIu64
			 " start_ns=%" PRIu64, time->slice_ns, time->start_ns);
		pb__uint(b, PROFILE_COMMENT, fixed_string(&fixed, comment));
	}
	/* last the strings that are not names, now all known */
	write_mappings(b, t, &fixed);
	for (size_t i = 0; i < fixed.count; i++)
		pb__bytes(b, PROFILE_STRING_TABLE, fixed.text[i], strlen(fixed.text[i]));
	location_table__free(t);
	return 0;
}

int pprof__encode(const struct profile *p, struct buf *b)
{
	struct message out = { b, NULL, GZIP_PART_FAST };
	return encode(p, &out);
}

int pprof_writer__write(const struct profile *profile, FILE *out,
			const struct writer_options *options)
{
	(void)options;
	struct buf b = BUF_INIT;
	struct message message = { &b, gzip_parts__start(), GZIP_PART_FAST };
	int status = encode(profile, &message);
	gzip_parts__add(message.parts, &b, message.kind);
	if (gzip_parts__finish(message.parts, out) < 0)
		status = -1;
	buf__free(&b);
	return status;
}
