#include "sampled_profile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/buf.h"
#include "../lib/cache_dir.h"
#include "../lib/index_table.h"
#include "../lib/xalloc.h"
#include "../symbolize/bpf_functions.h"
#include "../symbolize/kernel_symbols.h"

struct build_state {
	const struct sampled_profile_options *options;
	struct profile *profile;
	struct kernel_symbols *kernel;
	struct process_symbols *processes;
	frame_id *frames;           /* one stack's, root first */
	size_t frames_cap;
	struct buf name;
	struct missing_report *report;  /* NULL: none wanted */
	struct stack_miss *misses;  /* one stack's frames without names, once per binary */
	size_t miss_count, miss_cap;
	struct interp_session *interp;  /* interpreter frames to merge in; NULL: none */
	const char **natives, **merged; /* one stack's user frames, leaf first */
	size_t natives_cap, merged_cap;
	bool *frames_jit;               /* which of them are JIT code */
	size_t frames_jit_cap;
	struct kept_name *kept;         /* see intern_kept() */
	size_t kept_count, kept_cap;
	struct index_table kept_index;
};

/* A name the symbolizers keep in place while the profile is built, as
 * interned with a suffix (both by address). */
struct kept_name {
	const char *name, *suffix;
	frame_id id;
};

struct stack_miss {
	enum symbol_miss miss;
	const char *binary;
};

/* Names a user frame, keeping why it has no name for the report; *jit
 * (NULL: not wanted) says whether a perf map named it. */
static const char *user_frame_name(struct build_state *b, uint32_t pid, uint64_t addr,
				   uint64_t time, bool *jit)
{
	struct symbol_lookup found;
	process_symbols__lookup(b->processes, pid, addr, time, &found);
	if (jit)
		*jit = found.jit;
	if (found.miss != SYMBOL_FOUND && b->report) {
		for (size_t i = 0; i < b->miss_count; i++)
			if (b->misses[i].miss == found.miss && b->misses[i].binary == found.binary)
				return found.name;
		b->misses = fk_grow(b->misses, &b->miss_cap, b->miss_count + 1, sizeof(*b->misses));
		b->misses[b->miss_count++] = (struct stack_miss){ found.miss, found.binary };
	}
	return found.name;
}

/* record --every: a key of another window than the one being built. */
static bool outside_window(const struct sampled_profile_options *o, uint32_t slice)
{
	return o->window && (slice < o->first_slice || slice > o->last_slice);
}

/* The first pass over the keys (each stack once: bpf_sampler's
 * BPF_SAMPLER_READ_ADDRESSES_ONCE): the addresses to name, named together
 * before the profile is built (kernel_symbols__resolve(),
 * process_symbols__name_wanted()). */
static int want_addresses(const struct sampled_key *key, void *arg)
{
	struct build_state *b = arg;
	const struct sampled_profile_options *o = b->options;
	if (outside_window(o, key->slice))
		return 0;
	for (uint32_t i = 0; o->kernel_stacks && i < key->kernel.depth; i++)
		kernel_symbols__want(b->kernel, key->kernel.ips[i]);
	for (uint32_t i = 0; o->kernel_stacks && i < key->waker.kernel.depth; i++)
		kernel_symbols__want(b->kernel, key->waker.kernel.ips[i]);
	for (uint32_t i = 0; o->user_stacks && i < key->user.depth; i++)
		process_symbols__want(b->processes, key->pid, key->user.ips[i], UINT64_MAX);
	for (uint32_t i = 0; o->user_stacks && i < key->waker.user.depth; i++)
		process_symbols__want(b->processes, key->waker.pid, key->waker.user.ips[i],
				      UINT64_MAX);
	return 0;
}

