/*
 * pprof's profile.proto (github.com/google/pprof, proto/profile.proto), as
 * `go tool pprof`, Pyroscope, Parca and speedscope read it: gzipped on disk.
 *
 * What goes where:
 *  - sample types from the profile's unit and source (profile/pprof_names.h):
 *    record's timer samples are samples/count and cpu/nanoseconds, period
 *    type cpu/nanoseconds and period 1e9/F, as Go's CPU profiles; time_nanos
 *    and duration_nanos from the source when it has them;
 *  - one sample per profile entry, its locations leaf first; a frame and
 *    the frames inlined into it are one location of several lines;
 *    mappings, locations and functions deduplicated, ids 1..N in the order
 *    written (writers/location_table.h), string 0 empty; frame names as
 *    they are (annotations such as "_[k]" kept), kernel, JIT and
 *    interpreter frames with a mapping that says so ("[kernel.kallsyms]");
 *  - labels: "comm" (the stack's root, when it is a process name) and "pid"
 *    (a number) where the profile keeps processes apart; a profile with
 *    time slices labels each sample "time" (the slice's start, nanoseconds
 *    from slice 0) and says the slices' length in a comment,
 *    "flamekit time slices: slice_ns=N start_ns=M", which the pprof reader
 *    reads back.
 * Values are int64: decimal values are rounded. A profile of two columns
 * (a difference) is refused.
 */
#ifndef FLAMEKIT_WRITERS_PPROF_H
#define FLAMEKIT_WRITERS_PPROF_H

#include <stdio.h>

#include "../lib/buf.h"
#include "writer.h"

/* The profile.proto message, not compressed (what an HTTP push sends as
 * a raw pprof body), appended to out. 0, or -1 after an error message. */
int pprof__encode(const struct profile *profile, struct buf *out);

/* The writer: pprof__encode(), gzipped fast as it is made (as Go's runtime
 * writes its profiles at zlib's fastest level; here in parts on every CPU,
 * each by the compressor that suits it: lib/gzip.h). */
int pprof_writer__write(const struct profile *profile, FILE *out,
			const struct writer_options *options);

#endif
