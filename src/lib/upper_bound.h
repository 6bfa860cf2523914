/*
 * Binary search of an array sorted by an unsigned key (4 or 8 bytes) at
 * the start of each element (a symbol's address, an unwind row's pc): how
 * many elements have a key at or below `key`, so that the last of them,
 * the one whose range holds key, is at the result less one (none when it
 * is 0).
 *
 *	size_t n = upper_bound(symbols, count, sizeof(*symbols), sizeof(uint64_t), addr);
 *	const struct symbol *s = n ? &symbols[n - 1] : NULL;
 */
#ifndef FLAMEKIT_LIB_UPPER_BOUND_H
#define FLAMEKIT_LIB_UPPER_BOUND_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t upper_bound__key(const void *items, size_t index, size_t stride,
					 size_t key_size)
{
	const char *at = (const char *)items + index * stride;
	if (key_size == sizeof(uint32_t)) {
		uint32_t narrow;
		memcpy(&narrow, at, sizeof(narrow));
		return narrow;
	}
	uint64_t k;
	memcpy(&k, at, sizeof(k));
	return k;
}

static inline size_t upper_bound(const void *items, size_t count, size_t stride, size_t key_size,
				 uint64_t key)
{
	/* Elements before base are at or below key, those from base + n on
	 * above it; each step halves n without a branch on the comparison (a
	 * conditional move: the comparisons of a lookup are as likely one way
	 * as the other, and a mispredicted branch costs more than the move). */
	size_t base = 0, n = count;
	if (count == 0)
		return 0;
	while (n > 1) {
		size_t half = n / 2;
		base = upper_bound__key(items, base + half, stride, key_size) <= key ? base + half
										      : base;
		n -= half;
	}
	return base + (upper_bound__key(items, base, stride, key_size) <= key);
}

/*
 * upper_bound() for keys asked in ascending order: from is the answer for
 * a key at or below this one (0 at first). The search gallops on from
 * there (1, 2, 4 ... elements ahead), then halves the last step, so that
 * a run of lookups reads the array from start to end, each part about
 * once: a mapped file's pages in order, where a search from the middle
 * each time reads pages all over the file, and the kernel maps 64 KB
 * around each.
 */
static inline size_t upper_bound_from(const void *items, size_t count, size_t stride,
				      size_t key_size, uint64_t key, size_t from)
{
	/* the elements before low are at or below key */
	size_t low = from < count ? from : count, step = 1;
	while (low + step - 1 < count &&
	       upper_bound__key(items, low + step - 1, stride, key_size) <= key) {
		low += step;
		step *= 2;
	}
	size_t high = low + step - 1 < count ? low + step - 1 : count;
	return low + upper_bound((const char *)items + low * stride, high - low, stride, key_size,
				 key);
}

#endif
