/* DTrace ustack()/stack() aggregations, as stackcollapse.pl collapses them. */
#ifndef FLAMEKIT_READERS_DTRACE_H
#define FLAMEKIT_READERS_DTRACE_H

#include "reader.h"

int dtrace_reader__probe(const char *head, size_t len);
int dtrace_reader__read(struct read_context *ctx, struct input *const *inputs, size_t count,
			struct profile *profile);

#endif
