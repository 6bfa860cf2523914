/*
 * What record's modes share: the header and the reasons for an empty
 * recording, the stop signals, how the sampler's keys become a profile, the
 * profile's source, writing it, and the end-of-run lines on the stats.
 */
#include "record.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../lib/clock.h"
#include "../lib/error.h"
#include "../lib/xalloc.h"
#include "../sampler/kernel_unwind.h"
#include "../sampler/missing_report.h"
#include "../writers/graph_options.h"
#include "../writers/outdir.h"

/* What is recorded, as the header names it: "PID 1234", "all threads". */
static void describe_subject(const struct record_options *o, struct buf *what)
{
	const struct bpf_sampler_options *s = &o->sampler;

	if (o->pid_list)
		buf__printf(what, "PID %s", o->pid_list);
	else if (o->tid_list)
		buf__printf(what, "TID %s", o->tid_list);
	else if (o->command)
		buf__printf(what, "command %s and its children", o->command[0]);
	else if (o->user)
		buf__printf(what, "user %s", o->user);
	else if (s->off_cpu && (s->user_threads_only || s->kernel_threads_only))
		buf__printf(what, "%s threads", s->user_threads_only ? "user" : "kernel");
	else
		buf__printf(what, "all threads");
}

/* bcc's header line, or offcputime's "Tracing off-CPU time (us) of ..."
 * (offwaketime's "Tracing blocked time (us) of ... off-CPU and waker
 * stack"). */
void record__header(const struct record_options *o, struct buf *line)
{
	const struct bpf_sampler_options *s = &o->sampler;
	struct buf what = BUF_INIT;

	describe_subject(o, &what);
	const char *stacks = !s->kernel_stacks ? "user" : !s->user_stacks ? "kernel" :
		"user + kernel";
	if (s->all_time)
		buf__printf(line, "Tracing on- and off-CPU time (us) of %s by %s stack (on CPU "
			    "%" PRIu64 " us a sample, at %u Hertz; off-CPU frames marked _[o]%s)",
			    what.data, stacks, s->sample_weight, s->period ?
			    (unsigned)(1000000000 / s->period) : s->frequency,
			    !s->user_stacks ? "" : s->kernel_unwind ?
			    "; user stacks from unwind tables" : "; user stacks by frame pointers");
	else if (s->event && s->event_every > 1)
		buf__printf(line, "Tracing %s samples (one in %" PRIu64 " events) of %s by %s "
			    "stack%s", s->event->text, s->event_every, what.data, stacks,
			    s->user_stacks && !s->copy_user_stacks ?
			    " (user stacks by frame pointers)" : "");
	else if (s->event)
		buf__printf(line, "Tracing %s events (each counted) of %s by %s stack%s",
			    s->event->text, what.data, stacks, s->user_stacks && !s->copy_user_stacks ?
			    " (user stacks by frame pointers)" : "");
	else if (s->off_cpu)
		buf__printf(line, "Tracing %s time (us) of %s by %s %sstack%s",
			    s->wakeups ? "blocked" : "off-CPU", what.data, stacks,
			    s->wakeups ? "off-CPU and waker " : "",
			    !s->user_stacks ? "" : s->kernel_unwind ?
			    " (user stacks from unwind tables)" : " (user stacks by frame pointers)");
	else if (s->period)
		buf__printf(line, "Sampling every %" PRIu64 " ns of CPU time of %s by %s stack",
			    s->period, what.data, stacks);
	else
		buf__printf(line, "Sampling at %u Hertz of %s by %s stack", s->frequency,
			    what.data, stacks);
	if (s->cpu >= 0)
		buf__printf(line, " on CPU#%d", s->cpu);
	if (o->duration > 0)
		buf__printf(line, " for %g secs.", o->duration);
	else if (o->command)
		buf__printf(line, " until it exits... Hit Ctrl-C to end.");
	else
		buf__printf(line, "... Hit Ctrl-C to end.");
	buf__free(&what);
}

