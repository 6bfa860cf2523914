/* Folded stacks: "frame;frame;... COUNT" per line (see folded.c). */
#ifndef FLAMEKIT_READERS_FOLDED_H
#define FLAMEKIT_READERS_FOLDED_H

#include "reader.h"

int folded_reader__probe(const char *head, size_t len);
int folded_reader__read(struct read_context *ctx, struct input *const *inputs,
			size_t count, struct profile *profile);

#endif
