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

void pb__varint(struct buf *b, uint64_t v);
void pb__tag(struct buf *b, uint32_t field, enum pb_wire wire);
/* A varint field (uint64, int64 as two's complement, bool, enum), written
 * even when 0: callers leave out what they do not want. */
void pb__uint(struct buf *b, uint32_t field, uint64_t v);
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
 * or a wire type that is not one of the four above (groups included). */
int pb__next(struct pb_reader *r, struct pb_field *f);

/* The values of a repeated varint field, packed or not. */
struct pb_varints {
	const uint8_t *at, *end;
	uint64_t single;
	bool has_single;
};
/* Fails (false) when f is neither a varint nor length-delimited. */
bool pb_field__varints(const struct pb_field *f, struct pb_varints *it);
/* 1: a value in *v; 0: no more; -1: a truncated or overlong varint. */
int pb_varints__next(struct pb_varints *it, uint64_t *v);

#endif
