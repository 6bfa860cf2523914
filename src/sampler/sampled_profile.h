/*
 * What `record` sampled, as a profile: every key the sampler counted in the
 * kernel (bpf_sampler__read()) and every one counted in user space after
 * unwinding a copied stack (user_counts.h), each folded as bcc profile
 * folds it:
 *
 *	comm;user frames, root first;-;kernel frames, root first  COUNT
 *
 * with "[Missed User Stack]" / "[Missed Kernel Stack]" where a stack was
 * there but lost, "-" only with delimited and both stacks present, "_[k]"
 * after kernel frames with annotate, and ';' in a name turned into ':'.
 *
 * A key with a waker (record --off-cpu --wakeups) goes on as bcc's
 * offwaketime folds it, the waker's stack upside down above the blocked one,
 * every waker frame marked "_[w]" (FlameGraph's --colors chain convention):
 *
 *	...;kernel frames, root first;--;waker kernel frames, leaf first;
 *	-;waker user frames, leaf first;waker comm  COUNT
 *
 * ("-" again only with delimited and both stacks present).
 *
 * With mark_off_cpu (record --all-time), the kernel frames of an off-CPU
 * key end in "_[o]" (after "_[k]" with annotate), so that on- and off-CPU
 * stacks share their user frames (a thread's width is its wall-clock time)
 * but part where the task ran or blocked; a key with no kernel frames to
 * mark (-U) ends in a "[off-CPU]_[o]" frame instead.
 *
 * Naming policy. User frames are named by the process symbols the caller
 * filled while sampling: the kernel's frame-pointer stacks by the process's
 * mappings of now, unwound ones by its mappings at the time of their first
 * sample. Kernel frames are named from /proc/kallsyms in one pass over the
 * addresses of both kinds of key, through the kernel symbol cache in
 * $FLAMEKIT_CACHE_DIR (empty: none; default /var/cache/flamekit, made 0700
 * and used only when it is the caller's own and closed to others, for it
 * holds kernel addresses); see symbolize/kernel_symbols.h.
 *
 *	struct profile *p = sampled_profile__build(&options, sampler, counts_or_NULL,
 *						   processes, missing_report_or_NULL);
 *	... write p ...
 *	profile__free(p);
 *
 * The profile belongs to the caller; it holds copies of the names, so the
 * sampler, the user counts and the process symbols may go as soon as it is
 * built (the sampler first: its maps are the kernel's memory). Building
 * reads the sampler's maps and does not change them.
 *
 * Errors: none are returned. What cannot be named is named "[unknown...]"
 * (an unreadable kallsyms is one warning line); running out of memory ends
 * the process, as everywhere (lib/xalloc.h).
 */
#ifndef FLAMEKIT_SAMPLER_SAMPLED_PROFILE_H
#define FLAMEKIT_SAMPLER_SAMPLED_PROFILE_H

#include <stdbool.h>

#include "../interp/interp.h"
#include "../profile/profile.h"
#include "../symbolize/process_symbols.h"
#include "bpf_sampler.h"
#include "missing_report.h"
#include "user_counts.h"

struct sampled_profile_options {
	bool user_stacks, kernel_stacks;  /* as the sampler was opened with */
	bool delimited;                   /* a "-" frame between user and kernel frames */
	bool annotate;                    /* kernel frames end in "_[k]" */
	bool with_pids;                   /* one stack per process (the report's "comm (pid)") */
	enum profile_unit unit;           /* what the counts are: samples, or --off-cpu's us */
	bool tracepoint_stacks;           /* kernel stacks read on a tracepoint or function (-e):
					   * their leaf frames, the BPF program's and the tracing
					   * machinery's (bpf_trace_run4, __traceiter_...,
					   * perf_trace_..., bpf_trampoline_...), go; an off-CPU
					   * key's always do */
	bool window;                      /* record --every: only the keys of slices
					   * first_slice..last_slice, as slice 0 */
	uint32_t first_slice, last_slice;
	bool mark_off_cpu;                /* --all-time: an off-CPU key's kernel frames end in
					   * "_[o]", and one without kernel frames gets a leaf
					   * "[off-CPU]_[o]" (the SVG's hotcold palette: blue) */
};

/* A new profile of one integer column (in options->unit), keyed by slice too; the
 * samples with user frames that have no names go into report (NULL: none),
 * once per binary and cause in each stack. */
struct profile *sampled_profile__build(const struct sampled_profile_options *options,
				       struct bpf_sampler *sampler,
				       const struct user_counts *counts,
				       struct process_symbols *processes,
				       struct missing_report *report);
/* The same, with each key's interpreter frames merged into its user frames
 * by interp (interp.h; NULL: none), which tallies what it could not merge. */
struct profile *sampled_profile__build_with_interp(const struct sampled_profile_options *options,
						   struct bpf_sampler *sampler,
						   const struct user_counts *counts,
						   struct process_symbols *processes,
						   struct interp_session *interp,
						   struct missing_report *report);

#endif
