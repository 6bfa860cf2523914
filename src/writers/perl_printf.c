#include "perl_printf.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Perl quotes an invalid directive with octal escapes for non-printables. */
static void quote_directive(struct buf *w, const char *s, size_t n)
{
	buf__append(w, "Invalid conversion in printf: \"", 31);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f)
			buf__append_char(w, (char)c);
		else
			buf__printf(w, "\\%03o", c);
	}
	buf__append(w, "\"\n", 2);
}

void perl_printf_noargs(struct buf *out, struct buf *warnings, const char *fmt, size_t len)
{
	for (size_t i = 0; i < len;) {
		if (fmt[i] != '%') {
			const char *next = memchr(fmt + i, '%', len - i);
			size_t n = next ? (size_t)(next - (fmt + i)) : len - i;
			buf__append(out, fmt + i, n);
			i += n;
			continue;
		}
		if (i + 1 < len && fmt[i + 1] == '%') {
			buf__append_char(out, '%');
			i += 2;
			continue;
		}
		/* %[N$][flags][v][width][.prec][size]conv */
		size_t j = i + 1;
		char flags[8];
		size_t nflags = 0;
		size_t k = j;
		while (k < len && is_digit(fmt[k]))
			k++;
		if (k > j && k < len && fmt[k] == '$')
			j = k + 1; /* an explicit argument index: missing all the same */
		while (j < len && strchr("-+ 0#", fmt[j]) && fmt[j]) {
			if (nflags < sizeof(flags) - 1)
				flags[nflags++] = fmt[j];
			j++;
		}
		flags[nflags] = '\0';
		bool vector = false;
		if (j < len && fmt[j] == 'v') {
			vector = true;
			j++;
		}
		int width = -1, precision = -1;
		if (j < len && fmt[j] == '*') {
			width = 0;
			j++;
		} else if (j < len && is_digit(fmt[j])) {
			width = 0;
			while (j < len && is_digit(fmt[j]))
				width = width < 100000 ? width * 10 + (fmt[j] - '0') : width, j++;
		}
		if (j < len && fmt[j] == '.') {
			j++;
			precision = 0;
			if (j < len && fmt[j] == '*')
				j++;
			else
				while (j < len && is_digit(fmt[j]))
					precision = precision < 100000 ? precision * 10 + (fmt[j] - '0')
								       : precision, j++;
		}
		while (j < len && strchr("hlqLVztj", fmt[j]) && fmt[j])
			j++;
		char conv = j < len ? fmt[j] : '\0';
		if (conv == '\0' || !strchr("csduoxXeEfFgGbBpniDUOaA", conv)) {
			/* invalid: printed as written, through the offending character */
			size_t end = j < len ? j + 1 : len;
			buf__append(out, fmt + i, end - i);
			quote_directive(warnings, fmt + i, end - i);
			i = end;
			continue;
		}
		buf__append(warnings, "Missing argument in printf\n", 27);
		i = j + 1;
		char spec[64];
		int w = width < 0 ? 0 : width, pr = precision;
		if (vector || conv == 'n')
			continue; /* a vector of nothing; %n writes nothing */
		if (strchr("eEfFgGaA", conv)) {
			if (pr >= 0)
				snprintf(spec, sizeof(spec), "%%%s*.*%c", flags, conv);
			else
				snprintf(spec, sizeof(spec), "%%%s*%c", flags, conv);
			char tmp[512];
			int n = pr >= 0 ? snprintf(tmp, sizeof(tmp), spec, w, pr, 0.0)
					: snprintf(tmp, sizeof(tmp), spec, w, 0.0);
			buf__append(out, tmp, n < 0 ? 0 : (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
		} else if (conv == 's' || conv == 'c') {
			bool left = strchr(flags, '-') != NULL;
			size_t body = conv == 'c' ? 1 : 0;
			size_t pad = (size_t)w > body ? (size_t)w - body : 0;
			bool zero = strchr(flags, '0') != NULL && !left;
			if (!left)
				for (size_t p = 0; p < pad; p++)
					buf__append_char(out, zero ? '0' : ' ');
			if (body)
				buf__append_char(out, '\0');
			if (left)
				for (size_t p = 0; p < pad; p++)
					buf__append_char(out, ' ');
		} else {
			/* integers: undef is 0; %b and %p print like %d of 0 */
			char c = strchr("dDiup", conv) || conv == 'b' || conv == 'B' ? 'd'
				 : conv == 'U' ? 'u' : conv == 'O' ? 'o' : conv;
			if (pr >= 0)
				snprintf(spec, sizeof(spec), "%%%s*.*l%c", flags, c);
			else
				snprintf(spec, sizeof(spec), "%%%s*l%c", flags, c);
			char tmp[512];
			int n = pr >= 0 ? snprintf(tmp, sizeof(tmp), spec, w, pr, 0L)
					: snprintf(tmp, sizeof(tmp), spec, w, 0L);
			buf__append(out, tmp, n < 0 ? 0 : (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
		}
	}
}
