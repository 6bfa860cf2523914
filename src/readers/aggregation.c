#include "aggregation.h"

#include <stdlib.h>

#include "../lib/xalloc.h"
#include "entry_memo.h"
#include "parallel.h"

/* One reading state: the serial read's, or a part's (parallel.h). read()
 * is called once per state, so its working buffers are its own locals. */
struct aggregation_state {
	const struct aggregation_format *format;
	void *frame_state;
	uint64_t header_lines;  /* the header is at the start: part 0's */
	struct profile *profile;
};

static void *state_new(void *reader, unsigned part, struct read_context *ctx,
		       struct profile *profile)
{
	(void)ctx;
	const struct aggregation_format *format = reader;
	struct aggregation_state *st = fk_calloc(1, sizeof(*st));
	st->format = format;
	st->frame_state = format->state_new ? format->state_new() : NULL;
	st->header_lines = part == 0 ? format->header_lines : 0;
	st->profile = profile;
	return st;
}

static void state_free(void *reader, void *state)
{
	(void)reader;
	struct aggregation_state *st = state;
	if (st->format->state_free)
		st->format->state_free(st->frame_state);
	free(st);
}

static int read_stacks(void *state, struct input *const *inputs, size_t count)
{
	const struct aggregation_state *st = state;
	const struct aggregation_format *format = st->format;
	struct stack_builder sb;
	struct entry_memo memo;
	stack_builder__init(&sb, st->profile);
	entry_memo__init(&memo);
	uint64_t lines_seen = 0;
	struct line_stream ls = { inputs, count, 0, 0 };
	struct span line;
	while (line_stream__next(&ls, &line)) {
		if (lines_seen < st->header_lines) {
			lines_seen++;
			continue;
		}
		uint64_t n;
		if (perl_count_line(line, &n)) {
			size_t entry;
			if (entry_memo__find(&memo, &entry)) {
				union profile_value v = { .integer = n };
				profile__add_to_entry(st->profile, entry, &v);
				entry_memo__clear(&memo);
				continue;
			}
			struct span kept;
			while (entry_memo__next_kept(&memo, &kept))
				format->frame(st->frame_state, &sb, kept);
			entry_memo__remember(&memo, stack_builder__commit(&sb, n));
			continue;
		}
		if (!perl_blank_line(line))
			entry_memo__line(&memo, line);
	}
	entry_memo__release(&memo);
	stack_builder__release(&sb);
	return ls.err;
}

/* After a count line the stack has been added: nothing carries over. */
static bool after_count_line(const char *line, size_t len)
{
	uint64_t n;
	return perl_count_line((struct span){ line, len }, &n);
}

int aggregation__read(const struct aggregation_format *format, struct read_context *ctx,
		      struct input *const *inputs, size_t count, struct profile *profile)
{
	static const struct parallel_ops ops = {
		.boundary = after_count_line,
		.state_new = state_new,
		.read = read_stacks,
		.state_free = state_free,
	};
	/* the ops only read the format */
	return parallel__read(ctx, inputs, count, &ops, (void *)format, profile);
}
