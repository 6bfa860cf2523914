/*
 * `perf report --stdio --no-children -g folded[,...]` output: perf folds the
 * stacks itself, so this is the cheapest way from perf.data to a profile.
 *
 *	# Samples: 998  of event 'cpu-clock:ppp'       <- the total, for percentages
 *	# Overhead       Samples  Command               <- column names
 *	# ........  ............  .......               <- column extents
 *	   100.00%           998  fk-burn               <- an entry: whose stacks follow
 *	543 __libc_start_call_main;main;burn_loop;spin_a;leaf_mix
 *	54.41% leaf_mix;spin_a;burn_loop;main;...       <- or a percentage
 *
 * Each stack is prefixed with the entry's Command (with "-PID" when a
 * Pid:Command column is there, as collapse perf --pid names it). Percentages
 * are of the event's sample total and are scaled back to counts with the
 * "# Samples:" header (perf drops stacks under its threshold: say so).
 * Stacks may come root first (caller) or leaf first (callee, perf's
 * default): the entries' Symbol column tells which when present; otherwise
 * the end with fewer distinct frames is taken as the root, and the choice
 * is reported. Only the first event of a multi-event report is read, as
 * collapse perf does.
 */
#include "perf_folded.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../lib/buf.h"
#include "../lib/error.h"
#include "../lib/xalloc.h"
#include "perl_text.h"

#define MAX_COLUMNS 16

struct column {
	size_t start, end;   /* in an entry line */
	char name[32];
};

/* A stack as read, before its order is known. */
struct pending {
	uint64_t text_offset;  /* comm '\0' stack, in texts */
	uint32_t comm_len, stack_len;
	double value;          /* a count, or a percentage */
	bool percent;
};

struct state {
	struct read_context *ctx;
	struct column columns[MAX_COLUMNS];
	size_t ncolumns;
	int command_col, pid_col, symbol_col;
	struct buf comm, symbol;
	double total_samples;
	bool total_approximate;
	int events_seen;
	bool skipping_event;

	struct buf texts;
	struct pending *stacks;
	size_t count, cap;
	/* evidence for the order: entry symbol first or last in its stacks */
	uint64_t symbol_first, symbol_last;
};

static void parse_ruler(struct state *st, struct span names, struct span dots)
{
	st->ncolumns = 0;
	st->command_col = st->pid_col = st->symbol_col = -1;
	size_t i = 1; /* after '#' */
	while (i < dots.len && st->ncolumns < MAX_COLUMNS) {
		while (i < dots.len && dots.p[i] != '.')
			i++;
		if (i >= dots.len)
			break;
		size_t s = i;
		while (i < dots.len && dots.p[i] == '.')
			i++;
		struct column *c = &st->columns[st->ncolumns++];
		c->start = s;
		c->end = i;
		/* the name above the dots */
		size_t a = s < names.len ? s : names.len, b = i < names.len ? i : names.len;
		while (a < b && names.p[a] == ' ')
			a++;
		while (b > a && names.p[b - 1] == ' ')
			b--;
		size_t n = b - a < sizeof(c->name) - 1 ? b - a : sizeof(c->name) - 1;
		memcpy(c->name, names.p + a, n);
		c->name[n] = '\0';
	}
	/* each column reaches to the next one's start (values may be longer) */
	for (size_t k = 0; k < st->ncolumns; k++) {
		st->columns[k].end = k + 1 < st->ncolumns ? st->columns[k + 1].start : (size_t)-1;
		if (strcmp(st->columns[k].name, "Command") == 0)
			st->command_col = (int)k;
		else if (strcmp(st->columns[k].name, "Pid:Command") == 0)
			st->pid_col = (int)k;
		else if (strcmp(st->columns[k].name, "Symbol") == 0)
			st->symbol_col = (int)k;
	}
}

static struct span column_value(const struct state *st, struct span line, int col)
{
	if (col < 0)
		return (struct span){ "", 0 };
	const struct column *c = &st->columns[col];
	size_t a = c->start < line.len ? c->start : line.len;
	size_t b = c->end < line.len ? c->end : line.len;
	/* a right-aligned value may start before its dots: back up to a blank */
	while (a > 0 && a < line.len && line.p[a - 1] != ' ')
		a--;
	while (a < b && line.p[a] == ' ')
		a++;
	while (b > a && line.p[b - 1] == ' ')
		b--;
	return (struct span){ line.p + a, b - a };
}

static void read_entry(struct state *st, struct span line)
{
	buf__reset(&st->comm);
	struct span comm = column_value(st, line, st->command_col);
	buf__append(&st->comm, comm.p, comm.len);
	if (st->pid_col >= 0) {
		struct span pc = column_value(st, line, st->pid_col);
		const char *colon = memchr(pc.p, ':', pc.len);
		if (colon && colon > pc.p) {
			buf__append_char(&st->comm, '-');
			buf__append(&st->comm, pc.p, (size_t)(colon - pc.p));
		}
	}
	buf__reset(&st->symbol);
	struct span sym = column_value(st, line, st->symbol_col);
	if (sym.len > 4 && sym.p[0] == '[' && sym.p[2] == ']' && sym.p[3] == ' ') {
		sym.p += 4; /* "[.] name", "[k] name" */
		sym.len -= 4;
	}
	buf__append(&st->symbol, sym.p, sym.len);
}

