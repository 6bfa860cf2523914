#include "gzip.h"

#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "buf.h"
#include "error.h"
#include "xalloc.h"

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

/* --- one member, compressed in parts ------------------------------------------ */

/*
 * The file gzip_parts writes: one gzip member whose deflate stream is the
 * parts' streams one after another, each compressed on its own (no match
 * reaches back into the part before) and ended by a sync flush (byte
 * aligned, not final), then an empty final block. Its header's extra
 * field holds one subfield, "FK": for each part, its compressed and its
 * raw length (32 bits each, little-endian), so that a reader can find the
 * parts without inflating and inflate them all at once.
 */
enum {
	HEADER_FIXED = 10, EXTRA_HEAD = 6, TRAILER = 8, FLAG_EXTRA = 4,
	INDEX_ENTRY = 8, INDEX_MOST = (65535 - 4) / INDEX_ENTRY,
	HELPERS_MOST = 3, ZLIB_LEVEL = 1,
};
static const uint8_t final_block[2] = { 0x03, 0x00 }; /* final, fixed codes, empty */

static void put_le(uint8_t *at, uint32_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		at[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_le(const uint8_t *at, int bytes)
{
	uint32_t v = 0;
	for (int i = bytes; i-- > 0;)
		v = v << 8 | at[i];
	return v;
}

enum part_state { PART_QUEUED, PART_WORKING, PART_DONE };

struct part {
	enum gzip_part_kind kind;
	char *raw;
	size_t raw_len, raw_cap;
	uint8_t *packed;       /* raw deflate, sync-flushed; NULL if it failed */
	size_t packed_len;
	uint32_t crc;
	enum part_state state;
};

struct gzip_parts {
	pthread_mutex_t lock;
	pthread_cond_t queued, done;
	struct part *parts;
	size_t count, cap;
	size_t next;           /* the first that may still be queued */
	bool closing;
	pthread_t helpers[HELPERS_MOST];
	unsigned helper_count;
	/* parts' raw buffers once compressed, for the caller's next parts:
	 * new ones each time cost a page fault every 4 KiB */
	struct buf spare[HELPERS_MOST + 2];
	unsigned spare_count;
};

/* What a compressing thread keeps from one part to the next. */
struct compressors {
	uint8_t *isal_level_buf;   /* ISAL_LEVEL_BUF bytes: enough for level 1 and 2 */
	z_stream z;
	bool z_ready;
};

#define ISAL_LEVEL_BUF (ISAL_DEF_LVL2_DEFAULT > ISAL_DEF_LVL1_DEFAULT ? \
			ISAL_DEF_LVL2_DEFAULT : ISAL_DEF_LVL1_DEFAULT)

/* The most a part of len bytes can take, sync flush included (stored
 * blocks at worst: 5 bytes each of 64 KiB at most). */
static size_t packed_bound(size_t len)
{
	return len + (len >> 12) + 128;
}

static bool pack_isal(struct compressors *c, struct part *p, unsigned level)
{
	if (!c->isal_level_buf)
		c->isal_level_buf = malloc(ISAL_LEVEL_BUF);
	struct isal_zstream s;
	isal_deflate_stateless_init(&s);
	s.level = level;
	s.level_buf = c->isal_level_buf;
	s.level_buf_size = c->isal_level_buf ? ISAL_LEVEL_BUF : 0;
	s.flush = FULL_FLUSH;
	s.end_of_stream = 0;
	s.next_in = (uint8_t *)p->raw;
	s.avail_in = (uint32_t)p->raw_len;
	s.next_out = p->packed;
	s.avail_out = (uint32_t)packed_bound(p->raw_len);
	if (!c->isal_level_buf || isal_deflate_stateless(&s) != COMP_OK || s.avail_in)
		return false;
	p->packed_len = s.total_out;
	return true;
}

static bool pack_zlib(struct compressors *c, struct part *p)
{
	if (!c->z_ready) {
		/* raw deflate (-15): no zlib header */
		if (deflateInit2(&c->z, ZLIB_LEVEL, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
			return false;
		c->z_ready = true;
	} else if (deflateReset(&c->z) != Z_OK) {
		return false;
	}
	c->z.next_in = (Bytef *)p->raw;
	c->z.avail_in = (uInt)p->raw_len;
	c->z.next_out = p->packed;
	c->z.avail_out = (uInt)packed_bound(p->raw_len);
	if (deflate(&c->z, Z_SYNC_FLUSH) != Z_OK || c->z.avail_in || !c->z.avail_out)
		return false;
	p->packed_len = c->z.total_out;
	return true;
}

/* A part's raw bytes into its deflate stream, and their CRC. */
static void pack(struct compressors *c, struct part *p)
{
	p->packed = p->raw_len <= UINT32_MAX / 2 ? malloc(packed_bound(p->raw_len)) : NULL;
	bool ok = p->packed && (p->kind == GZIP_PART_SHORT_REPEATS ? pack_zlib(c, p) :
				pack_isal(c, p, p->kind == GZIP_PART_SMALL ? 2 : 1));
	if (!ok) {
		free(p->packed);
		p->packed = NULL;
	}
	p->crc = libdeflate_crc32(0, p->raw, p->raw_len);
}

/* Compresses queued parts until none is left; with `wait`, until the
 * stream closes (a helper), else returns when the queue is empty. */
static void compress_queued(struct gzip_parts *g, bool wait)
{
	struct compressors c = { 0 };
	pthread_mutex_lock(&g->lock);
	for (;;) {
		while (g->next < g->count && g->parts[g->next].state != PART_QUEUED)
			g->next++;
		if (g->next == g->count) {
			if (!wait || g->closing)
				break;
			pthread_cond_wait(&g->queued, &g->lock);
			continue;
		}
		size_t i = g->next++;
		struct part p = g->parts[i];
		g->parts[i].state = PART_WORKING;
		pthread_mutex_unlock(&g->lock);
		pack(&c, &p);
		pthread_mutex_lock(&g->lock);
		if (g->spare_count < sizeof g->spare / sizeof g->spare[0])
			g->spare[g->spare_count++] = (struct buf){ p.raw, 0, p.raw_cap };
		else
			free(p.raw);
		p.raw = NULL;
		p.state = PART_DONE;
		g->parts[i] = p;
		pthread_cond_broadcast(&g->done);
	}
	pthread_mutex_unlock(&g->lock);
	free(c.isal_level_buf);
	if (c.z_ready)
		deflateEnd(&c.z);
}

/* Threads to start beside the caller's for `jobs` jobs that the caller
 * works on too: one CPU but one, up to HELPERS_MOST, no more than jobs - 1. */
static unsigned helpers_for(size_t jobs)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t want = cpus > 1 ? (size_t)cpus - 1 : 0;
	if (want > HELPERS_MOST)
		want = HELPERS_MOST;
	if (jobs && want > jobs - 1)
		want = jobs - 1;
	return (unsigned)want;
}

static void *helper(void *arg)
{
	compress_queued(arg, true);
	return NULL;
}

struct gzip_parts *gzip_parts__start(void)
{
	struct gzip_parts *g = fk_calloc(1, sizeof(*g));
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->queued, NULL);
	pthread_cond_init(&g->done, NULL);
	/* the parts are not known yet (0: any number); none started (one
	 * CPU, or no thread): the caller compresses them all */
	unsigned want = helpers_for(0);
	while (g->helper_count < want &&
	       pthread_create(&g->helpers[g->helper_count], NULL, helper, g) == 0)
		g->helper_count++;
	return g;
}

void gzip_parts__add(struct gzip_parts *g, struct buf *b, enum gzip_part_kind kind)
{
	if (!b->len)
		return;
	pthread_mutex_lock(&g->lock);
	g->parts = fk_grow(g->parts, &g->cap, g->count + 1, sizeof(*g->parts));
	g->parts[g->count++] = (struct part){ .kind = kind, .raw = b->data, .raw_len = b->len,
					      .raw_cap = b->cap };
	pthread_cond_signal(&g->queued);
	*b = g->spare_count ? g->spare[--g->spare_count] : (struct buf)BUF_INIT;
	pthread_mutex_unlock(&g->lock);
	if (!g->helper_count)
		compress_queued(g, false);
}

/* The member's header, with the parts' index when it fits. */
static void write_header(FILE *out, const struct part *parts, size_t count)
{
	uint8_t fixed[HEADER_FIXED] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255 };
	bool indexed = count <= INDEX_MOST;
	if (indexed)
		fixed[3] = FLAG_EXTRA;
	fwrite(fixed, 1, sizeof fixed, out);
	if (!indexed)
		return;
	uint8_t head[EXTRA_HEAD];
	put_le(head, (uint32_t)(4 + count * INDEX_ENTRY), 2);   /* XLEN */
	head[2] = 'F';
	head[3] = 'K';
	put_le(head + 4, (uint32_t)(count * INDEX_ENTRY), 2);   /* the subfield's length */
	fwrite(head, 1, sizeof head, out);
	for (size_t i = 0; i < count; i++) {
		uint8_t entry[INDEX_ENTRY];
		put_le(entry, (uint32_t)parts[i].packed_len, 4);
		put_le(entry + 4, (uint32_t)parts[i].raw_len, 4);
		fwrite(entry, 1, sizeof entry, out);
	}
}

