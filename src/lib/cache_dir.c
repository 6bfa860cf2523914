#include "cache_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "xalloc.h"

char *cache_dir__path(const char *name)
{
	const char *dir = getenv("FLAMEKIT_CACHE_DIR");
	if (!dir)
		dir = "/var/cache/flamekit";
	if (!*dir)
		return NULL;
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return NULL;
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077))
		return NULL;  /* someone else's, or open to others: not for kernel addresses */
	struct buf path = BUF_INIT;
	buf__printf(&path, "%s/%s", dir, name);
	return path.data;
}

/* The directory part of path (malloc'd), or NULL if it has none. */
static char *parent_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path)
		return NULL;
	return fk_memdup(path, (size_t)(slash - path));
}

#define DAY_SECONDS (24 * 60 * 60)

struct cache_file {
	char *name;
	time_t used;
	uint64_t size;
};

static int compare_used(const void *a, const void *b)
{
	const struct cache_file *x = a, *y = b;
	return x->used < y->used ? -1 : x->used > y->used;
}

/* Whether the directory is due to be pruned: once a day, marked by its
 * file ".pruned" (listing a directory of a thousand files at every write
 * would make a host's first run, which writes one a binary, quadratic). */
static bool prune_due(DIR *dir, time_t now)
{
	struct stat st;
	if (fstatat(dirfd(dir), ".pruned", &st, 0) == 0 && st.st_mtime > now - DAY_SECONDS)
		return false;
	int fd = openat(dirfd(dir), ".pruned", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		futimens(fd, NULL);
		close(fd);
	}
	return true;
}

/* Keeps the directory dir_path under CACHE_DIR_MAX_BYTES (see cache_dir.h). */
static void prune(const char *dir_path)
{
	DIR *dir = opendir(dir_path);
	struct cache_file *files = NULL;
	size_t count = 0, cap = 0;
	uint64_t total = 0;
	time_t now = time(NULL);
	bool stale_temporary = false;  /* a killed run's */

	if (dir && !prune_due(dir, now)) {
		closedir(dir);
		dir = NULL;
	}
	for (struct dirent *e; dir && (e = readdir(dir));) {
		struct stat st;
		if (e->d_name[0] == '.' || fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		size_t len = strlen(e->d_name);
		bool temporary = len > 4 && strcmp(e->d_name + len - 4, ".tmp") == 0;
		if (temporary && st.st_mtime > now - DAY_SECONDS)
			continue;  /* another run's, being written */
		stale_temporary |= temporary;
		files = fk_grow(files, &cap, count + 1, sizeof(*files));
		files[count++] = (struct cache_file){ fk_strdup(e->d_name),
						      temporary ? 0 : st.st_mtime,
						      (uint64_t)st.st_size };
		total += (uint64_t)st.st_size;
	}
	if (total > CACHE_DIR_MAX_BYTES || stale_temporary) {
		uint64_t keep = total > CACHE_DIR_MAX_BYTES ? CACHE_DIR_MAX_BYTES / 4 * 3 : total;
		qsort(files, count, sizeof(*files), compare_used);
		for (size_t i = 0; i < count && (files[i].used == 0 || total > keep); i++)
			if (unlinkat(dirfd(dir), files[i].name, 0) == 0)
				total -= files[i].size;
	}
	for (size_t i = 0; i < count; i++)
		free(files[i].name);
	free(files);
	if (dir)
		closedir(dir);
}

int cache_dir__begin_file(const char *path, struct cache_write *out)
{
	char *dir = parent_of(path);
	struct buf temp = BUF_INIT;

	buf__printf(&temp, "%s.%d.tmp", path, (int)getpid());
	if (dir)
		mkdir(dir, 0700);
	free(dir);
	out->fd = open(temp.data, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out->fd < 0) {
		int err = errno;
		buf__free(&temp);
		out->temp = NULL;
		errno = err;
		return -1;
	}
	out->temp = temp.data;
	out->path = fk_strdup(path);
	return 0;
}

int cache_dir__write_all(int fd, const void *data, size_t size)
{
	for (size_t done = 0; done < size;) {
		ssize_t n = write(fd, (const char *)data + done, size - done);
		if (n > 0)
			done += (size_t)n;
		else if (n == 0 || errno != EINTR)
			return n == 0 ? ENOSPC : errno;
	}
	return 0;
}

int cache_dir__end_file(struct cache_write *w, int err)
{
	if (close(w->fd) != 0 && !err)
		err = errno;
	if (!err && rename(w->temp, w->path) != 0)
		err = errno;
	if (err)
		unlink(w->temp);
	char *dir = err ? NULL : parent_of(w->path);
	if (dir)
		prune(dir);
	free(dir);
	free(w->temp);
	free(w->path);
	*w = (struct cache_write){ -1, NULL, NULL };
	errno = err;
	return err ? -1 : 0;
}

int cache_dir__write_file(const char *path, const struct iovec *parts, size_t count)
{
	struct cache_write w;
	int err = 0;

	if (cache_dir__begin_file(path, &w) < 0)
		return -1;
	for (size_t i = 0; !err && i < count; i++)
		err = cache_dir__write_all(w.fd, parts[i].iov_base, parts[i].iov_len);
	return cache_dir__end_file(&w, err);
}

void cache_dir__used(int fd)
{
	struct stat st;
	if (fstat(fd, &st) == 0 && st.st_mtime < time(NULL) - DAY_SECONDS)
		futimens(fd, NULL);
}
