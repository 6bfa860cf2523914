/*
 * Where a command writes its result: standard output or a named path, by one
 * set of rules that every command and writer shares.
 *
 * What output__open() does with PATH depends on what PATH is:
 *
 *  - nothing yet, or a regular file in a directory we may write: the result
 *    goes to a temporary file in the same directory (".NAME.XXXXXX") that
 *    output__commit() renames over NAME, so NAME appears whole or not at
 *    all. An existing file keeps its mode (and, as root, its owner and
 *    group); a new one gets 0666 & ~umask, as `>` would give it;
 *  - a symbolic link: the same rules, applied to the file it resolves to;
 *    the link stays a link;
 *  - a character or block device, a FIFO, a socket, or standard output or
 *    error named as /dev/stdout, /dev/fd/N, /proc/self/fd/N: written
 *    directly, never renamed or removed;
 *  - an existing regular file in a directory we may not write: written in
 *    place (truncated when opened);
 *  - a directory, or a path whose directory does not exist: an error.
 *
 * Commit flushes and reports any write error (ENOSPC, EPIPE, EIO) in one line
 * naming the path and the cause; for standard output EPIPE is not an error
 * (`| head` is normal). If the command fails, output__abort() removes the
 * temporary file; if the process is killed by SIGINT, SIGTERM or SIGHUP
 * first, a signal handler removes it. So a failure or Ctrl-C never leaves a
 * half-written NAME where NAME could be replaced whole.
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
/* Discards the output (removes the temporary file, if any); frees out. */
void output__abort(struct output *out);

/*
 * Whether output__open(path) would succeed now, by the same rules and with
 * the same error message, without writing anything: for a command that
 * works long before it writes (record), so that a mistake in the path
 * shows before the work, not after. A file to be made or replaced is tried
 * by making its temporary file and removing it again (access() says yes
 * to root where a file system refuses new files, as /sys does); a device,
 * FIFO or socket is only checked for write permission (opening a FIFO
 * would end its reader's input). Returns 0, or -1 after an error message.
 * The output is still opened, and may still fail, at the end.
 */
int output__check(const char *path);

/*
 * As output__open(), with the encoding the name asks for: a path ending in
 * ".gz" gets what is written compressed as one gzip member (lib/gzip.h); any
 * other path, and standard output, gets the bytes as written. The stream is
 * memory until output__commit() compresses it whole into the path, so that
 * an aborted output writes nothing. Where a command picks its writer by the
 * output's name (writer__write_file()), this is how a *.gz name is honoured,
 * whatever the writer: no writer compresses on its own. output__open() keeps
 * the bytes as written whatever the name.
 */
int output__open_by_name(struct output **out, const char *path);

/*
 * Whether a new file can be made in directory dir now: one is made there
 * (".flamekit-probe.XXXXXX") and removed, as output__check() tries a new
 * file. Returns 0, or -1 with errno set.
 */
int output__probe_directory(const char *dir);

/*
 * Makes the directory path and any of its parents that are missing (mode
 * 0777 & ~umask), as `mkdir -p` does. Returns 0, or -1 with errno set.
 */
int output__make_directory(const char *path);

#endif
