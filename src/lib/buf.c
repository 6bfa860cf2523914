#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void buf__reserve(struct buf *b, size_t extra)
{
	b->data = fk_grow(b->data, &b->cap, b->len + extra + 1, 1);
}

void buf__append_slow(struct buf *b, const void *data, size_t len)
{
	buf__reserve(b, len);
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void buf__append_char(struct buf *b, char c)
{
	buf__append(b, &c, 1);
}

void buf__printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf__vprintf(b, fmt, ap);
	va_end(ap);
}

void buf__vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	buf__reserve(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void buf__reset(struct buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

void buf__free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
