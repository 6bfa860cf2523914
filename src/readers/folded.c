/*
 * Folded stacks: "frame;frame;...;leaf COUNT" per line, root first. The
 * count is the last space-separated field, so frame names may hold spaces;
 * a differential profile (two columns) has two counts. Lines with the same
 * stack, in one file or several, are summed.
 */
#include "folded.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/error.h"
#include "../lib/xalloc.h"

static bool is_perl_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/*
 * The Perl tools' rule, /^(.*)\s+?(\d+(?:\.\d*)?)$/: the count is what
 * follows the last whitespace character, digits with an optional decimal
 * part ("10", "10.", "10.5"); the stack is everything before that one
 * character, so "a  5" is the stack "a " and an empty stack is allowed.
 */
static bool perl_cut_value(const char *s, size_t *len, union profile_value *v)
{
	/* back over the count's characters only: a stack without a second
	 * count fails at its last frame's end, not after scanning it all */
	size_t n = *len, i = n;
	while (i > 0 && ((s[i - 1] >= '0' && s[i - 1] <= '9') || s[i - 1] == '.'))
		i--;
	if (i == 0 || i == n || !is_perl_space(s[i - 1]))
		return false;
	size_t digits = i;
	while (digits < n && s[digits] >= '0' && s[digits] <= '9')
		digits++;
	if (digits == i)
		return false;
	for (size_t k = digits + 1; k < n; k++)
		if (s[k] == '.')
			return false;  /* a second decimal point */
	char text[64];
	size_t tn = n - i < sizeof(text) - 1 ? n - i : sizeof(text) - 1;
	memcpy(text, s + i, tn);
	text[tn] = '\0';
	v->decimal = strtod(text, NULL);
	*len = i - 1;
	return true;
}

/* Parses the last space-separated field of s[0..*len) as a value and cuts
 * it (and its space) off. Returns false if it is not a count. */
static bool cut_value(const char *s, size_t *len, enum profile_value_type type,
		      union profile_value *v)
{
	const char *space = memrchr(s, ' ', *len);
	if (!space)
		return false;
	const char *num = space + 1, *end = s + *len;
	size_t n = (size_t)(end - num);
	if (n == 0 || n > 40)
		return false;
	char text[41];
	memcpy(text, num, n);
	text[n] = '\0';
	char *stop;
	errno = 0;
	if (type == PROFILE_INTEGER) {
		if (text[0] < '0' || text[0] > '9')
			return false;
		unsigned long long x = strtoull(text, &stop, 10);
		if (*stop || errno)
			return false;
		v->integer = x;
	} else {
		if (!((text[0] >= '0' && text[0] <= '9') || text[0] == '.'))
			return false;
		double x = strtod(text, &stop);
		if (*stop || errno)
			return false;
		v->decimal = x;
	}
	*len = (size_t)(space - s);
	return true;
}

/* Most lines "stack COUNT": a last field of digits after a space. */
int folded_reader__probe(const char *head, size_t len)
{
	const char *p = head, *end = head + len;
	unsigned good = 0, bad = 0, semicolons = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		union profile_value v;
		size_t stack_len = n;
		if (stack_len > 0 && p[stack_len - 1] == '\r')
			stack_len--;
		if (stack_len > 0) {
			if (cut_value(p, &stack_len, PROFILE_DECIMAL, &v) && stack_len > 0 && p[0] != '#') {
				good++;
				semicolons += memchr(p, ';', stack_len) != NULL;
			} else {
				bad++;
			}
		}
		p += n + 1;
	}
	if (good == 0 || bad > good / 10)
		return 0;
	return semicolons ? 80 : 55;
}

struct read_state {
	frame_id *frames;           /* the last stack's frames, in line order */
	size_t frames_cap;
	size_t *frame_ends;         /* where each of them ends in last_stack */
	size_t frame_ends_cap;
	struct buf last_stack;      /* the last line's stack text */
	frame_id *reversed;         /* --reverse: frames leaf first */
	size_t reversed_cap;
	uint32_t last_depth;
};

/* Perl's split(";", $stack): empty fields kept, trailing ones dropped. */
static void perl_trim_trailing(const char *stack, size_t *len)
{
	while (*len > 0 && stack[*len - 1] == ';')
		(*len)--;
}

