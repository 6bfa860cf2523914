/*
 * SystemTap backtraces, collapsed as stackcollapse-stap.pl does: frames
 * "ADDR : symbol+off/size [module]" leaf first, each stack ended by a line
 * holding only its count. A frame keeps what follows the last " : ", cut at
 * its last '+'; an empty frame becomes "-". Perl prints each line through
 * printf, which the stap personality reproduces in the writer.
 */
#include "stap.h"

#include "perl_text.h"
#include "stack_builder.h"

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

int stap_reader__read(struct read_context *ctx, struct input *const *inputs, size_t count,
		      struct profile *profile)
{
	(void)ctx;
	struct stack_builder sb;
	stack_builder__init(&sb, profile);
	int err = 0;
	for (size_t i = 0; i < count && !err; i++) {
		const char *p;
		size_t len;
		int r;
		while ((r = input__next_line(inputs[i], &p, &len)) > 0) {
			struct span line = { p, len };
			uint64_t n;
			if (perl_count_line(line, &n)) {
				stack_builder__commit(&sb, n);
				continue;
			}
			if (perl_blank_line(line))
				continue;
			struct span f = trim_leading_space(line);
			const char *plus = memrchr(f.p, '+', f.len);  /* s/\+[^+]*$// */
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
			stack_builder__unshift_split(&sb, f.p, f.len);
		}
		err = r < 0 ? -1 : 0;
	}
	stack_builder__release(&sb);
	return err;
}
