/* SystemTap backtraces, as stackcollapse-stap.pl collapses them (stap.c). */
#ifndef FLAMEKIT_READERS_STAP_H
#define FLAMEKIT_READERS_STAP_H

#include "perl_text.h"
#include "reader.h"

int stap_reader__read(struct read_context *ctx, struct input *const *inputs, size_t count,
		      struct profile *profile);

/* The count line of the stap and DTrace collapsers: /^\s*(\d+)+$/. */
bool perl_count_line(struct span line, uint64_t *count);
/* /^\s*$/ */
bool perl_blank_line(struct span line);

#endif
