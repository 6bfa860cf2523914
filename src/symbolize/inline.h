/*
 * Inlined-frame expansion for `collapse perf --inline`, as
 * stackcollapse-perf.pl does it with `addr2line -a PC -e MODULE -i -f -s -C`,
 * but through libdw, in process, with each module opened once.
 *
 * The result for one frame is its function chain, outermost first, joined
 * by ';' ("caller;inlined_callee"); with context each name is followed by
 * ":file:line" (file without its directory). What addr2line cannot resolve
 * comes out as "??" (or "??:??:0" with context); an unreadable module gives
 * an empty result. Like the Perl tool, when the address is unknown and the
 * perf symbol reads "func+0xOFF", the address of func in the module's symbol
 * table plus OFF is tried instead.
 *
 * Results are cached per (module, pc); the resolver owns every module it
 * opened until inline_resolver__free().
 */
#ifndef FLAMEKIT_SYMBOLIZE_INLINE_H
#define FLAMEKIT_SYMBOLIZE_INLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "../lib/buf.h"

struct inline_resolver;

struct inline_resolver *inline_resolver__new(bool with_context);
void inline_resolver__free(struct inline_resolver *r);
/* Appends the chain for pc (hex text, as perf prints it) to out. */
void inline_resolver__expand(struct inline_resolver *r, const char *pc, size_t pc_len,
			     const char *rawfunc, size_t rawfunc_len,
			     const char *module, size_t module_len, struct buf *out);

#endif
