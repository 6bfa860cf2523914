/*
 * The command line: one table of commands (main.c), one file per command.
 *
 * A command is `int cmd_NAME(int argc, char **argv)`: argv[0] is the name it
 * was called by, it parses its own options (and prints its own --help), and
 * returns the exit status, one of the EXIT_ values below, the table the man
 * page's EXIT STATUS gives. Options go through getopt with opterr 0, and a
 * refused option through option_error() (option_error.h), which names
 * flamekit and the command and offers the option meant.
 *
 * How to add a command:
 *   1. write src/cli/NAME.c with cmd_NAME() and its usage text;
 *   2. add a row to commands[] in main.c (personality rows are the names a
 *      link can have; the Makefile's PERSONALITIES makes those links);
 *   3. add its cases to tests/ and a section to doc/flamekit.1 (and its
 *      line to the SYNOPSIS). Its --help lines that begin with an option
 *      ("  -o, --output FILE ...") are what the shell completions offer
 *      (completions/candidates.sh).
 */
#ifndef FLAMEKIT_CLI_H
#define FLAMEKIT_CLI_H

#include <stdbool.h>

#include "../writers/writer.h"

/*
 * The exit statuses, the same for every command (doc/flamekit.1, EXIT
 * STATUS); a personality exits as its Perl tool does instead (Perl's die is
 * EXIT_PERL_DIE).
 */
#define EXIT_WRITE_FAILED 1  /* the output could not be written: a write or the
				final rename failed (disk full, I/O error, a
				FIFO's reader gone); nothing half-written is left */
#define EXIT_BAD_INPUT 2     /* the command line cannot be done: bad usage (an
				unknown option, a bad value, a conflict), input
				that cannot be read or is not the format, no
				stacks, an output path that cannot be made (no
				such directory, a directory, no permission), a
				recording that cannot start; nothing is written */
#define EXIT_NO_COMMAND 127  /* no such command */
#define EXIT_PERL_DIE 255    /* a personality, where its Perl tool dies */

/* The exit status for what writer__write_file() (or outdir__write())
 * returned: a path that could not be opened is the command line's mistake. */
static inline int exit_status_of_write(int written)
{
	return written == 0 ? 0 : written == WRITE_FILE_FAILED ? EXIT_WRITE_FAILED : EXIT_BAD_INPUT;
}

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
