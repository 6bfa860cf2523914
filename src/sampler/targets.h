/*
 * The processes (record -p) or threads (-L) a recording was asked for,
 * watched so that it ends once every one of them has exited, as perf
 * record -p does, instead of sampling nothing until Ctrl-C.
 *
 *	struct targets *t = targets__new(pids, count, false);  // when sampling starts
 *	while (... sampling ...)
 *		if (targets__all_exited(t)) break;
 *	targets__free(t);
 *
 * A process is watched by a pidfd (readable once its last thread has
 * exited), a thread (or a process, on a kernel without pidfds) by its
 * /proc/ID/stat: gone, a zombie, or another task under a reused id (its
 * start time differs) counts as exited. An id that is no task when watching
 * starts has exited already. Never blocks; the caller owns the ids.
 */
#ifndef FLAMEKIT_SAMPLER_TARGETS_H
#define FLAMEKIT_SAMPLER_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct targets;

/* threads: the ids are thread ids (-L), else process ids (-p). */
struct targets *targets__new(const uint32_t *ids, size_t count, bool threads);
bool targets__all_exited(struct targets *t);
void targets__free(struct targets *t);

#endif
