#include "reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/error.h"
#include "../lib/xalloc.h"
#include "bcc.h"
#include "bpftrace.h"
#include "dtrace.h"
#include "folded.h"
#include "perf.h"
#include "perf_folded.h"
#include "pprof.h"
#include "stap.h"

const struct reader readers[] = {
	{ .name = "perf", .summary = "perf script text (perf record -g; perf script)",
	  .probe = perf_reader__probe, .read = perf_reader__read, .options = &perf_reader_options,
	  .timeline = true },
	{ .name = "perf-folded", .summary = "perf report -g folded output",
	  .probe = perf_folded_reader__probe, .read = perf_folded_reader__read },
	{ .name = "stap", .summary = "SystemTap print_backtrace()/print_ubacktrace() aggregations",
	  .probe = stap_reader__probe, .read = stap_reader__read },
	{ .name = "dtrace", .summary = "DTrace ustack()/stack() aggregations",
	  .probe = dtrace_reader__probe, .read = dtrace_reader__read },
	{ .name = "bpftrace", .summary = "bpftrace maps keyed by kstack, ustack and comm",
	  .probe = bpftrace_reader__probe, .read = bpftrace_reader__read },
	{ .name = "bcc", .summary = "bcc profile's report (stacks leaf first, \"- comm (pid)\", count)",
	  .probe = bcc_reader__probe, .read = bcc_reader__read },
	{ .name = "pprof",
	  .summary = "pprof's profile.proto, gzipped or not (Go's runtime/pprof, perf_to_profile, ...)",
	  .probe = pprof_reader__probe, .read = pprof_reader__read, .options = &pprof_reader_options,
	  .binary = true },
	{ .name = "timed", .summary = "timed folded stacks (frame;frame;... COUNT @SECONDS, per time slice)",
	  .probe = timed_reader__probe, .read = timed_reader__read },
	{ .name = "folded", .summary = "folded stacks (frame;frame;... COUNT)",
	  .probe = folded_reader__probe, .read = folded_reader__read, .values = PROFILE_DECIMAL },
	{ .name = NULL },
};

const struct reader *reader__find(const char *name)
{
	for (const struct reader *r = readers; r->name; r++)
		if (strcmp(r->name, name) == 0)
			return r;
	return NULL;
}

struct profile *reader__new_profile(const struct reader *r)
{
	struct profile *p = profile__new(1, r->values);
	profile__set_unit(p, r->unit);
	return p;
}

static bool lists_option(const struct option *rows, int code)
{
	for (const struct option *o = rows; o && o->name; o++)
		if (o->val == code)
			return true;
	return false;
}

const struct reader *reader__owning_option(int code)
{
	for (const struct reader *r = readers; r->name; r++)
		if (r->options && (lists_option(r->options->long_options, code) ||
				   lists_option(r->options->own_long_options, code)))
			return r;
	return NULL;
}

static size_t count_rows(const struct option *rows)
{
	size_t n = 0;
	while (rows && rows[n].name)
		n++;
	return n;
}

struct option *reader__long_options(const struct option *own, const struct reader *only,
				    bool perl_only)
{
	size_t n = count_rows(own);
	for (const struct reader *r = readers; r->name; r++)
		if ((!only || r == only) && r->options)
			n += count_rows(r->options->long_options) +
			     (perl_only ? 0 : count_rows(r->options->own_long_options));
	struct option *table = fk_calloc(n + 1, sizeof(*table));
	size_t at = count_rows(own);
	memcpy(table, own, at * sizeof(*table));
	for (const struct reader *r = readers; r->name; r++) {
		if ((only && r != only) || !r->options)
			continue;
		const struct option *parts[] = { r->options->long_options,
						 perl_only ? NULL : r->options->own_long_options };
		for (size_t i = 0; i < 2; i++) {
			size_t rows = count_rows(parts[i]);
			if (rows)
				memcpy(table + at, parts[i], rows * sizeof(*table));
			at += rows;
		}
	}
	return table;
}

/* The surest reader for the input's first bytes, NULL if none is sure
 * enough; *head and *len are those bytes. -1 on a read error (printed). */
