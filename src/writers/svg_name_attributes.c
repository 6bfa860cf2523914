#include "svg_name_attributes.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "../lib/error.h"
#include "../lib/xalloc.h"

struct svg_name_attributes {
	struct svg_frame_attributes *names;  /* sorted by name */
	size_t count;
};

static int compare_named(const void *a, const void *b)
{
	return strcmp(((const struct svg_frame_attributes *)a)->name,
		      ((const struct svg_frame_attributes *)b)->name);
}

const char *svg_frame_attributes__get(const struct svg_frame_attributes *na, const char *key)
{
	const char *value = NULL;
	for (size_t i = 0; na && i < na->count; i++)
		if (strcmp(na->attributes[i].key, key) == 0)
			value = na->attributes[i].value;  /* the last one wins, as in a Perl hash */
	return value;
}

static bool name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool name_char(char c)
{
	return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

/* The length of an attribute name at s: ASCII letters, digits, "_-.", an
 * "xlink:" prefix at most (the only prefix the SVG declares), and no
 * namespace declaration (it would move the frame out of the SVG). 0 if none. */
static size_t attribute_name(const char *s)
{
	size_t n = 0;
	if (strncmp(s, "xlink:", 6) == 0)
		n = 6;
	if (!name_start(s[n]))
		return 0;
	while (name_char(s[n]))
		n++;
	if (n == 5 && strncmp(s, "xmlns", 5) == 0)
		return 0;
	return n;
}

/*
 * g_extra and a_extra hold attributes that flamegraph.pl pastes into the
 * element as they are: name="value" or name='value', separated by spaces.
 * Parsed, they are written as attributes whatever they hold, their values
 * as text (escaped like every other value), so that they can neither end
 * the element nor add one. Returns -1 after a message.
 */
static int parse_extra(const char *path, unsigned long line, const char *key, const char *text,
		       struct svg_attribute **out, size_t *count)
{
	size_t cap = 0;
	const char *s = text;
	for (;;) {
		s += strspn(s, " \t\r\n");
		if (!*s)
			return 0;
		size_t n = attribute_name(s);
		const char *eq = s + n + strspn(s + n, " ");
		const char *quote = *eq == '=' ? eq + 1 + strspn(eq + 1, " ") : eq;
		const char *close = *quote == '"' || *quote == '\'' ? strchr(quote + 1, *quote) : NULL;
		if (n == 0 || *eq != '=' || !close || (close[1] && !strchr(" \t\r\n", close[1]))) {
			char shown[64];
			return error("%s:%lu: %s wants attributes as name=\"value\" or name='value' "
				     "(no xmlns), not \"%s\"", path, line, key,
				     quote_for_message(shown, sizeof(shown), s, strlen(s)));
		}
		*out = fk_grow(*out, &cap, *count + 1, sizeof(**out));
		(*out)[(*count)++] = (struct svg_attribute){
			.key = fk_memdup(s, n),
			.value = fk_memdup(quote + 1, (size_t)(close - quote - 1)),
		};
		s = close + 1;
	}
}

/* Parses the extras of the attributes a frame's <a> or <g> gets, and checks
 * that none is given twice (an element cannot hold it). -1 after a message. */
static int parse_extras(const char *path, unsigned long line, struct svg_frame_attributes *na)
{
	const char *href = svg_frame_attributes__get(na, "href"), *extra;
	bool link = href && *href;
	if ((extra = svg_frame_attributes__get(na, "g_extra")) &&
	    parse_extra(path, line, "g_extra", extra, &na->g_extra, &na->g_extra_count) < 0)
		return -1;
	if (link && (extra = svg_frame_attributes__get(na, "a_extra")) &&
	    parse_extra(path, line, "a_extra", extra, &na->a_extra, &na->a_extra_count) < 0)
		return -1;
	const char **names = fk_malloc((4 + na->g_extra_count + na->a_extra_count) * sizeof(*names));
	size_t n = 0;
	if (link) {
		names[n++] = "xlink:href";
		names[n++] = "target";
	}
	if (svg_frame_attributes__get(na, "id"))
		names[n++] = "id";
	if (svg_frame_attributes__get(na, "class"))
		names[n++] = "class";
	for (size_t i = 0; i < na->a_extra_count; i++)
		names[n++] = na->a_extra[i].key;
	for (size_t i = 0; i < na->g_extra_count; i++)
		names[n++] = na->g_extra[i].key;
	int err = 0;
	for (size_t i = 0; i < n && !err; i++)
		for (size_t k = 0; k < i && !err; k++)
			if (strcmp(names[i], names[k]) == 0)
				err = error("%s:%lu: attribute %s given twice for %s's %s", path, line,
					    names[i], na->name, link ? "<a>" : "<g>");
	free(names);
	return err;
}

struct svg_name_attributes *svg_name_attributes__read(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		error("cannot read --nameattr file %s: %s", path, strerror(errno));
		return NULL;
	}
	struct svg_name_attributes *a = fk_calloc(1, sizeof(*a));
	size_t cap = 0;
	char *line = NULL;
	size_t line_cap = 0;
	ssize_t n;
	unsigned long number = 0;
	while ((n = getline(&line, &line_cap, f)) >= 0) {
		number++;
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		char *tab = strchr(line, '\t');
		if (!tab) {
			error("%s:%lu: expected \"NAME<TAB>attribute=value...\"", path, number);
			svg_name_attributes__free(a);
			a = NULL;
			break;
		}
		*tab = '\0';
		a->names = fk_grow(a->names, &cap, a->count + 1, sizeof(*a->names));
		struct svg_frame_attributes *na = &a->names[a->count++];
		*na = (struct svg_frame_attributes){ .name = fk_strdup(line) };
		size_t attr_cap = 0;
		for (char *field = tab + 1, *next; field; field = next) {
			next = strchr(field, '\t');
			if (next)
				*next++ = '\0';
			char *eq = strchr(field, '=');
			na->attributes = fk_grow(na->attributes, &attr_cap, na->count + 1,
						 sizeof(*na->attributes));
			na->attributes[na->count++] = (struct svg_attribute){
				.key = eq ? fk_memdup(field, (size_t)(eq - field)) : fk_strdup(field),
				.value = fk_strdup(eq ? eq + 1 : ""),
			};
		}
		if (parse_extras(path, number, na) < 0) {
			svg_name_attributes__free(a);
			a = NULL;
			break;
		}
	}
	free(line);
	fclose(f);
	if (a)
		qsort(a->names, a->count, sizeof(*a->names), compare_named);
	return a;
}

static void free_attributes(struct svg_attribute *list, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		free(list[i].key);
		free(list[i].value);
	}
	free(list);
}

void svg_name_attributes__free(struct svg_name_attributes *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->count; i++) {
		struct svg_frame_attributes *na = &a->names[i];
		free_attributes(na->attributes, na->count);
		free_attributes(na->g_extra, na->g_extra_count);
		free_attributes(na->a_extra, na->a_extra_count);
		free(na->name);
	}
	free(a->names);
	free(a);
}

const struct svg_frame_attributes *svg_name_attributes__find(const struct svg_name_attributes *a,
							     const char *name, size_t len)
{
	if (!a || memchr(name, '\0', len))
		return NULL;
	char *key = fk_memdup(name, len);
	struct svg_frame_attributes probe = { .name = key };
	const struct svg_frame_attributes *found =
		bsearch(&probe, a->names, a->count, sizeof(*a->names), compare_named);
	free(key);
	return found;
}
