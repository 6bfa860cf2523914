/*
 * pprof's profile.proto (github.com/google/pprof, proto/profile.proto),
 * gzipped or not, as Go's runtime/pprof, perf_to_profile and flamekit's own
 * pprof writer make it.
 *
 * Which values: --sample-type NAME picks one of the profile's sample types
 * by its type (e.g. "samples", "cpu", "alloc_space"); without it, pprof's
 * own rule: the type default_sample_type names, else the last. The unit
 * comes with it (profile/pprof_names.h: nanoseconds, microseconds, bytes,
 * counts; milliseconds and seconds scaled to nanoseconds), and the profile's
 * source gets the time, duration and period the file has.
 *
 * Stacks: a sample's locations, leaf first in the file, become frames root
 * first; a location's lines (innermost first) become a frame each, the
 * outermost first, the inlined ones marked "_[i]" (as `collapse perf
 * --inline` marks them) unless their names already end so. A frame is its
 * function's name ("[unknown]" for none); a location without lines is its
 * address, "0x...". A mapping says a frame's kind (pprof_names.h:
 * "[kernel.kallsyms]" kernel, "[jit]", "[interpreter]"). Labels: "pid" (a
 * number) keeps processes apart; "comm" naming the stack's root makes it a
 * process name; "time" with flamekit's comment on its time slices puts the
 * sample in its slice (writers/pprof.h). Samples whose value is 0 add
 * nothing.
 *
 * What is wrong with a file ends the read with one line naming it and the
 * fault: not gzip nor profile.proto, a truncated or malformed message (the
 * byte where), a field of the wrong wire type, an id of 0, twice, or that
 * no table entry has, a string index out of range, a sample whose count of
 * values differs from the sample types', a negative value.
 */
#ifndef FLAMEKIT_READERS_PPROF_H
#define FLAMEKIT_READERS_PPROF_H

#include "reader.h"

/* The pprof reader's options (read_context.options; NULL: the defaults). */
struct pprof_read_options {
	const char *sample_type;  /* --sample-type; NULL: pprof's default */
};

extern const struct reader_options pprof_reader_options;

/* Sure (100) when the bytes read as profile.proto's fields from the first
 * to the end (or to where a probe's window cut the last one). */
int pprof_reader__probe(const char *head, size_t len);
int pprof_reader__read(struct read_context *ctx, struct input *const *inputs, size_t count,
		       struct profile *profile);

#endif
