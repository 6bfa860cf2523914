/*
 * Types shared by the kernel side of `flamekit record` (record.bpf.c) and
 * user space (sampler/bpf_sampler.c). Plain fixed-size C, no kernel headers.
 *
 * The kernel counts in `counts`, keyed by record_key: timer samples (each
 * adds 1; with --all-time, its microseconds of CPU time), -e's events (each
 * kept one adds 1) or, with --off-cpu, the microseconds a task spent off CPU
 * (each block adds its length to the key the task had when it left). A key names
 * its stacks by the 64-bit hash of their content; the frames themselves are
 * stored once per distinct stack in `stacks` (hash -> record_stack). Unlike a
 * BPF stack-trace map, where two stacks that hash to one bucket make the
 * second sample lose its stack (-EEXIST), a full 64-bit content hash never
 * evicts or refuses a stack while the map has room; when a map is full the
 * sample is counted in `stats` instead, so every loss is reported.
 */
#ifndef FLAMEKIT_BPF_RECORD_H
#define FLAMEKIT_BPF_RECORD_H

/* The kernel's default perf_event_max_stack: bpf_get_stack() returns no
 * more frames than that anyway. */
#define RECORD_MAX_STACK_DEPTH 127
/* Frames one value of `stacks` holds; a deeper stack goes on in chunks
 * (record_mix()). 8 + 23 * 8 = 192 bytes of value: with the kernel's
 * element around it (64 bytes), 256 bytes of slab, where one value for
 * all 127 frames took 2 KB while most stacks have fewer than 24 (a
 * build's: 86 % of them), and a varied host-wide run filled the map. */
#define RECORD_STACK_CHUNK 23

/* Frames a value of `stacks` holds when stacks keep up to depth frames
 * (user space sizes the map's values with it; the BPF side stores by it). */
static inline __u32 record_chunk_frames(__u32 depth)
{
	return depth < RECORD_STACK_CHUNK ? depth : RECORD_STACK_CHUNK;
}
#define RECORD_COMM_LEN 16

/* Values of record_key.user_stack / kernel_stack that are not hashes. */
#define RECORD_STACK_NONE   0  /* none of this kind: not asked for, or the task had none */
#define RECORD_STACK_MISSED 1  /* there was one but it could not be read or stored */

/* record_lookup.bpf.c: values of `stacks` read RECORD_FETCH_BATCH at a time
 * by user space; a hash the map has no value for reads as this depth. */
#define RECORD_FETCH_BATCH 256
#define RECORD_FETCH_MISSING 0xffffffffu

struct record_fetch_args {
	__u32 first;        /* the first of the hashes in fetch_hashes to read */
	__u32 count;        /* how many: their values go to the same places */
};

struct record_key {
	__u32 pid;          /* thread group id, as seen by the initial pid namespace */
	__u32 tid;          /* thread id when sampling per thread, else 0 */
	__u32 slice;        /* time slice number when config.slice_ns is set, else 0;
			     * --off-cpu: of the block's end */
	__u32 waker_pid;    /* --wakeups: the waker's thread group; 0: no waker known */
	__u32 off_cpu;      /* 1: a block's time (--off-cpu, --all-time), 0: a sample */
	__u32 reserved;     /* zero: keys are compared byte for byte */
	__u64 user_stack;   /* hash in `stacks`, or RECORD_STACK_NONE / _MISSED */
	__u64 kernel_stack;
	char comm[RECORD_COMM_LEN];
	/* --wakeups: the stacks and comm of the task that woke this one (all
	 * zero without --wakeups, or when no wakeup was seen: a preempted task) */
	__u64 waker_user_stack;
	__u64 waker_kernel_stack;
	char waker_comm[RECORD_COMM_LEN];
	/* the interpreter frames the sampled thread was running (python.bpf.h):
	 * a hash in `stacks`, or RECORD_STACK_NONE / _MISSED */
	__u64 interp_stack;
};

/* --off-cpu: a task that left the CPU, by tid in `blocked` until it runs
 * again: when it left (bpf_ktime_get_ns()) and the key its time goes to. */
struct record_blocked {
	__u64 time;
	struct record_key key;
};

/* --wakeups: who woke a blocked task, by the wakee's tid in `wakers` until
 * the wakee runs. */
struct record_waker {
	__u32 pid;
	__u32 reserved;
	__u64 user_stack, kernel_stack;
	char comm[RECORD_COMM_LEN];
};

/* The hash stacks are stored under, one word at a time. A stack deeper
 * than the map's values hold is stored in chunks: the first under the
 * hash, chunk k under record_mix(hash, k). */
