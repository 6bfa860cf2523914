/*
 * Symbols by name in an ELF image's symbol tables (.dynsym and .symtab):
 * the data and functions a binary exports, as a profiler finds a runtime's
 * globals in it (CPython's _PyRuntime, Py_Version). binary_symbols.h names
 * addresses; this finds addresses by name.
 *
 *	const char *names[] = { "_PyRuntime", "Py_Version" };
 *	uint64_t values[2];
 *	size_t found = elf_exports__find(elf, names, values, 2);  // 0: not there
 *
 * values[i] is the symbol's st_value (the image's own address; add the load
 * bias of a process's mapping), 0 where names[i] is not defined.
 */
#ifndef FLAMEKIT_SYMBOLIZE_ELF_EXPORTS_H
#define FLAMEKIT_SYMBOLIZE_ELF_EXPORTS_H

#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

/* Returns how many of the names were found. */
size_t elf_exports__find(Elf *elf, const char *const *names, uint64_t *values, size_t count);
/* The lowest address a PT_LOAD segment asks for, pages whole: a mapping of
 * file offset 0 at address A has bias A - this. */
uint64_t elf_exports__first_load(Elf *elf);

#endif
