/*
 * A binary's unwind table for the in-kernel walk (src/bpf/record.h's
 * record_unwind_row): its .eh_frame read through libdw, one row per range
 * of addresses with one rule, sorted by pc, neighbours with the same rule
 * merged. The FDEs are found through .eh_frame_hdr's sorted table (GNU ld
 * writes it for every binary with .eh_frame); for each one libdw gives, per
 * address, the rule and the range it holds for (dwarf_cfi_addrframe(),
 * dwarf_frame_info()), and the walk goes from range to range. Only rules
 * of the common form are kept (CFA = rsp or rbp + N, the return address at
 * CFA - 8, rbp unchanged or saved at CFA + 8k; GNU ld's rule for .plt);
 * any other range is a FALLBACK row, and every gap between FDEs a NO_CFI
 * row. Addresses are the binary's own (ELF
 * virtual addresses), so one table serves every process that maps it.
 *
 *	struct unwind_table t;
 *	if (unwind_table__build(elf, &t) == 0) {
 *		... t.rows[0 .. t.count - 1] ...
 *		unwind_table__release(&t);
 *	}
 *
 * The table owns its rows; elf stays the caller's. unwind_table__build()
 * returns -1 without a message when the binary has no table this can read
 * (no .eh_frame_hdr, an encoding other than GNU ld's, addresses beyond
 * 4 GiB); the caller's samples in it then take the copy path.
 */
#ifndef FLAMEKIT_SYMBOLIZE_UNWIND_TABLE_H
#define FLAMEKIT_SYMBOLIZE_UNWIND_TABLE_H

#include <libelf.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../bpf/record.h"

struct unwind_table {
	struct record_unwind_row *rows;  /* NULL: they are in the cache's file, fd */
	size_t count;
	int fd;
};

int unwind_table__build(Elf *elf, struct unwind_table *out);
/* The row whose range holds own (an address of the binary's own), or NULL
 * (below the first row). */
const struct record_unwind_row *unwind_table__row(const struct unwind_table *t, uint32_t own);
/* The same, through a cache of tables by build id in cache_dir (made if
 * missing; NULL: none): a table built once is found there by later runs
 * (a binary without a build id is built each time). A file that is not
 * whole is built again and replaced. A table found is left in its file
 * (rows NULL), for unwind_table__read(): libLLVM's is 8 MB, which a
 * reader copies elsewhere, a block at a time. A table built goes to the
 * file as it is built, a block of rows at a time, and is left there too
 * (held whole in memory only when there is no cache or its file cannot
 * be written). */
int unwind_table__get(Elf *elf, const char *cache_dir, struct unwind_table *out);
/* Rows [first, first + n) of a table, built or found, into `into`; 0 or -1
 * (the file could not be read). */
int unwind_table__read(const struct unwind_table *t, size_t first, struct record_unwind_row *into,
		       size_t n);
void unwind_table__release(struct unwind_table *t);

/*
 * A table as the cache's file holds it, for walks in user space, read a
 * block of rows at a time (a mapping's pages would stay in our RSS as
 * searches touched them: a big table's whole): a row is found in its
 * block, read when asked for, the last read kept, and the block by the
 * first pcs of the blocks a search meets, each read the first time (a view
 * opened read all of them, the whole table: 8 MB for libLLVM's, for the
 * few samples copied in it).
 *
 *	struct unwind_table_file f;
 *	if (unwind_table_file__open(elf, cache_dir, &f) == 0) {
 *		struct record_unwind_row row;
 *		if (unwind_table_file__row(&f, own, &row)) ...
 *		unwind_table_file__close(&f);
 *	}
 */
#define UNWIND_FILE_BLOCK 256       /* rows: 2 KiB */

struct unwind_table_file {
	int fd;
	size_t count, blocks;
	uint32_t *block_first;         /* each block's first pc (UINT32_MAX: not read yet) */
	size_t block;                  /* the block in rows; SIZE_MAX: none */
	struct record_unwind_row rows[UNWIND_FILE_BLOCK];
};

/* elf's table from cache_dir: 0, or -1 when the file is not there (yet). */
int unwind_table_file__open(Elf *elf, const char *cache_dir, struct unwind_table_file *out);
/* The row whose range holds own into *row: false below the first row, or
 * when the file could not be read. */
bool unwind_table_file__row(struct unwind_table_file *f, uint32_t own,
			    struct record_unwind_row *row);
void unwind_table_file__close(struct unwind_table_file *f);

#endif
