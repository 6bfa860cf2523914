/*
 * The in-memory model of a profile: what every reader produces and every
 * writer consumes.
 *
 * A profile is a set of distinct stacks, each with its values. A stack is a
 * sequence of frame ids, root first; frame names are interned once, so
 * memory grows with the number of distinct frames and stacks, never with
 * the size of the input that was read.
 *
 * Frames
 *	profile__intern() returns the id of a name, adding it on first sight.
 *	Ids are dense (0, 1, 2, ...) and stable for the profile's lifetime; the
 *	name pointer from profile__frame_name() stays valid until the next
 *	profile__intern() (the name store may move) and is NUL-terminated, but
 *	names may contain NUL bytes: use the length. A name never contains ';'
 *	(the folded separator): readers split on it before interning, so a stack
 *	and its folded line correspond one to one.
 *
 * Values
 *	Each stack carries `columns` values: 1 for a plain profile, 2 for a
 *	differential one (before, after). Values are either all unsigned 64-bit
 *	integers (sample counts; the default) or all doubles (flamegraph.pl
 *	accepts counts like "10.5"); the type is fixed when the profile is made.
 *	Adding a stack that is already present sums the values (merge).
 *
 * Time slices
 *	A stack may be keyed by a slice number as well (a time view keys counts
 *	by sub-second slices). The same frames in two slices are two entries;
 *	profiles that do not use time pass slice 0 everywhere.
 *
 * Processes
 *	Likewise a stack may be keyed by the process it was sampled in (record
 *	lists processes apart in its report). Readers of text and everything
 *	else pass pid 0; a profile for folded output should too, or two
 *	processes' stacks print as two equal lines.
 *
 * Iteration
 *	Entries are numbered 0 .. profile__size()-1 in the order first added.
 *	profile__sorted() gives them in the byte order of their folded lines
 *	("a;b;c", as Perl's `sort keys` orders them), then by slice and pid:
 *
 *		size_t *order = profile__sorted(p);
 *		for (size_t i = 0; i < profile__size(p); i++) {
 *			struct profile_stack s;
 *			profile__stack(p, order[i], &s);
 *			... s.frames[0 .. s.depth-1], s.values[0 .. columns-1] ...
 *		}
 *		free(order);
 *
 *	A profile_stack's pointers stay valid until the next profile__add().
 */
#ifndef FLAMEKIT_PROFILE_H
#define FLAMEKIT_PROFILE_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t frame_id;

enum profile_value_type {
	PROFILE_INTEGER,  /* uint64_t sample counts */
	PROFILE_DECIMAL,  /* double, for fractional folded input */
};

#define PROFILE_MAX_COLUMNS 2

union profile_value {
	uint64_t integer;
	double decimal;
};

struct profile_stack {
	const frame_id *frames;       /* root first */
	uint32_t depth;
	uint32_t slice;
	uint32_t pid;
	const union profile_value *values; /* `columns` of them */
};

struct profile;

/* columns: 1 or 2. */
struct profile *profile__new(unsigned columns, enum profile_value_type type);
void profile__free(struct profile *p);

unsigned profile__columns(const struct profile *p);
enum profile_value_type profile__value_type(const struct profile *p);

frame_id profile__intern(struct profile *p, const char *name, size_t len);
const char *profile__frame_name(const struct profile *p, frame_id id, size_t *len);
size_t profile__frame_count(const struct profile *p);

/* Adds values (columns of them) to the stack frames[0..depth-1] in slice. */
void profile__add(struct profile *p, const frame_id *frames, uint32_t depth,
		  uint32_t slice, const union profile_value *values);
/* The same, returning the entry's index (for readers that remember it). */
size_t profile__add_indexed(struct profile *p, const frame_id *frames, uint32_t depth,
			    uint32_t slice, const union profile_value *values);
/* The same, keyed by a process id too. */
size_t profile__add_for_process(struct profile *p, const frame_id *frames, uint32_t depth,
				uint32_t slice, uint32_t pid, const union profile_value *values);
/* Adds values to entry `index` (as returned above). */
void profile__add_to_entry(struct profile *p, size_t index, const union profile_value *values);
/* The common case: one integer column, no slice. */
void profile__add_count(struct profile *p, const frame_id *frames, uint32_t depth,
			uint64_t count);

/* Adds every stack of src to dst (same columns and value type). */
void profile__merge(struct profile *dst, const struct profile *src);

size_t profile__size(const struct profile *p);
void profile__stack(const struct profile *p, size_t index, struct profile_stack *out);
/* Entry indexes in folded-line byte order, then slice, then pid. Caller frees. */
size_t *profile__sorted(const struct profile *p);

#endif
