/*
 * perf script reader. Each parsing step below reproduces one expression of
 * stackcollapse-perf.pl (quoted above it), including how Perl's backtracking
 * resolves odd lines, so that the output matches byte for byte. Every step
 * runs in linear time, whatever the line holds.
 */
#include "perf.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/error.h"
#include "../lib/xalloc.h"
#include "../symbolize/inline.h"
#include "group_cache.h"
#include "parallel.h"
#include "perf_lines.h"
#include "perl_text.h"
#include "stack_builder.h"

/*
 * What a frame line turns into depends only on its function text (offset
 * already stripped), its module and whether the process is Java, so the
 * frame ids it yields are cached under those (group_cache.h). Not used when
 * the result depends on more: --srcline reads the next line, --inline looks
 * at the address, and --addrs prints it for unknown frames.
 */
struct perf_state {
	const struct perf_read_options *opt;
	struct read_context *ctx;
	struct inline_resolver *inliner;

	/* The current sample: frames collected leaf first, each group
	 * (a line's frames, or the comm's) stored reversed; the whole stack is
	 * reversed once at the blank line. */
	struct stack_builder stack;
	struct spans pieces;
	struct buf pname;
	bool pname_defined;
	uint64_t weight;       /* what the sample adds, as --weight says */
	bool weight_is_period; /* ... and it is the period perf printed */
	bool counted_period;   /* some sample added its period (the unit) */

	/* --timeline (ctx->slice_ns): slice 0 starts at the first sample's
	 * time, floored to a multiple of the slice; a part of a parallel read
	 * is given it (perf_prepare) */
	bool start_known;
	uint64_t start_ns;
	uint32_t slice;        /* the current sample's */
	uint64_t early;        /* samples before slice 0, counted in it */

	struct buf event_filter;
	bool event_defaulted, event_warned;

	struct buf func, srcline;
	struct buf message;

	bool use_cache;
	struct group_cache cache;
};

/* Perl's truth of $pname: defined, not "" and not "0". */
static bool pname_true(const struct perf_state *st)
{
	return st->pname_defined && st->pname.len > 0 &&
	       !(st->pname.len == 1 && st->pname.data[0] == '0');
}

static void end_of_sample(struct perf_state *st)
{
	if (!pname_true(st))
		return; /* "ignore filtered samples" — the stack is kept, as in Perl */
	stack_builder__unshift(&st->stack, st->pname.data, st->pname.len);
	stack_builder__group_kind(&st->stack, PROFILE_FRAME_PROCESS);
	const struct profile_key key = { st->slice, 0 };
	stack_builder__commit_keyed(&st->stack, st->weight, &key);
	st->counted_period |= st->weight_is_period;
	st->pname_defined = false;
	buf__reset(&st->pname);
}

static uint64_t parse_u64(struct span s)
{
	uint64_t v = 0;
	for (size_t i = 0; i < s.len; i++)
		v = v * 10 + (uint64_t)(s.p[i] - '0');
	return v;
}

/* Said once per stream, naming the first event skipped, not the one kept,
 * with the line's bytes as they are, NULs too. Its start is its tag. */
static const char skipped_event_tag[] = "Filtering for events of type: ";

static void say_skipped_event(struct perf_state *st, struct span event)
{
	buf__reset(&st->message);
	buf__append(&st->message, skipped_event_tag, sizeof(skipped_event_tag) - 1);
	buf__append(&st->message, event.p, event.len);
	buf__append_char(&st->message, '\n');
	read_context__print_once(st->ctx, skipped_event_tag, st->message.data, st->message.len);
}

/* --weight period on a sample header without a period: the read ends here.
 * The period is read before the event name that ends the header; a
 * tracepoint's header goes on with its fields, and its period is 1. */
