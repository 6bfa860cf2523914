/*
 * JSON text for the writers that make it (the viewer's page, speedscope).
 */
#ifndef FLAMEKIT_JSON_H
#define FLAMEKIT_JSON_H

#include <stddef.h>

#include "buf.h"

/* s[0..len) as a JSON string, quotes included, safe inside an HTML
 * <script> too: no "<", ">", "&", control bytes or line separators but
 * as \u escapes; a byte that is not UTF-8 is the character of its value,
 * so any bytes make valid JSON. */
void json__append_string(struct buf *b, const char *s, size_t len);

#endif