static int probe_input(struct input *in, const struct reader **found, const char **head_out,
		       size_t *len_out)
{
	const char *head;
	size_t len;
	*found = NULL;
	if (input__peek(in, PROBE_BYTES, &head, &len) < 0)
		return -1;
	*head_out = head;
	*len_out = len;
	/* Probes see whole lines: cut a full window at its last line end; the
	 * whole of a short input gets the line end its last line may lack. */
	size_t whole = len;
	if (len == PROBE_BYTES) {
		const char *last_nl = memrchr(head, '\n', len);
		whole = last_nl ? (size_t)(last_nl - head) + 1 : len;
	}
	char *text = fk_malloc(whole + 1);
	memcpy(text, head, whole);
	if (whole > 0 && text[whole - 1] != '\n')
		text[whole++] = '\n';
	const struct reader *best = NULL;
	int best_score = 0;
	for (const struct reader *r = readers; r->name; r++) {
		if (r->binary)
			continue;
		int score = r->probe(text, whole);
		if (score > best_score) {
			best = r;
			best_score = score;
		}
	}
	free(text);
	if (best && best_score >= PROBE_MINIMUM)
		*found = best;
	return 0;
}

/* Says what the guesser tried and what it saw; the input fits no format. */
static void explain_no_format(struct input *in, const char *head, size_t len)
{
	char quoted[120];
	const char *nl = memchr(head, '\n', len);
	error("cannot tell the format of %s: it does not look like any of", input__name(in));
	for (const struct reader *r = readers; r->name; r++)
		fprintf(stderr, "  %-12s %s\n", r->name, r->summary);
	if (len == 0)
		fprintf(stderr, "it is empty.\n");
	else
		fprintf(stderr, "its first line is \"%s\".\n",
			quote_for_message(quoted, sizeof(quoted), head, nl ? (size_t)(nl - head) : len));
	fprintf(stderr, "Name the format: flamekit collapse FORMAT %s\n", input__name(in));
}

/* "profiler text (perf, perf-folded, ... or folded) or pprof": what the
 * guesser expects of an input before it has picked a reader. */
static void describe_any_format(struct buf *out)
{
	size_t text = 0, listed = 0;
	for (const struct reader *r = readers; r->name; r++)
		text += !r->binary;
	buf__append(out, "profiler text (", 15);
	for (const struct reader *r = readers; r->name; r++)
		if (!r->binary) {
			listed++;
			buf__printf(out, "%s%s", listed == 1 ? "" : listed < text ? ", " : " or ",
				    r->name);
		}
	buf__append_char(out, ')');
	for (const struct reader *r = readers; r->name; r++)
		if (r->binary)
			buf__printf(out, " or %s", r->name);
}

const struct reader *reader__binary_format(struct input *in)
{
	const char *head;
	size_t len;
	if (input__peek(in, PROBE_BYTES, &head, &len) < 0)
		return NULL;
	for (const struct reader *r = readers; r->name; r++)
		if (r->binary && r->probe(head, len) >= PROBE_MINIMUM)
			return r;
	return NULL;
}

const struct reader *reader__choose(struct input *const *inputs, size_t count,
				    const struct reader *named, const struct reader *fallback)
{
	const struct reader *chosen = named ? named : reader__binary_format(inputs[0]);
	if (!chosen) {
		struct buf expected = BUF_INIT;
		describe_any_format(&expected);
		int is_text = reader__check_text(inputs[0], expected.data);
		buf__free(&expected);
		const char *head;
		size_t len;
		if (is_text < 0 || probe_input(inputs[0], &chosen, &head, &len) < 0)
			return NULL;
		if (!chosen)
			chosen = fallback;
		if (!chosen) {
			explain_no_format(inputs[0], head, len);
			return NULL;
		}
	}
	for (size_t i = named ? 0 : 1; i < count; i++) /* a guessed one was checked */
		if (!chosen->binary && reader__check_text(inputs[i], chosen->summary) < 0)
			return NULL;
	return chosen;
}
