#include "dpkg_paths.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../lib/buf.h"
#include "../lib/cache_dir.h"
#include "../lib/xalloc.h"

/* "/usr/bin/gzip" -> "/bin/gzip"; NULL for a path outside /usr. */
static const char *without_usr(const char *path)
{
	return strncmp(path, "/usr/", 5) == 0 ? path + 4 : NULL;
}

/* Answers the paths not answered yet from the lists themselves. */
static void read_lists(const char *lists, const char *const *paths, size_t count,
		       const bool *answered, const char **known)
{
	DIR *dir = opendir(lists);
	struct dirent *entry;
	char *line = NULL;
	size_t cap = 0;
	struct buf file = BUF_INIT;

	/* lengths first: nearly every line of the lists is no path asked for */
	size_t *lengths = fk_calloc(count ? 2 * count : 1, sizeof(*lengths));
	for (size_t i = 0; i < count; i++) {
		lengths[2 * i] = !answered[i] ? strlen(paths[i]) : SIZE_MAX;
		lengths[2 * i + 1] = !answered[i] && without_usr(paths[i]) ? lengths[2 * i] - 4 :
			SIZE_MAX;
	}
	while (dir && (entry = readdir(dir))) {
		size_t len = strlen(entry->d_name);
		if (len < 6 || strcmp(entry->d_name + len - 5, ".list") != 0)
			continue;
		file.len = 0;
		buf__printf(&file, "%s/%s", lists, entry->d_name);
		FILE *list = fopen(file.data, "re");
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
	buf__free(&file);
	free(line);
	free(lengths);
	if (dir)
		closedir(dir);
}

/*
 * The answers' file: a first line naming the lists as they were
 * ("flamekit-dpkg-v1 DEV INODE MTIME.NSEC"), then one answer a line: "=",
 * "-" (the /usr-less form) or "?" (neither), a tab, the path.
 */
static void lists_version(const struct stat *st, struct buf *out)
{
	buf__printf(out, "flamekit-dpkg-v1 %" PRIu64 " %" PRIu64 " %lld.%09ld\n", (uint64_t)st->st_dev,
		    (uint64_t)st->st_ino, (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
}

static const char *answer_of(const char *path, const char *known)
{
	return !known ? "?" : known == path ? "=" : "-";
}

/* Answers what the cache file answers; all its answers go to kept (answer
 * lines, to write again with new ones). */
static void read_cache(FILE *f, const char *const *paths, size_t count, bool *answered,
		       const char **known, struct buf *kept)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 2) {
		if (line[n - 1] != '\n' || line[1] != '\t' || !strchr("=-?", line[0]))
			break;  /* not whole: what follows is not used */
		buf__append(kept, line, (size_t)n);
		line[n - 1] = '\0';
		for (size_t i = 0; i < count; i++)
			if (!answered[i] && strcmp(line + 2, paths[i]) == 0) {
				answered[i] = true;
				known[i] = line[0] == '=' ? paths[i] :
					   line[0] == '-' && without_usr(paths[i]) ? paths[i] + 4 : NULL;
			}
	}
	free(line);
}

void dpkg_paths__known(const char *lists, const char *cache, const char *const *paths,
		       size_t count, const char **known)
{
	struct stat st;
	bool *answered = fk_calloc(count ? count : 1, sizeof(*answered)), missing = false;
	struct buf version = BUF_INIT, kept = BUF_INIT;

	for (size_t i = 0; i < count; i++)
		known[i] = NULL;
	if (stat(lists, &st) != 0)
		goto out;
	lists_version(&st, &version);
	FILE *f = cache ? fopen(cache, "re") : NULL;
	if (f) {
		char *first = NULL;
		size_t cap = 0;
		if (getline(&first, &cap, f) > 0 && strcmp(first, version.data) == 0)
			read_cache(f, paths, count, answered, known, &kept);
		free(first);
		fclose(f);
	}
	for (size_t i = 0; i < count; i++)
		missing |= !answered[i];
	if (!missing)
		goto out;
	read_lists(lists, paths, count, answered, known);
	for (size_t i = 0; i < count; i++)
		if (!answered[i] && !strchr(paths[i], '\n'))
			buf__printf(&kept, "%s\t%s\n", answer_of(paths[i], known[i]), paths[i]);
	if (cache)
		cache_dir__write_file(cache, (struct iovec[]){ { version.data, version.len },
							       { kept.data, kept.len } }, 2);
out:
	buf__free(&version);
	buf__free(&kept);
	free(answered);
}