/* Why a recording has no stacks, in flamekit's words (flamegraph.pl's
 * "No valid input provided" would blame the input): "no samples: PID 1234
 * did not run on a CPU while sampled ...". */
void record__explain_no_stacks(const struct record_options *o, struct buf *why)
{
	const struct bpf_sampler_options *s = &o->sampler;
	struct buf what = BUF_INIT, cpu = BUF_INIT;

	describe_subject(o, &what);
	if (s->cpu >= 0)
		buf__printf(&cpu, " on CPU#%d", s->cpu);
	if (s->event)
		buf__printf(why, "no %s: %s did not happen in %s%s while traced",
			    s->event_every > 1 ? "samples" : "events", s->event->text, what.data,
			    cpu.data ? cpu.data : "");
	else if (s->off_cpu && !s->all_time)
		buf__printf(why, "no off-CPU time: %s did not leave a CPU%s in blocks the filters "
			    "keep while traced", what.data, cpu.data ? cpu.data : "");
	else
		buf__printf(why, "no samples: %s did not run on a CPU%s while sampled (idle? "
			    "flamekit record --off-cpu shows where it waits)", what.data,
			    cpu.data ? cpu.data : "");
	buf__free(&what);
	buf__free(&cpu);
}

/* Is this a release of Linux at least major.minor? */
static bool kernel_at_least(unsigned want_major, unsigned want_minor)
{
	struct utsname u;
	unsigned major = 0, minor = 0;

	return uname(&u) == 0 && sscanf(u.release, "%u.%u", &major, &minor) == 2 &&
	       (major > want_major || (major == want_major && minor >= want_minor));
}

/* --unwind=auto: user stacks walked in the kernel from the binaries'
 * tables where it can (x86-64, the kernel's BTF; bpf_loop and bpf_find_vma
 * came in Linux 5.17, stacks allocated as they come in a timer's program
 * in 6.1). */
static bool choose_kernel_unwind(void)
{
#if defined(__x86_64__)
	return access("/sys/kernel/btf/vmlinux", R_OK) == 0 && kernel_at_least(6, 1);
#else
	return false;
#endif
}

/* --unwind=auto: copied stacks where the kernel can give them (x86-64 user
 * registers through bpf_task_pt_regs(), Linux 5.15, which needs the
 * kernel's BTF), since most binaries of a distribution have no frame
 * pointers, and no stack's root (libc's) has them; the kernel's
 * frame-pointer walk elsewhere. One way for every binary: a stack mixes
 * binaries built both ways, and libdwfl walks frame-pointer code from its
 * .eh_frame as well. */
bool record__choose_dwarf(const struct record_options *o)
{
#if defined(__x86_64__)
	/* -e: events can come far oftener than the timer's 49 Hz, and a copy
	 * is up to 64 KB: frame pointers unless --unwind=dwarf asks */
	if (o->unwind == UNWIND_AUTO && o->sampler.event)
		return false;
	if (o->unwind == UNWIND_AUTO)
		return access("/sys/kernel/btf/vmlinux", R_OK) == 0 && kernel_at_least(5, 15);
	return o->unwind == UNWIND_DWARF;
#else
	(void)o;
	return false;
#endif
}

/*
 * Writes the profile where the options say. An off-CPU profile is labelled
 * as FlameGraph's off-CPU graphs are (titled, blue: --colors io; with
 * wakers --colors chain, whose _[w] frames the profile has already), and
 * its report starts with bcc's header, which says its counts are
 * microseconds; the SVG's counts read "us" from the profile's unit.
 */
