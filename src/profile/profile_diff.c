#include "profile_diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/xalloc.h"

static bool is_hex_digit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* s/0x[0-9a-fA-F]+/0x.../g into b. */
static void strip_hex(struct buf *b, const char *name, size_t len)
{
	buf__reset(b);
	for (size_t i = 0; i < len;) {
		if (name[i] == '0' && i + 2 < len && name[i + 1] == 'x' && is_hex_digit(name[i + 2])) {
			buf__append(b, "0x...", 5);
			i += 2;
			while (i < len && is_hex_digit(name[i]))
				i++;
			continue;
		}
		buf__append_char(b, name[i++]);
	}
}

static double total_of(const struct profile *p)
{
	double total = 0;
	for (size_t i = 0; i < profile__size(p); i++) {
		struct profile_stack s;
		profile__stack(p, i, &s);
		total += profile__value_double(p, s.values[0]);
	}
	return total;
}

/* Adds every stack of `side` into column `column` of diff. */
static void add_side(struct profile *diff, const struct profile *side, unsigned column,
		     const struct profile_difference_options *o)
{
	/* side's frame id -> diff's, made on first use */
	size_t names = profile__frame_count(side);
	frame_id *map = fk_malloc((names + 1) * sizeof(*map));
	bool *mapped = fk_calloc(names + 1, sizeof(*mapped));
	frame_id *frames = NULL;
	size_t cap = 0;
	struct buf name = BUF_INIT;
	for (size_t i = 0; i < profile__size(side); i++) {
		struct profile_stack s;
		profile__stack(side, i, &s);
		frames = fk_grow(frames, &cap, (size_t)s.depth + 1, sizeof(*frames));
		for (uint32_t d = 0; d < s.depth; d++) {
			frame_id id = s.frames[d];
			if (!mapped[id]) {
				size_t len;
				const char *text = profile__frame_name(side, id, &len);
				if (o->strip_hex) {
					strip_hex(&name, text, len);
					map[id] = profile__intern(diff, name.data, name.len);
				} else {
					map[id] = profile__intern(diff, text, len);
				}
				mapped[id] = true;
			}
			frames[d] = map[id];
		}
		union profile_value values[2] = { { .decimal = 0 }, { .decimal = 0 } };
		values[column].decimal = profile__value_double(side, s.values[0]);
		profile__add(diff, frames, s.depth, NULL, values);
	}
	buf__free(&name);
	free(frames);
	free(mapped);
	free(map);
}

struct profile *profile__difference(const struct profile *before, const struct profile *after,
				    const struct profile_difference_options *o)
{
	struct profile *diff = profile__new(2, PROFILE_DECIMAL);
	add_side(diff, before, 0, o);
	add_side(diff, after, 1, o);
	double total_before = total_of(before), total_after = total_of(after);
	if (o->normalize && total_before != total_after && total_before != 0) {
		for (size_t i = 0; i < profile__size(diff); i++) {
			struct profile_stack s;
			profile__stack(diff, i, &s);
			union profile_value scaled[2] = { s.values[0], { .decimal = 0 } };
			/* int(before * total2 / total1): the new value minus the old */
			double target = trunc(s.values[0].decimal * total_after / total_before);
			scaled[0].decimal = target - s.values[0].decimal;
			profile__add_to_entry(diff, i, scaled);
		}
	}
	return diff;
}
