/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel side of Python frames (included by record.bpf.c; user space:
 * src/interp/python.c). CPython 3.11+ runs Python-to-Python calls inside
 * one C frame of _PyEval_EvalFrameDefault, its frames (_PyInterpreterFrame)
 * linked on a stack of its own in the heap; they are gone by the time user
 * space could read them, so they are walked here, at the sample:
 *
 *	thread state (python_threads, by tid, filled by user space from the
 *	interpreter's thread list) -> current frame -> previous -> ...
 *
 * each frame kept as its code object's address and a tag (record.h), with
 * an ENTRY marker where one C frame's frames end. Only addresses are read
 * here; user space names the code objects (their type checked there) while
 * the process lives: a new stack is sent to it through `interp_events` as
 * it is first stored. A thread whose state is not known is sent too, and
 * user space looks it up in the thread list; unanswered, it is asked about
 * again after 8 ms, then less often, down to once a second.
 *
 * The walk is bounded by the depth kept, and a frame chain that comes back
 * on itself (a corrupt or changing chain) is caught by Brent's cycle check
 * and cut with a LOOP marker; a frame that cannot be read ends the walk
 * with UNREADABLE. Offsets come per process from `python_procs`, which user
 * space fills only for a CPython it knows and has checked.
 */
#ifndef FLAMEKIT_BPF_PYTHON_BPF_H
#define FLAMEKIT_BPF_PYTHON_BPF_H

/* A thread not found is asked about again after 8 ms, then 16, 32 ... up
 * to a second: one just born is in the interpreter's list before it has
 * written its native id there, and missed then, it went a second without
 * frames (a 30 ms thread, all its life) */
#define PYTHON_FIRST_RETRY_MS 8
#define PYTHON_LAST_RETRY_MS 1000
#define PYTHON_FRAME_BYTES 72          /* every field of a frame we read lies below this */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct record_python_proc);
	__uint(max_entries, 1);  /* set by user space when Python frames are on */
} python_procs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct record_python_thread);
	__uint(max_entries, 1);
} python_threads SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} interp_events SEC(".maps");

static __always_inline void python_ask_thread(__u32 pid, __u32 tid)
{
	/* the event's first fields (record_interp_event): kind, pid, tid */
	__u32 ask[4] = { RECORD_INTERP_THREAD, pid, tid, 0 };

	if (bpf_ringbuf_output(&interp_events, ask, sizeof(ask), 0))
		stat_add(RECORD_STAT_PYTHON_EVENTS_LOST);
}

/* The thread's state, or 0 after asking user space (backing off to once a
 * second while it goes unanswered). */
static __always_inline __u64 python_thread_state(__u32 pid, __u32 tid, __u64 now)
{
	struct record_python_thread *t = bpf_map_lookup_elem(&python_threads, &tid);

	if (!t) {
		struct record_python_thread unknown = {
			.retry_ns = now + PYTHON_FIRST_RETRY_MS * 1000000ULL,
			.retry_gap_ms = PYTHON_FIRST_RETRY_MS,
		};
		if (bpf_map_update_elem(&python_threads, &tid, &unknown, BPF_NOEXIST) == 0)
			python_ask_thread(pid, tid);
		return 0;
	}
	if (t->tstate)
		return t->tstate;
	if (now >= t->retry_ns) {
		__u32 gap = t->retry_gap_ms * 2;
		if (gap < PYTHON_FIRST_RETRY_MS || gap > PYTHON_LAST_RETRY_MS)
			gap = PYTHON_LAST_RETRY_MS;
		t->retry_gap_ms = gap;
		t->retry_ns = now + gap * 1000000ULL;
		python_ask_thread(pid, tid);
	}
	return 0;
}

static __always_inline __u64 python_word_at(const __u64 *frame, __u32 offset)
{
	__u32 index = offset / 8;

	return index < PYTHON_FRAME_BYTES / 8 ? frame[index] : 0;
}

static __always_inline __u32 python_byte_at(const __u64 *frame, __u32 offset)
{
	return offset < PYTHON_FRAME_BYTES ? ((const __u8 *)frame)[offset] : 0;
}

