/*
 * flamekit's entry point: choose a command from the program's name (a
 * personality such as stackcollapse-perf, reached through a link) or from
 * argv[1], and run it. See cli/cli.h for how to add one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "lib/suggest.h"

#ifndef FLAMEKIT_VERSION
#define FLAMEKIT_VERSION "0.0-dev"
#endif

static const struct command commands[] = {
	{ "record", cmd_record, "sample stacks with BPF: flamekit record [-p PID] [-o out.svg] [SECONDS]", false },
	{ "flamegraph", cmd_flamegraph, "draw an interactive SVG: flamekit flamegraph [OPTIONS] [FILE...] > out.svg", false },
	{ "diff", cmd_diff, "two folded files side by side, or their differential SVG: flamekit diff [--svg] BEFORE AFTER", false },
	{ "view", cmd_view, "an offline HTML viewer: flamekit view [-o out.html] FILE [FILE2]", false },
	{ "collapse", cmd_collapse, "fold profiler output into stacks: flamekit collapse FORMAT [FILE...]", false },
	{ "stackcollapse-perf", cmd_perl_collapser, "drop-in for stackcollapse-perf.pl", true },
	{ "stackcollapse-stap", cmd_perl_collapser, "drop-in for stackcollapse-stap.pl", true },
	{ "stackcollapse", cmd_perl_collapser, "drop-in for stackcollapse.pl (DTrace)", true },
	{ "stackcollapse-bpftrace", cmd_perl_collapser, "drop-in for stackcollapse-bpftrace.pl", true },
	{ "flamegraph", cmd_flamegraph_personality, "drop-in for flamegraph.pl", true },
	{ "difffolded", cmd_difffolded, "drop-in for difffolded.pl", true },
	{ NULL, NULL, NULL, false },
};

/* A command by name; `flamegraph` is both a command and a personality, so
 * a program name is looked up among personalities first. */
static const struct command *find_command(const char *name, bool personality)
{
	for (const struct command *c = commands; c->name; c++)
		if (c->personality == personality && strcmp(c->name, name) == 0)
			return c;
	for (const struct command *c = commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static void print_commands(FILE *out)
{
	fprintf(out, "commands:\n");
	for (const struct command *c = commands; c->name; c++)
		if (!c->personality)
			fprintf(out, "  %-24s %s\n", c->name, c->summary);
	fprintf(out, "  %-24s %s\n", "help [COMMAND]", "show this list, or a command's help");
	fprintf(out, "  %-24s %s\n", "version", "print flamekit's version (also -V, --version)");
	fprintf(out, "\npersonalities (run flamekit through a link of this name, Perl tool options):\n");
	for (const struct command *c = commands; c->name; c++)
		if (c->personality)
			fprintf(out, "  %-24s %s\n", c->name, c->summary);
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: flamekit COMMAND [OPTIONS] [FILE...]\n"
		"       flamekit help COMMAND | flamekit COMMAND --help | flamekit --version\n\n"
		"flamekit samples stacks with BPF, or reads other profilers' output, and\n"
		"turns them into folded stacks, flame graphs, differences and a viewer.\n\n");
	print_commands(out);
	fprintf(out,
		"\nexamples:\n"
		"  sudo flamekit record -F 99 -p 1234 -o flame.svg 10   # 10 s of PID 1234\n"
		"  sudo flamekit record -o run.html -- ./build.sh         # a command, all its life\n"
		"  sudo flamekit record --off-cpu -p 1234 -o blocked.svg 10\n"
		"  perf script | flamekit collapse perf > out.folded\n"
		"  flamekit collapse perf --all perf-script.txt.gz -o out.folded\n"
		"  perf script | flamekit collapse perf | flamekit flamegraph > out.svg\n"
		"  flamekit diff -n before.folded after.folded | flamekit flamegraph > diff.svg\n"
		"  flamekit view -o diff.html before.folded after.folded\n"
		"\nexit status: 0 done, 1 the output could not be written, 2 the command\n"
		"line cannot be done (usage, input, output path; nothing written), 127 no\n"
		"such command (man flamekit: EXIT STATUS)\n");
}

/* "flamekit: 'colapse' is not a flamekit command; did you mean 'collapse'?",
 * or the list of commands when nothing is close. */
static int no_such_command(const char *name)
{
	struct suggestion s;
	suggestion__init(&s, name);
	for (const struct command *c = commands; c->name; c++)
		if (!c->personality)
			suggestion__offer(&s, c->name);
	suggestion__offer(&s, "help");
	suggestion__offer(&s, "version");
	if (suggestion__best(&s)) {
		fprintf(stderr, "flamekit: '%s' is not a flamekit command; did you mean '%s'?\n", name,
			suggestion__best(&s));
		return EXIT_NO_COMMAND;
	}
	fprintf(stderr, "flamekit: '%s' is not a flamekit command\n\n", name);
	print_commands(stderr);
	return EXIT_NO_COMMAND;
}

static int run_command(const struct command *c, int argc, char **argv)
{
	int status = c->run(argc, argv);
	/* Own stdout: a write error (full disk) must not exit 0. EPIPE is fine. */
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		if (status == 0) {
			perror("flamekit: cannot write to standard output");
			status = 1;
		}
	}
	return status;
}

static const char *personality_name(const char *argv0, char *buf, size_t size)
{
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	snprintf(buf, size, "%s", base);
	size_t len = strlen(buf);
	if (len > 3 && strcmp(buf + len - 3, ".pl") == 0)
		buf[len - 3] = '\0';
	return buf;
}

int main(int argc, char **argv)
{
	char name[256];
	const struct command *c = find_command(personality_name(argc > 0 ? argv[0] : "flamekit",
								name, sizeof(name)), true);
	if (c && c->personality)
		return run_command(c, argc, argv);

	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_BAD_INPUT : 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0 ||
	    strcmp(argv[1], "version") == 0) {
		printf("flamekit %s\n", FLAMEKIT_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "help") == 0) {
		if (argc < 3) {
			usage(stdout);
			return 0;
		}
		c = find_command(argv[2], false);
		if (!c)
			return no_such_command(argv[2]);
		char *help_argv[] = { argv[2], (char *)"--help", NULL };
		return run_command(c, 2, help_argv);
	}
	c = find_command(argv[1], false);
	if (!c)
		return no_such_command(argv[1]);
	return run_command(c, argc - 1, argv + 1);
}
