/*
 * A growable byte buffer.
 *
 * data is always NUL-terminated (one byte beyond len is reserved) so it can be
 * handed to functions that want a C string, but the contents may hold NULs:
 * use len, not strlen. data stays valid until the next call that appends or
 * reserves; buf__free() releases it and leaves an empty buffer.
 *
 *	struct buf b = BUF_INIT;
 *	buf__append(&b, "abc", 3);
 *	buf__printf(&b, " %d", 42);
 *	use(b.data, b.len);
 *	buf__free(&b);
 */
#ifndef FLAMEKIT_BUF_H
#define FLAMEKIT_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *data;
	size_t len;
	size_t cap;
};

#define BUF_INIT { NULL, 0, 0 }

#include <string.h>

void buf__reserve(struct buf *b, size_t extra);
void buf__append_slow(struct buf *b, const void *data, size_t len);

/* Inline when it fits: readers append on every line. */
static inline void buf__append(struct buf *b, const void *data, size_t len)
{
	if (b->len + len + 1 > b->cap) {
		buf__append_slow(b, data, len);
		return;
	}
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}
void buf__append_char(struct buf *b, char c);
void buf__printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf__vprintf(struct buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void buf__reset(struct buf *b); /* len = 0, keeps the memory */
void buf__free(struct buf *b);

#endif