/* The tag of a frame's word (record.h): its first line, or its instruction. */
static __always_inline __u64 python_tag(const struct record_python_proc *proc, __u64 code,
					__u64 instr)
{
	if (config.python_lines) {
		__u64 start = code + proc->code_bytecode;
		__u64 units = instr >= start ? (instr - start) / 2 : RECORD_PYTHON_NO_OFFSET;
		return units < RECORD_PYTHON_NO_OFFSET ? units : RECORD_PYTHON_NO_OFFSET;
	}
	__s32 first_line = 0;
	bpf_probe_read_user(&first_line, sizeof(first_line),
			    (const void *)(code + proc->code_firstlineno));
	return (__u16)first_line;
}

/*
 * One walk, as bpf_loop() steps it, kept in the CPU's map value rather
 * than on the stack: the verifier then sees the counters as unknown
 * numbers in a range and checks a step once, where counters it knows
 * exactly (a depth of 1, 2, 3 ...) make it check every depth apart.
 */
struct python_walk {
	struct record_python_proc proc;
	__u64 frame, checkpoint;
	__u32 limit, since_checkpoint, power, reserved;
	struct record_interp_event event;
	/* what an index masked to 127 may reach past ips[126], and the last
	 * chunk store_rest() reads from there */
	__u64 spare[RECORD_STACK_CHUNK + 1];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct python_walk);
	__uint(max_entries, 1);
} python_walks SEC(".maps");

static __always_inline void python_keep(struct python_walk *w, __u64 word)
{
	__u32 at = w->event.stack.depth;

	if (at >= RECORD_MAX_STACK_DEPTH)
		return;
	w->event.stack.depth = at + 1;
	barrier_var(at);  /* the mask below stays: the verifier needs it */
	w->event.stack.ips[at & 127] = word;
}

/* One frame: 0 to go on, 1 to stop. */
static long python_step(__u32 index, void *arg)
{
	__u32 zero = 0;
	struct python_walk *w = bpf_map_lookup_elem(&python_walks, &zero);
	__u64 frames[PYTHON_FRAME_BYTES / 8];

	(void)index, (void)arg;
	if (!w || !w->frame)
		return 1;
	const struct record_python_proc *proc = &w->proc;
	if (w->event.stack.depth >= w->limit) {
		stat_add(RECORD_STAT_PYTHON_DEEP);
		python_keep(w, RECORD_PYTHON_DEEP);
		return 1;
	}
	if (bpf_probe_read_user(frames, sizeof(frames), (const void *)w->frame)) {
		stat_add(RECORD_STAT_PYTHON_READ);
		python_keep(w, RECORD_PYTHON_UNREADABLE);
		return 1;
	}
	__u64 code = python_word_at(frames, proc->frame_code);
	if (proc->owner_cstack != 0xff &&
	    python_byte_at(frames, proc->frame_owner) == proc->owner_cstack) {
		/* the frame a C frame of the interpreter pushes on entry: the
		 * frames before it ran in that C frame */
		__u32 last = w->event.stack.depth - 1;
		barrier_var(last);
		if (last < RECORD_MAX_STACK_DEPTH && w->event.stack.ips[last & 127] != RECORD_PYTHON_ENTRY)
			python_keep(w, RECORD_PYTHON_ENTRY);
	} else if (code) {
		__u64 tag = python_tag(proc, code, python_word_at(frames, proc->frame_instr));
		python_keep(w, (code & RECORD_PYTHON_ADDRESS_MASK) | tag << RECORD_PYTHON_TAG_SHIFT);
		if (proc->frame_is_entry != RECORD_PYTHON_NO_OFFSET &&
		    python_byte_at(frames, proc->frame_is_entry))
			python_keep(w, RECORD_PYTHON_ENTRY);
	}
	w->frame = python_word_at(frames, proc->frame_previous);
	/* Brent: a chain that loops meets the checkpoint again */
	if (w->frame && w->frame == w->checkpoint) {
		stat_add(RECORD_STAT_PYTHON_LOOP);
		python_keep(w, RECORD_PYTHON_LOOP);
		return 1;
	}
	if (++w->since_checkpoint >= w->power) {
		w->checkpoint = w->frame;
		w->power *= 2;
		w->since_checkpoint = 0;
	}
	return 0;
}

/* Walks the frames of the thread whose state is tstate into w->event's
 * stack; false: nothing to keep (a stale state, or no frames). */
