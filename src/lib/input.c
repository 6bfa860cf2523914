#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "bytes.h"
#include "error.h"
#include "gzip.h"
#include "progress.h"
#include "xalloc.h"

#define READ_CHUNK (256u << 10)

struct input {
	char *name;
	int fd;                 /* -1 for memory input */
	bool close_fd;

	/* Raw bytes from the file; for memory input, the caller's block. */
	const unsigned char *raw;
	size_t raw_len, raw_pos;
	unsigned char *raw_owned;
	bool raw_eof;

	bool ranged;            /* reads [range_pos, range_end) with pread */
	uint64_t range_pos, range_end;
	uint64_t lines_before;  /* a range's numbering starts after these */
	bool checked_magic;    /* the first bytes were looked at */
	bool gzip;
	bool gzip_stream_open;  /* inside a member: its end not yet seen */
	z_stream zs;

	/* Decoded text: lines are cut from text[pos, len). */
	char *text;
	size_t text_len, text_pos, text_cap;

	uint64_t line_number;
	bool failed;
	struct progress *progress;
};

static struct input *input_new(const char *name)
{
	struct input *in = fk_calloc(1, sizeof(*in));
	in->name = fk_strdup(name);
	in->fd = -1;
	return in;
}

int input__open(struct input **out, const char *path)
{
	struct input *in;
	if (strcmp(path, "-") == 0) {
		in = input_new("<stdin>");
		in->fd = STDIN_FILENO;
	} else {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return error("cannot open %s: %s", path, strerror(errno));
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
			close(fd);
			return error("%s is a directory; give a file of profiler output", path);
		}
		in = input_new(path);
		in->fd = fd;
		in->close_fd = true;
	}
	in->raw_owned = fk_malloc(READ_CHUNK);
	in->raw = in->raw_owned;
	*out = in;
	return 0;
}

struct input *input__from_memory(const void *data, size_t len, const char *name)
{
	struct input *in = input_new(name);
	in->raw = data;
	in->raw_len = len;
	in->raw_eof = true;
	return in;
}

const char *input__name(const struct input *in)
{
	return in->name;
}

bool input__gzip(const struct input *in)
{
	return in->gzip;
}

uint64_t input__line_number(const struct input *in)
{
	return in->line_number;
}

/* Refills raw[] from the file. Returns 0, or -1 on a read error. */
static int fill_raw(struct input *in)
{
	if (in->raw_eof || in->fd < 0) {
		in->raw_eof = true;
		return 0;
	}
	size_t keep = in->raw_len - in->raw_pos;
	memmove(in->raw_owned, in->raw + in->raw_pos, keep);
	in->raw_len = keep;
	in->raw_pos = 0;
	while (in->raw_len < READ_CHUNK) {
		ssize_t n = read(in->fd, in->raw_owned + in->raw_len, READ_CHUNK - in->raw_len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return error("cannot read %s: %s", in->name, strerror(errno));
		}
		if (n == 0) {
			in->raw_eof = true;
			break;
		}
		in->raw_len += (size_t)n;
		progress__add(in->progress, (uint64_t)n);
		if (in->gzip)
			break;  /* inflate what we have */
	}
	return 0;
}

/* Makes room for at least `want` more bytes of text after text_len. */
static void reserve_text(struct input *in, size_t want)
{
	if (in->text_pos > 0) {
		memmove(in->text, in->text + in->text_pos, in->text_len - in->text_pos);
		in->text_len -= in->text_pos;
		in->text_pos = 0;
	}
	in->text = fk_grow(in->text, &in->text_cap, in->text_len + want, 1);
}

