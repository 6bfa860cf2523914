#include "speedscope.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/error.h"
#include "../lib/json.h"
#include "../lib/xalloc.h"
#include "../profile/pprof_names.h"
#include "folded.h"
#include "process_groups.h"

#define APPEND(b, literal) buf__append((b), (literal), sizeof(literal) - 1)

struct ordered_entry {
	uint32_t group;
	uint32_t slice;
	size_t rank;    /* in the folded writer's order */
	size_t index;
};

static int compare_ordered(const void *a, const void *b)
{
	const struct ordered_entry *x = a, *y = b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->slice != y->slice)
		return x->slice < y->slice ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* speedscope's units are pprof's but "none" for counts */
static const char *speedscope_unit(enum profile_unit unit)
{
	const char *name = pprof_names__unit(unit);
	return strcmp(name, "count") == 0 ? "none" : name;
}

static void flush(struct buf *b, FILE *out)
{
	if (b->len >= (1 << 16)) {
		fwrite(b->data, 1, b->len, out);
		buf__reset(b);
	}
}

static void append_group_name(struct buf *b, const struct profile *p,
			      const struct process_group *g, const char *whole)
{
	struct buf name = BUF_INIT;
	size_t len;
	if (g->comm != NO_COMM) {
		const char *comm = profile__frame_name(p, g->comm, &len);
		buf__append(&name, comm, len);
	}
	if (g->pid)
		buf__printf(&name, g->comm != NO_COMM ? " (%u)" : "pid %u", g->pid);
	if (!name.len)
		buf__append(&name, whole, strlen(whole));
	json__append_string(b, name.data, name.len);
	buf__free(&name);
}

int speedscope_writer__write(const struct profile *p, FILE *out,
			     const struct writer_options *options)
{
	if (profile__columns(p) != 1)
		return error("speedscope's profiles hold one weight per sample: a difference of "
			     "two profiles cannot be written for it; write it as folded stacks");
	const size_t n = profile__size(p);
	const bool timed = profile__time(p)->slice_ns != 0;
	struct process_groups groups;
	process_groups__init(&groups, p);

	size_t *sorted = profile__sorted(p);
	struct ordered_entry *entries = fk_calloc(n ? n : 1, sizeof(*entries));
	for (size_t i = 0; i < n; i++) {
		struct profile_stack s;
		profile__stack(p, sorted[i], &s);
		entries[i] = (struct ordered_entry){ groups.of_entry[sorted[i]],
						     timed ? s.key.slice : 0, i, sorted[i] };
	}
	free(sorted);
	qsort(entries, n, sizeof(*entries), compare_ordered);

	/* the frames the stacks use, numbered in the order they first appear */
	size_t frames = profile__frame_count(p), used = 0;
	uint32_t *number = fk_calloc(frames ? frames : 1, sizeof(*number));
	frame_id *in_order = fk_calloc(frames ? frames : 1, sizeof(*in_order));
	for (size_t i = 0; i < n; i++) {
		struct profile_stack s;
		profile__stack(p, entries[i].index, &s);
		for (uint32_t d = 0; d < s.depth; d++)
			if (!number[s.frames[d]]) {
				in_order[used] = s.frames[d];
				number[s.frames[d]] = (uint32_t)++used;
			}
	}

	struct buf b = BUF_INIT;
	APPEND(&b, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
		   "\"exporter\":\"flamekit@" FLAMEKIT_VERSION "\"");
	if (options && options->title) {
		APPEND(&b, ",\"name\":");
		json__append_string(&b, options->title, strlen(options->title));
	}
	APPEND(&b, ",\n\"shared\":{\"frames\":[");
	for (size_t f = 0; f < used; f++) {
		size_t len;
		const char *name = profile__frame_name(p, in_order[f], &len);
		const char *file = pprof_names__mapping(profile__frame_kind(p, in_order[f]));
		if (f)
			APPEND(&b, ",\n");
		APPEND(&b, "{\"name\":");
		json__append_string(&b, name, len);
		if (file) {
			APPEND(&b, ",\"file\":");
			json__append_string(&b, file, strlen(file));
		}
		buf__append_char(&b, '}');
		flush(&b, out);
	}
	APPEND(&b, "]},\n\"profiles\":[");

	const char *whole = options && options->title ? options->title : "all";
	/* an empty profile is still one profile, for speedscope to open */
	const struct process_group none = { 0, NO_COMM };
	const size_t profiles = groups.count ? groups.count : 1;
	double *totals = fk_calloc(profiles, sizeof(*totals));
	for (size_t i = 0, g = 0; g < profiles; g++) {
		size_t first = i;
		union profile_value total = { 0 };
		for (; i < n && entries[i].group == g; i++) {
			struct profile_stack s;
			profile__stack(p, entries[i].index, &s);
			profile__sum_values(p, &total, s.values);
		}
		totals[g] = profile__value_double(p, total);
		if (g)
			APPEND(&b, ",\n");
		APPEND(&b, "{\"type\":\"sampled\",\"name\":");
		append_group_name(&b, p, groups.count ? &groups.groups[g] : &none, whole);
		buf__printf(&b, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":",
			    speedscope_unit(profile__unit(p)));
		folded_writer__append_value(&b, profile__value_type(p), total);
		APPEND(&b, ",\n\"samples\":[");
		for (size_t k = first; k < i; k++) {
			struct profile_stack s;
			profile__stack(p, entries[k].index, &s);
			if (k > first)
				buf__append_char(&b, ',');
			buf__append_char(&b, '[');
			for (uint32_t d = 0; d < s.depth; d++)
				buf__printf(&b, d ? ",%u" : "%u", number[s.frames[d]] - 1);
			buf__append_char(&b, ']');
			flush(&b, out);
		}
		APPEND(&b, "],\n\"weights\":[");
		for (size_t k = first; k < i; k++) {
			struct profile_stack s;
			profile__stack(p, entries[k].index, &s);
			if (k > first)
				buf__append_char(&b, ',');
			folded_writer__append_value(&b, profile__value_type(p), s.values[0]);
			flush(&b, out);
		}
		APPEND(&b, "]}");
	}
	size_t biggest = 0;
	for (size_t g = 1; g < profiles; g++)
		if (totals[g] > totals[biggest])
			biggest = g;
	buf__printf(&b, "],\n\"activeProfileIndex\":%zu}\n", biggest);
	fwrite(b.data, 1, b.len, out);
	buf__free(&b);
	free(totals);
	free(number);
	free(in_order);
	free(entries);
	process_groups__release(&groups);
	return 0;
}
