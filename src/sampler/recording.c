#include "recording.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <errno.h>
#include <linux/types.h>

#include "../bpf/record.h"
#include "../lib/clock.h"
#include "../lib/error.h"
#include "../lib/xalloc.h"
#include "kernel_unwind.h"
#include "task_events.h"

#define RECORDING_MAX_FRAMES 1024
/* How long one read of the copied stacks may unwind before it stops and
 * lets the loop look at the clock and at signals: when the samples come
 * faster than they are unwound, the kernel drops (and counts) what the
 * full ring cannot take, and a run still ends on time and on Ctrl-C. */
#define RECORDING_DRAIN_NS 100000000ull
/* After sampling: what is left in the ring (a full ring of a loaded
 * machine, some hundreds of samples, took a second to unwind) is unwound
 * for this long at most; the rest is dropped, and counted as lost. */
#define RECORDING_FINAL_DRAIN_NS 2000000000ull

struct recording {
	struct recording_results results;   /* sampler, counts, processes, unwinder live here */
	bool per_thread;
	uint64_t slice_ns, start_ns;        /* the sampler's slices (record --every's windows) */
	struct task_events *events;
	uint64_t events_read_at;            /* CLOCK_MONOTONIC ns of the last read */
	uint64_t events_lost_swept;         /* task_events__lost() at the last sweep */
	struct user_unwinder *unwinder;     /* copied stacks */
	struct kernel_unwind *kernel_unwind; /* the kernel's tables; NULL: none */
	struct user_counts *counts;
	uint32_t *exited, *exiting;         /* pids whose Dwfl goes after the next poll */
	size_t exited_count, exited_cap, exiting_count, exiting_cap;
	uint64_t *pcs;                      /* one sample's frames */
	uint64_t drain_until;               /* CLOCK_MONOTONIC ns: unwind no later */
	bool drop_late;                     /* after drain_until drop the rest, do not stop */
	bool finished;                      /* recording__finish() ran: the rings are unmapped */
	uint64_t dropped;                   /* copied samples not unwound: no time left */
	size_t fallback_cap;
};

static void read_task_events(struct recording *r);

static void on_new_pid(uint32_t pid, void *arg)
{
	struct recording *r = arg;
	/* a process begun since the last read has its fork or exec there: its
	 * mappings come from the events, not from a read of /proc/PID/maps */
	read_task_events(r);
	if (!r->unwinder || r->kernel_unwind)
		process_symbols__add(r->results.processes, pid);
	interp_session__see(r->results.interp, pid);
}

static void on_interp_event(const void *data, size_t size, void *arg)
{
	struct recording *r = arg;
	interp_session__event(r->results.interp, data, size);
}

/* Mapping history: what each process mapped and when (process_symbols.h). */
static void on_task_mmap(const struct task_mmap *m, void *arg)
{
	struct recording *r = arg;
	process_symbols__mmap(r->results.processes, m->pid, m->start, m->len, m->pgoff, m->dev,
			      m->inode, m->path, m->time);
	interp_session__mapped(r->results.interp, m->pid, m->path, m->time);
}

static void on_task_exec(uint32_t pid, const char *comm, uint64_t time, void *arg)
{
	struct recording *r = arg;
	(void)comm;
	process_symbols__exec(r->results.processes, pid, time);
	/* the new program's stack is elsewhere (ASLR): where the old one ended
	 * must not bound its copies (the thread that execs keeps the pid) */
	if (r->unwinder)
		bpf_sampler__set_stack_end(r->results.sampler, pid, 0);
	interp_session__exec(r->results.interp, pid, time);
}

static void on_task_fork(uint32_t pid, uint32_t parent_pid, uint64_t time, void *arg)
{
	struct recording *r = arg;
	process_symbols__fork(r->results.processes, pid, parent_pid, time);
	interp_session__fork(r->results.interp, pid, parent_pid);
}

static void on_task_exit(uint32_t pid, uint64_t time, void *arg)
{
	struct recording *r = arg;
	/* both forgotten once the window it ended in is written (record --every) */
	process_symbols__exit(r->results.processes, pid, time);
	interp_session__exit(r->results.interp, pid, time);
	if (!r->unwinder)
		return;
	r->exiting = fk_grow(r->exiting, &r->exiting_cap, r->exiting_count + 1,
			     sizeof(*r->exiting));
	r->exiting[r->exiting_count++] = pid;
}

