/*
 * flamekit flamegraph [OPTIONS] [FILE...] > out.svg — folded stacks (or any
 * format `collapse` reads) to an interactive SVG; and the flamegraph /
 * flamegraph.pl personality, which takes the Perl tool's options, reads its
 * input by its rules and prints its warnings.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/error.h"
#include "../lib/input.h"
#include "../lib/output.h"
#include "../lib/perl_number.h"
#include "../lib/progress.h"
#include "../profile/profile.h"
#include "../readers/folded.h"
#include "../readers/perf.h"
#include "../readers/reader.h"
#include "../writers/graph_options.h"
#include "../writers/svg.h"
#include "../writers/svg_name_attributes.h"
#include "cli.h"
#include "option_error.h"

struct flamegraph_options {
	struct svg_options svg;
	bool perl_mode;             /* the flamegraph.pl personality */
	bool reverse;
	bool use_palette_map;       /* --cp */
	const char *palette_map_path;
	const char *name_attributes_path;
	const char *output;         /* -o FILE; NULL = stdout */
	enum perf_weight weight;    /* --weight, for perf script text */
	char **files;
	int file_count;
};

enum {
	OPT_NAMEATTR = 1000, OPT_CP, OPT_REVERSE, OPT_FLAMECHART, OPT_HELP, OPT_OUTPUT, OPT_WEIGHT,
};

/* flamegraph's own options; the display options are the table every graph
 * command shares (writers/graph_options.h), after these. flamekit's own come
 * first, so that flamegraph.pl's, which the personality takes, are the
 * table from perl_own_options on. getopt, like Perl's Getopt::Long, takes a
 * unique abbreviation: "w" is a row of its own so that `-w`, flamegraph.pl's
 * --width, is not made ambiguous by --weight (an exact name wins). */
static const struct option own_options[] = {
	{ "weight", required_argument, NULL, OPT_WEIGHT },
	{ "w", required_argument, NULL, GRAPH_OPT_WIDTH },
	{ "nameattr", required_argument, NULL, OPT_NAMEATTR },
	{ "cp", no_argument, NULL, OPT_CP },
	{ "reverse", no_argument, NULL, OPT_REVERSE },
	{ "flamechart", no_argument, NULL, OPT_FLAMECHART },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ NULL, 0, NULL, 0 },
};
static const struct option *const perl_own_options = own_options + 2;

static const char own_options_help[] =
	"  --cp                consistent colours from and into ./palette.map\n"
	"  --reverse           stacks reversed: merge from the leaf end\n"
	"  --flamechart        keep input order (time on x), do not merge stacks\n"
	"  --nameattr FILE     per-name attributes: \"NAME<TAB>attr=value<TAB>...\"\n";

static void flamegraph_usage(FILE *out, bool perl_mode)
{
	if (perl_mode) {
		fprintf(out,
			"USAGE: flamegraph [options] infile > outfile.svg\n\n"
			"flamekit's drop-in for flamegraph.pl: the same options, layout and colours.\n\n"
			"%s%s  --help              this message\n\n"
			"eg,\n  flamegraph --title=\"Flame Graph: malloc()\" trace.txt > graph.svg\n",
			graph_options_help, own_options_help);
		return;
	}
	fprintf(out,
		"usage: flamekit flamegraph [OPTIONS] [FILE...] > out.svg\n\n"
		"Draws an interactive SVG flame graph from folded stacks (\"a;b;c COUNT\"),\n"
		"or from any format `flamekit collapse` reads (told by content: perf script\n"
		"text, pprof profiles such as Go's, ...). Lines\n"
		"with two counts (\"a;b;c BEFORE AFTER\", as `flamekit diff` prints) make a\n"
		"differential graph: red grew, blue shrank. Options are flamegraph.pl's.\n"
		"Input that is neither is refused as `flamekit collapse` refuses it (exit\n"
		"status 2, one line, no SVG); empty input gives the \"no valid input\" SVG.\n\n"
		"options:\n%s%s"
		"  --weight=samples    perf script text: count each sample once (\"samples\")\n"
		"  --weight=period     perf script text: sum the samples' periods (\"periods\");\n"
		"                      default: stackcollapse-perf.pl's sum (see `flamekit\n"
		"                      collapse --help`). Folded stacks carry no unit: label\n"
		"                      them with --countname periods\n"
		"  -o, --output FILE   write FILE (complete, or not at all) instead of stdout;\n"
		"                      FILE.svg.gz (any FILE.gz) is compressed\n"
		"  -h, --help          show this help\n\n"
		"In the SVG: hover a frame for its counts; click to zoom, Escape or \"Reset\n"
		"Zoom\" to go back; Search (or Ctrl-F, /) highlights a regex and shows the\n"
		"matched share; arrow keys move between frames, Enter zooms; the zoom and\n"
		"search are kept in the URL, so a link reopens the same view.\n\n"
		"examples:\n"
		"  perf script | flamekit collapse perf | flamekit flamegraph > out.svg\n"
		"  flamekit flamegraph --title \"mysqld, 30 s\" out.folded -o mysqld.svg\n"
		"  flamekit flamegraph perf-script.txt.gz > out.svg     # collapsed on the way\n"
		"  flamekit flamegraph cpu.pprof -o cpu.svg             # a Go CPU profile\n"
		"  flamekit diff before.folded after.folded | flamekit flamegraph > diff.svg\n"
		"  flamekit flamegraph --colors java --minwidth 0.5%% java.folded > java.svg\n",
		graph_options_help, own_options_help);
}