/* Interns a frame name; ';' (the folded separator) becomes ':'. */
static frame_id intern_name(struct build_state *b, const char *name, const char *suffix)
{
	buf__reset(&b->name);
	buf__append(&b->name, name, strlen(name));
	if (suffix)
		buf__append(&b->name, suffix, strlen(suffix));
	for (size_t i = 0; i < b->name.len; i++)
		if (b->name.data[i] == ';')
			b->name.data[i] = ':';
	return profile__intern(b->profile, b->name.data, b->name.len);
}

/* The same, for a frame whose kind its name may not say (profile.h): a
 * kernel frame without -a's "_[k]", a comm. */
static frame_id intern_kind(struct build_state *b, const char *name, const char *suffix,
			    enum profile_frame_kind kind)
{
	frame_id id = intern_name(b, name, suffix);
	profile__set_frame_kind(b->profile, id, kind);
	return id;
}

static uint64_t kept_hash(const char *name, const char *suffix)
{
	return index_table__mix((uintptr_t)name ^ (uintptr_t)suffix * 31);
}

static uint64_t kept_hash_of(const void *items, size_t index)
{
	const struct kept_name *k = (const struct kept_name *)items + index;
	return kept_hash(k->name, k->suffix);
}

/*
 * intern_kind() (intern_name() for PROFILE_FRAME_NATIVE) of a name whose
 * text stays where it is until the profile is built: a binary's symbol or
 * a kernel's (process_symbols.h and kernel_symbols.h keep them that long),
 * an interpreter frame's (interp.h). A comm is a key's own buffer, and
 * JIT frames are left as they were (interned by their text, their kind set
 * each time). A build's 460,000 user frames have some 30,000 such names:
 * found by address, most are not copied and hashed again.
 */
static frame_id intern_kept(struct build_state *b, const char *name, const char *suffix,
			    enum profile_frame_kind kind)
{
	uint64_t hash = kept_hash(name, suffix);
	if (!b->kept_index.slots)
		index_table__init(&b->kept_index, 1024);
	size_t slot = index_table__first(&b->kept_index, hash);
	for (uint32_t at; (at = b->kept_index.slots[slot]) != 0;
	     slot = index_table__next(&b->kept_index, slot))
		if (b->kept[at - 1].name == name && b->kept[at - 1].suffix == suffix)
			return b->kept[at - 1].id;
	frame_id id = kind == PROFILE_FRAME_NATIVE ? intern_name(b, name, suffix) :
		intern_kind(b, name, suffix, kind);
	b->kept = fk_grow(b->kept, &b->kept_cap, b->kept_count + 1, sizeof(*b->kept));
	b->kept[b->kept_count] = (struct kept_name){ name, suffix, id };
	index_table__insert(&b->kept_index, slot, b->kept_count++, kept_hash_of, b->kept);
	return id;
}

static void push_frame(struct build_state *b, uint32_t *depth, frame_id id)
{
	b->frames = fk_grow(b->frames, &b->frames_cap, *depth + 1, sizeof(*b->frames));
	b->frames[(*depth)++] = id;
}

/* A user frame: JIT code (named by a perf map) says so in its kind. */
static void push_user_frame(struct build_state *b, uint32_t *depth, const char *name, bool jit,
			    const char *suffix)
{
	push_frame(b, depth, jit ? intern_kind(b, name, suffix, PROFILE_FRAME_JIT)
				 : intern_kept(b, name, suffix, PROFILE_FRAME_NATIVE));
}

/* How many leaf frames of a kernel stack read in a BPF program on a
 * tracepoint are the program's and the tracing machinery's: the program
 * (its address has no name in a kallsyms read later), then bpf_trace_runN
 * and, by kernel version and how many probes the tracepoint has,
 * __bpf_trace_NAME and __traceiter_NAME. The rest starts where the
 * tracepoint is (__schedule, try_to_wake_up). */
