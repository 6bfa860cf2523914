/*
 * flamekit collapse FORMAT [OPTIONS] [FILE...]  — profiler output to folded
 * stacks; and the stackcollapse-perf personality, which is the same work
 * with the Perl tool's option syntax and its silent ways with bad lines.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../lib/error.h"
#include "../lib/input.h"
#include "../lib/output.h"
#include "../lib/progress.h"
#include "../lib/slice_length.h"
#include "../lib/suggest.h"
#include "../lib/xalloc.h"
#include "../profile/profile.h"
#include "../readers/reader.h"
#include "../writers/folded.h"
#include "../writers/writer.h"
#include "cli.h"
#include "option_error.h"

struct collapse_options {
	const struct reader *reader;
	struct folded_write_options write;  /* how a personality prints */
	const char *output;             /* -o FILE, NULL = stdout */
	const struct writer *writer;    /* --format, or what -o's ending names; NULL: folded */
	bool perl_mode;
	/* the reader whose own options were given, and its options struct */
	const struct reader *optioned;
	void *reader_options;
	unsigned jobs;                  /* --jobs */
	uint64_t slice_ns;              /* --timeline; 0: none */
	char **files;
	int file_count;
};

enum { OPT_HELP = 1000, OPT_JOBS, OPT_TIMELINE, OPT_FORMAT };

/* The options collapse takes for every format; each reader's own follow
 * (reader__long_options()). */
static const struct option own_long_options[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "output", required_argument, NULL, 'o' },
	{ "timeline", optional_argument, NULL, OPT_TIMELINE },
	{ NULL, 0, NULL, 0 },
};

static void collapse_usage(FILE *out)
{
	fprintf(out,
		"usage: flamekit collapse [FORMAT] [OPTIONS] [FILE...]\n\n"
		"Reads profiler output (FILEs, or standard input if none or \"-\"; gzip\n"
		"is recognised by its content) and prints folded stacks: one line\n"
		"\"comm;root;...;leaf COUNT\" per distinct stack, sorted; or the profile\n"
		"in another format (-o's ending or --format). Without FORMAT, the format\n"
		"is told from the first input's content.\n\n"
		"formats:\n");
	for (const struct reader *r = readers; r->name; r++)
		fprintf(out, "  %-19s %s\n", r->name, r->summary);
	fprintf(out, "\noutput formats (--format NAME, or -o FILE with an ending shown):\n");
	for (const struct writer *w = writers; w->name; w++) {
		if (w->view)
			continue;
		fprintf(out, "  %-12s", w->name);
		for (const char *const *e = w->endings; *e; e++)
			fprintf(out, " %s", *e);
		fprintf(out, "\n               %s\n", w->summary);
	}
	fprintf(out,
		"\noptions:\n"
		"  -o, --output FILE   write FILE (complete, or not at all) instead of stdout,\n"
		"                      in the format its ending names (folded for any other);\n"
		"                      FILE.timed keeps the input's time slices (timed folded);\n"
		"                      FILE.gz after any text ending is compressed\n"
		"      --format NAME   write the output format NAME (pprof and otlp are binary:\n"
		"                      to a file or a pipe, not a terminal)\n"
		"  -j, --jobs N        threads for one large uncompressed file (default: one\n"
		"                      per CPU; the output is the same for any N)\n"
		"      --timeline[=MS] count each stack per time slice of MS milliseconds\n"
		"                      (default 20) by the samples' times, and write timed\n"
		"                      folded stacks, or pprof, speedscope or otlp with them\n"
		"                      (perf script text, with its time field; slice 0\n"
		"                      starts at the first sample's time, rounded down to a\n"
		"                      multiple of MS)\n"
		"  -h, --help          show this help\n");
	for (const struct reader *r = readers; r->name; r++) {
		if (!r->options)
			continue;
		if (r->options->help)
			fprintf(out, "\n%s options (same as stackcollapse-%s.pl):\n%s", r->name, r->name,
				r->options->help);
		if (r->options->own_help)
			fprintf(out, "\n%s options%s:\n%s", r->name,
				r->options->help ? " of flamekit's own (not the personality's)" : "",
				r->options->own_help);
	}
	fprintf(out, "\n"
		"Input that is not in FORMAT is refused with exit status 2 and one line\n"
		"saying what was expected and what was seen: binary input (a NUL byte, or\n"
		"many control bytes), or input of which more than two lines in three do\n"
		"not parse. In a file that is mostly right, the lines that cannot be\n"
		"parsed are reported with their file and line, and the rest is read. The\n"
		"exit status is 2 as well when no stack could be read at all.\n\n"
		"examples:\n"
		"  perf record -F 99 -a -g -- sleep 10 && perf script > out.perf\n"
		"  flamekit collapse perf out.perf > out.folded\n"
		"  perf script | flamekit collapse perf --all -o out.folded\n"
		"  flamekit collapse perf --weight samples out.perf > out.folded\n"
		"  flamekit collapse perf --pid capture.txt.gz | grep mysqld\n"
		"  flamekit collapse perf --timeline=100 out.perf -o out.timed  # per 100 ms\n"
		"  flamekit collapse out.stacks > out.folded        # any known format\n"
		"  flamekit collapse folded monday.folded tuesday.folded > both.folded  # summed\n"
		"  flamekit collapse perf out.perf -o out.pb.gz     # for go tool pprof, Pyroscope\n"
		"  flamekit collapse cpu.pprof > cpu.folded         # a Go profile, as folded\n"
		"  flamekit collapse --sample-type alloc_space heap.pprof > heap.folded\n"
		"  flamekit collapse perf out.perf -o out.speedscope.json\n"
		"  flamekit collapse perf out.perf --format otlp | curl --data-binary @- ...\n");
}

