/* bcc profile's default multi-line report (bcc.c). */
#ifndef FLAMEKIT_READERS_BCC_H
#define FLAMEKIT_READERS_BCC_H

#include "reader.h"

int bcc_reader__probe(const char *head, size_t len);
int bcc_reader__read(struct read_context *ctx, struct input *const *inputs, size_t count,
		     struct profile *profile);

#endif
