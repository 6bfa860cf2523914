#include "symbol_table.h"

#include <gelf.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/upper_bound.h"
#include "../lib/xalloc.h"

void symbol_table__reserve(struct symbol_table *t, size_t n)
{
	if (t->count + n > t->cap) {
		t->cap = t->count + n;
		t->symbols = fk_realloc(t->symbols, t->cap * sizeof(*t->symbols));
	}
}

void symbol_table__add(struct symbol_table *t, uint64_t addr, uint64_t size, const char *name,
		       unsigned char binding)
{
	t->symbols = fk_grow(t->symbols, &t->cap, t->count + 1, sizeof(*t->symbols));
	t->symbols[t->count++] = (struct symbol){
		addr, name, size > UINT32_MAX ? UINT32_MAX : (uint32_t)size, binding };
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
	for (size_t i = 0; i < t->count; i++)
		if (kept == 0 || t->symbols[kept - 1].addr != t->symbols[i].addr)
			t->symbols[kept++] = t->symbols[i];
	t->count = kept;
	if (t->cap > kept) {
		t->cap = kept ? kept : 1;
		t->symbols = fk_realloc(t->symbols, t->cap * sizeof(*t->symbols));
	}
}

_Static_assert(offsetof(struct symbol, addr) == 0, "upper_bound() keys lead their elements");

struct symbol *symbol_table__find(const struct symbol_table *t, uint64_t addr)
{
	size_t below = upper_bound(t->symbols, t->count, sizeof(*t->symbols), sizeof(t->symbols->addr),
				   addr);
	if (below == 0)
		return NULL;
	struct symbol *s = &t->symbols[below - 1];
	return symbol__holds(s->addr, s->size, addr) ? s : NULL;
}

void symbol_table__forget_names(struct symbol_table *t)
{
	made_names__forget(&t->made);
}

void symbol_table__release(struct symbol_table *t)
{
	symbol_table__forget_names(t);
	free(t->symbols);
	*t = (struct symbol_table){ 0 };
}

const char *symbol_table__name(struct symbol_table *t, const struct symbol *s)
{
	return made_names__shown(&t->made, s->addr, s->name);
}

const char *symbol_table__annotated(struct symbol_table *t, const struct symbol *s,
				    const char *suffix)
{
	return made_names__annotated(&t->made, s->addr, s->name, suffix);
}
