/*
 * SystemTap backtraces, collapsed as stackcollapse-stap.pl does: frames
 * "ADDR : symbol+off/size [module]" leaf first, each stack ended by a line
 * holding only its count. A frame keeps what follows the last " : ", cut at
 * its last '+'; an empty frame becomes "-". Perl prints each line through
 * printf, which the stap personality reproduces in the writer.
 */
#include "stap.h"

#include "aggregation.h"

/* Frames "0xADDR : symbol+off/size [module]" and count lines. */
int stap_reader__probe(const char *head, size_t len)
{
	const char *p = head, *end = head + len;
	struct span line;
	unsigned frames = 0, counts = 0, other = 0;
	uint64_t n;
	while (next_head_line(&p, end, &line)) {
		struct span s = trim_leading_space(line);
		if (s.len == 0)
			continue;
		if (perl_count_line(line, &n))
			counts++;
		else if (s.len > 5 && s.p[0] == '0' && s.p[1] == 'x' && find_bytes(s.p, s.len, " : ", 3))
			frames++;
		else
			other++;
	}
	if (frames == 0 || other > frames / 4)
		return 0;
	return counts ? 90 : 60;
}

/* One frame: what follows the last " : ", cut at the last '+'; "" is "-". */
static void stap_frame(void *unused, struct stack_builder *sb, struct span line)
{
	(void)unused;
	struct span f = trim_leading_space(line);
	const char *plus = memrchr(f.p, '+', f.len); /* s/\+[^+]*$// */
	if (plus)
		f.len = (size_t)(plus - f.p);
	/* s/.* : // — from the last " : " on */
	for (size_t limit = f.len; limit >= 2;) {
		const char *colon = memrchr(f.p + 1, ':', limit - 2);
		if (!colon)
			break;
		size_t k = (size_t)(colon - f.p);
		if (f.p[k - 1] == ' ' && f.p[k + 1] == ' ') {
			f.p += k + 2;
			f.len -= k + 2;
			break;
		}
		limit = k + 1;
	}
	if (f.len == 0)
		f = (struct span){ "-", 1 };
	stack_builder__unshift(sb, f.p, f.len);
}

int stap_reader__read(struct read_context *ctx, struct input *const *inputs, size_t count,
		      struct profile *profile)
{
	static const struct aggregation_format stap = { 0, stap_frame, NULL, NULL };
	return aggregation__read(&stap, ctx, inputs, count, profile);
}
