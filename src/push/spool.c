#include "spool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/error.h"
#include "../lib/output.h"
#include "../lib/xalloc.h"

#define MAGIC "flamekit-window 1\n"

struct item {
	uint64_t start_ns;
	uint64_t size;
	bool sending;
};

struct spool {
	char *dir;
	int lock_fd;
	uint64_t max_bytes, bytes;
	struct item *items;           /* oldest first */
	size_t count, cap;
	struct spool_counts counts;
	pthread_mutex_t mutex;
};

static void entry_path(const struct spool *s, uint64_t start_ns, struct buf *path)
{
	buf__reset(path);
	buf__printf(path, "%s/w%020" PRIu64 ".fkw", s->dir, start_ns);
}

/* "w" 20 digits ".fkw": an entry's name; its start into *start_ns. */
static bool entry_name(const char *name, uint64_t *start_ns)
{
	if (strlen(name) != 25 || name[0] != 'w' || strcmp(name + 21, ".fkw") != 0)
		return false;
	*start_ns = 0;
	for (int i = 1; i < 21; i++) {
		if (name[i] < '0' || name[i] > '9')
			return false;
		*start_ns = *start_ns * 10 + (uint64_t)(name[i] - '0');
	}
	return true;
}

static int compare_items(const void *a, const void *b)
{
	uint64_t x = ((const struct item *)a)->start_ns, y = ((const struct item *)b)->start_ns;
	return x < y ? -1 : x > y;
}

static void insert_item(struct spool *s, uint64_t start_ns, uint64_t size)
{
	size_t at = s->count;
	while (at > 0 && s->items[at - 1].start_ns > start_ns)
		at--;
	if (at > 0 && s->items[at - 1].start_ns == start_ns) {  /* written again */
		s->bytes -= s->items[at - 1].size;
		s->items[at - 1].size = size;
		s->bytes += size;
		return;
	}
	s->items = fk_grow(s->items, &s->cap, s->count + 1, sizeof(*s->items));
	memmove(&s->items[at + 1], &s->items[at], (s->count - at) * sizeof(*s->items));
	s->items[at] = (struct item){ start_ns, size, false };
	s->count++;
	s->bytes += size;
}

static void remove_item(struct spool *s, size_t at, bool unlink_file)
{
	if (unlink_file) {
		struct buf path = BUF_INIT;
		entry_path(s, s->items[at].start_ns, &path);
		if (unlink(path.data) != 0 && errno != ENOENT)
			warning("spool: could not remove %s: %s", path.data, strerror(errno));
		buf__free(&path);
	}
	s->bytes -= s->items[at].size;
	memmove(&s->items[at], &s->items[at + 1], (s->count - at - 1) * sizeof(*s->items));
	s->count--;
}

int spool__open(const char *dir, uint64_t max_bytes, struct spool **out)
{
	struct spool *s = fk_calloc(1, sizeof(*s));
	struct buf path = BUF_INIT;
	DIR *d = NULL;
	int status = -1;

	*out = NULL;
	s->dir = fk_strdup(dir);
	s->lock_fd = -1;
	s->max_bytes = max_bytes;
	pthread_mutex_init(&s->mutex, NULL);
	if (output__make_directory(dir) < 0) {
		error("--spool %s: cannot create it: %s", dir, strerror(errno));
		goto cleanup;
	}
	buf__printf(&path, "%s/lock", dir);
	s->lock_fd = open(path.data, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (s->lock_fd < 0) {
		error("--spool %s: cannot write there: %s", dir, strerror(errno));
		goto cleanup;
	}
	if (flock(s->lock_fd, LOCK_EX | LOCK_NB) != 0) {
		error("--spool %s is in use by another flamekit record --push: give each run a "
		      "spool of its own", dir);
		goto cleanup;
	}
	if (!(d = opendir(dir))) {
		error("--spool %s: cannot read it: %s", dir, strerror(errno));
		goto cleanup;
	}
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		uint64_t start;
		struct stat st;
		buf__reset(&path);
		buf__printf(&path, "%s/%s", dir, e->d_name);
		/* a killed run's half-written entry (lib/output's ".NAME.XXXXXX") */
		if (strncmp(e->d_name, ".w", 2) == 0 && strstr(e->d_name, ".fkw.")) {
			unlink(path.data);
			continue;
		}
		if (!entry_name(e->d_name, &start) || stat(path.data, &st) != 0)
			continue;
		s->items = fk_grow(s->items, &s->cap, s->count + 1, sizeof(*s->items));
		s->items[s->count++] = (struct item){ start, (uint64_t)st.st_size, false };
		s->bytes += (uint64_t)st.st_size;
	}
	qsort(s->items, s->count, sizeof(*s->items), compare_items);
	s->counts.found = s->count;
	*out = s;
	s = NULL;
	status = 0;
cleanup:
	if (d)
		closedir(d);
	buf__free(&path);
	spool__close(s);
	return status;
}

