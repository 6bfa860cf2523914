/*
 * flamegraph.pl --nameattr FILE: extra SVG attributes for the frames of a
 * given name, read once by the command and handed to the SVG writer through
 * svg_options.name_attributes.
 *
 * The file has one line per name, "NAME<TAB>key=value<TAB>key=value...".
 * The writer uses href (the frame becomes an <a>), target, title (instead
 * of the frame's own tooltip), id, class, and two keys that flamegraph.pl
 * pastes into the element as they are: g_extra (into the <g> or <a>) and
 * a_extra (into the <a>, with href only). Here those two are parsed into
 * name="value" (or name='value') pairs, so that the writer writes them as
 * attributes, their values escaped like any other: a name is ASCII letters,
 * digits and "_-.", an "xlink:" prefix at most (the only prefix the SVG
 * declares), never xmlns (it would move the frame out of the SVG). A file
 * with anything else in them, or with an attribute the element would get
 * twice, is refused with its line.
 *
 * Ownership: the set owns every string and array in it; the pointers it
 * hands out stay valid until svg_name_attributes__free(). Reading them is
 * all a writer does, so one set may serve any number of graphs.
 *
 *	const struct svg_frame_attributes *fa =
 *		svg_name_attributes__find(set, name, len);
 *	const char *href = svg_frame_attributes__get(fa, "href");  // NULL-safe
 *	for (size_t i = 0; fa && i < fa->g_extra_count; i++)
 *		... fa->g_extra[i].key, fa->g_extra[i].value ...
 */
#ifndef FLAMEKIT_WRITERS_SVG_NAME_ATTRIBUTES_H
#define FLAMEKIT_WRITERS_SVG_NAME_ATTRIBUTES_H

#include <stddef.h>

struct svg_attribute {
	char *key;
	char *value;
};

/* What the file gives one name. */
struct svg_frame_attributes {
	char *name;
	struct svg_attribute *attributes;  /* the line's key=value fields, in order */
	size_t count;
	/* g_extra and a_extra, parsed: each holds name="value" pairs (a_extra
	 * only when the name has an href) */
	struct svg_attribute *g_extra, *a_extra;
	size_t g_extra_count, a_extra_count;
};

/* The whole file, by name. */
struct svg_name_attributes;

/* Reads path. NULL after an error message (unreadable file, a line without
 * a tab, a bad g_extra or a_extra, an attribute given twice). */
struct svg_name_attributes *svg_name_attributes__read(const char *path);
void svg_name_attributes__free(struct svg_name_attributes *a);

/* The attributes of the frame name[0..len), or NULL: a is NULL, the file
 * does not name it, or the name holds a NUL byte (no line can). */
const struct svg_frame_attributes *svg_name_attributes__find(const struct svg_name_attributes *a,
							     const char *name, size_t len);

/* The value of key (the last one given wins, as in a Perl hash), or NULL
 * when fa is NULL or has no such key. */
const char *svg_frame_attributes__get(const struct svg_frame_attributes *fa, const char *key);

#endif
