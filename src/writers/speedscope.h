/*
 * speedscope's file format (github.com/jlfwong/speedscope,
 * src/lib/file-format-spec.ts), for its importer: one "sampled" profile per
 * process where the profile knows them (writers/process_groups.h: by pid,
 * else by process name; named "comm (pid)"), else one ("all", or the
 * title), the biggest shown first. Stacks root first, as the profile's
 * frames are; weights in the profile's unit ("none" for counts of samples,
 * events and periods); the samples by time slice first when the profile has
 * them (speedscope's time order view), else in the folded writer's order.
 * Kernel, JIT and interpreter frames carry their kind as a frame's "file"
 * ("[kernel.kallsyms]", as pprof's mappings). A profile of two columns (a
 * difference) is refused.
 */
#ifndef FLAMEKIT_WRITERS_SPEEDSCOPE_H
#define FLAMEKIT_WRITERS_SPEEDSCOPE_H

#include <stdio.h>

#include "writer.h"

int speedscope_writer__write(const struct profile *profile, FILE *out,
			     const struct writer_options *options);

#endif
