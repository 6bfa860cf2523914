/*
 * record's default mode: sample until the duration, the command's or the
 * targets' exit, or a stop signal; then name the counted keys and write
 * one profile (record.h lists the other modes).
 */
#include "record.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/error.h"
#include "../sampler/missing_report.h"
#include "../sampler/sampled_profile.h"
#include "../sampler/targets.h"
#include "../sampler/workload.h"
#include "../symbolize/debuginfo.h"
#include "../symbolize/process_symbols.h"
#include "../symbolize/user_unwinder.h"
#include "cli.h"

/* "PID 12 has exited", "PIDs 12,34 have all exited", or the same of TIDs. */
static void say_targets_exited(const struct record_options *o)
{
	bool threads = !o->pid_list;
	const char *list = threads ? o->tid_list : o->pid_list;
	bool several = strchr(list, ',') != NULL;
	fprintf(stderr, "flamekit: %s%s %s %s exited: the recording ends\n",
		threads ? "TID" : "PID", several ? "s" : "", list, several ? "have all" : "has");
}

int record_once__run(struct record_options *o)
{
	sigset_t stop_signals, original_mask;
	struct workload *workload = NULL;
	struct targets *targets = NULL;
	struct debuginfod_fetcher *fetch = NULL;
	struct recording *recording = NULL;
	struct profile *profile = NULL;
	struct missing_report *missing = NULL;
	struct buf header = BUF_INIT, why_empty = BUF_INIT;
	uint32_t child_pid;
	time_t started = time(NULL);
	struct timespec wall_start;
	int status = EXIT_BAD_INPUT;

	clock_gettime(CLOCK_REALTIME, &wall_start);

	/* Signals are taken synchronously while sampling (sigtimedwait), so the
	 * first Ctrl-C ends the recording; after it, a second one aborts. */
	record__block_signals(&stop_signals, &original_mask);

	if (o->command) {
		if (workload__start(&workload, o->command, &original_mask) < 0)
			goto cleanup;
		child_pid = workload__pid(workload);
		o->sampler.pids = &child_pid;
		o->sampler.pid_count = 1;
		o->sampler.follow_children = true;
	}
	record__prepare_sampler(o);
	bool annotate = record__annotate(o);
	if (recording__new_with_interp(&o->sampler, annotate, &o->interp, &recording) < 0)
		goto cleanup;
	if (workload && workload__release(workload) < 0)
		goto cleanup;
	targets = record__targets(o);
	record__header(o, &header);
	fprintf(stderr, "%s\n", header.data);
	struct recording_limits limits = {
		.duration = o->duration, .workload = workload, .targets = targets,
		.stop_signals = &stop_signals,
	};
	struct recording_end end;
	if (recording__run(recording, &limits, &end) < 0)
		goto cleanup;
	/* as perf record passes on what ends it; what the terminal sent (Ctrl-C)
	 * reached the command's process group, the command with it */
	if (end.why == RECORDING_SIGNAL && workload && end.sent_to_us_only)
		workload__signal(workload, end.signal);
	if (end.why == RECORDING_TARGETS_EXITED)
		say_targets_exited(o);
	/* a signal after an end of another kind is a first one: it meets the
	 * dispositions flamekit started with, as before sampling */
	if (end.why == RECORDING_SIGNAL)
		record__let_signals_abort(&stop_signals, &original_mask);
	else
		sigprocmask(SIG_SETMASK, &original_mask, NULL);
	if (recording__finish(recording) < 0)
		goto cleanup;
	const struct recording_results *r = recording__results(recording);
	const struct bpf_sampler_stats stats = r->stats;

	struct sampled_profile_options naming = record__naming(o, annotate);
	/* debug files from debuginfod: fetched now, as names are wanted, never
	 * while sampling (a network wait would hold up the copied stacks) */
	if (o->debuginfod) {
		fetch = debuginfod_fetcher__new(*o->debuginfod ? o->debuginfod : NULL);
		process_symbols__fetch_debuginfo(r->processes, fetch);
	}
	missing = missing_report__new();
	profile = sampled_profile__build_with_interp(&naming, r->sampler, r->counts, r->processes,
						     r->interp, missing);
	interp_session__report(r->interp, record__add_interp_line, missing);
	if (o->sampler.verbose) {
		struct bpf_sampler_fetches f;
		bpf_sampler__fetches(r->sampler, &f);
		fprintf(stderr, "flamekit: %" PRIu64 " stored stacks read, %" PRIu64
			" of them in bulk\n", f.in_bulk + f.one_by_one, f.in_bulk);
	}
	/* the kernel's memory, and the names the profile has copied, given
	 * back before writing */
	recording__free_sampler(recording);
	process_symbols__forget_names(r->processes);
	if (o->sampler.slice_ns)
		profile__set_time(profile, &(struct profile_time){ o->sampler.slice_ns,
								   o->sampler.start_ns });
	record__set_source(o, &wall_start, r->elapsed, profile);

	struct buf empty_text = BUF_INIT;
	if (profile__size(profile) == 0) {
		record__explain_no_stacks(o, &why_empty);
		buf__printf(&empty_text, "%c%s", toupper((unsigned char)why_empty.data[0]),
			    why_empty.data + 1);
	}
	int written = record__write(o, started, profile, header.data, empty_text.data);
	buf__free(&empty_text);
	if (written < 0) {
		status = exit_status_of_write(written);
		goto cleanup;
	}

	record__report_stats(o, &stats, profile__size(profile), r->elapsed, why_empty.data);
	record__report_unwind(r, &stats, o->sampler.verbose);
	if (r->unwinder) {
		const struct unwind_stop *stops;
		size_t stop_count = user_unwinder__stops(r->unwinder, &stops);
		missing_report__add_stops(missing, stops, stop_count);
	}
	bool fetched = fetch != NULL;
	if (o->sampler.all_time)
		missing_report__print(missing, stderr, record__total(profile), "microseconds",
				      fetched);
	else if (o->sampler.off_cpu)
		missing_report__print(missing, stderr, stats.off_cpu_us, "off-CPU microseconds",
				      fetched);
	else if (o->sampler.event)
		missing_report__print(missing, stderr, stats.samples,
				      o->sampler.event_every > 1 ? "samples" : "events", fetched);
	else
		missing_report__print(missing, stderr, stats.samples, "samples", fetched);
	if (o->sampler.verbose && r->unwinder) {
		struct user_unwinder_stats u;
		user_unwinder__stats(r->unwinder, &u);
		fprintf(stderr, "flamekit: %" PRIu64 " user stacks unwound, %" PRIu64 " with the "
			"kernel's tables, %" PRIu64 " from the cache; %" PRIu64 " bytes of stack "
			"copied per sample\n", u.table_walks + u.walks + u.cached, u.table_walks, u.cached,
			r->copied_samples ? r->copied_bytes / r->copied_samples : 0);
	}
	if (stats.children_lost)
		warning("%" PRIu64 " child processes were not followed: too many at once",
			stats.children_lost);
	status = 0;
cleanup:
	workload__free(workload);
	targets__free(targets);
	recording__free(recording);
	debuginfod_fetcher__free(fetch);  /* (the binaries, freed with the recording, used it) */
	profile__free(profile);
	missing_report__free(missing);
	buf__free(&header);
	buf__free(&why_empty);
	sigprocmask(SIG_SETMASK, &original_mask, NULL);
	return status;
}
