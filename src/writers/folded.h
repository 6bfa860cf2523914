#ifndef FLAMEKIT_WRITERS_FOLDED_H
#define FLAMEKIT_WRITERS_FOLDED_H

#include "writer.h"

/* "frame;frame;... COUNT\n" per stack, in byte order of the lines, as
 * stackcollapse-perf.pl prints them. Options: none (NULL). */
int folded_writer__write(const struct profile *profile, FILE *out, const void *options);

#endif
