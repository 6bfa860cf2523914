/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel side of unwinding without frame pointers (included by
 * record.bpf.c's task build; user space: src/sampler/kernel_unwind.c; the
 * tables: record.h). At a sample, from the task's user registers:
 *
 *	pc -> its mapping (bpf_find_vma, kept per process: see unwind_vmas)
 *	   -> the file's table, by inode, in unwind_binaries
 *	   -> the row in unwind_rows (binary search on the file's own address,
 *	      between the entries of the table's page index for its page)
 *	   -> CFA = rsp or rbp + off; return address at CFA - 8; rbp from
 *	      CFA + 8k where the row says it was saved; rsp = CFA (the stack
 *	      read 512 bytes at a time: unwind_read())
 *
 * one frame per bpf_loop() step, frame pointers instead in code that is in
 * no file (JIT). The frames (leaf first, callers as return address - 1, in
 * the call, as the copy path's unwinder gives them) are stored in
 * `stacks` as one stack, in chunks the size of its values: the first
 * under the stack's hash, with the whole depth; chunk k under
 * record_mix(hash, k). Anything the walk cannot follow (unwind_fall_back)
 * leaves the sample to the copy path, whole, with the reason and the pc: a
 * sample is never counted with half a walk.
 */
#ifndef FLAMEKIT_BPF_UNWIND_BPF_H
#define FLAMEKIT_BPF_UNWIND_BPF_H

#ifdef RECORD_TASK_ACCESS  /* the mapping's file: CO-RE reads */

/* A row search's steps: tables of up to 2^24 rows. */
#define UNWIND_ROW_STEPS 24

/* Every binary's rows, one after the other: a binary's table is the
 * range [binary.table, + binary.rows) (record_unwind_binary). One array, not an array of maps:
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
	__type(key, struct record_unwind_file);
	__type(value, struct record_unwind_binary);
	__uint(max_entries, 1);  /* set by user space with kernel_unwind */
} unwind_binaries SEC(".maps");

/* Binaries asked for already: each is asked for once (user space enters
 * every one it is asked for in unwind_binaries, with a table or none). */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct record_unwind_file);
	__type(value, __u8);
	__uint(max_entries, 4096);
} unwind_asked SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);  /* 128 questions: user space answers at once */
} unwind_misses SEC(".maps");

/*
 * The mappings of a process the walk has met, as bpf_find_vma() found
 * them. It can be asked only once a sample: in the timer's interrupt it
 * leaves the unlock of the mappings' lock to an irq_work, and a second call
 * before that has run fails (-EBUSY); it fails too while the task holds
 * the lock itself (a sample in its mmap()). So each sample looks up at most one
 * mapping, the first its walk meets that is not kept here, and a walk that
 * meets a second one goes down the copy path; a process's first samples
 * fill this in (a stack spans a few mappings). An exec (another mm)
 * empties it. A library unmapped and another mapped at its place in the
 * same run would keep its entry: rare, and at worst a sample's walk falls
 * back or stops short.
 */
#define UNWIND_PROCESS_VMAS 16  /* a power of two */

struct unwind_vma {
	__u64 start, end, pgoff;
	struct record_unwind_file file;
	__u32 no_file, reserved;
};

struct unwind_vmas {
	__u64 mm;
	__u32 count, next;
	struct unwind_vma vmas[UNWIND_PROCESS_VMAS];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, struct unwind_vmas);
	__uint(max_entries, 4096);
} unwind_process_vmas SEC(".maps");

/* A new process's entry is made from here (too big for the stack). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct unwind_vmas);
	__uint(max_entries, 1);
} unwind_vmas_scratch SEC(".maps");

struct task_struct___unwind {
	void *mm;
	unsigned int flags;
} __attribute__((preserve_access_index));

#define UNWIND_PF_EXITING 0x00000004  /* include/linux/sched.h's PF_EXITING */
#define UNWIND_HASH_SEED 0x5bd1e9955bd1e995ULL  /* a walked stack's hash starts from it */

struct vm_area_struct___unwind {
	unsigned long vm_start, vm_end, vm_pgoff;
	struct file___unwind *vm_file;
} __attribute__((preserve_access_index));

struct file___unwind {
	struct inode___unwind *f_inode;
} __attribute__((preserve_access_index));

struct inode___unwind {
	unsigned long i_ino;
	unsigned int i_generation;
	struct super_block___unwind *i_sb;
} __attribute__((preserve_access_index));

struct super_block___unwind {
	unsigned int s_dev;
} __attribute__((preserve_access_index));

