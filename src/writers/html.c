#include "html.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/json.h"
#include "../lib/perl_number.h"
#include "../lib/xalloc.h"
#include "folded.h"
#include "html_assets.h"

/* Appends a string literal. */
#define APPEND(b, literal) buf__append((b), (literal), sizeof(literal) - 1)

/* The prefix tree of the stacks: node 0 is the root. */
struct tree {
	uint32_t *parent;
	frame_id *frame;
	size_t count, cap;
	/* (parent, frame) -> node, open addressing; slot value 0 is empty */
	uint64_t *keys;
	uint32_t *nodes;
	size_t slots;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static void tree__grow_slots(struct tree *t)
{
	size_t slots = t->slots ? t->slots * 2 : 1024;
	uint64_t *keys = fk_calloc(slots, sizeof(*keys));
	uint32_t *nodes = fk_calloc(slots, sizeof(*nodes));
	for (size_t i = 0; i < t->slots; i++) {
		if (!t->nodes[i])
			continue;
		size_t at = mix(t->keys[i]) & (slots - 1);
		while (nodes[at])
			at = (at + 1) & (slots - 1);
		keys[at] = t->keys[i];
		nodes[at] = t->nodes[i];
	}
	free(t->keys);
	free(t->nodes);
	t->keys = keys;
	t->nodes = nodes;
	t->slots = slots;
}

static uint32_t tree__child(struct tree *t, uint32_t parent, frame_id frame)
{
	if (2 * (t->count + 1) > t->slots)
		tree__grow_slots(t);
	uint64_t key = (uint64_t)parent << 32 | frame;
	size_t at = mix(key) & (t->slots - 1);
	while (t->nodes[at]) {
		if (t->keys[at] == key)
			return t->nodes[at];
		at = (at + 1) & (t->slots - 1);
	}
	t->parent = fk_grow(t->parent, &t->cap, t->count + 1, sizeof(*t->parent));
	size_t cap = t->cap;
	t->frame = fk_realloc(t->frame, cap * sizeof(*t->frame));
	t->parent[t->count] = parent;
	t->frame[t->count] = frame;
	t->keys[at] = key;
	t->nodes[at] = (uint32_t)t->count;
	return (uint32_t)t->count++;
}

static const struct profile *sorting_profile;

static int compare_names(const void *a, const void *b)
{
	size_t la, lb;
	const char *x = profile__frame_name(sorting_profile, *(const frame_id *)a, &la);
	const char *y = profile__frame_name(sorting_profile, *(const frame_id *)b, &lb);
	int c = memcmp(x, y, la < lb ? la : lb);
	return c ? c : (la > lb) - (la < lb);
}

/* Each frame's place in the byte order of the names. */
static uint32_t *name_ranks(const struct profile *p)
{
	size_t n = profile__frame_count(p);
	frame_id *ids = fk_calloc(n ? n : 1, sizeof(*ids));
	uint32_t *rank = fk_calloc(n ? n : 1, sizeof(*rank));
	for (size_t i = 0; i < n; i++)
		ids[i] = (frame_id)i;
	sorting_profile = p;
	qsort(ids, n, sizeof(*ids), compare_names);
	for (size_t i = 0; i < n; i++)
		rank[ids[i]] = (uint32_t)i;
	free(ids);
	return rank;
}

static const uint32_t *sorting_rank;
static const frame_id *sorting_frames;

static int compare_children(const void *a, const void *b)
{
	uint32_t x = sorting_rank[sorting_frames[*(const uint32_t *)a]];
	uint32_t y = sorting_rank[sorting_frames[*(const uint32_t *)b]];
	return (x > y) - (x < y);
}

/* New ids: depth-first, children by name, the root 0. */
static uint32_t *depth_first(const struct tree *t, const uint32_t *rank)
{
	size_t n = t->count;
	uint32_t *first = fk_calloc(n + 1, sizeof(*first));
	uint32_t *kids = fk_calloc(n, sizeof(*kids));
	for (size_t i = 1; i < n; i++)
		first[t->parent[i] + 1]++;
	for (size_t i = 0; i < n; i++)
		first[i + 1] += first[i];
	uint32_t *fill = fk_calloc(n, sizeof(*fill));
	for (size_t i = 1; i < n; i++)
		kids[first[t->parent[i]] + fill[t->parent[i]]++] = (uint32_t)i;
	sorting_rank = rank;
	sorting_frames = t->frame;
	for (size_t i = 0; i < n; i++)
		qsort(kids + first[i], first[i + 1] - first[i], sizeof(*kids), compare_children);
	uint32_t *id = fk_calloc(n, sizeof(*id));
	uint32_t *stack = fill; /* reused: at most n nodes are pending */
	size_t top = 0, next = 0;
	stack[top++] = 0;
	while (top) {
		uint32_t node = stack[--top];
		id[node] = (uint32_t)next++;
		for (uint32_t k = first[node + 1]; k-- > first[node];)
			stack[top++] = kids[k];
	}
	free(first);
	free(kids);
	free(fill);
	return id;
}

struct entry {
	uint32_t slice, node;
	size_t index;
};

static int compare_entries(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	if (x->slice != y->slice)
		return x->slice < y->slice ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* Text for the page, as HTML. */
static void append_html_text(struct buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': APPEND(b, "&lt;"); break;
		case '>': APPEND(b, "&gt;"); break;
		case '&': APPEND(b, "&amp;"); break;
		case '"': APPEND(b, "&quot;"); break;
		default: buf__append_char(b, *s);
		}
	}
}

