#include "symbol_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/cache_dir.h"
#include "../lib/pages.h"
#include "../lib/upper_bound.h"
#include "../lib/xalloc.h"

const char symbol_file__version[16] = "flamekit-sym-v1";

struct header {
	char magic[16];
	uint64_t count, names_size;
};

_Static_assert(sizeof(struct header) % _Alignof(struct packed_symbol) == 0,
	       "the symbols follow the header aligned");
_Static_assert(offsetof(struct packed_symbol, addr) == 0, "upper_bound() keys lead their elements");

/* Points f's symbols and names into its bytes (a header, then they), if
 * the header says they fill the bytes exactly: 0, or -1. */
static int symbol_file__place(struct symbol_file *f)
{
	struct header h;
	if (f->size < sizeof(h))
		return -1;
	memcpy(&h, f->bytes, sizeof(h));
	if (memcmp(h.magic, symbol_file__version, sizeof(h.magic)) != 0 ||
	    h.count > (f->size - sizeof(h)) / sizeof(struct packed_symbol) ||
	    h.names_size != f->size - sizeof(h) - h.count * sizeof(struct packed_symbol))
		return -1;
	f->symbols = (const struct packed_symbol *)((const char *)f->bytes + sizeof(h));
	f->count = h.count;
	f->names = (const char *)(f->symbols + h.count);
	f->names_size = h.names_size;
	/* every name ends within the names: the last byte ends one */
	return h.names_size == 0 ? (h.count == 0 ? 0 : -1) : f->names[h.names_size - 1] == 0 ? 0 : -1;
}

void symbol_file__pack(const struct symbol_table *t, struct symbol_file *out)
{
	size_t names_size = 0;
	for (size_t i = 0; i < t->count; i++)
		names_size += strlen(t->symbols[i].name) + 1;
	*out = (struct symbol_file){ 0 };
	out->size = sizeof(struct header) + t->count * sizeof(struct packed_symbol) + names_size;
	out->bytes = fk_malloc(out->size);
	struct header h = { { 0 }, t->count, names_size };
	memcpy(h.magic, symbol_file__version, sizeof(h.magic));
	memcpy(out->bytes, &h, sizeof(h));
	struct packed_symbol *packed = (struct packed_symbol *)((char *)out->bytes + sizeof(h));
	char *names = (char *)(packed + t->count), *name = names;
	for (size_t i = 0; i < t->count; i++) {
		size_t len = strlen(t->symbols[i].name) + 1;
		packed[i] = (struct packed_symbol){ t->symbols[i].addr, t->symbols[i].size,
						    (uint32_t)(name - names) };
		memcpy(name, t->symbols[i].name, len);
		name += len;
	}
	symbol_file__place(out);
}

int symbol_file__map(const char *path, struct symbol_file *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;

	*out = (struct symbol_file){ 0 };
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(struct header)) {
		out->size = (size_t)st.st_size;
		out->bytes = mmap(NULL, out->size, PROT_READ, MAP_PRIVATE, fd, 0);
	}
	cache_dir__used(fd);
	close(fd);
	if (!out->bytes || out->bytes == MAP_FAILED) {
		*out = (struct symbol_file){ 0 };
		return -1;
	}
	out->mapped = 1;
	if (symbol_file__place(out) != 0) {
		symbol_file__release(out);
		return -1;
	}
	return 0;
}

int symbol_file__write(const struct symbol_file *f, const char *path)
{
	struct iovec whole = { f->bytes, f->size };
	return cache_dir__write_file(path, &whole, 1);
}

void symbol_file__release(struct symbol_file *f)
{
	made_names__forget(&f->made);
	if (f->mapped)
		munmap(f->bytes, f->size);
	else
		free(f->bytes);
	*f = (struct symbol_file){ 0 };
}

/* The symbol that may hold addr: the last of the first `below` symbols. */
static const struct packed_symbol *symbol_below(const struct symbol_file *f, uint64_t addr,
						size_t below)
{
	if (below == 0)
		return NULL;
	const struct packed_symbol *s = &f->symbols[below - 1];
	return symbol__holds(s->addr, s->size, addr) && s->name < f->names_size ? s : NULL;
}

const struct packed_symbol *symbol_file__find(const struct symbol_file *f, uint64_t addr)
{
	return symbol_below(f, addr, upper_bound(f->symbols, f->count, sizeof(*f->symbols),
						 sizeof(f->symbols->addr), addr));
}

const struct packed_symbol *symbol_file__find_from(const struct symbol_file *f, uint64_t addr,
						   size_t *cursor)
{
	*cursor = upper_bound_from(f->symbols, f->count, sizeof(*f->symbols),
				   sizeof(f->symbols->addr), addr, *cursor);
	return symbol_below(f, addr, *cursor);
}

bool symbol_file__maps(const struct symbol_file *f, const char *name)
{
	return f->mapped && name >= (const char *)f->bytes &&
	       name < (const char *)f->bytes + f->size;
}

const char *symbol_file__name(struct symbol_file *f, const struct packed_symbol *s)
{
	return made_names__shown(&f->made, s->addr, f->names + s->name);
}

void symbol_file__forget_names(struct symbol_file *f)
{
	made_names__forget(&f->made);
}

void symbol_file__release_pages(struct symbol_file *f)
{
	if (!f->mapped)
		return;
	pages__give_back(f->bytes, f->size);
}