int gzip_parts__finish(struct gzip_parts *g, FILE *out)
{
	/* what is still queued is compressed on this thread too */
	compress_queued(g, false);
	pthread_mutex_lock(&g->lock);
	g->closing = true;
	pthread_cond_broadcast(&g->queued);
	for (size_t i = 0; i < g->count; i++)
		while (g->parts[i].state != PART_DONE)
			pthread_cond_wait(&g->done, &g->lock);
	pthread_mutex_unlock(&g->lock);
	for (unsigned i = 0; i < g->helper_count; i++)
		pthread_join(g->helpers[i], NULL);
	bool failed = false;
	uint32_t crc = 0;
	uint64_t total = 0;
	for (size_t i = 0; i < g->count; i++) {
		failed |= !g->parts[i].packed;
		crc = (uint32_t)crc32_combine(crc, g->parts[i].crc, (z_off_t)g->parts[i].raw_len);
		total += g->parts[i].raw_len;
	}
	if (!failed) {
		write_header(out, g->parts, g->count);
		for (size_t i = 0; i < g->count; i++)
			fwrite(g->parts[i].packed, 1, g->parts[i].packed_len, out);
		uint8_t trailer[TRAILER];
		put_le(trailer, crc, 4);
		put_le(trailer + 4, (uint32_t)total, 4);
		fwrite(final_block, 1, sizeof final_block, out);
		fwrite(trailer, 1, sizeof trailer, out);
	}
	for (size_t i = 0; i < g->count; i++)
		free(g->parts[i].packed);
	for (unsigned i = 0; i < g->spare_count; i++)
		free(g->spare[i].data);
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->queued);
	pthread_cond_destroy(&g->done);
	free(g->parts);
	free(g);
	return failed ? error("gzip compression failed: out of memory") : 0;
}

