// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel side of `flamekit record`: on every timed sample of a CPU, read
 * the interrupted task's stacks and count (process, stacks) in a hash map.
 * User space (sampler/bpf_sampler.c) sets `config`, sizes the maps, fills
 * the filter maps, attaches do_sample to one cpu-clock perf event per CPU,
 * and reads `counts`, `stacks` and `stats` at the end. See record.h.
 *
 * With --off-cpu, on_switch takes do_sample's place: on the scheduler's
 * switch it keeps the key of a task that leaves the CPU, with the time, and
 * when the task runs again adds the microseconds it was away to that key in
 * `counts`; with --wakeups, on_waking keeps the waker's stacks for the key.
 * With --all-time both run, a timer sample adding its microseconds.
 *
 * With -e, do_sample runs on the perf event named instead of the clock (the
 * kernel keeps one in -c N), or on_tracepoint, on_uprobe or on_fentry on
 * the tracepoint or function named, keeping one in -c N by a per-CPU
 * counter; all count through sample_current(), the filters first.
 *
 * Built twice: record.bpf.o uses only the UAPI context and helpers, so
 * loading it needs no kernel BTF (and libbpf does not read the 5 MB
 * /sys/kernel/btf/vmlinux); record_task.bpf.o (RECORD_TASK_ACCESS) also reads
 * task_struct fields through CO-RE, for the mount-namespace filter, for
 * following the children of a profiled command, and for --off-cpu (BTF
 * tracepoints).
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#ifdef RECORD_TASK_ACCESS
#include <bpf/bpf_core_read.h>
#endif

#include "record.h"

#ifndef EFAULT
#define EFAULT 14
#endif
#ifndef EEXIST
#define EEXIST 17
#endif
#ifndef EINVAL
#define EINVAL 22
#endif

const volatile struct record_config config = {};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct record_key);
	__type(value, __u64);
	__uint(max_entries, 16384);  /* set by --stack-storage-size */
} counts SEC(".maps");

/* Sized without BTF types: the value (a struct record_stack) is cut to a
 * chunk's frames, which the kernel would refuse as another size than the
 * type's (libbpf then makes the map again without them). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, sizeof(__u64));
	__uint(value_size, sizeof(struct record_stack));  /* cut to a chunk's frames */
	__uint(max_entries, 16384);
} stacks SEC(".maps");

/* A stack bpf_get_stack() reads, with room past its frames for the last
 * chunk store_rest() reads. */
struct stack_scratch {
	struct record_stack stack;
	__u64 spare[RECORD_STACK_CHUNK + 1];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct stack_scratch);
	__uint(max_entries, 1);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, RECORD_STATS);
} stats SEC(".maps");

/* The time this CPU's sampling interrupts spent since window_start (a
 * window of RECORD_BUDGET_WINDOW_NS): past config.cpu_budget_ns, the
 * samples they would take until the window ends are dropped and counted.
 * A walk of a stack without frame pointers takes microseconds; at -F
 * 100000 (10 us apart) the samples left the CPU nothing else, and the
 * machine stalled for minutes. So flamekit's sampling is throttled as the
 * kernel throttles perf's, by the same share (user space sets the budget
 * from kernel.perf_cpu_time_max_percent, for the timer and hardware
 * events only: traced events and software events such as page faults come
 * in the task that makes them, cannot stall the machine that way, and are
 * counted exactly). */
struct cpu_time {
	__u64 window_start;
	__u64 spent;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct cpu_time);
	__uint(max_entries, 1);
} cpu_times SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, 4096);
} pids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, 1024);
} tids SEC(".maps");

/* Pids already sent to user space through new_pids (least recently
 * sampled forgotten first: a long run meets more pids than it holds). */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, 32768);
} seen_pids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} new_pids SEC(".maps");

/* --unwind=dwarf: each sample built in its CPU's buffer, then sent whole. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct record_sample_buffer);
	__uint(max_entries, 1);  /* set to the number of possible CPUs */
} sample_buffers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);  /* set by user space when copying stacks */
} samples SEC(".maps");

/*
 * With the kernel's walk (kernel_unwind), the few samples it leaves to the
 * copy path (1 to 2 % of a build's) go through these queues instead
 * (record.h: RECORD_SMALL_COPY_BYTES): buffers, popped by user space a
 * syscall each, with a word in copies_ready for each to wake it and say
 * which queue. A ring is mapped into our resident set whole, and twice
 * over: 2 MB for these few.
 */
struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(value_size, sizeof(struct record_sample_buffer));
	__uint(max_entries, 1);  /* set by user space with kernel_unwind */
} copies SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(value_size, sizeof(struct record_sample) + RECORD_SMALL_COPY_BYTES);
	__uint(max_entries, 1);  /* set by user space with kernel_unwind */
} small_copies SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);  /* 256 words: more than `copies` holds */
} copies_ready SEC(".maps");

/* Wake user space once this many copies wait (a word is 16 bytes in the
 * ring), else its poll's timeout reads them. */
#define COPIES_WAKEUP_BYTES (8 * 16)

/* Where each thread's stack ends, as user space learnt it by unwinding:
 * copies stop there instead of at the end of the mapping (a thread's stack
 * is a mapping of megabytes). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);    /* tid */
	__type(value, __u64);  /* the first address past the stack's last frame */
	__uint(max_entries, 16384);
} stack_ends SEC(".maps");

/* --off-cpu: the tasks off CPU, by tid, with the key their time goes to;
 * a task that finds the map full is counted in `stats`. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct record_blocked);
	__uint(max_entries, 1);  /* set by user space with --off-cpu */
} blocked SEC(".maps");

/* --wakeups: who woke each blocked task, by the wakee's tid. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct record_waker);
	__uint(max_entries, 1);  /* set by user space with --wakeups */
} wakers SEC(".maps");

/* Replaced by the pinned maps of --cgroupmap and --mntnsmap, in bcc's layout
 * (bcc's containers.py): hashes keyed by cgroup v2 id (what
 * bpf_get_current_cgroup_id() returns, the inode number of the cgroup's
 * directory) and by mount namespace id (the inode of /proc/PID/ns/mnt). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u64);
	__type(value, __u64);
	__uint(max_entries, 1024);
} cgroup_filter SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u64);
	__type(value, __u32);
	__uint(max_entries, 1024);
} mntns_filter SEC(".maps");

static __always_inline void stat_add_n(__u32 which, __u64 n)
{
	__u64 *value = bpf_map_lookup_elem(&stats, &which);

	if (value)
		*value += n;  /* per-CPU: no other writer */
}

static __always_inline void stat_add(__u32 which)
{
	stat_add_n(which, 1);
}

/* 1 when this CPU's samples have spent their budget for the window that
 * holds now (counted: one more sample dropped), else 0. */
static __always_inline int over_budget(__u64 now)
{
	__u32 zero = 0;
	struct cpu_time *t;

	if (!config.cpu_budget_ns || !(t = bpf_map_lookup_elem(&cpu_times, &zero)))
		return 0;
	if (now - t->window_start >= RECORD_BUDGET_WINDOW_NS) {
		t->window_start = now;
		t->spent = 0;
	}
	if (t->spent < config.cpu_budget_ns)
		return 0;
	stat_add(RECORD_STAT_OVER_BUDGET);
	return 1;
}

/* Charges this CPU's budget with the time since began (at most
 * RECORD_BUDGET_SAMPLE_MOST_NS). */
static __always_inline void charge_budget(__u64 began)
{
	__u32 zero = 0;
	struct cpu_time *t;

	if (!config.cpu_budget_ns || !(t = bpf_map_lookup_elem(&cpu_times, &zero)))
		return;
	__u64 took = bpf_ktime_get_ns() - began;
	t->spent += took < RECORD_BUDGET_SAMPLE_MOST_NS ? took : RECORD_BUDGET_SAMPLE_MOST_NS;
}

/* Adds weight to key's count (a timer sample adds 1, a block its
 * microseconds), making the key if it is new. */
static __always_inline void count_key(const struct record_key *key, __u64 weight)
{
	__u64 *count = bpf_map_lookup_elem(&counts, key);

	if (count) {
		__sync_fetch_and_add(count, weight);
		return;
	}
	long err = bpf_map_update_elem(&counts, key, &weight, BPF_NOEXIST);
	if (err == -EEXIST) {  /* another CPU added it meanwhile */
		count = bpf_map_lookup_elem(&counts, key);
		if (count)
			__sync_fetch_and_add(count, weight);
	} else if (err) {
		stat_add(RECORD_STAT_COUNTS_FULL);
	}
}


/* The generation of the stacks stored now, mixed into every stack's hash.
 * record --every moves to the next one as it closes a window
 * (bpf_sampler__forget_slices): stacks stored from then on hash apart from
 * the earlier ones, whatever they hold, so that user space can drop the
 * earlier ones once no key uses them, while the programs go on storing. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} stack_generation SEC(".maps");

/* The first word of a stack's hash: seed, in this generation. */
static __always_inline __u64 stack_hash_start(__u64 seed)
{
	__u32 zero = 0;
	__u64 *generation = bpf_map_lookup_elem(&stack_generation, &zero);

	return generation ? record_mix(seed, *generation) : seed;
}

