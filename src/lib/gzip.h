/*
 * Writes bytes to a stream as one gzip member (zlib, default level, no name
 * or time in the header, so the same bytes always compress the same). Its
 * user is lib/output: an output named *.gz is compressed there
 * (output__open_by_name()), not by the writer or the command; only a
 * format that is gzip by definition (pprof) compresses in its writer.
 * Returns 0, or
 * -1 after an error message; errors writing to out are the stream's, for
 * its owner to check.
 */
#ifndef FLAMEKIT_GZIP_H
#define FLAMEKIT_GZIP_H

#include <stddef.h>
#include <stdio.h>

int gzip__write(FILE *out, const void *data, size_t len);
/* The same, fast: by libdeflate at its `level` (1 fastest .. 12 smallest;
 * 2 is faster than zlib's fastest and smaller too), with the compressed
 * copy in memory beside data: for a format whose writer compresses it
 * itself, a message of a few MB (pprof). */
int gzip__write_fast(FILE *out, const void *data, size_t len, int level);

#endif