/* --- inflating the parts at once --------------------------------------------- */

struct inflate_job {
	const uint8_t *gz;
	const size_t *packed_at, *raw_at;   /* count + 1 each */
	size_t count;
	uint8_t *text;
	uint32_t *crcs;
	pthread_mutex_t lock;
	size_t next;
	bool failed;
};

static void *inflate_parts(void *arg)
{
	struct inflate_job *j = arg;
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	uint8_t *scratch = NULL;
	size_t scratch_cap = 0;
	for (;;) {
		pthread_mutex_lock(&j->lock);
		size_t i = j->next++;
		bool stop = i >= j->count || j->failed;
		pthread_mutex_unlock(&j->lock);
		if (stop)
			break;
		/* a part ends unfinished (sync-flushed): it is given the final
		 * block in a copy, so that it inflates alone */
		size_t len = j->packed_at[i + 1] - j->packed_at[i];
		size_t size = j->raw_at[i + 1] - j->raw_at[i], got = 0;
		scratch = fk_grow(scratch, &scratch_cap, len + sizeof final_block, 1);
		memcpy(scratch, j->gz + j->packed_at[i], len);
		memcpy(scratch + len, final_block, sizeof final_block);
		bool ok = d && libdeflate_deflate_decompress(d, scratch, len + sizeof final_block,
							     j->text + j->raw_at[i], size, &got) ==
			LIBDEFLATE_SUCCESS && got == size;
		if (ok) {
			j->crcs[i] = libdeflate_crc32(0, j->text + j->raw_at[i], size);
		} else {
			pthread_mutex_lock(&j->lock);
			j->failed = true;
			pthread_mutex_unlock(&j->lock);
		}
	}
	free(scratch);
	libdeflate_free_decompressor(d);
	return NULL;
}

