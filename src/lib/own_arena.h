/*
 * A piece of work run on a thread of its own, the caller waiting for it,
 * so that its memory comes from a malloc arena of its own.
 *
 * glibc serves each thread from an arena (a heap) of its own, and a thread
 * made after another has ended gets the arena that one had. Work whose
 * allocations end with it (record --every's window: naming, the profile,
 * its encoding) run this way leaves its arena all but empty each time, to
 * be given back whole (malloc_trim()); run among a long-lived process's
 * records, its freed chunks are holes between them, pages that stay
 * resident, and the process's RSS climbs for minutes as the holes spread.
 *
 *	int status = own_arena__run(end_window, &window);
 */
#ifndef FLAMEKIT_OWN_ARENA_H
#define FLAMEKIT_OWN_ARENA_H

/* work(arg) on a thread of its own (here, where no thread can be made);
 * returns what work returns. */
int own_arena__run(int (*work)(void *arg), void *arg);

#endif
