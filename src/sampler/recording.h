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
 *	struct recording_end end;
 *	if (recording__run(r, &limits, &end) < 0) ...            // until done
 *	... pass a stop signal on, let a second one abort ...
 *	if (recording__finish(r) < 0) ...                         // the rest read
 *	const struct recording_results *res = recording__results(r);
 *	... sampled_profile__build(..., res->sampler, res->counts, res->processes, ...) ...
 *	recording__free_sampler(r);            // the kernel's memory back
 *	... write the profile, report res->stats ...
 *	recording__free(r);
 *
 * recording__run() samples until the first of: limits->duration seconds
 * have passed (0: no limit), the workload has exited (NULL: none), every
 * target has exited (NULL: none; targets.h), or SIGINT, SIGTERM or SIGHUP
 * is pending; *end says which. The caller blocks limits->stop_signals (those
 * three, or the ones it honours, and SIGCHLD, which only wakes the wait)
 * before the workload starts and keeps them blocked while the recording
 * runs: they are taken with sigtimedwait(), so the first Ctrl-C ends
 * sampling, not the process. While stderr is a terminal it shows the
 * seconds and samples so far on one line, cleared at the end.
 *
 * Copied stacks are unwound as they come, but never for more than a tenth
 * of a second at a time: when samples come faster than they are unwound (a
 * high -F on a busy machine), the ring fills and the kernel drops, and
 * counts, what it cannot take, while the duration, the workload and the
 * signals are still looked at on time. recording__finish() detaches the
 * sampler and reads the last task events and copied samples, the latter
 * for two seconds at most, dropping the rest; every copied sample dropped
 * counts in stats.copies_lost.
 *
 * Ownership. The caller owns the recording and frees it on every path out,
 * half-built or not; recording__free(NULL) does nothing. The recording
 * owns everything above; the results point into it and go stale at
 * recording__free(), res->sampler at recording__free_sampler() (it is
 * NULL after). The workload, targets and stop_signals stay the caller's.
 *
 * Errors are returned, never exit(): recording__new(), recording__run() and
 * recording__finish() print one error line and return -1 (*out is then
 * NULL; a recording whose run failed can only be freed). Running out of
 * memory ends the process, as everywhere (lib/xalloc.h).
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
#include "kernel_unwind.h"
#include "targets.h"
#include "user_counts.h"
#include "workload.h"

/* When sampling ends (see above). */
struct recording_limits {
	double duration;              /* seconds; 0: no limit */
	struct workload *workload;    /* -- COMMAND; NULL: none */
	struct targets *targets;      /* -p or -L; NULL: none */
	const sigset_t *stop_signals;
	/* asked every tenth of a second at most: true ends the run (NULL: never) */
	bool (*stop)(void *arg);
	void *stop_arg;
	/* how often the pages of binaries' files read are given back
	 * (seconds; 0: RECORDING_RELEASE_SECONDS, recording.c) */
	double release_seconds;
};

/* Why it ended. */
struct recording_end {
	enum {
		RECORDING_DURATION,
		RECORDING_WORKLOAD_EXITED,
		RECORDING_TARGETS_EXITED,
		RECORDING_SIGNAL,
		RECORDING_STOPPED,        /* limits->stop said so */
	} why;
	int signal;                   /* RECORDING_SIGNAL: which */
	bool sent_to_us_only;         /* ... by kill(2) to this process, not by the
				       * terminal (Ctrl-C) to its process group */
};

/* Samples the kernel's walk left to the copy path (kernel_unwind), by the
 * binary it stopped in (NULL: a pc in none known here). */
struct recording_fallback {
	const char *binary;           /* the path the process mapped it by */
	uint64_t samples;
};

/* What a finished run leaves: valid after recording__finish() returned 0. */
struct recording_results {
	double elapsed;                       /* seconds sampled */
	struct bpf_sampler_stats stats;       /* read once sampling stopped */
	struct bpf_sampler *sampler;          /* detached; its maps hold the kernel's counts */
	const struct user_counts *counts;     /* samples unwound here; NULL without copied stacks */
	struct process_symbols *processes;    /* names for the user frames */
	const struct user_unwinder *unwinder; /* NULL without copied stacks */
	uint64_t copied_samples, copied_bytes;  /* stacks copied out, and their bytes */
	uint64_t task_events_lost;            /* mmaps, execs, forks, exits (task_events.h) */
	struct interp_session *interp;        /* interpreter frames; NULL: none asked for */
	/* options->kernel_unwind: the tables loaded, and the samples copied
	 * instead, by why (record.h's enum record_fallback) and by binary */
	struct kernel_unwind *kernel_unwind;
	uint64_t fallback_samples;
	uint64_t fallback_reasons[8];
	struct recording_fallback *fallback_binaries;
	size_t fallback_binary_count;
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
/* Samples until done (see above); *end says why it stopped. */
int recording__run(struct recording *r, const struct recording_limits *limits,
		   struct recording_end *end);
/* record --every: drops the counted keys of slices up to `slice` (a window
 * written), in the kernel's map and in the user counts, and the stored
 * stacks no other key uses (bpf_sampler__forget_slices()), the processes
 * that exited before it ended (here and in the interpreter session), the
 * names made, the symbols of binaries idle for some windows and the pages
 * of binaries' files read (process_symbols__release_pages(),
 * __forget_names()). While sampling runs. 0, or -1 after an error line. */
int recording__forget_slices(struct recording *r, uint32_t slice);
/* The sampler's stats so far, while sampling runs. */
int recording__stats(struct recording *r, struct bpf_sampler_stats *stats);
/* Stops sampling and reads the rest. */
int recording__finish(struct recording *r);
const struct recording_results *recording__results(const struct recording *r);
/* Frees the sampler's programs and maps, which are the kernel's memory:
 * once the profile is built, before it is written. */
void recording__free_sampler(struct recording *r);
void recording__free(struct recording *r);

#endif
