#include "suggest.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

enum { MAX_NAME = 64, MAX_EDITS = 2 };

/* Edits from a to b (optimal string alignment distance), case ignored;
 * names longer than MAX_NAME are too far from anything. */
static unsigned edit_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > MAX_NAME || m > MAX_NAME)
		return MAX_NAME;
	unsigned d[MAX_NAME + 1][MAX_NAME + 1];
	for (size_t i = 0; i <= n; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			int ai = tolower((unsigned char)a[i - 1]), bj = tolower((unsigned char)b[j - 1]);
			unsigned best = d[i - 1][j - 1] + (ai != bj);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ai == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == bj && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[n][m];
}

void suggestion__init(struct suggestion *s, const char *typed)
{
	*s = (struct suggestion){ .typed = typed, .distance = MAX_EDITS + 1 };
}

void suggestion__offer(struct suggestion *s, const char *name)
{
	size_t typed_len = strlen(s->typed);
	unsigned d = edit_distance(s->typed, name);
	/* "flame" for flamegraph: the start of a name is one edit away */
	if (d > 1 && typed_len >= 2 && strncasecmp(name, s->typed, typed_len) == 0)
		d = 1;
	if (d < s->distance && 2 * d < typed_len) {
		s->best = name;
		s->distance = d;
	}
}

const char *suggestion__best(const struct suggestion *s)
{
	return s->best;
}
