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

static int read_one(struct read_context *ctx, struct input *in, struct profile *profile,
		    frame_id **frames, size_t *frames_cap)
{
	const unsigned columns = profile__columns(profile);
	const enum profile_value_type type = profile__value_type(profile);
	const char *line;
	size_t len;
	int r;
	while ((r = input__next_line(in, &line, &len)) > 0) {
		size_t stack_len = len;
		if (stack_len > 0 && line[stack_len - 1] == '\r')
			stack_len--;
		if (stack_len == 0)
			continue;
		union profile_value values[PROFILE_MAX_COLUMNS];
		bool ok = true;
		for (unsigned c = columns; c-- > 0 && ok;)
			ok = cut_value(line, &stack_len, type, &values[c]);
		if (!ok || stack_len == 0) {
			read_context__bad_line(ctx, in, line, len,
					       columns == 2 ? "\"frame;frame;... BEFORE AFTER\""
							    : "\"frame;frame;... COUNT\"");
			continue;
		}
		size_t depth = 0, start = 0;
		for (size_t i = 0; i <= stack_len; i++) {
			if (i < stack_len && line[i] != ';')
				continue;
			*frames = fk_grow(*frames, frames_cap, depth + 1, sizeof(frame_id));
			(*frames)[depth++] = profile__intern(profile, line + start, i - start);
			start = i + 1;
		}
		profile__add(profile, *frames, (uint32_t)depth, 0, values);
	}
	return r;
}

int folded_reader__read(struct read_context *ctx, struct input *const *inputs, size_t count,
			struct profile *profile)
{
	frame_id *frames = NULL;
	size_t cap = 0;
	int err = 0;
	for (size_t i = 0; i < count && !err; i++)
		err = read_one(ctx, inputs[i], profile, &frames, &cap);
	free(frames);
	return err;
}