static void flush(struct buf *b, FILE *out)
{
	if (b->len >= (1 << 16)) {
		fwrite(b->data, 1, b->len, out);
		buf__reset(b);
	}
}

static void append_data(struct buf *b, FILE *out, const struct profile *p,
			const struct writer_options *options, const struct html_options *o)
{
	const size_t frames = profile__frame_count(p), size = profile__size(p);
	const unsigned columns = profile__columns(p);
	struct tree t = { 0 };
	uint32_t root = tree__child(&t, UINT32_MAX, 0); /* node 0 */
	uint32_t *leaf = fk_calloc(size ? size : 1, sizeof(*leaf));
	for (size_t i = 0; i < size; i++) {
		struct profile_stack s;
		profile__stack(p, i, &s);
		uint32_t node = root;
		for (uint32_t d = 0; d < s.depth; d++)
			node = tree__child(&t, node, s.frames[d]);
		leaf[i] = node;
	}
	uint32_t *rank = name_ranks(p);
	uint32_t *id = depth_first(&t, rank);
	free(rank);

	const char *palette = o && o->palette ? o->palette : "hot";
	const struct profile_time *time = profile__time(p);
	char ms[PERL_NUMBER_SIZE];
	APPEND(b, "{\"v\":1,\"title\":");
	const char *title = options && options->title ? options->title : NULL;
	json__append_string(b, title ? title : "", title ? strlen(title) : 0);
	const char *unit = options && options->count_name ? options->count_name
							  : profile_unit__name(profile__unit(p));
	if (size == 0 && options && options->empty_text) {
		APPEND(b, ",\"note\":");
		json__append_string(b, options->empty_text, strlen(options->empty_text));
	}
	APPEND(b, ",\"unit\":");
	json__append_string(b, unit, strlen(unit));
	APPEND(b, ",\"palette\":");
	json__append_string(b, palette, strlen(palette));
	buf__printf(b, ",\"colorblind\":%s,\"columns\":%u", o && o->colorblind ? "true" : "false",
		    columns);
	for (int side = 0; side < 2 && columns == 2; side++) {
		const char *name = o ? (side ? o->after_name : o->before_name) : NULL;
		if (side)
			APPEND(b, ",\"after\":");
		else
			APPEND(b, ",\"before\":");
		name = name ? name : side ? "after" : "before";
		json__append_string(b, name, strlen(name));
	}
	buf__printf(b, ",\"slice_ms\":%.*s,\"start_ns\":%" PRIu64,
		    (int)perl_number__string(ms, (double)time->slice_ns / 1e6), ms, time->start_ns);

	APPEND(b, ",\n\"names\":[");
	for (size_t f = 0; f < frames; f++) {
		size_t len;
		const char *name = profile__frame_name(p, (frame_id)f, &len);
		if (f)
			buf__append_char(b, ',');
		json__append_string(b, name, len);
		flush(b, out);
	}
	APPEND(b, "],\n\"colors\":\"");
	struct svg_color_source source = { .variation = o && o->variation == SVG_COLOR_HASH
								? SVG_COLOR_HASH : SVG_COLOR_SEEDED };
	for (size_t f = 0; f < frames; f++) {
		size_t len;
		const char *name = profile__frame_name(p, (frame_id)f, &len);
		char color[SVG_COLOR_SIZE];
		int r = 0, g = 0, bl = 0;
		svg_color__frame(palette, &source, name, len, color);
		if (sscanf(color, "rgb(%d,%d,%d)", &r, &g, &bl) != 3)
			r = g = bl = 0;
		buf__printf(b, "%02x%02x%02x", r & 255, g & 255, bl & 255);
		flush(b, out);
	}
	/* nodes in their new order */
	uint32_t *old = fk_calloc(t.count, sizeof(*old));
	for (size_t i = 0; i < t.count; i++)
		old[id[i]] = (uint32_t)i;
	APPEND(b, "\",\n\"up\":[");
	for (size_t i = 1; i < t.count; i++) {
		buf__printf(b, i > 1 ? ",%u" : "%u", (unsigned)(i - id[t.parent[old[i]]]));
		flush(b, out);
	}
	APPEND(b, "],\n\"fr\":[");
	for (size_t i = 1; i < t.count; i++) {
		buf__printf(b, i > 1 ? ",%u" : "%u", (unsigned)t.frame[old[i]]);
		flush(b, out);
	}
	free(old);

	struct entry *entries = fk_calloc(size ? size : 1, sizeof(*entries));
	for (size_t i = 0; i < size; i++) {
		struct profile_stack s;
		profile__stack(p, i, &s);
		entries[i] = (struct entry){ time->slice_ns ? s.key.slice : 0, id[leaf[i]], i };
	}
	qsort(entries, size, sizeof(*entries), compare_entries);
	APPEND(b, "],\n\"sl\":[");
	uint32_t last_slice = 0;
	for (size_t i = 0, runs = 0; i < size; runs++) {
		size_t j = i;
		while (j < size && entries[j].slice == entries[i].slice)
			j++;
		buf__printf(b, runs ? ",%u,%zu" : "%u,%zu", entries[i].slice - last_slice, j - i);
		last_slice = entries[i].slice;
		i = j;
	}
	APPEND(b, "],\n\"nd\":[");
	for (size_t i = 0; i < size; i++) {
		bool first = i == 0 || entries[i].slice != entries[i - 1].slice;
		uint32_t delta = entries[i].node - (first ? 0 : entries[i - 1].node);
		buf__printf(b, i ? ",%u" : "%u", delta);
		flush(b, out);
	}
	for (unsigned c = 0; c < columns; c++) {
		if (c)
			APPEND(b, "],\n\"c2\":[");
		else
			APPEND(b, "],\n\"c\":[");
		for (size_t i = 0; i < size; i++) {
			struct profile_stack s;
			profile__stack(p, entries[i].index, &s);
			if (i)
				buf__append_char(b, ',');
			folded_writer__append_value(b, profile__value_type(p), s.values[c]);
			flush(b, out);
		}
	}
	APPEND(b, "]}");
	free(entries);
	free(id);
	free(leaf);
	free(t.parent);
	free(t.frame);
	free(t.keys);
	free(t.nodes);
}

int html_writer__write(const struct profile *profile, FILE *out,
		       const struct writer_options *options)
{
	const struct html_options *o = options ? options->format : NULL;
	struct buf b = BUF_INIT;
	const char *title = options && options->title ? options->title : "Flame Graph";
	buf__printf(&b, "%s", "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
			      "<meta name=\"generator\" content=\"flamekit view\">\n<title>");
	append_html_text(&b, title);
	buf__printf(&b, "</title>\n<style>\n%s</style>\n</head><body>\n"
			"<script type=\"application/json\" id=\"flamekit-data\">", html_style_css);
	append_data(&b, out, profile, options, o);
	buf__printf(&b, "</script>\n<script>\n%s</script>\n</body></html>\n", html_script_js);
	fwrite(b.data, 1, b.len, out);
	buf__free(&b);
	return profile__size(profile) ? 0 : 1;
}
