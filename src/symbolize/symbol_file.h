/*
 * A binary's function symbols in the form a later run can map: what a
 * sorted symbol_table (symbol_table.h) packs into, written to the cache
 * directory by the run that read the binary, and mapped from there by the
 * runs after it. Naming a binary's frames then neither reads its symbol
 * tables again (libdwfl over .symtab and its strings: most of the cost of a
 * binary's first name) nor keeps a copy of them in our heap: the mapped
 * file's pages are the page cache's, and symbol_file__release_pages() gives
 * them back, as binaries' own pages are given back (binary_symbols.h).
 *
 *	struct symbol_file f;
 *	if (symbol_file__map(path, &f) != 0) {
 *		symbol_file__pack(&sorted, &f);       // in our memory
 *		symbol_file__write(&f, path);         // for the runs after
 *	}
 *	const struct packed_symbol *s = symbol_file__find(&f, addr);
 *	const char *name = s ? symbol_file__name(&f, s) : NULL;
 *	symbol_file__release(&f);
 *
 * The file: a 16-byte magic, the symbol count and the names' size (u64
 * each, this machine's order), the symbols sorted by address, then their
 * NUL-terminated names. The magic changes with the form, or with which
 * symbols a binary gives (binary_symbols.c's rules).
 */
#ifndef FLAMEKIT_SYMBOLIZE_SYMBOL_FILE_H
#define FLAMEKIT_SYMBOLIZE_SYMBOL_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "made_names.h"
#include "symbol_table.h"

struct packed_symbol {
	uint64_t addr;
	uint32_t size;  /* 0: it reaches to the next symbol */
	uint32_t name;  /* where its name starts in the names */
};

struct symbol_file {
	const struct packed_symbol *symbols;  /* sorted by addr */
	size_t count;
	const char *names;
	size_t names_size;
	void *bytes;        /* the whole file's bytes: mapped, or our memory */
	size_t size;
	int mapped;         /* whether bytes is a mapping (else malloc'd) */
	struct made_names made;
};

/* The form's version: the file's magic, and part of a cache key. */
extern const char symbol_file__version[16];

/* Packs t (sorted: symbol_table__sort()) into out, in our memory. */
void symbol_file__pack(const struct symbol_table *t, struct symbol_file *out);
/* Maps the file at path: 0, or -1 if it is not there or not whole. */
int symbol_file__map(const char *path, struct symbol_file *out);
/* Writes f to path, whole or not at all: 0, or -1 with errno set. */
int symbol_file__write(const struct symbol_file *f, const char *path);
void symbol_file__release(struct symbol_file *f);

/* The symbol holding addr (a size-0 symbol reaches to the next), or NULL. */
const struct packed_symbol *symbol_file__find(const struct symbol_file *f, uint64_t addr);
/* The same, for addresses asked in ascending order: *cursor (0 before the
 * first) keeps where the last search ended, and the next one reads on from
 * there (upper_bound_from()). */
const struct packed_symbol *symbol_file__find_from(const struct symbol_file *f, uint64_t addr,
						   size_t *cursor);
/* Whether name points into the mapped file (a raw name given as the name
 * to show): reading it may fault the file's pages in again. */
bool symbol_file__maps(const struct symbol_file *f, const char *name);
/* Its name to show (made_names.h); valid until symbol_file__forget_names(). */
const char *symbol_file__name(struct symbol_file *f, const struct packed_symbol *s);
void symbol_file__forget_names(struct symbol_file *f);
/* Gives back to the page cache the mapped file's pages read so far (a
 * name read later faults its page in again); nothing for our memory. */
void symbol_file__release_pages(struct symbol_file *f);

#endif
