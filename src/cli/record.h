/*
 * `flamekit record`'s parts, shared by its files (not by other commands):
 *
 *   record.c          usage text and cmd_record(): parse, then run one mode
 *   record_options.c  the options: one table of rows (struct record_option),
 *                     each naming its field or its setter; then the checks of
 *                     options against each other, right after parsing
 *   record_once.c     the default mode: sample until done, write one profile
 *   record_rate.c     --rate: count events, print rates, no stacks
 *   record_parts.c    what the modes share: the header line, the stop
 *                     signals, the profile's source, writing, the last report
 *
 * The options struct is filled by record_options__parse() and belongs to
 * cmd_record(), which frees what parsing allocated with
 * record_options__release(). Strings in it point into argv.
 */
#ifndef FLAMEKIT_CLI_RECORD_H
#define FLAMEKIT_CLI_RECORD_H

#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "../interp/interp.h"
#include "../lib/buf.h"
#include "../profile/profile.h"
#include "../sampler/bpf_sampler.h"
#include "../sampler/event_spec.h"
#include "../sampler/recording.h"
#include "../sampler/sampled_profile.h"
#include "../sampler/targets.h"
#include "../writers/svg.h"
#include "../writers/writer.h"


enum unwind_mode {
	UNWIND_AUTO,        /* dwarf where it works (x86-64, kernel BTF), else fp */
	UNWIND_FP,          /* frame pointers, walked in the kernel */
	UNWIND_DWARF,       /* stacks copied out, unwound from the binaries' tables */
};

struct record_options {
	struct bpf_sampler_options sampler;
	const char *pid_list, *tid_list;   /* as given, for the header */
	uint32_t *pids, *tids;
	const char *user;
	bool folded, delimited, annotate;
	bool call_graph;                   /* -g: perf's, accepted (stacks are always on) */
	double duration;                   /* seconds; 0: until Ctrl-C */
	const char *output_path;
	const struct writer *writer;       /* what -o names, --format, -f, or the report;
					    * with --outdir, its file beside the SVG */
	const struct writer *format;       /* --format */
	const char *outdir;
	char **command;                    /* after "--" */
	bool frequency_given, period_given;
	enum unwind_mode unwind;
	const char *off_cpu_option;        /* the first option given that needs --off-cpu */
	const char **event_args;               /* -e's arguments, as given (each may list several) */
	size_t event_arg_count, event_arg_cap;
	struct event_spec *events;         /* parsed: one for record, any number for --rate */
	size_t event_count;
	bool rate;                         /* --rate: count events per second, no stacks */
	unsigned every;                    /* --every: seconds a window, each its own profile */
	unsigned keep;                     /* --keep: --outdir's windows kept; 0: all */
	const char *push_url;              /* --push: where each window goes (push/push.h) */
	int push_protocol;                 /* enum push_protocol of push_url */
	const char *app;                   /* --app; NULL: the command's or target's name */
	const char **labels;               /* --label KEY=VALUE, as given */
	size_t label_count, label_cap;
	const char *spool_dir;             /* --spool, or the default (spool_default) */
	char *spool_default;               /* owned */
	uint64_t spool_max;                /* --spool-max, bytes */
	double push_timeout;               /* --push-timeout: seconds for the last windows */
	const char *auth_file;             /* --auth-file: the Authorization header's value */
	char *authorization;               /* read from it, or from the environment (owned) */
	const char *push_option;           /* the first push option given, for messages */
	struct interp_options interp;      /* interpreter frames (Python by default) */
	struct svg_options graph;          /* flamegraph's display options (graph_options.h) */
	int graph_option;                  /* the first of them given (its getopt value), 0: none */
	int svg_only_option;               /* the first given that the page does not take */
	bool colors_given;                 /* --colors: no palette of record's own */
	struct option *long_options;       /* record's rows and the graph's (owned) */
	const char *debuginfod;            /* --debuginfod[=URLS]: "" for DEBUGINFOD_URLS's */
};

/* The defaults (bcc profile's: 49 Hz, both stacks, 16384 keys). */
void record_options__init(struct record_options *o);
/* Parses argv; returns 0, 1 for --help (nothing else done), or -1 after an
 * error line. Every file written at the end is checked before it returns. */
int record_options__parse(struct record_options *o, int argc, char **argv);
void record_options__release(struct record_options *o);

/* The modes; each returns an exit status (cli.h). */
int record_once__run(struct record_options *o);
int record_rate__run(struct record_options *o);
int record_every__run(struct record_options *o);

/*
 * The stop signals, taken synchronously while sampling (sigtimedwait): the
 * first Ctrl-C ends the recording, not the process. record__block_signals()
 * blocks SIGINT, SIGTERM, SIGHUP (unless ignored from the start: nohup)
 * and SIGCHLD, keeping the mask before in *original;
 * record__let_signals_abort() then makes a second stop signal abort.
 */
void record__block_signals(sigset_t *stop_signals, sigset_t *original);
void record__let_signals_abort(const sigset_t *stop_signals, const sigset_t *original_mask);

/* bcc's header line, without its newline: "Sampling at 49 Hertz of all
 * threads by user + kernel stack for 5 secs." */
void record__header(const struct record_options *o, struct buf *line);
/* Why a recording has no stacks, in flamekit's words. */
void record__explain_no_stacks(const struct record_options *o, struct buf *why);
/* --unwind=auto's choice: copied stacks (dwarf) or the kernel's walk. */
bool record__choose_dwarf(const struct record_options *o);
/* The sampler's options that follow from the others, once the workload's
 * pid is known: copied stacks, --all-time's weight, slices from now. */
void record__prepare_sampler(struct record_options *o);
/* Whether frames carry their kind's marks (all but bcc's own forms). */
bool record__annotate(const struct record_options *o);
/* How a counted key becomes a profile's stack, by the options. */
struct sampled_profile_options record__naming(const struct record_options *o, bool annotate);
/* The profile's source (profile.h): start, duration, measure, period, host. */
void record__set_source(const struct record_options *o, const struct timespec *start,
			double elapsed, struct profile *profile);
/* Writes the profile where the options say (-o, stdout, or --outdir's files
 * named by `started`; with --every, the window's one file); a
 * writer__write_file() status. */
int record__write(const struct record_options *o, time_t started, const struct profile *profile,
		  const char *header, const char *empty_text);
/* "flamekit: N samples, M distinct stacks in S s; L lost", why there are
 * no stacks (why_empty; NULL: there are) and the warnings the stats call for. */
void record__report_stats(const struct record_options *o, const struct bpf_sampler_stats *stats,
			  size_t stacks, double elapsed, const char *why_empty);
/* --unwind=auto, the kernel's walk: how many user stacks it left to the
 * copy path and in which binaries (and, verbose, its tables). */
void record__report_unwind(const struct recording_results *r,
			   const struct bpf_sampler_stats *stats, bool verbose);
/* The sum of a one-column integer profile's counts (a recording's samples,
 * or microseconds off CPU). */
uint64_t record__total(const struct profile *p);
/* The targets whose exit ends the recording (NULL: none named): -p's
 * processes, else the sampler's threads (-t). */
struct targets *record__targets(const struct record_options *o);
/* interp_session__report()'s line callback: arg is a struct missing_report. */
void record__add_interp_line(void *arg, const char *text, uint64_t samples);

#endif
