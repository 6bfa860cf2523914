#include "folded.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/perl_number.h"
#include "../lib/xalloc.h"
#include "perl_printf.h"

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
		char text[PERL_NUMBER_SIZE];
		buf__append(b, text, perl_number__string(text, v.decimal));
	}
}

/* Runs the line in b from `start` through Perl's printf, warning as Perl does. */
static void apply_perl_printf(struct buf *b, size_t start, struct buf *scratch,
			      struct buf *warnings, const struct folded_write_options *o)
{
	buf__reset(scratch);
	buf__reset(warnings);
	perl_printf_noargs(scratch, warnings, b->data + start, b->len - start);
	b->len = start;
	buf__append(b, scratch->data, scratch->len);
	for (size_t at = 0; at < warnings->len;) {
		const char *nl = memchr(warnings->data + at, '\n', warnings->len - at);
		size_t n = (size_t)(nl - (warnings->data + at));
		fprintf(stderr, "%.*s at %s line %u, <> line %llu.\n", (int)n, warnings->data + at,
			o->perl_tool, o->perl_tool_line, (unsigned long long)o->input_lines);
		at += n + 1;
	}
}

int folded_writer__write(const struct profile *profile, FILE *out,
			 const struct writer_options *options)
{
	const struct folded_write_options *o = options ? options->format : NULL;
	struct buf scratch = BUF_INIT, warnings = BUF_INIT;
	size_t *order = profile__sorted(profile);
	const unsigned columns = profile__columns(profile);
	const enum profile_value_type type = profile__value_type(profile);
	struct buf b = BUF_INIT;
	buf__reserve(&b, 1 << 16);
	for (size_t i = 0; i < profile__size(profile); i++) {
		struct profile_stack s;
		size_t line_start = b.len;
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
		if (o && o->perl_printf)
			apply_perl_printf(&b, line_start, &scratch, &warnings, o);
		if (b.len >= (1 << 16)) {
			fwrite(b.data, 1, b.len, out);
			buf__reset(&b);
		}
	}
	fwrite(b.data, 1, b.len, out);
	buf__free(&b);
	buf__free(&scratch);
	buf__free(&warnings);
	free(order);
	return 0;
}
