/*
 * The SVG flame graph writer: a profile in, one self-contained interactive
 * SVG out (flamegraph.pl's layout, colours and elements; flamekit's own
 * script, src/writers/svg_script.js, and styles, svg_style.css).
 *
 * Layout is flamegraph.pl's, computed by flame_layout.h (stacks in
 * the order profile__sorted() gives: folded-line order, or the input's for
 * a flame chart); this writer scales it to the width, leaves out
 * frames narrower than minwidth (their time stays in their parent), and
 * prints the same numbers with the same digits.
 *
 * Values: a one-column profile draws its counts; a two-column one draws the
 * second column (after) and, when `differential` is set, colours frames by
 * after - before of the stacks that end in them (red grew, blue shrank).
 */
#ifndef FLAMEKIT_WRITERS_SVG_H
#define FLAMEKIT_WRITERS_SVG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../profile/profile.h"
#include "svg_colors.h"
#include "writer.h"

/* flamegraph.pl --nameattr: extra attributes per frame name (svg_name_attributes.h). */
struct svg_name_attributes;

struct svg_result;

struct svg_options {
	const char *title;          /* NULL: "Flame Graph", "Icicle Graph" or "Flame Chart" */
	const char *subtitle;       /* NULL or "": none */
	unsigned width;             /* image width, px */
	unsigned frame_height;      /* px per frame */
	double minwidth;            /* omit frames narrower than this ... */
	bool minwidth_percent;      /* ... percent of the total instead of px */
	const char *font_type;
	double font_size;
	double font_width;          /* average character width / font size */
	const char *count_name;     /* NULL: the profile's unit ("samples", "us", ...) */
	const char *name_type;      /* "Function:" */
	const char *colors;         /* palette, see svg_colors.h; "diff-cb" colour-blind differential */
	bool chain_marked;          /* "chain": the waker frames end in "_[w]" already (record
				     * --wakeups), so they are coloured, not marked again */
	const char *bgcolors;       /* NULL: the palette's */
	struct svg_color_source color_source;
	struct palette_map *palette_map;  /* --cp: colours from and into this map */
	const struct svg_name_attributes *name_attributes;
	bool inverted;              /* icicle graph: root at the top */
	bool flamechart;            /* titled "Flame Chart" (its order is the profile's) */
	bool negate;                /* differential: swap the hues */
	bool differential;
	const char *notes;          /* put in a comment */
	double total;               /* 0, or the total to scale widths to */
	double factor;              /* counts shown are multiplied by this */
	const char *encoding;       /* XML declaration's encoding, NULL none */
	const char *error_text;     /* the empty graph's message */
	struct svg_result *result;  /* svg_writer__write() reports here; NULL: nowhere */
};

/* The defaults of flamegraph.pl. */
void svg_options__init(struct svg_options *o);
/* What the writer would refuse in o (a --bgcolors it does not know, a
 * --width with no room for frames), for a command to refuse it before its
 * work: 0, or -1 after the message the writer would print. */
int svg_options__check(const struct svg_options *o);

/* What a write found, for the command's messages. */
struct svg_result {
	double total;               /* the sum of the counts drawn */
	bool total_ignored;         /* options.total was below it, so not used */
	uint64_t frames;            /* frames drawn */
};

/*
 * Writes the SVG. Returns 0; 1 when the profile had no counts (the small
 * "ERROR: No valid input provided" SVG was written, as flamegraph.pl does);
 * -1 on a bad option (after an error message; nothing written).
 */
int svg_writer__write_graph(const struct profile *profile, FILE *out,
			    const struct svg_options *options, struct svg_result *result);

/* The writers[] entry: options->format a struct svg_options (NULL: the
 * defaults), its title and count name replaced by options' where set; what
 * it drew goes to svg_options.result, when set. Returns as above. */
int svg_writer__write(const struct profile *profile, FILE *out,
		      const struct writer_options *options);

#endif