/* Drops the oldest entries not being sent until `more` bytes fit. */
static void make_room(struct spool *s, uint64_t more)
{
	for (size_t at = 0; at < s->count && s->bytes + more > s->max_bytes;) {
		if (s->items[at].sending) {
			at++;
			continue;
		}
		warning("spool %s: --spool-max (%" PRIu64 " bytes) reached: the oldest window "
			"(w%020" PRIu64 ") dropped", s->dir, s->max_bytes, s->items[at].start_ns);
		remove_item(s, at, true);
		s->counts.dropped++;
	}
}

int spool__add(struct spool *s, uint64_t start_ns, const struct spool_head *head,
	       const void *body, size_t len)
{
	struct buf path = BUF_INIT, text = BUF_INIT;
	struct output *out = NULL;
	int status = -1;

	buf__printf(&text, MAGIC "format %s\nfrom %" PRIu64 "\nuntil %" PRIu64 "\nrate %u\n"
		    "name %s\n\n", head->format, head->from, head->until, head->rate, head->name);
	uint64_t size = text.len + len;
	pthread_mutex_lock(&s->mutex);
	if (size > s->max_bytes) {
		s->counts.dropped++;
		pthread_mutex_unlock(&s->mutex);
		warning("spool %s: a window of %" PRIu64 " bytes is more than --spool-max (%" PRIu64
			" bytes): dropped", s->dir, size, s->max_bytes);
		goto cleanup;
	}
	make_room(s, size);
	pthread_mutex_unlock(&s->mutex);
	/* written outside the lock: the sender goes on meanwhile */
	entry_path(s, start_ns, &path);
	if (output__open(&out, path.data) < 0)
		goto failed;
	FILE *f = output__stream(out);
	fwrite(text.data, 1, text.len, f);
	if (len)
		fwrite(body, 1, len, f);
	if (output__commit(out) < 0)
		goto failed;
	pthread_mutex_lock(&s->mutex);
	insert_item(s, start_ns, size);
	pthread_mutex_unlock(&s->mutex);
	status = 0;
	goto cleanup;
failed:
	pthread_mutex_lock(&s->mutex);
	s->counts.dropped++;
	pthread_mutex_unlock(&s->mutex);
	warning("spool %s: the window could not be kept (full disk?): dropped; sampling "
		"goes on", s->dir);
cleanup:
	buf__free(&path);
	buf__free(&text);
	return status;
}

