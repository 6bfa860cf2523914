#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"

static _Thread_local error_sink redirect_sink;
static _Thread_local void *redirect_arg;

void error__redirect(error_sink sink, void *arg)
{
	redirect_sink = sink;
	redirect_arg = arg;
}

void error__discard(void *unused, const char *message, size_t len)
{
	(void)unused, (void)message, (void)len;
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	if (redirect_sink) {
		struct buf message = BUF_INIT;
		buf__printf(&message, "flamekit: %s", prefix);
		buf__vprintf(&message, fmt, ap);
		buf__append_char(&message, '\n');
		redirect_sink(redirect_arg, message.data, message.len);
		buf__free(&message);
		return;
	}
	fprintf(stderr, "flamekit: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

char *quote_for_message(char *out, size_t out_size, const char *line, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];
		char piece[5];
		if (c >= 0x20 && c < 0x7f && c != '\\') {
			piece[0] = (char)c;
			piece[1] = '\0';
		} else {
			snprintf(piece, sizeof(piece), "\\x%02x", c);
		}
		size_t plen = strlen(piece);
		if (o + plen + 4 >= out_size) {
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		memcpy(out + o, piece, plen);
		o += plen;
	}
	out[o] = '\0';
	return out;
}
