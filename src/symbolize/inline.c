#include "inline.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../lib/index_table.h"
#include "../lib/xalloc.h"
#include "debuginfo.h"
#include "demangle.h"

struct module {
	char *path;
	Dwfl *dwfl;          /* NULL when the file could not be opened */
	Dwfl_Module *mod;
};

struct cached {
	uint64_t hash;       /* of module path and pc */
	char *module;
	uint64_t pc;
	char *result;
};

struct inline_resolver {
	bool with_context;
	struct module *modules;
	size_t module_count, modules_cap;
	struct cached *cache;
	size_t cache_count, cache_cap;
	struct index_table cache_index;
};

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = debuginfo__find_local,
	.section_address = dwfl_offline_section_address,
};

struct inline_resolver *inline_resolver__new(bool with_context)
{
	struct inline_resolver *r = fk_calloc(1, sizeof(*r));
	r->with_context = with_context;
	index_table__init(&r->cache_index, 256);
	return r;
}

void inline_resolver__free(struct inline_resolver *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->module_count; i++) {
		if (r->modules[i].dwfl)
			dwfl_end(r->modules[i].dwfl);
		free(r->modules[i].path);
	}
	for (size_t i = 0; i < r->cache_count; i++) {
		free(r->cache[i].module);
		free(r->cache[i].result);
	}
	free(r->modules);
	free(r->cache);
	index_table__release(&r->cache_index);
	free(r);
}

static struct module *open_module(struct inline_resolver *r, const char *path)
{
	for (size_t i = 0; i < r->module_count; i++)
		if (strcmp(r->modules[i].path, path) == 0)
			return &r->modules[i];
	r->modules = fk_grow(r->modules, &r->modules_cap, r->module_count + 1, sizeof(*r->modules));
	struct module *m = &r->modules[r->module_count++];
	memset(m, 0, sizeof(*m));
	m->path = fk_strdup(path);
	m->dwfl = dwfl_begin(&offline_callbacks);
	if (m->dwfl) {
		/* base 0: addresses are the file's own, as addr2line reads them */
		m->mod = dwfl_report_elf(m->dwfl, path, path, -1, 0, false);
		dwfl_report_end(m->dwfl, NULL, NULL);
		if (!m->mod) {
			dwfl_end(m->dwfl);
			m->dwfl = NULL;
		}
	}
	return m;
}

static void append_demangled(struct buf *out, const char *name)
{
	char *d = demangle(name);
	buf__append(out, d ? d : name, strlen(d ? d : name));
	free(d);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* The name addr2line prints for a subprogram or inlined instance. */
static const char *scope_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = NULL;
	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
		name = dwarf_formstring(&attr);
	if (!name)
		name = dwarf_diename(die);
	if (!name) {
		Dwarf_Die origin;
		if (dwarf_attr(die, DW_AT_abstract_origin, &attr) &&
		    dwarf_formref_die(&attr, &origin))
			name = dwarf_diename(&origin);
	}
	return name;
}

/*
 * One (function, location) pair per line of addr2line's answer, innermost
 * first, as the Perl tool reads them; it then reverses them. Returns the
 * number of pairs written into names/locations (each a buf).
 */
static size_t lookup(struct module *m, uint64_t pc, struct buf *pairs)
{
	if (!m->mod)
		return 0;
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dwfl_module_addrdie(m->mod, pc, &bias);
	size_t n = 0;
	if (cu) {
		Dwarf_Die *scopes = NULL;
		int nscopes = dwarf_getscopes(cu, pc - bias, &scopes);
		/* location of the address itself */
		struct buf loc = BUF_INIT;
		Dwfl_Line *line = dwfl_module_getsrc(m->mod, pc);
		int lineno = 0;
		const char *file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
		if (file)
			buf__printf(&loc, "%s:%d", base_name(file), lineno);
		else
			buf__append(&loc, "??:0", 4);
		Dwarf_Files *files = NULL;
		size_t nfiles = 0;
		dwarf_getsrcfiles(cu, &files, &nfiles);
		/* Walk outwards. After an inlined instance, its concrete parents come
		 * from dwarf_getscopes_die() on it: dwarf_getscopes() continues with
		 * the abstract definition's scopes instead. */
		for (int i = 0; i < nscopes; i++) {
			int tag = dwarf_tag(&scopes[i]);
			if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
				continue;
			const char *name = scope_name(&scopes[i]);
			struct buf *f = &pairs[2 * n], *l = &pairs[2 * n + 1];
			buf__reset(f);
			buf__reset(l);
			if (name)
				append_demangled(f, name);
			else
				buf__append(f, "??", 2);
			buf__append(l, loc.data, loc.len);
			n++;
			if (tag == DW_TAG_subprogram || n == 64)
				break;
			/* The caller's location is this instance's call site. */
			Dwarf_Attribute attr;
			Dwarf_Word cfile = 0, cline = 0;
			buf__reset(&loc);
			const char *cname = NULL;
			if (dwarf_attr(&scopes[i], DW_AT_call_file, &attr) &&
			    dwarf_formudata(&attr, &cfile) == 0 && files)
				cname = dwarf_filesrc(files, cfile, NULL, NULL);
			if (dwarf_attr(&scopes[i], DW_AT_call_line, &attr))
				dwarf_formudata(&attr, &cline);
			if (cname)
				buf__printf(&loc, "%s:%llu", base_name(cname), (unsigned long long)cline);
			else
				buf__append(&loc, "??:0", 4);
			Dwarf_Die *parents = NULL;
			int nparents = dwarf_getscopes_die(&scopes[i], &parents);
			if (nparents <= 0)
				break;
			free(scopes);
			scopes = parents;
			nscopes = nparents;
			i = 0; /* parents[0] is this instance; go on from parents[1] */
		}
		free(scopes);
		buf__free(&loc);
	}
	if (n == 0) {
		/* No DWARF scope: addr2line falls back to the symbol table. */
		const char *sym = dwfl_module_addrname(m->mod, pc);
		buf__reset(&pairs[0]);
		buf__reset(&pairs[1]);
		if (sym) {
			append_demangled(&pairs[0], sym);
			buf__append(&pairs[1], "??:?", 4);
		} else {
			buf__append(&pairs[0], "??", 2);
			buf__append(&pairs[1], "??:0", 4);
		}
		n = 1;
	}
	return n;
}

