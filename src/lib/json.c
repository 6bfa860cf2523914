#include "json.h"

#include <stdint.h>

#include "utf8.h"

void json__append_string(struct buf *b, const char *s, size_t len)
{
	buf__append_char(b, '"');
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = utf8__decode(s + i, len - i, &cp);
		if (cp < 0x20 || cp == '<' || cp == '>' || cp == '&' || cp == 0x2028 ||
		    cp == 0x2029 || (n == 1 && cp >= 0x80))
			buf__printf(b, "\\u%04x", (unsigned)cp);
		else if (cp == '"' || cp == '\\')
			buf__printf(b, "\\%c", (char)cp);
		else
			buf__append(b, s + i, n);
		i += n;
	}
	buf__append_char(b, '"');
}