/* "543 a;b;c" or "54.41% a;b;c" */
static bool read_stack(struct state *st, struct span line)
{
	const char *space = memchr(line.p, ' ', line.len);
	if (!space || space == line.p)
		return false;
	size_t vlen = (size_t)(space - line.p);
	bool percent = line.p[vlen - 1] == '%';
	char num[40];
	size_t nlen = vlen - percent;
	if (nlen == 0 || nlen >= sizeof(num))
		return false;
	memcpy(num, line.p, nlen);
	num[nlen] = '\0';
	char *end;
	double v = strtod(num, &end);
	if (*end || v < 0 || !is_digit((unsigned char)num[0]))
		return false;
	struct span stack = { space + 1, line.len - vlen - 1 };
	if (stack.len == 0)
		return false;
	if (st->symbol.len) {
		const char *semi = memchr(stack.p, ';', stack.len);
		const char *last = memrchr(stack.p, ';', stack.len);
		size_t first_len = semi ? (size_t)(semi - stack.p) : stack.len;
		struct span tail = last ? (struct span){ last + 1, (size_t)(stack.p + stack.len - last - 1) }
					: stack;
		if (first_len == st->symbol.len && memcmp(stack.p, st->symbol.data, first_len) == 0)
			st->symbol_first++;
		if (tail.len == st->symbol.len && memcmp(tail.p, st->symbol.data, tail.len) == 0)
			st->symbol_last++;
	}
	st->stacks = fk_grow(st->stacks, &st->cap, st->count + 1, sizeof(*st->stacks));
	st->stacks[st->count++] = (struct pending){ st->texts.len, (uint32_t)st->comm.len,
						    (uint32_t)stack.len, v, percent };
	buf__append(&st->texts, st->comm.data, st->comm.len);
	buf__append(&st->texts, stack.p, stack.len);
	return true;
}

/* "# Samples: 998  of event 'cpu-clock'" (perf may write 12K or 3M) */
static void read_samples_header(struct state *st, struct span line)
{
	st->events_seen++;
	if (st->events_seen > 1) {
		st->skipping_event = true;
		return;
	}
	const char *p = line.p + 11, *end = line.p + line.len;
	while (p < end && *p == ' ')
		p++;
	char num[32];
	size_t n = 0;
	while (p < end && n < sizeof(num) - 1 && (is_digit((unsigned char)*p) || *p == '.'))
		num[n++] = *p++;
	num[n] = '\0';
	double v = strtod(num, NULL);
	if (p < end && (*p == 'K' || *p == 'M' || *p == 'G')) {
		v *= *p == 'K' ? 1e3 : *p == 'M' ? 1e6 : 1e9;
		st->total_approximate = true;
	}
	st->total_samples = v;
}

/* Distinct frames at one end (first or last) of the stacks. */
static size_t distinct_ends(const struct state *st, bool last)
{
	struct profile *p = profile__new(1, PROFILE_INTEGER);
	for (size_t i = 0; i < st->count; i++) {
		const struct pending *s = &st->stacks[i];
		const char *stack = st->texts.data + s->text_offset + s->comm_len;
		const char *sep = last ? memrchr(stack, ';', s->stack_len)
				       : memchr(stack, ';', s->stack_len);
		if (!sep)
			profile__intern(p, stack, s->stack_len);
		else if (last)
			profile__intern(p, sep + 1, (size_t)(stack + s->stack_len - sep - 1));
		else
			profile__intern(p, stack, (size_t)(sep - stack));
	}
	size_t n = profile__frame_count(p);
	profile__free(p);
	return n;
}

/* Which end of the stacks is the root: evidence from the Symbol column, or
 * else the end with fewer distinct frames (stacks share their roots).
 * *unsure: the evidence is even. */
static bool stacks_are_leaf_first(const struct state *st, bool *unsure)
{
	*unsure = false;
	if (st->symbol_first != st->symbol_last)
		return st->symbol_first > st->symbol_last;
	size_t firsts = distinct_ends(st, false), lasts = distinct_ends(st, true);
	*unsure = firsts == lasts;
	return lasts < firsts;
}

/* "VALUE stack" lines as they start a line (not indented), digits first. */
static bool looks_like_value_line(struct span line)
{
	size_t i = 0;
	while (i < line.len && (is_digit((unsigned char)line.p[i]) || line.p[i] == '.'))
		i++;
	if (i == 0 || i == line.len)
		return false;
	if (line.p[i] == '%')
		i++;
	return i + 1 < line.len && line.p[i] == ' ' && line.p[i + 1] != ' ';
}

