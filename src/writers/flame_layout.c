#include "flame_layout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/perl_number.h"
#include "../lib/xalloc.h"

/* A frame still open: the stack being merged has the same frames up to it. */
struct open_frame {
	frame_id frame;
	size_t index;  /* in frames[] */
};

/* The layout as it is built. */
struct builder {
	struct flame_layout *l;
	size_t cap;
	struct open_frame *open;
	size_t open_count, open_cap;
};

static void close_frames(struct builder *b, size_t keep)
{
	double end = perl_number__key(b->l->total);
	while (b->open_count > keep)
		b->l->frames[b->open[--b->open_count].index].end = end;
}

/* flamegraph.pl's flow(): merge one stack (root frame added) into the layout. */
static void add_stack(struct builder *b, const frame_id *frames, uint32_t depth, double value,
		      double delta)
{
	struct flame_layout *l = b->l;
	size_t total = (size_t)depth + 1, same = 0;
	if (b->open_count > 0)
		same = 1;  /* the root */
	while (same < b->open_count && same < total && b->open[same].frame == frames[same - 1])
		same++;
	close_frames(b, same);
	for (size_t i = same; i < total; i++) {
		l->frames = fk_grow(l->frames, &b->cap, l->count + 1, sizeof(*l->frames));
		l->frames[l->count] = (struct flame_frame){
			.frame = i == 0 ? FLAME_LAYOUT_ROOT : frames[i - 1],
			.depth = (uint32_t)i,
			.start = l->total,
			.delta = i == total - 1 ? delta : 0,
		};
		b->open = fk_grow(b->open, &b->open_cap, b->open_count + 1, sizeof(*b->open));
		b->open[b->open_count++] = (struct open_frame){ l->frames[l->count].frame, l->count };
		l->count++;
	}
	l->frames[b->open[total - 1].index].self += value;
	l->total += value;
}

/* With --colors chain, flamegraph.pl marks waker stacks (after a "--" frame)
 * with _[w] and ends every other stack with a "--" frame; so does this copy. */
static struct profile *chain_profile(const struct profile *p)
{
	struct profile *chain = profile__new_like(p);
	frame_id dash = profile__intern(chain, "--", 2);
	frame_id *frames = NULL;
	size_t cap = 0;
	struct buf name = BUF_INIT;
	for (size_t i = 0; i < profile__size(p); i++) {
		struct profile_stack s;
		profile__stack(p, i, &s);
		frames = fk_grow(frames, &cap, (size_t)s.depth + 2, sizeof(*frames));
		uint32_t depth = 0;
		bool waker = false, any_separator = false;
		size_t last_separator = SIZE_MAX;
		for (uint32_t k = 0; k < s.depth; k++) {
			size_t len;
			const char *n = profile__frame_name(p, s.frames[k], &len);
			bool is_dash = len == 2 && memcmp(n, "--", 2) == 0;
			/* a ";--;" in the folded line, found left to right without overlap */
			if (is_dash && k > 0 && k + 1 < s.depth &&
			    (last_separator == SIZE_MAX || k > last_separator + 1)) {
				last_separator = k;
				waker = any_separator = true;
				frames[depth++] = dash;
				continue;
			}
			if (waker) {
				buf__reset(&name);
				buf__append(&name, n, len);
				buf__append(&name, "_[w]", 4);
				frames[depth++] = profile__intern(chain, name.data, name.len);
			} else {
				frames[depth++] = profile__intern(chain, n, len);
			}
		}
		if (!any_separator) {
			if (s.depth == 0)
				frames[depth++] = profile__intern(chain, "", 0);
			frames[depth++] = dash;
		}
		profile__add(chain, frames, depth, &s.key, s.values);
	}
	buf__free(&name);
	free(frames);
	return chain;
}

struct flame_layout *flame_layout__new(const struct profile *profile,
				       const struct flame_layout_options *options)
{
	static const struct flame_layout_options defaults;
	const struct flame_layout_options *o = options ? options : &defaults;
	struct flame_layout *l = fk_calloc(1, sizeof(*l));
	struct builder b = { .l = l };
	if (o->chain)
		profile = l->chain = chain_profile(profile);
	l->profile = profile;

	/* a flame chart's profile keeps its order: see profile__sorted() */
	size_t size = profile__size(profile), *order = profile__sorted(profile);
	unsigned value_column = profile__columns(profile) - 1;
	l->max_delta = 1;
	for (size_t i = 0; i < size; i++) {
		struct profile_stack s;
		profile__stack(profile, order[i], &s);
		double delta = 0;
		if (o->differential) {
			delta = profile__value_double(profile, s.values[1]) -
				profile__value_double(profile, s.values[0]);
			if (fabs(delta) > l->max_delta)
				l->max_delta = fabs(delta);
		}
		add_stack(&b, s.frames, s.depth, profile__value_double(profile, s.values[value_column]),
			  delta);
	}
	close_frames(&b, 0);
	free(order);
	free(b.open);
	return l;
}

void flame_layout__free(struct flame_layout *l)
{
	if (!l)
		return;
	free(l->frames);
	profile__free(l->chain);
	free(l);
}
