/*
 * What pprof (and OpenTelemetry's profiles, which follow it) call a
 * profile's values and kinds of frames, in one place for the pprof writer,
 * the OTLP writer and the pprof reader.
 *
 * Values are of value types (type, unit), e.g. ("samples", "count") and
 * ("cpu", "nanoseconds").
 *
 * Writing: a profile of timer samples whose source gives the period (record)
 * is two types, as Go's CPU profiles are: samples/count, then cpu/nanoseconds
 * (each sample times the period); -e EVENT -c N samples are samples/count
 * and EVENT/count. Every other profile is one type: its measure (or a name
 * for its unit) and its unit: off_cpu/microseconds, EVENT/count,
 * periods/count, time/nanoseconds, space/bytes.
 *
 * Reading: the unit names pprof uses map back to a profile unit, with a
 * factor for those flamekit has no unit of its own for (milliseconds and
 * seconds become nanoseconds); "count" is samples when the type is
 * "samples", else events.
 */
#ifndef FLAMEKIT_PROFILE_PPROF_NAMES_H
#define FLAMEKIT_PROFILE_PPROF_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/* The start of the comment in which flamekit's pprof profiles say their
 * time slices: "flamekit time slices: slice_ns=N start_ns=M" (each
 * sample's label "time" is its slice's start, ns from slice 0's). */
#define PPROF_NAMES_TIME_COMMENT "flamekit time slices:"

struct sample_type {
	const char *type, *unit;
};

/* How a profile's values are written. types[0] is the values as they are;
 * types[1], when count is 2, each value times `period` (the period's type). */
struct sample_types {
	struct sample_type types[2];
	size_t count;
	struct sample_type period_type;  /* set when period > 0 */
	uint64_t period;
};

/* Strings point into p's source or to constants: valid while p is. */
void pprof_names__sample_types(const struct profile *p, struct sample_types *out);

/* A value as pprof and OpenTelemetry hold it, an int64: decimals rounded. */
uint64_t pprof_names__int64(const struct profile *p, union profile_value v);

/* The unit pprof calls `unit`: "count", "nanoseconds", ... */
const char *pprof_names__unit(enum profile_unit unit);

/* A pprof value type's profile unit, and the factor its values take to be
 * in that unit; false for a unit flamekit does not know (read as events). */
bool pprof_names__profile_unit(const char *type, size_t type_len, const char *unit,
			       size_t unit_len, enum profile_unit *out, uint64_t *factor);

/*
 * Kinds of frames are told by their locations' mappings: "[kernel.kallsyms]"
 * for kernel code (as perf names it), "[jit]", "[interpreter]". Native
 * code and process names have none (NULL): the profile does not know their
 * binaries. Reading, "[kernel..." names and perf's JIT maps
 * ("/tmp/perf-PID.map") count too; anything else is native.
 */
const char *pprof_names__mapping(enum profile_frame_kind kind);
enum profile_frame_kind pprof_names__kind_of_mapping(const char *name, size_t len);

#endif
