/* For tests/record.sh: for each path read from standard input (one a
 * line), prints the form of it that dpkg's lists in LISTS have
 * (sampler/dpkg_paths.h, its answers kept in CACHE), or "none", a tab,
 * then the path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/lib/xalloc.h"
#include "../src/sampler/dpkg_paths.h"

int main(int argc, char **argv)
{
	char line[4096];
	char **paths = NULL;
	size_t count = 0, cap = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: dpkg_paths_dump LISTS CACHE < PATHS\n");
		return 2;
	}
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = 0;
		paths = fk_grow(paths, &cap, count + 1, sizeof(*paths));
		paths[count++] = fk_strdup(line);
	}
	const char **known = fk_calloc(count ? count : 1, sizeof(*known));
	dpkg_paths__known(argv[1], argv[2], (const char *const *)paths, count, known);
	for (size_t i = 0; i < count; i++) {
		printf("%s\t%s\n", known[i] ? known[i] : "none", paths[i]);
		free(paths[i]);
	}
	free(known);
	free(paths);
	return ferror(stdout) ? 1 : 0;
}
