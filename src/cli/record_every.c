/*
 * record --every SECONDS: back-to-back windows, each a profile of its own,
 * until the duration, the command's or targets' exit, or a stop signal.
 *
 * A window is a time slice of the sampler (bpf_sampler.h's slice_ns, as
 * --timeline's): the kernel puts each sample in the slice of its time, so a
 * sample is in exactly one window whenever it is read. A window is read
 * WINDOW_GRACE after it closed (the copied stacks of its last moments have
 * come through the ring by then), named and written, and its keys dropped
 * from the kernel's map and the user counts; the next window's samples
 * count meanwhile. The last window, cut short by the end, takes every slice
 * left.
 *
 * With --push, each window is also encoded for the backend (pprof for
 * Pyroscope, OTLP) and put in the spool (push/spool.h), which the sender
 * thread (push/push.h) drains: this thread never waits on the network. At
 * the end the sender gets --push-timeout for what is left; the last line
 * says how many windows were delivered, are spooled and were dropped.
 */
#include "record.h"

#include <ctype.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/clock.h"
#include "../lib/error.h"
#include "../lib/own_arena.h"
#include "../push/push.h"
#include "../push/spool.h"
#include "../writers/otlp.h"
#include "../writers/pprof.h"
#include "../sampler/missing_report.h"
#include "../sampler/sampled_profile.h"
#include "../sampler/targets.h"
#include "../sampler/workload.h"
#include "cli.h"

/* Seconds after a window's end before it is read. */
#define WINDOW_GRACE 0.25
/* Allocations from this size up are mappings of their own (see record_every__run()). */
#define EVERY_MMAP_THRESHOLD (128 << 10)
/* Binaries' file pages read while sampling given back every second, not
 * every quarter (one-shot record's peak): each time walks the page tables
 * of every binary mapped (libLLVM's 100 MB), the most of an agent's CPU
 * after the BPF maps' reads (9 % of it, in madvise), where a window's end
 * gives them back anyway. */
#define EVERY_RELEASE_SECONDS 1.0

struct every_run {
	struct record_options *o;
	struct recording *recording;
	struct missing_report *missing;
	const char *header;
	bool annotate;
	struct timespec wall_start, mono_start;  /* of slice 0 */
	uint64_t samples, stacks;                 /* over all windows */
	unsigned windows;
	struct spool *spool;                      /* --push */
	struct pusher *pusher;
	char app[256];
};

static bool push_failed(void *arg)
{
	return pusher__failed(arg);
}

/* --app's default: the command's name, the first target's, the user's, or
 * flamekit's. */
static void default_app(const struct record_options *o, char *app, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(app, size, "flamekit");
	if (o->app) {
		snprintf(app, size, "%s", o->app);
		return;
	}
	if (o->command) {
		const char *slash = strrchr(o->command[0], '/');
		snprintf(app, size, "%s", slash ? slash + 1 : o->command[0]);
	} else if (o->sampler.pid_count || o->sampler.tid_count) {
		snprintf(path, sizeof path, "/proc/%u/comm",
			 o->sampler.pid_count ? o->sampler.pids[0] : o->sampler.tids[0]);
		if ((f = fopen(path, "re"))) {
			if (!fgets(app, (int)size, f))
				snprintf(app, size, "flamekit");
			fclose(f);
		}
	} else if (o->user) {
		snprintf(app, size, "%s", o->user);
	}
	app[strcspn(app, "\n")] = 0;
	for (char *c = app; *c; c++)  /* as --app takes names */
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-", *c))
			*c = '_';
}

/* Pyroscope's series name: APP.TYPE{host=HOST,KEY=VALUE,...}, TYPE what
 * the window measured (cpu, off_cpu, wall, or the event's name). */
static void pyroscope_name(const struct every_run *run, const struct profile *profile,
			   struct spool_head *head)
{
	const struct profile_source *source = profile__source(profile);
	const struct record_options *o = run->o;
	struct buf name = BUF_INIT;
	bool host_given = false;

	buf__printf(&name, "%s.", run->app);
	for (const char *c = source->measure; *c; c++)
		buf__printf(&name, "%c", isalnum((unsigned char)*c) ? *c : '_');
	buf__printf(&name, "{");
	for (size_t i = 0; i < o->label_count; i++)
		host_given |= strncmp(o->labels[i], "host=", 5) == 0;
	if (!host_given)
		buf__printf(&name, "host=%s%s", source->host, o->label_count ? "," : "");
	for (size_t i = 0; i < o->label_count; i++)
		buf__printf(&name, "%s%s", i ? "," : "", o->labels[i]);
	buf__printf(&name, "}");
	snprintf(head->name, sizeof head->name, "%s", name.data);
	buf__free(&name);
}

