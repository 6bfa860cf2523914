/* libFuzzer target: the timed folded reader (one and two columns, integer
 * and decimal values), then the timed and folded writers. */
#include <stdio.h>
#include <stdlib.h>

#include "../../src/readers/folded.h"
#include "../../src/writers/folded.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	unsigned columns = size > 0 && (data[0] & 1) ? 2 : 1;
	enum profile_value_type type = size > 0 && (data[0] & 2) ? PROFILE_DECIMAL : PROFILE_INTEGER;
	struct input *in = input__from_memory(data, size, "fuzz");
	struct profile *p = profile__new(columns, type);
	struct read_context ctx = { 0 };
	if (timed_reader__read(&ctx, &in, 1, p) == 0) {
		timed_writer__write(p, sink, NULL);
		folded_writer__write(p, sink, NULL);
	}
	read_context__release(&ctx);
	profile__free(p);
	input__close(in);
	return 0;
}