static inline __u64 record_mix(__u64 h, __u64 word)
{
	h ^= word;
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 32);
}

/* A stored stack. The map's value size is cut to a chunk's frames (or
 * the depth asked for, if less), so only depth and ips[0 .. chunk - 1]
 * exist in a value; ips[] is leaf first. */
struct record_stack {
	__u32 depth;
	__u32 reserved;
	__u64 ips[RECORD_MAX_STACK_DEPTH];
};

/*
 * --unwind=dwarf: instead of walking the user stack by frame pointers, the
 * kernel side copies the interrupted user registers and the user stack from
 * sp upwards (to the stack's end as user space learnt it in `stack_ends`,
 * else to the end of its mapping; at most RECORD_USER_STACK_BYTES) into the
 * `samples` ring buffer; user space
 * unwinds it from the binaries' unwind tables and counts the stacks. The
 * kernel stack is still stored in `stacks` and named by its hash.
 */
#define RECORD_USER_STACK_BYTES 65536
#define RECORD_USER_REGS 17   /* x86-64 DWARF registers 0-16: rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip */

struct record_sample {
	__u32 pid, tid;            /* tid: always the thread's */
	__u64 time;                /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 slice;
	__u32 stack_size;          /* bytes of stack that follow */
	__u64 kernel_stack;        /* as record_key.kernel_stack */
	char comm[RECORD_COMM_LEN];
	__u64 regs[RECORD_USER_REGS];
	__u64 interp_stack;        /* as record_key.interp_stack */
	__u32 fallback;            /* enum record_fallback: why the kernel did not walk it */
	__u32 reserved;
	__u64 fallback_pc;         /* the pc the kernel's walk stopped at */
	/* then stack_size bytes of stack, from regs[7] (sp) upwards */
};

/* With the kernel's walk, copies of up to this many bytes of stack (most
 * of them) go through a queue of values this size (record.bpf.c's
 * small_copies), the rest through one of whole buffers (`copies`): a
 * queue's push and pop copy their whole value, where a copy is 9 KB on
 * average. copies_ready's word for each says which (RECORD_COPY_*). */
#define RECORD_SMALL_COPY_BYTES 16384
#define RECORD_COPY_WHOLE 1
#define RECORD_COPY_SMALL 2

/* The per-CPU buffer a sample is built in: a chunk beyond the end for the
 * verifier's sake (a copy's offset is masked, not bounded exactly). */
struct record_sample_buffer {
	struct record_sample sample;
	__u8 stack[RECORD_USER_STACK_BYTES + 4096];
};

/* Why a sample's user stack took the copy path (record_sample.fallback). */
enum record_fallback {
	RECORD_FALLBACK_NONE,      /* --unwind=dwarf: every sample is copied */
	RECORD_FALLBACK_NO_MAPPING,/* a pc in no mapping, or the mappings were being
				    * changed (their lock taken) */
	RECORD_FALLBACK_NO_TABLE,  /* a pc in a binary without a table (yet) */
	RECORD_FALLBACK_NO_RULE,   /* a pc where the table has a FALLBACK row */
	RECORD_FALLBACK_READ,      /* stack memory the walk needed could not be read */
	RECORD_FALLBACK_FULL,      /* walked, but `stacks` was full: counted in user space */
	RECORD_FALLBACKS,
};