static uint32_t tracing_frames(const struct build_state *b, const struct sampled_stack *stack,
			       bool traced)
{
	static const char *const machinery[] = {
		"bpf_trace_run", "__bpf_trace_", "__traceiter_", "trace_call_bpf",
		"perf_trace_run_bpf_submit", "perf_trace_", "perf_syscall_", "bpf_prog_",
		"bpf_trampoline_", "trace_event_raw_event_",
	};
	uint32_t skip = 1;

	if (!(traced || b->options->tracepoint_stacks) || stack->depth == 0)
		return 0;
	while (skip < stack->depth) {
		const char *name = kernel_symbols__name(b->kernel, stack->ips[skip]);
		bool tracing = false;
		for (size_t i = 0; i < sizeof(machinery) / sizeof(machinery[0]); i++)
			tracing |= strncmp(name, machinery[i], strlen(machinery[i])) == 0;
		if (!tracing)
			break;
		skip++;
	}
	return skip;
}

/* The waker's part of a key (see sampled_profile.h): "--", then its
 * stacks leaf first and its comm, each frame marked "_[w]". */
static void push_waker(struct build_state *b, uint32_t *depth, const struct sampled_waker *w)
{
	const struct sampled_profile_options *o = b->options;
	const char *kernel_mark = o->annotate ? "_[k]_[w]" : "_[w]";

	push_frame(b, depth, intern_name(b, "--", NULL));
	if (o->kernel_stacks) {
		if (w->kernel.missed)
			push_frame(b, depth, intern_name(b, "[Missed Kernel Stack]", "_[w]"));
		for (uint32_t i = tracing_frames(b, &w->kernel, true); i < w->kernel.depth; i++)
			push_frame(b, depth, intern_kept(b, kernel_symbols__name(
				b->kernel, w->kernel.ips[i]), kernel_mark, PROFILE_FRAME_KERNEL));
	}
	if (o->user_stacks) {
		if (o->delimited && o->kernel_stacks && w->kernel.depth && w->user.depth)
			push_frame(b, depth, intern_name(b, "-", "_[w]"));
		if (w->user.missed)
			push_frame(b, depth, intern_name(b, "[Missed User Stack]", "_[w]"));
		for (uint32_t i = 0; i < w->user.depth; i++) {
			bool jit;
			const char *name = user_frame_name(b, w->pid, w->user.ips[i], UINT64_MAX, &jit);
			push_user_frame(b, depth, name, jit, "_[w]");
		}
	}
	push_frame(b, depth, intern_name(b, w->comm, "_[w]"));
}

/* A stack's user frames, leaf first: its native frames' names (user_names
 * when unwound in user space, with user_jit, else named from key->user's
 * addresses) with its interpreter frames merged in (interp.h says how);
 * *depth their count, and b->frames_jit which of them are JIT code. */
static const char **user_frames(struct build_state *b, const struct sampled_key *key,
				const char *const *user_names, const bool *user_jit,
				size_t user_depth, size_t *depth)
{
	size_t natives = user_names ? user_depth : key->user.depth;
	size_t jit_count = 0;

	b->natives = fk_grow(b->natives, &b->natives_cap, natives + 1, sizeof(*b->natives));
	b->frames_jit = fk_grow(b->frames_jit, &b->frames_jit_cap, natives + 1,
				sizeof(*b->frames_jit));
	for (size_t i = 0; i < natives; i++) {
		bool jit = false;
		b->natives[i] = user_names ? user_names[i] :
			user_frame_name(b, key->pid, key->user.ips[i], UINT64_MAX, &jit);
		b->frames_jit[i] = user_names ? user_jit[i] : jit;
		jit_count += b->frames_jit[i];
	}
	if (!b->interp) {
		*depth = natives;
		return b->natives;
	}
	size_t cap = natives + key->interp.depth + 1;
	b->merged = fk_grow(b->merged, &b->merged_cap, cap, sizeof(*b->merged));
	*depth = interp_session__merge(b->interp, key->pid, b->natives, natives, key->interp.ips,
				       key->interp.depth, key->count, b->merged, cap);
	/* the merge keeps native names as they are: a JIT frame is one of the
	 * natives' JIT names (perf map names, never an interpreter frame's) */
	size_t kept = natives;
	b->frames_jit = fk_grow(b->frames_jit, &b->frames_jit_cap, natives + *depth + 1,
				sizeof(*b->frames_jit));
	for (size_t i = 0; i < *depth; i++) {
		bool jit = false;
		for (size_t n = 0; jit_count && n < natives && !jit; n++)
			jit = b->frames_jit[n] && b->natives[n] == b->merged[i];
		b->frames_jit[kept + i] = jit;
	}
	memmove(b->frames_jit, b->frames_jit + kept, *depth * sizeof(*b->frames_jit));
	return b->merged;
}

