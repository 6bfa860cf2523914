#include "otlp.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../lib/error.h"
#include "../lib/index_table.h"
#include "../lib/protobuf.h"
#include "../lib/xalloc.h"
#include "../profile/pprof_names.h"
#include "location_table.h"
#include "process_groups.h"
#include "string_table.h"

/* The field numbers of profiles.proto, common.proto and resource.proto */
enum { DATA_RESOURCE_PROFILES = 1, DATA_DICTIONARY };
enum { DICT_MAPPING = 1, DICT_LOCATION, DICT_FUNCTION, DICT_LINK, DICT_STRING, DICT_ATTRIBUTE,
       DICT_STACK };
enum { RESOURCE_PROFILES_RESOURCE = 1, RESOURCE_PROFILES_SCOPE_PROFILES };
enum { RESOURCE_ATTRIBUTES = 1 };
enum { KEY_VALUE_KEY = 1, KEY_VALUE_VALUE };
enum { ANY_VALUE_STRING = 1, ANY_VALUE_INT = 3 };
enum { SCOPE_PROFILES_SCOPE = 1, SCOPE_PROFILES_PROFILES };
enum { SCOPE_NAME = 1, SCOPE_VERSION };
enum { OTLP_PROFILE_SAMPLE_TYPE = 1, OTLP_PROFILE_SAMPLES, OTLP_PROFILE_TIME, OTLP_PROFILE_DURATION,
       OTLP_PROFILE_PERIOD_TYPE, OTLP_PROFILE_PERIOD };
enum { SAMPLE_STACK = 1, SAMPLE_VALUES = 4, SAMPLE_TIMESTAMPS };
enum { MAPPING_FILENAME = 4 };
enum { LOCATION_MAPPING = 1, LOCATION_LINES = 3, LOCATION_ATTRIBUTES };
enum { FUNCTION_NAME = 1, FUNCTION_SYSTEM_NAME };
enum { LINK_TRACE_ID = 1, LINK_SPAN_ID };
enum { ATTRIBUTE_KEY = 1, ATTRIBUTE_VALUE };
enum { STACK_LOCATIONS = 1 };

/* The stack table: each distinct list of location indexes once, from 1. */
struct stack_table {
	struct buf encoded;     /* the stacks' fields, index 0's first */
	uint64_t *locations;    /* every stack's, back to back */
	size_t locations_len, locations_cap;
	struct stack_entry {
		size_t offset, len;
		uint64_t hash;
	} *entries;
	size_t count, cap;
	struct index_table index;
};

static uint64_t stack_hash_of(const void *entries, size_t index)
{
	return ((const struct stack_entry *)entries)[index].hash;
}

static uint32_t stack_table__add(struct stack_table *t, const uint32_t *ids, size_t n)
{
	if (n == 0)
		return 0;  /* the table's zero value is the empty stack */
	t->locations = fk_grow(t->locations, &t->locations_cap, t->locations_len + n + 1,
			       sizeof(*t->locations));
	uint64_t *mine = t->locations + t->locations_len;
	for (size_t i = 0; i < n; i++)
		mine[i] = ids[i];
	uint64_t hash = XXH3_64bits(mine, n * sizeof(*mine));
	size_t slot = index_table__first(&t->index, hash);
	for (uint32_t at; (at = t->index.slots[slot]) != 0; slot = index_table__next(&t->index, slot)) {
		const struct stack_entry *e = &t->entries[at - 1];
		if (e->hash == hash && e->len == n &&
		    memcmp(t->locations + e->offset, mine, n * sizeof(*mine)) == 0)
			return at;  /* entry 0 of the table is the empty stack: index = at */
	}
	t->entries = fk_grow(t->entries, &t->cap, t->count + 1, sizeof(*t->entries));
	t->entries[t->count] = (struct stack_entry){ t->locations_len, n, hash };
	t->locations_len += n;
	index_table__insert(&t->index, slot, t->count, stack_hash_of, t->entries);
	size_t m = pb__begin(&t->encoded, DICT_STACK);
	pb__packed(&t->encoded, STACK_LOCATIONS, mine, n);
	pb__end(&t->encoded, m);
	return (uint32_t)++t->count;
}

