#include "aggregation.h"

#include "entry_memo.h"

int aggregation__read(struct input *const *inputs, size_t count, struct profile *profile,
		      uint64_t header_lines, aggregation_frame_fn frame, void *reader_state)
{
	struct stack_builder sb;
	struct entry_memo memo;
	stack_builder__init(&sb, profile);
	entry_memo__init(&memo);
	uint64_t lines_seen = 0;
	int err = 0;
	for (size_t i = 0; i < count && !err; i++) {
		const char *p;
		size_t len;
		int r;
		while ((r = input__next_line(inputs[i], &p, &len)) > 0) {
			if (lines_seen < header_lines) {
				lines_seen++;
				continue;
			}
			struct span line = { p, len };
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
					frame(reader_state, &sb, kept);
				entry_memo__remember(&memo, stack_builder__commit(&sb, n));
				continue;
			}
			if (!perl_blank_line(line))
				entry_memo__line(&memo, line);
		}
		err = r < 0 ? -1 : 0;
	}
	entry_memo__release(&memo);
	stack_builder__release(&sb);
	return err;
}
