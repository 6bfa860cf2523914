#include "folded.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/error.h"
#include "../readers/folded.h"
#include "../lib/perl_number.h"
#include "../lib/xalloc.h"
#include "perl_printf.h"

void folded_writer__append_value(struct buf *b, enum profile_value_type type,
				 union profile_value v)
{
	if (type == PROFILE_INTEGER) {
		char digits[24];
		size_t n = 0;
		uint64_t x = v.integer;
		do {
			digits[n++] = (char)('0' + x % 10);
			x /= 10;
		} while (x);
		buf__reserve(b, n);
		while (n)
			b->data[b->len++] = digits[--n];
		b->data[b->len] = '\0';
	} else {
		char text[PERL_NUMBER_SIZE];
		buf__append(b, text, perl_number__string(text, v.decimal));
	}
}

/* "frame;frame;... COUNT" (no line end), with `values` as the counts. */
static void append_line(struct buf *b, const struct profile *profile,
			const struct profile_stack *s, const union profile_value *values)
{
	for (uint32_t d = 0; d < s->depth; d++) {
		size_t len;
		const char *name = profile__frame_name(profile, s->frames[d], &len);
		if (d)
			buf__append_char(b, ';');
		buf__append(b, name, len);
	}
	for (unsigned c = 0; c < profile__columns(profile); c++) {
		buf__append_char(b, ' ');
		folded_writer__append_value(b, profile__value_type(profile), values[c]);
	}
}

static bool same_frames(const struct profile_stack *a, const struct profile_stack *b)
{
	return a->depth == b->depth &&
	       memcmp(a->frames, b->frames, a->depth * sizeof(*a->frames)) == 0;
}

/* Runs the line in b from `start` through Perl's printf, warning as Perl does. */
static void apply_perl_printf(struct buf *b, size_t start, struct buf *scratch,
			      struct buf *warnings, const struct folded_write_options *o)
{
	buf__reset(scratch);
	buf__reset(warnings);
	perl_printf_noargs(scratch, warnings, b->data + start, b->len - start);
	b->len = start;
	buf__append(b, scratch->data, scratch->len);
	for (size_t at = 0; at < warnings->len;) {
		const char *nl = memchr(warnings->data + at, '\n', warnings->len - at);
		size_t n = (size_t)(nl - (warnings->data + at));
		fprintf(stderr, "%.*s at %s line %u, <> line %llu.\n", (int)n, warnings->data + at,
			o->perl_tool, o->perl_tool_line, (unsigned long long)o->input_lines);
		at += n + 1;
	}
}

int folded_writer__write(const struct profile *profile, FILE *out,
			 const struct writer_options *options)
{
	const struct folded_write_options *o = options ? options->format : NULL;
	struct buf scratch = BUF_INIT, warnings = BUF_INIT;
	size_t *order = profile__sorted(profile);
	const bool merge_keys = profile__order(profile) == PROFILE_MERGE;
	struct buf b = BUF_INIT;
	buf__reserve(&b, 1 << 16);
	for (size_t i = 0; i < profile__size(profile); i++) {
		struct profile_stack s;
		size_t line_start = b.len;
		union profile_value sum[PROFILE_MAX_COLUMNS];
		profile__stack(profile, order[i], &s);
		memcpy(sum, s.values, profile__columns(profile) * sizeof(*sum));
		/* one stack under several keys (time slices, processes) is one
		 * line; they sort next to each other */
		while (merge_keys && i + 1 < profile__size(profile)) {
			struct profile_stack next;
			profile__stack(profile, order[i + 1], &next);
			if (!same_frames(&s, &next))
				break;
			profile__sum_values(profile, sum, next.values);
			i++;
		}
		append_line(&b, profile, &s, sum);
		buf__append_char(&b, '\n');
		if (o && o->perl_printf)
			apply_perl_printf(&b, line_start, &scratch, &warnings, o);
		if (b.len >= (1 << 16)) {
			fwrite(b.data, 1, b.len, out);
			buf__reset(&b);
		}
	}
	fwrite(b.data, 1, b.len, out);
	buf__free(&b);
	buf__free(&scratch);
	buf__free(&warnings);
	free(order);
	return 0;
}

/* Entries by slice, then in the folded writer's order (rank). */
struct timed_entry {
	uint32_t slice;
	size_t rank, index;
};

static int compare_timed(const void *a, const void *b)
{
	const struct timed_entry *x = a, *y = b;
	if (x->slice != y->slice)
		return x->slice < y->slice ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* "12.340": enough decimals for the slice's length to show. */
static void append_seconds(struct buf *b, uint64_t ns, uint64_t slice_ns)
{
	int decimals = slice_ns % 1000000 == 0 ? 3 : slice_ns % 1000 == 0 ? 6 : 9;
	uint64_t unit = decimals == 3 ? 1000000 : decimals == 6 ? 1000 : 1;
	buf__printf(b, " @%" PRIu64 ".%0*" PRIu64, ns / 1000000000, decimals,
		    ns % 1000000000 / unit);
}

int timed_writer__write(const struct profile *profile, FILE *out,
			const struct writer_options *options)
{
	(void)options;
	const struct profile_time *time = profile__time(profile);
	if (time->slice_ns == 0)
		return error("the profile has no time slices to write as timed folded stacks; "
			     "write .folded instead");
	size_t n = profile__size(profile);
	size_t *order = profile__sorted(profile);
	struct timed_entry *entries = fk_calloc(n ? n : 1, sizeof(*entries));
	for (size_t i = 0; i < n; i++) {
		struct profile_stack s;
		profile__stack(profile, order[i], &s);
		entries[i] = (struct timed_entry){ s.key.slice, i, order[i] };
	}
	free(order);
	qsort(entries, n, sizeof(*entries), compare_timed);

	struct buf b = BUF_INIT;
	char ms[PERL_NUMBER_SIZE];
	buf__printf(&b, TIMED_FOLDED_HEADER " slice_ms=%.*s start_ns=%" PRIu64 "\n",
		    (int)perl_number__string(ms, (double)time->slice_ns / 1e6), ms, time->start_ns);
	for (size_t i = 0; i < n;) {
		struct profile_stack s, next;
		union profile_value sum[PROFILE_MAX_COLUMNS];
		profile__stack(profile, entries[i].index, &s);
		memcpy(sum, s.values, profile__columns(profile) * sizeof(*sum));
		/* the same stack in one slice from several processes: one line */
		size_t j = i + 1;
		for (; j < n && entries[j].slice == entries[i].slice; j++) {
			profile__stack(profile, entries[j].index, &next);
			if (!same_frames(&s, &next))
				break;
			profile__sum_values(profile, sum, next.values);
		}
		append_line(&b, profile, &s, sum);
		append_seconds(&b, (uint64_t)s.key.slice * time->slice_ns, time->slice_ns);
		buf__append_char(&b, '\n');
		if (b.len >= (1 << 16)) {
			fwrite(b.data, 1, b.len, out);
			buf__reset(&b);
		}
		i = j;
	}
	fwrite(b.data, 1, b.len, out);
	buf__free(&b);
	free(entries);
	return 0;
}
