/*
 * The expressions stackcollapse-perf.pl matches one line of `perf script`
 * text with, each reproduced by a function (the Perl quoted above it in
 * perf_lines.c), including how Perl's backtracking resolves odd lines, in
 * linear time whatever the line holds. Spans point into the line given.
 */
#ifndef FLAMEKIT_READERS_PERF_LINES_H
#define FLAMEKIT_READERS_PERF_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perl_text.h"

/* A sample header: "comm pid/tid ..." (pid and tid may be empty spans). */
bool perf_line__header(const char *s, size_t n, struct span *comm, struct span *pid, struct span *tid);
/* The event name and period after the header's pid. */
bool perf_line__event(const char *s, size_t n, struct span *period, struct span *event);
/* The sample's time in ns, "SECONDS.FRACTION:" after the header's pid/tid
 * (from: where they end); false if the header has none. */
bool perf_line__time(const char *s, size_t n, size_t from, uint64_t *ns);
/* A frame line: "  pc func+off (module)". */
bool perf_line__frame(const char *s, size_t n, struct span *pc, struct span *func, struct span *mod);
/* The function without its "+0x..." offset. */
struct span perf_frame__strip_offset(struct span f);
/* A /tmp/perf-PID.map module: JIT code. */
bool perf_module__is_jit(struct span mod);
/* A kernel module or vmlinux. */
bool perf_module__is_kernel(struct span mod);
/* A module whose DWARF --inline may open. */
bool perf_module__inline_applies(struct span mod);

#endif