static const struct task_events_callbacks task_callbacks = {
	.mmap = on_task_mmap,
	.exec = on_task_exec,
	.fork = on_task_fork,
	.exit = on_task_exit,
};

static void read_task_events(struct recording *r)
{
	if (!r->events)
		return;
	r->events_read_at = monotonic_ns();
	task_events__read(r->events, &task_callbacks, r);
}

/* The kernel's walk met a binary it has no table for: its table now (the
 * task events first: the mapping may be one they have not told of yet). */
static void on_unwind_miss(const struct record_unwind_miss *miss, void *arg)
{
	struct recording *r = arg;
	read_task_events(r);
	kernel_unwind__add(r->kernel_unwind, miss);
}

/* A sample the kernel did not walk, counted by the binary it stopped in
 * (NULL: none known). */
static void count_fallback(struct recording *r, const struct copied_sample *sample)
{
	struct process_module m;
	const char *binary = NULL;

	if (process_symbols__module_at(r->results.processes, sample->pid, sample->fallback_pc,
				       sample->time, &m))
		binary = m.path;
	r->results.fallback_samples++;
	if (sample->fallback < RECORD_FALLBACKS)
		r->results.fallback_reasons[sample->fallback]++;
	for (size_t i = 0; i < r->results.fallback_binary_count; i++) {
		struct recording_fallback *f = &r->results.fallback_binaries[i];
		if (process_module__same_path(f->binary, binary)) {
			f->samples++;
			return;
		}
	}
	r->results.fallback_binaries = fk_grow(r->results.fallback_binaries, &r->fallback_cap,
					       r->results.fallback_binary_count + 1,
					       sizeof(*r->results.fallback_binaries));
	r->results.fallback_binaries[r->results.fallback_binary_count++] =
		(struct recording_fallback){ binary ? fk_strdup(binary) : NULL, 1 };
}

static int on_copied_sample(const struct copied_sample *sample, void *arg)
{
	struct recording *r = arg;

	bool late = monotonic_ns() >= r->drain_until;
	if (late && r->drop_late) {
		r->dropped++;
		return 0;
	}
	r->results.copied_samples++;
	r->results.copied_bytes += sample->stack_size;
	/* every mmap before the sample is in the event rings by now */
	if (sample->time >= r->events_read_at)
		read_task_events(r);
	struct unwind_input in = {
		.pid = sample->pid,
		.tid = sample->tid,
		.time = sample->time,
		.regs = sample->regs,
		.stack = sample->stack,
		.stack_size = sample->stack_size,
	};
	struct user_count key = {
		.pid = sample->pid,
		.tid = r->per_thread ? sample->tid : 0,
		.slice = sample->slice,
		.kernel_stack = sample->kernel_stack,
		.interp_stack = sample->interp_stack,
		.pcs = r->pcs,
		.time = sample->time,
	};
	memcpy(key.comm, sample->comm, sizeof(key.comm));
	uint64_t stack_end;
	key.depth = user_unwinder__unwind(r->unwinder, &in, r->pcs, RECORDING_MAX_FRAMES,
					  &stack_end);
	/* (not from a sample of an address space the thread has left) */
	if (stack_end != UINT64_MAX &&
	    !process_symbols__replaced_since(r->results.processes, sample->pid, sample->time))
		bpf_sampler__set_stack_end(r->results.sampler, sample->tid, stack_end);
	user_counts__add(r->counts, &key);
	if (r->kernel_unwind && sample->fallback != RECORD_FALLBACK_NONE)
		count_fallback(r, sample);
	return late;  /* (this one is taken: the reader has moved past it) */
}

/* Dwfls of processes that exited before the previous poll: their samples are in. */
static void forget_exited(struct recording *r)
{
	user_unwinder__forget(r->unwinder, r->exited, r->exited_count);
	bpf_sampler__forget_stack_ends(r->results.sampler, r->exited, r->exited_count);
	uint32_t *swap = r->exited;
	size_t swap_cap = r->exited_cap;
	r->exited = r->exiting;
	r->exited_cap = r->exiting_cap;
	r->exited_count = r->exiting_count;
	r->exiting = swap;
	r->exiting_cap = swap_cap;
	r->exiting_count = 0;
}

static bool kernel_table_at(void *arg, uint32_t pid, uint64_t pc, uint64_t time,
			    struct unwind_table_at *out)
{
	return kernel_unwind__table_at(arg, pid, pc, time, out);
}

