/*
 * `perf script` text, collapsed as stackcollapse-perf.pl collapses it.
 *
 * The output must be byte-identical to the Perl tool for every option, so
 * perf.c reproduces its regular expressions exactly (including what they do
 * on odd lines); the comments there quote each one.
 */
#ifndef FLAMEKIT_READERS_PERF_H
#define FLAMEKIT_READERS_PERF_H

#include <stdbool.h>

#include "reader.h"

/*
 * What a sample counts for: --weight. stackcollapse-perf.pl (since FlameGraph
 * PR #250) adds up the period perf script printed in each sample header, and
 * 1 for a header without one or with 0, and flamegraph.pl calls the sums
 * "samples" (FlameGraph issue #326). The default keeps its sums, byte for
 * byte, and names them: "periods" when some sample counted its period, else
 * "samples" (the profile's unit); the other two count one thing only.
 */
enum perf_weight {
	PERF_WEIGHT_PERL,     /* the default: the period printed, else 1 */
	PERF_WEIGHT_SAMPLES,  /* --weight samples: 1 per sample */
	PERF_WEIGHT_PERIOD,   /* --weight period: the period printed; a sample
			       * without one ends the read with an error */
};

struct perf_read_options {
	bool include_pid;    /* --pid: comm-PID */
	bool include_tid;    /* --tid: comm-PID/TID */
	bool annotate_kernel;/* --kernel (and --all): _[k] */
	bool annotate_jit;   /* --jit (and --all): _[j] */
	bool include_addrs;  /* --addrs: [module <addr>] for unknown symbols */
	bool show_inline;    /* --inline: expand inlined frames from DWARF */
	bool show_context;   /* --context: with --inline, add file:line */
	bool srcline;        /* --srcline: input has perf script -F+srcline lines */
	const char *event_filter; /* NULL or "": the first event type seen */
	enum perf_weight weight;  /* --weight; not the Perl tool's, so not the personality's */
};

/* --weight's value: "samples" or "period"; 0, or -1 after a message. */
int perf_weight__parse(const char *arg, enum perf_weight *out);

/* stackcollapse-perf.pl's options, into a struct perf_read_options. */
extern const struct reader_options perf_reader_options;

int perf_reader__probe(const char *head, size_t len);
int perf_reader__read(struct read_context *ctx, struct input *const *inputs,
		      size_t count, struct profile *profile);

#endif
