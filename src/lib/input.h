/*
 * A source of text lines: a file, standard input ("-"), or a memory block.
 *
 * gzip (and zlib) input is recognised by its magic bytes and inflated on the
 * fly, whatever the file is called; concatenated gzip members are read in
 * turn. A line is returned without its '\n' (as Perl's chomp leaves it); a
 * last line without '\n' is still a line. Lines may contain NUL bytes: always
 * use the returned length.
 *
 * Ownership: the input owns the returned bytes; they stay valid until the
 * next input__next_line() or input__close(). Errors (unreadable file, a
 * directory, truncated or corrupt gzip, a line over INPUT_MAX_LINE bytes)
 * are printed with error() and reported as -1; the input is then finished.
 *
 *	struct input *in;
 *	if (input__open(&in, path) < 0)
 *		return -1;
 *	const char *line; size_t len; int r;
 *	while ((r = input__next_line(in, &line, &len)) > 0)
 *		handle(line, len, input__line_number(in));
 *	input__close(in);   // r < 0: an error was printed
 */
#ifndef FLAMEKIT_INPUT_H
#define FLAMEKIT_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define INPUT_MAX_LINE (64u << 20)

struct input;

/* path "-" is standard input. Returns 0, or -1 after printing why. */
int input__open(struct input **out, const char *path);
/* Reads from memory (not copied; must outlive the input). Never fails. */
struct input *input__from_memory(const void *data, size_t len, const char *name);
/* 1: a line; 0: end of input; -1: error (printed). */
int input__next_line(struct input *in, const char **line, size_t *len);
/* The next bytes of text (up to `want`, fewer at the end) without consuming
 * them, decoded if gzip; valid until the next call. 0, or -1 on error. */
int input__peek(struct input *in, size_t want, const char **data, size_t *len);
/* All the rest of the input (decoded if gzip), for a binary format that is
 * read whole (pprof); valid until input__close(). 0, or -1 on error. */
int input__contents(struct input *in, const char **data, size_t *len);
/* Whether the input is gzip (decoded as it is read). */
bool input__gzip(const struct input *in);
/* Number of the line last returned, counting from 1. */
uint64_t input__line_number(const struct input *in);
/* The name used in messages: the path, or "<stdin>". */
const char *input__name(const struct input *in);
void input__close(struct input *in);

struct progress;
/* Reports every byte read from the file (before inflating) to p. */
void input__set_progress(struct input *in, struct progress *p);
/* The file's size if it is a regular file, else 0. */
uint64_t input__file_size(const struct input *in);

/*
 * A command's inputs: the files it was given, or standard input when none,
 * opened together (the commands that read several files this way: collapse,
 * flamegraph).
 *
 *	struct input_set set;
 *	if (input_set__open(&set, files, count, with_progress) < 0) return 2;
 *	reader->read(&ctx, set.inputs, set.count, profile);
 *	input_set__close(&set);
 *
 * with_progress: a "reading N of M" line on a terminal while they are read,
 * until input_set__done_reading() or input_set__close().
 */
struct input_set {
	struct input **inputs;
	size_t count;
	struct progress *progress;
};

/* 0, or -1 after printing why (nothing is left open). */
int input_set__open(struct input_set *set, char *const *files, int file_count, bool with_progress);
/* As Perl's <> reads the files of a FlameGraph tool (the personalities): one
 * that cannot be opened is reported and skipped, and the rest are read (no
 * progress line). set->count may be 0. */
void input_set__open_as_perl(struct input_set *set, char *const *files, int file_count);
void input_set__done_reading(struct input_set *set);
void input_set__close(struct input_set *set);

/*
 * Splitting a large plain file to read its parts in parallel.
 *
 * input__plain_size() is true when `in` is a regular, uncompressed file of
 * which no line has been taken yet (input__peek() may have looked at it),
 * and gives its size. input__open_range() makes an input of bytes
 * [start, end) of the file whose lines are numbered on from lines_before
 * (0: from its own start; a part read again once the lines before it are
 * known gives them, so that its messages name the file's line); it reads
 * through `in`'s descriptor, so `in` must outlive it.
 */
bool input__plain_size(struct input *in, uint64_t *size);
struct input *input__open_range(struct input *in, uint64_t start, uint64_t end,
				uint64_t lines_before);
/* Closes a part that was read as a piece of `in`: the lines it read count
 * as lines of `in` (input__line_number(in) grows by them), as if `in` had
 * been read through. A range only looked into is closed with input__close(). */
void input__close_part(struct input *in, struct input *part);

#endif