static int no_period(const struct input *in, const char *line, size_t len, bool has_event)
{
	char quoted[120];
	quote_for_message(quoted, sizeof(quoted), line, len);
	if (has_event)
		return error("%s:%llu: no period in sample \"%s\" for --weight period; print "
			     "periods with `perf script -F +period`, or use --weight samples",
			     input__name(in), (unsigned long long)input__line_number(in), quoted);
	return error("%s:%llu: sample \"%s\" does not end with \"PERIOD EVENT:\", so it has no "
		     "period for --weight period (a tracepoint's fields follow its event, and "
		     "its period is 1); use --weight samples",
		     input__name(in), (unsigned long long)input__line_number(in), quoted);
}

/*
 * --timeline: the slice of a sample at `ns`, or -1 after an error. A sample
 * before slice 0 (perf script's order is not strictly by time across CPUs,
 * and a later input may start earlier) is counted in slice 0.
 */
static int sample_slice(struct perf_state *st, const struct input *in, uint64_t ns)
{
	uint64_t slice = ns < st->start_ns ? 0 : (ns - st->start_ns) / st->ctx->slice_ns;
	st->early += ns < st->start_ns;
	if (slice > UINT32_MAX)
		return error("%s:%llu: a sample at %.6f s is %llu time slices after the first "
			     "sample's: more than --timeline numbers; give longer slices",
			     input__name(in), (unsigned long long)input__line_number(in),
			     (double)ns / 1e9, (unsigned long long)slice);
	st->slice = (uint32_t)slice;
	return 0;
}

/* 0, or -1 after an error (--weight period: no period; --timeline: no time). */
static int handle_header(struct perf_state *st, const struct input *in, const char *line,
			 size_t len, struct span comm, struct span pid, struct span tid)
{
	uint64_t ns = 0;
	bool has_time = false;
	if (st->ctx->slice_ns) {
		/* the first sample fixes slice 0, whatever its event */
		const char *after = tid.len ? tid.p + tid.len : pid.p + pid.len;
		has_time = perf_line__time(line, len, (size_t)(after - line), &ns);
		if (has_time && !st->start_known) {
			st->start_ns = ns - ns % st->ctx->slice_ns;
			st->start_known = true;
		}
	}
	if (tid.len == 0 || span_eq(tid, "0")) { /* not $tid */
		tid = pid;
		pid = (struct span){ "?", 1 };
	}
	struct span period = { NULL, 0 }, event;
	bool has_event = perf_line__event(line, len, &period, &event);
	if (has_event) {
		if (st->event_filter.len == 0) {
			buf__append(&st->event_filter, event.p, event.len);
			st->event_defaulted = true;
		} else if (event.len != st->event_filter.len ||
			   memcmp(event.p, st->event_filter.data, event.len) != 0) {
			if (st->event_defaulted && !st->event_warned) {
				say_skipped_event(st, event);
				st->event_warned = true;
			}
			return 0;
		}
	}
	if (st->ctx->slice_ns) {
		if (!has_time) {
			char quoted[120];
			quote_for_message(quoted, sizeof(quoted), line, len);
			return error("%s:%llu: no time in sample \"%s\" for --timeline; print "
				     "times with `perf script -F +time`",
				     input__name(in), (unsigned long long)input__line_number(in),
				     quoted);
		}
		if (sample_slice(st, in, ns) < 0)
			return -1;
	}
	switch (st->opt->weight) {
	case PERF_WEIGHT_PERL:
		/* if (not $period) { $period = 1 } */
		st->weight_is_period = !(period.len == 0 || span_eq(period, "0"));
		st->weight = st->weight_is_period ? parse_u64(period) : 1;
		break;
	case PERF_WEIGHT_SAMPLES:
		st->weight = 1;
		st->weight_is_period = false;
		break;
	case PERF_WEIGHT_PERIOD:
		if (period.len == 0)
			return no_period(in, line, len, has_event);
		st->weight = parse_u64(period);
		st->weight_is_period = true;
		break;
	}

	buf__reset(&st->pname);
	buf__append(&st->pname, comm.p, comm.len);
	if (st->opt->include_tid) {
		buf__append_char(&st->pname, '-');
		buf__append(&st->pname, pid.p, pid.len);
		buf__append_char(&st->pname, '/');
		buf__append(&st->pname, tid.p, tid.len);
	} else if (st->opt->include_pid) {
		buf__append_char(&st->pname, '-');
		buf__append(&st->pname, pid.p, pid.len);
	}
	for (size_t i = 0; i < st->pname.len; i++) /* tr/ /_/ */
		if (st->pname.data[i] == ' ')
			st->pname.data[i] = '_';
	st->pname_defined = true;
	return 0;
}