/* Frames a value of `stacks` holds: known to the verifier (config is
 * read-only). */
static __always_inline __u32 stack_chunk(void)
{
	return record_chunk_frames(config.stack_bytes / 8);
}

/*
 * Stacks are stored in values of a chunk's frames: chunk k >= 1 under
 * record_mix(hash, k) (store_rest()), then the first, its header (depth)
 * and frames, under hash itself (store_first()), so that a reader that
 * finds it finds the rest.
 *
 * Stores chunks 1 and on of a stack of depth frames at ips, in a map value
 * with room for a chunk's frames past ips[mask] (mask + 1: the most
 * frames, a power of two). Chunk k is stored from ips[k * chunk - 1],
 * whose 8 bytes stand in the header's place (the frame before, which a
 * reader of chunk k ignores). 0, or the error of the update that failed
 * (the map full). Called from a global function for each buffer a stack
 * is built in (store_scratch_rest() ...): the verifier checks those once,
 * not at every store on every path of every program, as it does inlined
 * code (too many branches) and bpf_loop()'s steps (do_sample took 115 ms
 * to load with those, 50 ms with these).
 */
static __always_inline int store_rest(__u64 hash, __u64 *ips, __u32 depth, __u32 mask)
{
	__u32 chunk = stack_chunk();

	if (chunk == 0)
		return -EINVAL;
	if (depth > mask + 1)
		depth = mask + 1;  /* (the loop's bound, to the verifier) */
	for (__u32 k = 1; k <= mask + 1; k++) {
		__u32 first = k * chunk;
		if (first >= depth)
			break;
		__u64 key = record_mix(hash, k);
		long err = bpf_map_update_elem(&stacks, &key, &ips[(first - 1) & mask], BPF_NOEXIST);
		if (err && err != -EEXIST)
			return err;
	}
	return 0;
}

/* The first chunk, once the rest is stored (rest: 0, or store_rest()'s
 * error); 0, or the error. */
static __always_inline long store_first(__u64 hash, void *header, long rest)
{
	if (rest)
		return rest;
	long err = bpf_map_update_elem(&stacks, &hash, header, BPF_NOEXIST);
	return err == -EEXIST ? 0 : err;
}

/* store_rest() of the stack in `scratch` */
__noinline int store_scratch_rest(__u64 hash)
{
	__u32 zero = 0;
	struct stack_scratch *scratched = bpf_map_lookup_elem(&scratch, &zero);

	return scratched ? store_rest(hash, scratched->stack.ips, scratched->stack.depth,
				      RECORD_MAX_STACK_DEPTH) : -EINVAL;
}

/* hash mixed with ips[0 .. depth - 1], made other than RECORD_STACK_NONE
 * and RECORD_STACK_MISSED. Inlined in global functions only: the verifier
 * follows the loop through all its turns, and checks a global function
 * once, where it would follow the loop again at each place inlined (with
 * store_stack()'s and python_stack()'s loops inlined, do_sample took 47 ms
 * to load). */
static __always_inline __u64 stack_hash(__u64 hash, const __u64 *ips, __u32 depth)
{
	for (__u32 i = 0; i < RECORD_MAX_STACK_DEPTH; i++) {
		if (i >= depth)
			break;
		hash = record_mix(hash, ips[i]);
	}
	return hash <= RECORD_STACK_MISSED ? hash + 2 : hash;
}

/* The hash of the stack in `scratch` (RECORD_STACK_MISSED: no scratch). */
__noinline __u64 scratch_stack_hash(void)
{
	__u32 zero = 0;
	struct stack_scratch *scratched = bpf_map_lookup_elem(&scratch, &zero);

	if (!scratched)
		return RECORD_STACK_MISSED;
	__u32 depth = scratched->stack.depth;
	return stack_hash(record_mix(stack_hash_start(0x5bd1e9955bd1e995ULL), depth),
			  scratched->stack.ips, depth);
}

/* Reads one stack into the CPU's scratch buffer, stores it in `stacks`
 * unless already there, and returns its hash (or RECORD_STACK_NONE/MISSED). */