/* One entry of the profile, where it goes. */
struct placed_entry {
	uint32_t group, stack, slice;
	size_t index;
};

static int compare_placed(const void *a, const void *b)
{
	const struct placed_entry *x = a, *y = b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->stack != y->stack)
		return x->stack < y->stack ? -1 : 1;
	return (x->slice > y->slice) - (x->slice < y->slice);
}

struct otlp_state {
	const struct profile *profile;
	const struct otlp_options *options;
	struct string_table strings;
	struct location_table *locations;
	struct stack_table stacks;
	struct process_groups groups;
	struct placed_entry *placed;
	struct sample_types types;
	uint64_t *values, *timestamps;  /* one sample's */
	size_t values_cap;
	uint32_t frame_type_attribute[PROFILE_FRAME_PROCESS + 1];  /* 0: none yet */
	struct buf attributes;          /* the attribute table's entries after 0 */
	uint32_t attribute_count;
};

static void key_value_string(struct buf *b, const char *key, const char *value, size_t len)
{
	size_t kv = pb__begin(b, RESOURCE_ATTRIBUTES);
	pb__bytes(b, KEY_VALUE_KEY, key, strlen(key));
	size_t any = pb__begin(b, KEY_VALUE_VALUE);
	pb__bytes(b, ANY_VALUE_STRING, value, len);
	pb__end(b, any);
	pb__end(b, kv);
}

static void write_resource(struct otlp_state *st, struct buf *b, const struct process_group *g)
{
	const struct profile_source *source = profile__source(st->profile);
	size_t len = 0;
	const char *comm = g->comm != NO_COMM ? profile__frame_name(st->profile, g->comm, &len)
					      : NULL;
	size_t r = pb__begin(b, RESOURCE_PROFILES_RESOURCE);
	struct buf service = BUF_INIT;
	if (st->options && st->options->service_name)
		buf__append(&service, st->options->service_name, strlen(st->options->service_name));
	else if (comm)
		buf__printf(&service, "unknown_service:%.*s", (int)len, comm);
	else
		buf__printf(&service, "unknown_service");
	key_value_string(b, "service.name", service.data, service.len);
	buf__free(&service);
	if (source->host[0])
		key_value_string(b, "host.name", source->host, strlen(source->host));
	if (g->pid) {
		size_t kv = pb__begin(b, RESOURCE_ATTRIBUTES);
		pb__bytes(b, KEY_VALUE_KEY, "process.pid", 11);
		size_t any = pb__begin(b, KEY_VALUE_VALUE);
		pb__uint(b, ANY_VALUE_INT, g->pid);
		pb__end(b, any);
		pb__end(b, kv);
	}
	if (comm)
		key_value_string(b, "process.executable.name", comm, len);
	for (size_t i = 0; st->options && i < st->options->attribute_count; i++) {
		const char *kv = st->options->attributes[i], *eq = strchr(kv, '=');
		size_t at = pb__begin(b, RESOURCE_ATTRIBUTES);
		pb__bytes(b, KEY_VALUE_KEY, kv, eq ? (size_t)(eq - kv) : strlen(kv));
		size_t any = pb__begin(b, KEY_VALUE_VALUE);
		pb__bytes(b, ANY_VALUE_STRING, eq ? eq + 1 : "", eq ? strlen(eq + 1) : 0);
		pb__end(b, any);
		pb__end(b, at);
	}
	pb__end(b, r);
}



