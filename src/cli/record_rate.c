/*
 * record --rate: count events on the whole machine for a while, then print
 * each one's rate and the -c that keeps about RATE_TARGET stacks a second.
 */
#include "record.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/xalloc.h"
#include "../sampler/event_rate.h"
#include "cli.h"

/* What --rate's -c suggestion aims at: stacks a second on the whole
 * machine, a cost no workload notices (as the timer's 49 Hz on 20 CPUs). */
#define RATE_TARGET 1000

/* --rate: counts the events for the duration (or until Ctrl-C), then
 * prints a line each: name, count, per second, and the -c that keeps
 * about RATE_TARGET a second. */
int record_rate__run(struct record_options *o)
{
	sigset_t stop_signals, original_mask;
	struct event_rate *rate = NULL;
	uint64_t *counts = fk_calloc(o->event_count, sizeof(*counts));
	struct timespec start, end;
	int status = EXIT_BAD_INPUT;

	sigemptyset(&stop_signals);
	sigaddset(&stop_signals, SIGINT);
	sigaddset(&stop_signals, SIGTERM);
	sigaddset(&stop_signals, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop_signals, &original_mask);
	if (event_rate__open(o->events, o->event_count, o->sampler.verbose, &rate) < 0)
		goto cleanup;
	clock_gettime(CLOCK_MONOTONIC, &start);
	fprintf(stderr, "Counting %zu event%s of all threads on all CPUs for %g secs...\n",
		o->event_count, o->event_count == 1 ? "" : "s", o->duration);
	struct timespec wait = { (time_t)o->duration,
				 (long)((o->duration - (double)(time_t)o->duration) * 1e9) };
	sigtimedwait(&stop_signals, NULL, &wait);  /* the duration, or a Ctrl-C */
	if (event_rate__read(rate, counts) < 0)
		goto cleanup;
	clock_gettime(CLOCK_MONOTONIC, &end);
	double elapsed = (double)(end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
	int width = 5;
	for (size_t i = 0; i < o->event_count; i++)
		if ((int)strlen(o->events[i].text) > width)
			width = (int)strlen(o->events[i].text);
	printf("%-*s %14s %14s %8s\n", width, "EVENT", "COUNT", "PER SECOND", "-c");
	for (size_t i = 0; i < o->event_count; i++) {
		double per_second = elapsed > 0 ? (double)counts[i] / elapsed : 0;
		uint64_t every = per_second > RATE_TARGET ? (uint64_t)(per_second / RATE_TARGET + 0.5) : 1;
		printf("%-*s %14" PRIu64 " %14.1f %8" PRIu64 "\n", width, o->events[i].text, counts[i],
		       per_second, every);
	}
	printf("# in %.2f s on the whole machine; -c: one in that many events keeps about "
	       "%d stacks a second\n", elapsed, RATE_TARGET);
	status = 0;
cleanup:
	event_rate__free(rate);
	free(counts);
	sigprocmask(SIG_SETMASK, &original_mask, NULL);
	return status;
}
