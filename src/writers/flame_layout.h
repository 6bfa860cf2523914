/*
 * A flame graph's layout, for any writer that draws one (the SVG today, an
 * HTML viewer next): where each frame sits, in the units of the profile's
 * values, with no pixels, colours or markup.
 *
 * The layout is flamegraph.pl's: stacks in the order profile__sorted()
 * gives (folded-line order, or a flame chart's input order), each stack merged with the
 * one before it while their frames from the root up are the same, so one
 * laid-out frame is a run of the same frame at one depth across adjacent
 * stacks. Its width is the sum of the values of the stacks in the run.
 *
 * A laid-out frame
 *	frame      the profile's frame id; FLAME_LAYOUT_ROOT for the root,
 *	           which spans every stack (flamegraph.pl's "all")
 *	depth      0 for the root, 1 for the stacks' first frames, ...
 *	start, end x as values from the left edge: the frame covers
 *	           [start, end), its width is end - start. end is kept as
 *	           flamegraph.pl keeps it (a number that went through a Perl hash
 *	           key, perl_number__key()), so compute the width from these two
 *	           rather than adding widths up
 *	self       the values of the stacks that end at this frame
 *	delta      differential layouts: after - before of the stack that ended
 *	           at this frame when it opened (flamegraph.pl's count: a stack
 *	           that ends at a frame already open adds nothing); 0 otherwise
 *
 * Values: a one-column profile lays out its counts; a two-column one lays
 * out the second column (after), and with `differential` also sets delta.
 *
 * Nothing is left out: a writer that hides frames narrower than some
 * threshold (flamegraph.pl's --minwidth, in pixels or percent) converts it
 * to values once it knows the total and skips frames with end - start below
 * it; their time stays in their parent's width.
 *
 * Ownership and lifetime
 *	flame_layout__new() reads the profile and returns a layout the caller
 *	frees with flame_layout__free(). frames[] belongs to the layout. Frame
 *	names come from layout->profile: the profile given to __new, or with
 *	`chain` a copy the layout owns. Either way the given profile must
 *	outlive the layout unchanged: a profile__intern() or profile__add()
 *	on it makes names stale (see profile.h). Read the fields; do not
 *	write them.
 *
 * Iteration: frames[] holds the frames in the order they open, so a parent
 * comes before its children and, at each depth, frames go left to right:
 *
 *	struct flame_layout *l = flame_layout__new(profile, &options);
 *	for (size_t i = 0; i < l->count; i++) {
 *		const struct flame_frame *f = &l->frames[i];
 *		size_t len = 0;
 *		const char *name = f->frame == FLAME_LAYOUT_ROOT ? "" :
 *			profile__frame_name(l->profile, f->frame, &len);
 *		... f->depth, f->start, f->end - f->start, f->self, f->delta ...
 *	}
 *	flame_layout__free(l);
 */
#ifndef FLAMEKIT_WRITERS_FLAME_LAYOUT_H
#define FLAMEKIT_WRITERS_FLAME_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../profile/profile.h"

#define FLAME_LAYOUT_ROOT UINT32_MAX

struct flame_layout_options {
	bool differential;  /* a two-column profile: set delta and max_delta */
	bool chain;         /* flamegraph.pl's --colors chain: frames after a "--"
			       separator (the waker's) get "_[w]", and a stack without
			       one ends in a "--" frame; only meant without differential */
};

struct flame_frame {
	frame_id frame;     /* FLAME_LAYOUT_ROOT for the root */
	uint32_t depth;
	double start, end;  /* in values from the left edge; width end - start */
	double self;        /* values of the stacks that end here */
	double delta;       /* differential: after - before of the stack ending here */
};

struct flame_layout {
	struct flame_frame *frames;     /* `count` of them, parents first */
	size_t count;
	double total;                   /* the values laid out: the root's width */
	double max_delta;               /* differential: the largest |delta|, at least 1 */
	const struct profile *profile;  /* names frames[].frame */
	struct profile *chain;          /* owned: the copy `profile` points to with
					   `chain`, else NULL */
};

/* Lays out profile; options NULL means sorted, not differential, no chain.
 * Never fails (allocation failure exits, see lib/xalloc.h). A profile with
 * no values gives total 0 (and a root frame of width 0 if it has stacks). */
struct flame_layout *flame_layout__new(const struct profile *profile,
				       const struct flame_layout_options *options);
void flame_layout__free(struct flame_layout *l);

#endif
