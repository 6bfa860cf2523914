/*
 * --timeline[=MS]: the length of a time slice, as record, collapse and view
 * take it. One parser, so that the three accept and refuse the same values
 * with the same words.
 */
#ifndef FLAMEKIT_SLICE_LENGTH_H
#define FLAMEKIT_SLICE_LENGTH_H

#include <stdint.h>

/* Flamescope's default: 50 rows per second of its heat map. */
#define SLICE_LENGTH_DEFAULT_MS 20

/*
 * arg (NULL: the default) is milliseconds, decimals allowed, from 0.001
 * (one microsecond) to 3600000 (an hour), a whole number of nanoseconds.
 * Sets *slice_ns and returns 0, or returns -1 after one line naming
 * `option` and the value.
 */
int slice_length__parse(const char *option, const char *arg, uint64_t *slice_ns);

#endif