static __always_inline __u64 store_stack(void *ctx, __u64 flags)
{
	__u32 zero = 0;
	struct stack_scratch *scratched = bpf_map_lookup_elem(&scratch, &zero);
	__u32 size = config.stack_bytes;
	long bytes;
	__u64 hash;

	if (!scratched)
		return RECORD_STACK_MISSED;
	struct record_stack *stack = &scratched->stack;
	if (size > sizeof(stack->ips))
		size = sizeof(stack->ips);
	bytes = bpf_get_stack(ctx, stack->ips, size, flags);
	if (bytes == -EFAULT || bytes == 0)
		return RECORD_STACK_NONE;  /* no stack of this kind, e.g. a kernel thread's user stack */
	if (bytes < 0) {
		stat_add(RECORD_STAT_STACK_ERRORS);
		return RECORD_STACK_MISSED;
	}
	stack->depth = bytes / sizeof(__u64);
	hash = scratch_stack_hash();
	if (hash == RECORD_STACK_MISSED)
		return hash;
	if (bpf_map_lookup_elem(&stacks, &hash))
		return hash;
	if (store_first(hash, stack, stack->depth > stack_chunk() ? store_scratch_rest(hash) : 0)) {
		stat_add(RECORD_STAT_STACKS_FULL);
		return RECORD_STACK_MISSED;
	}
	return hash;
}

#ifndef offsetof
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif
#include "python.bpf.h"

/* When a new pid last woke user space (bpf_ktime_get_ns()), all CPUs'. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} new_pid_woke SEC(".maps");

/* With interpreter frames, user space looks at a new process at once, so
 * that its samples have them from the start: it is woken, at most once in
 * NEW_PID_WAKEUP_NS. A build's 36 new processes a second each woke it,
 * 14% of record's CPU over three builds; the ones in between are read at
 * the next wakeup, or at user space's own turn (0.1 s at most). */
#define NEW_PID_WAKEUP_NS (50 * 1000 * 1000ULL)

static __always_inline __u64 new_pid_wakeup(void)
{
	__u32 zero = 0;
	__u64 *woke = config.python ? bpf_map_lookup_elem(&new_pid_woke, &zero) : NULL;
	__u64 now = bpf_ktime_get_ns();

	if (!woke || now - *woke < NEW_PID_WAKEUP_NS)
		return BPF_RB_NO_WAKEUP;
	*woke = now;  /* (two CPUs at once: both wake it) */
	return BPF_RB_FORCE_WAKEUP;
}

static __always_inline void note_new_pid(__u32 pid)
{
	__u8 one = 1;

	if (bpf_map_lookup_elem(&seen_pids, &pid))
		return;
	if (bpf_map_update_elem(&seen_pids, &pid, &one, BPF_NOEXIST) == 0)
		bpf_ringbuf_output(&new_pids, &pid, sizeof(pid), new_pid_wakeup());
}

#ifdef RECORD_TASK_ACCESS
struct ns_common {
	unsigned int inum;
} __attribute__((preserve_access_index));

struct mnt_namespace {
	struct ns_common ns;
} __attribute__((preserve_access_index));

struct nsproxy {
	struct mnt_namespace *mnt_ns;
} __attribute__((preserve_access_index));

struct task_struct {
	int pid;
	int tgid;
	unsigned int flags;
	unsigned int __state;
	struct nsproxy *nsproxy;
} __attribute__((preserve_access_index));

static __always_inline int in_mount_namespaces(void)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	__u64 inum = BPF_CORE_READ(task, nsproxy, mnt_ns, ns.inum);

	return bpf_map_lookup_elem(&mntns_filter, &inum) != NULL;
}

/* Follows the children of profiled processes: a new thread group whose
 * parent is in `pids` joins it. Enabled for `record -- COMMAND`. */
SEC("raw_tp/sched_process_fork")
int BPF_PROG(follow_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 parent_pid = BPF_CORE_READ(parent, tgid);
	__u32 child_pid = BPF_CORE_READ(child, tgid);
	__u8 one = 1;

	if (child_pid == parent_pid || !bpf_map_lookup_elem(&pids, &parent_pid))
		return 0;
	if (bpf_map_update_elem(&pids, &child_pid, &one, BPF_ANY))
		stat_add(RECORD_STAT_PIDS_FULL);
	return 0;
}

#else
static __always_inline int in_mount_namespaces(void)
{
	return 1;  /* the filter needs record_task.bpf.o */
}
#endif

/* record's filters (-p, -L, -u, --cgroupmap, --mntnsmap, -- COMMAND's pids)
 * on the current task. */
