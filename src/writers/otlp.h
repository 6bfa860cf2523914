/*
 * OpenTelemetry's profiles signal: a binary ProfilesData message of
 * opentelemetry-proto's profiles/v1development at commit ac2c4b5
 * (2026-08-18, v1.11.0 and 16 commits; the API still changes between
 * releases: see the README), the .proto files kept in tests/otlp-proto/
 * for protoc to check what this writes.
 *
 * What goes where:
 *  - one ResourceProfiles per process where the profile knows them
 *    (writers/process_groups.h), with resource attributes service.name
 *    (the options', else OpenTelemetry's default "unknown_service:COMM" or
 *    "unknown_service"), host.name (from the profile's source, when known),
 *    process.pid and process.executable.name (when known); in it one
 *    scope ("flamekit") with one Profile;
 *  - the Profile's sample type is the profile's values as they are (a
 *    count of timer samples is samples/count, its period type
 *    cpu/nanoseconds and period 1e9/F, as the OpenTelemetry eBPF profiler
 *    writes them; profile/pprof_names.h), time and duration from the
 *    source; one Sample per stack, whose values are the stack's, or for a
 *    profile with time slices one value per slice with each slice's start
 *    as its timestamp (the source's start plus the slice's offset);
 *  - the dictionary shared by all, each table deduplicated with its zero
 *    value at index 0 (link 0 the all-zero trace and span ids): stacks leaf
 *    first, locations, functions and mappings as pprof's
 *    (writers/location_table.h), kernel and native locations with the
 *    attribute profile.frame.type.
 * ProfilesData and the collector's ExportProfilesServiceRequest have the
 * same fields, so the same bytes are the body of an OTLP/HTTP export
 * (POST /v1development/profiles, application/x-protobuf). Values are
 * int64: decimal values are rounded; a profile of two columns is refused.
 */
#ifndef FLAMEKIT_WRITERS_OTLP_H
#define FLAMEKIT_WRITERS_OTLP_H

#include <stdio.h>

#include "../lib/buf.h"
#include "writer.h"

/* The writer's own options (writer_options.format); NULL: the defaults. */
struct otlp_options {
	const char *service_name;  /* NULL: OpenTelemetry's unknown_service[:COMM] */
	const char *const *attributes;  /* more resource attributes, "KEY=VALUE" each
					 * (record --push's --label) */
	size_t attribute_count;
};

/* The message appended to out. 0, or -1 after an error message. */
int otlp__encode(const struct profile *profile, const struct otlp_options *options,
		 struct buf *out);

int otlp_writer__write(const struct profile *profile, FILE *out,
		       const struct writer_options *options);

#endif
