/*
 * The BPF sampler behind `flamekit record`: a perf_event BPF program on a
 * cpu-clock event per CPU that counts (process, user stack, kernel stack) in
 * kernel maps (src/bpf/record.bpf.c); or, with off_cpu, a program on the
 * scheduler's switch that adds to the same keys the microseconds each task
 * spent off CPU (and with wakeups keys them by their waker's stacks too;
 * with all_time, both); or, with an event, the same counting on a perf
 * event per CPU, a tracepoint, a kernel function (fentry) or a user
 * function (uprobe).
 * User space only reads the summary.
 *
 * Lifecycle (each step prints one clear error line and returns -1):
 *
 *	struct bpf_sampler *s;
 *	if (bpf_sampler__open(&options, &s) < 0) ...   // load, fill filters
 *	if (bpf_sampler__attach(s) < 0) ...             // sampling starts
 *	while (running)
 *		bpf_sampler__poll(s, &callbacks, arg, timeout_ms);  // new pids, copied stacks
 *	bpf_sampler__detach(s);                         // sampling stops
 *	bpf_sampler__read(s, BPF_SAMPLER_READ_ALL, on_key, arg);  // every counted key
 *	bpf_sampler__free(s);                           // programs and maps gone
 *
 * Whatever the path out, bpf_sampler__free() (or the process exiting)
 * releases the programs, links, perf events and maps: nothing is pinned.
 */
#ifndef FLAMEKIT_BPF_SAMPLER_H
#define FLAMEKIT_BPF_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_spec.h"

struct record_unwind_miss;  /* ../bpf/record.h */

struct bpf_sampler_options {
	unsigned frequency;           /* samples per second per CPU */
	uint64_t period;              /* or: one sample per this many ns of CPU time */
	int cpu;                      /* -1: every online CPU */
	bool user_stacks, kernel_stacks;
	bool include_idle;
	bool per_thread;              /* keep threads apart (tid in the key) */
	const uint32_t *pids;         /* only these processes (none: all) */
	size_t pid_count;
	bool follow_children;         /* and the processes they start */
	const uint32_t *tids;         /* only these threads */
	size_t tid_count;
	bool filter_uid;
	uint32_t uid;
	const char *cgroup_map;       /* pinned hash of cgroup v2 ids, as bcc's --cgroupmap */
	const char *mntns_map;        /* pinned hash of mount namespace ids, as bcc's --mntnsmap */
	unsigned stack_storage_size;  /* keys in the counts map, and chunks of stacks
				       * for each (BPF_SAMPLER_CHUNKS_PER_KEY) */
	unsigned max_stack_depth;     /* frames kept per stack, at most 127 */
	uint64_t slice_ns;            /* key samples by time slices this long; 0: none */
	uint64_t start_ns;            /* ... from here (CLOCK_MONOTONIC: slice 0);
				       * off_cpu: a block goes to the slice it ends in */
	unsigned counts_size;         /* keys the counts map holds; 0: stack_storage_size
				       * (with slices a stack is a key per slice) */
	bool notify_new_pids;         /* report pids as they are first sampled */
	bool copy_user_stacks;        /* user stacks copied out for unwinding in user space
				       * (x86-64, kernel BTF), not walked by frame pointers */
	bool kernel_unwind;           /* user stacks walked in the kernel from the tables
				       * user space loads (kernel_unwind.h, x86-64, Linux
				       * 5.17: bpf_loop), where that walk cannot go copied
				       * (copy_user_stacks) or, off CPU and for wakers,
				       * walked by frame pointers */
	bool verbose;                 /* pass libbpf's messages through */

	/* Off-CPU time instead of timer samples (kernel BTF; frequency and
	 * period unused; copy_user_stacks must be off: user stacks are walked
	 * at every switch, by kernel_unwind's tables or frame pointers). A block counts when it lasted
	 * min_block_us to max_block_us and the task left the CPU (cpu, when
	 * not -1) in a state that matches: any with filter_state off, else
	 * bcc's --state (0: running, i.e. preempted; else state & mask). */
	bool off_cpu;
	uint64_t min_block_us, max_block_us;
	bool filter_state;
	uint32_t state;
	bool user_threads_only, kernel_threads_only;
	bool wakeups;                 /* each block keyed by its waker too */

	/* --all-time (with off_cpu): the timer samples too, each adding
	 * sample_weight (its microseconds of CPU time) to its key; off-CPU
	 * keys come back with off_cpu set. */
	bool all_time;
	uint64_t sample_weight;

	/* -e: stacks on this event instead of the timer (frequency and
	 * period unused; NULL or EVENT_NONE: the timer). event_every keeps
	 * one in that many: perf events by the kernel's sample_period,
	 * tracepoints and probes by a per-CPU counter in the program; 0: all.
	 * Events on every CPU, of the processes the filters let through.
	 * count_only: record --rate, only the events counted (stats.events),
	 * no keys (tracepoints and probes only). */
	const struct event_spec *event;
	uint64_t event_every;
	bool count_only;

