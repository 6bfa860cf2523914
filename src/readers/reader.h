/*
 * Readers turn one input format into a profile. Each format is one file in
 * this directory and one row in readers[] (readers.c).
 *
 * A reader gets every input of a command at once because some formats carry
 * state from one file to the next (Perl's `<>` reads all files as one
 * stream, and the drop-in personalities must match that). It adds what it
 * finds to the profile it is given, so several inputs merge into one.
 *
 * What a reader cannot parse it reports through read_context__bad_line(),
 * which keeps the count and the first place for the summary; in Perl mode
 * (a personality) the reader prints the Perl tool's own warnings instead.
 * read() returns 0, or -1 after a fatal error (already printed, e.g. a
 * truncated gzip): the caller then writes nothing.
 */
#ifndef FLAMEKIT_READER_H
#define FLAMEKIT_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/input.h"
#include "../profile/profile.h"

struct read_context {
	const void *options;   /* the reader's own options struct, or NULL */
	bool perl_mode;        /* personality: print what the Perl tool prints */
	unsigned jobs;         /* threads for one large plain file; 0 = one per CPU */
	uint64_t bad_lines;
	char *first_bad_input; /* owned */
	uint64_t first_bad_line;
};

/*
 * probe() looks at the first bytes of an input (at most PROBE_BYTES, cut at
 * a line end) and says how sure it is that they are in its format: 0 (not
 * at all) to 100. The guesser picks the surest reader above PROBE_MINIMUM.
 */
#define PROBE_BYTES (64u << 10)
#define PROBE_MINIMUM 50

struct reader {
	const char *name;
	const char *summary;
	int (*probe)(const char *head, size_t len);
	int (*read)(struct read_context *ctx, struct input *const *inputs, size_t count,
		    struct profile *profile);
};

/* Records a line that could not be parsed; prints the first few of them as
 * "flamekit: FILE:LINE: expected ..., got "..."" (not in Perl mode). */
void read_context__bad_line(struct read_context *ctx, const struct input *in,
			    const char *line, size_t len, const char *expected);
/* The same, for a line known by input name and number. */
void read_context__bad_line_at(struct read_context *ctx, const char *input_name,
			       uint64_t line_number, const char *line, size_t len,
			       const char *expected);
/* Prints "skipped N lines ..." if any were skipped (not in Perl mode). */
void read_context__summary(const struct read_context *ctx);
void read_context__release(struct read_context *ctx);

const struct reader *reader__find(const char *name);
/* The reader for in, from its first bytes; NULL after saying what was tried. */
const struct reader *reader__guess(struct input *in);
/* The same, but `fallback` instead of a message when nothing fits (NULL only
 * after a read error, printed). */
const struct reader *reader__guess_or(struct input *in, const struct reader *fallback);
/* The table, ending with a NULL name. */
extern const struct reader readers[];

#endif
