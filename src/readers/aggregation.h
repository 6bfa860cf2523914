/*
 * The loop shared by the SystemTap and DTrace collapsers: after `header`
 * lines (counted across all inputs, as Perl's <> reads one stream), each
 * stack is its frame lines, leaf first, ended by a line holding only its
 * count (/^\s*(\d+)+$/); blank lines are ignored. Each frame line goes to
 * the reader's frame function, which adds that line's group to the stack.
 * Repeated entries are found by their text (entry_memo.h).
 */
#ifndef FLAMEKIT_READERS_AGGREGATION_H
#define FLAMEKIT_READERS_AGGREGATION_H

#include "perl_text.h"
#include "reader.h"
#include "stack_builder.h"

typedef void (*aggregation_frame_fn)(void *reader_state, struct stack_builder *sb,
				     struct span line);

int aggregation__read(struct input *const *inputs, size_t count, struct profile *profile,
		      uint64_t header_lines, aggregation_frame_fn frame, void *reader_state);

#endif
