/*
 * Where a command writes its result: standard output, or a file that appears
 * only when it is complete.
 *
 * A named file is written to a temporary file in the same directory
 * (".NAME.XXXXXX") and renamed over NAME by output__commit(). If the command
 * fails, output__abort() removes the temporary file; if the process is
 * killed by SIGINT, SIGTERM, SIGHUP or SIGPIPE first, a signal handler
 * removes it. So a failure or Ctrl-C never leaves a half-written NAME.
 *
 * For standard output, commit flushes and checks for write errors (a full
 * disk must not exit 0); EPIPE is not an error there (`| head` is normal).
 *
 *	struct output *out;
 *	if (output__open(&out, path_or_NULL) < 0) return 2;
 *	fputs("...", output__stream(out));
 *	return output__commit(out) < 0 ? 2 : 0;   // or output__abort(out)
 */
#ifndef FLAMEKIT_OUTPUT_H
#define FLAMEKIT_OUTPUT_H

#include <stdio.h>

struct output;

/* path NULL or "-" is standard output. Returns 0, or -1 after an error message. */
int output__open(struct output **out, const char *path);
FILE *output__stream(struct output *out);
/* Finishes the output; frees out. Returns 0, or -1 after an error message. */
int output__commit(struct output *out);
/* Discards the output (removes the temporary file); frees out. */
void output__abort(struct output *out);

#endif