static __always_inline int current_wanted(__u32 pid, __u32 tid)
{
	if (config.filter_pids && !bpf_map_lookup_elem(&pids, &pid))
		return 0;
	if (config.filter_tids && !bpf_map_lookup_elem(&tids, &tid))
		return 0;
	if (config.filter_uid && (__u32)bpf_get_current_uid_gid() != config.uid)
		return 0;
	if (config.filter_cgroup) {
		__u64 cgroup = bpf_get_current_cgroup_id();

		if (!bpf_map_lookup_elem(&cgroup_filter, &cgroup))
			return 0;
	}
	if (config.filter_mntns && !in_mount_namespaces())
		return 0;
	return 1;
}

/* The task's user registers come through bpf_task_pt_regs(): the verifier
 * needs the kernel's BTF for that, libbpf does not (there are no CO-RE
 * reads here), so the plain build copies stacks too, without libbpf
 * loading vmlinux's BTF. */
struct task_struct;

/* What copy_user_stack() did with a sample's user stack. */
enum user_stack_copy {
	USER_STACK_IN_KEY,     /* walked here into the key's user_stack, or there is none (a
				* kernel thread): the caller counts the key */
	USER_STACK_SENT,       /* copied for user space, which counts the sample (or lost,
				* and counted so) */
	USER_STACK_NO_ROOM,    /* the copy queues were full (user space is behind): the
				* caller walks it by frame pointers and counts the key */
};

#ifdef __TARGET_ARCH_x86
/*
 * Copies the stack from sp up, the rest of sp's page first, then whole
 * pages, until end (the last page whole: it is mapped) or a page that
 * cannot be read; returns the bytes copied, at most end - sp.
 *
 * A global function: the verifier checks it once, not once for every path
 * through do_sample's filters; and one way through each round (no clamping
 * of a chunk to end), or it would follow 2^16 of them.
 */
__attribute__((noinline)) int copy_stack_pages(struct record_sample_buffer *buffer, __u64 sp,
					       __u64 end)
{
	__u64 wanted = end > sp ? end - sp : 0;
	__u32 copied = 0;

	if (!buffer)
		return 0;
	for (int i = 0; i < RECORD_USER_STACK_BYTES / 4096; i++) {
		__u64 at = sp + copied;
		__u32 chunk = 4096 - (at & 4095);
		if (copied >= wanted ||
		    bpf_probe_read_user(&buffer->stack[copied & (RECORD_USER_STACK_BYTES - 1)],
					chunk, (const void *)at))
			break;
		copied += chunk;
	}
	return copied < wanted ? (int)copied : (int)wanted;
}

/* The task's user registers (the ones saved on entry to the kernel,
 * whether the sample hit user or kernel code): 0, 1 when it has none (a
 * kernel thread), -1 when they could not be read. */
static __always_inline int read_user_regs(struct pt_regs *regs)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *saved = (struct pt_regs *)bpf_task_pt_regs(task);

	if (bpf_probe_read_kernel(regs, sizeof(*regs), saved))
		return -1;
	return (regs->cs & 3) == 3 ? 0 : 1;
}

/*
 * Copies the user registers and the user stack from sp upwards (to the
 * stack's end as `stack_ends` knows it, else until a page cannot be read,
 * at most RECORD_USER_STACK_BYTES) into `samples`, with why the kernel did
 * not walk it (fallback, at fallback_pc). USER_STACK_SENT, or with
 * kernel_unwind USER_STACK_NO_ROOM when its queue is full.
 */
