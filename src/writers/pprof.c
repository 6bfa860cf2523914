#include "pprof.h"

#include <inttypes.h>
#include <stdlib.h>
#include <zlib.h>

#include "../lib/error.h"
#include "../lib/gzip.h"
#include "../lib/protobuf.h"
#include "../lib/xalloc.h"
#include "../profile/pprof_names.h"
#include "location_table.h"
#include "string_table.h"

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

static void write_tables(struct buf *b, const struct location_table *t,
			 struct string_table *strings)
{
	for (uint32_t id = 1; id <= location_table__mappings(t); id++) {
		size_t m = pb__begin(b, PROFILE_MAPPING);
		pb__uint(b, MAPPING_ID, id);
		pb__uint(b, MAPPING_FILENAME,
			 string_table__add_text(strings, location_table__mapping_name(t, id)));
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
		uint64_t name = string_table__frame(strings, location_table__function_frame(t, id));
		size_t m = pb__begin(b, PROFILE_FUNCTION);
		pb__uint(b, FUNCTION_ID, id);
		pb__uint(b, FUNCTION_NAME, name);
		pb__uint(b, FUNCTION_SYSTEM_NAME, name);
		pb__end(b, m);
	}
}

int pprof__encode(const struct profile *p, struct buf *b)
{
	if (profile__columns(p) != 1)
		return error("pprof holds one value per sample: a difference of two profiles "
			     "cannot be written as pprof; write it as folded stacks");
	struct sample_types types;
	struct string_table strings;
	struct location_table *t = location_table__new(p);
	const struct profile_source *source = profile__source(p);
	const struct profile_time *time = profile__time(p);
	uint64_t *ids = NULL;
	size_t ids_cap = 0;

	pprof_names__sample_types(p, &types);
	string_table__init(&strings, p, PROFILE_STRING_TABLE);
	for (size_t i = 0; i < types.count; i++)
		string_table__value_type(&strings, b, PROFILE_SAMPLE_TYPE, &types.types[i]);
	uint64_t comm = string_table__add_text(&strings, "comm");
	uint64_t pid = string_table__add_text(&strings, "pid");
	uint64_t time_key = time->slice_ns ? string_table__add_text(&strings, "time") : 0;
	uint64_t nanoseconds = time->slice_ns ? string_table__add_text(&strings, "nanoseconds") : 0;

	for (size_t e = 0; e < profile__size(p); e++) {
		struct profile_stack s;
		const uint32_t *locations;
		profile__stack(p, e, &s);
		size_t n = location_table__stack(t, &s, &locations);
		ids = fk_grow(ids, &ids_cap, n ? n : 1, sizeof(*ids));
		for (size_t i = 0; i < n; i++)
			ids[i] = locations[i];
		uint64_t v = pprof_names__int64(p, s.values[0]);
		uint64_t values[2] = { v, v * types.period };
		size_t m = pb__begin(b, PROFILE_SAMPLE);
		pb__packed(b, SAMPLE_LOCATION_ID, ids, n);
		pb__packed(b, SAMPLE_VALUE, values, types.count);
		if (s.depth && profile__frame_kind(p, s.frames[0]) == PROFILE_FRAME_PROCESS) {
			size_t l = pb__begin(b, SAMPLE_LABEL);
			pb__uint(b, LABEL_KEY, comm);
			pb__uint(b, LABEL_STR, string_table__frame(&strings, s.frames[0]));
			pb__end(b, l);
		}
		if (s.key.pid)
			label_num(b, pid, s.key.pid, 0);
		if (time->slice_ns)
			label_num(b, time_key, (uint64_t)s.key.slice * time->slice_ns, nanoseconds);
		pb__end(b, m);
	}
	free(ids);
	write_tables(b, t, &strings);
	location_table__free(t);

	/* what pprof shows with the profile, then the strings, now all known */
	if (source->start_unix_ns)
		pb__uint(b, PROFILE_TIME_NANOS, source->start_unix_ns);
	if (source->duration_ns)
		pb__uint(b, PROFILE_DURATION_NANOS, source->duration_ns);
	if (types.period) {
		string_table__value_type(&strings, b, PROFILE_PERIOD_TYPE, &types.period_type);
		pb__uint(b, PROFILE_PERIOD, types.period);
	}
	if (time->slice_ns) {
		char comment[128];
		snprintf(comment, sizeof comment, PPROF_NAMES_TIME_COMMENT " slice_ns=%" PRIu64
			 " start_ns=%" PRIu64, time->slice_ns, time->start_ns);
		pb__uint(b, PROFILE_COMMENT, string_table__add_text(&strings, comment));
	}
	buf__append(b, strings.encoded.data, strings.encoded.len);
	string_table__release(&strings);
	return 0;
}

int pprof_writer__write(const struct profile *profile, FILE *out,
			const struct writer_options *options)
{
	(void)options;
	struct buf b = BUF_INIT;
	int status = pprof__encode(profile, &b);
	if (status == 0)
		status = gzip__write_level(out, b.data, b.len, Z_BEST_SPEED);
	buf__free(&b);
	return status;
}
