#include "pprof_names.h"

#include <math.h>
#include <string.h>

uint64_t pprof_names__int64(const struct profile *p, union profile_value v)
{
	if (profile__value_type(p) == PROFILE_INTEGER)
		return v.integer;
	return (uint64_t)llround(v.decimal);
}

const char *pprof_names__unit(enum profile_unit unit)
{
	switch (unit) {
	case PROFILE_NANOSECONDS: return "nanoseconds";
	case PROFILE_MICROSECONDS: return "microseconds";
	case PROFILE_BYTES: return "bytes";
	case PROFILE_SAMPLES:
	case PROFILE_EVENTS:
	case PROFILE_PERIODS: break;
	}
	return "count";
}

/* The type's name when the profile does not say what it measured. */
static const char *unit_type_name(enum profile_unit unit)
{
	switch (unit) {
	case PROFILE_SAMPLES: return "samples";
	case PROFILE_EVENTS: return "events";
	case PROFILE_PERIODS: return "periods";
	case PROFILE_NANOSECONDS:
	case PROFILE_MICROSECONDS: return "time";
	case PROFILE_BYTES: return "space";
	}
	return "samples";
}

void pprof_names__sample_types(const struct profile *p, struct sample_types *out)
{
	const struct profile_source *s = profile__source(p);
	const enum profile_unit unit = profile__unit(p);
	const char *measure = s->measure[0] ? s->measure : NULL;

	*out = (struct sample_types){ .count = 1 };
	out->types[0].unit = pprof_names__unit(unit);
	out->types[0].type = unit == PROFILE_SAMPLES || !measure ? unit_type_name(unit) : measure;
	if (measure && s->period > 0) {
		out->period_type = (struct sample_type){ measure,
							 pprof_names__unit(s->period_unit) };
		out->period = s->period;
		if (unit == PROFILE_SAMPLES)
			out->types[out->count++] = out->period_type;
	}
}

static bool is(const char *s, size_t len, const char *name)
{
	return strlen(name) == len && memcmp(s, name, len) == 0;
}

bool pprof_names__profile_unit(const char *type, size_t type_len, const char *unit,
			       size_t unit_len, enum profile_unit *out, uint64_t *factor)
{
	static const struct {
		const char *name;
		enum profile_unit unit;
		uint64_t factor;
	} units[] = {
		{ "nanoseconds", PROFILE_NANOSECONDS, 1 },
		{ "microseconds", PROFILE_MICROSECONDS, 1 },
		{ "milliseconds", PROFILE_NANOSECONDS, 1000000 },
		{ "seconds", PROFILE_NANOSECONDS, 1000000000 },
		{ "bytes", PROFILE_BYTES, 1 },
		{ "kilobytes", PROFILE_BYTES, 1024 },
		{ "megabytes", PROFILE_BYTES, 1024 * 1024 },
	};
	*factor = 1;
	if (is(unit, unit_len, "count") || unit_len == 0) {
		*out = is(type, type_len, "samples") ? PROFILE_SAMPLES : PROFILE_EVENTS;
		return true;
	}
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (is(unit, unit_len, units[i].name)) {
			*out = units[i].unit;
			*factor = units[i].factor;
			return true;
		}
	*out = PROFILE_EVENTS;
	return false;
}

const char *pprof_names__mapping(enum profile_frame_kind kind)
{
	switch (kind) {
	case PROFILE_FRAME_KERNEL: return "[kernel.kallsyms]";
	case PROFILE_FRAME_JIT: return "[jit]";
	case PROFILE_FRAME_INTERPRETED: return "[interpreter]";
	case PROFILE_FRAME_NATIVE:
	case PROFILE_FRAME_INLINED:
	case PROFILE_FRAME_PROCESS: break;
	}
	return NULL;
}

enum profile_frame_kind pprof_names__kind_of_mapping(const char *name, size_t len)
{
	if (len >= 7 && memcmp(name, "[kernel", 7) == 0)
		return PROFILE_FRAME_KERNEL;
	if (is(name, len, "[jit]") || (len > 10 && memcmp(name, "/tmp/perf-", 10) == 0 &&
				       memcmp(name + len - 4, ".map", 4) == 0))
		return PROFILE_FRAME_JIT;
	if (is(name, len, "[interpreter]"))
		return PROFILE_FRAME_INTERPRETED;
	return PROFILE_FRAME_NATIVE;
}