/* Per-CPU counters in the `stats` array. */
enum record_stat {
	RECORD_STAT_SAMPLES,       /* samples that passed the filters; --off-cpu: blocks counted */
	RECORD_STAT_COUNTS_FULL,   /* dropped: `counts` had no room for a new key */
	RECORD_STAT_STACKS_FULL,   /* a stack lost: `stacks` had no room */
	RECORD_STAT_STACK_ERRORS,  /* a stack lost: bpf_get_stack() failed */
	RECORD_STAT_PIDS_FULL,     /* a child not followed: `pids` had no room */
	RECORD_STAT_SAMPLES_LOST,  /* dropped: `samples` (the copied stacks) was full */
	RECORD_STAT_OFF_CPU_US,    /* --off-cpu: the microseconds of the blocks counted */
	RECORD_STAT_BLOCKED_FULL,  /* a block not timed: `blocked` had no room */
	RECORD_STAT_WAKERS_FULL,   /* a waker not kept: `wakers` had no room */
	RECORD_STAT_EVENTS,        /* -e: events that passed the filters, kept or not (-c) */
	RECORD_STAT_OVER_BUDGET,   /* a sample dropped: the CPU's sampling had spent
				    * config.cpu_budget_ns */
	/* interpreter frames (python.bpf.h): samples of an interpreter's
	 * threads whose walk ended early, by why */
	RECORD_STAT_PYTHON_NO_THREAD,  /* the thread's state was not known (yet) */
	RECORD_STAT_PYTHON_READ,       /* interpreter memory could not be read */
	RECORD_STAT_PYTHON_LOOP,       /* the frame chain came back on itself */
	RECORD_STAT_PYTHON_DEEP,       /* more frames than the depth kept */
	RECORD_STAT_PYTHON_EVENTS_LOST,/* news for user space lost: its ring was full */
	/* in-kernel unwinding (config.kernel_unwind) */
	RECORD_STAT_UNWOUND,           /* user stacks walked in the kernel to their root */
	RECORD_STAT_UNWIND_DEEP,       /* ... cut at RECORD_MAX_USER_DEPTH frames */
	RECORD_STAT_UNWIND_FP,         /* off-CPU and waker stacks the tables could not walk:
					* walked by frame pointers instead (cut short where
					* code keeps none) */
	RECORD_STAT_UNWIND_FP_NO_ROOM, /* sampled user stacks the tables could not walk and
					* the copy queues had no room for (user space
					* behind): walked by frame pointers, and counted */
	RECORD_STAT_FALLBACK,          /* samples sent down the copy path (by reason: below) */
	RECORD_STAT_FALLBACK_LAST = RECORD_STAT_FALLBACK + RECORD_FALLBACKS - 1,
	RECORD_STATS,
};

/* The knobs, one read-only struct set before load (the verifier sees its
 * values as constants and drops the code of filters that are off). */
struct record_config {
	__u32 stack_bytes;         /* bytes bpf_get_stack() may write: depth * 8 */
	__u32 uid;                 /* with filter_uid */
	__u64 slice_ns;            /* slice length; 0: no time slices */
	__u64 start_ns;            /* bpf_ktime_get_ns() at start, slice 0 */
	__u8 user_stacks;
	__u8 kernel_stacks;
	__u8 include_idle;
	__u8 per_thread;           /* fill record_key.tid */
	__u8 filter_pids;          /* only thread groups in `pids` */
	__u8 filter_tids;          /* only threads in `tids` */
	__u8 filter_uid;
	__u8 filter_cgroup;        /* only tasks whose cgroup id is in `cgroup_filter` */
	__u8 filter_mntns;         /* only tasks whose mount namespace is in `mntns_filter` */
	__u8 notify_new_pids;      /* send each new pid to `new_pids` (for symbols) */
	__u8 copy_user_stacks;     /* --unwind=dwarf: user stacks to `samples` */
	/* --off-cpu (on_switch, on_waking; the task build only) */
	__u8 filter_cpu;           /* only tasks leaving CPU `cpu` */
	__u8 filter_state;         /* only tasks leaving in `state` (bcc's --state) */
	__u8 user_threads_only;
	__u8 kernel_threads_only;
	__u8 wakeups;              /* key blocks by their waker too */
	__u64 samples_wakeup;      /* wake user space when `samples` holds this many bytes */
	__u64 min_block_us;        /* blocks shorter than this are not counted */
	__u64 max_block_us;        /* nor longer than this */
	__u32 state;               /* bcc's --state: 0 matches running (preempted)
				    * tasks, else a mask of task state bits */
	__u32 cpu;
	/* -e on a tracepoint or probe (on_tracepoint, on_kprobe, on_uprobe,
	 * on_fentry): keep one in this many events that pass the filters, by
	 * a per-CPU counter (the kernel's sample_period does it for perf
	 * events); 0 or 1: every one */
	__u64 event_every;
	__u8 count_only;           /* record --rate: count events, no stacks, no keys */
	__u8 reserved[7];
	/* what a timer sample adds to its key: 1, or --all-time's microseconds
	 * of CPU time per sample (1e6 / frequency) */
	__u64 sample_weight;
	/* interpreter frames (python.bpf.h): walk the frames of processes in
	 * `python_procs`; python_lines: keep each frame's instruction offset
	 * (line numbers) instead of the code object's first line */
	__u8 python;
	__u8 python_lines;
	/* walk user stacks here from the tables in unwind_tables: what the
	 * walk cannot do is copied with copy_user_stacks, else (off-CPU and
	 * waker stacks) walked by frame pointers */
	__u8 kernel_unwind;
	__u8 reserved2[5];
	/* the time do_sample may spend on a CPU in each window of
	 * RECORD_BUDGET_WINDOW_NS (0: no bound); the samples it would take
	 * past it are dropped and counted (RECORD_STAT_OVER_BUDGET) */
	__u64 cpu_budget_ns;
};