/* nm's value for a symbol named exactly name, as `nm MODULE` would list it. */
static bool symbol_value(struct module *m, const char *name, uint64_t *value)
{
	if (!m->mod)
		return false;
	int count = dwfl_module_getsymtab(m->mod);
	for (int i = 0; i < count; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *s = dwfl_module_getsym_info(m->mod, i, &sym, &addr, NULL, NULL, NULL);
		if (s && strcmp(s, name) == 0) {
			*value = sym.st_value;
			return true;
		}
	}
	return false;
}

static void resolve(struct inline_resolver *r, struct module *m, uint64_t pc,
		    const char *rawfunc, struct buf *out)
{
	struct buf pairs[128];
	for (size_t i = 0; i < 128; i++)
		pairs[i] = (struct buf)BUF_INIT;
	size_t n = lookup(m, pc, pairs);
	if (n == 1 && strcmp(pairs[0].data, "??") == 0 && strcmp(pairs[1].data, "??:0") == 0) {
		/* if rawfunc is func+0xOFF, retry at func's address + OFF */
		const char *plus = strrchr(rawfunc, '+');
		uint64_t base;
		if (plus && plus > rawfunc && plus[1] == '0' && plus[2] == 'x' && plus[3] &&
		    strspn(plus + 3, "0123456789abcdef") == strlen(plus + 3)) {
			char *func = fk_memdup(rawfunc, (size_t)(plus - rawfunc));
			bool found = symbol_value(m, func, &base);
			free(func);
			if (found) {
				uint64_t off = strtoull(plus + 3, NULL, 16);
				for (size_t i = 0; i < 128; i++)
					buf__free(&pairs[i]);
				resolve(r, m, base + off, "", out);
				return;
			}
		}
	}
	for (size_t i = n; i-- > 0;) {
		if (out->len)
			buf__append_char(out, ';');
		buf__append(out, pairs[2 * i].data, pairs[2 * i].len);
		if (r->with_context) {
			buf__append_char(out, ':');
			buf__append(out, pairs[2 * i + 1].data, pairs[2 * i + 1].len);
		}
	}
	for (size_t i = 0; i < 128; i++)
		buf__free(&pairs[i]);
}

static uint64_t cached_hash_of(const void *cache, size_t index)
{
	return ((const struct cached *)cache)[index].hash;
}

void inline_resolver__expand(struct inline_resolver *r, const char *pc_text, size_t pc_len,
			     const char *rawfunc, size_t rawfunc_len,
			     const char *module, size_t module_len, struct buf *out)
{
	char *path = fk_memdup(module, module_len);
	char *pc_str = fk_memdup(pc_text, pc_len);
	uint64_t pc = strtoull(pc_str, NULL, 16);
	free(pc_str);
	uint64_t hash = XXH3_64bits_withSeed(path, module_len, pc);
	size_t slot = index_table__first(&r->cache_index, hash);
	for (uint32_t at; (at = r->cache_index.slots[slot]) != 0;
	     slot = index_table__next(&r->cache_index, slot)) {
		const struct cached *c = &r->cache[at - 1];
		if (c->hash == hash && c->pc == pc && strcmp(c->module, path) == 0) {
			buf__append(out, c->result, strlen(c->result));
			free(path);
			return;
		}
	}
	char *raw = fk_memdup(rawfunc, rawfunc_len);
	size_t start = out->len;
	resolve(r, open_module(r, path), pc, raw, out);
	free(raw);
	r->cache = fk_grow(r->cache, &r->cache_cap, r->cache_count + 1, sizeof(*r->cache));
	r->cache[r->cache_count] = (struct cached){ hash, path, pc,
						    fk_memdup(out->data + start, out->len - start) };
	index_table__insert(&r->cache_index, slot, r->cache_count++, cached_hash_of, r->cache);
}