/* Reads an entry's file: its head and body. 0, or -1 (not an entry). */
static int read_entry(const char *path, struct spool_entry *e)
{
	FILE *f = fopen(path, "re");
	char line[1200];
	int status = -1;

	if (!f)
		return -1;
	memset(&e->head, 0, sizeof(e->head));
	if (!fgets(line, sizeof line, f) || strcmp(line, MAGIC) != 0)
		goto done;
	while (fgets(line, sizeof line, f) && strcmp(line, "\n") != 0) {
		line[strcspn(line, "\n")] = 0;
		char *value = strchr(line, ' ');
		if (!value)
			goto done;
		*value++ = 0;
		if (strcmp(line, "format") == 0)
			snprintf(e->head.format, sizeof e->head.format, "%s", value);
		else if (strcmp(line, "from") == 0)
			e->head.from = strtoull(value, NULL, 10);
		else if (strcmp(line, "until") == 0)
			e->head.until = strtoull(value, NULL, 10);
		else if (strcmp(line, "rate") == 0)
			e->head.rate = (unsigned)strtoul(value, NULL, 10);
		else if (strcmp(line, "name") == 0)
			snprintf(e->head.name, sizeof e->head.name, "%s", value);
	}
	buf__reset(&e->body);
	char chunk[65536];
	for (size_t n; (n = fread(chunk, 1, sizeof chunk, f)) > 0;)
		buf__append(&e->body, chunk, n);
	status = ferror(f) || !e->head.format[0] ? -1 : 0;
done:
	fclose(f);
	return status;
}

/* The entry's head says its format without reading the body. */
static bool entry_format_is(const char *path, const char *format)
{
	FILE *f = fopen(path, "re");
	char line[64], want[64];
	bool same = false;

	if (!f)
		return false;
	snprintf(want, sizeof want, "format %s\n", format);
	if (fgets(line, sizeof line, f) && strcmp(line, MAGIC) == 0 && fgets(line, sizeof line, f))
		same = strcmp(line, want) == 0;
	fclose(f);
	return same;
}

int spool__take(struct spool *s, const char *format, struct spool_entry *e)
{
	struct buf path = BUF_INIT;
	int found = 0;

	pthread_mutex_lock(&s->mutex);
	for (size_t at = 0; at < s->count && !found;) {
		if (s->items[at].sending) {
			at++;
			continue;
		}
		entry_path(s, s->items[at].start_ns, &path);
		if (access(path.data, F_OK) != 0) {  /* gone meanwhile */
			remove_item(s, at, false);
			continue;
		}
		if (!entry_format_is(path.data, format)) {
			at++;
			continue;
		}
		if (read_entry(path.data, e) < 0) {
			warning("spool: %s is not a window flamekit wrote: dropped", path.data);
			remove_item(s, at, true);
			s->counts.dropped++;
			continue;
		}
		e->start_ns = s->items[at].start_ns;
		s->items[at].sending = true;
		found = 1;
	}
	pthread_mutex_unlock(&s->mutex);
	buf__free(&path);
	return found;
}

static size_t find_item(const struct spool *s, uint64_t start_ns)
{
	for (size_t at = 0; at < s->count; at++)
		if (s->items[at].start_ns == start_ns)
			return at;
	return s->count;
}

void spool__delivered(struct spool *s, const struct spool_entry *e)
{
	pthread_mutex_lock(&s->mutex);
	size_t at = find_item(s, e->start_ns);
	if (at < s->count)
		remove_item(s, at, true);
	s->counts.delivered++;
	pthread_mutex_unlock(&s->mutex);
}

void spool__put_back(struct spool *s, const struct spool_entry *e)
{
	pthread_mutex_lock(&s->mutex);
	size_t at = find_item(s, e->start_ns);
	if (at < s->count)
		s->items[at].sending = false;
	pthread_mutex_unlock(&s->mutex);
}

void spool__counts(struct spool *s, struct spool_counts *counts)
{
	pthread_mutex_lock(&s->mutex);
	*counts = s->counts;
	counts->pending = s->count;
	pthread_mutex_unlock(&s->mutex);
}

const char *spool__dir(const struct spool *s)
{
	return s->dir;
}

void spool__close(struct spool *s)
{
	if (!s)
		return;
	if (s->lock_fd >= 0)
		close(s->lock_fd);  /* (the lock goes with it) */
	pthread_mutex_destroy(&s->mutex);
	free(s->items);
	free(s->dir);
	free(s);
}