/*
 * The Perl collapsers flamekit stands in for, by the name it is called by
 * (see commands[] in main.c). Each prints what its Perl tool prints.
 */
struct perl_collapser {
	const char *name;
	const char *format;          /* the reader */
	struct folded_write_options write;
};

static const struct perl_collapser perl_collapsers[] = {
	{ "stackcollapse-perf", "perf", { 0 } },
	{ "stackcollapse-stap", "stap",
	  { .perl_printf = true, .perl_tool = "stackcollapse-stap.pl", .perl_tool_line = 83 } },
	{ "stackcollapse", "dtrace", { 0 } },
	{ "stackcollapse-bpftrace", "bpftrace", { 0 } },
	{ NULL, NULL, { 0 } },
};

static void perl_collapser_usage(const struct perl_collapser *pc, FILE *out)
{
	const struct reader *r = reader__find(pc->format);
	fprintf(out,
		"usage: %s %s[FILE...] > out.folded\n\n"
		"flamekit's drop-in for %s.pl: reads %s\n"
		"and prints the same folded stacks, byte for byte.\n",
		pc->name, r->options ? "[OPTIONS] " : "", pc->name, r->summary);
	if (r->options)
		fprintf(out, "\noptions:\n%s\n"
			"--pid and --tid need PID and TID in the input, e.g.\n"
			"  perf script -F comm,pid,tid,cpu,time,event,ip,sym,dso,trace\n",
			r->options->help);
	fprintf(out, "See also: flamekit collapse %s --help\n", pc->format);
}

static int parse_jobs(struct collapse_options *o, const char *arg)
{
	char *end;
	errno = 0;
	unsigned long n = strtoul(arg, &end, 10);
	if (errno || *end || end == arg || n < 1 || n > 64)
		return error("--jobs wants a number of threads from 1 to 64, not '%s'", arg);
	o->jobs = (unsigned)n;
	return 0;
}

/* An option of a reader's own (code: its val): into that reader's options
 * struct. Returns 0, or -1 after a message. */
static int parse_reader_option(struct collapse_options *o, int code, const char *arg)
{
	const struct reader *r = reader__owning_option(code);
	if (!r)
		return -1;
	if (o->optioned && o->optioned != r)
		return error("%s and %s apply to different formats: give one", o->optioned->options->names,
			     r->options->names);
	if (!o->optioned) {
		o->optioned = r;
		o->reader_options = fk_calloc(1, r->options->size);
	}
	return r->options->parse(o->reader_options, code, arg);
}

/*
 * The output format: --format's, else the one -o's ending names (a profile
 * format: any other name gets folded stacks, as ever), else folded; with
 * --timeline, timed folded unless --format or -o names another that keeps
 * time slices. 0, or -1 after a message.
 */
static int choose_writer(struct collapse_options *o)
{
	const struct writer *named = o->output ? writer__for_path(o->output) : NULL;
	const bool by_format = o->writer != NULL;
	if (named && named->view)
		named = NULL;
	if (o->writer && named && named != o->writer)
		return error("-o %s names %s but --format asks for %s: drop one, or name the "
			     "file FILE%s", o->output, named->name, o->writer->name,
			     o->writer->endings[0]);
	if (!o->writer)
		o->writer = named;
	if (!o->writer)
		o->writer = writer__find(o->slice_ns && !o->output ? "timed" : "folded");
	if (o->slice_ns && !o->writer->keeps_time && o->output && !by_format)
		return error("--timeline counts stacks per time slice: name the output FILE.timed "
			     "(timed folded stacks), FILE.pb.gz, FILE.speedscope.json or FILE.otlp, "
			     "not %s", o->output);
	if (o->slice_ns && !o->writer->keeps_time)
		return error("--timeline counts stacks per time slice, which %s cannot hold: write "
			     "timed folded stacks (-o FILE.timed), pprof, speedscope or otlp",
			     o->writer->name);
	return 0;
}

