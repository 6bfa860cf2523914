/*
 * record --outdir DIR: where an operator's recordings collect, each as a
 * flame graph and the profile beside it (folded stacks by default, or
 * record --format's: pprof, speedscope, OTLP, ...), named after the host,
 * the start time (UTC, so that names sort by time) and what was recorded:
 *
 *	DIR/HOST_YYYYMMDD_HHMMSS_UTC[.pid_PIDS|.user_NAME|.cmd_NAME].svg
 *	DIR/HOST_YYYYMMDD_HHMMSS_UTC[.pid_PIDS|.user_NAME|.cmd_NAME].folded.gz
 *	(or .pb.gz, .speedscope.json, .otlp: writer__file_ending())
 *
 * In the part after DIR, '/' becomes '-' and ',' (between pids) '_'. The
 * files are written by lib/output's rules, so each appears whole or not at
 * all; the writers are the ones those endings name (writer__for_path()).
 *
 *	if (outdir__prepare(dir) < 0) ...        // with the options, before recording
 *	... record ...
 *	if (outdir__write(dir, started, &subject, profile, &graph_or_NULL, writer) < 0) ...
 *
 * Nothing is kept between the calls: the caller owns dir, subject and the
 * profile. Errors are returned: -1 after one error line naming the file or
 * --outdir, never exit().
 */
#ifndef FLAMEKIT_WRITERS_OUTDIR_H
#define FLAMEKIT_WRITERS_OUTDIR_H

#include <time.h>

#include "../profile/profile.h"
#include "writer.h"

/* What was recorded, for the name; the first one given is used. */
struct outdir_subject {
	const char *pid_list;     /* -p as given: ".pid_12_34" */
	const char *user;         /* -u: ".user_NAME" */
	const char *command;      /* -- COMMAND's argv[0]: ".cmd_" and its last part */
};

/* Makes dir if it is missing (as `mkdir -p`) and checks that it can be
 * written: a mistake shows before the recording, not after it. 0, or -1
 * after an error message. */
int outdir__prepare(const char *dir);
/* Writes the flame graph (with graph's options; NULL: the SVG writer's
 * defaults), then (when that succeeded) the profile with `data` (NULL:
 * folded stacks, with its defaults), and says "wrote ..." on stderr. 0, or
 * writer__write_file()'s failure (after an error message). */
int outdir__write(const char *dir, time_t started, const struct outdir_subject *subject,
		  const struct profile *profile, const struct writer_options *graph,
		  const struct writer *data);

/*
 * record --every: one window's profile as one file, written by `writer`
 * (its options; NULL: defaults) and named as above with the writer's ending:
 * the window's start (UTC) names it, so names sort by time. Then, with
 * keep > 0, the oldest files of that form (the same host, subject and
 * ending) beyond keep are removed. Says "wrote ..." on stderr. 0, or
 * writer__write_file()'s failure (after an error message).
 */
int outdir__write_window(const char *dir, time_t started, const struct outdir_subject *subject,
			 const struct profile *profile, const struct writer_options *options,
			 const struct writer *writer, unsigned keep);

#endif