int record__write(const struct record_options *o, time_t started,
			const struct profile *profile, const char *header, const char *empty_text)
{
	const struct bpf_sampler_options *s = &o->sampler;
	struct svg_options graph = o->graph;  /* flamegraph's options as given */
	struct html_options page = { 0 };
	struct writer_options graph_labels = { .format = &graph, .empty_text = empty_text },
			      labels = { .empty_text = empty_text };
	const char *title = NULL, *colors = NULL;
	char event_title[256];

	if (s->all_time) {
		title = "On- and Off-CPU Time Flame Graph";
		colors = "hotcold";
	} else if (s->event) {
		snprintf(event_title, sizeof event_title, "%s Flame Graph", s->event->text);
		title = event_title;
		colors = "kind";
	} else if (s->off_cpu) {
		title = s->wakeups ? "Off-Wake Time Flame Graph" : "Off-CPU Time Flame Graph";
		colors = s->wakeups ? "chain" : "io";
	} else {
		colors = "kind";  /* kernel, native, Python and JIT frames apart */
	}
	/* what the user gave wins over record's own labels */
	if (!graph.title)
		graph.title = title;
	if (colors && !o->colors_given)
		graph.colors = colors;
	graph.chain_marked = s->wakeups;
	struct outdir_subject subject = {
		o->pid_list, o->user, o->command ? o->command[0] : NULL,
	};
	if (o->outdir && !o->every)
		return outdir__write(o->outdir, started, &subject, profile, &graph_labels, o->writer);
	if (strcmp(o->writer->name, "svg") == 0) {
		labels = graph_labels;
	} else if (strcmp(o->writer->name, "html") == 0) {
		graph_options__page(&graph, &page);
		labels.format = &page;
		labels.title = graph.title;
		labels.count_name = graph.count_name;
	} else if ((s->off_cpu || s->event) && strcmp(o->writer->name, "bcc-report") == 0)
		labels.title = header;
	if (o->outdir)  /* --every's window */
		return outdir__write_window(o->outdir, started, &subject, profile, &labels, o->writer,
					    o->keep);
	return writer__write_file(o->writer, profile, &labels, o->output_path);
}

/* What pprof and OTLP say of a recording besides its stacks (profile.h's
 * source): when it started and how long it ran, what was measured, what
 * one sample stands for, and where. */
void record__set_source(const struct record_options *o, const struct timespec *start,
		       double elapsed, struct profile *profile)
{
	const struct bpf_sampler_options *s = &o->sampler;
	struct profile_source source = {
		.start_unix_ns = (uint64_t)start->tv_sec * 1000000000 + (uint64_t)start->tv_nsec,
		.duration_ns = (uint64_t)(elapsed * 1e9),
	};
	const char *measure = s->all_time ? "wall" : s->off_cpu ? "off_cpu" :
			      s->event ? s->event->text : "cpu";
	snprintf(source.measure, sizeof source.measure, "%s", measure);
	if (s->event && s->event_every > 1) {
		source.period = s->event_every;
		source.period_unit = PROFILE_EVENTS;
	} else if (!s->event && !s->off_cpu) {
		source.period = s->period ? s->period : (1000000000 + s->frequency / 2) / s->frequency;
		source.period_unit = PROFILE_NANOSECONDS;
	}
	if (gethostname(source.host, sizeof source.host - 1) != 0)
		source.host[0] = '\0';
	profile__set_source(profile, &source);
}

/* After the first stop signal: a second one aborts at once, without
 * writing (lib/output.h removes a file half-written), even where the
 * signal was ignored when flamekit started (a background job of a script
 * ignores SIGINT, yet the first one was taken, blocked). */
void record__let_signals_abort(const sigset_t *stop_signals, const sigset_t *original_mask)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	sigset_t unblock;

	sigemptyset(&unblock);
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
		if (sigismember(stop_signals, stops[i])) {
			signal(stops[i], SIG_DFL);
			sigaddset(&unblock, stops[i]);
		}
	sigprocmask(SIG_SETMASK, original_mask, NULL);
	sigprocmask(SIG_UNBLOCK, &unblock, NULL);
}