static __always_inline enum user_stack_copy send_user_stack(struct record_key *key, __u32 tid,
							    __u64 time, const struct pt_regs *regs,
							    __u32 fallback, __u64 fallback_pc)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct record_sample_buffer *buffer = bpf_map_lookup_elem(&sample_buffers, &cpu);

	if (!buffer) {
		stat_add(RECORD_STAT_STACK_ERRORS);
		return USER_STACK_SENT;
	}
	struct record_sample *sample = &buffer->sample;
	sample->pid = key->pid;
	sample->tid = tid;
	sample->time = time;
	sample->slice = key->slice;
	sample->kernel_stack = key->kernel_stack;
	sample->interp_stack = key->interp_stack;
	sample->fallback = fallback;
	sample->reserved = 0;
	sample->fallback_pc = fallback_pc;
	__builtin_memcpy(sample->comm, key->comm, sizeof(sample->comm));
	sample->regs[0] = regs->rax;
	sample->regs[1] = regs->rdx;
	sample->regs[2] = regs->rcx;
	sample->regs[3] = regs->rbx;
	sample->regs[4] = regs->rsi;
	sample->regs[5] = regs->rdi;
	sample->regs[6] = regs->rbp;
	sample->regs[7] = regs->rsp;
	sample->regs[8] = regs->r8;
	sample->regs[9] = regs->r9;
	sample->regs[10] = regs->r10;
	sample->regs[11] = regs->r11;
	sample->regs[12] = regs->r12;
	sample->regs[13] = regs->r13;
	sample->regs[14] = regs->r14;
	sample->regs[15] = regs->r15;
	sample->regs[16] = regs->rip;

	/* an end at or below sp is another address space's (the thread
	 * exec'd since user space learnt it): unknown, copy what there is */
	__u64 *known_end = bpf_map_lookup_elem(&stack_ends, &tid);
	__u64 end = known_end && *known_end > regs->rsp ? *known_end : ~0ULL;
	__u64 copied = (__u32)copy_stack_pages(buffer, regs->rsp, end);
	if (copied > RECORD_USER_STACK_BYTES)
		copied = RECORD_USER_STACK_BYTES;
	barrier_var(copied);  /* the bound checked is the one used */
	sample->stack_size = copied;

	__u64 flags = BPF_RB_NO_WAKEUP;
	if (config.kernel_unwind) {
		__u64 ready = copied <= RECORD_SMALL_COPY_BYTES ? RECORD_COPY_SMALL :
			RECORD_COPY_WHOLE;
		long pushed = ready == RECORD_COPY_SMALL ?
			bpf_map_push_elem(&small_copies, buffer, 0) :
			bpf_map_push_elem(&copies, buffer, 0);
		if (pushed) {
			stat_add(RECORD_STAT_UNWIND_FP_NO_ROOM);
			return USER_STACK_NO_ROOM;
		}
		if (bpf_ringbuf_query(&copies_ready, BPF_RB_AVAIL_DATA) >= COPIES_WAKEUP_BYTES)
			flags = BPF_RB_FORCE_WAKEUP;
		if (bpf_ringbuf_output(&copies_ready, &ready, sizeof(ready), flags))
			stat_add(RECORD_STAT_SAMPLES_LOST);
		return USER_STACK_SENT;
	}
	if (bpf_ringbuf_query(&samples, BPF_RB_AVAIL_DATA) >= config.samples_wakeup)
		flags = BPF_RB_FORCE_WAKEUP;
	if (bpf_ringbuf_output(&samples, sample, sizeof(*sample) + copied, flags))
		stat_add(RECORD_STAT_SAMPLES_LOST);
	return USER_STACK_SENT;
}

#include "unwind.bpf.h"

/*
 * The user stack of a sample with copy_user_stacks: walked here from the
 * tables (kernel_unwind), into key->user_stack, where the walk can; else
 * copied into `samples` for user space to unwind and count (see enum
 * user_stack_copy).
 */
static __always_inline enum user_stack_copy copy_user_stack(struct record_key *key, __u32 tid,
							    __u64 time)
{
	struct pt_regs regs;
	int got = read_user_regs(&regs);

	if (got < 0) {
		stat_add(RECORD_STAT_STACK_ERRORS);
		return USER_STACK_SENT;
	}
	if (got > 0)
		return USER_STACK_IN_KEY;  /* no user state: a kernel thread */
	__u32 fallback = RECORD_FALLBACK_NONE;
	__u64 fallback_pc = 0;
	if (config.kernel_unwind) {
		key->user_stack = unwind_user_stack(key->pid, &regs, &fallback, &fallback_pc);
		if (key->user_stack)
			return USER_STACK_IN_KEY;
	}
	return send_user_stack(key, tid, time, &regs, fallback, fallback_pc);
}

#ifdef RECORD_TASK_ACCESS
/* The current task's user stack where no copy can be made (off-CPU keys,
 * wakers): walked from the tables where the kernel has them
 * (kernel_unwind), else by frame pointers, and counted so. */
static __always_inline __u64 task_user_stack(void *ctx, __u32 pid)
{
	if (config.kernel_unwind) {
		struct pt_regs regs;
		__u32 fallback;
		__u64 fallback_pc;
		if (read_user_regs(&regs) == 0) {
			__u64 hash = unwind_user_stack(pid, &regs, &fallback, &fallback_pc);
			if (hash)
				return hash;
		}
		stat_add(RECORD_STAT_UNWIND_FP);
	}
	return store_stack(ctx, BPF_F_USER_STACK);
}
#endif
#else
static __always_inline enum user_stack_copy copy_user_stack(struct record_key *key, __u32 tid,
							    __u64 time)
{
	(void)key, (void)tid, (void)time;
	return USER_STACK_IN_KEY;  /* x86-64 only so far: user space refuses --unwind=dwarf
				    * elsewhere */
}