/* Bytes of the user stack read at once (unwind_read()): the frames of a
 * walk lie one above the other, and a read per word (a return address, a
 * saved rbp) was most of a sample's time. */
#define UNWIND_WINDOW_WORDS 64

/* One walk, in the CPU's map value (as python_walk, for the verifier's
 * sake: counters it sees as ranges, not as each exact depth). The header
 * and ips are laid out as a record_stack, so that chunk k of a stored
 * stack is read in place from &ips[k * chunk] - 8 (its 8 header bytes
 * are the frame before, which a reader of chunk k ignores). */
struct unwind_walk {
	__u64 pc, sp, bp;
	__u64 fallback_pc;
	__u64 hash;                /* of the frames so far, as store_stack() hashes */
	/* the mapping the last pc was in: [start, end), the file's address
	 * of start (offset + vaddr_delta), its table; no_file: JIT code */
	__u64 vm_start, vm_end, own_start;
	__u32 table, rows, page_lo, pages;
	__u32 no_file, have_mapping;
	__u32 lookups;             /* bpf_find_vma() calls this sample: at most one */
	__u32 reserved_lookups;
	__u32 pid, fallback;
	__u32 done, reserved;
	__u32 lo, hi;              /* a binary search's bounds: in the map value,
				    * they are unknown numbers to the verifier, so
				    * both ways out of a step are one state, where
				    * locals would double the states at each step */
	/* the user stack from window_at on (0: none), as unwind_read() read it */
	__u64 window_at, window_bytes;
	__u64 window[UNWIND_WINDOW_WORDS];
	__u32 depth;               /* record_stack's header: depth, reserved */
	__u32 header_reserved;
	__u64 ips[RECORD_MAX_USER_DEPTH + RECORD_STACK_CHUNK + 1];  /* a chunk's reach past the end */
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

/* What bpf_find_vma() found, on the caller's stack (as it wants). */
static long unwind_vma_found(void *task, struct vm_area_struct___unwind *vma,
			     struct unwind_vma *found)
{
	struct file___unwind *file = BPF_CORE_READ(vma, vm_file);

	(void)task;
	found->start = BPF_CORE_READ(vma, vm_start);
	found->end = BPF_CORE_READ(vma, vm_end);
	found->pgoff = BPF_CORE_READ(vma, vm_pgoff);
	found->no_file = file == NULL;
	found->file.dev = file ? BPF_CORE_READ(file, f_inode, i_sb, s_dev) : 0;
	found->file.inode = file ? BPF_CORE_READ(file, f_inode, i_ino) : 0;
	found->file.generation = file ? BPF_CORE_READ(file, f_inode, i_generation) : 0;
	return 0;
}

/* Keeps a mapping in the place of one it overlaps (found again, or over
 * one since unmapped), else in the next slot (the oldest goes). */
static __always_inline void unwind_keep_vma(struct unwind_vmas *kept,
					    const struct unwind_vma *found)
{
	__u32 slot = kept->next & (UNWIND_PROCESS_VMAS - 1);

	for (__u32 i = 0; i < UNWIND_PROCESS_VMAS; i++) {
		if (i >= kept->count)
			break;
		struct unwind_vma *v = &kept->vmas[i];
		if (found->start < v->end && v->start < found->end) {
			*v = *found;
			return;
		}
	}
	kept->vmas[slot] = *found;
	kept->next = slot + 1;
	if (kept->count < UNWIND_PROCESS_VMAS)
		kept->count++;
}

/* pc's mapping into *found, from those kept or looked up now (one a
 * sample); 0 or the fallback why */
static __always_inline __u32 unwind_vma_at(struct unwind_walk *w, __u64 pc,
					   struct unwind_vma *found)
{
	struct unwind_vmas *kept = bpf_map_lookup_elem(&unwind_process_vmas, &w->pid);

