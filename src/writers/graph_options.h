/*
 * The flame graph's display options on the command line, flamegraph.pl's
 * (--title, --subtitle, --colors, --width, --minwidth, --countname, ...):
 * one table, which every command that draws a graph takes whole, so that
 * `flamekit flamegraph`, its flamegraph.pl personality and `record -o
 * x.svg` spell and check them alike. Each sets a field of struct
 * svg_options (svg.h). The options that need more than the graph (reading
 * --nameattr's file, --cp's palette.map, --reverse and --flamechart, which
 * change how the input is read) stay flamegraph's own.
 *
 *	struct svg_options svg;
 *	svg_options__init(&svg);
 *	struct option *table = graph_options__table(own_rows);  // own + ours
 *	while ((opt = getopt_long(argc, argv, shorts, table, NULL)) != -1)
 *		if (graph_options__owns(opt) && graph_options__parse(&svg, opt, optarg, false) < 0)
 *			...
 *	free(table);
 *
 * The strings set point into the arguments (argv), which must outlive svg.
 */
#ifndef FLAMEKIT_WRITERS_GRAPH_OPTIONS_H
#define FLAMEKIT_WRITERS_GRAPH_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>

#include "html.h"
#include "svg.h"

/* The options' getopt values: above every command's own. */
enum graph_option {
	GRAPH_OPTION_FIRST = 3000,
	GRAPH_OPT_TITLE = GRAPH_OPTION_FIRST, GRAPH_OPT_SUBTITLE, GRAPH_OPT_WIDTH,
	GRAPH_OPT_HEIGHT, GRAPH_OPT_MINWIDTH, GRAPH_OPT_FONTTYPE, GRAPH_OPT_FONTSIZE,
	GRAPH_OPT_FONTWIDTH, GRAPH_OPT_COUNTNAME, GRAPH_OPT_NAMETYPE, GRAPH_OPT_COLORS,
	GRAPH_OPT_BGCOLORS, GRAPH_OPT_HASH, GRAPH_OPT_RANDOM, GRAPH_OPT_INVERTED,
	GRAPH_OPT_NEGATE, GRAPH_OPT_NOTES, GRAPH_OPT_TOTAL, GRAPH_OPT_FACTOR,
	GRAPH_OPT_ENCODING,
	GRAPH_OPTION_END,
};

/* getopt_long rows, a zero row last. */
extern const struct option graph_long_options[];
/* Their usage lines, two spaces in, as the rows' order. */
extern const char graph_options_help[];

/* own's rows then graph_long_options', newly allocated (free() it). */
struct option *graph_options__table(const struct option *own);
bool graph_options__owns(int code);
/* "--width" for messages. */
const char *graph_options__name(int code);
/*
 * Sets the option whose getopt value is code in svg. 0, or -1 after an
 * error message naming the option (perl_mode: flamegraph.pl's own words
 * where flamekit's drop-in must print them).
 */
int graph_options__parse(struct svg_options *svg, int code, const char *arg, bool perl_mode);

/* Whether the HTML page (writers/html.h) draws by the option too: its
 * title, palette, --hash and --random, its count name. */
bool graph_options__page_takes(int code);
/* The page's options from the graph's (those graph_options__page_takes). */
void graph_options__page(const struct svg_options *svg, struct html_options *html);

#endif
