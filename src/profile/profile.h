/*
 * The in-memory model of a profile: what every reader produces and every
 * writer consumes.
 *
 * A profile is a set of distinct stacks, each with its values. A stack is a
 * sequence of frame ids, root first; frame names are interned once, so
 * memory grows with the number of distinct frames and stacks, never with
 * the size of the input that was read.
 *
 * Frames
 *	profile__intern() returns the id of a name, adding it on first sight.
 *	Ids are dense (0, 1, 2, ...) and stable for the profile's lifetime; the
 *	name pointer from profile__frame_name() stays valid until the next
 *	profile__intern() (the name store may move) and is NUL-terminated, but
 *	names may contain NUL bytes: use the length. A name never contains ';'
 *	(the folded separator): readers split on it before interning, so a stack
 *	and its folded line correspond one to one.
 *
 * Values
 *	Each stack carries `columns` values: 1 for a plain profile, 2 for a
 *	differential one (before, after). Values are either all unsigned 64-bit
 *	integers (sample counts; the default) or all doubles (flamegraph.pl
 *	accepts counts like "10.5"); the type is fixed when the profile is made.
 *	Adding a stack that is already present sums the values (merge).
 *
 * Keys
 *	Besides its frames, an entry is keyed by a struct profile_key: the time
 *	slice it was counted in (see Time) and the process it was sampled in
 *	(record lists processes apart in its report). Readers of text pass a
 *	NULL key (slice 0, pid 0). The folded writer sums one stack's entries
 *	under several keys into one line (the timed writer keeps slices apart).
 *
 * Unit
 *	What the values count (samples by default; events, event periods,
 *	time, bytes), set by whoever fills the profile, named by every writer
 *	that labels values (the SVG's "N samples", the report's header).
 *
 * Time
 *	A profile with a time dimension says so with profile__set_time(): the
 *	length of a slice and the start of slice 0. Slice numbers in keys then
 *	count slices from that start; without it every key's slice is 0.
 *
 * Frame kinds
 *	Each frame has a kind: native (user code, the default), kernel, JIT,
 *	interpreted, inlined (into the frame before it), or the process's name
 *	(the root frame record and the perf reader give each stack). A name
 *	that ends in FlameGraph's annotation says its kind when interned
 *	(profile_frame_kind__of_name(): "_[k]" kernel, "_[j]" JIT, "_[i]"
 *	inlined, past any "_[w]" or "_[o]"; and the form "function (file.py)",
 *	"function (file.py:LINE)" or "function (<frozen ...>)" of interpreted
 *	Python frames, py-spy's and record's); whoever knows better sets it
 *	with profile__set_frame_kind() (record's kernel frames without -a, its
 *	comm frames). Writers whose formats have a place for it keep it (pprof's
 *	mappings, OTLP's frame types); the text formats carry the names only.
 *
 * Source
 *	What a recording knows of itself besides its stacks (when it started,
 *	how long it ran, what one sample stands for, where it ran), set by
 *	record and by the readers of formats that carry it (pprof), for the
 *	writers of formats that carry it (pprof, OTLP). Zero where unknown.
 *
 * Order
 *	By default equal stacks (frames and key) are one entry whose values are
 *	summed (PROFILE_MERGE). A flame chart keeps its input's order instead:
 *	PROFILE_KEEP_RUNS sums a stack into the entry added last only, when it
 *	is the same, so a run of equal lines is one entry and a later repeat is
 *	another; PROFILE_KEEP_EACH makes every add a new entry (the entries of
 *	the bpftrace personality). Set the order before the first add.
 *
 * Iteration
 *	Entries are numbered 0 .. profile__size()-1 in the order first added.
 *	profile__sorted() gives them in the byte order of their folded lines
 *	("a;b;c", as Perl's `sort keys` orders them), then by slice and pid:
 *
 *		size_t *order = profile__sorted(p);
 *		for (size_t i = 0; i < profile__size(p); i++) {
 *			struct profile_stack s;
 *			profile__stack(p, order[i], &s);
 *			... s.frames[0 .. s.depth-1], s.values[0 .. columns-1] ...
 *		}
 *		free(order);
 *
 *	A profile_stack's pointers stay valid until the next profile__add(),
 *	and its frames while the struct itself does: the profile keeps stacks
 *	encoded, and profile__stack() decodes one of up to PROFILE_STACK_INLINE
 *	frames into the struct (a copy of it points at the original's).
 */
#ifndef FLAMEKIT_PROFILE_H
#define FLAMEKIT_PROFILE_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t frame_id;

enum profile_value_type {
	PROFILE_INTEGER,  /* uint64_t sample counts */
	PROFILE_DECIMAL,  /* double, for fractional folded input */
};

#define PROFILE_MAX_COLUMNS 2

union profile_value {
	uint64_t integer;
	double decimal;
};

/* What the values count. */
enum profile_unit {
	PROFILE_SAMPLES,       /* timer or event samples (the default) */
	PROFILE_EVENTS,        /* events counted, each once */
	PROFILE_PERIODS,       /* the sum of the samples' event periods (perf's period) */
	PROFILE_NANOSECONDS,
	PROFILE_MICROSECONDS,
	PROFILE_BYTES,
};

enum profile_order {
	PROFILE_MERGE,      /* equal stacks are one entry (the default) */
	PROFILE_KEEP_RUNS,  /* an add merges into the entry added last only */
	PROFILE_KEEP_EACH,  /* every add is a new entry */
};

struct profile_key {
	uint32_t slice;  /* time slice, from the profile's time start; 0 without time */
	uint32_t pid;    /* the process sampled; 0 when not kept apart */
};

