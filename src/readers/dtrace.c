/*
 * DTrace aggregations of ustack()/stack(), collapsed as stackcollapse.pl
 * does: the first three lines of the input are a header; frames come leaf
 * first, each stack ended by its count line. A frame is cut at its last
 * '+' (the offset), C++ argument lists after "::" are removed, "a->b"
 * (inlined) gives a and b_[i], Java's leading L and ';' are tidied.
 */
#include "dtrace.h"

#include <stdlib.h>

#include "../lib/buf.h"
#include "../lib/xalloc.h"
#include "aggregation.h"
#include "group_cache.h"

#define HEADER_LINES 3

/* Perl's s/(::.*)[(<].* /$1/ (without the space): after the first "::",
 * cut at the last '(' or '<'. */
static struct span cut_cxx_arguments(struct span f)
{
	const char *scope = find_bytes(f.p, f.len, "::", 2);
	if (!scope)
		return f;
	size_t from = (size_t)(scope - f.p) + 2;
	for (size_t k = f.len; k > from; k--) {
		if (f.p[k - 1] == '(' || f.p[k - 1] == '<') {
			f.len = k - 1;
			break;
		}
	}
	return f;
}

/* dtrace's "CPU     ID    FUNCTION:NAME" header, module`function frames
 * and count lines. */
int dtrace_reader__probe(const char *head, size_t len)
{
	const char *p = head, *end = head + len;
	struct span line;
	bool header = false;
	unsigned frames = 0, counts = 0, other = 0;
	uint64_t n;
	while (next_head_line(&p, end, &line)) {
		struct span s = trim_leading_space(line);
		if (s.len == 0)
			continue;
		if (s.len > 6 && memcmp(s.p, "CPU ", 4) == 0 && find_bytes(s.p, s.len, " ID ", 4))
			header = true;
		else if (perl_count_line(line, &n))
			counts++;
		else if (memchr(s.p, '`', s.len) && !find_bytes(s.p, s.len, " : ", 3))
			frames++;
		else
			other++;
	}
	if (frames && counts && other <= (frames + counts) / 4 + 3)
		return header ? 90 : 80;
	return header ? 70 : 0;
}

struct dtrace_state {
	struct spans pieces;
	struct buf func;
	struct group_cache cache; /* frame line (offset cut) -> its group */
};

static void dtrace_frame(void *state, struct stack_builder *sb, struct span line)
{
	struct dtrace_state *st = state;
	struct span f = trim_leading_space(line);
	const char *plus = memrchr(f.p, '+', f.len);
	if (plus)
		f.len = (size_t)(plus - f.p);
	/* everything below depends on f alone */
	size_t slot;
	struct span none = { "", 0 };
	uint64_t hash = group_cache__hash(f, none, 0);
	const struct cached_group *hit = group_cache__find(&st->cache, hash, f, none, 0, &slot);
	if (hit) {
		stack_builder__add_ids(sb, group_cache__ids(&st->cache, hit), hit->count);
		return;
	}
	struct span key = f;
	f = cut_cxx_arguments(f);
	if (f.len == 0)
		f = (struct span){ "-", 1 };
	perl_split(&st->pieces, f, "->");
	stack_builder__group_begin(sb);
	for (size_t k = 0; k < st->pieces.n; k++) {
		struct span piece = st->pieces.v[k];
		buf__reset(&st->func);
		buf__append(&st->func, piece.p, piece.len);
		for (size_t c = 0; c < st->func.len; c++) /* tr/;/:/ */
			if (st->func.data[c] == ';')
				st->func.data[c] = ':';
		size_t skip = st->func.len > 0 && st->func.data[0] == 'L'; /* s/^L// */
		if (k > 0)
			buf__append(&st->func, "_[i]", 4);
		stack_builder__add(sb, st->func.data + skip, st->func.len - skip);
	}
	stack_builder__group_end(sb);
	size_t n_ids;
	const frame_id *ids = stack_builder__group_ids(sb, &n_ids);
	group_cache__add(&st->cache, slot, hash, key, none, 0, ids, n_ids);
}

static void *dtrace_state_new(void)
{
	struct dtrace_state *st = fk_calloc(1, sizeof(*st));
	group_cache__init(&st->cache);
	return st;
}

static void dtrace_state_free(void *state)
{
	struct dtrace_state *st = state;
	buf__free(&st->func);
	free(st->pieces.v);
	group_cache__release(&st->cache);
	free(st);
}

int dtrace_reader__read(struct read_context *ctx, struct input *const *inputs, size_t count,
			struct profile *profile)
{
	static const struct aggregation_format dtrace = {
		HEADER_LINES, dtrace_frame, dtrace_state_new, dtrace_state_free
	};
	return aggregation__read(&dtrace, ctx, inputs, count, profile);
}
