/*
 * Folded stacks: "frame;frame;...;leaf COUNT" per line, root first. The
 * count is the last space-separated field, so frame names may hold spaces;
 * a differential profile (two columns) has two counts. Lines with the same
 * stack, in one file or several, are summed.
 */
#include "folded.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
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
