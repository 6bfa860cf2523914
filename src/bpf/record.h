/*
 * Types shared by the kernel side of `flamekit record` (record.bpf.c) and
 * user space (sampler/bpf_sampler.c). Plain fixed-size C, no kernel headers.
 *
 * The kernel counts samples in `counts`, keyed by record_key. A key names
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
#define RECORD_COMM_LEN 16

/* Values of record_key.user_stack / kernel_stack that are not hashes. */
#define RECORD_STACK_NONE   0  /* none of this kind: not asked for, or the task had none */
#define RECORD_STACK_MISSED 1  /* there was one but it could not be read or stored */

struct record_key {
	__u32 pid;          /* thread group id, as seen by the initial pid namespace */
	__u32 tid;          /* thread id when sampling per thread, else 0 */
	__u32 slice;        /* time slice number when config.slice_ns is set, else 0 */
	__u32 reserved;
	__u64 user_stack;   /* hash in `stacks`, or RECORD_STACK_NONE / _MISSED */
	__u64 kernel_stack;
	char comm[RECORD_COMM_LEN];
};

/* A stored stack. The map's value size is cut to the depth asked for, so
 * only depth and ips[0 .. max depth - 1] exist in it; ips[] is leaf first. */
struct record_stack {
	__u32 depth;
	__u32 reserved;
	__u64 ips[RECORD_MAX_STACK_DEPTH];
};

/* Per-CPU counters in the `stats` array. */
enum record_stat {
	RECORD_STAT_SAMPLES,       /* samples that passed the filters */
	RECORD_STAT_COUNTS_FULL,   /* dropped: `counts` had no room for a new key */
	RECORD_STAT_STACKS_FULL,   /* a stack lost: `stacks` had no room */
	RECORD_STAT_STACK_ERRORS,  /* a stack lost: bpf_get_stack() failed */
	RECORD_STAT_PIDS_FULL,     /* a child not followed: `pids` had no room */
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
	__u8 reserved[6];
};

#endif
