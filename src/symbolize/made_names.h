/*
 * The names shown for symbols, made from their raw names the first time
 * one is asked for: C++ and Rust demangled (demangle.h), a .symtab version
 * suffix ("clock_gettime@@GLIBC_2.17") cut, a suffix added (a JIT's "_[j]").
 * Most of a table's symbols are never shown, so the made names are kept
 * aside, for the few asked for, keyed by the symbol's address and the
 * address of its raw name (a JIT may put new code where old code was).
 *
 *	struct made_names made = { 0 };
 *	const char *shown = made_names__shown(&made, addr, raw);
 *	made_names__forget(&made);   // the names it gave are gone
 *
 * A raw name must stay where it is while its made names are kept.
 */
#ifndef FLAMEKIT_SYMBOLIZE_MADE_NAMES_H
#define FLAMEKIT_SYMBOLIZE_MADE_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "../lib/index_table.h"

struct made_name;

struct made_names {
	struct made_name *names;
	size_t count, cap;
	struct index_table index;
};

/* The name to show for the symbol at addr named raw (raw itself when it
 * needs nothing made). Valid until made_names__forget(). */
const char *made_names__shown(struct made_names *m, uint64_t addr, const char *raw);
/* That name with suffix after it; one suffix per set of made names. */
const char *made_names__annotated(struct made_names *m, uint64_t addr, const char *raw,
				  const char *suffix);
/* Frees the names made (a long run, after a window's names are copied out). */
void made_names__forget(struct made_names *m);

#endif
