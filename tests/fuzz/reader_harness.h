/*
 * The body of a reader's fuzz target: the input is read in flamekit mode or
 * Perl mode (its first byte decides), then written as folded text, sorted
 * and in insertion order. FUZZ_READER names the reader function.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../src/readers/reader.h"
#include "../../src/writers/folded.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	struct input *in = input__from_memory(data, size, "fuzz");
	struct profile *p = profile__new(1, PROFILE_INTEGER);
	struct read_context ctx = { .perl_mode = size > 0 && (data[0] & 1) };
	if (size > 0 && (data[0] & 2))
		profile__set_order(p, data[0] & 8 ? PROFILE_KEEP_EACH : PROFILE_KEEP_RUNS);
	struct folded_write_options write = { .perl_printf = size > 0 && (data[0] & 4),
					      .perl_tool = "fuzz", .perl_tool_line = 1 };
	if (FUZZ_READER(&ctx, &in, 1, p) == 0)
		folded_writer__write(p, sink, &(struct writer_options){ .format = &write });
	read_context__release(&ctx);
	profile__free(p);
	input__close(in);
	return 0;
}
