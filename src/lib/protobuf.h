/*
 * Protocol buffers' wire format, as much as pprof's profile.proto and
 * OpenTelemetry's profiles need: varints, 64-bit fixed values, and
 * length-delimited fields (strings, bytes, embedded messages, packed
 * repeated varints). No schema, no code generator: the writers and readers
 * name their field numbers themselves.
 *
 * Encoding appends to a struct buf (lib/buf.h). An embedded message is
 * written in place between pb__begin() and pb__end(), which then puts its
 * length in front of it (moving the body by the length's few bytes), so no
 * scratch buffer or second pass is needed; begins and ends nest.
 *
 *	struct buf b = BUF_INIT;
 *	size_t sample = pb__begin(&b, 2);       // field 2, a message
 *	pb__packed_begin ... or pb__uint(&b, 1, 42);
 *	pb__end(&b, sample);
 *
 * Decoding walks a message's fields in order without copying:
 *
 *	struct pb_reader r = pb_reader__init(data, len);
 *	struct pb_field f;
 *	int got;
 *	while ((got = pb__next(&r, &f)) > 0)
 *		switch (f.number) { case 1: ... f.value, or f.data/f.len ... }
 *	if (got < 0) ... r.error says what is wrong, r.offset where ...
 *
 * A scalar field's value may come as one varint or, for a repeated field,
 * packed in a length-delimited field: pb_field__varints() iterates either.
 * Nothing is allocated; pointers point into the caller's bytes.
 */
#ifndef FLAMEKIT_PROTOBUF_H
#define FLAMEKIT_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

enum pb_wire {
	PB_VARINT = 0,
	PB_FIXED64 = 1,
	PB_LEN = 2,
	PB_FIXED32 = 5,
};

/* --- encoding --------------------------------------------------------------- */

/* Inline: a writer calls these for every field. */
static inline void pb__varint(struct buf *b, uint64_t v)
{
	if (b->len + 11 > b->cap)
		buf__reserve(b, 10);
	uint8_t *out = (uint8_t *)b->data + b->len;
	size_t n = 0;
	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	b->len += n;
	b->data[b->len] = '\0';
}
static inline void pb__tag(struct buf *b, uint32_t field, enum pb_wire wire)
{
	pb__varint(b, (uint64_t)field << 3 | wire);
}
/* A varint field (uint64, int64 as two's complement, bool, enum), written
 * even when 0: callers leave out what they do not want. */
static inline void pb__uint(struct buf *b, uint32_t field, uint64_t v)
{
	pb__tag(b, field, PB_VARINT);
	pb__varint(b, v);
}
void pb__fixed64(struct buf *b, uint32_t field, uint64_t v);
/* A length-delimited field: bytes or a string. */
void pb__bytes(struct buf *b, uint32_t field, const void *data, size_t len);
/* Starts an embedded message or packed field (its tag is written now);
 * returns the mark pb__end() takes. */
size_t pb__begin(struct buf *b, uint32_t field);
/* Ends what pb__begin() returned mark for: its length goes before it. */
void pb__end(struct buf *b, size_t mark);
/* A packed repeated varint field of n values (nothing when n is 0). */
void pb__packed(struct buf *b, uint32_t field, const uint64_t *values, size_t n);
/* The same of 32-bit values (ids). */
void pb__packed32(struct buf *b, uint32_t field, const uint32_t *values, size_t n);

/* --- decoding --------------------------------------------------------------- */

struct pb_reader {
	const uint8_t *start, *at, *end;
	size_t base;        /* offset of start in the outermost message, for messages */
	const char *error;  /* after pb__next() returned -1: what is wrong */
	size_t offset;      /* ... and at which byte of the outermost message */
};

struct pb_field {
	uint32_t number;
	enum pb_wire wire;
	uint64_t value;         /* PB_VARINT, PB_FIXED64, PB_FIXED32 */
	const uint8_t *data;    /* PB_LEN: the bytes */
	size_t len;
	size_t offset;          /* of the field's tag in the outermost message */
};

