/*
 * Whether an input is in the format a reader expects, judged in one place
 * for every reader and command: before reading, on its first bytes (binary
 * is no reader's text); after reading, on how many of its lines the reader
 * could not parse, which the readers report here. Not in Perl mode: the
 * personalities do what the Perl tools do with any input.
 */
#include "reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/error.h"
#include "../lib/xalloc.h"

/*
 * Binary: a NUL byte (profilers print names that come from C strings, so
 * their text never holds one), or more than one byte in CONTROL_SHARE that
 * is a control character other than whitespace: random bytes hold about
 * one in nine; text with a stray escape sequence stays far below.
 */
#define CONTROL_SHARE 16

static bool is_control_byte(unsigned char c)
{
	return (c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r') ||
	       c == 0x7f;
}

int reader__check_text(struct input *in, const char *expected)
{
	const char *head;
	size_t len;
	if (input__peek(in, PROBE_BYTES, &head, &len) < 0)
		return -1;
	const char *nul = memchr(head, '\0', len);
	size_t control = 0;
	for (size_t i = 0; i < len && !nul; i++)
		control += is_control_byte((unsigned char)head[i]);
	if (!nul && control * CONTROL_SHARE <= len)
		return 0;
	char seen[80];
	if (nul)
		snprintf(seen, sizeof(seen), "a NUL byte at offset %zu", (size_t)(nul - head));
	else
		snprintf(seen, sizeof(seen), "%zu control bytes in the first %zu", control, len);
	return error("%s: expected %s, got binary data (%s); give flamekit the text the profiler "
		     "prints", input__name(in), expected, seen);
}

/* The tally of `in`, made when its first bad line comes. */
static struct bad_line_tally *tally_of(struct read_context *ctx, const struct input *in)
{
	for (size_t i = ctx->tally_count; i-- > 0;)
		if (ctx->tallies[i].in == in)
			return &ctx->tallies[i];
	ctx->tallies = fk_grow(ctx->tallies, &ctx->tally_cap, ctx->tally_count + 1,
			       sizeof(*ctx->tallies));
	struct bad_line_tally *t = &ctx->tallies[ctx->tally_count++];
	*t = (struct bad_line_tally){ .in = in };
	return t;
}

void read_context__bad_line(struct read_context *ctx, const struct input *in,
			    const char *line, size_t len, const char *expected)
{
	read_context__bad_line_at(ctx, in, input__line_number(in), line, len, expected);
}

void read_context__bad_line_at(struct read_context *ctx, const struct input *in,
			       uint64_t line_number, const char *line, size_t len,
			       const char *expected)
{
	struct bad_line_tally *t = tally_of(ctx, in);
	ctx->bad_lines++;
	if (t->count++ == 0) {
		t->first_line = line_number;
		quote_for_message(t->first_quoted, sizeof(t->first_quoted), line, len);
	}
	if (ctx->perl_mode || ctx->shown_count == BAD_LINES_SHOWN)
		return;
	char quoted[120];
	struct buf message = BUF_INIT;
	buf__printf(&message, "%s:%llu: expected %s, got \"%s\"", input__name(in),
		    (unsigned long long)line_number, expected,
		    quote_for_message(quoted, sizeof(quoted), line, len));
	ctx->shown[ctx->shown_count++] = message.data;
}

void read_context__count_bad_lines(struct read_context *ctx, const struct input *in, uint64_t n)
{
	if (n == 0)
		return;
	tally_of(ctx, in)->count += n;
	ctx->bad_lines += n;
}

/* Most lines: more than two in three, so that a file that is partly right
 * (flamegraph.pl's own test has one with 4 bad lines of 7) is still read,
 * with warnings, while another format's text (nearly every line bad) or
 * noise is not. */
static bool most_lines_bad(uint64_t bad, uint64_t lines)
{
	return bad * 3 > lines * 2;
}

/* The one line that refuses the input of tally t. */
static int refuse(const struct bad_line_tally *t, uint64_t lines, const struct reader *reader,
		  bool no_stack)
{
	return error("%s: expected %s, got %s%llu of %llu lines that do not parse, the first at "
		     "line %llu: \"%s\"; flamekit collapse --help lists the formats it reads",
		     input__name(t->in), reader->summary, no_stack ? "no stack, and " : "",
		     (unsigned long long)t->count, (unsigned long long)lines,
		     (unsigned long long)t->first_line, t->first_quoted);
}

int read_context__finish(struct read_context *ctx, const struct reader *reader,
			 const struct profile *profile)
{
	if (ctx->perl_mode)
		return 0;
	bool no_stack = profile__size(profile) == 0;
	for (size_t i = 0; i < ctx->tally_count; i++) {
		const struct bad_line_tally *t = &ctx->tallies[i];
		uint64_t lines = input__line_number(t->in);
		if (lines < t->count)
			lines = t->count;
		bool most_bad = most_lines_bad(t->count, lines);
		/* no stack from any input: the first bad lines say best what it was */
		if (most_bad || (no_stack && i == 0))
			return refuse(t, lines, reader, !most_bad);
	}
	for (size_t i = 0; i < ctx->shown_count; i++)
		error("%s", ctx->shown[i]);
	if (ctx->bad_lines)
		error("skipped %llu line%s that could not be parsed (first at %s:%llu)",
		      (unsigned long long)ctx->bad_lines, ctx->bad_lines == 1 ? "" : "s",
		      input__name(ctx->tallies[0].in), (unsigned long long)ctx->tallies[0].first_line);
	return 0;
}

void read_context__release(struct read_context *ctx)
{
	for (size_t i = 0; i < ctx->shown_count; i++)
		free(ctx->shown[i]);
	ctx->shown_count = 0;
	free(ctx->tallies);
	ctx->tallies = NULL;
	ctx->tally_count = ctx->tally_cap = 0;
}
