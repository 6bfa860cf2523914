#include "graph_options.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/error.h"
#include "../lib/xalloc.h"

const struct option graph_long_options[] = {
	{ "fonttype", required_argument, NULL, GRAPH_OPT_FONTTYPE },
	{ "width", required_argument, NULL, GRAPH_OPT_WIDTH },
	{ "height", required_argument, NULL, GRAPH_OPT_HEIGHT },
	{ "encoding", required_argument, NULL, GRAPH_OPT_ENCODING },
	{ "fontsize", required_argument, NULL, GRAPH_OPT_FONTSIZE },
	{ "fontwidth", required_argument, NULL, GRAPH_OPT_FONTWIDTH },
	{ "minwidth", required_argument, NULL, GRAPH_OPT_MINWIDTH },
	{ "title", required_argument, NULL, GRAPH_OPT_TITLE },
	{ "subtitle", required_argument, NULL, GRAPH_OPT_SUBTITLE },
	{ "nametype", required_argument, NULL, GRAPH_OPT_NAMETYPE },
	{ "countname", required_argument, NULL, GRAPH_OPT_COUNTNAME },
	{ "total", required_argument, NULL, GRAPH_OPT_TOTAL },
	{ "factor", required_argument, NULL, GRAPH_OPT_FACTOR },
	{ "colors", required_argument, NULL, GRAPH_OPT_COLORS },
	{ "bgcolors", required_argument, NULL, GRAPH_OPT_BGCOLORS },
	{ "hash", no_argument, NULL, GRAPH_OPT_HASH },
	{ "random", no_argument, NULL, GRAPH_OPT_RANDOM },
	{ "inverted", no_argument, NULL, GRAPH_OPT_INVERTED },
	{ "negate", no_argument, NULL, GRAPH_OPT_NEGATE },
	{ "notes", required_argument, NULL, GRAPH_OPT_NOTES },
	{ NULL, 0, NULL, 0 },
};

const char graph_options_help[] =
	"  --title TEXT        title (default \"Flame Graph\")\n"
	"  --subtitle TEXT     second title line\n"
	"  --width NUM         image width, px (default 1200)\n"
	"  --height NUM        frame height, px (default 16)\n"
	"  --minwidth NUM[%]   omit frames narrower than NUM px, or NUM% of the total\n"
	"                      (default 0.1 px); their time stays in the parent\n"
	"  --fonttype FONT     font (default \"Verdana\")\n"
	"  --fontsize NUM      font size (default 12)\n"
	"  --fontwidth NUM     average character width / font size (default 0.59)\n"
	"  --countname TEXT    what the counts are (default \"samples\")\n"
	"  --nametype TEXT     what the names are (default \"Function:\")\n"
	"  --colors PALETTE    hot (default), mem, io, wakeup, chain, java, js, perl,\n"
	"                      red, green, blue, aqua, yellow, purple, orange;\n"
	"                      hotcold: frames marked _[o] (off CPU) blue, others hot;\n"
	"                      kind: kernel (_[k]) orange, JIT (_[j]) green, Python\n"
	"                      (\"f (file.py)\") aqua, native red (record's graphs)\n"
	"                      diff-cb: colour-blind-safe differential (blue/orange)\n"
	"  --bgcolors COLOR    yellow, blue, green, grey, or a flat #rrggbb\n"
	"  --hash              colours by a hash of the name (same names, same hue)\n"
	"  --random            random colours\n"
	"  --inverted          icicle graph: root at the top\n"
	"  --negate            differential: swap the hues\n"
	"  --notes TEXT        notes, put in a comment\n"
	"  --total NUM         scale widths to this total instead of the sum\n"
	"  --factor NUM        multiply the counts shown by NUM\n"
	"  --encoding NAME     encoding named in the XML declaration\n";

struct option *graph_options__table(const struct option *own)
{
	size_t n = 0, m = 0;
	while (own && own[n].name)
		n++;
	while (graph_long_options[m].name)
		m++;
	struct option *table = fk_calloc(n + m + 1, sizeof(*table));
	if (n)
		memcpy(table, own, n * sizeof(*table));
	memcpy(table + n, graph_long_options, m * sizeof(*table));
	return table;
}

bool graph_options__owns(int code)
{
	return code >= GRAPH_OPTION_FIRST && code < GRAPH_OPTION_END;
}

const char *graph_options__name(int code)
{
	static char name[32];
	for (const struct option *o = graph_long_options; o->name; o++)
		if (o->val == code) {
			snprintf(name, sizeof name, "--%s", o->name);
			return name;
		}
	return "?";
}

/* A number for OPTION, or an error naming it (in Getopt::Long's words for
 * the personality: flamegraph.pl's GetOptions would have refused it). */
