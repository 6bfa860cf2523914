/* For tests/record_unwind.sh: names the addresses read from standard input
 * (hex, one a line, in the binary's own layout, as nm shows them) in the
 * binary BINARY, as record names its frames (symbolize/binary_symbols.h,
 * with the cache directory of FLAMEKIT_CACHE_DIR), "address name" a line. */
#include <inttypes.h>
#include <stdio.h>

#include "../src/symbolize/binary_symbols.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: binary_symbols_dump BINARY < ADDRESSES\n");
		return 2;
	}
	struct binary *b = binary__open(argv[1], argv[1], 0, 0);
	uint64_t addr;
	while (scanf("%" SCNx64, &addr) == 1)
		printf("%016" PRIx64 " %s\n", addr, binary__name(b, addr, NULL, NULL));
	binary__free(b);
	return ferror(stdout) ? 1 : 0;
}
