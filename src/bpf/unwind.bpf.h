/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel side of unwinding without frame pointers (included by
 * record.bpf.c; user space: src/sampler/kernel_unwind.c; the tables:
 * record.h). At a sample, from the task's user registers:
 *
 *	pc -> its mapping in unwind_procs[pid] (binary search)
 *	   -> the binary's rows in unwind_rows (binary search on pc - bias)
 *	   -> CFA = rsp or rbp + off; return address at CFA - 8; rbp from
 *	      CFA + 8k where the row says it was saved; rsp = CFA
 *
 * one frame per bpf_loop() step, frame pointers instead in mappings user
 * space marked so (JIT code). The frames (leaf first, callers as return
 * address - 1, in the call, as the copy path's unwinder gives them) are
 * stored in `stacks` as one stack, in chunks the size of its values: the
 * first under the stack's hash, with the whole depth; chunk k under
 * record_mix(hash, k). Anything the walk cannot follow (record_fallback) leaves
 * the sample to the copy path, whole, with the reason and the pc: a sample
 * is never counted with half a walk.
 */
#ifndef FLAMEKIT_BPF_UNWIND_BPF_H
#define FLAMEKIT_BPF_UNWIND_BPF_H

/* A row search's steps: tables of up to 2^24 rows. */
#define UNWIND_ROW_STEPS 24
#define UNWIND_MAPPING_STEPS 9   /* log2(RECORD_UNWIND_MAPPINGS) + 1 */

/* Every binary's rows, one after the other: a binary's table is the
 * range [mapping.table, + mapping.rows). One array, not an array of maps:
 * each map put into a map of maps from user space waits for an RCU grace
 * period (tens of milliseconds), and a host's first seconds meet dozens of
 * binaries. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct record_unwind_row);
	__uint(max_entries, 1);  /* set by user space: its budget of rows */
} unwind_rows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);  /* 8 KB a process: only those seen */
	__type(key, __u32);
	__type(value, struct record_unwind_proc);
	__uint(max_entries, 1);  /* set by user space with kernel_unwind */
} unwind_procs SEC(".maps");

/* One walk, in the CPU's map value (as python_walk, for the verifier's
 * sake: counters it sees as ranges, not as each exact depth). The header
 * and ips are laid out as a record_stack, so that chunk k of a stored
 * stack is read in place from &ips[k * chunk] - 8 (its 8 header bytes
 * are the frame before, which a reader of chunk k ignores). */
struct unwind_walk {
	__u64 pc, sp, bp;
	__u64 fallback_pc;
	__u64 hash;                /* of the frames so far, as store_stack() hashes */
	__u32 pid, fallback;
	__u32 done, reserved;
	__u32 lo, hi;              /* a binary search's bounds: in the map value,
				    * they are unknown numbers to the verifier, so
				    * both ways out of a step are one state, where
				    * locals would double the states at each step */
	__u32 depth;               /* record_stack's header: depth, reserved */
	__u32 header_reserved;
	__u64 ips[RECORD_MAX_USER_DEPTH + RECORD_MAX_STACK_DEPTH];  /* a chunk's reach past the end */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct unwind_walk);
	__uint(max_entries, 1);
} unwind_walks SEC(".maps");

static __always_inline long unwind_fall_back(struct unwind_walk *w, __u32 why)
{
	w->fallback = why;
	w->fallback_pc = w->pc;
	return 1;
}

/* The mapping of proc holding pc, or NULL. */
static __always_inline const struct record_unwind_mapping *
unwind_mapping(struct unwind_walk *w, const struct record_unwind_proc *proc, __u64 pc)
{
	w->lo = 0;
	w->hi = proc->count;
	for (int i = 0; i < UNWIND_MAPPING_STEPS; i++) {
		__u32 lo = w->lo, hi = w->hi;
		if (lo >= hi)
			break;
		__u32 mid = (lo + hi) / 2;
		if (proc->mappings[mid & (RECORD_UNWIND_MAPPINGS - 1)].start <= pc)
			w->lo = mid + 1;
		else
			w->hi = mid;
	}
	__u32 lo = w->lo;
	if (lo == 0 || lo > RECORD_UNWIND_MAPPINGS)
		return NULL;
	const struct record_unwind_mapping *m = &proc->mappings[(lo - 1) & (RECORD_UNWIND_MAPPINGS - 1)];
	return pc < m->end ? m : NULL;
}

