/*
 * Perl's printf with a format and no arguments — what stackcollapse-stap.pl
 * does to every output line (`printf "$k $count\n"`), so that a '%' in a
 * frame name is a directive: "%%" prints '%', a directive with a missing
 * argument prints as undef would (0, 0.000000, "" ...) and warns, an invalid
 * directive prints as written and warns. Only the stap personality uses it.
 */
#ifndef FLAMEKIT_WRITERS_PERL_PRINTF_H
#define FLAMEKIT_WRITERS_PERL_PRINTF_H

#include <stddef.h>

#include "../lib/buf.h"

/* Appends the result to out; appends one message per Perl warning to
 * warnings ("Missing argument in printf", "Invalid conversion in printf: ..."),
 * each ending in '\n' without Perl's " at FILE line N." suffix. */
void perl_printf_noargs(struct buf *out, struct buf *warnings, const char *fmt, size_t len);

#endif