	/* Interpreter frames (src/bpf/python.bpf.h): walk the Python frames of
	 * the processes user space puts in the python_procs map (see
	 * bpf_sampler__map_fd()), and send its news through the callbacks'
	 * interp_event; python_lines: keep instruction offsets (line numbers). */
	bool python, python_lines;
};

#define BPF_SAMPLER_MAX_STACK_DEPTH 127
/* Values the stacks map holds for each key the counts map holds: room for
 * a user stack of 70 frames and a kernel stack of 23 (record.h's
 * RECORD_STACK_CHUNK frames each), or for several keys that share their
 * kernel stack. A build's stacks take 1.15 values on average. */
#define BPF_SAMPLER_CHUNKS_PER_KEY 4
/* off_cpu: how many tasks may be off CPU at once, timed, and woken but not
 * yet back. Every thread asleep is timed while it sleeps (a busy host has
 * a few thousand); blocks and wakers beyond are counted as lost. */
#define BPF_SAMPLER_OFF_CPU_TASKS 32768
/* kernel_unwind: binaries the kernel keeps tables for (their rows: below) */
#define BPF_SAMPLER_UNWIND_BINARIES 8192
/* kernel_unwind: rows of unwind tables the kernel holds (8 bytes each: 32
 * MiB; a build that compiles with gcc and clang meets cc1's 480k rows,
 * libLLVM's 1M and libclang-cpp's 950k), frames of a user stack walked in
 * the kernel */
#define BPF_SAMPLER_UNWIND_ROWS (4u << 20)
#define BPF_SAMPLER_MAX_USER_DEPTH 512

/* One counted key, as bpf_sampler__read() hands it over. Frames are leaf
 * first. A stack with missed set was there but could not be read or stored;
 * depth 0 without missed means there was none of that kind. */
struct sampled_stack {
	const uint64_t *ips;
	uint32_t depth;
	bool missed;
};

/* Who woke a blocked task (wakeups); known false when no wakeup was seen
 * (a preempted task, or one woken before the recording began). */
struct sampled_waker {
	bool known;
	uint32_t pid;
	char comm[16];                /* NUL-terminated */
	struct sampled_stack user, kernel;
};

/* count: samples, events, or off_cpu's microseconds off CPU. */
struct sampled_key {
	uint32_t pid, tid, slice;
	bool off_cpu;                 /* a block's time, not a sample's */
	char comm[16];                /* NUL-terminated */
	struct sampled_stack user, kernel;
	struct sampled_stack interp;  /* interpreter frames (record.h's words), leaf first */
	struct sampled_waker waker;
	uint64_t count;
};

/* A sample whose user stack was copied out (copy_user_stacks): the user
 * registers (x86-64 DWARF numbering, 17 of them: regs[7] is sp, regs[16]
 * the pc) and stack_size bytes of stack from sp up. Valid during the call. */
struct copied_sample {
	uint32_t pid, tid, slice;
	uint64_t time;                /* CLOCK_MONOTONIC ns */
	uint64_t kernel_stack;        /* for bpf_sampler__kernel_stack() */
	uint64_t interp_stack;        /* the same, for its interpreter frames */
	char comm[16];                /* NUL-terminated */
	const uint64_t *regs;
	const uint8_t *stack;
	size_t stack_size;
	unsigned fallback;            /* record.h's enum record_fallback: why it was copied */
	uint64_t fallback_pc;         /* ... and where the kernel's walk stopped */
};

struct bpf_sampler_callbacks {
	void (*new_pid)(uint32_t pid, void *arg);
	/* 0 to go on; 1 to stop reading for now: this sample is taken, the
	 * ones after it stay in the ring for the next poll */
	int (*sample)(const struct copied_sample *sample, void *arg);
	/* what the interpreter walks sent (record.h's record_interp_event) */
	void (*interp_event)(const void *data, size_t size, void *arg);
	/* kernel_unwind: the walk met a binary it has no entry for in
	 * unwind_binaries (record.h's record_unwind_miss: the kernel's file
	 * identity, and a pc of a process in it) */
	void (*unwind_miss)(const struct record_unwind_miss *miss, void *arg);
};

struct bpf_sampler_stats {
	uint64_t samples;             /* samples that passed the filters; off_cpu: blocks counted */
	uint64_t off_cpu_us;          /* off_cpu: the microseconds of those blocks */
	uint64_t dropped;             /* samples not counted: the counts map was full */
	uint64_t stacks_lost;         /* stacks missed: map full or read error */
	uint64_t children_lost;       /* children not followed: pid map full */
	uint64_t copies_lost;         /* samples dropped: the copied-stack ring was full */
	uint64_t blocks_lost;         /* off_cpu: blocks not timed, too many tasks off CPU */
	uint64_t wakers_lost;         /* wakeups: wakers not kept, too many at once */
	/* samples dropped: the sampling had spent its cpu_budget_percent of
	 * a CPU's time (the timer and perf events; never traced events) */
	uint64_t over_budget;
	unsigned cpu_budget_percent;  /* 0: no bound */
	uint64_t events;              /* -e on a tracepoint or probe: events that passed the
				       * filters, kept (samples) or not */
	/* samples of interpreting threads whose walk ended early, by why;
	 * interp_events_lost: news user space never saw (its ring was full) */
	uint64_t python_no_thread, python_unreadable, python_loops, python_deep;
	uint64_t interp_events_lost;
	/* kernel_unwind: user stacks walked in the kernel (deep: of them, cut at
	 * RECORD_MAX_USER_DEPTH frames), and samples copied instead, by why
	 * (record.h's enum record_fallback) */
	uint64_t unwound, unwound_deep;
	uint64_t unwound_fp;          /* off-CPU and waker stacks walked by frame pointers
				       * instead: the tables could not */
	uint64_t unwound_fp_no_room;  /* sampled user stacks the tables could not walk,
				       * walked by frame pointers: the copy queues were full */
	uint64_t fallbacks[8];
};

