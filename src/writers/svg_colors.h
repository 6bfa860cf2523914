/*
 * The colours of flame graph frames, as flamegraph.pl chooses them, so that
 * a frame gets the very same rgb() from flamekit as from the Perl tool.
 *
 * Palettes: hot (default), mem, io, and the "multi" palettes java, js,
 * perl, wakeup and chain, which pick one of the flat palettes red, green,
 * blue, aqua, yellow, purple, orange by the frame's name (annotations _[k]
 * _[j] _[i] _[w], C++ "::", Java package prefixes, ...). An unknown name
 * gives black, as in the Perl tool. flamekit adds hotcold (record
 * --all-time's graphs): frames marked _[o], off CPU, blue; the others hot.
 *
 * Where the colour's variation comes from:
 *   SVG_COLOR_SEEDED  (default) Perl's srand(sum of the name's code points)
 *                     then rand(): Perl's own drand48, so one name is always
 *                     one colour, in every graph;
 *   SVG_COLOR_HASH    (--hash) flamegraph.pl's namehash() of the name and of
 *                     the reversed name;
 *   SVG_COLOR_RANDOM  (--random) truly random.
 *
 * Names are UTF-8; Perl reads them as characters, so sums, hashes and
 * reversal work on code points (a byte that is not valid UTF-8 counts as
 * one character of that value).
 */
#ifndef FLAMEKIT_WRITERS_SVG_COLORS_H
#define FLAMEKIT_WRITERS_SVG_COLORS_H

#include <stdbool.h>
#include <stddef.h>

enum svg_color_variation {
	SVG_COLOR_SEEDED,
	SVG_COLOR_HASH,
	SVG_COLOR_RANDOM,
};

/* How colours vary; random_state is erand48()'s, seeded by the caller for
 * SVG_COLOR_RANDOM and unused otherwise. */
struct svg_color_source {
	enum svg_color_variation variation;
	unsigned short random_state[3];
};

/* "rgb(R,G,B)" fits in this. */
#define SVG_COLOR_SIZE 40

/* The colour of a frame named name[0..len) in palette `palette`. */
void svg_color__frame(const char *palette, struct svg_color_source *source,
		      const char *name, size_t len, char out[SVG_COLOR_SIZE]);

/* A differential frame: red grew, blue shrank, white unchanged, scaled by
 * the largest change; negate swaps the hues. colorblind: orange for grew
 * and blue for shrank (--colors=diff-cb).
 *
 * The difference colour rule, flamegraph.pl's, for every difference
 * flamekit draws: delta is the change of the frame's self time (after -
 * before of the stacks that end at it: flame_layout's delta) and max_delta
 * the largest |delta| of any frame, at least 1; a frame with no self time
 * is white. The view's page (html_script.js selfDelta() and diffColor())
 * draws by the same rule, with before scaled to after's total as diff -n
 * scales it; tests/browser/view.mjs (view-diff-colour-rule) holds the two
 * to the same colour, frame for frame. */
void svg_color__difference(double delta, double max_delta, bool negate, bool colorblind,
			   char out[SVG_COLOR_SIZE]);

/* Whether flamegraph.pl knows the palette name (it draws black otherwise). */
bool svg_color__known_palette(const char *palette);

/* The background gradient for --bgcolors (NULL or "" = the palette's
 * default). Returns false for a name flamegraph.pl rejects. */
bool svg_color__background(const char *bgcolors, const char *palette,
			   const char **start, const char **stop);

/*
 * A palette map (flamegraph.pl --cp, "palette.map"): frame name -> colour,
 * read from a file, extended with every new name drawn, written back sorted
 * so the next graph gives the same names the same colours.
 */
struct palette_map;

/* Reads path; a missing file is an empty map. NULL after an error message. */
struct palette_map *palette_map__read(const char *path);
/* The colour for name, from the map or else computed and added. */
const char *palette_map__color(struct palette_map *m, const char *palette,
			       struct svg_color_source *source, const char *name, size_t len);
/* Writes the map sorted by name, complete or not at all. 0 or -1 after a message. */
int palette_map__write(struct palette_map *m, const char *path);
void palette_map__free(struct palette_map *m);

#endif