/* Plain text after the first chunk: read() straight into the line buffer. */
static int read_text_directly(struct input *in)
{
	reserve_text(in, READ_CHUNK);
	for (;;) {
		size_t room = in->text_cap - in->text_len;
		ssize_t n;
		if (in->ranged) {
			if (room > in->range_end - in->range_pos)
				room = (size_t)(in->range_end - in->range_pos);
			n = room ? pread(in->fd, in->text + in->text_len, room, (off_t)in->range_pos) : 0;
			if (n > 0)
				in->range_pos += (uint64_t)n;
		} else {
			n = read(in->fd, in->text + in->text_len, room);
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error("cannot read %s: %s", in->name, strerror(errno));
		if (n == 0) {
			in->raw_eof = true;
			return 0;
		}
		in->text_len += (size_t)n;
		progress__add(in->progress, (uint64_t)n);
		return 1;
	}
}

/* gzip's magic and its one compression method (deflate): two bytes alone
 * can begin a text file. */
static bool looks_like_gzip(const unsigned char *p, size_t len)
{
	return len >= 3 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 0x08;
}

static int start_gzip(struct input *in)
{
	memset(&in->zs, 0, sizeof(in->zs));
	if (inflateInit2(&in->zs, 15 + 16) != Z_OK)
		return error("cannot start gzip decoder for %s", in->name);
	in->gzip = true;
	in->gzip_stream_open = true;
	return 0;
}

/* Appends more decoded text. Returns 1 if text grew, 0 at end, -1 on error. */
static int fill_text(struct input *in)
{
	for (;;) {
		if (in->raw_pos == in->raw_len) {
			if (in->raw_eof) {
				if (in->gzip && in->gzip_stream_open)
					return error("%s: truncated gzip data (unexpected end of file); "
						     "the file may still be being written or was cut short",
						     in->name);
				return 0;
			}
			if (in->checked_magic && !in->gzip)
				return read_text_directly(in);
			if (fill_raw(in) < 0)
				return -1;
			if (!in->checked_magic) {
				in->checked_magic = true;
				if (looks_like_gzip(in->raw, in->raw_len) && start_gzip(in) < 0)
					return -1;
			}
			continue;
		}
		if (!in->gzip) {
			/* The first chunk, read to look for the gzip magic. */
			size_t n = in->raw_len - in->raw_pos;
			reserve_text(in, n);
			memcpy(in->text + in->text_len, in->raw + in->raw_pos, n);
			in->text_len += n;
			in->raw_pos += n;
			return 1;
		}
		if (!in->gzip_stream_open) {
			/* Another member follows the one that ended. */
			if (inflateReset(&in->zs) != Z_OK)
				return error("%s: cannot restart gzip decoder", in->name);
			in->gzip_stream_open = true;
		}
		reserve_text(in, READ_CHUNK);
		in->zs.next_in = (unsigned char *)in->raw + in->raw_pos;
		in->zs.avail_in = (uInt)(in->raw_len - in->raw_pos);
		in->zs.next_out = (unsigned char *)in->text + in->text_len;
		in->zs.avail_out = (uInt)(in->text_cap - in->text_len);
		int zr = inflate(&in->zs, Z_NO_FLUSH);
		size_t produced = (in->text_cap - in->text_len) - in->zs.avail_out;
		in->raw_pos = in->raw_len - in->zs.avail_in;
		in->text_len += produced;
		if (zr == Z_STREAM_END) {
			in->gzip_stream_open = false;
		} else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			return error("%s: corrupt gzip data (%s)", in->name,
				     in->zs.msg ? in->zs.msg : "inflate failed");
		}
		if (produced)
			return 1;
	}
}

int input__peek(struct input *in, size_t want, const char **data, size_t *len)
{
	if (in->failed)
		return -1;
	if (in->fd < 0 && !in->gzip && in->text == NULL) {
		if (!(in->raw_pos == 0 && looks_like_gzip(in->raw, in->raw_len))) {
			size_t left = in->raw_len - in->raw_pos;
			*data = (const char *)in->raw + in->raw_pos;
			*len = left < want ? left : want;
			return 0;
		}
		if (start_gzip(in) < 0) {
			in->failed = true;
			return -1;
		}
	}
	while (in->text_len - in->text_pos < want) {
		int r = fill_text(in);
		if (r < 0) {
			in->failed = true;
			return -1;
		}
		if (r == 0)
			break;
	}
	size_t left = in->text_len - in->text_pos;
	*data = in->text ? in->text + in->text_pos : "";
	*len = left < want ? left : want;
	return 0;
}

/* text[0 .. len-1] (of cap bytes, the input's now), from a file of
 * file_size bytes, is all the input: it is read through, the stream has
 * nothing more. */
