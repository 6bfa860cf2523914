/*
 * Writers turn a profile into one output format. Each format is one file in
 * this directory and one row in writers[] (writers.c). A writer only reads
 * the profile and writes to the stream it is given; the caller owns the
 * stream and checks it for errors (see lib/output.h).
 */
#ifndef FLAMEKIT_WRITER_H
#define FLAMEKIT_WRITER_H

#include <stdio.h>

#include "../profile/profile.h"

struct writer {
	const char *name;
	const char *summary;
	int (*write)(const struct profile *profile, FILE *out, const void *options);
};

const struct writer *writer__find(const char *name);
extern const struct writer writers[];

#endif
