#ifndef FLAMEKIT_WRITERS_FOLDED_H
#define FLAMEKIT_WRITERS_FOLDED_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/buf.h"
#include "writer.h"

/* How the Perl collapsers' personalities print; NULL options: sorted, plain. */
struct folded_write_options {
	bool perl_printf;      /* stackcollapse-stap.pl: each line is a printf format */
	const char *perl_tool; /* for perl_printf's warnings: "TOOL line N, <> line M." */
	unsigned perl_tool_line;
	uint64_t input_lines;
};

/* A value as folded lines print it: an integer's digits, or a decimal as
 * Perl prints a number. */
void folded_writer__append_value(struct buf *b, enum profile_value_type type,
				 union profile_value v);

/* "frame;frame;... COUNT\n" per stack (its entries under several keys,
 * time slices or processes, summed), in byte order of the lines, as
 * stackcollapse-perf.pl prints them (in the order added, for a profile that
 * keeps its order: stackcollapse-bpftrace.pl's map order). */
int folded_writer__write(const struct profile *profile, FILE *out,
			 const struct writer_options *options);

/* Timed folded stacks (readers/folded.h has the format): the header, then
 * "frame;...;leaf COUNT @SECONDS" per slice and stack, by slice, then in
 * the folded writer's order; one stack from several processes in a slice
 * is one line. A profile without time is an error (-1). */
int timed_writer__write(const struct profile *profile, FILE *out,
			const struct writer_options *options);

#endif