/* The window a CPU's budget is counted in: short enough that a rate the
 * machine cannot carry costs it no more than a moment of a storm, long
 * enough that one slow sample does not spend it. */
#define RECORD_BUDGET_WINDOW_NS 100000000ULL

/* The most one sample is charged: no walk takes this long (512 frames at
 * about a microsecond each), so a sample that seems to is one whose CPU
 * was taken away meanwhile (a virtual machine's host ran something else),
 * and its time is not flamekit's. Charged whole, such a sample spent a
 * CPU's budget at 997 Hz, and the samples after it were dropped. */
#define RECORD_BUDGET_SAMPLE_MOST_NS 2000000ULL

/*
 * Interpreter frames. CPython 3.11+ keeps its frames on a stack of its own
 * in the heap (one C frame of _PyEval_EvalFrameDefault runs many of them),
 * gone by the time user space could look; so the BPF program walks them at
 * the sample, from the thread's state, and keeps them as a stack in
 * `stacks` (leaf first, hashed with the pid: code addresses are the
 * process's own), each frame one word:
 *
 *	bits 0-47   the code object's address
 *	bits 48-63  its first line (mod 65536: a guard against a freed code
 *	            object's address used again by another), or with
 *	            python_lines the offset of the instruction running, in
 *	            code units (0xffff: beyond)
 *
 * and between them markers (values below RECORD_PYTHON_MARKERS): ENTRY
 * after the last (rootmost) frame one C frame of the interpreter ran, and
 * as the stack's last word why the walk ended early.
 */
#define RECORD_PYTHON_ENTRY     1   /* the frames before (leafward) ran in one C frame */
#define RECORD_PYTHON_DEEP      2   /* more frames than the depth kept */
#define RECORD_PYTHON_LOOP      3   /* the frame chain came back on itself */
#define RECORD_PYTHON_UNREADABLE 4  /* a frame could not be read */
#define RECORD_PYTHON_MARKERS   16
#define RECORD_PYTHON_ADDRESS_MASK 0xffffffffffffULL
#define RECORD_PYTHON_TAG_SHIFT 48
#define RECORD_PYTHON_NO_OFFSET 0xffff  /* the field is not in this version */

/* One interpreting process, by pid in `python_procs`, filled by user space
 * (interp/python.c) once it recognised the process and checked these
 * offsets (bytes) against it. */
struct record_python_proc {
	__u32 version;             /* PY_VERSION_HEX >> 16: 0x030b for 3.11 */
	__u16 tstate_frame;        /* thread state -> its cframe (3.11, 3.12) or
				    * its current frame (3.13+) */
	__u16 cframe_frame;        /* cframe -> current frame; NO_OFFSET: no cframe */
	__u16 tstate_native_id;    /* thread state -> native_thread_id (what gettid() said) */
	__u16 frame_code;          /* _PyInterpreterFrame -> f_code / f_executable */
	__u16 frame_previous;
	__u16 frame_instr;         /* -> prev_instr / instr_ptr */
	__u16 frame_is_entry;      /* -> is_entry (3.11); NO_OFFSET: none */
	__u16 frame_owner;         /* -> owner */
	__u16 code_firstlineno;
	__u16 code_bytecode;       /* code object -> its first instruction (co_code_adaptive) */
	__u8 owner_cstack;         /* owner of the entry frames a C frame pushes (3.12+: 3);
				    * 0xff: none (3.11 marks is_entry instead) */
	__u8 reserved[3];
};

/* One thread of an interpreting process, by tid in `python_threads`: its
 * thread state (0: none known; BPF asks user space again after retry_ns,
 * each unanswered ask waiting twice as long as the one before, from
 * 8 ms to a second) and the native id the state must hold, checked at
 * each walk (a state freed and made again for another thread is not
 * followed). */
struct record_python_thread {
	__u64 tstate;
	__u64 retry_ns;
	__u32 native_id;
	__u32 retry_gap_ms;
};

/* What the BPF side tells user space through `interp_events`. */
enum record_interp_event_kind {
	RECORD_INTERP_THREAD,      /* a thread of an interpreting process has no known state */
	RECORD_INTERP_STACK,       /* a new interpreter stack: name its frames while they live */
};

struct record_interp_event {
	__u32 kind;
	__u32 pid, tid;
	__u32 reserved;
	__u64 hash;                /* RECORD_INTERP_STACK: the stack's in `stacks` */
	struct record_stack stack; /* RECORD_INTERP_STACK: sent up to its depth */
};