/* The row of the table at [first, first + rows) whose range holds pc, or NULL. */
static __always_inline const struct record_unwind_row *unwind_row(struct unwind_walk *w,
								  __u32 first, __u32 rows,
								  __u32 pc)
{
	w->lo = 0;
	w->hi = rows;
	for (int i = 0; i < UNWIND_ROW_STEPS; i++) {
		__u32 lo = w->lo, hi = w->hi;
		if (lo >= hi)
			break;
		__u32 mid = (lo + hi) / 2, at = first + mid;
		const struct record_unwind_row *row = bpf_map_lookup_elem(&unwind_rows, &at);
		if (!row)
			return NULL;
		if (row->pc <= pc)
			w->lo = mid + 1;
		else
			w->hi = mid;
	}
	__u32 at = w->lo;
	if (at == 0 || at < w->hi)
		return NULL;  /* below the first row, or a table longer than the steps */
	at = first + at - 1;
	return bpf_map_lookup_elem(&unwind_rows, &at);
}

/* One frame: keep w->pc, then find its caller's registers. 0: go on. */
static long unwind_step(__u32 index, void *arg)
{
	__u32 zero = 0;
	struct unwind_walk *w = bpf_map_lookup_elem(&unwind_walks, &zero);

	(void)index, (void)arg;
	if (!w)
		return 1;
	struct record_unwind_proc *proc = bpf_map_lookup_elem(&unwind_procs, &w->pid);
	if (!proc)
		return unwind_fall_back(w, RECORD_FALLBACK_NO_PROC);
	__u32 at = w->depth;
	if (at >= RECORD_MAX_USER_DEPTH) {
		stat_add(RECORD_STAT_UNWIND_DEEP);
		w->done = 1;
		return 1;
	}
	barrier_var(at);
	/* a caller's pc is a return address: the call is the byte before */
	__u64 pc = at ? w->pc - 1 : w->pc;
	w->ips[at & (RECORD_MAX_USER_DEPTH - 1)] = pc;
	w->hash = record_mix(w->hash, pc);
	w->depth = at + 1;

	const struct record_unwind_mapping *m = unwind_mapping(w, proc, pc);
	if (!m)
		return unwind_fall_back(w, RECORD_FALLBACK_NO_MAPPING);
	__u64 cfa, ra = 0, bp = w->bp;
	if (m->table == RECORD_UNWIND_FRAME_POINTERS) {
		cfa = w->bp + 16;
		if (bpf_probe_read_user(&bp, sizeof(bp), (const void *)w->bp))
			return unwind_fall_back(w, RECORD_FALLBACK_READ);
	} else {
		if (m->table == RECORD_UNWIND_NO_TABLE || m->rows == 0)
			return unwind_fall_back(w, RECORD_FALLBACK_NO_TABLE);
		__u64 own = pc - m->bias;
		const struct record_unwind_row *row = own <= 0xffffffffULL ?
			unwind_row(w, m->table, m->rows, (__u32)own) : NULL;
		__u8 kind = row ? row->kind : RECORD_UNWIND_FALLBACK;
		switch (kind & RECORD_UNWIND_CFA_MASK) {
		case RECORD_UNWIND_END:
			w->done = 1;
			return 1;
		case RECORD_UNWIND_CFA_RSP:
			cfa = w->sp + row->cfa_off;
			break;
		case RECORD_UNWIND_CFA_RBP:
			cfa = w->bp + row->cfa_off;
			break;
		default:
			return unwind_fall_back(w, RECORD_FALLBACK_NO_RULE);
		}
		if ((kind & RECORD_UNWIND_RBP_SAVED) &&
		    bpf_probe_read_user(&bp, sizeof(bp), (const void *)(cfa + row->rbp_off * 8)))
			return unwind_fall_back(w, RECORD_FALLBACK_READ);
	}
	if (bpf_probe_read_user(&ra, sizeof(ra), (const void *)(cfa - 8)))
		return unwind_fall_back(w, RECORD_FALLBACK_READ);
	if (ra == 0) {  /* a root the tables do not mark (a thread's start by clone) */
		w->done = 1;
		return 1;
	}
	w->pc = ra;
	w->sp = cfa;
	w->bp = bp;
	return 0;
}