static const struct bpf_sampler_callbacks sampler_callbacks = {
	.new_pid = on_new_pid,
	.sample = on_copied_sample,
	.interp_event = on_interp_event,
	.unwind_miss = on_unwind_miss,
};

int recording__new(const struct bpf_sampler_options *options, bool annotate_jit,
		   struct recording **out)
{
	return recording__new_with_interp(options, annotate_jit, NULL, out);
}

static int sampler_map_fd(void *arg, const char *name)
{
	return bpf_sampler__map_fd(arg, name);
}

int recording__new_with_interp(const struct bpf_sampler_options *options, bool annotate_jit,
			       const struct interp_options *interp, struct recording **out)
{
	struct recording *r = fk_calloc(1, sizeof(*r));
	struct bpf_sampler_options o = *options;
	int err = -1;

	*out = NULL;
	r->per_thread = o.per_thread;
	r->slice_ns = o.slice_ns;
	r->start_ns = o.start_ns;
	r->results.processes = process_symbols__new();
	process_symbols__annotate_jit(r->results.processes, annotate_jit);
	/* A process whose stacks the kernel walks is read when it is first
	 * sampled, while it still runs; a copied stack's sample brings its
	 * process along as it is unwound. */
	o.notify_new_pids = o.user_stacks && (!o.copy_user_stacks || o.kernel_unwind);
	/* interpreters are recognised as their processes are first sampled */
	o.python = interp && interp->python && o.user_stacks;
	o.python_lines = o.python && interp->lines;
	o.notify_new_pids |= o.python;
	if (o.copy_user_stacks) {
		r->unwinder = user_unwinder__new(r->results.processes);
		r->counts = user_counts__new();
		r->pcs = fk_calloc(RECORDING_MAX_FRAMES, sizeof(*r->pcs));
		r->results.unwinder = r->unwinder;
		r->results.counts = r->counts;
	}
	/* mapping history from before the first sample on */
	if (bpf_sampler__open(&o, &r->results.sampler) < 0 ||
	    (o.user_stacks && task_events__open(&r->events) < 0))
		goto cleanup;
	if (o.python) {
		struct interp_options io = *interp;
		io.map_fd = sampler_map_fd;
		io.map_arg = r->results.sampler;
		r->results.interp = interp_session__new(&io);
		/* the processes named are looked at before their first sample */
		for (size_t i = 0; i < o.pid_count; i++)
			interp_session__see(r->results.interp, o.pids[i]);
	}
	if (o.kernel_unwind && o.user_stacks && (o.copy_user_stacks || o.off_cpu))
		r->kernel_unwind = kernel_unwind__new(
			bpf_sampler__map_fd(r->results.sampler, "unwind_rows"),
			bpf_sampler__map_fd(r->results.sampler, "unwind_binaries"),
			bpf_sampler__map_fd(r->results.sampler, "unwind_asked"), r->results.processes);
	r->results.kernel_unwind = r->kernel_unwind;
	if (r->kernel_unwind && r->unwinder) {
		struct unwind_table_source tables = { kernel_table_at, r->kernel_unwind };
		user_unwinder__use_tables(r->unwinder, &tables);
	}
	if (bpf_sampler__attach(r->results.sampler) < 0)
		goto cleanup;
	*out = r;
	r = NULL;
	err = 0;
cleanup:
	recording__free(r);
	return err;
}

/* Reads the rings: new pids, and copied samples unwound for at most
 * budget_ns (then left in the ring, or with drop_late dropped). */
static int drain(struct recording *r, int timeout_ms, uint64_t budget_ns)
{
	if (r->finished)
		return 0;  /* (the rings are unmapped) */
	r->drain_until = monotonic_ns() + budget_ns;
	return bpf_sampler__poll(r->results.sampler, &sampler_callbacks, r, timeout_ms);
}

/* The stop signal pending, or 0; waits up to wait_ns for one. */
static int take_signal(const sigset_t *stop_signals, long wait_ns, struct recording_end *end)
{
	struct timespec timeout = { 0, wait_ns };
	siginfo_t info;
	int sig = sigtimedwait(stop_signals, &info, &timeout);
	if (sig != SIGINT && sig != SIGTERM && sig != SIGHUP)
		return 0;
	end->why = RECORDING_SIGNAL;
	end->signal = sig;
	/* kill(2) and sigqueue(3) send to this process only; the terminal
	 * (Ctrl-C) and the kernel send to the whole process group */
	end->sent_to_us_only = info.si_code == SI_USER || info.si_code == SI_QUEUE ||
			       info.si_code == SI_TKILL;
	return sig;
}

