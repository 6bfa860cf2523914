#include "dpkg_paths.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DPKG_LISTS "/var/lib/dpkg/info"

/* "/usr/bin/gzip" -> "/bin/gzip"; NULL for a path outside /usr. */
static const char *without_usr(const char *path)
{
	return strncmp(path, "/usr/", 5) == 0 ? path + 4 : NULL;
}

void dpkg_paths__known(const char *const *paths, size_t count, const char **known)
{
	DIR *dir = opendir(DPKG_LISTS);
	struct dirent *entry;
	char *line = NULL, file[512];
	size_t cap = 0;

	/* lengths first: nearly every line of the lists is no path asked for */
	size_t *lengths = calloc(count ? 2 * count : 1, sizeof(*lengths));
	if (!lengths)
		count = 0;
	for (size_t i = 0; i < count; i++) {
		known[i] = NULL;
		lengths[2 * i] = strlen(paths[i]);
		lengths[2 * i + 1] = without_usr(paths[i]) ? lengths[2 * i] - 4 : SIZE_MAX;
	}
	while (dir && (entry = readdir(dir))) {
		size_t len = strlen(entry->d_name);
		if (len < 6 || strcmp(entry->d_name + len - 5, ".list") != 0)
			continue;
		snprintf(file, sizeof file, "%s/%s", DPKG_LISTS, entry->d_name);
		FILE *list = fopen(file, "re");
		ssize_t n;
		while (list && (n = getline(&line, &cap, list)) > 0) {
			if (line[n - 1] == '\n')
				line[--n] = '\0';
			for (size_t i = 0; i < count; i++) {
				/* the path as mapped wins over its /usr-less form */
				if ((size_t)n == lengths[2 * i] && strcmp(line, paths[i]) == 0)
					known[i] = paths[i];
				else if (!known[i] && (size_t)n == lengths[2 * i + 1] &&
					 strcmp(line, paths[i] + 4) == 0)
					known[i] = paths[i] + 4;
			}
		}
		if (list)
			fclose(list);
	}
	free(line);
	free(lengths);
	if (dir)
		closedir(dir);
}