static __always_inline bool python_walk(struct python_walk *w,
					const struct record_python_proc *proc, __u64 tstate,
					__u32 native_id)
{
	__u64 frame = 0, native = 0;
	__u32 limit = config.stack_bytes / 8;

	if (bpf_probe_read_user(&native, sizeof(native), (const void *)(tstate + proc->tstate_native_id)) ||
	    (__u32)native != native_id ||
	    bpf_probe_read_user(&frame, sizeof(frame), (const void *)(tstate + proc->tstate_frame)))
		return false;  /* a state freed, or made again for another thread */
	if (proc->cframe_frame != RECORD_PYTHON_NO_OFFSET && frame &&
	    bpf_probe_read_user(&frame, sizeof(frame), (const void *)(frame + proc->cframe_frame)))
		return false;
	if (limit > RECORD_MAX_STACK_DEPTH)
		limit = RECORD_MAX_STACK_DEPTH;
	w->proc = *proc;
	w->frame = frame;
	w->checkpoint = frame;
	w->limit = limit - 1;  /* room for the marker of an early end */
	w->since_checkpoint = 0;
	w->power = 1;
	w->event.stack.depth = 0;
	bpf_loop(RECORD_MAX_STACK_DEPTH, python_step, NULL, 0);
	return w->event.stack.depth > 0;
}

/* store_rest() of the walk's stack */
__noinline int python_store_rest(__u64 hash)
{
	__u32 zero = 0;
	struct python_walk *w = bpf_map_lookup_elem(&python_walks, &zero);

	return w ? store_rest(hash, w->event.stack.ips, w->event.stack.depth,
			      RECORD_MAX_STACK_DEPTH) : -EINVAL;
}

/* The hash of the walk's stack, pid's (RECORD_STACK_MISSED: no walk).
 * A global function, as scratch_stack_hash(). */
__noinline __u64 python_stack_hash(__u32 pid)
{
	__u32 zero = 0;
	struct python_walk *w = bpf_map_lookup_elem(&python_walks, &zero);

	if (!w)
		return RECORD_STACK_MISSED;
	__u32 depth = w->event.stack.depth;
	return stack_hash(record_mix(record_mix(stack_hash_start(0x7079746830ULL), pid), depth),
			  w->event.stack.ips, depth);
}

/*
 * The Python frames of the current thread, stored in `stacks`: their hash,
 * RECORD_STACK_NONE for a process that runs no Python known here or a
 * thread not running Python now, RECORD_STACK_MISSED for a walk that found
 * nothing it could keep.
 */
static __always_inline __u64 python_stack(__u32 pid, __u32 tid, __u64 now)
{
	struct record_python_proc *proc = bpf_map_lookup_elem(&python_procs, &pid);
	__u32 zero = 0;

	if (!proc)
		return RECORD_STACK_NONE;
	struct record_python_thread *t = bpf_map_lookup_elem(&python_threads, &tid);
	__u32 native_id = t ? t->native_id : 0;
	__u64 tstate = python_thread_state(pid, tid, now);
	if (!tstate) {
		stat_add(RECORD_STAT_PYTHON_NO_THREAD);
		return RECORD_STACK_NONE;
	}
	struct python_walk *w = bpf_map_lookup_elem(&python_walks, &zero);
	if (!w)
		return RECORD_STACK_MISSED;
	if (!python_walk(w, proc, tstate, native_id))
		return RECORD_STACK_NONE;  /* no frames: the thread runs no Python now */
	struct record_interp_event *event = &w->event;

	__u32 depth = event->stack.depth;
	__u64 hash = python_stack_hash(pid);
	if (hash == RECORD_STACK_MISSED)
		return hash;
	if (bpf_map_lookup_elem(&stacks, &hash))
		return hash;
	if (store_first(hash, &event->stack, depth > stack_chunk() ? python_store_rest(hash) : 0)) {
		stat_add(RECORD_STAT_STACKS_FULL);
		return RECORD_STACK_MISSED;
	}
	/* new: user space names its frames while the process lives */
	event->kind = RECORD_INTERP_STACK;
	event->pid = pid;
	event->tid = tid;
	event->hash = hash;
	if (depth > RECORD_MAX_STACK_DEPTH)
		depth = RECORD_MAX_STACK_DEPTH;
	if (bpf_ringbuf_output(&interp_events, event, offsetof(struct record_interp_event, stack.ips) +
			       depth * sizeof(__u64), 0))
		stat_add(RECORD_STAT_PYTHON_EVENTS_LOST);
	return hash;
}

#endif
