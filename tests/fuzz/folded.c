/* libFuzzer target: the folded reader (one and two columns, integer and
 * decimal values), then the folded and html writers; an input that starts
 * with the timed folded header goes through the timed reader and the timed
 * writer too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/readers/folded.h"
#include "../../src/writers/folded.h"
#include "../../src/writers/html.h"

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
	bool timed = size >= sizeof(TIMED_FOLDED_HEADER) - 1 &&
		     memcmp(data, TIMED_FOLDED_HEADER, sizeof(TIMED_FOLDED_HEADER) - 1) == 0;
	if ((timed ? timed_reader__read : folded_reader__read)(&ctx, &in, 1, p) == 0) {
		if (timed)
			timed_writer__write(p, sink, NULL);
		folded_writer__write(p, sink, NULL);
		html_writer__write(p, sink, NULL);
	}
	read_context__release(&ctx);
	profile__free(p);
	input__close(in);
	return 0;
}
