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
 * which counts it per input and keeps the first few messages; in Perl mode
 * (a personality) the reader prints the Perl tool's own warnings instead,
 * through the context too (read_context__perl_warning(), __print()), so
 * that a read in parallel parts (parallel.h) prints them in input order.
 * read() returns 0, or -1 after a fatal error (already printed, e.g. a
 * truncated gzip): the caller then writes nothing.
 *
 * Whether an input is in the format at all is judged in one place for every
 * reader and command (read_context.c), not in Perl mode:
 *
 *	reader = reader__choose(inputs, count, named, fallback);
 *	if (!reader)
 *		return 2;  // binary input, or no format fits (printed)
 *	if (reader->read(&ctx, inputs, count, profile) < 0 ||
 *	    read_context__finish(&ctx, reader, profile) < 0)
 *		return 2;  // finish: an input is not in the format (one line
 *	                   // printed); else it printed the kept warnings
 */
#ifndef FLAMEKIT_READER_H
#define FLAMEKIT_READER_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/input.h"
#include "../profile/profile.h"

/* The lines of one input that could not be parsed. */
struct bad_line_tally {
	const struct input *in;
	uint64_t count;
	uint64_t first_line;
	char first_quoted[64];  /* the first of them, quoted for a message */
};

/* Enough to see the pattern of a bad input without flooding the terminal. */
#define BAD_LINES_SHOWN 5

struct kept_messages;

struct read_context {
	const void *options;   /* the reader's own options struct, or NULL */
	bool perl_mode;        /* personality: print what the Perl tool prints */
	unsigned jobs;         /* threads for one large plain file; 0 = one per CPU */
	/* --timeline: key each sample by the time slice of this length it
	 * fell in (readers whose `timeline` is true; they set the profile's
	 * time too); 0: no time */
	uint64_t slice_ns;
	uint64_t bad_lines;    /* in all inputs */
	/* Owned, filled by read_context__bad_line(); inputs in the order
	 * their first bad line came. */
	struct bad_line_tally *tallies;
	size_t tally_count, tally_cap;
	char *shown[BAD_LINES_SHOWN]; /* the first messages, printed by finish */
	size_t shown_count;
	/* Owned: the tags of the messages read_context__print_once() printed. */
	const void **printed_once;
	size_t printed_once_count, printed_once_cap;
	/* Owned; set in the context of a part of a parallel read: what the
	 * reader reports is kept here until read_context__replay(). */
	struct kept_messages *kept;
};

/*
 * probe() looks at the first bytes of an input (at most PROBE_BYTES, cut at
 * a line end) and says how sure it is that they are in its format: 0 (not
 * at all) to 100. The guesser picks the surest reader above PROBE_MINIMUM.
 */
#define PROBE_BYTES (64u << 10)
#define PROBE_MINIMUM 50

/*
 * A reader's own command-line options (collapse's and its personality's).
 * The command passes each option it does not take itself to the reader
 * whose table lists it, into a zeroed struct of `size` bytes (the reader's
 * options struct, defaults all zero), and gives the chosen reader that
 * struct in read_context.options. The Perl tool's options are one table;
 * flamekit's own are another, which collapse takes and the personality
 * does not (the Perl tool would refuse them, and so does its drop-in).
 */
struct reader_options {
	const struct option *long_options;  /* the Perl tool's: getopt_long rows, vals >=
					     * READER_OPTION_FIRST; a zero row last */
	const char *help;                   /* one usage line per option */
	const struct option *own_long_options; /* flamekit's own, the same way; NULL: none */
	const char *own_help;               /* their usage lines; NULL: none */
	const char *names;                  /* for messages: "--pid, --tid, --kernel, ..." */
	const char *input;                  /* for messages: what they apply to */
	size_t size;
	/* Sets the option whose val is code; 0, or -1 after a message. */
	int (*parse)(void *options, int code, const char *arg);
	/* After all options: a conflict between them; 0, or -1 after a message. */
	int (*check)(const void *options);
};

#define READER_OPTION_FIRST 2000

struct reader {
	const char *name;
	const char *summary;
	int (*probe)(const char *head, size_t len);
	int (*read)(struct read_context *ctx, struct input *const *inputs, size_t count,
		    struct profile *profile);
	const struct reader_options *options;  /* NULL: none */
	bool timeline;  /* its samples carry times: it honours ctx->slice_ns */
	/* A binary format (pprof): probed on the input's first bytes as they
	 * are (decoded if gzip), before and instead of the text checks. */
	bool binary;
	/* What its values are: integers, or decimals where its input may hold
	 * fractions (folded counts, as flamegraph.pl takes them); and their
	 * unit, unless the input says (pprof's sample types, perf's --weight),
	 * when the reader sets the profile's. reader__new_profile() makes the
	 * profile to read into. */
	enum profile_value_type values;
	enum profile_unit unit;
};

