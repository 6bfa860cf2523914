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

int folded_reader__probe(const char *head, size_t len);
int folded_reader__read(struct read_context *ctx, struct input *const *inputs,
			size_t count, struct profile *profile);

#endif
