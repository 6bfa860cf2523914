/*
 * What a command says when getopt refuses its command line: one place for
 * every command and personality, so that each names itself and offers the
 * option meant ("did you mean --kernel?"), instead of getopt's own message,
 * which names the program as argv[0] has it ("perf: unrecognized option").
 *
 * Parse with opterr = 0 and an optstring that begins with ':' (a missing
 * value then returns ':'); on '?' or ':':
 *
 *	while ((opt = getopt_long(argc, argv, ":ho:", long_options, NULL)) != -1)
 *		...
 *		case '?': case ':':
 *			option_error("collapse", OPTION_VOICE_FLAMEKIT, opt, argv, long_options);
 *			return EXIT_BAD_INPUT;
 *
 * It reads getopt's optind and optopt, so call it before getopt runs again.
 */
#ifndef FLAMEKIT_CLI_OPTION_ERROR_H
#define FLAMEKIT_CLI_OPTION_ERROR_H

#include <getopt.h>

enum option_voice {
	/* "flamekit COMMAND: unknown option --kernal; did you mean --kernel?" */
	OPTION_VOICE_FLAMEKIT,
	/* Perl's, as the FlameGraph tools print it (Getopt::Long's words, which
	 * Getopt::Std shares for these): "Unknown option: kernal", "Option t is
	 * ambiguous (title, total)"; the caller prints the usage after */
	OPTION_VOICE_PERL,
};

/* Prints the one line that says what was wrong with the option getopt just
 * refused (opt: what it returned). Returns -1. */
int option_error(const char *command, enum option_voice voice, int opt, char **argv,
		 const struct option *long_options);

#endif
