/*
 * bcc `profile`'s default multi-line report, from a profile whose stacks are
 * "comm;user frames;-;kernel frames" (root first, as record builds them)
 * keyed by pid: per stack, the frames leaf first, one per line, the "-"
 * delimiter frame printed as "--", then "-  comm (pid)" and the count;
 * stacks by count, highest first. A title (writer_options) comes first,
 * then an empty line, as bcc prints its header: record --off-cpu's
 * "Tracing off-CPU time (us) of ...", which says what the counts are.
 */
#ifndef FLAMEKIT_WRITERS_BCC_REPORT_H
#define FLAMEKIT_WRITERS_BCC_REPORT_H

#include <stdio.h>

#include "../profile/profile.h"
#include "writer.h"

int bcc_report_writer__write(const struct profile *profile, FILE *out,
			     const struct writer_options *options);

#endif
