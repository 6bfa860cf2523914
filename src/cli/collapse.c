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
#include "../profile/profile.h"
#include "../readers/perf.h"
#include "../readers/reader.h"
#include "../writers/folded.h"
#include "cli.h"

struct collapse_options {
	const struct reader *reader;
	struct folded_write_options write;  /* how a personality prints */
	const char *output;             /* -o FILE, NULL = stdout */
	bool perl_mode;
	struct perf_read_options perf;
	bool used_perf_option;          /* to reject perf options on other formats */
	unsigned jobs;                  /* --jobs */
	char **files;
	int file_count;
};

enum {
	OPT_PID = 1000, OPT_TID, OPT_KERNEL, OPT_JIT, OPT_ALL, OPT_ADDRS, OPT_INLINE,
	OPT_CONTEXT, OPT_SRCLINE, OPT_EVENT_FILTER, OPT_HELP, OPT_JOBS,
};

/* The options of stackcollapse-perf.pl: one table for both ways in. */
static const struct option perf_long_options[] = {
	{ "pid", no_argument, NULL, OPT_PID },
	{ "tid", no_argument, NULL, OPT_TID },
	{ "kernel", no_argument, NULL, OPT_KERNEL },
	{ "jit", no_argument, NULL, OPT_JIT },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "addrs", no_argument, NULL, OPT_ADDRS },
	{ "inline", no_argument, NULL, OPT_INLINE },
	{ "context", no_argument, NULL, OPT_CONTEXT },
	{ "srcline", no_argument, NULL, OPT_SRCLINE },
	{ "event-filter", required_argument, NULL, OPT_EVENT_FILTER },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

static const char perf_options_help[] =
	"  --pid               name processes comm-PID\n"
	"  --tid               name processes comm-PID/TID\n"
	"  --kernel            mark kernel frames with _[k]\n"
	"  --jit               mark JIT frames (/tmp/perf-PID.map) with _[j]\n"
	"  --all               --kernel and --jit\n"
	"  --addrs             show the address of frames without a symbol\n"
	"  --inline            expand inlined functions from the binaries' DWARF\n"
	"  --context           with --inline, add file:line to each function\n"
	"  --srcline           the input is `perf script -F+srcline`: add file:line\n"
	"  --event-filter=EV   collapse samples of event EV (default: the first seen)\n";

static void collapse_usage(FILE *out)
{
	fprintf(out,
		"usage: flamekit collapse [FORMAT] [OPTIONS] [FILE...]\n\n"
		"Reads profiler output (FILEs, or standard input if none or \"-\"; gzip\n"
		"is recognised by its content) and prints folded stacks: one line\n"
		"\"comm;root;...;leaf COUNT\" per distinct stack, sorted. Without FORMAT,\n"
		"the format is told from the first input's content.\n\n"
		"formats:\n");
	for (const struct reader *r = readers; r->name; r++)
		fprintf(out, "  %-19s %s\n", r->name, r->summary);
	fprintf(out,
		"\noptions:\n"
		"  -o, --output FILE   write FILE (complete, or not at all) instead of stdout\n"
		"  -j, --jobs N        threads for one large uncompressed file (default: one\n"
		"                      per CPU; the output is the same for any N)\n"
		"  -h, --help          show this help\n\n"
		"perf options (same as stackcollapse-perf.pl):\n%s\n"
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
		"  flamekit collapse perf --pid capture.txt.gz | grep mysqld\n"
		"  flamekit collapse out.stacks > out.folded        # any known format\n"
		"  flamekit collapse folded monday.folded tuesday.folded > both.folded  # summed\n",
		perf_options_help);
}

/*
 * The Perl collapsers flamekit stands in for, by the name it is called by
 * (see commands[] in main.c). Each prints what its Perl tool prints.
 */
struct perl_collapser {
	const char *name;
	const char *format;          /* the reader */
	bool perf_options;           /* takes stackcollapse-perf.pl's options */
	struct folded_write_options write;
};

static const struct perl_collapser perl_collapsers[] = {
	{ "stackcollapse-perf", "perf", true, { 0 } },
	{ "stackcollapse-stap", "stap", false,
	  { .perl_printf = true, .perl_tool = "stackcollapse-stap.pl", .perl_tool_line = 83 } },
	{ "stackcollapse", "dtrace", false, { 0 } },
	{ "stackcollapse-bpftrace", "bpftrace", false, { 0 } },
	{ NULL, NULL, false, { 0 } },
};