struct pb_reader pb_reader__init(const void *data, size_t len);
/* The reader of an embedded message f (PB_LEN), its offsets counted in
 * parent's outermost message. */
struct pb_reader pb_reader__message(const struct pb_reader *parent, const struct pb_field *f);
/* 1: a field in *f; 0: the end of the message; -1: malformed (r->error,
 * r->offset): a truncated field, a varint over 10 bytes, field number 0,
 * or a wire type that is not one of the four above (groups included).
 * Inline, with its helpers, below: a reader calls it for every field. */
static inline int pb__next(struct pb_reader *r, struct pb_field *f);

/* 1 and the value, or 0 when the bytes end first, -1 over 10 bytes. */
static inline int pb__get_varint(const uint8_t **at, const uint8_t *end, uint64_t *v)
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

static inline int pb__malformed(struct pb_reader *r, const uint8_t *where, const char *what)
{
	r->error = what;
	r->offset = r->base + (size_t)(where - r->start);
	return -1;
}

static inline int pb__next(struct pb_reader *r, struct pb_field *f)
{
	if (r->at == r->end)
		return 0;
	const uint8_t *tag_at = r->at;
	uint64_t tag;
	int got = pb__get_varint(&r->at, r->end, &tag);
	if (got <= 0)
		return pb__malformed(r, tag_at, got == 0 ? "truncated field tag" : "overlong varint");
	if (tag >> 3 == 0 || tag >> 3 > UINT32_MAX)
		return pb__malformed(r, tag_at, "bad field number");
	f->number = (uint32_t)(tag >> 3);
	f->wire = (enum pb_wire)(tag & 7);
	f->offset = r->base + (size_t)(tag_at - r->start);
	f->data = NULL;
	f->len = 0;
	f->value = 0;
	switch (tag & 7) {
	case PB_VARINT:
		got = pb__get_varint(&r->at, r->end, &f->value);
		if (got <= 0)
			return pb__malformed(r, tag_at, got == 0 ? "truncated varint" : "overlong varint");
		return 1;
	case PB_FIXED64:
	case PB_FIXED32: {
		size_t n = (tag & 7) == PB_FIXED64 ? 8 : 4;
		if ((size_t)(r->end - r->at) < n)
			return pb__malformed(r, tag_at, "truncated fixed-size value");
		for (size_t i = 0; i < n; i++)
			f->value |= (uint64_t)r->at[i] << (8 * i);
		r->at += n;
		return 1;
	}
	case PB_LEN: {
		uint64_t len;
		got = pb__get_varint(&r->at, r->end, &len);
		if (got <= 0)
			return pb__malformed(r, tag_at, got == 0 ? "truncated length" : "overlong varint");
		if (len > (uint64_t)(r->end - r->at))
			return pb__malformed(r, tag_at, "length beyond the end of the data (truncated)");
		f->data = r->at;
		f->len = (size_t)len;
		r->at += len;
		return 1;
	}
	default:
		return pb__malformed(r, tag_at, "unknown wire type");
	}
}


/* The values of a repeated varint field, packed or not. */
struct pb_varints {
	const uint8_t *at, *end;
	uint64_t single;
	bool has_single;
};
/* Fails (false) when f is neither a varint nor length-delimited. */
bool pb_field__varints(const struct pb_field *f, struct pb_varints *it);
/* 1: a value in *v; 0: no more; -1: a truncated or overlong varint.
 * Inline: a reader calls it for every id of every sample. */
static inline int pb_varints__next(struct pb_varints *it, uint64_t *v)
{
	if (it->has_single) {
		it->has_single = false;
		*v = it->single;
		return 1;
	}
	if (it->at == it->end)
		return 0;
	if (*it->at < 0x80) {  /* the common one-byte varint */
		*v = *it->at++;
		return 1;
	}
	uint64_t x = 0;
	for (unsigned shift = 0; shift < 70 && it->at < it->end; shift += 7) {
		uint8_t byte = *it->at++;
		x |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80)) {
			*v = x;
			return 1;
		}
	}
	return -1;
}

#endif
