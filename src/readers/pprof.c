#include "pprof.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/buf.h"
#include "../lib/error.h"
#include "../lib/protobuf.h"
#include "../lib/xalloc.h"
#include "../profile/pprof_names.h"

/* profile.proto's field numbers */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE, PROFILE_MAPPING, PROFILE_LOCATION,
	PROFILE_FUNCTION, PROFILE_STRING_TABLE, PROFILE_DROP_FRAMES, PROFILE_KEEP_FRAMES,
	PROFILE_TIME_NANOS, PROFILE_DURATION_NANOS, PROFILE_PERIOD_TYPE, PROFILE_PERIOD,
	PROFILE_COMMENT, PROFILE_DEFAULT_SAMPLE_TYPE, PROFILE_DOC_URL,
};

/* From how many samples a file's are read on a thread of their own. */
enum { THREADED_SAMPLES = 8192 };

/* A string of the file: an index into its string table. */
typedef uint64_t string_index;

struct span {
	const uint8_t *data;
	size_t len;
};

struct value_type {
	string_index type, unit;
};

struct mapping {
	uint64_t id;
	string_index filename;
};

struct function {
	uint64_t id;
	string_index name, system_name;
};

struct location {
	uint64_t id, mapping_id, address;
	size_t lines, line_count;   /* lines[] of the file: function ids, innermost first */
	size_t frames, frame_count; /* the frames it reads as, root first (after resolve) */
};

/* An id -> table index lookup: direct when the ids are 1..N in order (as
 * Go and flamekit write them), else by binary search. */
struct id_index {
	bool dense;
	struct id_pair {
		uint64_t id;
		size_t index;
	} *sorted;
	size_t count;
};

/* One file's tables, pointing into its bytes. */
struct pprof_file {
	const char *name;
	const uint8_t *bytes;
	size_t size;
	struct span *strings;
	size_t string_count, strings_cap;
	struct value_type *types;
	size_t type_count, types_cap;
	struct span *samples;
	size_t sample_count, samples_cap;
	size_t sample_bytes;      /* of all samples */
	struct mapping *mappings;
	size_t mapping_count, mappings_cap;
	struct function *functions;
	size_t function_count, functions_cap;
	struct location *locations;
	size_t location_count, locations_cap;
	uint64_t *lines;
	size_t line_count, lines_cap;
	string_index *comments;
	size_t comment_count, comments_cap;
	uint64_t time_nanos, duration_nanos, period;
	struct value_type period_type;
	bool has_period_type;
	string_index default_type;
	struct id_index mapping_ids, function_ids, location_ids;
};

/* What the read of several files keeps between them. */
struct read_state {
	const struct pprof_read_options *options;
	struct profile *profile;
	bool seen_file;           /* a file was read before this one */
	char type[128];           /* the first file's chosen type, "type/unit", for the next */
	frame_id *frames;         /* every location's frames */
	size_t frames_len, frames_cap;
	frame_id *stack;
	size_t stack_cap;
	struct buf name;
	uint64_t start, end;      /* the source's time, of all files */
	struct profile_time time;
};