/* The parts' offsets in gz and in the text from the header's index; false
 * when gz is not gzip_parts' file, or its index does not fit its size. */
static bool read_index(const uint8_t *gz, size_t len, size_t **packed_at, size_t **raw_at,
		       size_t *count)
{
	if (len < HEADER_FIXED + EXTRA_HEAD + TRAILER || gz[0] != 0x1f || gz[1] != 0x8b ||
	    gz[2] != 8 || gz[3] != FLAG_EXTRA || gz[12] != 'F' || gz[13] != 'K')
		return false;
	size_t xlen = get_le(gz + 10, 2), sub = get_le(gz + 14, 2);
	size_t n = sub / INDEX_ENTRY;
	if (xlen != sub + 4 || sub % INDEX_ENTRY || !n || HEADER_FIXED + 2 + xlen > len)
		return false;
	*packed_at = fk_calloc(n + 1, sizeof(**packed_at));
	*raw_at = fk_calloc(n + 1, sizeof(**raw_at));
	size_t at = HEADER_FIXED + 2 + xlen, raw = 0;
	const uint8_t *entry = gz + HEADER_FIXED + EXTRA_HEAD;
	bool possible = true;
	for (size_t i = 0; i < n; i++, entry += INDEX_ENTRY) {
		(*packed_at)[i] = at;
		(*raw_at)[i] = raw;
		size_t packed = get_le(entry, 4), unpacked = get_le(entry + 4, 4);
		/* deflate makes at most 1032 bytes of one: a larger claim is
		 * not to be allocated for */
		possible &= unpacked <= packed * 1032 + 64;
		at += packed;
		raw += unpacked;
	}
	(*packed_at)[n] = at;
	(*raw_at)[n] = raw;
	*count = n;
	return possible && at + sizeof final_block + TRAILER == len &&
	       memcmp(gz + at, final_block, sizeof final_block) == 0 &&
	       get_le(gz + len - 4, 4) == (uint32_t)raw;
}

int gzip__inflate_indexed(const void *gz, size_t len, char **text, size_t *text_len)
{
	const uint8_t *bytes = gz;
	size_t *packed_at = NULL, *raw_at = NULL, count = 0;
	int status = 1;
	if (read_index(bytes, len, &packed_at, &raw_at, &count)) {
		struct inflate_job j = { .gz = bytes, .packed_at = packed_at, .raw_at = raw_at,
					 .count = count, .text = malloc(raw_at[count] + 1),
					 .crcs = fk_calloc(count, sizeof(uint32_t)) };
		pthread_mutex_init(&j.lock, NULL);
		pthread_t threads[HELPERS_MOST];
		unsigned started = 0, want = j.text ? helpers_for(count) : 0;
		while (started < want && pthread_create(&threads[started], NULL, inflate_parts, &j) == 0)
			started++;
		if (j.text)
			inflate_parts(&j);
		for (unsigned i = 0; i < started; i++)
			pthread_join(threads[i], NULL);
		pthread_mutex_destroy(&j.lock);
		uint32_t crc = 0;
		for (size_t i = 0; i < count; i++)
			crc = (uint32_t)crc32_combine(crc, j.crcs[i],
						      (z_off_t)(raw_at[i + 1] - raw_at[i]));
		if (j.text && !j.failed && crc == get_le(bytes + len - 8, 4)) {
			j.text[raw_at[count]] = 0;
			*text = (char *)j.text;
			*text_len = raw_at[count];
			status = 0;
		} else {
			free(j.text);
		}
		free(j.crcs);
	}
	free(packed_at);
	free(raw_at);
	return status;
}
