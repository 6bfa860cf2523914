#include "option_error.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/suggest.h"

/* What getopt refused, from its state after returning '?' or ':'. */
struct refused {
	bool is_long;
	char letter;                 /* a short option: the letter */
	const char *name;            /* a long one: its name as typed (no dashes) */
	size_t name_len;
	bool with_value;             /* "--name=value" */
	const struct option *match;  /* the long option it names, exactly or by a unique prefix */
	unsigned prefixes;           /* how many long options begin with the name */
};

static bool is_long_form(const char *arg, const struct option *long_options)
{
	if (!arg || arg[0] != '-' || !arg[1])
		return false;
	if (arg[1] == '-')
		return arg[2] != '\0';
	/* getopt_long_only's "-name": a long form when a long option begins
	 * with what follows the dash */
	size_t len = strcspn(arg + 1, "=");
	for (const struct option *o = long_options; o && o->name; o++)
		if (strncmp(o->name, arg + 1, len) == 0)
			return true;
	return false;
}

static void find_long(struct refused *r, const char *arg, const struct option *long_options)
{
	r->is_long = true;
	r->name = arg + (arg[1] == '-' ? 2 : 1);
	r->name_len = strcspn(r->name, "=");
	r->with_value = r->name[r->name_len] == '=';
	for (const struct option *o = long_options; o && o->name; o++) {
		if (strncmp(o->name, r->name, r->name_len) != 0)
			continue;
		if (strlen(o->name) == r->name_len) {  /* an exact name wins */
			r->match = o;
			r->prefixes = 1;
			return;
		}
		r->prefixes++;
		r->match = r->prefixes == 1 ? o : NULL;
	}
}

static struct refused what_was_refused(char **argv, const struct option *long_options)
{
	struct refused r = { 0 };
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;
	/* an unknown long option leaves optopt 0; a long option's missing or
	 * unwanted value sets it to the option's val, which may be a letter */
	if (optopt == 0 || (arg && is_long_form(arg, long_options))) {
		if (arg)
			find_long(&r, arg, long_options);
		if (optopt == 0 || (r.match && r.match->val == optopt && !r.match->flag))
			return r;
		r = (struct refused){ 0 };
	}
	r.letter = (char)optopt;
	return r;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "--a, --b or --c": the long options that begin with the name, sorted
 * (as Getopt::Long lists them). */
static void list_prefixed(struct buf *out, const struct refused *r, const struct option *long_options,
			  const char *dashes, const char *comma, const char *last)
{
	const char *names[64];
	size_t n = 0;
	for (const struct option *o = long_options; o && o->name && n < 64; o++)
		if (strncmp(o->name, r->name, r->name_len) == 0)
			names[n++] = o->name;
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++)
		buf__printf(out, "%s%s%s", i == 0 ? "" : i + 1 == n ? last : comma, dashes, names[i]);
}

int option_error(const char *command, enum option_voice voice, int opt, char **argv,
		 const struct option *long_options)
{
	struct refused r = what_was_refused(argv, long_options);
	struct buf line = BUF_INIT;
	int name_len = (int)r.name_len;

	if (voice != OPTION_VOICE_FLAMEKIT) {
		/* Perl's words (Getopt::Long's; Getopt::Std's for letters) */
		if (!r.is_long)
			buf__printf(&line, opt == ':' ? "Option %c requires an argument" : "Unknown option: %c",
				    r.letter);
		else if (r.prefixes > 1) {
			buf__printf(&line, "Option %.*s is ambiguous (", name_len, r.name);
			list_prefixed(&line, &r, long_options, "", ", ", ", ");
			buf__append_char(&line, ')');
		} else if (r.match && r.with_value && r.match->has_arg == no_argument)
			buf__printf(&line, "Option %s does not take an argument", r.match->name);
		else if (r.match)
			buf__printf(&line, "Option %s requires an argument", r.match->name);
		else
			buf__printf(&line, "Unknown option: %.*s", name_len, r.name);
		fprintf(stderr, "%s\n", line.data);
		buf__free(&line);
		return -1;
	}

	buf__printf(&line, "flamekit %s: ", command);
	if (!r.is_long) {
		if (opt == ':')
			buf__printf(&line, "option -%c needs a value", r.letter);
		else
			buf__printf(&line, "unknown option -%c; see flamekit %s --help", r.letter, command);
	} else if (r.prefixes > 1) {
		buf__printf(&line, "option --%.*s is ambiguous: ", name_len, r.name);
		list_prefixed(&line, &r, long_options, "--", ", ", " or ");
	} else if (r.match && r.with_value && r.match->has_arg == no_argument) {
		buf__printf(&line, "option --%s takes no value", r.match->name);
	} else if (r.match) {
		buf__printf(&line, "option --%s needs a value", r.match->name);
	} else {
		char typed[80];
		snprintf(typed, sizeof typed, "%.*s", name_len, r.name);
		struct suggestion s;
		suggestion__init(&s, typed);
		for (const struct option *o = long_options; o && o->name; o++)
			if (o->name[1])  /* not a one-letter spelling such as flamegraph's "w" */
				suggestion__offer(&s, o->name);
		if (suggestion__best(&s))
			buf__printf(&line, "unknown option --%s; did you mean --%s?", typed,
				    suggestion__best(&s));
		else
			buf__printf(&line, "unknown option --%s; see flamekit %s --help", typed, command);
	}
	fprintf(stderr, "%s\n", line.data);
	buf__free(&line);
	return -1;
}