/* One key as bcc profile folds it: comm; user frames root first; "-" (with
 * -d, when both stacks are there); kernel frames root first. User frames
 * are names (user_names, leaf first; user_jit says which are JIT code)
 * when unwound in user space, else addresses in key->user. */
static int add_named_key(struct build_state *b, const struct sampled_key *key,
			 const char *const *user_names, const bool *user_jit, size_t user_depth)
{
	const struct sampled_profile_options *o = b->options;
	uint32_t depth = 0;
	size_t user_count = 0;
	const char **user_names_merged = o->user_stacks ?
		user_frames(b, key, user_names, user_jit, user_depth, &user_count) : NULL;
	bool user = user_count > 0;

	push_frame(b, &depth, intern_kind(b, key->comm, NULL, PROFILE_FRAME_PROCESS));
	if (o->user_stacks) {
		if (key->user.missed)
			push_frame(b, &depth, intern_name(b, "[Missed User Stack]", NULL));
		for (size_t i = user_count; i > 0; i--)
			push_user_frame(b, &depth, user_names_merged[i - 1], b->frames_jit[i - 1], NULL);
	}
	bool marked = o->mark_off_cpu && key->off_cpu;
	const char *kernel_mark = marked ? (o->annotate ? "_[k]_[o]" : "_[o]") :
		o->annotate ? "_[k]" : NULL;
	uint32_t before_kernel = depth;
	if (o->kernel_stacks) {
		if (o->delimited && user && key->kernel.depth)
			push_frame(b, &depth, intern_name(b, "-", NULL));
		if (key->kernel.missed)
			push_frame(b, &depth, intern_name(b, "[Missed Kernel Stack]", marked ? "_[o]" : NULL));
		uint32_t leaf = tracing_frames(b, &key->kernel, key->off_cpu);
		for (uint32_t i = key->kernel.depth; i > leaf; i--)
			push_frame(b, &depth, intern_kept(b, kernel_symbols__name(
				b->kernel, key->kernel.ips[i - 1]), kernel_mark, PROFILE_FRAME_KERNEL));
	}
	if (marked && depth == before_kernel)
		push_frame(b, &depth, intern_name(b, "[off-CPU]", "_[o]"));
	if (key->waker.known)
		push_waker(b, &depth, &key->waker);
	union profile_value value = { .integer = key->count };
	struct profile_key entry_key = { o->window ? 0 : key->slice, o->with_pids ? key->pid : 0 };
	profile__add(b->profile, b->frames, depth, &entry_key, &value);
	for (size_t i = 0; i < b->miss_count; i++)
		missing_report__add_name(b->report, b->misses[i].miss, b->misses[i].binary,
					 key->count);
	b->miss_count = 0;
	return 0;
}

static void report_jvm_refusal(uint32_t pid, const char *why, void *report)
{
	missing_report__add_jvm_refusal(report, pid, why);
}

static int add_key(const struct sampled_key *key, void *arg)
{
	struct build_state *b = arg;
	if (outside_window(b->options, key->slice))
		return 0;
	return add_named_key(b, key, NULL, NULL, 0);
}

/* The samples counted in user space, with their kernel stacks from the
 * sampler's map, their user frames named as mapped at the time of their
 * first sample; want: only want their addresses (want_addresses()). */
