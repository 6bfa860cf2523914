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

static void write_tables(struct buf *b, const struct profile *p, const struct location_table *t,
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
	for (uint32_t id = 1; id <= location_table__locations(t); id++) {
		struct table_location loc;
		location_table__location(t, id, &loc);
		size_t m = pb__begin(b, PROFILE_LOCATION);
		pb__uint(b, LOCATION_ID, id);
		if (loc.mapping)
			pb__uint(b, LOCATION_MAPPING_ID, loc.mapping);
		location_table__encode_lines(t, id, b, LOCATION_LINE);
		pb__end(b, m);
	}
	for (uint32_t id = 1; id <= location_table__functions(t); id++) {
		size_t m = pb__begin(b, PROFILE_FUNCTION);
		pb__uint(b, FUNCTION_ID, id);
		/* string `id` (see fixed_strings); the system name too, as Go
		 * writes it, for the tools that show that one */
		pb__uint(b, FUNCTION_NAME, id);
		pb__uint(b, FUNCTION_SYSTEM_NAME, id);
		pb__end(b, m);
	}
	pb__bytes(b, PROFILE_STRING_TABLE, "", 0);
	for (uint32_t id = 1; id <= location_table__functions(t); id++) {
		size_t len;
		const char *name = profile__frame_name(p, location_table__function_frame(t, id), &len);
		pb__bytes(b, PROFILE_STRING_TABLE, name, len);
	}
}

int pprof__encode(const struct profile *p, struct buf *b)
{
	if (profile__columns(p) != 1)
		return error("pprof holds one value per sample: a difference of two profiles "
			     "cannot be written as pprof; write it as folded stacks");
	const size_t n = profile__size(p);
	const struct profile_source *source = profile__source(p);
	const struct profile_time *time = profile__time(p);
	struct location_table *t = location_table__new(p);
	struct sample_types types;
	pprof_names__sample_types(p, &types);

	/* first every stack's locations, in the folded writer's order
	 * (neighbours share their roots, and ids given along the sorted paths
	 * are close: both compress), so that the functions, and with them the
	 * strings that follow the names, are all known; the samples then look
	 * their ids up again, which is cheaper than keeping them all */
	size_t *order = profile__sorted(p);
	size_t frames = 0;
	for (size_t i = 0; i < n; i++) {
		struct profile_stack s;
		const uint32_t *locations;
		profile__stack(p, order[i], &s);
		frames += location_table__stack(t, &s, &locations);
	}
	struct fixed_strings fixed = { .first = location_table__functions(t) + 1 };
	/* an estimate, so that the message is not copied as it grows */
	buf__reserve(b, frames * 3 + n * 24 + (size_t)location_table__functions(t) * 40);

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
	}
	free(order);

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
	/* then the tables, and last the strings, now all known */
	write_tables(b, p, t, &fixed);
	for (size_t i = 0; i < fixed.count; i++)
		pb__bytes(b, PROFILE_STRING_TABLE, fixed.text[i], strlen(fixed.text[i]));
	location_table__free(t);
	return 0;
}

int pprof_writer__write(const struct profile *profile, FILE *out,
			const struct writer_options *options)
{
	(void)options;
	struct buf b = BUF_INIT;
	int status = pprof__encode(profile, &b);
	if (status == 0)
		status = gzip__write_fast(out, b.data, b.len, 2);
	buf__free(&b);
	return status;
}
