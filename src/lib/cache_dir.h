/*
 * flamekit's cache directory: $FLAMEKIT_CACHE_DIR (empty: no cache; default
 * /var/cache/flamekit), made 0700 and used only when it is the caller's own
 * and closed to others (it holds kernel addresses: the kernel symbol cache).
 *
 *	char *path = cache_dir__path("kallsyms");   // NULL: no cache to use
 *	... free(path);
 */
#ifndef FLAMEKIT_CACHE_DIR_H
#define FLAMEKIT_CACHE_DIR_H

#include <stddef.h>
#include <sys/uio.h>

/* "DIR/name" (malloc'd), or NULL when there is no cache directory to use. */
char *cache_dir__path(const char *name);

/*
 * Writes a cache file at path, the parts one after another, whole or not at
 * all: under a temporary name beside it (PATH.PID.tmp), renamed over path
 * once written, so that a run reading path meanwhile, or after this one is
 * killed, sees the old file or the new one, never a part. The directory is
 * made (0700) if missing. Returns 0, or -1 with errno set.
 *
 * The directory is then kept under CACHE_DIR_MAX_BYTES, checked once a day
 * (at the first write after its file .pruned is a day old): past it, the
 * files least recently used go (a file's mtime is when it was last written
 * or used, see cache_dir__used()) until it holds three quarters of it; a
 * temporary file a day old is a killed run's and goes too. The files are
 * kept by binary, and binaries are rebuilt and upgraded: without this a
 * developer's cache would grow by a file at every build they profile.
 */
#define CACHE_DIR_MAX_BYTES (256ull << 20)
int cache_dir__write_file(const char *path, const struct iovec *parts, size_t count);

/*
 * The same for a file written as it is made (too big to hold whole first):
 * cache_dir__begin_file() opens the temporary file (0, or -1 with errno);
 * the caller writes w.fd (cache_dir__write_all(), pwrite()); then
 * cache_dir__end_file() renames it over path and returns 0, or, given an
 * error (errno's kind, 0: none) or meeting one, removes it and returns -1
 * with errno set.
 */
struct cache_write {
	int fd;
	char *temp, *path;
};
int cache_dir__begin_file(const char *path, struct cache_write *w);
/* write() of all size bytes: 0, or the errno that stopped it. */
int cache_dir__write_all(int fd, const void *data, size_t size);
int cache_dir__end_file(struct cache_write *w, int err);
/* Marks the open cache file fd used now (its mtime), for the limit above;
 * only once a day, for it is called at every use. */
void cache_dir__used(int fd);

#endif
