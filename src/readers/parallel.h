/*
 * One reader loop for formats made of records that carry no state from one
 * to the next (a perf sample, an aggregation's stack ended by its count, a
 * bpftrace map entry): read serially, or, for one large plain file, in
 * parts on threads, with the result and the messages of the serial read.
 *
 * The reader describes how it reads in a struct parallel_ops and calls
 * parallel__read() in place of its own loop:
 *
 *	static const struct parallel_ops ops = {
 *		.boundary = after_count_line, .state_new = state_new,
 *		.read = read_stacks, .state_free = state_free,
 *	};
 *	return parallel__read(ctx, inputs, count, &ops, &reader, profile);
 *
 * When it reads in parts
 *	One input that is a plain file (input__plain_size()) of at least two
 *	parts of PARALLEL_MIN_PART_BYTES, ctx->jobs not 1 (0: one part per
 *	CPU; at most PARALLEL_MAX_PARTS), and ops->prepare, if any, agreeing.
 *	The file is cut into parts of near equal size, each starting on the
 *	line after a boundary line. Anything else (several inputs, stdin,
 *	gzip, a small file, no boundary near a cut) is read by one state
 *	straight into `profile`, the inputs in turn.
 *
 * What comes out is the serial read's
 *	- Each part reads into a profile of its own (profile__new_like(), so
 *	  with the result's order); they are merged into `profile` in input
 *	  order (profile__merge()), so its entries come as a serial read adds
 *	  them: summed, or for a profile that keeps its order, in input order.
 *	- What a part reports through its context (read_context__bad_line(),
 *	  __print(), __print_once(), __perl_warning()) and what error() and
 *	  warning() print on its thread is kept, and given to `ctx` in input
 *	  order once the parts before it are done, with line numbers counted
 *	  from the file's start; a message said once per stream comes once.
 *	- The first part that fails (read() returns -1) ends the read, as the
 *	  serial read stops at its first error: the messages of the parts
 *	  before it and its own up to its error come out, nothing of the parts
 *	  after it, and -1 is returned. That part is read again, alone, with
 *	  its lines numbered on from the lines before it, so that messages the
 *	  input formats itself ("FILE:LINE: line longer than ...") name the
 *	  file's line too.
 *
 * Ownership and threads
 *	parallel__read() owns the parts: their inputs (closed with
 *	input__close_part(), so input__line_number(inputs[0]) counts every
 *	line), contexts, profiles and states. `reader` is the caller's; the
 *	ops get it as they are: while parts read, read() may only look at it.
 *	Every callback but read() runs on the calling thread. read() of part 0
 *	runs there too, the others each on a thread of their own, all at once:
 *	a read() may touch its state, its input, the context and the profile
 *	its state was made with, and nothing else that is shared.
 */
#ifndef FLAMEKIT_READERS_PARALLEL_H
#define FLAMEKIT_READERS_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/input.h"
#include "../profile/profile.h"
#include "reader.h"

#define PARALLEL_MAX_PARTS 8
#define PARALLEL_MIN_PART_BYTES (32u << 20)

struct parallel_ops {
	/* True when nothing carries over past this line: a part may start on
	 * the next one. Called while the file is cut, before any read. */
	bool (*boundary)(const char *line, size_t len);
	/* Optional: called once before the file (a plain file of `size`
	 * bytes) is cut. It may scan the file (input__open_range) to set in
	 * *reader what every part must start from (perf: the first event type,
	 * which the serial read fixes); false reads serially after all. What
	 * it prints with error() is dropped: the read meets the same trouble
	 * and reports it in its place. */
	bool (*prepare)(void *reader, struct input *file, uint64_t size);
	/* A reading state that reads into `profile` and reports through `ctx`
	 * (both outlive it). part 0 is the serial read, or the part at the
	 * file's start (where a header is). */
	void *(*state_new)(void *reader, unsigned part, struct read_context *ctx,
			   struct profile *profile);
	/* Called once per state: reads the inputs to their end in turn, or
	 * until an error: 0, or -1 after printing it with error() (the input
	 * does). */
	int (*read)(void *state, struct input *const *inputs, size_t count);
	/* Frees a state; may first add what it counted to *reader. Called for
	 * every state made, failed or not; the parts' in input order, after
	 * their profiles are merged. */
	void (*state_free)(void *reader, void *state);
};

/* Reads inputs[0..count-1] into `profile` as described above. 0, or -1
 * after an error (printed). */
int parallel__read(struct read_context *ctx, struct input *const *inputs, size_t count,
		   const struct parallel_ops *ops, void *reader, struct profile *profile);

#endif
