/*
 * Allocation that cannot fail from the caller's point of view.
 *
 * Running out of memory while building a profile leaves nothing sensible to
 * return to, so these print one line and exit(1), as git's fk_malloc() does.
 * Every other error in flamekit is returned to the caller.
 */
#ifndef FLAMEKIT_XALLOC_H
#define FLAMEKIT_XALLOC_H

#include <stddef.h>

void *fk_malloc(size_t size);
void *fk_calloc(size_t count, size_t size);
void *fk_realloc(void *ptr, size_t size);
/* Grows *capacity (at least doubling) until it holds need elements of size. */
void *fk_grow(void *ptr, size_t *capacity, size_t need, size_t size);
char *fk_strdup(const char *s);
char *fk_memdup(const char *s, size_t len); /* adds a NUL after len bytes */

#endif
