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

/* "DIR/name" (malloc'd), or NULL when there is no cache directory to use. */
char *cache_dir__path(const char *name);

#endif
