/* libFuzzer target: the pprof reader (gzip or plain profile.proto, through
 * lib/protobuf's decoder; and the input as the pprof writer's gzip of
 * indexed parts, lib/gzip), then every writer of the interchange formats:
 * pprof, speedscope and OTLP. What the pprof writer makes of a profile read
 * must read back as the same profile (the same folded stacks, with time
 * slices), its first sample type being the values as they were (a count of
 * samples with a period gets a second type, the one pprof shows by
 * default): a difference aborts, as a crash would. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/lib/buf.h"
#include "../../src/lib/gzip.h"
#include "../../src/profile/pprof_names.h"
#include "../../src/readers/pprof.h"
#include "../../src/writers/folded.h"
#include "../../src/writers/otlp.h"
#include "../../src/writers/pprof.h"
#include "../../src/writers/speedscope.h"

/* The profile's timed folded stacks (or folded, without time), in memory. */
static char *folded_text(const struct profile *p, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	if (profile__time(p)->slice_ns)
		timed_writer__write(p, f, NULL);
	else
		folded_writer__write(p, f, NULL);
	fclose(f);
	return text;
}

/* pprof holds int64: a sum past it cannot come back the same */
static bool fits_int64(const struct profile *p)
{
	for (size_t i = 0; i < profile__size(p); i++) {
		struct profile_stack s;
		profile__stack(p, i, &s);
		if (s.values[0].integer > INT64_MAX)
			return false;
	}
	return true;
}

static struct profile *read_pprof(const void *data, size_t size, const char *sample_type)
{
	struct input *in = input__from_memory(data, size, "fuzz");
	struct profile *p = profile__new(1, PROFILE_INTEGER);
	struct pprof_read_options options = { .sample_type = sample_type };
	struct read_context ctx = { .options = &options };
	if (pprof_reader__read(&ctx, &in, 1, p) < 0) {
		profile__free(p);
		p = NULL;
	}
	read_context__release(&ctx);
	input__close(in);
	return p;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	pprof_reader__probe((const char *)data, size < PROBE_BYTES ? size : PROBE_BYTES);
	char *text;
	size_t text_len;
	if (gzip__inflate_indexed(data, size, &text, &text_len) == 0)
		free(text);
	struct profile *p = read_pprof(data, size, NULL);
	if (!p)
		return 0;
	speedscope_writer__write(p, sink, NULL);
	otlp_writer__write(p, sink, NULL);
	struct buf encoded = BUF_INIT;
	if (pprof__encode(p, &encoded) == 0 && fits_int64(p)) {
		struct sample_types types;
		pprof_names__sample_types(p, &types);
		struct profile *back = read_pprof(encoded.data, encoded.len, types.types[0].type);
		if (!back) {
			fprintf(stderr, "fuzz: the pprof written does not read back\n");
			abort();
		}
		size_t len1, len2;
		char *one = folded_text(p, &len1), *two = folded_text(back, &len2);
		if (len1 != len2 || memcmp(one, two, len1) != 0) {
			fprintf(stderr, "fuzz: read back as another profile:\n%.*s\n---\n%.*s\n",
				(int)len1, one, (int)len2, two);
			abort();
		}
		free(one);
		free(two);
		profile__free(back);
		/* the file the writer makes: its parts inflate to the message */
		char *file = NULL;
		size_t file_len = 0;
		FILE *f = open_memstream(&file, &file_len);
		int written = pprof_writer__write(p, f, NULL);
		fclose(f);
		if (written < 0 || gzip__inflate_indexed(file, file_len, &text, &text_len) != 0 ||
		    text_len != encoded.len || memcmp(text, encoded.data, text_len) != 0) {
			fprintf(stderr, "fuzz: the pprof file's parts do not inflate to its message\n");
			abort();
		}
		free(text);
		free(file);
	}
	buf__free(&encoded);
	profile__free(p);
	return 0;
}
