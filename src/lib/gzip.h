/*
 * Writes bytes to a stream as one gzip member (zlib), for outputs named
 * *.gz. Returns 0, or -1 after an error message.
 */
#ifndef FLAMEKIT_GZIP_H
#define FLAMEKIT_GZIP_H

#include <stddef.h>
#include <stdio.h>

int gzip__write(FILE *out, const void *data, size_t len);

#endif