/*
 * In-kernel unwinding without frame pointers (record's default on x86-64).
 * User space turns each binary's .eh_frame into rows (symbolize/
 * unwind_table.h), sorted by pc, each the rule from its pc up to the next
 * row's: where the CFA is (rsp or rbp plus cfa_off) and where the caller's
 * rbp was saved; the return address is always at CFA - 8 (x86-64's CIEs
 * say so; a row that says otherwise is a FALLBACK row). A pc in a
 * FALLBACK row (a rule the walk does not follow: a DWARF expression, a
 * signal frame) sends the sample down the copy path (record_sample)
 * instead; an END row is the stack's root (the return address is
 * undefined: _start). A NO_CFI row is code no FDE covers (hand-written
 * assembly such as ld.so's start): walked by frame pointer, as libdw's
 * unwinder does there, and a zero rbp ends the stack. A PLT row is GNU
 * ld's rule for a .plt entry, CFA = rsp + cfa_off, plus 8 once the pc's
 * offset in its 16-byte entry is rbp_off or more (after the push).
 */
#define RECORD_UNWIND_FALLBACK 0   /* kind & RECORD_UNWIND_CFA_MASK */
#define RECORD_UNWIND_CFA_RSP  1
#define RECORD_UNWIND_CFA_RBP  2
#define RECORD_UNWIND_END      3
#define RECORD_UNWIND_NO_CFI   4
#define RECORD_UNWIND_CFA_PLT  5
#define RECORD_UNWIND_CFA_MASK 0x0f
#define RECORD_UNWIND_RBP_SAVED 0x10  /* the caller's rbp is at CFA + 8 * rbp_off;
				       * else this frame did not change rbp */

struct record_unwind_row {
	__u32 pc;                  /* the binary's own address (ELF vaddr) the row starts at */
	__s16 cfa_off;
	__u8 kind;
	__s8 rbp_off;
};

/*
 * The tables live in `unwind_rows` (one array: each binary's rows a range
 * of it), found through `unwind_binaries` by the file's identity as the
 * kernel has it (the mapping's inode: device, number, generation), so that every
 * process mapping a binary, from its first sample on, is walked with the
 * one table. The kernel finds a pc's mapping itself (bpf_find_vma): a pc's
 * offset in the file is pc - vm_start + vm_pgoff * 4096, its own address
 * that plus vaddr_delta (p_vaddr - p_offset of the file's executable
 * segment). A binary not in unwind_binaries is asked for once through
 * `unwind_misses` (record_unwind_miss); user space builds its table, or
 * enters it with table RECORD_UNWIND_NO_TABLE, and meanwhile its samples
 * take the copy path. Code in no file (JIT) is walked by frame pointers.
 */
#define RECORD_UNWIND_NO_TABLE 0xffffffffu  /* binary.table: none, the copy path */
#define RECORD_MAX_USER_DEPTH  512    /* frames of a user stack walked in the kernel */

struct record_unwind_file {
	__u64 inode;
	__u32 dev;                 /* the kernel's dev_t of the inode's super block */
	__u32 generation;          /* the inode's: a number used again by another file
				    * (one deleted, one written: a build) has another */
};

struct record_unwind_binary {
	__u32 table;               /* its first row in unwind_rows, or RECORD_UNWIND_NO_TABLE */
	__u32 rows;
	__s64 vaddr_delta;
	/* its page index, the `pages` rows after its table (0: none): entry i
	 * (in the row's pc) counts the rows whose pc is at most the start of
	 * page page_lo + i (pages of 1 << RECORD_UNWIND_PAGE_SHIFT bytes of
	 * its own addresses), so that a search for a pc in that page looks
	 * only between entries i and i + 1: a few rows, where a search of
	 * cc1's whole table took 19 steps, each likely a cache miss */
	__u32 page_lo;
	__u32 pages;
};

#define RECORD_UNWIND_PAGE_SHIFT 12

struct record_unwind_miss {
	struct record_unwind_file file;
	__u32 pid;
	__u32 reserved;
	__u64 pc;                  /* a pc in it, for user space to find it by */
};

/* Task states, as include/linux/sched.h numbers them (bcc's --state). */
#define RECORD_TASK_RUNNING         0x0000
#define RECORD_TASK_INTERRUPTIBLE   0x0001
#define RECORD_TASK_UNINTERRUPTIBLE 0x0002
#define RECORD_TASK_DEAD            0x0080

#endif
