/*
 * One run of `flamekit record`'s sampling: the BPF sampler, attached, and
 * what user space learns beside it until sampling ends. A recording owns
 *
 *   - the sampler (bpf_sampler.h), whose kernel maps count the samples;
 *   - the process symbols (process_symbols.h): every sampled process's
 *     mappings, over time, to name user frames by at the end;
 *   - with user stacks, the task events (task_events.h) that tell those
 *     mappings as they change, from before the first sample on;
 *   - with copied user stacks (options->copy_user_stacks), the unwinder
 *     (user_unwinder.h) that walks them and the user counts (user_counts.h)
 *     the unwound samples are counted in.
 *
 * Lifecycle:
 *
 *	struct recording *r;
 *	if (recording__new(&sampler_options, annotate_jit, &r) < 0) ...  // sampling runs
 *	... release the workload, print the header ...
 *	if (recording__run(r, duration, workload, &stop_signals) < 0) ... // until done
 *	const struct recording_results *res = recording__results(r);
 *	... sampled_profile__build(..., res->sampler, res->counts, res->processes, ...) ...
 *	recording__free_sampler(r);            // the kernel's memory back
 *	... write the profile, report res->stats ...
 *	recording__free(r);
 *
 * recording__run() samples until the first of: duration seconds have
 * passed (0: no limit), the workload has exited (NULL: none), or SIGINT,
 * SIGTERM or SIGHUP is pending. The caller blocks stop_signals (those three
 * and SIGCHLD, which only wakes the wait) before the workload starts and
 * keeps them blocked while the recording runs: they are taken with
 * sigtimedwait(), so the first Ctrl-C ends sampling, not the process.
 * Then it detaches the sampler and reads the last task events and copied
 * samples. While stderr is a terminal it shows the seconds and samples so
 * far on one line, cleared at the end.
 *
 * Ownership. The caller owns the recording and frees it on every path out,
 * half-built or not; recording__free(NULL) does nothing. The recording
 * owns everything above; the results point into it and go stale at
 * recording__free(), res->sampler at recording__free_sampler() (it is
 * NULL after). The workload and stop_signals stay the caller's.
 *
 * Errors are returned, never exit(): recording__new() and recording__run()
 * print one error line and return -1 (*out is then NULL; a recording whose
 * run failed can only be freed). Running out of memory ends the process, as
 * everywhere (lib/xalloc.h).
 */
#ifndef FLAMEKIT_SAMPLER_RECORDING_H
#define FLAMEKIT_SAMPLER_RECORDING_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../interp/interp.h"
#include "../symbolize/process_symbols.h"
#include "../symbolize/user_unwinder.h"
#include "bpf_sampler.h"
#include "user_counts.h"
#include "workload.h"

/* What a finished run leaves: valid after recording__run() returned 0. */
struct recording_results {
	double elapsed;                       /* seconds sampled */
	struct bpf_sampler_stats stats;       /* read once sampling stopped */
	struct bpf_sampler *sampler;          /* detached; its maps hold the kernel's counts */
	const struct user_counts *counts;     /* samples unwound here; NULL without copied stacks */
	struct process_symbols *processes;    /* names for the user frames */
	const struct user_unwinder *unwinder; /* NULL without copied stacks */
	uint64_t copied_samples, copied_bytes;  /* stacks copied out, and their bytes */
	struct interp_session *interp;        /* interpreter frames; NULL: none asked for */
};

struct recording;

/* Opens the sampler with these options (the recording asks for new pids
 * itself where it needs them: notify_new_pids is ignored), opens the task
 * events where user stacks are sampled, and attaches: sampling has begun
 * when it returns 0. annotate_jit: JIT frames named by /tmp/perf-PID.map
 * end in "_[j]" (process_symbols__annotate_jit()). */
int recording__new(const struct bpf_sampler_options *options, bool annotate_jit,
		   struct recording **out);
/* The same, with interpreter frames as interp asks (NULL: none); the
 * session names them and merges them into the native frames. */
int recording__new_with_interp(const struct bpf_sampler_options *options, bool annotate_jit,
			       const struct interp_options *interp, struct recording **out);
/* Samples until done (see above), then stops sampling and reads the rest. */
int recording__run(struct recording *r, double duration, struct workload *workload,
		   const sigset_t *stop_signals);
const struct recording_results *recording__results(const struct recording *r);
/* Frees the sampler's programs and maps, which are the kernel's memory:
 * once the profile is built, before it is written. */
void recording__free_sampler(struct recording *r);
void recording__free(struct recording *r);

#endif
