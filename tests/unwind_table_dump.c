/* Prints a binary's unwind table (symbolize/unwind_table.h) one row a
 * line, "pc kind cfa_off rbp_off" in hex and decimal, for
 * tests/record_unwind.sh to compare with readelf's frames-interp: built in
 * memory, or with a cache directory (unwind_table__get(): built into the
 * cache's file, or found there) read back from the file. */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "../src/symbolize/unwind_table.h"

int main(int argc, char **argv)
{
	struct unwind_table t;
	int fd = argc == 2 || argc == 3 ? open(argv[1], O_RDONLY) : -1;
	Elf *elf;

	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE ||
	    !(elf = elf_begin(fd, ELF_C_READ_MMAP, NULL))) {
		fprintf(stderr, "usage: unwind_table_dump BINARY [CACHE_DIR]\n");
		return 2;
	}
	if ((argc == 3 ? unwind_table__get(elf, argv[2], &t) : unwind_table__build(elf, &t)) < 0) {
		fprintf(stderr, "unwind_table_dump: %s: no table\n", argv[1]);
		return 1;
	}
	for (size_t i = 0; i < t.count; i++) {
		struct record_unwind_row row;
		if (unwind_table__read(&t, i, &row, 1) < 0) {
			fprintf(stderr, "unwind_table_dump: %s: row %zu cannot be read\n", argv[1], i);
			return 1;
		}
		printf("%" PRIx32 " %u %d %d\n", row.pc, row.kind, row.cfa_off, row.rbp_off * 8);
	}
	unwind_table__release(&t);
	elf_end(elf);
	close(fd);
	return 0;
}