/* The line after a frame in `perf script -F+srcline` output: every
 * "[...]" removed (s/\[.*?\]//g), then whitespace trimmed at both ends. */
static void clean_srcline(struct buf *out, const char *s, size_t n)
{
	buf__reset(out);
	buf__reserve(out, n);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '[') {
			const char *c = memchr(s + i + 1, ']', n - i - 1);
			if (c) {
				i = (size_t)(c - s);
				continue;
			}
		}
		buf__append_char(out, s[i]);
	}
	size_t a = 0, b = out->len;
	while (a < b && is_space((unsigned char)out->data[a]))
		a++;
	while (b > a && is_space((unsigned char)out->data[b - 1]))
		b--;
	memmove(out->data, out->data + a, b - a);
	out->len = b - a;
	out->data[out->len] = '\0';
}

static bool pname_is_java(const struct perf_state *st)
{
	return st->pname.len >= 4 && memcmp(st->pname.data, "java", 4) == 0;
}

/* One piece of the function name split on "->", tidied and annotated. */
static void tidy_function(struct perf_state *st, struct span piece, struct span pc,
			  struct span mod, bool later_piece, bool *is_unknown)
{
	const struct perf_read_options *opt = st->opt;
	struct buf *f = &st->func;
	buf__reset(f);
	if (span_eq(piece, "[unknown]")) {
		struct span name;
		if (!span_eq(mod, "[unknown]")) {
			const char *slash = memrchr(mod.p, '/', mod.len);
			name = slash ? (struct span){ slash + 1, (size_t)(mod.p + mod.len - slash - 1) }
				     : mod;
		} else {
			name = (struct span){ "unknown", 7 };
			*is_unknown = true;
		}
		buf__append_char(f, '[');
		buf__append(f, name.p, name.len);
		if (opt->include_addrs) {
			buf__append(f, " <", 2);
			buf__append(f, pc.p, pc.len);
			buf__append_char(f, '>');
		}
		buf__append_char(f, ']');
	} else {
		buf__append(f, piece.p, piece.len);
	}

	/* $func =~ s/;/:/g */
	for (char *c = f->data; (c = memchr(c, ';', f->len - (size_t)(c - f->data))) != NULL;)
		*c = ':';
	/* Unless it looks like a Go method (/\.\(.*\)\./), cut at the first
	 * '(' that does not open "(anonymous namespace)". */
	const char *go = find_bytes(f->data, f->len, ".(", 2);
	bool go_method = false;
	if (go) {
		size_t from = (size_t)(go - f->data) + 2;
		go_method = find_bytes(f->data + from, f->len - from, ").", 2) != NULL;
	}
	if (!go_method) {
		for (size_t i = 0; i < f->len; i++) {
			if (f->data[i] != '(')
				continue;
			if (f->len - i - 1 >= 20 &&
			    memcmp(f->data + i + 1, "anonymous namespace)", 20) == 0)
				continue;
			f->len = i;
			break;
		}
	}
	size_t o = 0; /* tr/"\'//d */
	for (size_t i = 0; i < f->len; i++)
		if (f->data[i] != '"' && f->data[i] != '\'')
			f->data[o++] = f->data[i];
	f->len = o;
	f->data[o] = '\0';

	/* Java: org/foo/Bar instead of Lorg/foo/Bar */
	if (pname_is_java(st) && f->len > 0 && f->data[0] == 'L' && memchr(f->data, '/', f->len)) {
		memmove(f->data, f->data + 1, f->len - 1);
		f->len--;
		f->data[f->len] = '\0';
	}