static void perl_collapser_usage(const struct perl_collapser *pc, FILE *out)
{
	const struct reader *r = reader__find(pc->format);
	fprintf(out,
		"usage: %s %s[FILE...] > out.folded\n\n"
		"flamekit's drop-in for %s.pl: reads %s\n"
		"and prints the same folded stacks, byte for byte.\n",
		pc->name, pc->perf_options ? "[OPTIONS] " : "", pc->name, r->summary);
	if (pc->perf_options)
		fprintf(out, "\noptions:\n%s\n"
			"--pid and --tid need PID and TID in the input, e.g.\n"
			"  perf script -F comm,pid,tid,cpu,time,event,ip,sym,dso,trace\n",
			perf_options_help);
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

/* A perf option (stackcollapse-perf.pl's) or --jobs. Returns 0, or -1 for
 * an option that is neither (or a bad --jobs value, after a message). */
static int parse_perf_option(struct collapse_options *o, int opt)
{
	struct perf_read_options *p = &o->perf;
	if (opt == OPT_JOBS) /* applies to every format */
		return parse_jobs(o, optarg);
	switch (opt) {
	case OPT_PID: p->include_pid = true; break;
	case OPT_TID: p->include_tid = true; break;
	case OPT_KERNEL: p->annotate_kernel = true; break;
	case OPT_JIT: p->annotate_jit = true; break;
	case OPT_ALL: p->annotate_kernel = p->annotate_jit = true; break;
	case OPT_ADDRS: p->include_addrs = true; break;
	case OPT_INLINE: p->show_inline = true; break;
	case OPT_CONTEXT: p->show_context = true; break;
	case OPT_SRCLINE: p->srcline = true; break;
	case OPT_EVENT_FILTER: p->event_filter = optarg; break;
	default:
		return -1;
	}
	o->used_perf_option = true;
	return 0;
}

static int collapse_run(struct collapse_options *o)
{
	int status = EXIT_BAD_INPUT;
	struct profile *profile = NULL;
	struct read_context ctx = { .perl_mode = o->perl_mode, .jobs = o->jobs };
	struct input_set set;

	if (input_set__open(&set, o->files, o->file_count, !o->perl_mode) < 0)
		return EXIT_BAD_INPUT;
	struct input **inputs = set.inputs;
	size_t n = set.count;
	/* a personality reads what it is given, as the Perl tool does */
	if (!o->perl_mode) {
		bool guessed = !o->reader;
		o->reader = reader__choose(inputs, n, o->reader, NULL);
		if (!o->reader)
			goto cleanup;
		if (guessed && o->used_perf_option && strcmp(o->reader->name, "perf") != 0) {
			error("%s looks like %s output, but --pid, --tid, --kernel, ... apply to perf "
			      "script text only", input__name(inputs[0]), o->reader->name);
			goto cleanup;
		}
	}
	if (strcmp(o->reader->name, "perf") == 0)
		ctx.options = &o->perf;
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
	struct output *out;
	if (output__open(&out, o->output) < 0)
		goto cleanup;
	o->write.input_lines = 0;
	for (size_t i = 0; i < n; i++)
		o->write.input_lines += input__line_number(inputs[i]);
	if (folded_writer__write(profile, output__stream(out), &o->write) < 0) {
		output__abort(out);
		goto cleanup;
	}
	status = output__commit(out) < 0 ? 1 : 0;
cleanup:
	input_set__close(&set);
	profile__free(profile);
	read_context__release(&ctx);
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
		error("'%s' is neither a format nor a file; known formats:", argv[1]);
		for (const struct reader *r = readers; r->name; r++)
			fprintf(stderr, "  %-12s %s\n", r->name, r->summary);
		return EXIT_BAD_INPUT;
	}
	/* else no FORMAT: guessed from the first input's content */
	optind = 0;
	opterr = 1;
	int opt;
	while ((opt = getopt_long(argc, argv, "ho:j:", perf_long_options, NULL)) != -1) {
		if (opt == 'j')
			opt = OPT_JOBS;
		if (opt == 'h' || opt == OPT_HELP) {
			collapse_usage(stdout);
			return 0;
		}
		if (opt == 'o') {
			o.output = optarg;
			continue;
		}
		if (opt == '?' || parse_perf_option(&o, opt) < 0) {
			fprintf(stderr, "flamekit: see `flamekit collapse --help`\n");
			return EXIT_BAD_INPUT;
		}
	}
	if (o.used_perf_option && o.reader && strcmp(o.reader->name, "perf") != 0) {
		error("--pid, --tid, --kernel, ... apply to the perf format only, not '%s'",
		      o.reader->name);
		return EXIT_BAD_INPUT;
	}
	if (o.perf.show_context && !o.perf.show_inline) {
		error("--context adds source lines to --inline frames; add --inline");
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
	if (!pc->perf_options) {
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
	opterr = 1;
	int opt;
	/* Perl's Getopt::Long takes -pid as well as --pid, and lets options
	 * follow file names: getopt_long_only with permutation does both. */
	while ((opt = getopt_long_only(argc, argv, "", perf_long_options, NULL)) != -1) {
		if (opt == OPT_HELP) {
			perl_collapser_usage(pc, stdout);
			return 0;
		}
		if (opt == '?' || opt == 'o' || parse_perf_option(&o, opt) < 0) {
			perl_collapser_usage(pc, stderr);
			return EXIT_BAD_INPUT;
		}
	}
	o.files = argv + optind;
	o.file_count = argc - optind;
	return collapse_run(&o);
}
