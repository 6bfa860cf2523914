/*
 * Writers turn a profile into one output format. Each format is one file in
 * this directory and one row in writers[] (writers.c). A writer only reads
 * the profile and writes to the stream it is given; the caller owns the
 * stream and checks it for errors (see lib/output.h).
 */
#ifndef FLAMEKIT_WRITER_H
#define FLAMEKIT_WRITER_H

#include <stdbool.h>
#include <stdio.h>

#include "../profile/profile.h"

struct output;  /* lib/output.h */

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
	 * -1 after an error message. options NULL: all defaults; options->format
	 * is this writer's own struct, never another's. */
	int (*write)(const struct profile *profile, FILE *out, const struct writer_options *options);
	/* The endings of the file names that ask for this writer (NULL after
	 * the last); any of them with ".gz" after it asks for it too, the
	 * output compressed by lib/output (unless the writer compresses). */
	const char *const *endings;
	/* A picture or report of the profile (SVG, HTML, bcc's report), not a
	 * profile for other tools: `collapse` does not write these. */
	bool view;
	/* Bytes, not text: refused on a terminal. */
	bool binary;
	/* Gzip by definition (pprof): the writer compresses, and a ".gz"
	 * ending does not compress again. */
	bool compressed;
	/* Keeps processes apart (labels, profiles or resources per process):
	 * record gives it a profile with each stack's pid. */
	bool keeps_processes;
	/* Keeps a profile's time slices (--timeline), each stack per slice. */
	bool keeps_time;
};

const struct writer *writer__find(const char *name);
/* The writer whose ending path has (with or without ".gz" after it), or NULL. */
const struct writer *writer__for_path(const char *path);
/* The writer --format NAME names; NULL after a message that lists the
 * names (views too unless with_views). */
const struct writer *writer__for_format(const char *name, bool with_views);
/* The ending a file of w's gets where flamekit names it (record --outdir):
 * its first, ".gz" after it for folded stacks. */
const char *writer__file_ending(const struct writer *w);
/*
 * Writes p with w (options NULL: its defaults) to path
 * (NULL or "-": standard output) by lib/output's rules, compressed when the
 * name ends in ".gz" (output__open_by_name()) unless the writer compresses
 * itself; a binary format on a terminal is refused. Returns 0, or after an
 * error message WRITE_FILE_UNUSABLE when path cannot be opened or is a
 * terminal a binary format may not go to (nothing was written: a mistake in
 * the command line) or the writer refused its options, and WRITE_FILE_FAILED
 * when writing it failed; a failure leaves no half-written file where a
 * whole one could have been put.
 */
enum { WRITE_FILE_FAILED = -1, WRITE_FILE_UNUSABLE = -2 };
int writer__write_file(const struct writer *w, const struct profile *p,
		       const struct writer_options *options, const char *path);
/* writer__write_file()'s first step, for a command that tells a failure to
 * open (exit 2) from one to write (exit 1): the output for w at path,
 * compressed as the rules above say, or -1 after a message (a binary
 * format refused on a terminal too). Then w->write(), output__commit(). */
int writer__open_output(const struct writer *w, struct output **out, const char *path);
extern const struct writer writers[];

#endif