/* The time dimension: slice_ns 0 means none. */
struct profile_time {
	uint64_t slice_ns;
	uint64_t start_ns;  /* of slice 0, CLOCK_MONOTONIC or the input's own clock */
};

enum profile_frame_kind {
	PROFILE_FRAME_NATIVE,       /* user code, or not known (the default) */
	PROFILE_FRAME_KERNEL,
	PROFILE_FRAME_JIT,
	PROFILE_FRAME_INTERPRETED,
	PROFILE_FRAME_INLINED,      /* inlined into the frame before it in a stack */
	PROFILE_FRAME_PROCESS,      /* a process's name (comm), a stack's root */
};

/* See Source above; the strings are NUL-terminated, "" when unknown. */
struct profile_source {
	uint64_t start_unix_ns;    /* wall-clock time the recording started */
	uint64_t duration_ns;      /* how long it ran */
	/* What one sample stands for, for a profile of PROFILE_SAMPLES: period
	 * of period_unit (PROFILE_NANOSECONDS of CPU time for the timer,
	 * PROFILE_EVENTS for one in N events); 0 when not known. */
	uint64_t period;
	enum profile_unit period_unit;
	/* What was measured, named as pprof's sample types are: "cpu" (the
	 * timer), "off_cpu", "wall" (on and off CPU), an event's name. */
	char measure[64];
	char host[256];            /* the machine it was recorded on */
};

/* Frames a struct profile_stack holds itself (see Iteration). */
#define PROFILE_STACK_INLINE 128

struct profile_stack {
	const frame_id *frames;       /* root first */
	uint32_t depth;
	struct profile_key key;
	const union profile_value *values; /* `columns` of them */
	frame_id decoded[PROFILE_STACK_INLINE];  /* where frames are, mostly */
};

struct profile;

/* columns: 1 or 2. */
struct profile *profile__new(unsigned columns, enum profile_value_type type);
/* An empty profile with p's columns, value type, unit, source, time and
 * order (a part of p read on another thread, a transformed copy). */
struct profile *profile__new_like(const struct profile *p);
void profile__free(struct profile *p);

unsigned profile__columns(const struct profile *p);
enum profile_value_type profile__value_type(const struct profile *p);

void profile__set_unit(struct profile *p, enum profile_unit unit);
enum profile_unit profile__unit(const struct profile *p);
/* "samples", "events", "periods", "ns", "us", "bytes": as writers label values */
const char *profile_unit__name(enum profile_unit unit);

void profile__set_source(struct profile *p, const struct profile_source *source);
const struct profile_source *profile__source(const struct profile *p);

void profile__set_time(struct profile *p, const struct profile_time *time);
const struct profile_time *profile__time(const struct profile *p);

/* Before the first add. */
void profile__set_order(struct profile *p, enum profile_order order);
enum profile_order profile__order(const struct profile *p);

frame_id profile__intern(struct profile *p, const char *name, size_t len);
const char *profile__frame_name(const struct profile *p, frame_id id, size_t *len);
size_t profile__frame_count(const struct profile *p);
/* The kind a frame name's annotation says (PROFILE_FRAME_NATIVE if none). */
enum profile_frame_kind profile_frame_kind__of_name(const char *name, size_t len);
void profile__set_frame_kind(struct profile *p, frame_id id, enum profile_frame_kind kind);
enum profile_frame_kind profile__frame_kind(const struct profile *p, frame_id id);

/*
 * Adds values (columns of them) to the stack frames[0..depth-1] under key
 * (NULL: slice 0, pid 0), as the profile's order says; returns the index
 * of the entry that holds them.
 */
size_t profile__add(struct profile *p, const frame_id *frames, uint32_t depth,
		    const struct profile_key *key, const union profile_value *values);
/* Room for what a reader knows it will add (at most, or about: more is
 * still grown into), so that a large read does not copy its tables at each
 * doubling: new frames and the bytes of their names (each + 1), distinct
 * stacks, and the frames of those stacks. */
struct profile_reserve {
	size_t frames, name_bytes, stacks, stack_frames;
};
void profile__reserve(struct profile *p, const struct profile_reserve *more);
/* Adds values to entry `index`, as returned by profile__add(): for readers
 * that remember where a repeated stack went. */
void profile__add_to_entry(struct profile *p, size_t index, const union profile_value *values);

/* Adds values to sum, column by column, as the profile's value type. */
void profile__sum_values(const struct profile *p, union profile_value *sum,
			 const union profile_value *values);
/* A value of the profile's type as a double (for layouts and ratios). */
static inline double profile__value_double(const struct profile *p, union profile_value v)
{
	return profile__value_type(p) == PROFILE_INTEGER ? (double)v.integer : v.decimal;
}

/* A count as a value of the profile's type (its first column). */
static inline union profile_value profile__count_value(const struct profile *p, uint64_t n)
{
	union profile_value v;
	if (profile__value_type(p) == PROFILE_DECIMAL)
		v.decimal = (double)n;
	else
		v.integer = n;
	return v;
}

/* Adds every stack of src to dst (same columns and value type), in src's
 * entry order, as dst's order says; frames keep their kinds. */
void profile__merge(struct profile *dst, const struct profile *src);

size_t profile__size(const struct profile *p);
void profile__stack(const struct profile *p, size_t index, struct profile_stack *out);
/* Entry indexes in the order writers print them: folded-line byte order,
 * then slice, then pid, then the order added; for a profile that keeps its
 * order (not PROFILE_MERGE), the order added. Caller frees. */
size_t *profile__sorted(const struct profile *p);

#endif
