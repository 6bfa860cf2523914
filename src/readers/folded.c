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
	size_t n = *len, i = n;
	while (i > 0 && !is_perl_space(s[i - 1]))
		i--;
	if (i == 0 || i == n)
		return false;
	size_t digits = i;
	while (digits < n && s[digits] >= '0' && s[digits] <= '9')
		digits++;
	if (digits == i)
		return false;
	if (digits < n) {
		if (s[digits] != '.')
			return false;
		for (size_t k = digits + 1; k < n; k++)
			if (s[k] < '0' || s[k] > '9')
				return false;
	}
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
	frame_id *frames;
	size_t frames_cap;
	frame_id *previous;         /* keep_order: the last line's stack */
	size_t previous_cap;
	uint32_t previous_depth;
	uint32_t slice;
	bool have_previous;
};

/* Perl's split(";", $stack): empty fields kept, trailing ones dropped. */
static void perl_trim_trailing(const char *stack, size_t *len)
{
	while (*len > 0 && stack[*len - 1] == ';')
		(*len)--;
}

static void reverse_frames(frame_id *frames, uint32_t depth)
{
	for (uint32_t i = 0, j = depth; i + 1 < j; i++, j--) {
		frame_id t = frames[i];
		frames[i] = frames[j - 1];
		frames[j - 1] = t;
	}
}

/* keep_order: a new slice whenever the stack differs from the line before. */
static uint32_t order_slice(struct read_state *st, const frame_id *frames, uint32_t depth)
{
	if (st->have_previous && depth == st->previous_depth &&
	    memcmp(frames, st->previous, depth * sizeof(frame_id)) == 0)
		return st->slice;
	if (st->have_previous)
		st->slice++;
	st->previous = fk_grow(st->previous, &st->previous_cap, depth + 1, sizeof(frame_id));
	memcpy(st->previous, frames, depth * sizeof(frame_id));
	st->previous_depth = depth;
	st->have_previous = true;
	return st->slice;
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
		if (o->perl_line_rule)
			perl_trim_trailing(line, &stack_len);
		uint32_t depth = 0;
		size_t start = 0;
		for (size_t i = 0; i <= stack_len && (stack_len > 0 || !o->perl_line_rule); i++) {
			if (i < stack_len && line[i] != ';')
				continue;
			st->frames = fk_grow(st->frames, &st->frames_cap, depth + 1, sizeof(frame_id));
			st->frames[depth++] = profile__intern(profile, line + start, i - start);
			start = i + 1;
		}
		if (o->reverse)
			reverse_frames(st->frames, depth);
		uint32_t slice = o->keep_order ? order_slice(st, st->frames, depth) : 0;
		profile__add(profile, st->frames, depth, slice, values);
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
	free(st.previous);
	return err;
}
