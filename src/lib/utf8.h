/*
 * UTF-8 as Perl's ":utf8" layer reads it: one character per code point.
 * A byte that does not start a valid sequence counts as one character whose
 * value is the byte, so every input has a length and nothing is lost.
 */
#ifndef FLAMEKIT_UTF8_H
#define FLAMEKIT_UTF8_H

#include <stddef.h>
#include <stdint.h>

static inline int utf8__continuation(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

/* Decodes the character at s[0..len) (len > 0) into *cp; returns its bytes. */
static inline size_t utf8__decode(const char *text, size_t len, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)text;
	unsigned char c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF && len >= 2 && utf8__continuation(s[1])) {
		*cp = ((uint32_t)(c & 0x1F) << 6) | (s[1] & 0x3F);
		return 2;
	}
	if (c >= 0xE0 && c <= 0xEF && len >= 3 && utf8__continuation(s[1]) &&
	    utf8__continuation(s[2]) && (c != 0xE0 || s[1] >= 0xA0)) {
		*cp = ((uint32_t)(c & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
		return 3;
	}
	if (c >= 0xF0 && c <= 0xF4 && len >= 4 && utf8__continuation(s[1]) &&
	    utf8__continuation(s[2]) && utf8__continuation(s[3]) &&
	    (c != 0xF0 || s[1] >= 0x90) && (c != 0xF4 || s[1] <= 0x8F)) {
		*cp = ((uint32_t)(c & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
		      ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
		return 4;
	}
	*cp = c;
	return 1;
}

/* The number of characters in s[0..len). */
static inline size_t utf8__length(const char *s, size_t len)
{
	size_t chars = 0;
	for (size_t i = 0; i < len; chars++) {
		uint32_t cp;
		i += (unsigned char)s[i] < 0x80 ? 1 : utf8__decode(s + i, len - i, &cp);
	}
	return chars;
}

/* The byte offset of character number `chars` in s[0..len) (len if beyond). */
static inline size_t utf8__offset(const char *s, size_t len, size_t chars)
{
	size_t i = 0;
	while (i < len && chars-- > 0) {
		uint32_t cp;
		i += (unsigned char)s[i] < 0x80 ? 1 : utf8__decode(s + i, len - i, &cp);
	}
	return i;
}

#endif
