#include "gzip.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <zlib.h>

#include "error.h"

int gzip__write(FILE *out, const void *data, size_t len)
{
	z_stream z = { 0 };
	unsigned char chunk[64 * 1024];
	int status;

	/* 15 + 16: a gzip header and trailer rather than zlib's */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
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

int gzip__write_fast(FILE *out, const void *data, size_t len, int level)
{
	struct libdeflate_compressor *c = libdeflate_alloc_compressor(level);
	if (!c)
		return error("cannot start gzip compression: out of memory");
	size_t bound = libdeflate_gzip_compress_bound(c, len);
	void *compressed = malloc(bound);
	size_t n = compressed ? libdeflate_gzip_compress(c, data, len, compressed, bound) : 0;
	if (n)
		fwrite(compressed, 1, n, out);
	free(compressed);
	libdeflate_free_compressor(c);
	return n ? 0 : error("gzip compression failed: out of memory");
}