/*
 * What a reader reports while it reads. Each goes to the context at once,
 * or, in a part of a parallel read (parallel.h), is kept and given to the
 * whole read's context later, in input order, with the line numbers it
 * would have had: the reader need not know which.
 */
/* Records a line of `in` that could not be parsed, the last one it returned;
 * keeps the first few as "FILE:LINE: expected ..., got "..."" messages for
 * read_context__finish() (not in Perl mode, where nothing is kept). */
void read_context__bad_line(struct read_context *ctx, const struct input *in,
			    const char *line, size_t len, const char *expected);
/* Text the reader prints itself (a Perl tool's warning), its bytes as they
 * are, NULs too: written to stderr. */
void read_context__print(struct read_context *ctx, const char *text, size_t len);
/* The same, unless a message with the same tag (any address the reader
 * owns, one per kind of message) came before it in this read: for what a
 * Perl tool warns once per stream, whichever part of the input it is in. */
void read_context__print_once(struct read_context *ctx, const void *tag, const char *text,
			      size_t len);
/* A Perl tool's warning about the line of `in` last returned, as Perl's
 * warn() words it: "TEXT at WHERE, <> line N.\n" (WHERE is the tool's own
 * line, e.g. "stackcollapse-perf.pl line 429"); written to stderr. */
void read_context__perl_warning(struct read_context *ctx, const struct input *in,
				const char *text, size_t len, const char *where);

/* Makes `part` the context of one part of a parallel read by `whole`: the
 * same options and mode; what is reported through it is kept. */
void read_context__init_part(struct read_context *part, const struct read_context *whole);
/* Gives `whole` what `part` kept, in the order it came, as reports about
 * `file` with the part's line numbers moved on by line_offset; then part
 * keeps nothing. Bad lines beyond the few a part keeps are only counted. */
void read_context__replay(struct read_context *whole, struct read_context *part,
			  const struct input *file, uint64_t line_offset);

/*
 * After reader->read() into `profile` (the inputs still open): the verdict
 * on the lines. An input of which most lines (more than two in three) did
 * not parse is not in the reader's format, nor is one with bad lines when no
 * stack came out at all: one line says which input, what was expected and
 * what was seen, and -1 is returned. Otherwise the kept messages and
 * "skipped N lines ..." are printed, and 0 returned (the caller says if no
 * stack came out of inputs without bad lines). Does nothing in Perl mode.
 */
int read_context__finish(struct read_context *ctx, const struct reader *reader,
			 const struct profile *profile);
void read_context__release(struct read_context *ctx);

/*
 * Before reading: an input whose first bytes (PROBE_BYTES, decoded if gzip)
 * hold a NUL or a high share of control bytes is binary, not any reader's
 * text: one line says so, naming `expected` (a reader's summary), and -1 is
 * returned; else 0. Nothing is consumed. (Binary readers skip it.)
 */
int reader__check_text(struct input *in, const char *expected);

const struct reader *reader__find(const char *name);
/* A profile of one column for r's values (see struct reader). */
struct profile *reader__new_profile(const struct reader *r);
/* The reader whose options list code, or NULL. */
const struct reader *reader__owning_option(int code);
/* A getopt_long table: the command's own rows (a zero row last), then the
 * options of `only` (NULL: of every reader), the Perl tools' only when
 * perl_only (a personality's). Caller frees. */
struct option *reader__long_options(const struct option *own, const struct reader *only,
				    bool perl_only);
/*
 * The reader for a command's inputs, each checked with reader__check_text()
 * (but for a binary reader's): `named`, or else the one the first input's
 * content fits (a binary reader's probe first), or else `fallback`; when
 * that is NULL too, what was tried is printed. NULL after a message
 * (binary input no reader takes, no format, a read error).
 */
const struct reader *reader__choose(struct input *const *inputs, size_t count,
				    const struct reader *named, const struct reader *fallback);
/* The binary reader (pprof) whose probe is sure of in's first bytes, or
 * NULL (none is, or they cannot be read: then reader__choose() says why):
 * for a command that reads one text format and binary ones (diff). */
const struct reader *reader__binary_format(struct input *in);
/* The table, ending with a NULL name. */
extern const struct reader readers[];

#endif
