/*
 * The command `flamekit record -- COMMAND` profiles, started in two steps:
 * forked at once but held before exec until the sampler follows its pid,
 * so that nothing it runs goes unsampled; then released, and an exec that
 * fails is told in one line ("cannot run NAME: REASON") before anything is
 * written.
 *
 *	struct workload *w;
 *	if (workload__start(&w, argv, &original_mask) < 0) ...  // forked, held
 *	... the sampler follows workload__pid(w) and is attached ...
 *	if (workload__release(w) < 0) ...                      // execs now
 *	while (!workload__exited(w)) ...                       // sample
 *	workload__free(w);
 *
 * The caller owns the workload and frees it on every path out, released or
 * not: freeing one that was never released ends the held child (it reads
 * EOF instead of the go-ahead and exits 127 without running anything) and
 * reaps it; a released one that has exited is reaped, one that still runs
 * is left running, as the shell would leave it, and is not waited for. workload__free(NULL) does nothing.
 *
 * Errors are returned, never exit(): each function that can fail prints one
 * error line and returns -1. Only the forked child exits (127) on its own.
 * argv must stay valid until workload__free().
 */
#ifndef FLAMEKIT_SAMPLER_WORKLOAD_H
#define FLAMEKIT_SAMPLER_WORKLOAD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

struct workload;

/* Forks argv[0] (looked up in PATH), held before exec; the child gets
 * original_mask as its signal mask. 0, or -1 after an error message
 * (*out is then NULL). */
int workload__start(struct workload **out, char **argv, const sigset_t *original_mask);
/* The child's pid, for the sampler's filter. */
uint32_t workload__pid(const struct workload *w);
/* Lets the child exec. 0, or -1 after an error message: the go-ahead
 * could not be given, or exec failed (the child is then reaped). */
int workload__release(struct workload *w);
/* Whether the command has exited (reaped by the first call that finds it
 * gone, or by a failed release). Never blocks. */
bool workload__exited(struct workload *w);
/* Passes sig on to the command, as perf record does with the signal that
 * ends it, unless it has exited. */
void workload__signal(struct workload *w, int sig);
void workload__free(struct workload *w);

#endif