/* The length of the common prefix of a and b, n bytes at most. */
static size_t common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0;
	while (i + 8 <= n) {
		uint64_t x, y;
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			break;
		i += 8;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/*
 * Splits stack[0..len) on ';' into st->frames. Input is mostly sorted, so a
 * line shares most frames with the one before: frames that end before the
 * first differing byte keep their ids, and only the rest are interned.
 */
static uint32_t split_frames(struct read_state *st, struct profile *profile, const char *stack,
			     size_t len, bool empty_is_no_frame)
{
	if (len == 0 && empty_is_no_frame) {
		buf__reset(&st->last_stack);
		st->last_depth = 0;
		return 0;
	}
	size_t shared = common_prefix(stack, st->last_stack.data ? st->last_stack.data : "",
				      len < st->last_stack.len ? len : st->last_stack.len);
	uint32_t depth = 0;
	while (depth < st->last_depth && st->frame_ends[depth] < shared)
		depth++;
	size_t start = depth ? st->frame_ends[depth - 1] + 1 : 0;
	for (;;) {
		const char *semicolon = memchr(stack + start, ';', len - start);
		size_t end = semicolon ? (size_t)(semicolon - stack) : len;
		st->frames = fk_grow(st->frames, &st->frames_cap, depth + 1, sizeof(frame_id));
		st->frame_ends = fk_grow(st->frame_ends, &st->frame_ends_cap, depth + 1,
					 sizeof(size_t));
		st->frames[depth] = profile__intern(profile, stack + start, end - start);
		st->frame_ends[depth++] = end;
		if (!semicolon)
			break;
		start = end + 1;
	}
	buf__reset(&st->last_stack);
	buf__append(&st->last_stack, stack, len);
	st->last_depth = depth;
	return depth;
}

static int read_one(struct read_context *ctx, struct input *in, struct profile *profile,
		    struct read_state *st)
{
	static const struct folded_read_options plain = { 0 };
	const struct folded_read_options *o = ctx->options ? ctx->options : &plain;
	const unsigned columns = profile__columns(profile);
	const enum profile_value_type type = profile__value_type(profile);
	const char *line;
	size_t len;
	int r;
	while ((r = input__next_line(in, &line, &len)) > 0) {
		size_t stack_len = len;
		union profile_value values[PROFILE_MAX_COLUMNS];
		bool ok = true;
		if (o->perl_line_rule) {
			ok = perl_cut_value(line, &stack_len, &values[columns - 1]);
			if (ok && columns == 2) {
				/* a second count makes the line differential */
				if (perl_cut_value(line, &stack_len, &values[0]))
					o->result->differential_lines++;
				else
					values[0] = values[1];
			}
		} else {
			if (stack_len > 0 && line[stack_len - 1] == '\r')
				stack_len--;
			if (stack_len == 0)
				continue;
			for (unsigned c = columns; c-- > 0 && ok;)
				ok = cut_value(line, &stack_len, type, &values[c]);
			ok = ok && stack_len > 0;
		}
		if (!ok) {
			read_context__bad_line(ctx, in, line, len,
					       o->perl_line_rule && columns == 2
						       ? "\"frame;frame;... COUNT\" or \"... BEFORE AFTER\""
					       : columns == 2 ? "\"frame;frame;... BEFORE AFTER\""
							      : "\"frame;frame;... COUNT\"");
			continue;
		}
		if (o->perl_line_rule && !o->keep_trailing_empty)
			perl_trim_trailing(line, &stack_len);
		uint32_t depth = split_frames(st, profile, line, stack_len, o->perl_line_rule);
		const frame_id *frames = st->frames;
		if (o->reverse) {
			st->reversed = fk_grow(st->reversed, &st->reversed_cap, depth + 1,
					       sizeof(frame_id));
			for (uint32_t k = 0; k < depth; k++)
				st->reversed[k] = st->frames[depth - 1 - k];
			frames = st->reversed;
		}
		profile__add(profile, frames, depth, NULL, values);
	}
	return r;
}

int folded_reader__read(struct read_context *ctx, struct input *const *inputs, size_t count,
			struct profile *profile)
{
	struct read_state st = { 0 };
	int err = 0;
	for (size_t i = 0; i < count && !err; i++)
		err = read_one(ctx, inputs[i], profile, &st);
	free(st.frames);
	free(st.frame_ends);
	free(st.reversed);
	buf__free(&st.last_stack);
	return err;
}

/* --- timed folded (see folded.h) ---------------------------------------- */

/* Parses a decimal "12.340" (digits, an optional fraction) into *out. */
static bool parse_decimal(const char *s, size_t n, double *out)
{
	char text[48];
	if (n == 0 || n >= sizeof(text) || s[0] < '0' || s[0] > '9')
		return false;
	memcpy(text, s, n);
	text[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (!((text[i] >= '0' && text[i] <= '9') || text[i] == '.'))
			return false;
	char *stop;
	errno = 0;
	*out = strtod(text, &stop);
	return !*stop && !errno && isfinite(*out);
}

/* The header's "slice_ms=20 start_ns=N" into *time; false if it is not one. */
static bool parse_timed_header(const char *line, size_t len, struct profile_time *time)
{
	size_t n = sizeof(TIMED_FOLDED_HEADER) - 1;
	if (len < n || memcmp(line, TIMED_FOLDED_HEADER, n) != 0)
		return false;
	*time = (struct profile_time){ 0 };
	const char *p = line + n, *end = line + len;
	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		const char *word = p;
		while (p < end && *p != ' ')
			p++;
		size_t wn = (size_t)(p - word);
		double ms;
		if (wn > 9 && memcmp(word, "slice_ms=", 9) == 0 && parse_decimal(word + 9, wn - 9, &ms)) {
			if (ms <= 0 || ms > 1e9)
				return false;
			time->slice_ns = (uint64_t)llround(ms * 1e6);
		} else if (wn > 9 && memcmp(word, "start_ns=", 9) == 0) {
			char text[24];
			char *stop;
			if (wn - 9 >= sizeof(text) || word[9] < '0' || word[9] > '9')
				return false;
			memcpy(text, word + 9, wn - 9);
			text[wn - 9] = '\0';
			errno = 0;
			time->start_ns = strtoull(text, &stop, 10);
			if (*stop || errno)
				return false;
		} else if (wn) {
			return false;
		}
	}
	return time->slice_ns > 0;
}

/* The first line is the header. */
int timed_reader__probe(const char *head, size_t len)
{
	const char *nl = memchr(head, '\n', len);
	size_t n = nl ? (size_t)(nl - head) : len;
	struct profile_time time;
	if (n > 0 && head[n - 1] == '\r')
		n--;
	return parse_timed_header(head, n, &time) ? 100 : 0;
}

/* Cuts " @SECONDS" off line[0..*len) and gives its slice. */
static bool cut_time(const char *line, size_t *len, const struct profile_time *time,
		     uint32_t *slice)
{
	const char *at = memrchr(line, '@', *len);
	double seconds;
	if (!at || at == line || at[-1] != ' ' ||
	    !parse_decimal(at + 1, (size_t)(line + *len - at - 1), &seconds))
		return false;
	double s = round(seconds * 1e9 / (double)time->slice_ns);
	if (s < 0 || s > UINT32_MAX)
		return false;
	*slice = (uint32_t)s;
	*len = (size_t)(at - line) - 1;
	return true;
}

static int read_one_timed(struct read_context *ctx, struct input *in, struct profile *profile,
			  struct read_state *st, bool *timed)
{
	const unsigned columns = profile__columns(profile);
	const enum profile_value_type type = profile__value_type(profile);
	const char *line;
	size_t len;
	int r;
	struct profile_time time;
	if ((r = input__next_line(in, &line, &len)) <= 0)
		return r;
	size_t n = len > 0 && line[len - 1] == '\r' ? len - 1 : len;
	if (!parse_timed_header(line, n, &time)) {
		read_context__bad_line(ctx, in, line, len,
				       "a first line \"" TIMED_FOLDED_HEADER " slice_ms=MS\"");
		return 0;
	}
	const struct profile_time *had = profile__time(profile);
	if (*timed && (had->slice_ns != time.slice_ns || had->start_ns != time.start_ns)) {
		error("%s: its slices (slice_ms=%g start_ns=%" PRIu64 ") are not those of the "
		      "inputs before it (slice_ms=%g start_ns=%" PRIu64 "); read it apart",
		      input__name(in), (double)time.slice_ns / 1e6, time.start_ns,
		      (double)had->slice_ns / 1e6, had->start_ns);
		return -1;
	}
	profile__set_time(profile, &time);
	*timed = true;
	while ((r = input__next_line(in, &line, &len)) > 0) {
		size_t stack_len = len;
		union profile_value values[PROFILE_MAX_COLUMNS];
		struct profile_key key = { 0 };
		if (stack_len > 0 && line[stack_len - 1] == '\r')
			stack_len--;
		if (stack_len == 0)
			continue;
		bool ok = cut_time(line, &stack_len, &time, &key.slice);
		for (unsigned c = columns; c-- > 0 && ok;)
			ok = cut_value(line, &stack_len, type, &values[c]);
		if (!ok || stack_len == 0) {
			read_context__bad_line(ctx, in, line, len,
					       columns == 2 ? "\"frame;frame;... BEFORE AFTER @SECONDS\""
							    : "\"frame;frame;... COUNT @SECONDS\"");
			continue;
		}
		uint32_t depth = split_frames(st, profile, line, stack_len, false);
		profile__add(profile, st->frames, depth, &key, values);
	}
	return r;
}

int timed_reader__read(struct read_context *ctx, struct input *const *inputs, size_t count,
		       struct profile *profile)
{
	struct read_state st = { 0 };
	bool timed = false;
	int err = 0;
	for (size_t i = 0; i < count && !err; i++)
		err = read_one_timed(ctx, inputs[i], profile, &st, &timed);
	free(st.frames);
	free(st.frame_ends);
	free(st.reversed);
	buf__free(&st.last_stack);
	return err;
}
