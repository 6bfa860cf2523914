/*
 * Builds one stack the way the Perl collapsers do: frames arrive leaf first
 * (`unshift @stack, @group`), in groups whose own order is kept ("a->b"
 * unshifts a then b; "x;y" splits into x then y). Frames are interned in the
 * profile as they come.
 *
 *	stack_builder__group_begin(&sb);
 *	stack_builder__add(&sb, "a", 1); stack_builder__add(&sb, "b", 1);
 *	stack_builder__group_end(&sb);            // one `unshift @stack, a, b`
 *	...
 *	stack_builder__commit(&sb, count);        // adds root-first, then clears
 *
 * Internally each group is kept reversed and the whole stack is reversed once
 * at commit, so building is linear. stack_builder__group_ids() exposes the
 * current group (as stored) for readers that cache it, and
 * stack_builder__add_ids() replays such a group.
 */
#ifndef FLAMEKIT_READERS_STACK_BUILDER_H
#define FLAMEKIT_READERS_STACK_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "../profile/profile.h"

struct stack_builder {
	struct profile *profile;
	frame_id *frames;
	size_t depth, cap;
	size_t group_start;
};

void stack_builder__init(struct stack_builder *sb, struct profile *profile);
void stack_builder__release(struct stack_builder *sb);

static inline void stack_builder__group_begin(struct stack_builder *sb)
{
	sb->group_start = sb->depth;
}
/* The next frame of the group. A name holding ';' is several frames (the
 * folded separator; the profile's names never hold it): "a;b;c" adds a, b
 * and c, keeping empty names, so the stack prints as the same folded line. */
void stack_builder__add(struct stack_builder *sb, const char *name, size_t len);
void stack_builder__group_end(struct stack_builder *sb);

/* The group just ended, as stored (for a cache), and its replay. */
const frame_id *stack_builder__group_ids(const struct stack_builder *sb, size_t *count);
void stack_builder__add_ids(struct stack_builder *sb, const frame_id *ids, size_t count);

/* A whole group at once: `unshift @stack, split(/;/, s)`. */
void stack_builder__unshift(struct stack_builder *sb, const char *s, size_t len);
/* The frames of the group just ended are of this kind (profile.h): a
 * process name the reader unshifted as the root, say. */
void stack_builder__group_kind(struct stack_builder *sb, enum profile_frame_kind kind);

/* Adds the stack (root first) with one count, then clears it; returns the
 * profile entry it went to (a new one where the profile's order says). */
size_t stack_builder__commit(struct stack_builder *sb, uint64_t count);
/* The same under key (a time slice; NULL: slice 0, pid 0). */
size_t stack_builder__commit_keyed(struct stack_builder *sb, uint64_t count,
				   const struct profile_key *key);
static inline void stack_builder__clear(struct stack_builder *sb)
{
	sb->depth = sb->group_start = 0;
}

#endif
