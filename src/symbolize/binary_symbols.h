/*
 * One binary (an executable or library file, or the vDSO) as symbolizers
 * and unwinders need it: its open file and ELF image, where its loadable
 * segments lie, and its function symbols, read the first time a name is
 * wanted. The symbol table is the one libdwfl's standard lookups choose:
 * the binary's own .symtab; else the separate debug file where
 * distributions put it (/usr/lib/debug/.build-id/xx/yyyy.debug, or the
 * .gnu_debuglink name beside the binary, in .debug/ there or under
 * /usr/lib/debug/DIR/), taken only when its build id or CRC says it belongs
 * to the binary; else .dynsym with MiniDebugInfo's (.gnu_debugdata, xz).
 *
 *	struct binary *b = binary__open(path, named, dev, inode);
 *	uint64_t vaddr = binary__vaddr(b, file_offset);
 *	enum symbol_miss why;
 *	const char *name = binary__name(b, vaddr, &why);
 *	binary__free(b);
 *
 * The symbols are read once per binary version: sorted and packed, they
 * are kept in the cache directory's symbols/ (symbol_file.h), where later
 * runs map them from. A name stays valid until binary__forget_names() or
 * binary__free().
 */
#ifndef FLAMEKIT_SYMBOLIZE_BINARY_SYMBOLS_H
#define FLAMEKIT_SYMBOLIZE_BINARY_SYMBOLS_H

#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "debuginfo.h"
#include "symbol_file.h"

struct binary;

/*
 * Opens path, the file a process maps as `named` (where its debug file is
 * looked for). A file whose inode is not `inode` on device `dev` (major <<
 * 32 | minor) is another file now (the binary was replaced) and is not
 * read; inode 0 checks nothing. Never NULL: an unreadable binary still
 * names its frames "[unknown:unreadable NAME]".
 */
struct binary *binary__open(const char *path, const char *named, uint64_t dev, uint64_t inode);
/* Our own vDSO, read from memory (the kernel maps the same image into every
 * process); NULL if it cannot be found. */
struct binary *binary__open_vdso(void);
void binary__free(struct binary *b);

bool binary__is(const struct binary *b, uint64_t dev, uint64_t inode);
/* Whether its ELF image could be read. */
bool binary__readable(const struct binary *b);
/* The file descriptor and ELF image (owned by b), the path as named, and
 * the image's own address range, pages whole; for an unwinder. The pages
 * it reads through the image are given back as a name's are
 * (binary__release_pages()). */
int binary__fd(const struct binary *b);
Elf *binary__elf(struct binary *b);
const char *binary__path(const struct binary *b);
void binary__image(const struct binary *b, uint64_t *low, uint64_t *high);

/* The address in the image's own layout that a file offset loads to. */
uint64_t binary__vaddr(const struct binary *b, uint64_t file_offset);
/* Gives back to the page cache the pages of b's files read so far: they
 * count in our resident set otherwise, a page for each name looked up, up
 * to the whole of a big program's symbol tables, and libdwfl's reads of
 * its .eh_frame. Names stay valid (a page read again is faulted in again).
 * only_if_read: only if a name was looked up, or the ELF image handed out
 * (binary__elf()), since the last call; an image's reader may read after
 * that call, so pages read that way wait for a call without it. */
void binary__release_pages(struct binary *b, bool only_if_read);
/* Frees the names binary__name() made (symbol_table__forget_names()): the
 * names it gave are not valid after. Its symbols go too once it has named
 * nothing since the last BINARY_IDLE_FORGETS calls (a program not run for
 * a while: read again at its next name). */
#define BINARY_IDLE_FORGETS 6
void binary__forget_names(struct binary *b);
/*
 * The function holding vaddr; else the frame text saying why there is none
 * ("[unknown:no-symbols NAME]", "[unknown:unreadable NAME]", NAME the file's
 * basename), with *miss set (may be NULL). The symbols are read at the
 * first call; then, where this machine has no symbol table for the binary,
 * fetch (NULL: none) may bring its debug file from a debuginfod server.
 */
const char *binary__name(struct binary *b, uint64_t vaddr, struct debuginfod_fetcher *fetch,
			 enum symbol_miss *miss);
/*
 * Names many addresses at once: each binary__want()ed, then all named by
 * binary__name_wanted() in address order, which reads each page of the
 * symbols and names once and gives them back as it goes (looked up one by
 * one, as stacks come, the same pages are read again and again, and held
 * between releases). binary__name() gives their names from then on, until
 * binary__forget_names(); wants after binary__name_wanted() are ignored.
 */
void binary__want(struct binary *b, uint64_t vaddr);
void binary__name_wanted(struct binary *b, struct debuginfod_fetcher *fetch);

#endif