void record__block_signals(sigset_t *stop_signals, sigset_t *original)
{
	struct sigaction hup;

	sigemptyset(stop_signals);
	sigaddset(stop_signals, SIGINT);
	sigaddset(stop_signals, SIGTERM);
	if (sigaction(SIGHUP, NULL, &hup) != 0 || hup.sa_handler != SIG_IGN)
		sigaddset(stop_signals, SIGHUP);
	sigaddset(stop_signals, SIGCHLD);
	sigprocmask(SIG_BLOCK, stop_signals, original);
}

void record__prepare_sampler(struct record_options *o)
{
	o->sampler.copy_user_stacks = o->sampler.user_stacks && !o->sampler.off_cpu &&
				      record__choose_dwarf(o);
	/* auto: the walk in the kernel, what it cannot do copied (off CPU:
	 * walked by frame pointers) */
	o->sampler.kernel_unwind = o->sampler.user_stacks && o->unwind == UNWIND_AUTO &&
				   (o->sampler.copy_user_stacks || o->sampler.off_cpu) &&
				   choose_kernel_unwind();
	/* the kernel's walk keeps every process's user stacks in the kernel
	 * (their addresses differ from process to process), where copies were
	 * counted in user space: a host's worth of them (three builds of this
	 * project stored more than 65,536) */
	if (!o->sampler.stack_storage_size)
		o->sampler.stack_storage_size = o->sampler.kernel_unwind ? 131072 : 16384;
	if (o->sampler.all_time)  /* a timer sample's CPU time, in us */
		o->sampler.sample_weight = o->sampler.period ? o->sampler.period / 1000 :
			(1000000 + o->sampler.frequency / 2) / o->sampler.frequency;
	/* slice 0 starts now, in bpf_ktime_get_ns()'s clock; a stack is a key
	 * per slice: --timeline keeps every slice's keys to the end, --every
	 * a window's and, at its turn, the next one's (each read of the
	 * counts map walks all its buckets: every window, three times) */
	if (o->sampler.slice_ns) {
		o->sampler.start_ns = monotonic_ns();
		o->sampler.counts_size = o->sampler.stack_storage_size * (o->every ? 2 : 8);
	}
}

/* every frame says its kind (_[k], _[j]; Python frames by their form),
 * except in bcc's own forms, -f's lines and the report, where -a does */
bool record__annotate(const struct record_options *o)
{
	bool bcc_form = !o->outdir && (o->folded || strcmp(o->writer->name, "bcc-report") == 0);
	return o->annotate || !bcc_form;
}

struct sampled_profile_options record__naming(const struct record_options *o, bool annotate)
{
	return (struct sampled_profile_options){
		.user_stacks = o->sampler.user_stacks,
		.kernel_stacks = o->sampler.kernel_stacks,
		.delimited = o->delimited,
		.annotate = annotate,
		.with_pids = o->writer->keeps_processes,
		.unit = o->sampler.off_cpu ? PROFILE_MICROSECONDS :
			o->sampler.event && o->sampler.event_every <= 1 ? PROFILE_EVENTS :
			PROFILE_SAMPLES,
		.tracepoint_stacks = o->sampler.event && o->sampler.event->kind != EVENT_PERF,
		.mark_off_cpu = o->sampler.all_time,
	};
}

/* The last line on the stats, as bcc's tools end, why there are no stacks
 * (why_empty; NULL: there are), and a warning for each kind of loss. */