struct bpf_sampler;

int bpf_sampler__open(const struct bpf_sampler_options *options, struct bpf_sampler **out);
int bpf_sampler__attach(struct bpf_sampler *s);
/* Waits up to timeout_ms (0: not at all) for news, then calls new_pid for
 * pids sampled for the first time since the last call and sample for every
 * copied sample, until the rings are empty or sample asks to stop (the
 * kernel goes on adding to them meanwhile: the caller bounds the time). */
int bpf_sampler__poll(struct bpf_sampler *s, const struct bpf_sampler_callbacks *callbacks,
		      void *arg, int timeout_ms);
/* Tells the kernel side where tid's stack ends (copies stop there; 0: not
 * known, copy to the end of the mapping). Repeats are cheap. */
void bpf_sampler__set_stack_end(struct bpf_sampler *s, uint32_t tid, uint64_t end);
/* These threads exited: their ends go (tids is sorted in place). */
void bpf_sampler__forget_stack_ends(struct bpf_sampler *s, uint32_t *tids, size_t count);
/* A stack stored by hash: the kernel (or interpreter) stack a copied
 * sample names (leaf first), at most BPF_SAMPLER_MAX_STACK_DEPTH frames
 * into ips. */
void bpf_sampler__kernel_stack(struct bpf_sampler *s, uint64_t hash, uint64_t *ips,
			       struct sampled_stack *out);
/* A map of the kernel side by name (python_procs, python_threads: what
 * an interpreter runtime fills), -1 when there is none. */
int bpf_sampler__map_fd(struct bpf_sampler *s, const char *name);
void bpf_sampler__detach(struct bpf_sampler *s);
/* Unmaps the rings, once detached and polled for the last time (the
 * kernel maps each into our address space twice: some 2.7 MB of our
 * resident set otherwise, to the end). A poll after maps them again. */
void bpf_sampler__unmap_rings(struct bpf_sampler *s);
enum bpf_sampler_read {
	BPF_SAMPLER_READ_ALL,          /* every key with all its stacks */
	BPF_SAMPLER_READ_ADDRESSES_ONCE,  /* each stack (the key's and its waker's,
					   * kernel and user; no interpreter frames)
					   * the first time it is met, else depth 0:
					   * the addresses to name */
};
/* Calls on_key once per counted key; stops and returns its value if not 0. */
int bpf_sampler__read(struct bpf_sampler *s, enum bpf_sampler_read what,
		      int (*on_key)(const struct sampled_key *key, void *arg), void *arg);
/* The stored stacks the reads read: in bulk, many a system call (every
 * key's read, where the kernel can: stack_fetch.h), or one by one. */
struct bpf_sampler_fetches {
	uint64_t in_bulk, one_by_one;
};
void bpf_sampler__fetches(const struct bpf_sampler *s, struct bpf_sampler_fetches *out);
/*
 * record --every, as a window closes. First bpf_sampler__next_generation():
 * every stack stored from then on is stored anew, apart from the ones
 * before (its hash differs). Then bpf_sampler__forget_slices() drops the
 * counted keys of slices up to `slice`, and the stored stacks they used
 * that nothing still uses: no other counted key, no task waiting off CPU
 * or woken, and none of `held`, the stacks the caller's own counts keep
 * (copied samples' kernel and interpreter stacks); `dropped` are the
 * stacks of the counts the caller dropped. A stack of the generation
 * before that a new key wanted is stored again for it, so the stored
 * stacks stay as many as a window's, however long the run. 0, or -1 after
 * an error line.
 */
struct stack_hashes {
	uint64_t *hashes;   /* the caller frees them */
	size_t count, cap;
};
/* Adds a stack's hash (none for RECORD_STACK_NONE / _MISSED). */
void stack_hashes__add(struct stack_hashes *l, uint64_t hash);
int bpf_sampler__next_generation(struct bpf_sampler *s);
/* Returns once every run of the BPF programs that began before the call
 * has ended (they run for microseconds, preemption off): what they read
 * of a map entry changed before it can no longer be in use. */
void bpf_sampler__wait_for_programs(void);
int bpf_sampler__forget_slices(struct bpf_sampler *s, uint32_t slice,
			       const struct stack_hashes *held, const struct stack_hashes *dropped);
int bpf_sampler__stats(struct bpf_sampler *s, struct bpf_sampler_stats *stats);
void bpf_sampler__free(struct bpf_sampler *s);

#endif
