/* libFuzzer target: the perf script reader, in flamekit and Perl modes,
 * with the option sets that change its paths (--timeline too), then the
 * folded writer, or the timed one for a timeline. */
#include <stdio.h>
#include <stdlib.h>

#include "../../src/readers/perf.h"
#include "../../src/writers/folded.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	struct perf_read_options opt = { 0 };
	if (size > 0) {
		/* the first byte picks the options */
		unsigned char bits = data[0];
		opt.include_pid = bits & 1;
		opt.include_tid = bits & 2;
		opt.annotate_kernel = bits & 4;
		opt.annotate_jit = bits & 8;
		opt.include_addrs = bits & 16;
		opt.srcline = bits & 32;
		opt.event_filter = (bits & 64) ? "cycles" : NULL;
	}
	/* the second byte's bit 0 picks the mode, bits 1-2 the weight, bits 3-4
	 * a timeline (flamekit mode only, as the command line allows) */
	uint64_t slice_ns = 0;
	if (size > 1) {
		opt.weight = (enum perf_weight)(((unsigned)data[1] >> 1 & 3) % 3);
		static const uint64_t slices[] = { 0, 1000, 20000000, 3600000000000ull };
		if (!(data[1] & 1))
			slice_ns = slices[data[1] >> 3 & 3];
	}
	struct input *in = input__from_memory(data, size, "fuzz");
	struct profile *p = profile__new(1, PROFILE_INTEGER);
	struct read_context ctx = { .options = &opt, .perl_mode = size > 1 && (data[1] & 1),
				    .slice_ns = slice_ns };
	if (perf_reader__read(&ctx, &in, 1, p) == 0)
		(slice_ns ? timed_writer__write : folded_writer__write)(p, sink, NULL);
	read_context__release(&ctx);
	profile__free(p);
	input__close(in);
	return 0;
}
