#include "aggregation.h"

#include <stdlib.h>

#include "../lib/xalloc.h"
#include "entry_memo.h"
#include "parallel.h"

static int read_serial(const struct aggregation_format *format, void *state,
		       struct input *const *inputs, size_t count, uint64_t header_lines,
		       struct profile *profile)
{
	struct stack_builder sb;
	struct entry_memo memo;
	stack_builder__init(&sb, profile);
	entry_memo__init(&memo);
	uint64_t lines_seen = 0;
	struct line_stream ls = { inputs, count, 0, 0 };
	struct span line;
	while (line_stream__next(&ls, &line)) {
		if (lines_seen < header_lines) {
			lines_seen++;
			continue;
		}
		uint64_t n;
		if (perl_count_line(line, &n)) {
			size_t entry;
			if (entry_memo__find(&memo, &entry)) {
				union profile_value v = { .integer = n };
				profile__add_to_entry(profile, entry, &v);
				entry_memo__clear(&memo);
				continue;
			}
			struct span kept;
			while (entry_memo__next_kept(&memo, &kept))
				format->frame(state, &sb, kept);
			entry_memo__remember(&memo, stack_builder__commit(&sb, n));
			continue;
		}
		if (!perl_blank_line(line))
			entry_memo__line(&memo, line);
	}
	int err = ls.err;
	entry_memo__release(&memo);
	stack_builder__release(&sb);
	return err;
}

/* After a count line the stack has been added: nothing carries over. */
static bool after_count_line(const char *line, size_t len)
{
	uint64_t n;
	return perl_count_line((struct span){ line, len }, &n);
}

struct part {
	const struct aggregation_format *format;
	struct input *in;
	uint64_t header_lines;
	struct profile *profile;
	void *state;
	int err;
};

static void read_part(void *arg)
{
	struct part *pt = arg;
	pt->err = read_serial(pt->format, pt->state, &pt->in, 1, pt->header_lines, pt->profile);
}

int aggregation__read(const struct aggregation_format *format, struct read_context *ctx,
		      struct input *const *inputs, size_t count, struct profile *profile)
{
	uint64_t size;
	unsigned nparts = 1;
	if (count == 1 && input__plain_size(inputs[0], &size))
		nparts = parallel__part_count(ctx->jobs, size);
	if (nparts <= 1) {
		void *state = format->state_new ? format->state_new() : NULL;
		int err = read_serial(format, state, inputs, count, format->header_lines, profile);
		if (format->state_free)
			format->state_free(state);
		return err;
	}
	struct parallel_split split;
	parallel__split(inputs[0], size, nparts, after_count_line, &split);
	struct part *parts = fk_calloc(split.count, sizeof(*parts));
	for (unsigned i = 0; i < split.count; i++) {
		parts[i] = (struct part){
			.format = format,
			.in = input__open_range(inputs[0], split.bounds[i], split.bounds[i + 1]),
			.header_lines = i == 0 ? format->header_lines : 0, /* the header is at the start */
			.profile = profile__new_like(profile),
			.state = format->state_new ? format->state_new() : NULL,
		};
	}
	int err = parallel__run(split.count, read_part, parts, sizeof(*parts));
	for (unsigned i = 0; i < split.count; i++) {
		if (!err && parts[i].err)
			err = -1;
		if (!err)
			profile__merge(profile, parts[i].profile);
		input__close_part(inputs[0], parts[i].in);
		profile__free(parts[i].profile);
		if (format->state_free)
			format->state_free(parts[i].state);
	}
	free(parts);
	return err;
}