	if (!kept)
		return RECORD_FALLBACK_NO_MAPPING;
	for (__u32 i = 0; i < UNWIND_PROCESS_VMAS; i++) {
		if (i >= kept->count)
			break;
		struct unwind_vma *v = &kept->vmas[i];
		if (pc >= v->start && pc < v->end) {
			*found = *v;
			return 0;
		}
	}
	if (w->lookups)
		return RECORD_FALLBACK_NO_MAPPING;  /* the sample's one lookup is spent */
	w->lookups = 1;
	if (bpf_find_vma(bpf_get_current_task_btf(), pc, unwind_vma_found, found, 0) ||
	    pc < found->start || pc >= found->end)
		return RECORD_FALLBACK_NO_MAPPING;  /* none, or its lock was taken */
	unwind_keep_vma(kept, found);
	return 0;
}

/* Finds pc's mapping and its file's table into w: 0, or the fallback why. */
static __always_inline __u32 unwind_find_mapping(struct unwind_walk *w, __u64 pc)
{
	struct unwind_vma found = {};

	if (w->have_mapping && pc >= w->vm_start && pc < w->vm_end)
		return 0;
	w->have_mapping = 0;
	__u32 why = unwind_vma_at(w, pc, &found);
	if (why)
		return why;
	w->vm_start = found.start;
	w->vm_end = found.end;
	w->no_file = found.no_file;
	if (!found.no_file) {
		struct record_unwind_binary *b = bpf_map_lookup_elem(&unwind_binaries, &found.file);
		if (!b) {
			__u8 one = 1;
			if (bpf_map_update_elem(&unwind_asked, &found.file, &one, BPF_NOEXIST) == 0) {
				struct record_unwind_miss miss = { found.file, w->pid, 0, pc };
				if (bpf_ringbuf_output(&unwind_misses, &miss, sizeof(miss),
						       BPF_RB_FORCE_WAKEUP))
					bpf_map_delete_elem(&unwind_asked, &found.file);
			}
			return RECORD_FALLBACK_NO_TABLE;
		}
		if (b->table == RECORD_UNWIND_NO_TABLE || b->rows == 0)
			return RECORD_FALLBACK_NO_TABLE;
		w->table = b->table;
		w->rows = b->rows;
		w->page_lo = b->page_lo;
		w->pages = b->pages;
		w->own_start = (found.pgoff << 12) + b->vaddr_delta;
	}
	w->have_mapping = 1;
	return 0;
}

/* The current process's kept mappings (NULL: no room for them), emptied
 * if it has exec'd since (another mm). */
static __always_inline struct unwind_vmas *unwind_check_vmas(__u32 pid)
{
	struct task_struct___unwind *task = (void *)bpf_get_current_task();
	__u64 mm = (__u64)BPF_CORE_READ(task, mm);
	struct unwind_vmas *kept = bpf_map_lookup_elem(&unwind_process_vmas, &pid);

	if (kept && kept->mm == mm)
		return kept;
	if (kept) {
		kept->count = 0;
		kept->next = 0;
		kept->mm = mm;
		return kept;
	}
	__u32 zero = 0;
	struct unwind_vmas *fresh = bpf_map_lookup_elem(&unwind_vmas_scratch, &zero);
	if (!fresh)
		return NULL;
	fresh->mm = mm;
	fresh->count = 0;
	fresh->next = 0;
	bpf_map_update_elem(&unwind_process_vmas, &pid, fresh, BPF_ANY);
	return bpf_map_lookup_elem(&unwind_process_vmas, &pid);
}

struct mm_struct___unwind {
	unsigned long start_code;
} __attribute__((preserve_access_index));

struct pt_regs___unwind {
	unsigned long ip;
} __attribute__((preserve_access_index));

/*
 * At an exec, the new program's code and ld.so's are kept for the walk
 * before its first sample: the process is not in an interrupt here, so
 * bpf_find_vma() can be asked for both (the text at the mm's start_code,
 * and the mapping the registers start in: ld.so's entry, or the
 * program's). Its first samples then need one lookup, for the library
 * they meet (libc's __libc_start_main), where they needed two or three.
 */
SEC("raw_tp/sched_process_exec")
int BPF_PROG(unwind_note_exec)
{
	struct task_struct___unwind *task = (void *)bpf_get_current_task();
	struct mm_struct___unwind *mm = (void *)BPF_CORE_READ(task, mm);
	struct pt_regs___unwind *regs = (void *)bpf_task_pt_regs(bpf_get_current_task_btf());
	__u64 where[2] = { BPF_CORE_READ(mm, start_code), BPF_CORE_READ(regs, ip) };
	struct unwind_vmas *kept = unwind_check_vmas(bpf_get_current_pid_tgid() >> 32);

	if (!kept)
		return 0;
	for (int i = 0; i < 2; i++) {
		struct unwind_vma found = {};
		__u64 pc = where[i];
		if (bpf_find_vma(bpf_get_current_task_btf(), pc, unwind_vma_found, &found, 0) == 0 &&
		    pc >= found.start && pc < found.end)
			unwind_keep_vma(kept, &found);
	}
	return 0;
}

/* Entry at of unwind_rows' pc, or fallback if it cannot be read. */
static __always_inline __u32 unwind_index_entry(__u32 at, __u32 fallback)
{
	const struct record_unwind_row *row = bpf_map_lookup_elem(&unwind_rows, &at);

	return row ? row->pc : fallback;
}

/* The row of the walk's table whose range holds pc, or NULL: searched
 * between the page index's entries for pc's page, if the table has one
 * (record.h: record_unwind_binary), else in the whole table. */
static __always_inline const struct record_unwind_row *unwind_row(struct unwind_walk *w, __u32 pc)
{
	__u32 first = w->table, rows = w->rows, page = pc >> RECORD_UNWIND_PAGE_SHIFT;

	w->lo = 0;
	w->hi = rows;
	if (w->pages > 1 && page >= w->page_lo) {
		__u32 entry = page - w->page_lo, index = first + rows;
		if (entry + 1 < w->pages) {
			w->lo = unwind_index_entry(index + entry, 0);
			w->hi = unwind_index_entry(index + entry + 1, rows);
		} else {
			w->lo = rows;  /* past the last row's page: the last row */
		}
		if (w->hi > rows || w->lo > w->hi) {
			w->lo = 0;
			w->hi = rows;
		}
	}
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

/* The word of the user stack at addr, into *word: from the walk's window
 * when it holds it, else through a new window read from addr (to the
 * end of addr's page, if a whole window is not readable: the top of the
 * stack). 0, or the read's error. */
static __always_inline long unwind_read(struct unwind_walk *w, __u64 addr, __u64 *word)
{
	__u64 offset = addr - w->window_at;

	if (w->window_at && addr >= w->window_at && offset + 8 <= w->window_bytes &&
	    (offset & 7) == 0) {
		*word = w->window[(offset / 8) & (UNWIND_WINDOW_WORDS - 1)];
		return 0;
	}
	w->window_at = 0;
	__u64 bytes = sizeof(w->window);
	if (bpf_probe_read_user(w->window, bytes, (const void *)addr)) {
		bytes = 4096 - (addr & 4095);
		if (bytes > sizeof(w->window))
			bytes = sizeof(w->window);
		if (bytes < 8 || bpf_probe_read_user(w->window, bytes, (const void *)addr))
			return bpf_probe_read_user(word, sizeof(*word), (const void *)addr);
	}
	w->window_at = addr;
	w->window_bytes = bytes;
	*word = w->window[0];
	return 0;
}

/* One frame: keep w->pc, then find its caller's registers. 0: go on. */
static long unwind_step(__u32 index, void *arg)
{
	__u32 zero = 0;
	struct unwind_walk *w = bpf_map_lookup_elem(&unwind_walks, &zero);

	(void)index, (void)arg;
	if (!w)
		return 1;
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

	__u32 why = unwind_find_mapping(w, pc);
	if (why)
		return unwind_fall_back(w, why);
	__u64 cfa, ra = 0, bp = w->bp;
	__u8 kind = RECORD_UNWIND_NO_CFI;  /* JIT code: by frame pointer */
	const struct record_unwind_row *row = NULL;
	if (!w->no_file) {
		__u64 own = pc - w->vm_start + w->own_start;
		row = own <= 0xffffffffULL ? unwind_row(w, (__u32)own) : NULL;
		kind = row ? row->kind : RECORD_UNWIND_FALLBACK;
	}
	switch (kind & RECORD_UNWIND_CFA_MASK) {
	case RECORD_UNWIND_END:
		w->done = 1;
		return 1;
	case RECORD_UNWIND_NO_CFI:
		if (w->bp == 0 && !w->no_file) {  /* the outermost frame, to libdw too */
			w->done = 1;
			return 1;
		}
		cfa = w->bp + 16;
		if (unwind_read(w, w->bp, &bp))
			return unwind_fall_back(w, RECORD_FALLBACK_READ);
		break;
	case RECORD_UNWIND_CFA_RSP:
		cfa = w->sp + row->cfa_off;
		break;
	case RECORD_UNWIND_CFA_RBP:
		cfa = w->bp + row->cfa_off;
		break;
	case RECORD_UNWIND_CFA_PLT:  /* a leaf's own pc: a .plt entry is never a caller */
		cfa = w->sp + row->cfa_off + ((w->pc & 15) >= (__u8)row->rbp_off ? 8 : 0);
		break;
	default:
		return unwind_fall_back(w, RECORD_FALLBACK_NO_RULE);
	}
	if (row && (kind & RECORD_UNWIND_RBP_SAVED) && unwind_read(w, cfa + row->rbp_off * 8, &bp))
		return unwind_fall_back(w, RECORD_FALLBACK_READ);
	if (unwind_read(w, cfa - 8, &ra))
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

/* store_rest() of the walk's stack */
__noinline int unwind_store_rest(__u64 hash)
{
	__u32 zero = 0;
	struct unwind_walk *w = bpf_map_lookup_elem(&unwind_walks, &zero);

	return w ? store_rest(hash, w->ips, w->depth, RECORD_MAX_USER_DEPTH - 1) : -EINVAL;
}

/* Stores the walk's frames in `stacks` (store_rest(), store_first()). Its hash, or
 * RECORD_STACK_MISSED (the map full: the caller copies the stack instead,
 * or walks it by frame pointers off CPU). */
static __always_inline __u64 unwind_store(struct unwind_walk *w)
{
	__u32 depth = w->depth;
	__u64 hash = record_mix(w->hash, depth);

	if (depth > RECORD_MAX_USER_DEPTH)
		return RECORD_STACK_MISSED;
	if (hash <= RECORD_STACK_MISSED)
		hash += 2;
	if (bpf_map_lookup_elem(&stacks, &hash))
		return hash;
	w->header_reserved = 0;
	if (store_first(hash, &w->depth, depth > stack_chunk() ? unwind_store_rest(hash) : 0))
		return RECORD_STACK_MISSED;
	return hash;
}

/*
 * A walk that could not leave the leaf, of a stack that cannot be read at
 * sp either: a copy would hold nothing, so the sample is counted here with
 * what user space would make of it. An exiting process's stack is gone
 * (exit_mmap unmaps it): its pc is all there is. Else, in an exec, the
 * registers are the old program's and the memory the new one's, where the
 * pc is in no mapping: no user stack at all.
 */
static __always_inline bool unwind_stack_gone(struct unwind_walk *w, const struct pt_regs *regs)
{
	struct task_struct___unwind *task = (void *)bpf_get_current_task();
	__u64 word;

	if (w->done || w->depth != 1 ||
	    bpf_probe_read_user(&word, sizeof(word), (const void *)regs->rsp) == 0)
		return false;
	if (BPF_CORE_READ(task, flags) & UNWIND_PF_EXITING)
		return true;
	if (w->have_mapping)
		return false;
	w->depth = 0;
	w->hash = stack_hash_start(UNWIND_HASH_SEED);
	return true;
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

	*fallback = RECORD_FALLBACK_NO_MAPPING;
	*fallback_pc = regs->rip;
	if (!w)
		return 0;
	w->pc = regs->rip;
	w->sp = regs->rsp;
	w->bp = regs->rbp;
	w->pid = pid;
	w->depth = 0;
	w->hash = stack_hash_start(UNWIND_HASH_SEED);
	w->done = 0;
	w->have_mapping = 0;
	w->lookups = 0;
	w->window_at = 0;
	unwind_check_vmas(pid);
	w->fallback = RECORD_FALLBACK_NONE;
	bpf_loop(RECORD_MAX_USER_DEPTH + 1, unwind_step, NULL, 0);
	if (unwind_stack_gone(w, regs))
		w->done = 1;
	if (!w->done) {
		*fallback = w->fallback ? w->fallback : RECORD_FALLBACK_READ;
		*fallback_pc = w->fallback_pc;
		stat_add(RECORD_STAT_FALLBACK + (*fallback < RECORD_FALLBACKS ? *fallback : 0));
		return 0;
	}
	__u64 hash = unwind_store(w);
	if (hash == RECORD_STACK_MISSED) {  /* a long, varied run filled `stacks` */
		*fallback = RECORD_FALLBACK_FULL;
		*fallback_pc = regs->rip;
		stat_add(RECORD_STAT_FALLBACK + RECORD_FALLBACK_FULL);
		return 0;
	}
	stat_add(RECORD_STAT_UNWOUND);
	return hash;
}

#else
/* The plain build (no kernel BTF for libbpf): user space turns
 * kernel_unwind on only with the task build. */
static __always_inline __u64 unwind_user_stack(__u32 pid, const struct pt_regs *regs,
					       __u32 *fallback, __u64 *fallback_pc)
{
	(void)pid;
	*fallback = RECORD_FALLBACK_NO_MAPPING;
	*fallback_pc = regs->rip;
	return 0;
}
#endif

#endif
