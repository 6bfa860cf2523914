/*
 * flamekit diff [-n] [-s] [--svg] BEFORE AFTER — two folded profiles side
 * by side, "stack BEFORE AFTER" per line (the input of a differential flame
 * graph), or that graph itself with --svg; and the difffolded /
 * difffolded.pl personality, with the Perl tool's options and output.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/error.h"
#include "../lib/input.h"
#include "../lib/output.h"
#include "../profile/profile.h"
#include "../profile/profile_diff.h"
#include "../readers/folded.h"
#include "../readers/reader.h"
#include "../writers/folded.h"
#include "../writers/svg.h"
#include "cli.h"
#include "option_error.h"

struct diff_options {
	struct profile_difference_options difference;
	bool perl_mode;           /* the difffolded personality */
	bool svg;                 /* draw the differential flame graph */
	struct svg_options graph;
	const char *output;       /* -o FILE; NULL = stdout */
	const char *before, *after;
};

enum { OPT_SVG = 1000, OPT_COLORS, OPT_NEGATE, OPT_TITLE, OPT_HELP };

static const struct option long_options[] = {
	{ "normalize", no_argument, NULL, 'n' },
	{ "strip-hex", no_argument, NULL, 's' },
	{ "output", required_argument, NULL, 'o' },
	{ "svg", no_argument, NULL, OPT_SVG },
	{ "colors", required_argument, NULL, OPT_COLORS },
	{ "negate", no_argument, NULL, OPT_NEGATE },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static void diff_usage(FILE *out, bool perl_mode)
{
	if (perl_mode) {
		fprintf(out,
			"USAGE: difffolded [-hns] folded1 folded2 | flamegraph > diff2.svg\n"
			"\t    -h       # help message\n"
			"\t    -n       # normalize sample counts\n"
			"\t    -s       # strip hex numbers (addresses)\n"
			"flamekit's drop-in for difffolded.pl. To highlight what shrank, swap the\n"
			"files and the hues: difffolded folded2 folded1 | flamegraph --negate > diff1.svg\n");
		return;
	}
	fprintf(out,
		"usage: flamekit diff [OPTIONS] BEFORE AFTER\n\n"
		"Prints \"stack BEFORE AFTER\" for every stack of either folded file (0\n"
		"where one lacks it), sorted: the input of a differential flame graph.\n"
		"Files may be gzip-compressed, and pprof profiles (such as Go's) instead\n"
		"(told by content). A file that is neither (binary, or more than two lines\n"
		"in three that do not parse) is refused, exit status 2.\n\n"
		"options:\n"
		"  -n, --normalize     scale BEFORE's counts to AFTER's total, so that a\n"
		"                      longer or busier recording does not look like growth\n"
		"  -s, --strip-hex     replace hex numbers (0x7f3a...) with 0x... so that\n"
		"                      stacks differing only in addresses meet\n"
		"      --svg           write the differential flame graph instead: widths\n"
		"                      from AFTER; a frame's colour is the change of its\n"
		"                      self time: red grew, blue shrank, white none (add\n"
		"                      -n to compare recordings of different lengths)\n"
		"      --colors diff-cb  with --svg: blue/orange, for colour-blind readers\n"
		"      --negate        with --svg: swap the hues\n"
		"      --title TEXT    with --svg: the graph's title\n"
		"  -o, --output FILE   write FILE (complete, or not at all) instead of stdout;\n"
		"                      FILE.gz is compressed\n"
		"  -h, --help          show this help\n\n"
		"examples:\n"
		"  flamekit diff before.folded after.folded > diff.folded\n"
		"  flamekit diff --svg monday.pb.gz tuesday.pb.gz > diff.svg   # two pprof files\n"
		"  flamekit diff -n --svg before.folded after.folded > diff.svg\n"
		"  flamekit diff -s before.folded after.folded | flamekit flamegraph --negate > d.svg\n");
}

/* One file into a new profile: folded stacks by flamegraph.pl's line rule,
 * or a binary format told by its content (pprof) through its reader; the
 * personality reads folded stacks only. */
static struct profile *read_side(const struct diff_options *o, const char *path)
{
	struct input *in;
	if (input__open(&in, path) < 0)
		return NULL;
	const struct reader *folded_reader = reader__find("folded"), *reader = folded_reader;
	if (!o->perl_mode) {
		const struct reader *binary = reader__binary_format(in);
		reader = reader__choose(&in, 1, binary ? binary : folded_reader, NULL);
	}
	if (!reader) {
		input__close(in);
		return NULL;
	}
	struct folded_read_options folded = { .perl_line_rule = true, .keep_trailing_empty = true };
	struct read_context ctx = { .options = reader == folded_reader ? &folded : NULL,
				    .perl_mode = o->perl_mode };
	struct profile *p = reader == folded_reader ? profile__new(1, PROFILE_DECIMAL)
						    : reader__new_profile(reader);
	int status = reader->read(&ctx, &in, 1, p);
	if (status == 0)
		status = read_context__finish(&ctx, reader, p);
	input__close(in);
	if (status < 0) {
		profile__free(p);
		read_context__release(&ctx);
		return NULL;
	}
	if (ctx.bad_lines && o->perl_mode) {
		/* difffolded.pl counts a line it cannot parse under the empty
		 * stack, adding nothing: it prints a " 0 0" line for it */
		union profile_value zero = { .decimal = 0 };
		profile__add(p, NULL, 0, NULL, &zero);
	} else if (profile__size(p) == 0 && !o->perl_mode) {
		if (reader == folded_reader)
			error("no stacks in %s: expected folded lines \"frame;frame;... COUNT\"", path);
		else
			error("no stacks found in %s; is it %s?", path, reader->summary);
		profile__free(p);
		p = NULL;
	}
	read_context__release(&ctx);
	return p;
}

static int diff_run(struct diff_options *o)
{
	int status = EXIT_BAD_INPUT;
	struct profile *before = NULL, *after = NULL, *diff = NULL;
	struct output *out = NULL;
	before = read_side(o, o->before);
	if (!before)
		goto cleanup;
	after = read_side(o, o->after);
	if (!after)
		goto cleanup;
	diff = profile__difference(before, after, &o->difference);
	if (output__open_by_name(&out, o->output) < 0)
		goto cleanup;
	struct svg_result result = { 0 };
	o->graph.differential = true;
	o->graph.result = &result;
	const struct writer_options write = { .format = o->svg ? &o->graph : NULL };
	const struct writer *w = writer__find(o->svg ? "svg" : "folded");
	if (w->write(diff, output__stream(out), &write) != 0) {
		output__abort(out);
		if (o->svg && result.total == 0)
			error("no counts in %s: nothing to draw", o->after);
		goto cleanup;
	}
	status = output__commit(out) < 0 ? 1 : 0;
cleanup:
	profile__free(before);
	profile__free(after);
	profile__free(diff);
	return status;
}

static int diff_main(int argc, char **argv, bool perl_mode)
{
	struct diff_options o = { .perl_mode = perl_mode };
	svg_options__init(&o.graph);
	optind = 0;
	opterr = 0;
	int opt;
	/* difffolded.pl looks at the number of arguments first */
	if (perl_mode && argc < 3) {
		diff_usage(stderr, true);
		return EXIT_BAD_INPUT;
	}
	/* difffolded.pl: Getopt::Std's "ns" (bundled, -ns), options first */
	while ((opt = perl_mode ? getopt(argc, argv, "+:hns")
				: getopt_long(argc, argv, ":hnso:", long_options, NULL)) != -1) {
		switch (opt) {
		case 'n': o.difference.normalize = true; break;
		case 's': o.difference.strip_hex = true; break;
		case 'o': o.output = optarg; break;
		case OPT_SVG: o.svg = true; break;
		case OPT_COLORS: o.graph.colors = optarg; break;
		case OPT_NEGATE: o.graph.negate = true; break;
		case OPT_TITLE: o.graph.title = optarg; break;
		case 'h':
		case OPT_HELP:
			diff_usage(perl_mode ? stderr : stdout, perl_mode);
			return perl_mode ? EXIT_BAD_INPUT : 0;
		default: /* '?' and ':' */
			option_error("diff", perl_mode ? OPTION_VOICE_PERL : OPTION_VOICE_FLAMEKIT, opt,
				     argv, long_options);
			if (perl_mode)
				diff_usage(stderr, true);
			return EXIT_BAD_INPUT;  /* difffolded.pl's usage() exits 2 too */
		}
	}
	if (argc - optind != 2) {
		if (perl_mode) {
			diff_usage(stderr, true);
			return EXIT_BAD_INPUT;
		}
		error("diff needs two folded files, BEFORE and AFTER, not %d", argc - optind);
		fprintf(stderr, "flamekit: see `flamekit diff --help`\n");
		return EXIT_BAD_INPUT;
	}
	if (!o.svg && (o.graph.negate || o.graph.title || strcmp(o.graph.colors, "hot") != 0)) {
		error("--colors, --negate and --title shape the graph: add --svg");
		return EXIT_BAD_INPUT;
	}
	o.before = argv[optind];
	o.after = argv[optind + 1];
	return diff_run(&o);
}

int cmd_diff(int argc, char **argv)
{
	return diff_main(argc, argv, false);
}

int cmd_difffolded(int argc, char **argv)
{
	return diff_main(argc, argv, true);
}