	if (later_piece) {
		if (!find_bytes(f->data, f->len, "_[i]", 4))
			buf__append(f, "_[i]", 4);
	} else if (opt->annotate_kernel && perf_module__is_kernel(mod)) {
		buf__append(f, "_[k]", 4);
	} else if (opt->annotate_jit && perf_module__is_jit(mod)) {
		if (!find_bytes(f->data, f->len, "_[j]", 4))
			buf__append(f, "_[j]", 4);
	}
}

static int handle_frame(struct perf_state *st, struct input *in, struct span pc,
			struct span rawfunc, struct span mod)
{
	const struct perf_read_options *opt = st->opt;
	if (opt->show_inline && perf_module__inline_applies(mod)) {
		struct buf *res = &st->func;
		buf__reset(res);
		inline_resolver__expand(st->inliner, pc.p, pc.len, rawfunc.p, rawfunc.len,
					mod.p, mod.len, res);
		if (res->len > 0 && !(res->len == 2 && memcmp(res->data, "??", 2) == 0) &&
		    !(res->len == 7 && memcmp(res->data, "??:??:0", 7) == 0)) {
			stack_builder__unshift(&st->stack, res->data, res->len);
			return 0;
		}
	}

	rawfunc = perf_frame__strip_offset(rawfunc);
	if (rawfunc.len > 0 && rawfunc.p[0] == '(')
		return 0; /* "skip process names" */

	bool cacheable = st->use_cache &&
			 !(opt->include_addrs && find_bytes(rawfunc.p, rawfunc.len, "[unknown]", 9));
	size_t slot = 0;
	uint64_t hash = 0;
	bool java = pname_is_java(st);
	if (cacheable) {
		hash = group_cache__hash(rawfunc, mod, java);
		const struct cached_group *hit =
			group_cache__find(&st->cache, hash, rawfunc, mod, java, &slot);
		if (hit) {
			stack_builder__add_ids(&st->stack, group_cache__ids(&st->cache, hit), hit->count);
			return 0;
		}
	}

	perl_split(&st->pieces, rawfunc, "->");
	stack_builder__group_begin(&st->stack);
	bool is_unknown = false;
	for (size_t i = 0; i < st->pieces.n; i++) {
		tidy_function(st, st->pieces.v[i], pc, mod, i > 0, &is_unknown);
		if (opt->srcline && !is_unknown) {
			const char *next;
			size_t nlen;
			int r = input__next_line(in, &next, &nlen);
			if (r < 0)
				return -1;
			if (r > 0) {
				clean_srcline(&st->srcline, next, nlen);
				if (st->srcline.len > 0) {
					buf__append_char(&st->func, ':');
					buf__append(&st->func, st->srcline.data, st->srcline.len);
				}
			}
		}
		stack_builder__add(&st->stack, st->func.data, st->func.len);
	}
	stack_builder__group_end(&st->stack);
	if (cacheable) {
		size_t count;
		const frame_id *ids = stack_builder__group_ids(&st->stack, &count);
		group_cache__add(&st->cache, slot, hash, rawfunc, mod, java, ids, count);
	}
	return 0;
}

static const char expected_perf_line[] =
	"a sample header \"COMM PID ... EVENT:\" or a frame \"ADDR SYMBOL (MODULE)\"";

static void report_bad_line(struct perf_state *st, struct input *in, const char *line,
			    size_t len)
{
	if (!st->ctx->perl_mode) {
		read_context__bad_line(st->ctx, in, line, len, expected_perf_line);
		return;
	}
	buf__reset(&st->message);
	buf__append(&st->message, "Unrecognized line: ", 19);
	buf__append(&st->message, line, len);
	read_context__perl_warning(st->ctx, in, st->message.data, st->message.len,
				   "stackcollapse-perf.pl line 429");
}

