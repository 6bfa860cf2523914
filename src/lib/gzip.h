/*
 * Writes bytes to a stream as one gzip member (zlib, default level, no name
 * or time in the header, so the same bytes always compress the same). Its
 * user is lib/output: an output named *.gz is compressed there
 * (output__open_by_name()), not by the writer or the command; only a
 * format that is gzip by definition (pprof) compresses in its writer.
 * Returns 0, or
 * -1 after an error message; errors writing to out are the stream's, for
 * its owner to check.
 */
#ifndef FLAMEKIT_GZIP_H
#define FLAMEKIT_GZIP_H

#include <stddef.h>
#include <stdio.h>

int gzip__write(FILE *out, const void *data, size_t len);
/*
 * One gzip member compressed in parts on helper threads (one CPU but one,
 * up to three) while the caller makes the next: for a format whose writer
 * compresses a message of many MB itself (pprof), and knows which of its
 * parts compress well fast. Each part is its own deflate stream within the
 * member's (sync-flushed, nothing reaches into the part before), so parts
 * of half a MB or so cost little in size; the header's extra field lists
 * them ("FK"), so that gzip__inflate_indexed() inflates them all at once.
 * Any gzip reader reads the member as usual.
 *
 *	struct gzip_parts *g = gzip_parts__start();
 *	while (...) { append to b; if (b.len > MB / 2) gzip_parts__add(g, &b, GZIP_PART_FAST); }
 *	gzip_parts__add(g, &b, GZIP_PART_FAST);
 *	status = gzip_parts__finish(g, out);
 */
enum gzip_part_kind {
	/* data of long repeats: ISA-L's igzip at its fastest, ten times
	 * zlib's speed */
	GZIP_PART_FAST,
	/* data of shorter repeats (names, tables): igzip's level 2, a few %
	 * smaller, at half its speed (level 3: 1 % smaller again, at half
	 * that) */
	GZIP_PART_SMALL,
	/* data whose repeats are three bytes long, which igzip does not look
	 * for: zlib's fastest level */
	GZIP_PART_SHORT_REPEATS,
};
struct buf;
struct gzip_parts *gzip_parts__start(void);
/* Queues b's bytes as the next part: b is left empty (a part's buffer
 * once compressed, or BUF_INIT). */
void gzip_parts__add(struct gzip_parts *g, struct buf *b, enum gzip_part_kind kind);
/* Waits for every part, writes the member to out, frees g: 0, or -1 after
 * an error message. */
int gzip_parts__finish(struct gzip_parts *g, FILE *out);

/* Inflates gzip_parts' output on every CPU: 0 with *text (malloc'ed,
 * NUL-terminated) and *text_len; 1 when gz is not such a file, or a part
 * does not inflate or the CRC differs (then inflate it as any gzip, which
 * says what is wrong). */
int gzip__inflate_indexed(const void *gz, size_t len, char **text, size_t *text_len);

#endif
