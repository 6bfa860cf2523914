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

static inline size_t upper_bound(const void *items, size_t count, size_t stride, size_t key_size,
				 uint64_t key)
{
	size_t lo = 0, hi = count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *at = (const char *)items + mid * stride;
		uint64_t k;
		if (key_size == sizeof(uint32_t)) {
			uint32_t narrow;
			memcpy(&narrow, at, sizeof(narrow));
			k = narrow;
		} else {
			memcpy(&k, at, sizeof(k));
		}
		if (k <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
