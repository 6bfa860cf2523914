/*
 * Writers turn a profile into one output format. Each format is one file in
 * this directory and one row in writers[] (writers.c). A writer only reads
 * the profile and writes to the stream it is given; the caller owns the
 * stream and checks it for errors (see lib/output.h).
 */
#ifndef FLAMEKIT_WRITER_H
#define FLAMEKIT_WRITER_H

#include <stdio.h>

#include "../profile/profile.h"

/* What every writer is given: the labels writers share (each shows them
 * where its format has a place for them) and the writer's own options. */
struct writer_options {
	const char *title;       /* NULL: the writer's default ("Flame Graph") */
	const char *count_name;  /* what the values are called; NULL: the profile's unit */
	const char *empty_text;  /* what says why when the profile has no stacks, where the
				  * format has room for text (the SVG's message, the page's,
				  * a "WARNING:" line of the report); NULL: the writer's own */
	const void *format;      /* the writer's own options struct; NULL: its defaults */
};

struct writer {
	const char *name;
	const char *summary;
	/* Returns 0; 1 when the profile had nothing to write and the writer
	 * wrote what says so (the SVG's "ERROR: No valid input provided");
	 * -1 after an error message. options NULL: all defaults. */
	int (*write)(const struct profile *profile, FILE *out, const struct writer_options *options);
	/* The endings of the file names that ask for this writer (NULL after
	 * the last); one ending in ".gz" is compressed by lib/output. */
	const char *const *endings;
};

const struct writer *writer__find(const char *name);
/* The writer whose ending path has, or NULL. */
const struct writer *writer__for_path(const char *path);
/*
 * Writes p with w (options NULL: its defaults) to path
 * (NULL or "-": standard output) by lib/output's rules, compressed when the
 * name ends in ".gz" (output__open_by_name()). Returns 0, or after an error
 * message WRITE_FILE_UNUSABLE when path cannot be opened (nothing was
 * written: a mistake in the command line) or the writer refused its
 * options, and WRITE_FILE_FAILED when writing it failed; a failure leaves
 * no half-written file where a whole one could have been put.
 */
enum { WRITE_FILE_FAILED = -1, WRITE_FILE_UNUSABLE = -2 };
int writer__write_file(const struct writer *w, const struct profile *p,
		       const struct writer_options *options, const char *path);
extern const struct writer writers[];

#endif