static int collapse_run(struct collapse_options *o)
{
	int status = EXIT_BAD_INPUT;
	struct profile *profile = NULL;
	struct read_context ctx = { .perl_mode = o->perl_mode, .jobs = o->jobs,
				    .slice_ns = o->slice_ns };
	struct input_set set;

	if (o->perl_mode)
		input_set__open_as_perl(&set, o->files, o->file_count);
	else if (input_set__open(&set, o->files, o->file_count, true) < 0)
		return EXIT_BAD_INPUT;
	struct input **inputs = set.inputs;
	size_t n = set.count;
	/* a personality reads what it is given, as the Perl tool does */
	if (!o->perl_mode) {
		bool guessed = !o->reader;
		o->reader = reader__choose(inputs, n, o->reader, NULL);
		if (!o->reader)
			goto cleanup;
		if (guessed && o->optioned && o->reader != o->optioned) {
			error("%s looks like %s output, but %s apply to %s only",
			      input__name(inputs[0]), o->reader->name, o->optioned->options->names,
			      o->optioned->options->input);
			goto cleanup;
		}
		if (o->slice_ns && !o->reader->timeline) {
			error("--timeline: %s is %s, which has no sample times flamekit reads; "
			      "--timeline reads perf script text", n ? input__name(inputs[0]) : "the input",
			      o->reader->summary);
			goto cleanup;
		}
	}
	if (o->reader == o->optioned)
		ctx.options = o->reader_options;
	profile = profile__new(1, PROFILE_INTEGER);
	int read_status = o->reader->read(&ctx, inputs, n, profile);
	input_set__done_reading(&set);
	if (read_status < 0 || read_context__finish(&ctx, o->reader, profile) < 0)
		goto cleanup;
	if (profile__size(profile) == 0 && !o->perl_mode) {
		if (o->file_count == 1)
			error("no stacks found in %s; is it %s?", o->files[0], o->reader->summary);
		else
			error("no stacks found in the input; is it %s?", o->reader->summary);
		goto cleanup;
	}
	o->write.input_lines = 0;
	for (size_t i = 0; i < n; i++)
		o->write.input_lines += input__line_number(inputs[i]);
	/* the folded writers take a personality's ways; the others their defaults */
	const struct writer *w = o->writer ? o->writer : writer__find("folded");
	const bool folded = w == writer__find("folded") || w == writer__find("timed");
	const struct writer_options write = { .format = folded ? &o->write : NULL };
	struct output *out;
	if (writer__open_output(w, &out, o->output) < 0)
		goto cleanup;
	if (w->write(profile, output__stream(out), &write) < 0) {
		output__abort(out);
		goto cleanup;
	}
	status = output__commit(out) < 0 ? 1 : 0;
cleanup:
	input_set__close(&set);
	profile__free(profile);
	read_context__release(&ctx);
	free(o->reader_options);
	return status;
}