void record__report_stats(const struct record_options *o, const struct bpf_sampler_stats *s,
			  size_t stacks, double elapsed, const char *why_empty)
{
	bool blocks = o->sampler.all_time || o->sampler.off_cpu;
	uint64_t lost = s->dropped + s->stacks_lost + s->over_budget +
			(blocks ? s->blocks_lost : s->copies_lost);

	if (o->sampler.all_time)
		fprintf(stderr, "flamekit: %" PRIu64 " samples and blocks, %" PRIu64 " us off CPU, "
			"%" PRIu64 " distinct stacks in %.1f s; %" PRIu64 " lost\n", s->samples,
			s->off_cpu_us, (uint64_t)stacks, elapsed, lost);
	else if (o->sampler.off_cpu)
		fprintf(stderr, "flamekit: %" PRIu64 " blocks, %" PRIu64 " us off CPU, %" PRIu64
			" distinct stacks in %.1f s; %" PRIu64 " lost\n", s->samples,
			s->off_cpu_us, (uint64_t)stacks, elapsed, lost);
	else if (o->sampler.event && o->sampler.event->kind != EVENT_PERF)
		fprintf(stderr, "flamekit: %" PRIu64 " %s events, %" PRIu64 " kept (%s), %" PRIu64
			" distinct stacks in %.1f s; %" PRIu64 " lost\n", s->events,
			o->sampler.event->text, s->samples,
			o->sampler.event_every > 1 ? "samples" : "every one",
			(uint64_t)stacks, elapsed, lost);
	else if (o->sampler.event)
		fprintf(stderr, "flamekit: %" PRIu64 " %s %s, %" PRIu64 " distinct stacks in "
			"%.1f s; %" PRIu64 " lost\n", s->samples, o->sampler.event->text,
			o->sampler.event_every > 1 ? "samples" : "events",
			(uint64_t)stacks, elapsed, lost);
	else
		fprintf(stderr, "flamekit: %" PRIu64 " samples, %" PRIu64 " distinct stacks in "
			"%.1f s; %" PRIu64 " lost\n", s->samples, (uint64_t)stacks,
			elapsed, lost);
	if (why_empty)
		warning("%s", why_empty);
	if (s->blocks_lost)
		warning("%" PRIu64 " blocks not timed: more tasks were off CPU at once than "
			"flamekit keeps (%d)", s->blocks_lost, BPF_SAMPLER_OFF_CPU_TASKS);
	if (s->over_budget)
		warning("%" PRIu64 " samples dropped: flamekit's sampling had taken its %u%% of "
			"a CPU's time (kernel.perf_cpu_time_max_percent, the kernel's bound on "
			"perf's sampling); %s", s->over_budget, s->cpu_budget_percent,
			o->sampler.event ? "raise -c" : "lower -F");
	if (s->wakers_lost)
		warning("%" PRIu64 " wakers not kept: more tasks were woken at once than "
			"flamekit keeps (%d)", s->wakers_lost, BPF_SAMPLER_OFF_CPU_TASKS);
	if (s->copies_lost)
		warning("%" PRIu64 " samples dropped: flamekit fell behind the copied stacks "
			"(a busy machine); lower -F or use --unwind=fp", s->copies_lost);
	if (s->dropped)
		warning("%" PRIu64 " samples dropped: the counts map was full; raise "
			"--stack-storage-size (now %u)", s->dropped, o->sampler.stack_storage_size);
	if (s->stacks_lost)
		warning("%" PRIu64 " stacks could not be read or stored and show as [Missed ... "
			"Stack]; raise --stack-storage-size if the stack map was full",
			s->stacks_lost);
}