/* perf report's comment header with its column ruler, then "VALUE a;b;c" lines. */
int perf_folded_reader__probe(const char *head, size_t len)
{
	const char *p = head, *end = head + len;
	struct span line;
	bool ruler = false, samples = false;
	unsigned values = 0;
	while (next_head_line(&p, end, &line)) {
		if (line.len > 3 && memcmp(line.p, "# .", 3) == 0)
			ruler = true;
		else if (line.len > 11 && memcmp(line.p, "# Samples: ", 11) == 0)
			samples = true;
		else if (line.len > 0 && line.p[0] != '#' && looks_like_value_line(line))
			values++;
	}
	if (!ruler && !samples)
		return 0;
	return values ? 95 : 55;
}

static int read_one(struct state *st, struct input *in)
{
	const char *p;
	size_t len;
	int r;
	struct buf names = BUF_INIT;
	while ((r = input__next_line(in, &p, &len)) > 0) {
		struct span line = { p, len };
		if (len > 0 && p[0] == '#') {
			if (len > 11 && memcmp(p, "# Samples: ", 11) == 0)
				read_samples_header(st, line);
			else if (len > 3 && memcmp(p, "# .", 3) == 0)
				parse_ruler(st, (struct span){ names.data, names.len }, line);
			else if (len > 2 && p[1] == ' ' && p[2] != ' ') {
				buf__reset(&names);
				buf__append(&names, p, len);
			}
			continue;
		}
		if (st->skipping_event || perl_blank_line(line))
			continue;
		if (is_space((unsigned char)p[0])) {
			read_entry(st, line);
			continue;
		}
		if (!read_stack(st, line))
			read_context__bad_line(st->ctx, in, p, len,
					       "\"COUNT frame;frame;...\" or \"PERCENT% frame;...\" "
					       "(perf report -g folded)");
	}
	buf__free(&names);
	return r;
}

int perf_folded_reader__read(struct read_context *ctx, struct input *const *inputs,
			     size_t count, struct profile *profile)
{
	struct state st = { .ctx = ctx, .command_col = -1, .pid_col = -1, .symbol_col = -1 };
	int err = 0;
	for (size_t i = 0; i < count && !err; i++)
		err = read_one(&st, inputs[i]);
	if (!err && st.count) {
		bool unsure;
		bool leaf_first = stacks_are_leaf_first(&st, &unsure);
		bool any_percent = false;
		frame_id *frames = NULL;
		size_t cap = 0;
		for (size_t i = 0; i < st.count; i++) {
			const struct pending *s = &st.stacks[i];
			const char *text = st.texts.data + s->text_offset;
			size_t depth = 0;
			if (s->comm_len) {
				frames = fk_grow(frames, &cap, depth + 1, sizeof(*frames));
				frames[depth++] = profile__intern(profile, text, s->comm_len);
			}
			size_t first = depth;
			const char *stack = text + s->comm_len;
			size_t start = 0;
			for (size_t k = 0; k <= s->stack_len; k++) {
				if (k < s->stack_len && stack[k] != ';')
					continue;
				frames = fk_grow(frames, &cap, depth + 1, sizeof(*frames));
				frames[depth++] = profile__intern(profile, stack + start, k - start);
				start = k + 1;
			}
			if (leaf_first)
				for (size_t a = first, b = depth; a + 1 < b; a++, b--) {
					frame_id t = frames[a];
					frames[a] = frames[b - 1];
					frames[b - 1] = t;
				}
			uint64_t n;
			if (s->percent) {
				any_percent = true;
				n = (uint64_t)llround(s->value * st.total_samples / 100.0);
			} else {
				n = (uint64_t)llround(s->value);
			}
			union profile_value value = profile__count_value(profile, n);
			profile__add(profile, frames, (uint32_t)depth, NULL, &value);
		}
		free(frames);
		if (any_percent && st.total_samples <= 0) {
			err = error("the report gives percentages but no \"# Samples:\" total to turn "
				    "them into counts; run perf report with -g folded,0,caller,count");
		} else if (any_percent) {
			fprintf(stderr, "flamekit: percentages turned into counts with the report's "
				"total of %.0f%s samples; perf leaves out stacks under its threshold "
				"(-g folded,0,caller,count keeps them all)\n", st.total_samples,
				st.total_approximate ? " (rounded by perf)" : "");
		}
		if (unsure)
			fprintf(stderr, "flamekit: cannot tell whether the report's stacks are root "
				"or leaf first; taking them as root first (perf report -g caller)\n");
		if (st.events_seen > 1)
			fprintf(stderr, "flamekit: the report has %d events; read the first one only\n",
				st.events_seen);
	}
	free(st.stacks);
	buf__free(&st.texts);
	buf__free(&st.comm);
	buf__free(&st.symbol);
	return err;
}