static int fail(const struct pprof_file *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(const struct pprof_file *f, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf__vprintf(&b, fmt, ap);
	va_end(ap);
	error("%s: %s", f->name, b.data);
	buf__free(&b);
	return -1;
}

/* Text, not a message: no control bytes at its start (a profile.proto
 * message has tags and lengths below 0x20 within its first bytes). */
static bool looks_like_text(const uint8_t *data, size_t len)
{
	for (size_t i = 0; i < len && i < 64; i++)
		if (data[i] < 0x20 && data[i] != '\t' && data[i] != '\n' && data[i] != '\r')
			return false;
	return true;
}

/* A protobuf-level fault: the message is not what profile.proto says. */
static int malformed(const struct pprof_file *f, const struct pb_reader *r, bool gzip)
{
	if (!gzip && looks_like_text(f->bytes, f->size)) {
		char quoted[48];
		size_t n = f->size < 40 ? f->size : 40;
		const uint8_t *nl = memchr(f->bytes, '\n', n);
		return fail(f, "not a pprof profile: neither gzip data nor a profile.proto message, "
			    "but text (\"%s\")", quote_for_message(quoted, sizeof quoted,
			    (const char *)f->bytes, nl ? (size_t)(nl - f->bytes) : n));
	}
	if (strstr(r->error, "truncated"))
		return fail(f, "not a valid pprof profile: it ends inside a field (at byte %zu of "
			    "%zu%s): the file was cut short", r->offset, f->size,
			    gzip ? ", decompressed" : "");
	if (gzip)
		return fail(f, "not a valid pprof profile: gzip data, but what it holds is not a "
			    "profile.proto message (%s at byte %zu of it)", r->error, r->offset);
	return fail(f, "not a pprof profile: neither gzip data nor a valid profile.proto message "
		    "(%s at byte %zu)", r->error, r->offset);
}

static const char *wire_name(enum pb_wire wire)
{
	switch (wire) {
	case PB_VARINT: return "a varint";
	case PB_FIXED64: return "a 64-bit value";
	case PB_LEN: return "length-delimited";
	case PB_FIXED32: return "a 32-bit value";
	}
	return "of an unknown wire type";
}

static int wrong_wire(const struct pprof_file *f, const struct pb_field *field, const char *message,
		      const char *name, enum pb_wire expected)
{
	return fail(f, "not a valid pprof profile: field %" PRIu32 " of %s (%s) is %s, not %s, "
		    "at byte %zu", field->number, message, name, wire_name(field->wire),
		    wire_name(expected), field->offset);
}

/* The varint value of a scalar field, its wire type checked. */
static int scalar(const struct pprof_file *f, const struct pb_field *field, const char *message,
		  const char *name, uint64_t *out)
{
	if (field->wire != PB_VARINT)
		return wrong_wire(f, field, message, name, PB_VARINT);
	*out = field->value;
	return 0;
}

/* An embedded message's reader, its wire type checked. */
static int submessage(const struct pprof_file *f, const struct pb_reader *parent,
		      const struct pb_field *field, const char *message, const char *name,
		      struct pb_reader *out)
{
	if (field->wire != PB_LEN)
		return wrong_wire(f, field, message, name, PB_LEN);
	*out = pb_reader__message(parent, field);
	return 0;
}

static int read_value_type(const struct pprof_file *f, struct pb_reader r, bool gzip,
			   struct value_type *out)
{
	struct pb_field field;
	int got;
	*out = (struct value_type){ 0 };
	while ((got = pb__next(&r, &field)) > 0) {
		if (field.number == 1 && scalar(f, &field, "a ValueType", "type", &out->type) < 0)
			return -1;
		if (field.number == 2 && scalar(f, &field, "a ValueType", "unit", &out->unit) < 0)
			return -1;
	}
	return got < 0 ? malformed(f, &r, gzip) : 0;
}

/* Appends value to array (count of cap), growing it: the capacity is
 * compared here, as a call per element shows in a profile of 100,000 samples. */
#define ADD(array, count, cap, value)                                                   \
	do {                                                                            \
		if ((count) == (cap))                                                   \
			(array) = fk_grow((array), &(cap), (count) + 1, sizeof(*(array)));  \
		(array)[(count)++] = (value);                                           \
	} while (0)

static int read_mapping(struct pprof_file *f, struct pb_reader r, bool gzip)
{
	struct mapping m = { 0 };
	struct pb_field field;
	int got;
	while ((got = pb__next(&r, &field)) > 0) {
		if (field.number == 1 && scalar(f, &field, "a Mapping", "id", &m.id) < 0)
			return -1;
		if (field.number == 5 && scalar(f, &field, "a Mapping", "filename", &m.filename) < 0)
			return -1;
	}
	if (got < 0)
		return malformed(f, &r, gzip);
	ADD(f->mappings, f->mapping_count, f->mappings_cap, m);
	return 0;
}

static int read_function(struct pprof_file *f, struct pb_reader r, bool gzip)
{
	struct function fn = { 0 };
	struct pb_field field;
	int got;
	while ((got = pb__next(&r, &field)) > 0) {
		uint64_t *to = field.number == 1 ? &fn.id : field.number == 2 ? &fn.name :
			       field.number == 3 ? &fn.system_name : NULL;
		if (to && scalar(f, &field, "a Function", field.number == 1 ? "id" : "name", to) < 0)
			return -1;
	}
	if (got < 0)
		return malformed(f, &r, gzip);
	ADD(f->functions, f->function_count, f->functions_cap, fn);
	return 0;
}

static int read_location(struct pprof_file *f, struct pb_reader r, bool gzip)
{
	struct location l = { .lines = f->line_count };
	struct pb_field field;
	int got;
	while ((got = pb__next(&r, &field)) > 0) {
		switch (field.number) {
		case 1:
			if (scalar(f, &field, "a Location", "id", &l.id) < 0)
				return -1;
			break;
		case 2:
			if (scalar(f, &field, "a Location", "mapping_id", &l.mapping_id) < 0)
				return -1;
			break;
		case 3:
			if (scalar(f, &field, "a Location", "address", &l.address) < 0)
				return -1;
			break;
		case 4: {
			struct pb_reader line;
			struct pb_field lf;
			uint64_t function_id = 0;
			if (submessage(f, &r, &field, "a Location", "line", &line) < 0)
				return -1;
			while ((got = pb__next(&line, &lf)) > 0)
				if (lf.number == 1 &&
				    scalar(f, &lf, "a Line", "function_id", &function_id) < 0)
					return -1;
			if (got < 0)
				return malformed(f, &line, gzip);
			ADD(f->lines, f->line_count, f->lines_cap, function_id);
			l.line_count++;
			break;
		}
		}
	}
	if (got < 0)
		return malformed(f, &r, gzip);
	ADD(f->locations, f->location_count, f->locations_cap, l);
	return 0;
}


/* Room for the tables the message has, counted by a first pass over its
 * top-level fields: grown as they are read, the tables of a large profile
 * were copied and their pages faulted in again at every doubling. What is
 * malformed is left for the read to say. */
static void reserve_tables(struct pprof_file *f, const uint8_t *data, size_t len)
{
	struct pb_reader r = pb_reader__init(data, len);
	struct pb_field field;
	size_t n[PROFILE_DOC_URL + 1] = { 0 };
	while (pb__next(&r, &field) > 0)
		if (field.number <= PROFILE_DOC_URL)
			n[field.number]++;
	if (n[PROFILE_SAMPLE])
		f->samples = fk_grow(NULL, &f->samples_cap, n[PROFILE_SAMPLE], sizeof(*f->samples));
	if (n[PROFILE_LOCATION]) {
		f->locations = fk_grow(NULL, &f->locations_cap, n[PROFILE_LOCATION],
				       sizeof(*f->locations));
		/* a line each, as most have */
		f->lines = fk_grow(NULL, &f->lines_cap, n[PROFILE_LOCATION], sizeof(*f->lines));
	}
	if (n[PROFILE_FUNCTION])
		f->functions = fk_grow(NULL, &f->functions_cap, n[PROFILE_FUNCTION],
				       sizeof(*f->functions));
	if (n[PROFILE_STRING_TABLE])
		f->strings = fk_grow(NULL, &f->strings_cap, n[PROFILE_STRING_TABLE],
				     sizeof(*f->strings));
}

/* The Profile message's fields into f's tables. */
static int read_tables(struct pprof_file *f, const uint8_t *data, size_t len, bool gzip)
{
	struct pb_reader r = pb_reader__init(data, len);
	struct pb_field field;
	int got;
	f->bytes = data;
	f->size = len;
	reserve_tables(f, data, len);
	while ((got = pb__next(&r, &field)) > 0) {
		struct pb_reader sub;
		switch (field.number) {
		case PROFILE_SAMPLE_TYPE:
		case PROFILE_PERIOD_TYPE: {
			struct value_type vt;
			const char *name = field.number == PROFILE_SAMPLE_TYPE ? "sample_type"
									    : "period_type";
			if (submessage(f, &r, &field, "the Profile", name, &sub) < 0 ||
			    read_value_type(f, sub, gzip, &vt) < 0)
				return -1;
			if (field.number == PROFILE_SAMPLE_TYPE) {
				ADD(f->types, f->type_count, f->types_cap, vt);
			} else {
				f->period_type = vt;
				f->has_period_type = true;
			}
			break;
		}
		case PROFILE_SAMPLE:
			if (submessage(f, &r, &field, "the Profile", "sample", &sub) < 0)
				return -1;
			ADD(f->samples, f->sample_count, f->samples_cap,
			    ((struct span){ field.data, field.len }));
			f->sample_bytes += field.len;
			break;
		case PROFILE_MAPPING:
			if (submessage(f, &r, &field, "the Profile", "mapping", &sub) < 0 ||
			    read_mapping(f, sub, gzip) < 0)
				return -1;
			break;
		case PROFILE_LOCATION:
			if (submessage(f, &r, &field, "the Profile", "location", &sub) < 0 ||
			    read_location(f, sub, gzip) < 0)
				return -1;
			break;
		case PROFILE_FUNCTION:
			if (submessage(f, &r, &field, "the Profile", "function", &sub) < 0 ||
			    read_function(f, sub, gzip) < 0)
				return -1;
			break;
		case PROFILE_STRING_TABLE:
			if (field.wire != PB_LEN)
				return wrong_wire(f, &field, "the Profile", "string_table", PB_LEN);
			ADD(f->strings, f->string_count, f->strings_cap,
			    ((struct span){ field.data, field.len }));
			break;
		case PROFILE_TIME_NANOS:
		case PROFILE_DURATION_NANOS:
		case PROFILE_PERIOD:
		case PROFILE_DEFAULT_SAMPLE_TYPE: {
			uint64_t *to = field.number == PROFILE_TIME_NANOS ? &f->time_nanos
				: field.number == PROFILE_DURATION_NANOS ? &f->duration_nanos
				: field.number == PROFILE_PERIOD ? &f->period : &f->default_type;
			if (scalar(f, &field, "the Profile", "a number", to) < 0)
				return -1;
			break;
		}
		case PROFILE_COMMENT: {
			struct pb_varints it;
			uint64_t v;
			if (!pb_field__varints(&field, &it))
				return wrong_wire(f, &field, "the Profile", "comment", PB_VARINT);
			while ((got = pb_varints__next(&it, &v)) > 0)
				ADD(f->comments, f->comment_count, f->comments_cap, v);
			if (got < 0)
				return fail(f, "not a valid pprof profile: a malformed comment list at "
					    "byte %zu", field.offset);
			break;
		}
		default:
			break;  /* drop_frames, keep_frames, doc_url, fields of later versions */
		}
	}
	return got < 0 ? malformed(f, &r, gzip) : 0;
}

/* --- checking ids and strings ------------------------------------------------ */

static int compare_pairs(const void *a, const void *b)
{
	const struct id_pair *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

/* The index of ids[0 .. n-1] (each `stride` bytes apart); -1 after a
 * message for an id of 0 or one given twice. */
static int id_index__build(struct id_index *x, const struct pprof_file *f, const char *what,
			   const void *items, size_t n, size_t stride)
{
	*x = (struct id_index){ .dense = true, .count = n };
	for (size_t i = 0; i < n && x->dense; i++)
		x->dense = *(const uint64_t *)((const char *)items + i * stride) == i + 1;
	if (x->dense)
		return 0;
	x->sorted = fk_calloc(n ? n : 1, sizeof(*x->sorted));
	for (size_t i = 0; i < n; i++)
		x->sorted[i] = (struct id_pair){ *(const uint64_t *)((const char *)items + i * stride), i };
	qsort(x->sorted, n, sizeof(*x->sorted), compare_pairs);
	for (size_t i = 0; i < n; i++) {
		if (x->sorted[i].id == 0)
			return fail(f, "not a valid pprof profile: a %s has id 0 (ids start at 1)", what);
		if (i && x->sorted[i].id == x->sorted[i - 1].id)
			return fail(f, "not a valid pprof profile: two %ss have id %" PRIu64, what,
				    x->sorted[i].id);
	}
	return 0;
}

/* The table index of id, or SIZE_MAX when no entry has it. */
static size_t id_index__find(const struct id_index *x, uint64_t id)
{
	if (x->dense)
		return id >= 1 && id <= x->count ? (size_t)(id - 1) : SIZE_MAX;
	size_t lo = 0, hi = x->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x->sorted[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < x->count && x->sorted[lo].id == id ? x->sorted[lo].index : SIZE_MAX;
}

static int check_string(const struct pprof_file *f, string_index s, const char *where)
{
	if (s < f->string_count)
		return 0;
	return fail(f, "not a valid pprof profile: %s names string %" PRIu64 ", but the string "
		    "table has %zu", where, s, f->string_count);
}

static int check_tables(struct pprof_file *f)
{
	if (f->string_count == 0 || f->strings[0].len != 0)
		return fail(f, "not a valid pprof profile: its string table %s",
			    f->string_count ? "does not begin with \"\"" : "is missing");
	for (size_t i = 0; i < f->type_count; i++)
		if (check_string(f, f->types[i].type, "a sample type") < 0 ||
		    check_string(f, f->types[i].unit, "a sample type") < 0)
			return -1;
	if (f->has_period_type && (check_string(f, f->period_type.type, "the period type") < 0 ||
				   check_string(f, f->period_type.unit, "the period type") < 0))
		return -1;
	if (check_string(f, f->default_type, "default_sample_type") < 0)
		return -1;
	for (size_t i = 0; i < f->comment_count; i++)
		if (check_string(f, f->comments[i], "a comment") < 0)
			return -1;
	for (size_t i = 0; i < f->mapping_count; i++)
		if (check_string(f, f->mappings[i].filename, "a mapping") < 0)
			return -1;
	for (size_t i = 0; i < f->function_count; i++)
		if (check_string(f, f->functions[i].name, "a function") < 0 ||
		    check_string(f, f->functions[i].system_name, "a function") < 0)
			return -1;
	if (id_index__build(&f->mapping_ids, f, "mapping", f->mappings, f->mapping_count,
			    sizeof(*f->mappings)) < 0 ||
	    id_index__build(&f->function_ids, f, "function", f->functions, f->function_count,
			    sizeof(*f->functions)) < 0 ||
	    id_index__build(&f->location_ids, f, "location", f->locations, f->location_count,
			    sizeof(*f->locations)) < 0)
		return -1;
	for (size_t i = 0; i < f->location_count; i++) {
		const struct location *l = &f->locations[i];
		if (l->mapping_id && id_index__find(&f->mapping_ids, l->mapping_id) == SIZE_MAX)
			return fail(f, "not a valid pprof profile: location %" PRIu64 " names mapping "
				    "%" PRIu64 ", which the profile does not have", l->id, l->mapping_id);
		for (size_t k = 0; k < l->line_count; k++)
			if (id_index__find(&f->function_ids, f->lines[l->lines + k]) == SIZE_MAX)
				return fail(f, "not a valid pprof profile: location %" PRIu64 " names "
					    "function %" PRIu64 ", which the profile does not have",
					    l->id, f->lines[l->lines + k]);
	}
	return 0;
}

static bool span_is(struct span s, const char *text)
{
	return s.len == strlen(text) && memcmp(s.data, text, s.len) == 0;
}

/* --- which values -------------------------------------------------------------- */

static void describe_types(const struct pprof_file *f, struct buf *out)
{
	for (size_t i = 0; i < f->type_count; i++) {
		struct span t = f->strings[f->types[i].type], u = f->strings[f->types[i].unit];
		buf__printf(out, "%s%.*s/%.*s", i ? ", " : "", (int)t.len, (const char *)t.data,
			    (int)u.len, (const char *)u.data);
	}
}

/* The sample type to read: --sample-type's, default_sample_type's, or the last. */
static int choose_type(const struct pprof_file *f, const char *wanted, size_t *chosen)
{
	const char *by = wanted;
	struct span named = { 0 };
	if (!by && f->default_type) {
		named = f->strings[f->default_type];
	} else if (by) {
		named = (struct span){ (const uint8_t *)by, strlen(by) };
	}
	for (size_t i = 0; named.data && i < f->type_count; i++) {
		struct span t = f->strings[f->types[i].type];
		if (t.len == named.len && memcmp(t.data, named.data, t.len) == 0) {
			*chosen = i;
			return 0;
		}
	}
	if (wanted) {
		struct buf types = BUF_INIT;
		describe_types(f, &types);
		fail(f, "--sample-type %s: the profile has no such sample type; it has %s", wanted,
		     f->type_count ? types.data : "none");
		buf__free(&types);
		return -1;
	}
	*chosen = f->type_count - 1;
	return 0;
}

/* Unit, source and time from the chosen type and the file, into the
 * profile (the first file) or checked against it (the others). */
static int take_source(struct read_state *st, const struct pprof_file *f, size_t chosen,
		       uint64_t *factor)
{
	struct span type = f->strings[f->types[chosen].type];
	struct span unit = f->strings[f->types[chosen].unit];
	enum profile_unit profile_unit;
	pprof_names__profile_unit((const char *)type.data, type.len, (const char *)unit.data,
				  unit.len, &profile_unit, factor);
	char name[sizeof st->type];
	snprintf(name, sizeof name, "%.*s/%.*s", (int)type.len, (const char *)type.data,
		 (int)unit.len, (const char *)unit.data);
	if (st->seen_file && strcmp(name, st->type) != 0)
		return fail(f, "its values are %s, the first file's %s: read profiles of one kind "
			    "together", name, st->type);

	struct profile_source source = *profile__source(st->profile);
	if (!st->seen_file) {
		snprintf(st->type, sizeof st->type, "%s", name);
		profile__set_unit(st->profile, profile_unit);
		/* what was measured: the type, or for a count of samples what the
		 * period counts (Go's CPU profiles: samples, period cpu) */
		struct span measure = type;
		if (span_is(type, "samples") && f->has_period_type)
			measure = f->strings[f->period_type.type];
		if (!span_is(measure, "samples"))
			snprintf(source.measure, sizeof source.measure, "%.*s", (int)measure.len,
				 (const char *)measure.data);
		if (f->has_period_type && f->period) {
			struct span pt = f->strings[f->period_type.type];
			struct span pu = f->strings[f->period_type.unit];
			uint64_t period_factor;
			pprof_names__profile_unit((const char *)pt.data, pt.len, (const char *)pu.data,
						  pu.len, &source.period_unit, &period_factor);
			source.period = f->period * period_factor;
		}
	}
	if (f->time_nanos) {
		uint64_t end = f->time_nanos + f->duration_nanos;
		st->start = st->start && st->start < f->time_nanos ? st->start : f->time_nanos;
		st->end = st->end > end ? st->end : end;
		source.start_unix_ns = st->start;
		source.duration_ns = st->end - st->start;
	} else if (!st->seen_file) {
		source.duration_ns = f->duration_nanos;
	}
	profile__set_source(st->profile, &source);

	/* flamekit's own comment on its time slices */
	struct profile_time time = { 0 };
	for (size_t i = 0; i < f->comment_count; i++) {
		struct span c = f->strings[f->comments[i]];
		char text[128];
		if (c.len >= sizeof text || c.len < sizeof PPROF_NAMES_TIME_COMMENT - 1 ||
		    memcmp(c.data, PPROF_NAMES_TIME_COMMENT, sizeof PPROF_NAMES_TIME_COMMENT - 1) != 0)
			continue;
		memcpy(text, c.data, c.len);
		text[c.len] = '\0';
		if (sscanf(text + sizeof PPROF_NAMES_TIME_COMMENT - 1, " slice_ns=%" SCNu64 " start_ns=%" SCNu64,
			   &time.slice_ns, &time.start_ns) != 2)
			time = (struct profile_time){ 0 };
	}
	if (st->seen_file && (time.slice_ns != st->time.slice_ns ||
			       time.start_ns != st->time.start_ns))
		return fail(f, "its time slices differ from the first file's: read it on its own");
	st->time = time;
	if (time.slice_ns)
		profile__set_time(st->profile, &time);
	return 0;
}

/* --- frames and samples ------------------------------------------------------- */

/* The frame of function fn, inlined or not, interned in the profile. */
static frame_id function_frame(struct read_state *st, const struct pprof_file *f,
			       const struct function *fn, bool inlined)
{
	struct span name = f->strings[fn->name];
	if (!name.len)
		name = f->strings[fn->system_name];
	if (!name.len)
		name = (struct span){ (const uint8_t *)"[unknown]", 9 };
	const char *text = (const char *)name.data;
	bool has_separator = memchr(text, ';', name.len) != NULL;
	bool mark = inlined && profile_frame_kind__of_name(text, name.len) != PROFILE_FRAME_INLINED;
	/* most names are interned as they are in the file, not copied first */
	if (!has_separator && !mark)
		return profile__intern(st->profile, text, name.len);
	buf__reset(&st->name);
	buf__append(&st->name, text, name.len);
	/* the folded separator cannot be in a name */
	for (size_t c = 0; has_separator && c < st->name.len; c++)
		if (st->name.data[c] == ';')
			st->name.data[c] = ':';
	if (mark)
		buf__append(&st->name, "_[i]", 4);
	return profile__intern(st->profile, st->name.data, st->name.len);
}

/* Every location's frames, root first (its lines outermost first). */
static void resolve_locations(struct read_state *st, struct pprof_file *f)
{
	size_t total = 0;
	for (size_t i = 0; i < f->location_count; i++)
		total += f->locations[i].line_count ? f->locations[i].line_count : 1;
	st->frames = fk_grow(st->frames, &st->frames_cap, total ? total : 1, sizeof(*st->frames));
	st->frames_len = 0;
	for (size_t i = 0; i < f->location_count; i++) {
		struct location *l = &f->locations[i];
		enum profile_frame_kind kind = PROFILE_FRAME_NATIVE;
		if (l->mapping_id) {
			struct span file =
				f->strings[f->mappings[id_index__find(&f->mapping_ids, l->mapping_id)].filename];
			kind = pprof_names__kind_of_mapping((const char *)file.data, file.len);
		}
		l->frames = st->frames_len;
		l->frame_count = l->line_count ? l->line_count : 1;
		if (!l->line_count) {
			buf__reset(&st->name);
			buf__printf(&st->name, "0x%" PRIx64, l->address);
			frame_id id = profile__intern(st->profile, st->name.data, st->name.len);
			if (kind != PROFILE_FRAME_NATIVE)
				profile__set_frame_kind(st->profile, id, kind);
			st->frames[st->frames_len++] = id;
			continue;
		}
		for (size_t k = l->line_count; k-- > 0;) {
			const struct function *fn =
				&f->functions[id_index__find(&f->function_ids, f->lines[l->lines + k])];
			bool inlined = k + 1 < l->line_count;
			frame_id id = function_frame(st, f, fn, inlined);
			if (!inlined && kind != PROFILE_FRAME_NATIVE)
				profile__set_frame_kind(st->profile, id, kind);
			st->frames[st->frames_len++] = id;
		}
	}
}

static int read_label(const struct pprof_file *f, struct pb_reader r, bool gzip,
		      string_index *key, string_index *str, uint64_t *num)
{
	struct pb_field field;
	int got;
	*key = *str = *num = 0;
	while ((got = pb__next(&r, &field)) > 0) {
		uint64_t *to = field.number == 1 ? key : field.number == 2 ? str :
			       field.number == 3 ? num : NULL;
		if (to && scalar(f, &field, "a Label", field.number == 1 ? "key" : "value", to) < 0)
			return -1;
	}
	if (got < 0)
		return malformed(f, &r, gzip);
	if (check_string(f, *key, "a label") < 0 || check_string(f, *str, "a label") < 0)
		return -1;
	return 0;
}

/* The varints of a packed or single field into *out (grown as needed),
 * after the *n already there: -1 when one is malformed. */
static int append_varints(const struct pb_field *field, uint64_t **out, size_t *cap, size_t *n)
{
	struct pb_varints it;
	uint64_t v;
	int got;
	pb_field__varints(field, &it);
	/* a varint is one byte at least: one grow for the whole field */
	size_t most = field->wire == PB_LEN ? field->len : 1;
	if (*n + most > *cap)
		*out = fk_grow(*out, cap, *n + most, sizeof(**out));
	while ((got = pb_varints__next(&it, &v)) > 0)
		(*out)[(*n)++] = v;
	return got;
}

/* A sample as read, before its locations become frames. */
struct decoded_sample {
	size_t locations, depth;  /* sample_reader.locations[locations ..]: leaf first */
	uint64_t value;           /* the chosen one, times the unit's factor */
	struct profile_key key;
	struct span comm;
};

/* Reads a file's samples into their parts: on a thread of its own while
 * the locations become frames (resolve_locations()), when there are many. */
struct sample_reader {
	const struct pprof_file *f;
	const struct profile_time *time;
	size_t chosen;
	uint64_t factor;
	bool gzip;
	uint64_t *ids, *values;      /* one sample's */
	size_t ids_cap, values_cap;
	uint32_t *locations;         /* every sample's, as indexes of f->locations */
	size_t locations_len, locations_cap;
	struct decoded_sample *samples;
	size_t count;                /* read whole: samples[0 .. count-1]; the next failed */
};

/* About how many location ids the samples hold: two bytes or so each, with
 * the values and tags beside them (what is more is grown into; a byte
 * each, the most there can be, would reserve four times the file). */
static size_t location_ids_about(const struct pprof_file *f)
{
	return f->sample_bytes / 2 + 1;
}

/* Sample `number` into out; -1 after a message if it is malformed. */
static int read_sample(struct sample_reader *sr, size_t number, struct decoded_sample *out)
{
	const struct pprof_file *f = sr->f;
	struct pb_field field;
	struct pb_field whole = { .data = f->samples[number].data, .len = f->samples[number].len };
	struct pb_reader top = pb_reader__init(f->bytes, 0);
	struct pb_reader r = pb_reader__message(&top, &whole);
	size_t ids = 0, values = 0;
	int got;
	*out = (struct decoded_sample){ .locations = sr->locations_len };
	while ((got = pb__next(&r, &field)) > 0) {
		if (field.number == 1 || field.number == 2) {
			if (field.wire != PB_VARINT && field.wire != PB_LEN)
				return wrong_wire(f, &field, "a Sample",
						  field.number == 1 ? "location_id" : "value", PB_LEN);
			if ((field.number == 1 ? append_varints(&field, &sr->ids, &sr->ids_cap, &ids)
					       : append_varints(&field, &sr->values, &sr->values_cap,
								&values)) < 0)
				return fail(f, "not a valid pprof profile: sample %zu has a malformed "
					    "packed field at byte %zu", number + 1, field.offset);
		} else if (field.number == 3) {
			struct pb_reader label;
			string_index k, s;
			uint64_t num;
			if (submessage(f, &r, &field, "a Sample", "label", &label) < 0 ||
			    read_label(f, label, sr->gzip, &k, &s, &num) < 0)
				return -1;
			struct span name = f->strings[k];
			if (span_is(name, "pid") && num <= UINT32_MAX)
				out->key.pid = (uint32_t)num;
			else if (span_is(name, "comm"))
				out->comm = f->strings[s];
			else if (span_is(name, "time") && sr->time->slice_ns &&
				 num / sr->time->slice_ns <= UINT32_MAX)
				out->key.slice = (uint32_t)(num / sr->time->slice_ns);
		}
	}
	if (got < 0)
		return malformed(f, &r, sr->gzip);
	if (values != f->type_count) {
		struct buf types = BUF_INIT;
		describe_types(f, &types);
		fail(f, "not a valid pprof profile: sample %zu has %zu value%s for %zu sample "
		     "type%s (%s)", number + 1, values, values == 1 ? "" : "s", f->type_count,
		     f->type_count == 1 ? "" : "s", types.data ? types.data : "none");
		buf__free(&types);
		return -1;
	}
	uint64_t value = sr->values[sr->chosen];
	if ((int64_t)value < 0)
		return fail(f, "sample %zu has a negative value (%" PRId64 "): flamekit reads "
			    "counts, not differences of profiles", number + 1, (int64_t)value);
	sr->locations = fk_grow(sr->locations, &sr->locations_cap, sr->locations_len + ids,
				sizeof(*sr->locations));
	/* from the root, as the stack is made */
	for (size_t i = ids; i-- > 0;) {
		size_t at = id_index__find(&f->location_ids, sr->ids[i]);
		if (at == SIZE_MAX)
			return fail(f, "not a valid pprof profile: sample %zu names location %" PRIu64
				    ", which the profile does not have", number + 1, sr->ids[i]);
		sr->locations[sr->locations_len + i] = (uint32_t)at;
	}
	if (value > INT64_MAX / sr->factor)
		return fail(f, "sample %zu has a value too large for its unit (%" PRIu64 " times %"
			    PRIu64 ")", number + 1, value, sr->factor);
	sr->locations_len += ids;
	out->depth = ids;
	out->value = value * sr->factor;
	return 0;
}

/* Every sample up to the first that fails (sr->count). */
static void read_samples(struct sample_reader *sr)
{
	const size_t n = sr->f->sample_count;
	sr->samples = fk_malloc((n ? n : 1) * sizeof(*sr->samples));
	sr->locations = fk_grow(sr->locations, &sr->locations_cap, location_ids_about(sr->f),
				sizeof(*sr->locations));
	for (sr->count = 0; sr->count < n; sr->count++)
		if (read_sample(sr, sr->count, &sr->samples[sr->count]) < 0)
			break;
}

/* read_samples() on a thread of its own: what fails is said again by the
 * reading thread, when it comes to that sample (as a serial read would). */
static void *read_samples_quietly(void *arg)
{
	error__redirect(error__discard, NULL);
	read_samples(arg);
	error__redirect(NULL, NULL);
	return NULL;
}

/* The samples read into the profile, each stack root first. */
static void add_samples(struct read_state *st, const struct pprof_file *f,
			const struct sample_reader *sr)
{
	for (size_t i = 0; i < sr->count; i++) {
		const struct decoded_sample *s = &sr->samples[i];
		if (!s->value)
			continue;
		size_t depth = 0;
		for (size_t k = s->depth; k-- > 0;) {
			const struct location *l = &f->locations[sr->locations[s->locations + k]];
			if (depth + l->frame_count > st->stack_cap)
				st->stack = fk_grow(st->stack, &st->stack_cap, depth + l->frame_count,
						    sizeof(*st->stack));
			/* most locations are one frame: no call for those */
			if (l->frame_count == 1)
				st->stack[depth] = st->frames[l->frames];
			else
				memcpy(st->stack + depth, st->frames + l->frames,
				       l->frame_count * sizeof(frame_id));
			depth += l->frame_count;
		}
		if (depth && s->comm.len) {
			size_t len;
			const char *root = profile__frame_name(st->profile, st->stack[0], &len);
			if (len == s->comm.len && memcmp(root, s->comm.data, len) == 0)
				profile__set_frame_kind(st->profile, st->stack[0], PROFILE_FRAME_PROCESS);
		}
		union profile_value value = { .integer = s->value };
		profile__add(st->profile, st->stack, (uint32_t)depth, &s->key, &value);
	}
}

/* The file's samples into the profile: read on a second thread while this
 * one makes the locations' frames, when there are enough to gain by it. */
static int read_and_add_samples(struct read_state *st, struct pprof_file *f, size_t chosen,
				uint64_t factor, bool gzip)
{
	struct sample_reader sr = { .f = f, .time = &st->time, .chosen = chosen,
				    .factor = factor, .gzip = gzip };
	pthread_t thread;
	bool threaded = f->sample_count >= THREADED_SAMPLES && sysconf(_SC_NPROCESSORS_ONLN) > 1 &&
			pthread_create(&thread, NULL, read_samples_quietly, &sr) == 0;
	resolve_locations(st, f);
	if (threaded)
		pthread_join(thread, NULL);
	else
		read_samples(&sr);
	add_samples(st, f, &sr);
	int status = 0;
	if (sr.count < f->sample_count) {
		struct decoded_sample again;
		/* said now, after the samples before it, if the thread read it */
		if (threaded)
			read_sample(&sr, sr.count, &again);
		status = -1;
	}
	free(sr.ids);
	free(sr.values);
	free(sr.locations);
	free(sr.samples);
	return status;
}

/* Room in the profile for what the file holds: at most a frame for each
 * line (or each location without one), each string as a name, and a stack
 * for each sample; about a frame for each location id (most locations are
 * one frame). */
static void reserve_profile(struct profile *p, const struct pprof_file *f)
{
	struct profile_reserve more = { .stacks = f->sample_count };
	for (size_t i = 0; i < f->location_count; i++)
		more.frames += f->locations[i].line_count ? f->locations[i].line_count : 1;
	for (size_t i = 0; i < f->string_count; i++)
		more.name_bytes += f->strings[i].len + 1;
	more.stack_frames = location_ids_about(f);
	profile__reserve(p, &more);
}

static void release_file(struct pprof_file *f)
{
	free(f->strings);
	free(f->types);
	free(f->samples);
	free(f->mappings);
	free(f->functions);
	free(f->locations);
	free(f->lines);
	free(f->comments);
	free(f->mapping_ids.sorted);
	free(f->function_ids.sorted);
	free(f->location_ids.sorted);
}

static int read_file(struct read_state *st, struct input *in)
{
	struct pprof_file f = { .name = input__name(in) };
	const char *data;
	size_t len;
	int status = -1;
	if (input__contents(in, &data, &len) < 0)
		return -1;
	bool gzip = input__gzip(in);
	if (len == 0) {
		fail(&f, "not a pprof profile: it is empty");
		goto done;
	}
	if (read_tables(&f, (const uint8_t *)data, len, gzip) < 0 || check_tables(&f) < 0)
		goto done;
	if (f.type_count == 0) {
		status = f.sample_count ? fail(&f, "not a valid pprof profile: it has samples but "
					       "no sample types") : 0;
		goto done;
	}
	size_t chosen;
	uint64_t factor;
	if (choose_type(&f, st->options->sample_type, &chosen) < 0 ||
	    take_source(st, &f, chosen, &factor) < 0)
		goto done;
	st->seen_file = true;
	reserve_profile(st->profile, &f);
	status = read_and_add_samples(st, &f, chosen, factor, gzip);
done:
	release_file(&f);
	return status;
}

int pprof_reader__read(struct read_context *ctx, struct input *const *inputs, size_t count,
		       struct profile *profile)
{
	static const struct pprof_read_options defaults = { 0 };
	struct read_state st = { .options = ctx->options ? ctx->options : &defaults,
				 .profile = profile };
	int status = 0;
	for (size_t i = 0; i < count && status == 0; i++)
		status = read_file(&st, inputs[i]);
	free(st.frames);
	free(st.stack);
	buf__free(&st.name);
	return status;
}

/* --- probe --------------------------------------------------------------------- */

/* The wire type each of profile.proto's fields has (comment: either). */
static bool profile_field_fits(uint32_t number, enum pb_wire wire)
{
	switch (number) {
	case PROFILE_SAMPLE_TYPE: case PROFILE_SAMPLE: case PROFILE_MAPPING:
	case PROFILE_LOCATION: case PROFILE_FUNCTION: case PROFILE_STRING_TABLE:
	case PROFILE_PERIOD_TYPE:
		return wire == PB_LEN;
	case PROFILE_COMMENT:
		return wire == PB_LEN || wire == PB_VARINT;
	case PROFILE_DROP_FRAMES: case PROFILE_KEEP_FRAMES: case PROFILE_TIME_NANOS:
	case PROFILE_DURATION_NANOS: case PROFILE_PERIOD: case PROFILE_DEFAULT_SAMPLE_TYPE:
	case PROFILE_DOC_URL:
		return wire == PB_VARINT;
	}
	return false;
}

int pprof_reader__probe(const char *head, size_t len)
{
	struct pb_reader r = pb_reader__init(head, len);
	struct pb_field field;
	size_t fields = 0;
	int got;
	while ((got = pb__next(&r, &field)) > 0) {
		if (!profile_field_fits(field.number, field.wire))
			return 0;
		fields++;
	}
	/* a window of a larger input may cut its last field; a cut file is
	 * pprof too, for its reader to say where it ends */
	if (got < 0 && !(fields >= 2 && strstr(r.error, "truncated")))
		return 0;
	return fields > 0 ? 100 : 0;
}

/* --- options --------------------------------------------------------------------- */

enum { OPT_SAMPLE_TYPE = READER_OPTION_FIRST + 100 };

static const struct option pprof_own_long_options[] = {
	{ "sample-type", required_argument, NULL, OPT_SAMPLE_TYPE },
	{ NULL, 0, NULL, 0 },
};

static int parse_pprof_option(void *options, int code, const char *arg)
{
	struct pprof_read_options *p = options;
	if (code != OPT_SAMPLE_TYPE)
		return error("unknown pprof option %d", code);
	if (!*arg)
		return error("--sample-type wants the name of one of the profile's sample types, "
			     "e.g. cpu or alloc_space");
	p->sample_type = arg;
	return 0;
}

const struct reader_options pprof_reader_options = {
	.own_long_options = pprof_own_long_options,
	.own_help =
		"  --sample-type=NAME  the values of sample type NAME (e.g. samples, cpu,\n"
		"                      alloc_space); default: the profile's\n"
		"                      default_sample_type, else its last, as pprof shows\n",
	.names = "--sample-type",
	.input = "pprof profiles",
	.size = sizeof(struct pprof_read_options),
	.parse = parse_pprof_option,
};