static int parse_option(struct flamegraph_options *o, int opt, const char *arg)
{
	if (graph_options__owns(opt))
		return graph_options__parse(&o->svg, opt, arg, o->perl_mode);
	switch (opt) {
	case OPT_NAMEATTR: o->name_attributes_path = arg; return 0;
	case OPT_CP: o->use_palette_map = true; return 0;
	case OPT_REVERSE: o->reverse = true; return 0;
	case OPT_FLAMECHART: o->svg.flamechart = true; return 0;
	case OPT_OUTPUT: o->output = arg; return 0;
	case OPT_WEIGHT: return perf_weight__parse(arg, &o->weight);
	}
	return -1;
}

/* Reads the inputs into a profile: folded text by flamegraph.pl's rules
 * (two columns, so a differential file needs no option), anything else
 * through its reader. NULL after an error (printed). */
static struct profile *read_profile(struct flamegraph_options *o, struct input **inputs, size_t n,
				    uint64_t *ignored, bool *differential)
{
	/* flamekit also draws what `collapse` reads; what is nothing known is
	 * read as folded text, whose reader says which lines it could not use */
	/* folded stacks are flamegraph's own input; any other format is
	 * collapsed on the way (without folded's options: --reverse ...) */
	const struct reader *folded_reader = reader__find("folded"), *reader = folded_reader;
	if (!o->perl_mode) {
		reader = reader__choose(inputs, n, NULL, reader);
		if (!reader)
			return NULL;
	}
	struct folded_read_result folded_result = { 0 };
	struct folded_read_options folded = {
		.perl_line_rule = true,
		.reverse = o->reverse,
		.result = &folded_result,
	};
	bool is_folded = reader == folded_reader;
	const struct reader *perf_reader = reader__find("perf");
	struct perf_read_options perf = { .weight = o->weight };
	if (o->weight != PERF_WEIGHT_PERL && reader != perf_reader) {
		error("--weight applies to perf script text, and %s is %s input; label "
		      "folded counts with --countname, e.g. --countname periods",
		      input__name(inputs[0]), reader->name);
		return NULL;
	}
	struct read_context ctx = { .perl_mode = o->perl_mode,
				    .options = reader == perf_reader ? &perf : NULL };
	struct profile *profile;
	if (is_folded) {
		ctx.options = &folded;
		profile = profile__new(2, PROFILE_DECIMAL);
		if (o->svg.flamechart)
			profile__set_order(profile, PROFILE_KEEP_RUNS);
	} else {
		if (o->reverse || o->svg.flamechart) {
			error("--reverse and --flamechart need folded input; collapse it first: "
			      "flamekit collapse %s FILE > out.folded", reader->name);
			return NULL;
		}
		profile = reader__new_profile(reader);
	}
	if (reader->read(&ctx, inputs, n, profile) < 0 ||
	    read_context__finish(&ctx, reader, profile) < 0) {
		profile__free(profile);
		read_context__release(&ctx);
		return NULL;
	}
	*ignored = ctx.bad_lines;
	*differential = folded_result.differential_lines > 0;
	read_context__release(&ctx);
	return profile;
}

