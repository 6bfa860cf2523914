/*
 * A progress line for long reads: "flamekit: reading 1.2 GB of 3.4 GB (35%)"
 * on stderr, redrawn a few times a second, only when stderr is a terminal
 * and only once the work has taken a second (short runs stay silent).
 * progress__finish() erases the line.
 *
 * Inputs report the bytes they read with progress__add(), which may be
 * called from several threads at once (parallel parts of one file).
 */
#ifndef FLAMEKIT_PROGRESS_H
#define FLAMEKIT_PROGRESS_H

#include <stdint.h>

struct progress;

/* NULL when stderr is not a terminal: callers pass NULL on as "no progress". */
struct progress *progress__new(const char *what, uint64_t total_bytes /* 0 = unknown */);
void progress__add(struct progress *p, uint64_t bytes);
void progress__finish(struct progress *p); /* also frees; NULL is fine */

#endif
