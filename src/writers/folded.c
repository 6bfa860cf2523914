#include "folded.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"

static void append_value(struct buf *b, enum profile_value_type type, union profile_value v)
{
	if (type == PROFILE_INTEGER) {
		char digits[24];
		size_t n = 0;
		uint64_t x = v.integer;
		do {
			digits[n++] = (char)('0' + x % 10);
			x /= 10;
		} while (x);
		buf__reserve(b, n);
		while (n)
			b->data[b->len++] = digits[--n];
		b->data[b->len] = '\0';
	} else {
		/* Perl prints numbers with %.15g */
		buf__printf(b, "%.15g", v.decimal);
	}
}

int folded_writer__write(const struct profile *profile, FILE *out, const void *options)
{
	(void)options;
	size_t *order = profile__sorted(profile);
	const unsigned columns = profile__columns(profile);
	const enum profile_value_type type = profile__value_type(profile);
	struct buf b = BUF_INIT;
	buf__reserve(&b, 1 << 16);
	for (size_t i = 0; i < profile__size(profile); i++) {
		struct profile_stack s;
		profile__stack(profile, order[i], &s);
		for (uint32_t d = 0; d < s.depth; d++) {
			size_t len;
			const char *name = profile__frame_name(profile, s.frames[d], &len);
			if (d)
				buf__append_char(&b, ';');
			buf__append(&b, name, len);
		}
		for (unsigned c = 0; c < columns; c++) {
			buf__append_char(&b, ' ');
			append_value(&b, type, s.values[c]);
		}
		buf__append_char(&b, '\n');
		if (b.len >= (1 << 16)) {
			fwrite(b.data, 1, b.len, out);
			buf__reset(&b);
		}
	}
	fwrite(b.data, 1, b.len, out);
	buf__free(&b);
	free(order);
	return 0;
}
