/* `perf report -g folded` output (perf_folded.c). */
#ifndef FLAMEKIT_READERS_PERF_FOLDED_H
#define FLAMEKIT_READERS_PERF_FOLDED_H

#include "reader.h"

int perf_folded_reader__probe(const char *head, size_t len);
int perf_folded_reader__read(struct read_context *ctx, struct input *const *inputs,
			     size_t count, struct profile *profile);

#endif
