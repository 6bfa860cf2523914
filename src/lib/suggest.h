/*
 * "Did you mean ...?" for a mistyped name (a command, an option, a format):
 * offer each known name in turn; the best is the closest by edit distance
 * (an insertion, deletion, substitution or swap of neighbours is 1 edit,
 * case ignored), or one that begins with what was typed, if it is close
 * enough to be what was meant: at most 2 edits, and fewer than half the
 * typed length, so that "x" suggests nothing. Ties go to the first offered.
 *
 *	struct suggestion s;
 *	suggestion__init(&s, typed);
 *	for (each known name) suggestion__offer(&s, name);
 *	const char *meant = suggestion__best(&s);   // NULL: nothing close
 *
 * The names are not copied: they must outlive the suggestion.
 */
#ifndef FLAMEKIT_SUGGEST_H
#define FLAMEKIT_SUGGEST_H

struct suggestion {
	const char *typed;
	const char *best;
	unsigned distance;
};

void suggestion__init(struct suggestion *s, const char *typed);
void suggestion__offer(struct suggestion *s, const char *name);
const char *suggestion__best(const struct suggestion *s);

#endif