#ifdef RECORD_TASK_ACCESS
static __always_inline __u64 task_user_stack(void *ctx, __u32 pid)
{
	(void)pid;
	return store_stack(ctx, BPF_F_USER_STACK);
}
#endif
#endif

/* -e's one in N for the programs the kernel does not sample for us: the
 * events of this CPU since the last kept one. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} event_counter SEC(".maps");

/* Keeps one in config.event_every events of this CPU (per-CPU, so no two
 * CPUs race for the counter; the same 1 in N overall). */
static __always_inline int keep_event(void)
{
	__u32 zero = 0;
	__u64 *seen;

	if (config.event_every <= 1)
		return 1;
	seen = bpf_map_lookup_elem(&event_counter, &zero);
	if (!seen)
		return 1;
	if (++*seen < config.event_every)
		return 0;
	*seen = 0;
	return 1;
}

/* One sample of the current task, counted under its key: the timer's
 * (do_sample), a perf event's (do_sample too) or a traced event's
 * (sampled: keep one in config.event_every; count_only: only count it). */
static __always_inline int sample_current(void *ctx, bool sampled)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 pid = id >> 32, tid = (__u32)id;
	struct record_key key = {};

	if (!config.include_idle && tid == 0)
		return 0;
	if (!current_wanted(pid, tid))
		return 0;
	if (sampled) {
		stat_add(RECORD_STAT_EVENTS);
		if (config.count_only || !keep_event())
			return 0;
	}

	__u64 now = bpf_ktime_get_ns();
	if (over_budget(now))
		return 0;
	stat_add(RECORD_STAT_SAMPLES);
	key.pid = pid;
	if (config.per_thread)
		key.tid = tid;
	if (config.slice_ns)
		key.slice = (now - config.start_ns) / config.slice_ns;
	bpf_get_current_comm(key.comm, sizeof(key.comm));
	if (config.kernel_stacks)
		key.kernel_stack = store_stack(ctx, 0);
	if (config.python && config.user_stacks)
		key.interp_stack = python_stack(pid, tid, now);
	if (config.notify_new_pids && pid != 0)
		note_new_pid(pid);
	/* user space counts the samples whose user stack it unwinds */
	enum user_stack_copy copy = config.user_stacks && config.copy_user_stacks ?
		copy_user_stack(&key, tid, now) : USER_STACK_IN_KEY;
	if (copy != USER_STACK_SENT) {
		if (config.user_stacks && (!config.copy_user_stacks || copy == USER_STACK_NO_ROOM))
			key.user_stack = store_stack(ctx, BPF_F_USER_STACK);
		count_key(&key, config.sample_weight ? config.sample_weight : 1);
	}
	charge_budget(now);
	return 0;
}

/* The timer, or -e's perf event (the kernel keeps one in -c N itself). */
SEC("perf_event")
int do_sample(struct bpf_perf_event_data *ctx)
{
	return sample_current(ctx, false);
}

/* -e CATEGORY:NAME and u:BINARY:FUNCTION: attached by user space to the
 * event it names (bare sections: the target is given at run time). They
 * return 1: to the kernel, 0 from a tracepoint's or probe's program means
 * "filter the event out", and perf's own listeners (a perf stat, a perf
 * record beside flamekit) would miss it. */
SEC("tracepoint")
int on_tracepoint(void *ctx)
{
	sample_current(ctx, true);
	return 1;
}

SEC("uprobe")
int on_uprobe(struct pt_regs *ctx)
{
	sample_current(ctx, true);
	return 1;
}

/* k:FUNCTION: a BPF trampoline on the function's entry (the kernel's BTF
 * names its target), cheaper than a kprobe and there on kernels built
 * without kprobe events. */
SEC("fentry")
int on_fentry(void *ctx)
{
	return sample_current(ctx, true);
}

#ifdef RECORD_TASK_ACCESS
#define PF_KTHREAD 0x00200000

/* before Linux 5.14, task_struct.__state was task_struct.state, a long */
struct task_struct___state_long {
	long state;
} __attribute__((preserve_access_index));

static __always_inline __u32 task_state(struct task_struct *task)
{
	if (bpf_core_field_exists(task->__state))
		return BPF_CORE_READ(task, __state);
	return BPF_CORE_READ((struct task_struct___state_long *)task, state);
}

/* prev, the current task, leaves the CPU: if record wants it, keep its key
 * and the time in `blocked`. The state is the one the switch reports: a
 * preempted task is running, whatever state it had set. */