static int parse_number(bool perl_mode, const char *option, const char *arg, double min,
			double *out)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || strchr(arg, 'x') || strchr(arg, 'X')) {
		if (perl_mode)
			return fprintf(stderr, "Value \"%s\" invalid for option %s (real number expected)\n",
				       arg, option), -1;
		return error("--%s wants a number, not '%s'", option, arg);
	}
	if (v < min)
		return error("--%s %s is too small: use at least %g", option, arg, min);
	*out = v;
	return 0;
}

static int parse_unsigned(bool perl_mode, const char *option, const char *arg, unsigned min,
			  unsigned *out)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v > 1000000) {
		if (perl_mode && (errno || end == arg || *end))
			return fprintf(stderr, "Value \"%s\" invalid for option %s (number expected)\n",
				       arg, option), -1;
		return error("--%s wants a whole number, not '%s'", option, arg);
	}
	if (v < (long)min)
		return error("--%s %s is too small: use at least %u", option, arg, min);
	*out = (unsigned)v;
	return 0;
}

/* --minwidth: flamegraph.pl's /^([0-9.]+)%?$/. */
static int parse_minwidth(struct svg_options *s, const char *arg, bool perl_mode)
{
	size_t len = strlen(arg);
	bool percent = len > 0 && arg[len - 1] == '%';
	size_t digits = strspn(arg, "0123456789.");
	if (len == 0 || digits == 0 || digits != len - percent) {
		if (perl_mode)
			fprintf(stderr, "Value '%s' is invalid for minwidth, expected a float.\n", arg);
		else
			error("--minwidth wants pixels or a percentage such as 0.5%%, not '%s'", arg);
		return -1;
	}
	s->minwidth = strtod(arg, NULL);
	s->minwidth_percent = percent;
	return 0;
}

/* --random: a seed of its own for each run, as Perl's rand() has. */
static void seed_random(struct svg_color_source *source)
{
	unsigned long seed = (unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16);
	source->random_state[0] = (unsigned short)seed;
	source->random_state[1] = (unsigned short)(seed >> 16);
	source->random_state[2] = (unsigned short)(seed >> 32);
}

int graph_options__parse(struct svg_options *s, int code, const char *arg, bool perl_mode)
{
	switch ((enum graph_option)code) {
	case GRAPH_OPT_FONTTYPE: s->font_type = arg; return 0;
	case GRAPH_OPT_WIDTH: return parse_unsigned(perl_mode, "width", arg, 21, &s->width);
	case GRAPH_OPT_HEIGHT: return parse_unsigned(perl_mode, "height", arg, 1, &s->frame_height);
	case GRAPH_OPT_ENCODING: s->encoding = arg; return 0;
	case GRAPH_OPT_FONTSIZE: return parse_number(perl_mode, "fontsize", arg, 0.01, &s->font_size);
	case GRAPH_OPT_FONTWIDTH: return parse_number(perl_mode, "fontwidth", arg, 0.01, &s->font_width);
	case GRAPH_OPT_MINWIDTH: return parse_minwidth(s, arg, perl_mode);
	case GRAPH_OPT_TITLE: s->title = *arg ? arg : NULL; return 0;
	case GRAPH_OPT_SUBTITLE: s->subtitle = arg; return 0;
	case GRAPH_OPT_NAMETYPE: s->name_type = arg; return 0;
	case GRAPH_OPT_COUNTNAME: s->count_name = arg; return 0;
	case GRAPH_OPT_TOTAL: return parse_number(perl_mode, "total", arg, 0, &s->total);
	case GRAPH_OPT_FACTOR: return parse_number(perl_mode, "factor", arg, -1e300, &s->factor);
	case GRAPH_OPT_COLORS: s->colors = arg; return 0;
	case GRAPH_OPT_BGCOLORS: s->bgcolors = arg; return 0;
	case GRAPH_OPT_HASH: s->color_source.variation = SVG_COLOR_HASH; return 0;
	case GRAPH_OPT_RANDOM:
		if (s->color_source.variation != SVG_COLOR_HASH) {  /* --hash wins, as in Perl */
			s->color_source.variation = SVG_COLOR_RANDOM;
			seed_random(&s->color_source);
		}
		return 0;
	case GRAPH_OPT_INVERTED: s->inverted = true; return 0;
	case GRAPH_OPT_NEGATE: s->negate = true; return 0;
	case GRAPH_OPT_NOTES: s->notes = arg; return 0;
	case GRAPH_OPTION_END:
		break;
	}
	return -1;
}

bool graph_options__page_takes(int code)
{
	return code == GRAPH_OPT_TITLE || code == GRAPH_OPT_COLORS || code == GRAPH_OPT_HASH ||
	       code == GRAPH_OPT_COUNTNAME;
}

void graph_options__page(const struct svg_options *svg, struct html_options *html)
{
	html->palette = svg->colors;
	if (svg->color_source.variation == SVG_COLOR_HASH)
		html->variation = SVG_COLOR_HASH;
}