/* The window, encoded as the backend takes it, into the spool. */
static void push_window(struct every_run *run, const struct profile *profile,
			const struct timespec *start, double seconds)
{
	const struct record_options *o = run->o;
	struct spool_head head = { .rate = 0 };
	/* a window's body: freed once spooled, not kept for the next (kept, it
	 * stayed resident at the size of the largest window so far) */
	struct buf body = BUF_INIT;
	int encoded;

	snprintf(head.format, sizeof head.format, "%s", push__format(o->push_protocol));
	head.from = (uint64_t)start->tv_sec;
	head.until = (uint64_t)(start->tv_sec + (time_t)(seconds + 0.5));
	if (head.until <= head.from)
		head.until = head.from + 1;
	if (o->push_protocol == PUSH_OTLP) {
		struct otlp_options otlp = { .service_name = run->app, .attributes = o->labels,
					     .attribute_count = o->label_count };
		encoded = otlp__encode(profile, &otlp, &body);
	} else {
		pyroscope_name(run, profile, &head);
		if (!o->sampler.event && !(o->sampler.off_cpu && !o->sampler.all_time))
			head.rate = o->sampler.period ?
				(unsigned)(1000000000 / o->sampler.period) : o->sampler.frequency;
		encoded = pprof__encode(profile, &body);
	}
	if (encoded < 0) {
		warning("window not encoded for --push: dropped");
	} else {
		uint64_t start_ns = (uint64_t)start->tv_sec * 1000000000 + (uint64_t)start->tv_nsec;
		if (spool__add(run->spool, start_ns, &head, body.data, body.len) == 0)
			pusher__wake(run->pusher);
	}
	buf__free(&body);
}

/* A window to close: the slices first..last, which lasted `seconds`. */
struct window {
	struct every_run *run;
	uint32_t first, last;
	double seconds;
};

/* Names, writes and forgets a window (struct window). A window that cannot
 * be written is said and skipped: sampling goes on. */
static int end_window(void *arg)
{
	const struct window *w = arg;
	struct every_run *run = w->run;
	uint32_t first = w->first, last = w->last;
	double seconds = w->seconds;
	struct record_options *o = run->o;
	const struct recording_results *r = recording__results(run->recording);
	struct sampled_profile_options naming = record__naming(o, run->annotate);
	struct timespec start = run->wall_start;
	struct buf why_empty = BUF_INIT, empty_text = BUF_INIT;

	naming.window = true;
	/* OTLP's resources are processes */
	naming.with_pids |= o->push_protocol == PUSH_OTLP;
	naming.first_slice = first;
	naming.last_slice = last;
	struct profile *profile = sampled_profile__build_with_interp(
		&naming, r->sampler, r->counts, r->processes, r->interp, run->missing);
	start.tv_sec += (time_t)first * o->every;
	record__set_source(o, &start, seconds, profile);
	if (profile__size(profile) == 0) {
		record__explain_no_stacks(o, &why_empty);
		buf__printf(&empty_text, "%c%s", toupper((unsigned char)why_empty.data[0]),
			    why_empty.data + 1);
	}
	int written = o->outdir ?
		record__write(o, start.tv_sec, profile, run->header, empty_text.data) : 0;
	if (run->spool)
		push_window(run, profile, &start, seconds);
	run->samples += record__total(profile);
	run->stacks += profile__size(profile);
	run->windows++;
	profile__free(profile);
	buf__free(&why_empty);
	buf__free(&empty_text);
	if (written < 0)
		warning("window %" PRIu32 " not written; sampling goes on", first);
	return recording__forget_slices(run->recording, last);
}

/* end_window() for the slices first..last. A window's naming and encoding
 * take megabytes for a moment: in an arena of their own (own_arena.h), and
 * given back after, or a long run's RSS would climb for minutes (by 1.1 MB
 * over four of builds, where it is level from the fourth window now). */
static int close_window(struct every_run *run, uint32_t first, uint32_t last, double seconds)
{
	struct window window = { run, first, last, seconds };
	int status = own_arena__run(end_window, &window);
	malloc_trim(0);
	return status;
}

