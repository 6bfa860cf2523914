/* bpftrace maps keyed by kstack/ustack/comm, as stackcollapse-bpftrace.pl reads them. */
#ifndef FLAMEKIT_READERS_BPFTRACE_H
#define FLAMEKIT_READERS_BPFTRACE_H

#include "reader.h"

int bpftrace_reader__probe(const char *head, size_t len);
int bpftrace_reader__read(struct read_context *ctx, struct input *const *inputs,
			  size_t count, struct profile *profile);

#endif
