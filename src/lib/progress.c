#include "progress.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "xalloc.h"

#define QUIET_NS 1000000000LL   /* say nothing during the first second */
#define REDRAW_NS 250000000LL

struct progress {
	char *what;
	uint64_t total;
	int64_t started_ns;
	_Atomic uint64_t done;
	_Atomic int64_t next_draw_ns;
	_Atomic int drawn;
};

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

struct progress *progress__new(const char *what, uint64_t total_bytes)
{
	if (!isatty(STDERR_FILENO))
		return NULL;
	struct progress *p = fk_calloc(1, sizeof(*p));
	p->what = fk_strdup(what);
	p->total = total_bytes;
	p->started_ns = now_ns();
	atomic_init(&p->next_draw_ns, p->started_ns + QUIET_NS);
	return p;
}

static void format_bytes(char *out, size_t size, uint64_t bytes)
{
	if (bytes >= 1000000000ull)
		snprintf(out, size, "%.1f GB", bytes / 1e9);
	else
		snprintf(out, size, "%.0f MB", bytes / 1e6);
}

void progress__add(struct progress *p, uint64_t bytes)
{
	if (!p)
		return;
	uint64_t done = atomic_fetch_add(&p->done, bytes) + bytes;
	int64_t now = now_ns();
	int64_t due = atomic_load(&p->next_draw_ns);
	if (now < due || !atomic_compare_exchange_strong(&p->next_draw_ns, &due, now + REDRAW_NS))
		return; /* not yet, or another thread draws */
	char d[32], t[32];
	format_bytes(d, sizeof(d), done);
	double seconds = (double)(now - p->started_ns) / 1e9;
	if (p->total) {
		format_bytes(t, sizeof(t), p->total);
		fprintf(stderr, "\rflamekit: %s %s of %s (%.0f%%), %.0f MB/s ", p->what, d, t,
			100.0 * (double)done / (double)p->total, done / 1e6 / seconds);
	} else {
		fprintf(stderr, "\rflamekit: %s %s, %.0f MB/s ", p->what, d, done / 1e6 / seconds);
	}
	atomic_store(&p->drawn, 1);
}

void progress__finish(struct progress *p)
{
	if (!p)
		return;
	if (atomic_load(&p->drawn))
		fputs("\r\033[K", stderr);
	free(p->what);
	free(p);
}
