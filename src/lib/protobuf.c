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

/* Writes v's varint at out (varint_size(v) bytes). */
static void put_varint(uint8_t *out, uint64_t v)
{
	while (v >= 0x80) {
		*out++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*out = (uint8_t)v;
}

void pb__varint(struct buf *b, uint64_t v)
{
	uint8_t bytes[10];
	size_t n = varint_size(v);
	put_varint(bytes, v);
	buf__append(b, bytes, n);
}

void pb__tag(struct buf *b, uint32_t field, enum pb_wire wire)
{
	pb__varint(b, (uint64_t)field << 3 | wire);
}

void pb__uint(struct buf *b, uint32_t field, uint64_t v)
{
	pb__tag(b, field, PB_VARINT);
	pb__varint(b, v);
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
	size_t mark = b->len;
	buf__append_char(b, 0);
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

void pb__packed(struct buf *b, uint32_t field, const uint64_t *values, size_t n)
{
	if (n == 0)
		return;
	size_t size = 0;
	for (size_t i = 0; i < n; i++)
		size += varint_size(values[i]);
	pb__tag(b, field, PB_LEN);
	pb__varint(b, size);
	buf__reserve(b, size);
	uint8_t *out = (uint8_t *)b->data + b->len;
	for (size_t i = 0; i < n; i++) {
		put_varint(out, values[i]);
		out += varint_size(values[i]);
	}
	b->len += size;
	b->data[b->len] = '\0';
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

/* 1 and the value, or 0 when the bytes end first, -1 over 10 bytes. */
static int get_varint(const uint8_t **at, const uint8_t *end, uint64_t *v)
{
	uint64_t x = 0;
	const uint8_t *p = *at;
	for (unsigned shift = 0; shift < 70; shift += 7) {
		if (p == end)
			return 0;
		uint8_t byte = *p++;
		x |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80)) {
			*at = p;
			*v = x;
			return 1;
		}
	}
	return -1;
}

static int malformed(struct pb_reader *r, const uint8_t *where, const char *what)
{
	r->error = what;
	r->offset = r->base + (size_t)(where - r->start);
	return -1;
}

int pb__next(struct pb_reader *r, struct pb_field *f)
{
	if (r->at == r->end)
		return 0;
	const uint8_t *tag_at = r->at;
	uint64_t tag;
	int got = get_varint(&r->at, r->end, &tag);
	if (got <= 0)
		return malformed(r, tag_at, got == 0 ? "truncated field tag" : "overlong varint");
	if (tag >> 3 == 0 || tag >> 3 > UINT32_MAX)
		return malformed(r, tag_at, "bad field number");
	f->number = (uint32_t)(tag >> 3);
	f->wire = (enum pb_wire)(tag & 7);
	f->offset = r->base + (size_t)(tag_at - r->start);
	f->data = NULL;
	f->len = 0;
	f->value = 0;
	switch (tag & 7) {
	case PB_VARINT:
		got = get_varint(&r->at, r->end, &f->value);
		if (got <= 0)
			return malformed(r, tag_at, got == 0 ? "truncated varint" : "overlong varint");
		return 1;
	case PB_FIXED64:
	case PB_FIXED32: {
		size_t n = (tag & 7) == PB_FIXED64 ? 8 : 4;
		if ((size_t)(r->end - r->at) < n)
			return malformed(r, tag_at, "truncated fixed-size value");
		for (size_t i = 0; i < n; i++)
			f->value |= (uint64_t)r->at[i] << (8 * i);
		r->at += n;
		return 1;
	}
	case PB_LEN: {
		uint64_t len;
		got = get_varint(&r->at, r->end, &len);
		if (got <= 0)
			return malformed(r, tag_at, got == 0 ? "truncated length" : "overlong varint");
		if (len > (uint64_t)(r->end - r->at))
			return malformed(r, tag_at, "length beyond the end of the data (truncated)");
		f->data = r->at;
		f->len = (size_t)len;
		r->at += len;
		return 1;
	}
	default:
		return malformed(r, tag_at, "unknown wire type");
	}
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

int pb_varints__next(struct pb_varints *it, uint64_t *v)
{
	if (it->has_single) {
		it->has_single = false;
		*v = it->single;
		return 1;
	}
	if (it->at == it->end)
		return 0;
	return get_varint(&it->at, it->end, v) > 0 ? 1 : -1;
}
