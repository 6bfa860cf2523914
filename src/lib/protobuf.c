#include "protobuf.h"

#include <string.h>

/* --- encoding --------------------------------------------------------------- */

static size_t varint_size(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Writes v's varint at out (varint_size(v) bytes); returns the byte after it. */
static inline uint8_t *put_varint(uint8_t *out, uint64_t v)
{
	while (v >= 0x80) {
		*out++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*out++ = (uint8_t)v;
	return out;
}

void pb__fixed64(struct buf *b, uint32_t field, uint64_t v)
{
	uint8_t bytes[8];
	for (int i = 0; i < 8; i++)
		bytes[i] = (uint8_t)(v >> (8 * i));
	pb__tag(b, field, PB_FIXED64);
	buf__append(b, bytes, 8);
}

void pb__bytes(struct buf *b, uint32_t field, const void *data, size_t len)
{
	pb__tag(b, field, PB_LEN);
	pb__varint(b, len);
	buf__append(b, data, len);
}

/* One byte is kept for the length: most messages (a sample, a location)
 * are shorter than 128 bytes, and then nothing moves. */
size_t pb__begin(struct buf *b, uint32_t field)
{
	pb__tag(b, field, PB_LEN);
	if (b->len + 2 > b->cap)
		buf__reserve(b, 1);
	size_t mark = b->len;
	b->data[b->len++] = 0;
	b->data[b->len] = '\0';
	return mark;
}

void pb__end(struct buf *b, size_t mark)
{
	size_t body = b->len - (mark + 1);
	size_t n = varint_size(body);
	if (n > 1) {
		buf__reserve(b, n - 1);
		memmove(b->data + mark + n, b->data + mark + 1, body);
		b->len += n - 1;
		b->data[b->len] = '\0';
	}
	put_varint((uint8_t *)b->data + mark, body);
}

/* A packed field of n values, value i being values64[i] or values32[i]:
 * written after a one-byte length, which most fields (a stack's ids) fit;
 * moved along when it takes more. */
static inline void put_packed(struct buf *b, uint32_t field, const uint64_t *values64,
			      const uint32_t *values32, size_t n)
{
	if (n == 0)
		return;
	pb__tag(b, field, PB_LEN);
	if (b->len + 1 + n * 10 + 1 > b->cap)
		buf__reserve(b, 1 + n * 10);
	uint8_t *length = (uint8_t *)b->data + b->len;
	uint8_t *out = length + 1;
	for (size_t i = 0; i < n; i++)
		out = put_varint(out, values64 ? values64[i] : values32[i]);
	size_t size = (size_t)(out - (length + 1));
	size_t extra = varint_size(size) - 1;
	if (extra)
		memmove(length + 1 + extra, length + 1, size);
	put_varint(length, size);
	b->len += 1 + extra + size;
	b->data[b->len] = '\0';
}

void pb__packed(struct buf *b, uint32_t field, const uint64_t *values, size_t n)
{
	put_packed(b, field, values, NULL, n);
}

void pb__packed32(struct buf *b, uint32_t field, const uint32_t *values, size_t n)
{
	put_packed(b, field, NULL, values, n);
}

/* --- decoding --------------------------------------------------------------- */

struct pb_reader pb_reader__init(const void *data, size_t len)
{
	const uint8_t *p = data;
	return (struct pb_reader){ .start = p, .at = p, .end = p + len };
}

struct pb_reader pb_reader__message(const struct pb_reader *parent, const struct pb_field *f)
{
	struct pb_reader r = pb_reader__init(f->data, f->len);
	r.base = parent->base + (size_t)(f->data - parent->start);
	return r;
}

bool pb_field__varints(const struct pb_field *f, struct pb_varints *it)
{
	*it = (struct pb_varints){ 0 };
	if (f->wire == PB_VARINT) {
		it->single = f->value;
		it->has_single = true;
		return true;
	}
	if (f->wire != PB_LEN)
		return false;
	it->at = f->data;
	it->end = f->data + f->len;
	return true;
}