static int flamegraph_run(struct flamegraph_options *o)
{
	int status = EXIT_BAD_INPUT;
	struct input_set set = { 0 };
	struct profile *profile = NULL;
	struct output *out = NULL;

	if (o->name_attributes_path) {
		o->svg.name_attributes = svg_name_attributes__read(o->name_attributes_path);
		if (!o->svg.name_attributes)
			goto cleanup;
	}
	if (o->use_palette_map) {
		o->svg.palette_map = palette_map__read(o->palette_map_path);
		if (!o->svg.palette_map)
			goto cleanup;
	}
	if (o->perl_mode)
		input_set__open_as_perl(&set, o->files, o->file_count);
	else if (input_set__open(&set, o->files, o->file_count, true) < 0)
		goto cleanup;
	uint64_t ignored = 0;
	bool differential = false;
	profile = read_profile(o, set.inputs, set.count, &ignored, &differential);
	input_set__done_reading(&set);
	if (!profile)
		goto cleanup;
	o->svg.differential = differential;
	if (strcmp(o->svg.colors, "diff-cb") == 0 && !differential)
		o->svg.colors = "hot";  /* nothing to tell apart: the default palette */

	if (output__open_by_name(&out, o->output) < 0)
		goto cleanup;
	struct svg_result result = { 0 };
	o->svg.result = &result;
	const struct writer_options write = { .format = &o->svg };
	int written = writer__find("svg")->write(profile, output__stream(out), &write);
	if (written < 0) {
		output__abort(out);
		goto cleanup;
	}
	char total_text[PERL_NUMBER_SIZE];
	perl_number__string(total_text, result.total);
	if (o->perl_mode) {
		/* flamegraph.pl's warnings, in its words and order */
		const char *count_name = o->svg.count_name ? o->svg.count_name
					 : profile_unit__name(profile__unit(profile));
		if (strcmp(count_name, "samples") == 0 && result.total < 100)
			fprintf(stderr, "Stack count is low (%s). Did something go wrong?\n", total_text);
		if (ignored)
			fprintf(stderr, "Ignored %llu lines with invalid format\n",
				(unsigned long long)ignored);
		if (written == 1)
			fprintf(stderr, "ERROR: No stack counts found\n");
		if (result.total_ignored) {
			char given[PERL_NUMBER_SIZE];
			perl_number__string(given, o->svg.total);
			fprintf(stderr, "Specified --total %s is less than actual total %s, so ignored\n",
				given, total_text);
		}
	} else if (written == 1) {
		error("no stack counts in the input: wrote the \"no valid input\" SVG");
	} else if (result.total_ignored) {
		warning("--total %g is less than the input's total %s: using the input's", o->svg.total,
			total_text);
	}
	if (output__commit(out) < 0) {
		out = NULL;
		status = 1;
		goto cleanup;
	}
	out = NULL;
	status = written == 1 ? EXIT_BAD_INPUT : 0;
	if (o->svg.palette_map && palette_map__write(o->svg.palette_map, o->palette_map_path) < 0)
		status = 1;
cleanup:
	input_set__close(&set);
	profile__free(profile);
	palette_map__free(o->svg.palette_map);
	svg_name_attributes__free((struct svg_name_attributes *)o->svg.name_attributes);
	return status;
}

static int flamegraph_main(int argc, char **argv, bool perl_mode)
{
	struct flamegraph_options o = { .perl_mode = perl_mode, .palette_map_path = "palette.map" };
	svg_options__init(&o.svg);
	optind = 0;
	opterr = 0;
	int opt;
	/* Perl's Getopt::Long takes -title as well as --title, abbreviations, and
	 * options after file names: getopt_long_only with permutation does all. */
	const char *shorts = perl_mode ? ":" : ":ho:";
	struct option *table = graph_options__table(perl_mode ? perl_own_options : own_options);
	while ((opt = getopt_long_only(argc, argv, shorts, table, NULL)) != -1) {
		if (opt == OPT_HELP || opt == 'h') {
			flamegraph_usage(stdout, perl_mode);
			free(table);
			return 0;
		}
		if (opt == 'o')
			opt = OPT_OUTPUT;
		bool refused = opt == '?' || opt == ':';
		if (refused)
			option_error("flamegraph", perl_mode ? OPTION_VOICE_PERL : OPTION_VOICE_FLAMEKIT,
				     opt, argv, table);
		else if (opt == OPT_OUTPUT && perl_mode)
			fprintf(stderr, "Unknown option: output\n");  /* flamekit's, not flamegraph.pl's */
		if (refused || (opt == OPT_OUTPUT && perl_mode) || parse_option(&o, opt, optarg) < 0) {
			/* flamegraph.pl: GetOptions(...) or usage(), which dies */
			if (perl_mode)
				flamegraph_usage(stderr, true);
			else if (!refused)
				fprintf(stderr, "flamekit: see `flamekit flamegraph --help`\n");
			free(table);
			return perl_mode ? EXIT_PERL_DIE : EXIT_BAD_INPUT;
		}
	}
	free(table);
	if (perl_mode && o.svg.notes && strpbrk(o.svg.notes, "<>")) {
		/* flamegraph.pl dies on these before it reads; a comment could
		 * hold them, so `flamekit flamegraph` draws the graph */
		fprintf(stderr, "Notes string can't contain < or > at flamegraph.pl line 228.\n");
		return EXIT_PERL_DIE;
	}
	const char *gradient_start, *gradient_stop;
	if (perl_mode && !svg_color__background(o.svg.bgcolors, o.svg.colors, &gradient_start,
						&gradient_stop)) {
		/* flamegraph.pl dies on it before reading, too */
		fprintf(stderr, "Unrecognized bgcolor option \"%s\" at flamegraph.pl line 271.\n",
			o.svg.bgcolors);
		return EXIT_PERL_DIE;
	}
	o.files = argv + optind;
	o.file_count = argc - optind;
	return flamegraph_run(&o);
}

int cmd_flamegraph(int argc, char **argv)
{
	return flamegraph_main(argc, argv, false);
}

int cmd_flamegraph_personality(int argc, char **argv)
{
	return flamegraph_main(argc, argv, true);
}