/* How often the pages of binaries' files that opening and unwinding read
 * are given back while sampling (process_symbols__release_pages()): their
 * headers, and .eh_frame where stacks are unwound in user space, each read
 * faulting in the 64 KB around it. Kept, they were 3 to 4 MB of a build's
 * recording (40 binaries, 100 to 800 KB each). */
#define RECORDING_RELEASE_SECONDS 0.25
/* Each time, the pages of the binaries read since (a name looked up, an
 * ELF image handed out); every RECORDING_RELEASE_SWEEP-th time, those of
 * all, for what was read through an image handed out before (libdwfl's
 * walks, the unwind tables' builder). Every binary each time was 9,000
 * madvise() calls in three builds: 3.4% of record's CPU. */
#define RECORDING_RELEASE_SWEEP 8

int recording__run(struct recording *r, const struct recording_limits *limits,
		   struct recording_end *end)
{
	struct timespec start;
	bool tty = isatty(STDERR_FILENO);
	double release_every = limits->release_seconds > 0 ? limits->release_seconds :
		RECORDING_RELEASE_SECONDS;
	double next_progress = 1.0, next_release = release_every;
	unsigned releases = 0;
	double duration = limits->duration;
	int status = 0;

	*end = (struct recording_end){ RECORDING_DURATION, 0, false };
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		double now = seconds_since(&start);
		double wait = interp_session__seconds_to_tick(r->results.interp, 0.1);
		if (duration > 0 && now >= duration)
			break;
		if (duration > 0 && duration - now < wait)
			wait = duration - now;
		/* copied stacks wake us as the ring fills; else wait for a signal */
		long wait_ns = r->unwinder ? 0 : (long)(wait * 1e9);
		if (r->unwinder) {
			read_task_events(r);
			if (drain(r, (int)(wait * 1000) + 1, RECORDING_DRAIN_NS) < 0) {
				status = -1;
				break;
			}
			forget_exited(r);
		}
		if (take_signal(limits->stop_signals, wait_ns, end))
			break;
		if (limits->workload && workload__exited(limits->workload)) {
			end->why = RECORDING_WORKLOAD_EXITED;
			break;
		}
		if (limits->targets && targets__all_exited(limits->targets)) {
			end->why = RECORDING_TARGETS_EXITED;
			break;
		}
		if (limits->stop && limits->stop(limits->stop_arg)) {
			end->why = RECORDING_STOPPED;
			break;
		}
		/* mappings first: a new pid's first sample opens its binaries */
		read_task_events(r);
		interp_session__tick(r->results.interp);
		if (drain(r, 0, RECORDING_DRAIN_NS) < 0) {
			status = -1;
			break;
		}
		process_symbols__ask_jvms(r->results.processes);  /* those whose turn it is */
		now = seconds_since(&start);
		if (now >= next_release) {
			bool sweep = ++releases % RECORDING_RELEASE_SWEEP == 0;
			process_symbols__release_pages(r->results.processes, !sweep);
			if (r->unwinder)
				user_unwinder__release_pages(r->unwinder);
			next_release = now + release_every;
		}
		if (tty && now >= next_progress) {
			struct bpf_sampler_stats stats;
			if (bpf_sampler__stats(r->results.sampler, &stats) == 0)
				fprintf(stderr, "\rflamekit: recording %.0f s, %" PRIu64 " samples\033[K",
					now, stats.samples);
			next_progress = now + 1.0;
		}
	}
	if (tty && next_progress > 1.0)
		fputs("\r\033[K", stderr);
	r->results.elapsed = seconds_since(&start);
	return status;
}

/* Exits the kernel could not report (their ring was full) would keep the
 * processes for the agent's life: after a loss, those gone are exited now. */
static void sweep_lost_exits(struct recording *r)
{
	uint64_t lost = r->events ? task_events__lost(r->events) : 0;
	if (lost == r->events_lost_swept)
		return;
	r->events_lost_swept = lost;
	uint32_t *pids;
	size_t count = process_symbols__gone(r->results.processes, &pids);
	uint64_t now = monotonic_ns();
	for (size_t i = 0; i < count; i++)
		on_task_exit(pids[i], now, r);
	free(pids);
}

