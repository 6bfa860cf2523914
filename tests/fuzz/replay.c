/* Runs a fuzz target's entry point on the files named on the command line:
 * how `make check` replays every input the fuzzers once crashed on. */
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 1;
		}
		size_t cap = 1 << 16, len = 0;
		unsigned char *data = malloc(cap);
		size_t n;
		while (data && (n = fread(data + len, 1, cap - len, f)) > 0) {
			len += n;
			if (len == cap)
				data = realloc(data, cap *= 2);
		}
		fclose(f);
		if (!data)
			return 1;
		LLVMFuzzerTestOneInput(data, len);
		free(data);
	}
	return 0;
}
