/*
 * The loop shared by the SystemTap and DTrace collapsers: after `header`
 * lines (counted across all inputs, as Perl's <> reads one stream), each
 * stack is its frame lines, leaf first, ended by a line holding only its
 * count (/^\s*(\d+)+$/); blank lines are ignored. Each frame line goes to
 * the format's frame function, which adds that line's group to the stack.
 * Repeated entries are found by their text (entry_memo.h); a large plain
 * file is read in parts split after count lines (parallel.h), each with its
 * own frame state.
 */
#ifndef FLAMEKIT_READERS_AGGREGATION_H
#define FLAMEKIT_READERS_AGGREGATION_H

#include "perl_text.h"
#include "reader.h"
#include "stack_builder.h"

struct aggregation_format {
	uint64_t header_lines;
	void (*frame)(void *frame_state, struct stack_builder *sb, struct span line);
	void *(*state_new)(void);          /* per reading thread; NULL: none */
	void (*state_free)(void *frame_state);
};

int aggregation__read(const struct aggregation_format *format, struct read_context *ctx,
		      struct input *const *inputs, size_t count, struct profile *profile);

#endif
