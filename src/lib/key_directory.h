/*
 * A directory over an array sorted by an unsigned key (as upper_bound.h
 * takes it): where the elements of each span of keys begin, so that a
 * search reads one span's few elements. upper_bound() over the whole
 * array reads some log2(count) elements far apart, a cache miss each past
 * the first levels: 0.7 us a lookup of a 100,000-address binary.
 *
 * A span is 2^shift keys wide, the narrowest that makes at most one span
 * for every KEY_DIRECTORY_PER_SPAN elements: 4 bytes of directory for that
 * many elements, whatever the keys' range.
 *
 *	struct key_directory d;
 *	key_directory__build(&d, items, count, sizeof(*items), sizeof(uint64_t));
 *	size_t n = key_directory__upper_bound(&d, items, count, sizeof(*items),
 *					      sizeof(uint64_t), key);
 *	key_directory__release(&d);
 *
 * The directory holds no pointer to the items: pass the same array, as
 * long as it is neither changed nor reordered.
 */
#ifndef FLAMEKIT_LIB_KEY_DIRECTORY_H
#define FLAMEKIT_LIB_KEY_DIRECTORY_H

#include <stddef.h>
#include <stdint.h>

#define KEY_DIRECTORY_PER_SPAN 4

struct key_directory {
	uint64_t low;       /* the first element's key */
	unsigned shift;     /* a span's keys: low + (i << shift) up to the next span's */
	size_t spans;
	uint32_t *starts;   /* spans + 1: the first element of each span (count last) */
};

void key_directory__build(struct key_directory *d, const void *items, size_t count,
			  size_t stride, size_t key_size);
void key_directory__release(struct key_directory *d);

/* upper_bound() (upper_bound.h) of key in items, which d was built over. */
size_t key_directory__upper_bound(const struct key_directory *d, const void *items,
				  size_t count, size_t stride, size_t key_size, uint64_t key);

#endif
