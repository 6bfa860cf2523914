#include "symbol_table.h"

#include <gelf.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/upper_bound.h"
#include "../lib/xalloc.h"
#include "demangle.h"

void symbol_table__add(struct symbol_table *t, uint64_t addr, uint64_t size, const char *name,
		       unsigned char binding)
{
	t->symbols = fk_grow(t->symbols, &t->cap, t->count + 1, sizeof(*t->symbols));
	t->symbols[t->count++] = (struct symbol){ addr, size, name, NULL, false, binding, NULL };
}

static size_t leading_underscores(const char *name)
{
	size_t n = 0;
	while (name[n] == '_')
		n++;
	return n;
}

/*
 * Of two names of one address, the better first, as perf picks (so that
 * stacks read the same in both): a sized one, then not weak, then global,
 * then fewer leading underscores, then the longer name ("__libc_start_main"
 * over its local aliases, "clock_gettime" over "__clock_gettime").
 */
static int compare_aliases(const struct symbol *x, const struct symbol *y)
{
	if ((x->size == 0) != (y->size == 0))
		return x->size == 0 ? 1 : -1;
	if ((x->binding == STB_WEAK) != (y->binding == STB_WEAK))
		return x->binding == STB_WEAK ? 1 : -1;
	if ((x->binding == STB_GLOBAL) != (y->binding == STB_GLOBAL))
		return x->binding == STB_GLOBAL ? -1 : 1;
	size_t ux = leading_underscores(x->name), uy = leading_underscores(y->name);
	if (ux != uy)
		return ux < uy ? -1 : 1;
	size_t lx = strcspn(x->name, "@"), ly = strcspn(y->name, "@");
	if (lx != ly)
		return lx > ly ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int compare_symbols(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return compare_aliases(x, y);
}

void symbol_table__sort(struct symbol_table *t)
{
	size_t kept = 0;

	if (t->count)
		qsort(t->symbols, t->count, sizeof(*t->symbols), compare_symbols);
	for (size_t i = 0; i < t->count; i++) {
		if (kept == 0 || t->symbols[kept - 1].addr != t->symbols[i].addr) {
			t->symbols[kept++] = t->symbols[i];
		} else {
			free(t->symbols[i].demangled);
			free(t->symbols[i].annotated);
		}
	}
	t->count = kept;
}

_Static_assert(offsetof(struct symbol, addr) == 0, "upper_bound() keys lead their elements");

struct symbol *symbol_table__find(const struct symbol_table *t, uint64_t addr)
{
	size_t below = upper_bound(t->symbols, t->count, sizeof(*t->symbols), sizeof(t->symbols->addr),
				   addr);
	if (below == 0)
		return NULL;
	struct symbol *s = &t->symbols[below - 1];
	/* Size 0 (hand-written assembly) counts as reaching the next symbol. */
	return s->size == 0 || addr < s->addr + s->size ? s : NULL;
}

void symbol_table__release(struct symbol_table *t)
{
	for (size_t i = 0; i < t->count; i++) {
		free(t->symbols[i].demangled);
		free(t->symbols[i].annotated);
	}
	free(t->symbols);
	*t = (struct symbol_table){ 0 };
}

const char *symbol__name(struct symbol *s)
{
	if (!s->demangle_tried) {
		s->demangle_tried = true;
		/* "clock_gettime@@GLIBC_2.17" (a .symtab's versioned name): the name */
		size_t versioned = s->name[0] != '@' ? strcspn(s->name, "@") : strlen(s->name);
		char *unversioned = s->name[versioned] ? fk_memdup(s->name, versioned) : NULL;
		s->demangled = demangle(unversioned ? unversioned : s->name);
		if (s->demangled)
			free(unversioned);
		else
			s->demangled = unversioned;
	}
	return s->demangled ? s->demangled : s->name;
}