/* Stores the walk's frames in `stacks` in chunks (see above), chunk 0
 * last: a reader that finds it finds the others. Its hash, or
 * RECORD_STACK_MISSED. */
static __always_inline __u64 unwind_store(struct unwind_walk *w)
{
	/* chunk: known to the verifier (config is read-only), and so is
	 * the count of chunks the loop below may store */
	__u32 chunk = config.stack_bytes / 8, depth = w->depth;
	__u64 hash = record_mix(w->hash, depth);
	long err;

	if (chunk > RECORD_MAX_STACK_DEPTH)
		chunk = RECORD_MAX_STACK_DEPTH;
	if (chunk == 0 || depth > RECORD_MAX_USER_DEPTH)
		return RECORD_STACK_MISSED;
	if (hash <= RECORD_STACK_MISSED)
		hash += 2;
	if (bpf_map_lookup_elem(&stacks, &hash))
		return hash;
	for (__u32 k = 1; k <= RECORD_MAX_USER_DEPTH / chunk; k++) {
		__u32 first = k * chunk;
		if (first >= depth)
			break;
		__u64 key = record_mix(hash, k);
		void *value = &w->ips[(first - 1) & (RECORD_MAX_USER_DEPTH - 1)];
		err = bpf_map_update_elem(&stacks, &key, value, BPF_NOEXIST);
		if (err && err != -EEXIST) {
			stat_add(RECORD_STAT_STACKS_FULL);
			return RECORD_STACK_MISSED;
		}
	}
	w->header_reserved = 0;
	err = bpf_map_update_elem(&stacks, &hash, &w->depth, BPF_NOEXIST);
	if (err && err != -EEXIST) {
		stat_add(RECORD_STAT_STACKS_FULL);
		return RECORD_STACK_MISSED;
	}
	return hash;
}

/*
 * Walks the current task's user stack from regs: its hash in `stacks`, or
 * 0 with *fallback and *fallback_pc saying why the copy path must do it.
 */
static __always_inline __u64 unwind_user_stack(__u32 pid, const struct pt_regs *regs,
					       __u32 *fallback, __u64 *fallback_pc)
{
	__u32 zero = 0;
	struct unwind_walk *w = bpf_map_lookup_elem(&unwind_walks, &zero);

	*fallback = RECORD_FALLBACK_NO_PROC;
	*fallback_pc = regs->rip;
	if (!w)
		return 0;
	w->pc = regs->rip;
	w->sp = regs->rsp;
	w->bp = regs->rbp;
	w->pid = pid;
	w->depth = 0;
	w->hash = 0x5bd1e9955bd1e995ULL;
	w->done = 0;
	w->fallback = RECORD_FALLBACK_NONE;
	bpf_loop(RECORD_MAX_USER_DEPTH + 1, unwind_step, NULL, 0);
	if (!w->done) {
		*fallback = w->fallback ? w->fallback : RECORD_FALLBACK_READ;
		*fallback_pc = w->fallback_pc;
		stat_add(RECORD_STAT_FALLBACK + (*fallback < RECORD_FALLBACKS ? *fallback : 0));
		return 0;
	}
	stat_add(RECORD_STAT_UNWOUND);
	return unwind_store(w);
}

/* An exec: the process's mappings are new, its entry is stale; and user
 * space hears of the pid again at its next sample, to fill it anew. */
SEC("raw_tp/sched_process_exec")  /* raw: no tracefs needed */
int on_exec(void *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	(void)ctx;
	bpf_map_delete_elem(&unwind_procs, &pid);
	bpf_map_delete_elem(&seen_pids, &pid);
	return 0;
}

#endif
