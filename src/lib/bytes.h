/*
 * find_byte(): memchr for the short spans of profiler text. Most lines are
 * a few dozen bytes, where a call into libc's memchr costs more than the
 * search: look at 8 bytes at a time inline, and call memchr past 64 bytes.
 */
#ifndef FLAMEKIT_BYTES_H
#define FLAMEKIT_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline const char *find_byte(const char *p, size_t n, char c)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	const uint64_t pattern = ones * (unsigned char)c;
	size_t short_part = n < 64 ? n : 64;
	const char *end = p + short_part;
	while (end - p >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		uint64_t x = w ^ pattern; /* a zero byte where c is */
		uint64_t zero = (x - ones) & ~x & highs;
		if (zero) /* the lowest flagged byte is exact (little-endian) */
			return p + (__builtin_ctzll(zero) >> 3);
		p += 8;
	}
	for (; p < end; p++)
		if (*p == c)
			return p;
	if (n > 64)
		return memchr(p, c, n - 64);
	return NULL;
}

#endif
