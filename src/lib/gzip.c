#include "gzip.h"

#include <zlib.h>

#include "error.h"

int gzip__write(FILE *out, const void *data, size_t len)
{
	return gzip__write_level(out, data, len, Z_DEFAULT_COMPRESSION);
}

int gzip__write_level(FILE *out, const void *data, size_t len, int level)
{
	z_stream z = { 0 };
	unsigned char chunk[64 * 1024];
	int status;

	/* 15 + 16: a gzip header and trailer rather than zlib's */
	if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return error("cannot start gzip compression: out of memory");
	z.next_in = (unsigned char *)data;
	do {
		size_t step = len > (1u << 30) ? (1u << 30) : len;
		z.avail_in = (uInt)step;
		len -= step;
		do {
			z.next_out = chunk;
			z.avail_out = sizeof chunk;
			status = deflate(&z, len ? Z_NO_FLUSH : Z_FINISH);
			fwrite(chunk, 1, sizeof chunk - z.avail_out, out);
		} while (z.avail_out == 0);
	} while (len);
	deflateEnd(&z);
	return status == Z_STREAM_END ? 0 : error("gzip compression failed");
}
