#include "reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/error.h"
#include "../lib/xalloc.h"
#include "bpftrace.h"
#include "dtrace.h"
#include "folded.h"
#include "perf.h"
#include "perf_folded.h"
#include "stap.h"

const struct reader readers[] = {
	{ "perf", "perf script text (perf record -g; perf script)", perf_reader__read },
	{ "perf-folded", "perf report -g folded output", perf_folded_reader__read },
	{ "stap", "SystemTap print_backtrace()/print_ubacktrace() aggregations", stap_reader__read },
	{ "dtrace", "DTrace ustack()/stack() aggregations", dtrace_reader__read },
	{ "bpftrace", "bpftrace maps keyed by kstack, ustack and comm", bpftrace_reader__read },
	{ "folded", "folded stacks (frame;frame;... COUNT), summed", folded_reader__read },
	{ NULL, NULL, NULL },
};

const struct reader *reader__find(const char *name)
{
	for (const struct reader *r = readers; r->name; r++)
		if (strcmp(r->name, name) == 0)
			return r;
	return NULL;
}

/* Enough to see the pattern of a bad input without flooding the terminal. */
#define BAD_LINES_SHOWN 5

void read_context__bad_line(struct read_context *ctx, const struct input *in,
			    const char *line, size_t len, const char *expected)
{
	read_context__bad_line_at(ctx, input__name(in), input__line_number(in), line, len,
				  expected);
}

void read_context__bad_line_at(struct read_context *ctx, const char *input_name,
			       uint64_t line_number, const char *line, size_t len,
			       const char *expected)
{
	ctx->bad_lines++;
	if (ctx->bad_lines == 1) {
		ctx->first_bad_input = fk_strdup(input_name);
		ctx->first_bad_line = line_number;
	}
	if (ctx->perl_mode || ctx->bad_lines > BAD_LINES_SHOWN)
		return;
	char quoted[120];
	error("%s:%llu: expected %s, got \"%s\"", input_name, (unsigned long long)line_number,
	      expected, quote_for_message(quoted, sizeof(quoted), line, len));
}

void read_context__summary(const struct read_context *ctx)
{
	if (ctx->perl_mode || ctx->bad_lines == 0)
		return;
	error("skipped %llu line%s that could not be parsed (first at %s:%llu)",
	      (unsigned long long)ctx->bad_lines, ctx->bad_lines == 1 ? "" : "s",
	      ctx->first_bad_input, (unsigned long long)ctx->first_bad_line);
}

void read_context__release(struct read_context *ctx)
{
	free(ctx->first_bad_input);
	ctx->first_bad_input = NULL;
}
