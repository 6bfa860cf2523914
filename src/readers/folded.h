/* Folded stacks: "frame;frame;... COUNT" per line (see folded.c). */
#ifndef FLAMEKIT_READERS_FOLDED_H
#define FLAMEKIT_READERS_FOLDED_H

#include "reader.h"

/* What the folded reader reports back. */
struct folded_read_result {
	uint64_t differential_lines;  /* lines with two counts (perl_line_rule) */
};

/* The folded reader's options (read_context.options; NULL = all false). */
struct folded_read_options {
	/*
	 * flamegraph.pl's and difffolded.pl's line rule: the count follows the
	 * last whitespace character of the line (space, tab, ...), may have a
	 * decimal part ("10.5", "60."), the stack before it may be empty, and
	 * trailing empty frames are dropped as Perl's split does. The profile
	 * must hold PROFILE_DECIMAL values. With two columns, a line with two
	 * counts is (before, after); a line with one count is (count, count),
	 * and result->differential_lines counts the former.
	 */
	bool perl_line_rule;
	/* Frames leaf first (flamegraph.pl --reverse). */
	bool reverse;
	/* With perl_line_rule: keep trailing empty frames, so "a;" stays apart
	 * from "a" (difffolded.pl keys stacks by their text; flamegraph.pl
	 * splits them and drops the empty ends). */
	bool keep_trailing_empty;
	struct folded_read_result *result;  /* required with perl_line_rule */
};

/*
 * Timed folded stacks: folded stacks counted per time slice, one line per
 * (slice, stack), written by the `timed` writer (writers/folded.h):
 *
 *	# flamekit timed folded: slice_ms=20 start_ns=0
 *	main;compute;hash 3 @12.340
 *
 * The first line says the length of a slice (milliseconds, decimals
 * allowed) and where slice 0 starts (start_ns, optional, 0 by default; the
 * clock is the recorder's). Each further line is a folded line, its
 * count(s), a space, "@" and the start of its slice in seconds from
 * start_ns. The time is last so that no line ends in "SPACE DIGITS": the
 * folded reader, and flamegraph.pl's rule /^(.*)\s+?(\d+(?:\.\d*)?)$/,
 * refuse every line rather than take "12.340 main" for a frame. A stack
 * seen in several slices is several lines; readers that have no use for
 * time (flamegraph) sum them. Inputs read together must share the header.
 */
#define TIMED_FOLDED_HEADER "# flamekit timed folded:"
int timed_reader__probe(const char *head, size_t len);
int timed_reader__read(struct read_context *ctx, struct input *const *inputs,
		       size_t count, struct profile *profile);

int folded_reader__probe(const char *head, size_t len);
int folded_reader__read(struct read_context *ctx, struct input *const *inputs,
			size_t count, struct profile *profile);

#endif