int recording__forget_slices(struct recording *r, uint32_t slice)
{
	struct bpf_sampler *s = r->results.sampler;
	struct stack_hashes held = { 0 }, dropped = { 0 };

	if (bpf_sampler__next_generation(s) < 0)
		return -1;
	/* copied samples stored their kernel stacks under the generation
	 * before: in the user counts now, so that those stacks count as used */
	if (r->unwinder && drain(r, 0, RECORDING_DRAIN_NS) < 0)
		return -1;
	for (size_t i = 0; r->counts && i < user_counts__size(r->counts); i++) {
		const struct user_count *c = user_counts__entry(r->counts, i);
		struct stack_hashes *list = c->slice <= slice ? &dropped : &held;
		stack_hashes__add(list, c->kernel_stack);
		stack_hashes__add(list, c->interp_stack);
	}
	int status = bpf_sampler__forget_slices(s, slice, &held, &dropped);
	free(held.hashes);
	free(dropped.hashes);
	if (r->counts)
		user_counts__forget_through(r->counts, slice);
	sweep_lost_exits(r);
	/* the processes gone before the window's end are in no later one */
	uint64_t window_end = slice == UINT32_MAX ? UINT64_MAX :
		r->start_ns + ((uint64_t)slice + 1) * r->slice_ns;
	process_symbols__forget_exited(r->results.processes, window_end);
	interp_session__forget_exited(r->results.interp, window_end);
	/* what naming the window and unwinding read of the binaries' files, and
	 * the names made (the window's profile has its own copies). (Once a
	 * minute instead saved a tenth of the CPU and let RSS climb by 13 MB
	 * over ten minutes of builds.) */
	process_symbols__release_pages(r->results.processes, false);
	process_symbols__forget_names(r->results.processes);
	process_symbols__forget_shadowed(r->results.processes, window_end);
	/* the user unwinder's Dwfls and cached walks start again each window:
	 * kept, those of long-lived processes grew for minutes (libdw's caches
	 * of the frames it stepped, walks filling the cache's slots one by one),
	 * where a window walks few stacks (only the kernel walk's fallbacks) */
	if (r->unwinder)
		user_unwinder__forget_all(r->unwinder);
	uint64_t *closed;
	size_t closed_count = process_symbols__forget_binaries(r->results.processes, &closed);
	if (r->kernel_unwind)
		kernel_unwind__forget(r->kernel_unwind, closed, closed_count);
	free(closed);
	return status;
}

int recording__stats(struct recording *r, struct bpf_sampler_stats *stats)
{
	return bpf_sampler__stats(r->results.sampler, stats);
}

int recording__finish(struct recording *r)
{
	bpf_sampler__detach(r->results.sampler);
	read_task_events(r);
	r->drop_late = true;
	if (drain(r, 0, RECORDING_FINAL_DRAIN_NS) < 0 ||
	    bpf_sampler__stats(r->results.sampler, &r->results.stats) < 0)
		return -1;
	/* dropped here or in the kernel, for the same reason: not unwound in time */
	r->results.stats.copies_lost += r->dropped;
	r->results.task_events_lost = r->events ? task_events__lost(r->events) : 0;
	/* nothing more comes through the rings: their memory back for the end */
	r->finished = true;
	bpf_sampler__unmap_rings(r->results.sampler);
	task_events__free(r->events);
	r->events = NULL;
	if (r->unwinder)
		user_unwinder__forget_all(r->unwinder);
	return 0;
}

const struct recording_results *recording__results(const struct recording *r)
{
	return &r->results;
}

void recording__free_sampler(struct recording *r)
{
	bpf_sampler__free(r->results.sampler);
	r->results.sampler = NULL;
}

void recording__free(struct recording *r)
{
	if (!r)
		return;
	recording__free_sampler(r);
	task_events__free(r->events);
	user_unwinder__free(r->unwinder);
	kernel_unwind__free(r->kernel_unwind);
	for (size_t i = 0; i < r->results.fallback_binary_count; i++)
		free((char *)r->results.fallback_binaries[i].binary);
	free(r->results.fallback_binaries);
	user_counts__free(r->counts);
	free(r->pcs);
	free(r->exited);
	free(r->exiting);
	process_symbols__free(r->results.processes);
	interp_session__free(r->results.interp);
	free(r);
}
