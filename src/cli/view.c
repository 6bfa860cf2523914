/*
 * flamekit view [-o out.html] FILE [FILE2] — one offline HTML page to
 * explore a profile (writers/html.h): timed folded stacks get the heat map
 * of their time slices; two files get the difference, FILE before, FILE2
 * after. Any input `collapse` reads is read the same way.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/error.h"
#include "../lib/input.h"
#include "../lib/slice_length.h"
#include "../profile/profile.h"
#include "../profile/profile_diff.h"
#include "../readers/reader.h"
#include "../writers/html.h"
#include "../writers/writer.h"
#include "cli.h"
#include "option_error.h"

struct view_options {
	const char *output;        /* -o FILE; NULL = stdout */
	const char *title;
	struct html_options html;
	uint64_t slice_ns;         /* --timeline: perf script text by its samples' times */
	char **files;
	int file_count;
};

enum { OPT_HELP = 1000, OPT_TITLE, OPT_COLORS, OPT_HASH, OPT_CB, OPT_TIMELINE };

static const struct option long_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "colors", required_argument, NULL, OPT_COLORS },
	{ "hash", no_argument, NULL, OPT_HASH },
	{ "colorblind", no_argument, NULL, OPT_CB },
	{ "timeline", optional_argument, NULL, OPT_TIMELINE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static void view_usage(FILE *out)
{
	fprintf(out,
		"usage: flamekit view [OPTIONS] FILE [FILE2]\n\n"
		"Writes one self-contained HTML page (no network; it opens from file://)\n"
		"that draws FILE's profile: flame graph with hover, click to zoom, search\n"
		"and an icicle toggle; a table of self and total per function; a sandwich\n"
		"of one function's callers and callees. Timed folded stacks also get a\n"
		"heat map of their time slices (seconds across, slices down): drag to draw\n"
		"a range, Shift+drag a second range for their difference. With FILE2, the\n"
		"page draws the difference of FILE (before) and FILE2 (after), paths that\n"
		"vanished in FILE2 kept and hatched, each frame coloured by the change of\n"
		"its self time as `flamekit diff -n --svg` colours it. FILEs are timed\n"
		"folded, folded, pprof (its time slices too, if flamekit wrote them), or\n"
		"anything `flamekit collapse` reads.\n\n"
		"options:\n"
		"  -o, --output FILE   write FILE (complete, or not at all) instead of stdout;\n"
		"                      FILE.html.gz is compressed\n"
		"      --title TEXT    the page's title\n"
		"      --colors NAME   palette, as flamegraph's (hot, mem, io, java, ...)\n"
		"      --hash          colours by name hash, as flamegraph --hash\n"
		"      --colorblind    the difference in orange and blue\n"
		"      --timeline[=MS] FILE is perf script text: count its samples per time\n"
		"                      slice of MS milliseconds (default 20) by their times,\n"
		"                      for the heat map (without it, perf text has no time)\n"
		"  -h, --help          show this help\n\n"
		"keys in the page: / search, n N next and previous match, Escape back,\n"
		"i icicle, t table, g graph, c colour-blind, arrows and Enter to move and zoom\n\n"
		"examples:\n"
		"  flamekit view -o run.html run.timed\n"
		"  flamekit view --timeline -o run.html run.perf    # perf script text\n"
		"  flamekit view -o diff.html before.folded after.folded\n");
}

/* One input file's profile, through the reader its content asks for. */
static struct profile *read_one(char *file, uint64_t slice_ns)
{
	struct input_set set;
	struct profile *profile = NULL;
	struct read_context ctx = { .slice_ns = slice_ns };
	if (input_set__open(&set, &file, 1, true) < 0)
		return NULL;
	const struct reader *reader = reader__choose(set.inputs, set.count, NULL,
						     reader__find("folded"));
	if (!reader)
		goto cleanup;
	if (slice_ns && !reader->timeline) {
		error("--timeline: %s is %s, which has no sample times flamekit reads; "
		      "--timeline reads perf script text (timed folded stacks have their slices)",
		      file, reader->summary);
		goto cleanup;
	}
	profile = reader__new_profile(reader);
	if (reader->read(&ctx, set.inputs, set.count, profile) < 0 ||
	    read_context__finish(&ctx, reader, profile) < 0) {
		profile__free(profile);
		profile = NULL;
		goto cleanup;
	}
	if (profile__size(profile) == 0) {
		error("no stacks found in %s; is it %s?", file, reader->summary);
		profile__free(profile);
		profile = NULL;
	}
cleanup:
	read_context__release(&ctx);
	input_set__close(&set);
	return profile;
}

static int view_run(struct view_options *o)
{
	int status = EXIT_BAD_INPUT;
	struct profile *first = NULL, *second = NULL, *diff = NULL;
	first = read_one(o->files[0], o->slice_ns);
	if (!first)
		goto cleanup;
	if (o->file_count == 2) {
		second = read_one(o->files[1], o->slice_ns);
		if (!second)
			goto cleanup;
		diff = profile__difference(first, second, &(struct profile_difference_options){ 0 });
		/* the sides' labels: the files' names without their directories */
		const char *slash0 = strrchr(o->files[0], '/'), *slash1 = strrchr(o->files[1], '/');
		o->html.before_name = slash0 ? slash0 + 1 : o->files[0];
		o->html.after_name = slash1 ? slash1 + 1 : o->files[1];
	}
	const struct writer_options write = { .title = o->title, .format = &o->html };
	status = exit_status_of_write(writer__write_file(writer__find("html"), diff ? diff : first,
							 &write, o->output));
cleanup:
	profile__free(first);
	profile__free(second);
	profile__free(diff);
	return status;
}

int cmd_view(int argc, char **argv)
{
	struct view_options o = { .html = { .palette = "hot" } };
	int opt;
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'o': o.output = optarg; break;
		case OPT_TITLE: o.title = optarg; break;
		case OPT_COLORS:
			if (!svg_color__known_palette(optarg))
				return error("--colors %s: no such palette; try hot, mem, io, java, js, "
					     "perl, red, green, blue, aqua, yellow, purple or orange",
					     optarg), EXIT_BAD_INPUT;
			o.html.palette = optarg;
			break;
		case OPT_HASH: o.html.variation = SVG_COLOR_HASH; break;
		case OPT_CB: o.html.colorblind = true; break;
		case OPT_TIMELINE:
			if (slice_length__parse("--timeline", optarg, &o.slice_ns) < 0)
				return EXIT_BAD_INPUT;
			break;
		case 'h':
		case OPT_HELP: view_usage(stdout); return 0;
		default: /* '?' and ':' */
			option_error("view", OPTION_VOICE_FLAMEKIT, opt, argv, long_options);
			return EXIT_BAD_INPUT;
		}
	}
	o.files = argv + optind;
	o.file_count = argc - optind;
	if (o.file_count < 1 || o.file_count > 2) {
		error("view takes one FILE, or two (before and after), not %d", o.file_count);
		view_usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (o.slice_ns && o.file_count == 2)
		return error("--timeline with two files: the page draws their difference, which "
			     "has no heat map; give one file"), EXIT_BAD_INPUT;
	return view_run(&o);
}