static void add_user_counts(struct build_state *b, struct bpf_sampler *s,
			    const struct user_counts *uc, bool want)
{
	uint64_t *ips = fk_calloc(BPF_SAMPLER_MAX_STACK_DEPTH, sizeof(*ips));
	uint64_t *interp_ips = fk_calloc(BPF_SAMPLER_MAX_STACK_DEPTH, sizeof(*interp_ips));
	const char **names = NULL;
	bool *jit = NULL;           /* which of names are JIT code */
	size_t names_cap = 0;

	for (size_t i = 0; i < user_counts__size(uc); i++) {
		const struct user_count *c = user_counts__entry(uc, i);
		if (outside_window(b->options, c->slice))
			continue;
		struct sampled_key key = { .pid = c->pid, .tid = c->tid, .slice = c->slice,
					   .count = c->count };
		memcpy(key.comm, c->comm, sizeof(key.comm));
		bpf_sampler__kernel_stack(s, c->kernel_stack, ips, &key.kernel);
		bpf_sampler__kernel_stack(s, c->interp_stack, interp_ips, &key.interp);
		if (want) {
			want_addresses(&key, b);
			for (size_t f = 0; b->options->user_stacks && f < c->depth; f++)
				process_symbols__want(b->processes, c->pid, c->pcs[f], c->time);
			continue;
		}
		names = fk_grow(names, &names_cap, c->depth + 1, sizeof(*names));
		jit = fk_realloc(jit, names_cap * sizeof(*jit));
		for (size_t f = 0; f < c->depth; f++)
			names[f] = user_frame_name(b, c->pid, c->pcs[f], c->time, &jit[f]);
		add_named_key(b, &key, names, jit, c->depth);
	}
	free(names);
	free(jit);
	free(ips);
	free(interp_ips);
}

struct profile *sampled_profile__build(const struct sampled_profile_options *options,
				       struct bpf_sampler *sampler,
				       const struct user_counts *counts,
				       struct process_symbols *processes,
				       struct missing_report *report)
{
	return sampled_profile__build_with_interp(options, sampler, counts, processes, NULL,
						  report);
}

struct profile *sampled_profile__build_with_interp(const struct sampled_profile_options *options,
						   struct bpf_sampler *sampler,
						   const struct user_counts *counts,
						   struct process_symbols *processes,
						   struct interp_session *interp,
						   struct missing_report *report)
{
	struct build_state b = {
		.options = options,
		.kernel = kernel_symbols__new(),
		.processes = processes,
		.report = report,
		.interp = interp,
	};

	bpf_sampler__read(sampler, BPF_SAMPLER_READ_ADDRESSES_ONCE, want_addresses, &b);
	if (counts)
		add_user_counts(&b, sampler, counts, true);
	if (options->user_stacks)
		process_symbols__name_wanted(processes);
	if (options->kernel_stacks) {
		char *cache = cache_dir__path("kallsyms");  /* see sampled_profile.h */
		struct kernel_symbol_sources sources = { "/proc/kallsyms", "/proc/modules", cache,
							 bpf_functions__read };
		kernel_symbols__resolve(b.kernel, &sources);
		free(cache);
	}
	b.profile = profile__new(1, PROFILE_INTEGER);
	profile__set_unit(b.profile, options->unit);
	bpf_sampler__read(sampler, BPF_SAMPLER_READ_ALL, add_key, &b);
	if (counts)
		add_user_counts(&b, sampler, counts, false);
	if (report)
		process_symbols__jvm_refusals(processes, report_jvm_refusal, report);
	kernel_symbols__free(b.kernel);
	free(b.frames);
	free(b.misses);
	free(b.natives);
	free(b.merged);
	free(b.frames_jit);
	free(b.kept);
	index_table__release(&b.kept_index);
	buf__free(&b.name);
	return b.profile;
}