static int read_one(struct perf_state *st, struct input *in)
{
	const char *line;
	size_t len;
	int r;
	while ((r = input__next_line(in, &line, &len)) > 0) {
		if (len > 0 && line[0] == '#')
			continue;
		if (len == 0) {
			end_of_sample(st);
			continue;
		}
		struct span a, b, c;
		if (perf_line__header(line, len, &a, &b, &c)) {
			if (handle_header(st, in, line, len, a, b, c) < 0)
				return -1;
		} else if (perf_line__frame(line, len, &a, &b, &c)) {
			if (!pname_true(st))
				continue; /* "ignore filtered samples" */
			if (handle_frame(st, in, a, b, c) < 0)
				return -1;
		} else {
			report_bad_line(st, in, line, len);
		}
	}
	return r;
}

/* Sample headers, each followed by "ADDR SYMBOL (MODULE)" frames (with
 * -F+srcline, a source line after each frame). */
int perf_reader__probe(const char *head, size_t len)
{
	const char *p = head, *end = head + len;
	struct span line, a, b, c;
	unsigned headers = 0, frames = 0, other = 0;
	while (next_head_line(&p, end, &line)) {
		if (line.len == 0 || line.p[0] == '#')
			continue;
		if (perf_line__header(line.p, line.len, &a, &b, &c))
			headers++;
		else if (perf_line__frame(line.p, line.len, &a, &b, &c))
			frames++;
		else
			other++;
	}
	if (headers == 0 || other > headers + frames)
		return 0;
	if (frames == 0)
		return 55; /* perf script without -g: samples without stacks */
	return other > (headers + frames) / 4 ? 70 : 90;
}

/*
 * The reader as parallel.h runs it. The Perl tool reads one stream, so a
 * part must start where the stream carries no state. After a blank line it
 * carries none: the sample ends, $pname is undefined and the stack empty (a
 * comm has at least two characters, so a defined $pname is always true and
 * always reset there). The one exception is the event filter, fixed by the
 * first event seen: it is found by a scan from the start and given to
 * every part.
 */
struct perf_reader {
	const struct perf_read_options *opt;
	struct buf event;      /* what every state starts filtering for, or "" */
	bool event_defaulted;  /* it is the file's first event, not one given */
	bool counted_period;   /* some state's sample added its period */
	/* --timeline: where slice 0 starts, once known (perf_prepare's scan,
	 * or the serial read's first sample) */
	bool start_known;
	uint64_t start_ns;
	uint64_t early;        /* the states' samples before slice 0 */
	uint64_t slice_ns;     /* ctx->slice_ns */
};

static void *perf_state_new(void *reader, unsigned part, struct read_context *ctx,
			    struct profile *profile)
{
	(void)part;
	const struct perf_reader *r = reader;
	struct perf_state *st = fk_calloc(1, sizeof(*st));
	st->opt = r->opt;
	st->ctx = ctx;
	stack_builder__init(&st->stack, profile);
	buf__append(&st->event_filter, r->event.data, r->event.len);
	st->event_defaulted = r->event_defaulted;
	st->start_known = r->start_known;
	st->start_ns = r->start_ns;
	if (st->opt->show_inline)
		st->inliner = inline_resolver__new(st->opt->show_context);
	st->use_cache = !st->opt->srcline && !st->opt->show_inline;
	group_cache__init(&st->cache);
	return st;
}

static void perf_state_free(void *reader, void *state)
{
	struct perf_state *st = state;
	struct perf_reader *r = reader;
	r->counted_period |= st->counted_period;
	r->early += st->early;
	if (!r->start_known && st->start_known) {
		r->start_known = true;
		r->start_ns = st->start_ns;
	}
	inline_resolver__free(st->inliner);
	stack_builder__release(&st->stack);
	free(st->pieces.v);
	buf__free(&st->pname);
	buf__free(&st->event_filter);
	buf__free(&st->func);
	buf__free(&st->srcline);
	buf__free(&st->message);
	group_cache__release(&st->cache);
	free(st);
}