static int compare_fallbacks(const void *a, const void *b)
{
	const struct recording_fallback *x = a, *y = b;
	return x->samples > y->samples ? -1 : x->samples < y->samples;
}
void record__report_unwind(const struct recording_results *r,
			   const struct bpf_sampler_stats *stats, bool verbose)
{
	uint64_t walked = stats->unwound + r->fallback_samples;
	struct buf where = BUF_INIT;

	if (r->task_events_lost)
		fprintf(stderr, "flamekit: %" PRIu64 " of the kernel's reports of mmaps, execs, forks "
			"and exits were lost (their ring was full): frames of code mapped then may "
			"show as [unknown]\n", r->task_events_lost);
	if (!r->kernel_unwind)
		return;
	if (stats->unwound_fp)
		fprintf(stderr, "flamekit: %" PRIu64 " of %" PRIu64 " off-CPU and waker user stacks "
			"walked by frame pointers only (their binaries' tables were not loaded "
			"yet): cut short where code keeps no frame pointers\n", stats->unwound_fp,
			stats->unwound_fp + stats->unwound);
	if (stats->unwound_fp_no_room)
		fprintf(stderr, "flamekit: %" PRIu64 " sampled user stacks walked by frame pointers "
			"only (cut short where code keeps none): the kernel could not walk them, "
			"and flamekit was behind with the copies it unwinds (a busy machine; a "
			"lower -F helps)\n", stats->unwound_fp_no_room);
	if (verbose || stats->unwound_deep) {
		struct kernel_unwind_stats k;
		kernel_unwind__stats(r->kernel_unwind, &k);
		fprintf(stderr, "flamekit: %" PRIu64 " user stacks walked in the kernel (%" PRIu64
			" cut at %d frames); %" PRIu64 " unwind tables, %" PRIu64 " KiB (%" PRIu64
			", %" PRIu64 " KiB, of binaries closed since); %" PRIu64
			" binaries without one, %" PRIu64 " over the budget\n",
			stats->unwound, stats->unwound_deep, BPF_SAMPLER_MAX_USER_DEPTH, k.tables,
			k.bytes / 1024, k.tables_let_go, k.bytes_let_go / 1024, k.no_table,
			k.over_budget);
	}
	if (r->fallback_samples == 0)
		return;
	struct recording_fallback *sorted = fk_calloc(r->fallback_binary_count,
						      sizeof(*sorted));
	memcpy(sorted, r->fallback_binaries, r->fallback_binary_count * sizeof(*sorted));
	qsort(sorted, r->fallback_binary_count, sizeof(*sorted), compare_fallbacks);
	for (size_t i = 0; i < r->fallback_binary_count && i < 5; i++) {
		const char *name = sorted[i].binary ? strrchr(sorted[i].binary, '/') : NULL;
		buf__printf(&where, "%s%s %" PRIu64, i ? ", " : "",
			    name ? name + 1 : sorted[i].binary ? sorted[i].binary : "unknown code",
			    sorted[i].samples);
	}
	if (r->fallback_binary_count > 5)
		buf__printf(&where, ", ...");
	fprintf(stderr, "flamekit: %" PRIu64 " of %" PRIu64 " user stacks (%.1f%%) unwound in "
		"user space, not in the kernel: %s\n", r->fallback_samples, walked,
		walked ? 100.0 * (double)r->fallback_samples / (double)walked : 0.0, where.data);
	if (verbose) {
		static const char *const why[] = { "", "no mapping (or its lock taken)",
			"binaries without a table (yet)", "rules the walk does not follow",
			"stack memory not readable", "the kernel's stack map full" };
		fputs("flamekit: by why:", stderr);
		for (size_t i = 1; i < sizeof(why) / sizeof(why[0]); i++)
			if (r->fallback_reasons[i])
				fprintf(stderr, " %s %" PRIu64 ";", why[i], r->fallback_reasons[i]);
		fputc('\n', stderr);
	}
	free(sorted);
	buf__free(&where);
}

uint64_t record__total(const struct profile *p)
{
	uint64_t total = 0;
	for (size_t i = 0; i < profile__size(p); i++) {
		struct profile_stack stack;
		profile__stack(p, i, &stack);
		total += stack.values[0].integer;
	}
	return total;
}

struct targets *record__targets(const struct record_options *o)
{
	if (!o->sampler.pid_count && !o->sampler.tid_count)
		return NULL;
	return o->sampler.pid_count && !o->command ?
		targets__new(o->sampler.pids, o->sampler.pid_count, false) :
		targets__new(o->sampler.tids, o->sampler.tid_count, true);
}

void record__add_interp_line(void *arg, const char *text, uint64_t samples)
{
	missing_report__add_text(arg, text, samples);
}