/* Group g's profile from placed[first .. end): one sample per stack. */
static void write_profile(struct otlp_state *st, struct buf *b, size_t first, size_t end)
{
	const struct profile *p = st->profile;
	const struct profile_source *source = profile__source(p);
	const struct profile_time *time = profile__time(p);
	size_t m = pb__begin(b, SCOPE_PROFILES_PROFILES);
	string_table__value_type(&st->strings, b, OTLP_PROFILE_SAMPLE_TYPE, &st->types.types[0]);
	for (size_t i = first; i < end;) {
		size_t n = 0;
		uint32_t stack = st->placed[i].stack;
		for (; i < end && st->placed[i].stack == stack; i++, n++) {
			struct profile_stack s;
			profile__stack(p, st->placed[i].index, &s);
			st->values = fk_grow(st->values, &st->values_cap, n + 1, sizeof(*st->values));
			st->timestamps = fk_realloc(st->timestamps, st->values_cap * sizeof(*st->timestamps));
			st->values[n] = pprof_names__int64(p, s.values[0]);
			st->timestamps[n] = source->start_unix_ns +
					    (uint64_t)st->placed[i].slice * time->slice_ns;
		}
		size_t sample = pb__begin(b, OTLP_PROFILE_SAMPLES);
		pb__uint(b, SAMPLE_STACK, stack);
		pb__packed(b, SAMPLE_VALUES, st->values, n);
		if (time->slice_ns) {
			size_t ts = pb__begin(b, SAMPLE_TIMESTAMPS);
			for (size_t k = 0; k < n; k++) {
				uint8_t bytes[8];
				for (int j = 0; j < 8; j++)
					bytes[j] = (uint8_t)(st->timestamps[k] >> (8 * j));
				buf__append(b, bytes, 8);
			}
			pb__end(b, ts);
		}
		pb__end(b, sample);
	}
	if (source->start_unix_ns)
		pb__fixed64(b, OTLP_PROFILE_TIME, source->start_unix_ns);
	if (source->duration_ns)
		pb__uint(b, OTLP_PROFILE_DURATION, source->duration_ns);
	if (st->types.period) {
		string_table__value_type(&st->strings, b, OTLP_PROFILE_PERIOD_TYPE, &st->types.period_type);
		pb__uint(b, OTLP_PROFILE_PERIOD, st->types.period);
	}
	pb__end(b, m);
}

/* The attribute profile.frame.type of a location whose function is of
 * kind `kind`: "kernel" and "native" (the semantic conventions' values
 * for the kinds flamekit tells apart without knowing a runtime); 0: none. */
static uint32_t frame_type_attribute(struct otlp_state *st, enum profile_frame_kind kind)
{
	const char *value = kind == PROFILE_FRAME_KERNEL ? "kernel" :
			    kind == PROFILE_FRAME_NATIVE ? "native" : NULL;
	if (!value)
		return 0;
	if (!st->frame_type_attribute[kind]) {
		size_t a = pb__begin(&st->attributes, DICT_ATTRIBUTE);
		pb__uint(&st->attributes, ATTRIBUTE_KEY,
			 string_table__add_text(&st->strings, "profile.frame.type"));
		size_t any = pb__begin(&st->attributes, ATTRIBUTE_VALUE);
		pb__bytes(&st->attributes, ANY_VALUE_STRING, value, strlen(value));
		pb__end(&st->attributes, any);
		pb__end(&st->attributes, a);
		st->frame_type_attribute[kind] = ++st->attribute_count;
	}
	return st->frame_type_attribute[kind];
}

