/*
 * What the readers need to reproduce the Perl collapsers' text handling:
 * Perl's \s \d \w on byte strings, spans of a line, and split() as Perl
 * does it. Header-only; every function is small and used on hot paths.
 */
#ifndef FLAMEKIT_READERS_PERL_TEXT_H
#define FLAMEKIT_READERS_PERL_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../lib/bytes.h"
#include "../lib/input.h"
#include "../lib/xalloc.h"

enum { CLASS_SPACE = 1, CLASS_DIGIT = 2, CLASS_WORD = 4 };
static const unsigned char perl_byte_class[256] = {
	['\t'] = CLASS_SPACE, ['\n'] = CLASS_SPACE, ['\v'] = CLASS_SPACE,
	['\f'] = CLASS_SPACE, ['\r'] = CLASS_SPACE, [' '] = CLASS_SPACE,
	['0' ... '9'] = CLASS_DIGIT | CLASS_WORD,
	['a' ... 'z'] = CLASS_WORD, ['A' ... 'Z'] = CLASS_WORD, ['_'] = CLASS_WORD,
};

static inline bool is_space(unsigned char c)
{
	return perl_byte_class[c] & CLASS_SPACE;
}
static inline bool is_digit(unsigned char c)
{
	return perl_byte_class[c] & CLASS_DIGIT;
}
static inline bool is_word(unsigned char c)
{
	return perl_byte_class[c] & CLASS_WORD;
}

/* A piece of a line: not NUL-terminated, not owned. */
struct span {
	const char *p;
	size_t len;
};

static inline bool span_eq(struct span s, const char *lit)
{
	size_t n = strlen(lit);
	return s.len == n && memcmp(s.p, lit, n) == 0;
}

/* memmem for the short needles and lines of profiler text: glibc's memmem
 * spends more on setting up than these searches take. */
static inline const char *find_bytes(const char *hay, size_t len, const char *needle, size_t nlen)
{
	if (nlen == 0)
		return hay;
	const char *end = hay + len;
	for (const char *p = hay; (size_t)(end - p) >= nlen; p++) {
		p = find_byte(p, (size_t)(end - p) - nlen + 1, needle[0]);
		if (!p)
			return NULL;
		if (memcmp(p + 1, needle + 1, nlen - 1) == 0)
			return p;
	}
	return NULL;
}

/* s/^\s+// */
static inline struct span trim_leading_space(struct span s)
{
	while (s.len > 0 && is_space((unsigned char)s.p[0])) {
		s.p++;
		s.len--;
	}
	return s;
}

/* /^\s*$/ */
static inline bool perl_blank_line(struct span line)
{
	return trim_leading_space(line).len == 0;
}

/* The count line of the stap and DTrace collapsers: /^\s*(\d+)+$/. */
static inline bool perl_count_line(struct span line, uint64_t *count)
{
	struct span s = trim_leading_space(line);
	if (s.len == 0)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < s.len; i++) {
		if (!is_digit((unsigned char)s.p[i]))
			return false;
		v = v * 10 + (uint64_t)(s.p[i] - '0');
	}
	*count = v;
	return true;
}

/* Cuts the next line from *p (up to end) for a probe; false at the end. A
 * last line cut short by the probe's window is not returned. */
static inline bool next_head_line(const char **p, const char *end, struct span *line)
{
	if (*p >= end)
		return false;
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	if (!nl)
		return false;
	*line = (struct span){ *p, (size_t)(nl - *p) };
	*p = nl + 1;
	return true;
}

/*
 * Several inputs read as one stream of lines, as Perl's <> reads its files:
 *
 *	struct line_stream ls = { inputs, count };
 *	struct span line;
 *	while (line_stream__next(&ls, &line))
 *		... line_stream__input(&ls) is the input it came from ...
 *	return ls.err;   // -1 after a read error (printed)
 */
struct line_stream {
	struct input *const *inputs;
	size_t count;
	size_t current;
	int err;
};

static inline bool line_stream__next(struct line_stream *ls, struct span *line)
{
	while (ls->current < ls->count && !ls->err) {
		int r = input__next_line(ls->inputs[ls->current], &line->p, &line->len);
		if (r > 0)
			return true;
		if (r < 0)
			ls->err = -1;
		else
			ls->current++;
	}
	return false;
}

static inline struct input *line_stream__input(const struct line_stream *ls)
{
	return ls->inputs[ls->current < ls->count ? ls->current : ls->count - 1];
}

/* A reusable list of spans. */
struct spans {
	struct span *v;
	size_t n, cap;
};

/*
 * split /SEP/, $s — as Perl splits: a leading empty piece is kept, trailing
 * empty pieces are dropped (so "" and "->" give no pieces at all).
 */
static inline void perl_split(struct spans *out, struct span s, const char *sep)
{
	size_t seplen = strlen(sep);
	const char *p = s.p, *end = s.p + s.len;
	out->n = 0;
	for (;;) {
		const char *hit = find_bytes(p, (size_t)(end - p), sep, seplen);
		const char *stop = hit ? hit : end;
		out->v = fk_grow(out->v, &out->cap, out->n + 1, sizeof(*out->v));
		out->v[out->n++] = (struct span){ p, (size_t)(stop - p) };
		if (!hit)
			break;
		p = hit + seplen;
	}
	while (out->n > 0 && out->v[out->n - 1].len == 0)
		out->n--;
}

#endif
