/*
 * Reading one large plain file in parts, on threads.
 *
 * A part must start where the format carries no state from the lines before:
 * after a line for which the reader's boundary function says so (a blank
 * line for perf script, a count line for the aggregation formats...). Each
 * part is read into a profile of its own; the reader then merges the parts'
 * profiles, in order, into its result, and prints what each part kept to
 * say, in order too, so the output is the same as a serial read.
 *
 *	unsigned n = parallel__part_count(ctx->jobs, size);
 *	if (n > 1) {
 *		struct parallel_split split;
 *		parallel__split(file, size, n, is_boundary, &split);
 *		... set up split.count part structs, part i reading
 *		    input__open_range(file, split.bounds[i], split.bounds[i + 1]) ...
 *		parallel__run(split.count, read_part, parts, sizeof(parts[0]));
 *	}
 */
#ifndef FLAMEKIT_READERS_PARALLEL_H
#define FLAMEKIT_READERS_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/input.h"

#define PARALLEL_MAX_PARTS 8
#define PARALLEL_MIN_PART_BYTES (32u << 20)

/* True when the format carries no state past this line. */
typedef bool (*boundary_line_fn)(const char *line, size_t len);

struct parallel_split {
	unsigned count;
	uint64_t bounds[PARALLEL_MAX_PARTS + 1]; /* part i: [bounds[i], bounds[i + 1]) */
};

/* Parts for a file: `jobs` (0 = one per CPU), fewer for a small file; 1 = serial. */
unsigned parallel__part_count(unsigned jobs, uint64_t size);
/* Cuts the file into up to `parts` parts of near equal size, each starting
 * after a boundary line (fewer parts where none is found near a cut). */
void parallel__split(struct input *file, uint64_t size, unsigned parts,
		     boundary_line_fn is_boundary, struct parallel_split *out);
/* Calls read(&args[i]) for i in 0..count-1, each on a thread of its own
 * (part 0 on this one), and waits for them. -1 (printed) if a thread could
 * not start: then the parts' results must not be used. */
int parallel__run(unsigned count, void (*read)(void *arg), void *args, size_t arg_size);

#endif
