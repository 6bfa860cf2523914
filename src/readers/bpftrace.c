/*
 * bpftrace map output, as stackcollapse-bpftrace.pl reads it:
 *
 *	@[
 *	    leaf+12          <- frames, leaf first, offsets kept
 *	    caller+40
 *	, comm]: 17          <- the last key part and the count
 *
 * An entry opens with a line "@[" alone; the closing line "]: N" (after an
 * optional ", " and a key part, which becomes the root frame) ends it.
 * Lines between are frames, leading blanks removed; a multi-key map's ", "
 * separator line stays a frame, as in Perl. The Perl tool prints entries in
 * map order, unsorted: its personality writes them so (insertion order).
 *
 * Perl drops entries that open with a key part on the "@[" line, as
 * @[comm, kstack] prints them ("@[fk-burn, "): it prints nothing for such a
 * map. `flamekit collapse bpftrace` reads them, with that key part as the
 * root frame, and says so.
 *
 * `flamekit collapse bpftrace` makes stacks of functions, as the other
 * collapsers do: the ", " line between two stacks of a key is no frame,
 * and a frame's "+OFFSET" is cut ("Perl_pp_sin+212" is Perl_pp_sin). So
 * @[kstack, ustack, comm] of a task in user space, whose kstack is empty
 * ("@[, "), gives "comm;main;...;leaf", not a leaf frame ", " under every
 * offset of every function, as the Perl tool's lines have it.
 */
#include "bpftrace.h"

#include <stdio.h>
#include <stdlib.h>

#include "../lib/error.h"
#include "../lib/xalloc.h"
#include "entry_memo.h"
#include "parallel.h"
#include "perl_text.h"
#include "stack_builder.h"

/* (.*)\]: (\d+) — the greedy (.*) ends at the last "]: " followed by a digit. */
static bool match_key_and_count(struct span s, struct span *key, uint64_t *count)
{
	/* most lines are frames, with no ']' at all: memchr says so fastest */
	const char *bracket = memchr(s.p, ']', s.len);
	if (!bracket || !find_bytes(bracket, s.len - (size_t)(bracket - s.p), "]: ", 3))
		return false;
	for (size_t k = s.len; k-- > 0;) {
		if (k + 3 < s.len && memcmp(s.p + k, "]: ", 3) == 0 &&
		    is_digit((unsigned char)s.p[k + 3])) {
			uint64_t v = 0;
			for (size_t d = k + 3; d < s.len && is_digit((unsigned char)s.p[d]); d++)
				v = v * 10 + (uint64_t)(s.p[d] - '0');
			*key = (struct span){ s.p, k };
			*count = v;
			return true;
		}
	}
	return false;
}

/* /^,?\s?(.*)\]: (\d+)/ — the line that ends an entry. */
static bool match_close(struct span s, struct span *key, uint64_t *count)
{
	if (s.len > 0 && s.p[0] == ',') {
		s.p++;
		s.len--;
	}
	if (s.len > 0 && is_space((unsigned char)s.p[0])) {
		s.p++;
		s.len--;
	}
	return match_key_and_count(s, key, count);
}

/* "@[KEY, " — an entry whose first key part is on its opening line. */
static bool match_keyed_open(struct span line, struct span *key)
{
	if (line.len < 4 || memcmp(line.p, "@[", 2) != 0 ||
	    memcmp(line.p + line.len - 2, ", ", 2) != 0 || find_bytes(line.p, line.len, "]: ", 3))
		return false;
	*key = (struct span){ line.p + 2, line.len - 4 };
	return true;
}

/* "Attaching N probes..." and map entries "@[" ... "]: N". */
int bpftrace_reader__probe(const char *head, size_t len)
{
	const char *p = head, *end = head + len;
	struct span line, key;
	bool attaching = false;
	unsigned opens = 0, closes = 0;
	uint64_t n;
	while (next_head_line(&p, end, &line)) {
		if (line.len > 10 && memcmp(line.p, "Attaching ", 10) == 0)
			attaching = true;
		else if (line.len >= 2 && memcmp(line.p, "@[", 2) == 0)
			opens++;
		if (match_close(line, &key, &n))
			closes++;
	}
	if (opens && closes)
		return 95;
	return attaching ? 60 : 0;
}

/* How an entry opens: "@[" alone, or (flamekit mode) "@[KEY, " / "@[, ". */
enum opening { NOT_OPENING, OPENS, OPENS_WITH_KEY, OPENS_EMPTY_FIRST };

static enum opening opening_of(struct span line, bool perl_mode, struct span *key)
{
	if (span_eq(line, "@["))
		return OPENS;
	if (perl_mode || !match_keyed_open(line, key))
		return NOT_OPENING;
	return key->len ? OPENS_WITH_KEY : OPENS_EMPTY_FIRST;
}

/* A frame line as flamekit names the function: "name+123" is name; the
 * ", " between two stacks of one key is none (false). */
static bool function_of_frame(struct span *f)
{
	if (span_eq(*f, ",") || span_eq(*f, ", "))
		return false;
	size_t digits = 0;
	while (digits < f->len && is_digit((unsigned char)f->p[f->len - 1 - digits]))
		digits++;
	if (digits && digits + 1 < f->len && f->p[f->len - 1 - digits] == '+')
		f->len -= digits + 1;
	return true;
}

/* Builds the stack of an entry from its kept lines: the opening line, the
 * frames, and last the key part of the closing line. */