static int take_whole_text(struct input *in, unsigned char *text, size_t cap, size_t len,
			   size_t file_size, bool gzip)
{
	if (gzip && !in->gzip && start_gzip(in) < 0) {
		free(text);
		return -1;
	}
	in->checked_magic = true;
	free(in->text);
	in->text = (char *)text;
	in->text_cap = cap;
	in->text_len = len;
	in->text_pos = 0;
	in->raw_pos = in->raw_len;
	in->raw_eof = true;
	in->gzip_stream_open = false;
	progress__add(in->progress, file_size);
	return 0;
}

/*
 * A whole file read at once, for input__contents(): gzip inflated by
 * libdeflate (about twice zlib's speed), member after member, into the text
 * buffer; a file whose first bytes were not looked at yet and are not gzip
 * becomes the text as it is. The input is then read through. 0; or -1,
 * nothing changed, for the stream to do it (and say what is wrong with a
 * file that does not inflate).
 */
static int read_whole_file(struct input *in)
{
	struct stat st;
	if (in->fd < 0 || in->ranged || in->line_number > 0 || in->text_pos > 0 ||
	    fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 18)
		return -1;
	size_t size = (size_t)st.st_size, got = 0;
	unsigned char *raw = malloc(size);
	while (raw && got < size) {
		ssize_t n = pread(in->fd, raw + got, size - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	bool gzip = got == size && looks_like_gzip(raw, size);
	if (got != size || (!gzip && in->checked_magic)) {
		free(raw);
		return -1;
	}
	if (!gzip)
		return take_whole_text(in, raw, size, size, size, false);
	char *indexed;
	size_t indexed_len;
	if (gzip__inflate_indexed(raw, size, &indexed, &indexed_len) == 0) {
		free(raw);
		return take_whole_text(in, (unsigned char *)indexed, indexed_len + 1, indexed_len,
				       size, true);
	}
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	/* the last member's length (mod 4 GiB) is a first guess of the size */
	size_t cap = (size_t)raw[size - 4] | (size_t)raw[size - 3] << 8 |
		     (size_t)raw[size - 2] << 16 | (size_t)raw[size - 1] << 24;
	cap = cap > size ? cap : 4 * size;
	unsigned char *text = d ? malloc(cap) : NULL;
	size_t at = 0, len = 0;
	bool ok = false;
	while (text && at < size) {
		size_t in_bytes, out_bytes;
		enum libdeflate_result r = libdeflate_gzip_decompress_ex(
			d, raw + at, size - at, text + len, cap - len, &in_bytes, &out_bytes);
		if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
			unsigned char *bigger = realloc(text, cap * 2);
			if (!bigger)
				break;
			text = bigger;
			cap *= 2;
			continue;
		}
		if (r != LIBDEFLATE_SUCCESS)
			break;
		at += in_bytes;
		len += out_bytes;
		ok = at == size;
	}
	libdeflate_free_decompressor(d);
	free(raw);
	if (!ok) {
		free(text);
		return -1;
	}
	return take_whole_text(in, text, cap, len, size, true);
}

int input__contents(struct input *in, const char **data, size_t *len)
{
	/* a file not looked into yet may be gzip too */
	if ((in->gzip || !in->checked_magic) && !in->failed && read_whole_file(in) == 0) {
		*data = in->text;
		*len = in->text_len;
		return 0;
	}
	return input__peek(in, SIZE_MAX, data, len);
}

int input__next_line(struct input *in, const char **line, size_t *len)
{
	if (in->failed)
		return -1;
	/* Memory input with no gzip: cut lines straight from the block. */
	if (in->fd < 0 && !in->gzip && in->text == NULL) {
		if (in->raw_pos == 0 && looks_like_gzip(in->raw, in->raw_len)) {
			if (start_gzip(in) < 0) {
				in->failed = true;
				return -1;
			}
		} else {
			if (in->raw_pos >= in->raw_len)
				return 0;
			const char *start = (const char *)in->raw + in->raw_pos;
			size_t left = in->raw_len - in->raw_pos;
			const char *nl = find_byte(start, left, '\n');
			size_t n = nl ? (size_t)(nl - start) : left;
			in->raw_pos += nl ? n + 1 : n;
			in->line_number++;
			*line = start;
			*len = n;
			return 1;
		}
	}
	size_t scanned = in->text_pos;
	for (;;) {
		char *start = in->text + in->text_pos;
		size_t avail = in->text_len - in->text_pos;
		size_t from = scanned - in->text_pos;
		const char *nl = avail > from ? find_byte(start + from, avail - from, '\n') : NULL;
		if (nl) {
			*line = start;
			*len = (size_t)(nl - start);
			in->text_pos += *len + 1;
			in->line_number++;
			return 1;
		}
		if (avail > INPUT_MAX_LINE) {
			in->failed = true;
			return error("%s:%llu: line longer than %u MiB; this is not profiler text output",
				     in->name, (unsigned long long)in->line_number + 1,
				     INPUT_MAX_LINE >> 20);
		}
		int r = fill_text(in);
		if (r < 0) {
			in->failed = true;
			return -1;
		}
		scanned = in->text_pos + avail; /* fill may have moved text */
		if (r == 0) {
			start = in->text + in->text_pos;
			avail = in->text_len - in->text_pos;
			if (avail == 0)
				return 0;
			*line = start;
			*len = avail;
			in->text_pos = in->text_len;
			in->line_number++;
			return 1;
		}
	}
}

void input__close(struct input *in)
{
	if (!in)
		return;
	if (in->gzip)
		inflateEnd(&in->zs);
	if (in->close_fd)
		close(in->fd);
	free(in->raw_owned);
	free(in->text);
	free(in->name);
	free(in);
}

bool input__plain_size(struct input *in, uint64_t *size)
{
	struct stat st;
	unsigned char magic[3];
	if (in->fd < 0 || in->ranged || in->line_number > 0 || fstat(in->fd, &st) != 0 ||
	    !S_ISREG(st.st_mode))
		return false;
	if (pread(in->fd, magic, 3, 0) == 3 && looks_like_gzip(magic, 3))
		return false;
	*size = (uint64_t)st.st_size;
	return true;
}

struct input *input__open_range(struct input *in, uint64_t start, uint64_t end,
				uint64_t lines_before)
{
	struct input *part = input_new(in->name);
	part->fd = in->fd;
	part->ranged = true;
	part->range_pos = start;
	part->range_end = end;
	part->line_number = part->lines_before = lines_before;
	part->checked_magic = true;
	part->progress = in->progress;
	return part;
}

void input__close_part(struct input *in, struct input *part)
{
	in->line_number += part->line_number - part->lines_before;
	input__close(part);
}

void input__set_progress(struct input *in, struct progress *p)
{
	in->progress = p;
}

uint64_t input__file_size(const struct input *in)
{
	struct stat st;
	if (in->fd < 0 || in->ranged || fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	return (uint64_t)st.st_size;
}

static int open_set(struct input_set *set, char *const *files, int file_count, bool with_progress,
		    bool skip_unopenable)
{
	*set = (struct input_set){ 0 };
	set->inputs = fk_calloc((size_t)(file_count ? file_count : 1), sizeof(*set->inputs));
	for (int i = 0; i < (file_count ? file_count : 1); i++) {
		if (input__open(&set->inputs[set->count], file_count ? files[i] : "-") < 0) {
			if (skip_unopenable)
				continue;
			input_set__close(set);
			return -1;
		}
		set->count++;
	}
	if (with_progress) {
		uint64_t total = 0;
		for (size_t i = 0; i < set->count; i++)
			total += input__file_size(set->inputs[i]);
		set->progress = progress__new("reading", total);
		for (size_t i = 0; i < set->count; i++)
			input__set_progress(set->inputs[i], set->progress);
	}
	return 0;
}

int input_set__open(struct input_set *set, char *const *files, int file_count, bool with_progress)
{
	return open_set(set, files, file_count, with_progress, false);
}

void input_set__open_as_perl(struct input_set *set, char *const *files, int file_count)
{
	open_set(set, files, file_count, false, true);
}

void input_set__done_reading(struct input_set *set)
{
	progress__finish(set->progress);
	set->progress = NULL;
}

void input_set__close(struct input_set *set)
{
	for (size_t i = 0; i < set->count; i++)
		input__close(set->inputs[i]);
	free(set->inputs);
	input_set__done_reading(set);
	*set = (struct input_set){ 0 };
}