static int perf_read(void *state, struct input *const *inputs, size_t count)
{
	int err = 0;
	for (size_t i = 0; i < count && !err; i++)
		err = read_one(state, inputs[i]);
	return err;
}

/* After a blank line the sample has ended: nothing carries over. */
static bool after_blank_line(const char *line, size_t len)
{
	(void)line;
	return len == 0;
}

/* What the serial read fixes at the first sample headers: the first event
 * type (unless one was given) and, for --timeline, the start of slice 0. */
static void find_first_event(struct perf_reader *r, struct input *file, uint64_t size,
			     uint64_t slice_ns)
{
	struct input *in = input__open_range(file, 0, size, 0);
	const char *line;
	size_t len;
	bool want_event = r->event.len == 0;
	while ((want_event || (slice_ns && !r->start_known)) &&
	       input__next_line(in, &line, &len) > 0) {
		struct span comm, pid, tid, period, ev;
		if (len == 0 || line[0] == '#' || !perf_line__header(line, len, &comm, &pid, &tid))
			continue;
		if (want_event && perf_line__event(line, len, &period, &ev)) {
			buf__append(&r->event, ev.p, ev.len);
			r->event_defaulted = true;
			want_event = false;
		}
		const char *after = tid.len ? tid.p + tid.len : pid.p + pid.len;
		uint64_t ns;
		if (slice_ns && !r->start_known &&
		    perf_line__time(line, len, (size_t)(after - line), &ns)) {
			r->start_ns = ns - ns % slice_ns;
			r->start_known = true;
		}
	}
	input__close(in);
}

/* --srcline (a blank line can be a source line) and --inline stay serial. */
static bool perf_prepare(void *reader, struct input *file, uint64_t size)
{
	struct perf_reader *r = reader;
	if (r->opt->srcline || r->opt->show_inline)
		return false;
	find_first_event(r, file, size, r->slice_ns);
	return true;
}

int perf_reader__read(struct read_context *ctx, struct input *const *inputs, size_t count,
		      struct profile *profile)
{
	static const struct perf_read_options defaults;
	static const struct parallel_ops ops = {
		.boundary = after_blank_line,
		.prepare = perf_prepare,
		.state_new = perf_state_new,
		.read = perf_read,
		.state_free = perf_state_free,
	};
	if (!ctx->options)
		ctx->options = &defaults;
	struct perf_reader reader = { .opt = ctx->options, .slice_ns = ctx->slice_ns };
	if (reader.opt->event_filter)
		buf__append(&reader.event, reader.opt->event_filter, strlen(reader.opt->event_filter));
	int err = parallel__read(ctx, inputs, count, &ops, &reader, profile);
	buf__free(&reader.event);
	/* what the values are: --weight's, or for the default what it added */
	bool periods = reader.opt->weight == PERF_WEIGHT_PERIOD ||
		       (reader.opt->weight == PERF_WEIGHT_PERL && reader.counted_period);
	profile__set_unit(profile, periods ? PROFILE_PERIODS : PROFILE_SAMPLES);
	if (ctx->slice_ns) {
		profile__set_time(profile, &(struct profile_time){ ctx->slice_ns, reader.start_ns });
		if (reader.early && err == 0)
			warning("%llu sample%s came before the first sample's time slice (the input "
				"is not in time order) and %s counted in that slice",
				(unsigned long long)reader.early, reader.early == 1 ? "" : "s",
				reader.early == 1 ? "was" : "were");
	}
	return err;
}

/* --- options --------------------------------------------------------------- */

enum {
	OPT_PID = READER_OPTION_FIRST, OPT_TID, OPT_KERNEL, OPT_JIT, OPT_ALL, OPT_ADDRS,
	OPT_INLINE, OPT_CONTEXT, OPT_SRCLINE, OPT_EVENT_FILTER, OPT_WEIGHT,
};

