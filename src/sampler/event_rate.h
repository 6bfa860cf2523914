/*
 * `record --rate`: how often events happen, counted without stacks, as
 * perf stat -a counts them: perf events and tracepoints by counting perf
 * events (one per online CPU; no BPF), kernel and user functions by the
 * BPF sampler's programs in count-only mode (one sampler each).
 *
 *	struct event_rate *r;
 *	if (event_rate__open(specs, n, verbose, &r) < 0) ...  // counting from here
 *	... wait ...
 *	uint64_t counts[n];
 *	event_rate__read(r, counts);                      // events so far, each spec
 *	event_rate__free(r);
 *
 * Errors print one line and return -1 (*out is then NULL). The specs stay
 * the caller's and must outlive the counter.
 */
#ifndef FLAMEKIT_SAMPLER_EVENT_RATE_H
#define FLAMEKIT_SAMPLER_EVENT_RATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_spec.h"

struct event_rate;

int event_rate__open(const struct event_spec *specs, size_t count, bool verbose,
		     struct event_rate **out);
int event_rate__read(struct event_rate *r, uint64_t *counts);
void event_rate__free(struct event_rate *r);

#endif