static __always_inline void task_leaves(void *ctx, bool preempt, struct task_struct *prev,
					__u64 now)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 pid = id >> 32, tid = (__u32)id;

	if (tid == 0 || !current_wanted(pid, tid))
		return;  /* the idle task is off CPU exactly while others run */
	if (config.filter_cpu && bpf_get_smp_processor_id() != config.cpu)
		return;
	__u32 state = preempt ? RECORD_TASK_RUNNING : task_state(prev);
	if (state & RECORD_TASK_DEAD)
		return;  /* exiting: it never comes back */
	if (config.filter_state && (config.state ? !(state & config.state) : state != 0))
		return;
	__u32 flags = BPF_CORE_READ(prev, flags);
	if (config.user_threads_only && (flags & PF_KTHREAD))
		return;
	if (config.kernel_threads_only && !(flags & PF_KTHREAD))
		return;

	struct record_blocked b = {};
	b.time = now;
	b.key.pid = pid;
	b.key.off_cpu = 1;
	if (config.per_thread)
		b.key.tid = tid;
	bpf_get_current_comm(b.key.comm, sizeof(b.key.comm));
	if (config.kernel_stacks)
		b.key.kernel_stack = store_stack(ctx, 0);
	if (config.user_stacks && !(flags & PF_KTHREAD))
		b.key.user_stack = task_user_stack(ctx, pid);
	if (config.notify_new_pids)
		note_new_pid(pid);
	if (bpf_map_update_elem(&blocked, &tid, &b, BPF_ANY))
		stat_add(RECORD_STAT_BLOCKED_FULL);
}

/* next runs again: the microseconds since it left go to its key, with its
 * waker's stacks under --wakeups. Only this CPU touches next's entries
 * now: it is neither leaving nor can it be woken while it runs. */
static __always_inline void task_returns(struct task_struct *next, __u64 now)
{
	__u32 tid = BPF_CORE_READ(next, pid);
	struct record_blocked *b = bpf_map_lookup_elem(&blocked, &tid);

	if (!b)
		return;  /* not wanted, or it left before the recording began */
	struct record_key key = b->key;
	__u64 left = b->time;
	bpf_map_delete_elem(&blocked, &tid);
	struct record_waker *w = config.wakeups ? bpf_map_lookup_elem(&wakers, &tid) : NULL;
	if (w) {
		key.waker_pid = w->pid;
		key.waker_user_stack = w->user_stack;
		key.waker_kernel_stack = w->kernel_stack;
		__builtin_memcpy(key.waker_comm, w->comm, sizeof(key.waker_comm));
		bpf_map_delete_elem(&wakers, &tid);
	}
	if (now < left)
		return;
	__u64 us = (now - left) / 1000;
	if (us < config.min_block_us || us > config.max_block_us)
		return;
	/* a block is counted where it ended, as a sample is where it was
	 * taken: its length is known only then (and a block is not spread
	 * over the slices it spans) */
	if (config.slice_ns)
		key.slice = (now - config.start_ns) / config.slice_ns;
	stat_add(RECORD_STAT_SAMPLES);
	stat_add_n(RECORD_STAT_OFF_CPU_US, us);
	count_key(&key, us);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u64 now = bpf_ktime_get_ns();

	task_returns(next, now);
	task_leaves(ctx, preempt, prev, now);
	return 0;
}

/*
 * --wakeups: the waker of a task whose block is being timed. sched_waking,
 * not sched_wakeup: it fires in the waker's context always, where a wakeup
 * queued to another CPU fires sched_wakeup there, in whatever task runs
 * (often the idle one). A wakeup from an interrupt (a timer's) names the
 * task the interrupt came in, as bcc's offwaketime does.
 */
SEC("tp_btf/sched_waking")
int BPF_PROG(on_waking, struct task_struct *p)
{
	__u32 tid = BPF_CORE_READ(p, pid);

	if (!bpf_map_lookup_elem(&blocked, &tid))
		return 0;
	struct record_waker w = {};
	w.pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(w.comm, sizeof(w.comm));
	if (config.kernel_stacks)
		w.kernel_stack = store_stack(ctx, 0);
	if (config.user_stacks)
		w.user_stack = task_user_stack(ctx, w.pid);
	if (config.notify_new_pids && w.pid != 0)
		note_new_pid(w.pid);
	if (bpf_map_update_elem(&wakers, &tid, &w, BPF_ANY))
		stat_add(RECORD_STAT_WAKERS_FULL);
	return 0;
}
#endif

char LICENSE[] SEC("license") = "GPL";