static const struct option perf_long_options[] = {
	{ "pid", no_argument, NULL, OPT_PID },
	{ "tid", no_argument, NULL, OPT_TID },
	{ "kernel", no_argument, NULL, OPT_KERNEL },
	{ "jit", no_argument, NULL, OPT_JIT },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "addrs", no_argument, NULL, OPT_ADDRS },
	{ "inline", no_argument, NULL, OPT_INLINE },
	{ "context", no_argument, NULL, OPT_CONTEXT },
	{ "srcline", no_argument, NULL, OPT_SRCLINE },
	{ "event-filter", required_argument, NULL, OPT_EVENT_FILTER },
	{ NULL, 0, NULL, 0 },
};

/* flamekit's own: stackcollapse-perf.pl has no such option */
static const struct option perf_own_long_options[] = {
	{ "weight", required_argument, NULL, OPT_WEIGHT },
	{ NULL, 0, NULL, 0 },
};

int perf_weight__parse(const char *arg, enum perf_weight *out)
{
	if (strcmp(arg, "samples") == 0)
		*out = PERF_WEIGHT_SAMPLES;
	else if (strcmp(arg, "period") == 0)
		*out = PERF_WEIGHT_PERIOD;
	else
		return error("--weight wants samples (each sample once) or period (the sum of "
			     "the samples' periods), not '%s'", arg);
	return 0;
}

static int parse_perf_option(void *options, int code, const char *arg)
{
	struct perf_read_options *p = options;
	switch (code) {
	case OPT_PID: p->include_pid = true; break;
	case OPT_TID: p->include_tid = true; break;
	case OPT_KERNEL: p->annotate_kernel = true; break;
	case OPT_JIT: p->annotate_jit = true; break;
	case OPT_ALL: p->annotate_kernel = p->annotate_jit = true; break;
	case OPT_ADDRS: p->include_addrs = true; break;
	case OPT_INLINE: p->show_inline = true; break;
	case OPT_CONTEXT: p->show_context = true; break;
	case OPT_SRCLINE: p->srcline = true; break;
	case OPT_EVENT_FILTER: p->event_filter = arg; break;
	case OPT_WEIGHT: return perf_weight__parse(arg, &p->weight);
	default:
		return error("unknown perf option %d", code);
	}
	return 0;
}

static int check_perf_options(const void *options)
{
	const struct perf_read_options *p = options;
	if (p->show_context && !p->show_inline)
		return error("--context adds source lines to --inline frames; add --inline");
	return 0;
}

const struct reader_options perf_reader_options = {
	.long_options = perf_long_options,
	.help =
		"  --pid               name processes comm-PID\n"
		"  --tid               name processes comm-PID/TID\n"
		"  --kernel            mark kernel frames with _[k]\n"
		"  --jit               mark JIT frames (/tmp/perf-PID.map) with _[j]\n"
		"  --all               --kernel and --jit\n"
		"  --addrs             show the address of frames without a symbol\n"
		"  --inline            expand inlined functions from the binaries' DWARF\n"
		"  --context           with --inline, add file:line to each function\n"
		"  --srcline           the input is `perf script -F+srcline`: add file:line\n"
		"  --event-filter=EV   collapse samples of event EV (default: the first seen)\n",
	.own_long_options = perf_own_long_options,
	.own_help =
		"  --weight=samples    count each sample once (the counts are \"samples\")\n"
		"  --weight=period     sum the samples' periods (the counts are \"periods\");\n"
		"                      a sample without one is an error (perf script -F +period)\n"
		"                      default: stackcollapse-perf.pl's sum, a sample's period\n"
		"                      if perf printed one, else 1 (\"periods\" if any had one)\n"
		"                      folded output has no unit: draw it with\n"
		"                      flamekit flamegraph --countname periods (or samples)\n",
	.names = "--pid, --tid, --kernel, ...",
	.input = "perf script text",
	.size = sizeof(struct perf_read_options),
	.parse = parse_perf_option,
	.check = check_perf_options,
};
