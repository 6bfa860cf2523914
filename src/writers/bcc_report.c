#include "bcc_report.h"

#include <inttypes.h>
#include <stdlib.h>

#include "../lib/xalloc.h"

/* Stable: equal counts keep the folded-line order they came in. */
static void sort_by_count(const struct profile *p, size_t *order, size_t *tmp, size_t n)
{
	if (n < 2)
		return;
	size_t half = n / 2;
	sort_by_count(p, order, tmp, half);
	sort_by_count(p, order + half, tmp, n - half);
	size_t i = 0, j = half, k = 0;
	while (i < half && j < n) {
		struct profile_stack a, b;
		profile__stack(p, order[i], &a);
		profile__stack(p, order[j], &b);
		tmp[k++] = b.values[0].integer > a.values[0].integer ? order[j++] : order[i++];
	}
	while (i < half)
		tmp[k++] = order[i++];
	while (j < n)
		tmp[k++] = order[j++];
	for (k = 0; k < n; k++)
		order[k] = tmp[k];
}

static void put_frame(const struct profile *p, frame_id id, FILE *out)
{
	size_t len;
	const char *name = profile__frame_name(p, id, &len);
	fputs("    ", out);
	if (len == 1 && name[0] == '-')
		fputs("--", out);
	else
		fwrite(name, 1, len, out);
	fputc('\n', out);
}

int bcc_report_writer__write(const struct profile *p, FILE *out,
			     const struct writer_options *options)
{
	size_t n = profile__size(p);
	size_t *order = profile__sorted(p);
	size_t *tmp = fk_malloc((n ? n : 1) * sizeof(*tmp));

	sort_by_count(p, order, tmp, n);
	if (options && options->title)
		fprintf(out, "%s\n\n", options->title);
	/* bcc's own messages in the report begin so (and collapse bcc skips them) */
	if (n == 0 && options && options->empty_text)
		fprintf(out, "WARNING: %s\n", options->empty_text);
	for (size_t i = 0; i < n; i++) {
		struct profile_stack s;
		profile__stack(p, order[i], &s);
		for (uint32_t d = s.depth; d > 1; d--)
			put_frame(p, s.frames[d - 1], out);
		size_t len = 0;
		const char *comm = s.depth ? profile__frame_name(p, s.frames[0], &len) : "";
		fprintf(out, "    %-16s %.*s (%" PRIu32 ")\n", "-", (int)len, comm, s.key.pid);
		fprintf(out, "        %" PRIu64 "\n\n", s.values[0].integer);
	}
	free(tmp);
	free(order);
	return 0;
}
