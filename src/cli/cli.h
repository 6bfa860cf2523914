/*
 * The command line: one table of commands (main.c), one file per command.
 *
 * A command is `int cmd_NAME(int argc, char **argv)`: argv[0] is the name it
 * was called by, it parses its own options (and prints its own --help), and
 * returns the exit status: 0 success, 2 bad usage or unusable input.
 *
 * How to add a command:
 *   1. write src/cli/NAME.c with cmd_NAME() and its usage text;
 *   2. add a row to commands[] in main.c (personality rows are the names a
 *      link can have; the Makefile's PERSONALITIES makes those links);
 *   3. add its cases to tests/ and a section to doc/flamekit.1.
 */
#ifndef FLAMEKIT_CLI_H
#define FLAMEKIT_CLI_H

#include <stdbool.h>

#define EXIT_BAD_INPUT 2   /* bad usage, or no usable input */
#define EXIT_NO_COMMAND 127

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
	bool personality;  /* chosen by the program's name; takes the Perl tool's options */
};

int cmd_collapse(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_view(int argc, char **argv);
/* difffolded.pl's personality. */
int cmd_difffolded(int argc, char **argv);
/* flamegraph.pl's personality: its options, input rules and warnings. */
int cmd_flamegraph_personality(int argc, char **argv);
/* The Perl collapsers' personalities; the row is chosen by argv[0]. */
int cmd_perl_collapser(int argc, char **argv);

#endif