int record_every__run(struct record_options *o)
{
	sigset_t stop_signals, original_mask;
	struct workload *workload = NULL;
	struct targets *targets = NULL;
	struct buf header = BUF_INIT;
	struct every_run run = { .o = o };
	uint32_t child_pid;
	int status = EXIT_BAD_INPUT;

	/* A window's big buffers (the name cache, the read batches, the encoded
	 * profile) mapped and unmapped whole every time: glibc otherwise raises
	 * its mmap threshold to the largest chunk freed, and serves them from
	 * the heap after, leaving it fragmented. */
	mallopt(M_MMAP_THRESHOLD, EVERY_MMAP_THRESHOLD);
	record__block_signals(&stop_signals, &original_mask);
	/* the spool is checked (and locked) before anything starts */
	if (o->push_url) {
		if (spool__open(o->spool_dir, o->spool_max, &run.spool) < 0)
			goto cleanup;
		default_app(o, run.app, sizeof run.app);
	}
	if (o->command) {
		if (workload__start(&workload, o->command, &original_mask) < 0)
			goto cleanup;
		child_pid = workload__pid(workload);
		o->sampler.pids = &child_pid;
		o->sampler.pid_count = 1;
		o->sampler.follow_children = true;
	}
	record__prepare_sampler(o);  /* slice 0 starts now */
	clock_gettime(CLOCK_REALTIME, &run.wall_start);
	clock_gettime(CLOCK_MONOTONIC, &run.mono_start);
	run.annotate = record__annotate(o);
	if (recording__new_with_interp(&o->sampler, run.annotate, &o->interp, &run.recording) < 0)
		goto cleanup;
	if (workload && workload__release(workload) < 0)
		goto cleanup;
	targets = record__targets(o);
	record__header(o, &header);
	run.header = header.data;
	fprintf(stderr, "%s\nflamekit: a profile every %u s%s%s%s%s\n", header.data, o->every,
		o->outdir ? " into " : "", o->outdir ? o->outdir : "",
		o->push_url ? ", pushed to " : "", o->push_url ? o->push_url : "");
	if (run.spool) {
		struct push_options push = { o->push_url, o->push_protocol, o->authorization };
		struct spool_counts c;
		spool__counts(run.spool, &c);
		if (c.found)
			fprintf(stderr, "flamekit: %" PRIu64 " windows of earlier runs wait in %s: "
				"they go first\n", c.found, spool__dir(run.spool));
		if (pusher__start(&push, run.spool, &run.pusher) < 0)
			goto cleanup;
	}
	run.missing = missing_report__new();

	struct recording_end end;
	uint32_t window = 0;
	for (;; window++) {
		double window_end = (double)(window + 1) * o->every;
		bool last = o->duration > 0 && o->duration <= window_end + WINDOW_GRACE;
		double until = last ? o->duration : window_end + WINDOW_GRACE;
		double left = until - seconds_since(&run.mono_start);
		struct recording_limits limits = {
			.duration = left > 0.001 ? left : 0.001, .workload = workload,
			.targets = targets, .stop_signals = &stop_signals,
			.stop = run.pusher ? push_failed : NULL, .stop_arg = run.pusher,
			.release_seconds = EVERY_RELEASE_SECONDS,
		};
		if (recording__run(run.recording, &limits, &end) < 0)
			goto cleanup;
		if (last || end.why != RECORDING_DURATION)
			break;
		if (close_window(&run, window, window, o->every) < 0)
			goto cleanup;
	}
	if (end.why == RECORDING_SIGNAL && workload && end.sent_to_us_only)
		workload__signal(workload, end.signal);
	if (end.why == RECORDING_SIGNAL)
		record__let_signals_abort(&stop_signals, &original_mask);
	else
		sigprocmask(SIG_SETMASK, &original_mask, NULL);
	double elapsed = seconds_since(&run.mono_start);
	if (recording__finish(run.recording) < 0)
		goto cleanup;
	/* the last window, cut short: every slice left */
	if (close_window(&run, window, UINT32_MAX, elapsed - (double)window * o->every) < 0)
		goto cleanup;
	const struct recording_results *r = recording__results(run.recording);
	interp_session__report(r->interp, record__add_interp_line, run.missing);
	struct bpf_sampler_stats stats = r->stats;
	record__report_stats(o, &stats, run.stacks, elapsed, NULL);
	record__report_unwind(r, &stats, o->sampler.verbose);
	if (o->sampler.verbose) {
		size_t mappings, processes = process_symbols__count(r->processes, &mappings);
		fprintf(stderr, "flamekit: %zu processes still followed at the end, with %zu "
			"mappings\n", processes, mappings);
	}
	if (o->outdir)
		fprintf(stderr, "flamekit: %u windows of %u s written to %s\n", run.windows,
			o->every, o->outdir);
	missing_report__print(run.missing, stderr, o->sampler.off_cpu ? stats.off_cpu_us :
			      stats.samples, o->sampler.off_cpu ? "off-CPU microseconds" :
			      o->sampler.event ? "events" : "samples", false);
	status = 0;
	if (run.pusher) {
		pusher__finish(run.pusher, pusher__failed(run.pusher) ? 0 : o->push_timeout);
		if (pusher__failed(run.pusher))
			status = EXIT_WRITE_FAILED;
		struct spool_counts c;
		spool__counts(run.spool, &c);
		fprintf(stderr, "flamekit: push: %" PRIu64 " windows delivered, %" PRIu64
			" spooled in %s, %" PRIu64 " dropped\n", c.delivered, c.pending,
			spool__dir(run.spool), c.dropped);
	}
cleanup:
	workload__free(workload);
	targets__free(targets);
	recording__free(run.recording);
	missing_report__free(run.missing);
	pusher__free(run.pusher);  /* (stops the sender first where it runs yet) */
	spool__close(run.spool);
	buf__free(&header);
	sigprocmask(SIG_SETMASK, &original_mask, NULL);
	return status;
}
