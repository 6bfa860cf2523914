/*
 * The CPUs that are online, as /sys/devices/system/cpu/online lists them
 * ("0-3,6"): perf events are opened one per online CPU.
 */
#ifndef FLAMEKIT_SAMPLER_ONLINE_CPUS_H
#define FLAMEKIT_SAMPLER_ONLINE_CPUS_H

#include <stddef.h>

/* Sets *cpus to a new array of the online CPUs' numbers (the caller frees
 * it) and returns how many; 0 (and NULL) when the list cannot be read. */
size_t online_cpus(int **cpus);

#endif