int cmd_collapse(int argc, char **argv)
{
	struct collapse_options o = { 0 };
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		collapse_usage(stdout);
		return 0;
	}
	if (argc < 2) {
		error("collapse needs a FORMAT or a FILE, e.g. `flamekit collapse perf FILE`");
		collapse_usage(stderr);
		return EXIT_BAD_INPUT;
	}
	struct stat st;
	o.reader = reader__find(argv[1]);
	if (o.reader) {
		argc--;
		argv++;
	} else if (argv[1][0] != '-' && stat(argv[1], &st) != 0) {
		struct suggestion meant;
		suggestion__init(&meant, argv[1]);
		for (const struct reader *r = readers; r->name; r++)
			suggestion__offer(&meant, r->name);
		if (suggestion__best(&meant))
			return error("'%s' is neither a format nor a file; did you mean %s?", argv[1],
				     suggestion__best(&meant)), EXIT_BAD_INPUT;
		error("'%s' is neither a format nor a file; known formats:", argv[1]);
		for (const struct reader *r = readers; r->name; r++)
			fprintf(stderr, "  %-12s %s\n", r->name, r->summary);
		return EXIT_BAD_INPUT;
	}
	/* else no FORMAT: guessed from the first input's content */
	optind = 0;
	opterr = 0;
	int opt, status = -1;
	struct option *long_options = reader__long_options(own_long_options, NULL, false);
	while ((opt = getopt_long(argc, argv, ":ho:j:", long_options, NULL)) != -1) {
		if (opt == 'h' || opt == OPT_HELP) {
			collapse_usage(stdout);
			status = 0;
			break;
		}
		if (opt == '?' || opt == ':') {
			option_error("collapse", OPTION_VOICE_FLAMEKIT, opt, argv, long_options);
			status = EXIT_BAD_INPUT;  /* the line says what to do */
			break;
		}
		if (opt == 'o')
			o.output = optarg;
		else if (opt == OPT_FORMAT) {
			o.writer = writer__for_format(optarg, false);
			if (!o.writer) {
				status = 2;
				break;
			}
		} else if (opt == OPT_TIMELINE) {
			if (slice_length__parse("--timeline", optarg, &o.slice_ns) < 0) {
				status = 2;  /* the line says it all: no pointer to --help */
				break;
			}
		} else if ((opt == 'j' || opt == OPT_JOBS ? parse_jobs(&o, optarg)
			    : parse_reader_option(&o, opt, optarg)) < 0)
			break;
	}
	free(long_options);
	if (status == 0 || opt != -1) {
		free(o.reader_options);
		if (status < 0)
			fprintf(stderr, "flamekit: see `flamekit collapse --help`\n");
		return status == 0 ? 0 : EXIT_BAD_INPUT;
	}
	if ((o.optioned && o.reader && o.reader != o.optioned) ||
	    (o.optioned && o.optioned->options->check &&
	     o.optioned->options->check(o.reader_options) < 0)) {
		if (o.reader != o.optioned && o.reader)
			error("%s apply to the %s format only, not '%s'", o.optioned->options->names,
			      o.optioned->name, o.reader->name);
		free(o.reader_options);
		return EXIT_BAD_INPUT;
	}
	if (choose_writer(&o) < 0) {
		free(o.reader_options);
		return EXIT_BAD_INPUT;
	}
	o.files = argv + optind;
	o.file_count = argc - optind;
	return collapse_run(&o);
}

int cmd_perl_collapser(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	size_t len = strlen(base);
	if (len > 3 && strcmp(base + len - 3, ".pl") == 0)
		len -= 3;
	const struct perl_collapser *pc = perl_collapsers;
	while (pc->name && !(strlen(pc->name) == len && strncmp(pc->name, base, len) == 0))
		pc++;
	if (!pc->name)
		return error("no Perl collapser is called '%s'", argv[0]), EXIT_BAD_INPUT;

	struct collapse_options o = { .perl_mode = true, .reader = reader__find(pc->format),
				      .write = pc->write };
	if (!o.reader->options) {
		/* These Perl tools take no options: every argument is a file. */
		if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
			perl_collapser_usage(pc, stdout);
			return 0;
		}
		o.files = argv + 1;
		o.file_count = argc - 1;
		return collapse_run(&o);
	}
	optind = 0;
	opterr = 0;
	int opt, status = -1;
	struct option *long_options = reader__long_options(own_long_options, o.reader, true);
	/* Perl's Getopt::Long takes -pid as well as --pid, and lets options
	 * follow file names: getopt_long_only with permutation does both. */
	while ((opt = getopt_long_only(argc, argv, ":", long_options, NULL)) != -1) {
		if (opt == OPT_HELP) {
			perl_collapser_usage(pc, stdout);
			status = 0;
			break;
		}
		if (opt == '?' || opt == ':') {
			option_error(pc->name, OPTION_VOICE_PERL, opt, argv, long_options);
			break;
		}
		if (opt == 'o' || opt == OPT_TIMELINE) {
			/* flamekit collapse's, not the Perl tool's */
			fprintf(stderr, "Unknown option: %s\n", opt == 'o' ? "output" : "timeline");
			break;
		}
		if ((opt == OPT_JOBS ? parse_jobs(&o, optarg) : parse_reader_option(&o, opt, optarg)) < 0)
			break;
	}
	free(long_options);
	if (status == 0 || opt != -1) {
		/* the Perl tool: GetOptions(...) or die $usage */
		if (status != 0)
			perl_collapser_usage(pc, stderr);
		free(o.reader_options);
		return status == 0 ? 0 : EXIT_PERL_DIE;
	}
	o.files = argv + optind;
	o.file_count = argc - optind;
	return collapse_run(&o);
}
