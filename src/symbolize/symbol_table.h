/*
 * A table of function symbols sorted by address, for one binary or one
 * perf map, and why a name may be missing.
 *
 *	struct symbol_table t = { 0 };
 *	symbol_table__reserve(&t, n);                           // optional
 *	symbol_table__add(&t, addr, size, name, STB_GLOBAL);   // in any order
 *	symbol_table__sort(&t);                                 // after adding
 *	struct symbol *s = symbol_table__find(&t, addr);
 *	const char *name = s ? symbol_table__name(&t, s) : NULL;
 *	symbol_table__release(&t);
 *
 * Names are not copied: they must outlive the table (they point into a
 * mapped ELF file or a perf map's block of names). A name from
 * symbol_table__name() stays valid until symbol_table__release(), through
 * later adds and sorts. Sorting keeps one symbol per address, the name
 * perf would show (symbol_table.c).
 *
 * The names shown (demangled, annotated) are made for the few asked for
 * (made_names.h).
 */
#ifndef FLAMEKIT_SYMBOLIZE_SYMBOL_TABLE_H
#define FLAMEKIT_SYMBOLIZE_SYMBOL_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "made_names.h"

/* Why an address has no name (as perf's dso__load errors say why a binary
 * gave none); each has its own frame text, see process_symbols.h. */
enum symbol_miss {
	SYMBOL_FOUND,
	SYMBOL_NOT_MAPPED,   /* no executable mapping held the address: "[unknown]" */
	SYMBOL_NO_JIT_NAME,  /* anonymous code, no perf map entry: "[unknown:jit]" */
	SYMBOL_NO_SYMBOL,    /* the binary has no symbol there (stripped, no debug
			      * file): "[unknown:no-symbols NAME]" */
	SYMBOL_UNREADABLE,   /* the binary could not be opened (gone, replaced):
			      * "[unknown:unreadable NAME]" */
};

struct symbol {
	uint64_t addr;
	const char *name;       /* not owned */
	uint32_t size;          /* 0: it reaches to the next symbol */
	unsigned char binding;  /* STB_*: which of several names of one address wins */
};

struct symbol_table {
	struct symbol *symbols;  /* sorted by addr after symbol_table__sort() */
	size_t count, cap;
	struct made_names made;  /* the names shown so far */
};

/* Whether a symbol at start of size size holds addr: size 0 (hand-written
 * assembly) counts as reaching the next symbol. */
static inline bool symbol__holds(uint64_t start, uint64_t size, uint64_t addr)
{
	return addr >= start && (size == 0 || addr - start < size);
}

/* Room for n more symbols (a symbol table's count, say), so that adding
 * does not double the array past what it needs. */
void symbol_table__reserve(struct symbol_table *t, size_t n);
void symbol_table__add(struct symbol_table *t, uint64_t addr, uint64_t size, const char *name,
		       unsigned char binding);
/* Sorts by address, keeping the better of several names of one address,
 * and gives back the room left over. */
void symbol_table__sort(struct symbol_table *t);
/* The symbol holding addr (a size-0 symbol reaches to the next), or NULL. */
struct symbol *symbol_table__find(const struct symbol_table *t, uint64_t addr);
void symbol_table__release(struct symbol_table *t);
/* Frees the names symbol_table__name() and __annotated() made (a long run,
 * after a window's names are copied out); they are made again if asked. */
void symbol_table__forget_names(struct symbol_table *t);

/* The name to show: C++ and Rust demangled (demangle.h), a .symtab version
 * suffix ("@@GLIBC_2.17") cut. */
const char *symbol_table__name(struct symbol_table *t, const struct symbol *s);
/* That name with suffix after it (a JIT's "_[j]"); one suffix per table. */
const char *symbol_table__annotated(struct symbol_table *t, const struct symbol *s,
				    const char *suffix);

#endif
