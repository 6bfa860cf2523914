/* SystemTap backtraces, as stackcollapse-stap.pl collapses them (stap.c). */
#ifndef FLAMEKIT_READERS_STAP_H
#define FLAMEKIT_READERS_STAP_H

#include "reader.h"

int stap_reader__probe(const char *head, size_t len);
int stap_reader__read(struct read_context *ctx, struct input *const *inputs, size_t count,
		      struct profile *profile);

#endif
