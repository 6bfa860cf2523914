/*
 * CLOCK_MONOTONIC, as the recording reads it: in nanoseconds (the clock of
 * bpf_ktime_get_ns() and of the task events' records), and as seconds
 * since a start.
 */
#ifndef FLAMEKIT_CLOCK_H
#define FLAMEKIT_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t monotonic_ns(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static inline double seconds_since(const struct timespec *start)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

#endif
