/*
 * The HTML viewer writer: a profile in, one self-contained page out (no
 * network, no other file; it opens from file://) that draws on canvas: a
 * flame graph (hover, zoom, search, icicle), a heat map of the time slices
 * when the profile has time, a self/total table, a sandwich view of one
 * function and, for a two-column profile, the difference of the columns.
 * The page's code is flamekit's own: src/writers/html_script.js and
 * html_style.css, embedded as the SVG's are.
 *
 * The data is embedded once, compactly, as JSON the script parses:
 *
 *	names    every frame name, once (bytes that are not UTF-8 as the
 *	         code point of the byte, as svg_colors.h reads them)
 *	colors   each frame's colour in the palette, "rrggbb" per frame, the
 *	         very colours the SVG writer gives the same names
 *	up, fr   the prefix tree of the stacks in depth-first order, children
 *	         by name: node i (from 1; 0 is the root) has parent i - up[i-1]
 *	         and frame fr[i-1]. One node per distinct path, so a path is
 *	         one frame in the graph however its stacks were ordered
 *	sl       (slice delta, entries) pairs: the entries, grouped by slice
 *	nd, c    each entry's node (delta from the one before in its slice)
 *	         and count; c2 the second column's, for a two-column profile
 *	note     why there are no stacks (writer_options.empty_text), shown
 *	         beside the title; only when there are none
 *
 * Values go as they are, labelled with count_name or the profile's unit.
 */
#ifndef FLAMEKIT_WRITERS_HTML_H
#define FLAMEKIT_WRITERS_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "svg_colors.h"
#include "writer.h"

struct html_options {
	const char *palette;               /* NULL: "hot" (svg_colors.h) */
	enum svg_color_variation variation; /* SVG_COLOR_RANDOM draws as seeded */
	bool colorblind;                   /* differential: orange/blue from the start */
	const char *before_name, *after_name; /* a two-column profile's sides, for labels */
};

/* The writers[] entry: options->format a struct html_options or NULL.
 * Returns 0, 1 when the profile has no stacks (a page that says so is
 * written), -1 after an error message. */
int html_writer__write(const struct profile *profile, FILE *out,
		       const struct writer_options *options);

#endif
