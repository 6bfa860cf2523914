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
/* The same at zlib's `level` (1 fastest .. 9 smallest), for a format whose
 * writers compress it themselves (pprof's are gzipped at 1, as Go's are). */
int gzip__write_level(FILE *out, const void *data, size_t len, int level);

#endif
