/*
 * Whether an input is in the format a reader expects, judged in one place
 * for every reader and command: before reading, on its first bytes (binary
 * is no reader's text); after reading, on how many of its lines the reader
 * could not parse, which the readers report here. Not in Perl mode: the
 * personalities do what the Perl tools do with any input.
 *
 * A part of a parallel read reports into a context of its own that keeps
 * what it is told; the parallel reader replays it into the whole read's
 * context once the parts before it are done, so the tallies, the messages
 * kept and what is printed come in the order a serial read makes them.
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

/*
 * What a part of a parallel read reported, in the order it came, until
 * read_context__replay() gives it to the whole read's context. Line numbers
 * are the part's own. Bad lines past the few the whole read shows are only
 * counted: a bad file must not be kept in memory.
 */
enum kept_kind { KEPT_BAD_LINE, KEPT_TEXT, KEPT_TEXT_ONCE, KEPT_PERL_WARNING };

struct kept_message {
	enum kept_kind kind;
	uint64_t line;       /* bad lines and Perl warnings */
	size_t offset, len;  /* the bytes, in text */
	const void *what;    /* what a bad line expected; where a warning is from;
				a message printed once: its tag */
};

struct kept_messages {
	struct buf text;
	struct kept_message *v;
	size_t count, cap;
	uint64_t bad_lines_kept, bad_lines_counted;
};

static void keep(struct kept_messages *k, enum kept_kind kind, uint64_t line, const char *text,
		 size_t len, const void *what)
{
	k->v = fk_grow(k->v, &k->cap, k->count + 1, sizeof(*k->v));
	k->v[k->count++] = (struct kept_message){ kind, line, k->text.len, len, what };
	buf__append(&k->text, text, len);
}

static void bad_line_at(struct read_context *ctx, const struct input *in, uint64_t line_number,
			const char *line, size_t len, const char *expected)
{
	if (ctx->kept) {
		struct kept_messages *k = ctx->kept;
		if (k->bad_lines_kept == BAD_LINES_SHOWN) {
			k->bad_lines_counted++;
			return;
		}
		k->bad_lines_kept++;
		keep(k, KEPT_BAD_LINE, line_number, line, len, expected);
		return;
	}
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

void read_context__bad_line(struct read_context *ctx, const struct input *in,
			    const char *line, size_t len, const char *expected)
{
	bad_line_at(ctx, in, input__line_number(in), line, len, expected);
}

/* n more bad lines of `in`, without their text. */
static void count_bad_lines(struct read_context *ctx, const struct input *in, uint64_t n)
{
	if (n == 0)
		return;
	if (ctx->kept) {
		ctx->kept->bad_lines_counted += n;
		return;
	}
	tally_of(ctx, in)->count += n;
	ctx->bad_lines += n;
}

void read_context__print(struct read_context *ctx, const char *text, size_t len)
{
	if (ctx->kept)
		keep(ctx->kept, KEPT_TEXT, 0, text, len, NULL);
	else
		fwrite(text, 1, len, stderr);
}

void read_context__print_once(struct read_context *ctx, const void *tag, const char *text,
			      size_t len)
{
	if (ctx->kept) {
		keep(ctx->kept, KEPT_TEXT_ONCE, 0, text, len, tag);
		return;
	}
	for (size_t i = 0; i < ctx->printed_once_count; i++)
		if (ctx->printed_once[i] == tag)
			return;
	ctx->printed_once = fk_grow(ctx->printed_once, &ctx->printed_once_cap,
				    ctx->printed_once_count + 1, sizeof(*ctx->printed_once));
	ctx->printed_once[ctx->printed_once_count++] = tag;
	fwrite(text, 1, len, stderr);
}

static void perl_warning_at(struct read_context *ctx, uint64_t line_number, const char *text,
			    size_t len, const char *where)
{
	if (ctx->kept) {
		keep(ctx->kept, KEPT_PERL_WARNING, line_number, text, len, where);
		return;
	}
	fwrite(text, 1, len, stderr);
	fprintf(stderr, " at %s, <> line %llu.\n", where, (unsigned long long)line_number);
}

void read_context__perl_warning(struct read_context *ctx, const struct input *in,
				const char *text, size_t len, const char *where)
{
	perl_warning_at(ctx, input__line_number(in), text, len, where);
}

void read_context__init_part(struct read_context *part, const struct read_context *whole)
{
	*part = (struct read_context){
		.options = whole->options,
		.perl_mode = whole->perl_mode,
		.jobs = whole->jobs,
		.slice_ns = whole->slice_ns,
		.kept = fk_calloc(1, sizeof(*part->kept)),
	};
}

void read_context__replay(struct read_context *whole, struct read_context *part,
			  const struct input *file, uint64_t line_offset)
{
	struct kept_messages *k = part->kept;
	if (!k)
		return;
	for (size_t i = 0; i < k->count; i++) {
		const struct kept_message *m = &k->v[i];
		const char *text = k->text.data + m->offset;
		switch (m->kind) {
		case KEPT_BAD_LINE:
			bad_line_at(whole, file, line_offset + m->line, text, m->len, m->what);
			break;
		case KEPT_TEXT:
			read_context__print(whole, text, m->len);
			break;
		case KEPT_TEXT_ONCE:
			read_context__print_once(whole, m->what, text, m->len);
			break;
		case KEPT_PERL_WARNING:
			perl_warning_at(whole, line_offset + m->line, text, m->len, m->what);
			break;
		}
	}
	count_bad_lines(whole, file, k->bad_lines_counted);
	k->count = 0;
	k->bad_lines_kept = k->bad_lines_counted = 0;
	buf__reset(&k->text);
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
	free(ctx->printed_once);
	ctx->printed_once = NULL;
	ctx->printed_once_count = ctx->printed_once_cap = 0;
	if (ctx->kept) {
		buf__free(&ctx->kept->text);
		free(ctx->kept->v);
		free(ctx->kept);
		ctx->kept = NULL;
	}
}
