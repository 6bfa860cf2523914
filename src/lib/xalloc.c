#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t size)
{
	fprintf(stderr, "flamekit: out of memory (allocating %zu bytes)\n", size);
	exit(1);
}

void *fk_malloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory(size);
	return p;
}

void *fk_calloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return p;
}

void *fk_realloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);
	if (!p)
		out_of_memory(size);
	return p;
}

void *fk_grow(void *ptr, size_t *capacity, size_t need, size_t size)
{
	size_t cap = *capacity;
	if (need <= cap)
		return ptr;
	if (cap < 16)
		cap = 16;
	while (cap < need) {
		if (cap > SIZE_MAX / 2)
			out_of_memory(SIZE_MAX);
		cap *= 2;
	}
	if (cap > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	*capacity = cap;
	return fk_realloc(ptr, cap * size);
}

char *fk_strdup(const char *s)
{
	return fk_memdup(s, strlen(s));
}

char *fk_memdup(const char *s, size_t len)
{
	char *p = fk_malloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}