static size_t build_entry(struct stack_builder *sb, struct entry_memo *memo, bool perl_mode,
			  uint64_t count)
{
	struct span line, first_key = { "", 0 }, key;
	entry_memo__next_kept(memo, &line);
	enum opening how = opening_of(line, perl_mode, &first_key);
	struct span prev = { NULL, 0 };
	bool have_prev = false;
	while (entry_memo__next_kept(memo, &line)) {
		if (have_prev) {
			struct span f = trim_leading_space(prev);
			if (perl_mode || function_of_frame(&f))
				stack_builder__unshift(sb, f.p, f.len);
		}
		prev = line;
		have_prev = true;
	}
	key = prev; /* the closing line's key part */
	if (key.len)
		stack_builder__unshift(sb, key.p, key.len);
	if (how == OPENS_WITH_KEY)
		stack_builder__unshift(sb, first_key.p, first_key.len);
	return stack_builder__commit(sb, count);
}

struct bpftrace_reader {
	bool perl_mode;
	uint64_t keyed_entries;   /* opened with a key part, in all states */
};

/* One reading state: the serial read's, or a part's (parallel.h). read()
 * is called once per state, so its working buffers are its own locals. */
struct bpftrace_state {
	bool perl_mode;
	struct profile *profile;
	uint64_t keyed_entries;
};

static void *state_new(void *reader, unsigned part, struct read_context *ctx,
		       struct profile *profile)
{
	(void)part, (void)ctx;
	const struct bpftrace_reader *r = reader;
	struct bpftrace_state *st = fk_calloc(1, sizeof(*st));
	st->perl_mode = r->perl_mode;
	st->profile = profile;
	return st;
}

static void state_free(void *reader, void *state)
{
	struct bpftrace_reader *r = reader;
	struct bpftrace_state *st = state;
	r->keyed_entries += st->keyed_entries;
	free(st);
}

static int read_entries(void *state, struct input *const *inputs, size_t count)
{
	struct bpftrace_state *st = state;
	struct profile *profile = st->profile;
	bool perl_mode = st->perl_mode;
	frame_id *again = NULL;
	size_t again_cap = 0;
	struct stack_builder sb;
	struct entry_memo memo;
	stack_builder__init(&sb, profile);
	entry_memo__init(&memo);
	bool in_stack = false;
	uint64_t keyed_entries = 0;
	struct line_stream ls = { inputs, count, 0, 0 };
	struct span line, key;
	while (line_stream__next(&ls, &line)) {
		uint64_t n;
		if (!in_stack) {
			enum opening how = opening_of(line, perl_mode, &key);
			if (how != NOT_OPENING) {
				in_stack = true;
				keyed_entries += how != OPENS;
				entry_memo__clear(&memo);
				entry_memo__line(&memo, line);
			} else if (line.len >= 4 && memcmp(line.p, "@[,", 3) == 0 &&
				   is_space((unsigned char)line.p[3]) &&
				   match_key_and_count((struct span){ line.p + 4, line.len - 4 }, &key, &n)) {
				/* /^@\[,\s(.*)\]: (\d+)/: a one-line entry */
				stack_builder__unshift(&sb, key.p, key.len);
				stack_builder__commit(&sb, n);
			}
			continue;
		}
		if (!match_close(line, &key, &n)) {
			entry_memo__line(&memo, line);
			continue;
		}
		entry_memo__line(&memo, key);
		size_t entry;
		if (entry_memo__find(&memo, &entry)) {
			union profile_value v = { .integer = n };
			if (perl_mode) {
				/* the same stack as a new entry; copy its frames
				 * first: adding may move the profile's arena (and
				 * an empty stack may have none) */
				struct profile_stack known;
				profile__stack(profile, entry, &known);
				again = fk_grow(again, &again_cap, known.depth + 1, sizeof(*again));
				if (known.depth)
					memcpy(again, known.frames, known.depth * sizeof(*again));
				profile__add(profile, again, known.depth, NULL, &v);
			} else {
				profile__add_to_entry(profile, entry, &v);
			}
			entry_memo__clear(&memo);
		} else {
			entry = build_entry(&sb, &memo, perl_mode, n);
			entry_memo__remember(&memo, entry);
		}
		in_stack = false;
	}
	st->keyed_entries = keyed_entries;
	free(again);
	entry_memo__release(&memo);
	stack_builder__release(&sb);
	return ls.err;
}

/* After a closing line no entry is open: nothing carries over. */
static bool after_close_line(const char *line, size_t len)
{
	struct span key;
	uint64_t n;
	return match_close((struct span){ line, len }, &key, &n);
}

int bpftrace_reader__read(struct read_context *ctx, struct input *const *inputs,
			  size_t count, struct profile *profile)
{
	static const struct parallel_ops ops = {
		.boundary = after_close_line,
		.state_new = state_new,
		.read = read_entries,
		.state_free = state_free,
	};
	struct bpftrace_reader reader = { .perl_mode = ctx->perl_mode };
	/* every entry a line, as Perl prints them; the parts' entries are
	 * merged after those before them (profile.h's PROFILE_KEEP_EACH) */
	if (ctx->perl_mode)
		profile__set_order(profile, PROFILE_KEEP_EACH);
	int err = parallel__read(ctx, inputs, count, &ops, &reader, profile);
	uint64_t keyed = reader.keyed_entries;
	if (keyed && !err)
		fprintf(stderr, "flamekit: read %llu map entr%s that stackcollapse-bpftrace.pl drops: "
			"\"@[KEY, \" (e.g. @[comm, kstack]) with KEY as the root frame, "
			"\"@[, \" (an empty first stack)\n",
			(unsigned long long)keyed, keyed == 1 ? "y" : "ies");
	return err;
}