static void write_dictionary(struct otlp_state *st, struct buf *b)
{
	const struct location_table *t = st->locations;
	size_t d = pb__begin(b, DATA_DICTIONARY);
	pb__bytes(b, DICT_MAPPING, "", 0);
	for (uint32_t id = 1; id <= location_table__mappings(t); id++) {
		size_t m = pb__begin(b, DICT_MAPPING);
		pb__uint(b, MAPPING_FILENAME,
			 string_table__add_text(&st->strings, location_table__mapping_name(t, id)));
		pb__end(b, m);
	}
	pb__bytes(b, DICT_LOCATION, "", 0);
	for (uint32_t id = 1; id <= location_table__locations(t); id++) {
		struct table_location loc;
		location_table__location(t, id, &loc);
		size_t m = pb__begin(b, DICT_LOCATION);
		if (loc.mapping)
			pb__uint(b, LOCATION_MAPPING, loc.mapping);
		location_table__encode_lines(t, id, b, LOCATION_LINES);
		uint32_t attribute = frame_type_attribute(
			st, profile__frame_kind(st->profile, loc.lines[loc.line_count - 1]));
		if (attribute) {
			uint64_t a = attribute;
			pb__packed(b, LOCATION_ATTRIBUTES, &a, 1);
		}
		pb__end(b, m);
	}
	pb__bytes(b, DICT_FUNCTION, "", 0);
	for (uint32_t id = 1; id <= location_table__functions(t); id++) {
		uint64_t name = string_table__frame(&st->strings, location_table__function_frame(t, id));
		size_t m = pb__begin(b, DICT_FUNCTION);
		pb__uint(b, FUNCTION_NAME, name);
		pb__uint(b, FUNCTION_SYSTEM_NAME, name);
		pb__end(b, m);
	}
	/* link 0: the invalid trace and span ids, at their full lengths */
	static const uint8_t zeros[16] = { 0 };
	size_t link = pb__begin(b, DICT_LINK);
	pb__bytes(b, LINK_TRACE_ID, zeros, 16);
	pb__bytes(b, LINK_SPAN_ID, zeros, 8);
	pb__end(b, link);
	pb__bytes(b, DICT_ATTRIBUTE, "", 0);
	buf__append(b, st->attributes.data, st->attributes.len);
	buf__append(b, st->stacks.encoded.data, st->stacks.encoded.len);
	/* last: every string is in now */
	buf__append(b, st->strings.encoded.data, st->strings.encoded.len);
	pb__end(b, d);
}

int otlp__encode(const struct profile *p, const struct otlp_options *options, struct buf *b)
{
	if (profile__columns(p) != 1)
		return error("OpenTelemetry profiles hold one value per sample: a difference of two "
			     "profiles cannot be written for them; write it as folded stacks");
	struct otlp_state st = { .profile = p, .options = options };
	const size_t n = profile__size(p);
	string_table__init(&st.strings, p, DICT_STRING);
	st.locations = location_table__new(p);
	index_table__init(&st.stacks.index, 1024);
	pb__bytes(&st.stacks.encoded, DICT_STACK, "", 0);
	pprof_names__sample_types(p, &st.types);
	process_groups__init(&st.groups, p);

	st.placed = fk_calloc(n ? n : 1, sizeof(*st.placed));
	for (size_t e = 0; e < n; e++) {
		struct profile_stack s;
		const uint32_t *ids;
		profile__stack(p, e, &s);
		size_t depth = location_table__stack(st.locations, &s, &ids);
		st.placed[e] = (struct placed_entry){ st.groups.of_entry[e],
						      stack_table__add(&st.stacks, ids, depth),
						      s.key.slice, e };
	}
	qsort(st.placed, n, sizeof(*st.placed), compare_placed);

	for (size_t i = 0, g = 0; g < st.groups.count; g++) {
		size_t first = i;
		while (i < n && st.placed[i].group == g)
			i++;
		size_t rp = pb__begin(b, DATA_RESOURCE_PROFILES);
		write_resource(&st, b, &st.groups.groups[g]);
		size_t sp = pb__begin(b, RESOURCE_PROFILES_SCOPE_PROFILES);
		size_t scope = pb__begin(b, SCOPE_PROFILES_SCOPE);
		pb__bytes(b, SCOPE_NAME, "flamekit", 8);
		pb__bytes(b, SCOPE_VERSION, FLAMEKIT_VERSION, strlen(FLAMEKIT_VERSION));
		pb__end(b, scope);
		write_profile(&st, b, first, i);
		pb__end(b, sp);
		pb__end(b, rp);
	}
	write_dictionary(&st, b);

	free(st.placed);
	free(st.values);
	free(st.timestamps);
	buf__free(&st.attributes);
	buf__free(&st.stacks.encoded);
	free(st.stacks.locations);
	free(st.stacks.entries);
	index_table__release(&st.stacks.index);
	process_groups__release(&st.groups);
	location_table__free(st.locations);
	string_table__release(&st.strings);
	return 0;
}

int otlp_writer__write(const struct profile *profile, FILE *out,
		       const struct writer_options *options)
{
	struct buf b = BUF_INIT;
	int status = otlp__encode(profile, options ? options->format : NULL, &b);
	if (status == 0)
		fwrite(b.data, 1, b.len, out);
	buf__free(&b);
	return status;
}
