#include "targets.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <unistd.h>

#include "../lib/xalloc.h"

struct target {
	uint32_t id;
	int pidfd;                /* -1: watched by /proc/ID/stat */
	unsigned long long start; /* its start time (clock ticks after boot) */
	bool exited;
};

struct targets {
	struct target *items;
	size_t count;
};

/* The start time of task id and whether it still runs (not a zombie or
 * dead); false when it is gone. */
static bool read_task(uint32_t id, unsigned long long *start, bool *running)
{
	char path[64], line[1024];
	snprintf(path, sizeof path, "/proc/%u/stat", id);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool ok = fgets(line, sizeof line, f) != NULL;
	fclose(f);
	/* "pid (comm) state ...": the comm may hold spaces and parentheses */
	char *after = ok ? strrchr(line, ')') : NULL;
	char state;
	if (!after || sscanf(after + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u "
			     "%*d %*d %*d %*d %*d %*d %llu", &state, start) != 2)
		return false;
	*running = state != 'Z' && state != 'X' && state != 'x';
	return true;
}

struct targets *targets__new(const uint32_t *ids, size_t count, bool threads)
{
	struct targets *t = fk_calloc(1, sizeof(*t));
	t->items = fk_calloc(count ? count : 1, sizeof(*t->items));
	t->count = count;
	for (size_t i = 0; i < count; i++) {
		struct target *x = &t->items[i];
		bool running = false;
		x->id = ids[i];
		x->pidfd = threads ? -1 : pidfd_open((pid_t)ids[i], 0);
		if (x->pidfd < 0)
			x->exited = !read_task(x->id, &x->start, &running) || !running;
	}
	return t;
}

static bool target_exited(struct target *x)
{
	if (x->exited)
		return true;
	if (x->pidfd >= 0) {
		struct pollfd p = { .fd = x->pidfd, .events = POLLIN };
		x->exited = poll(&p, 1, 0) > 0;
	} else {
		unsigned long long start;
		bool running = false;
		x->exited = !read_task(x->id, &start, &running) || !running || start != x->start;
	}
	return x->exited;
}

bool targets__all_exited(struct targets *t)
{
	bool all = true;
	for (size_t i = 0; i < t->count; i++)
		all &= target_exited(&t->items[i]);
	return all && t->count > 0;
}

void targets__free(struct targets *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->count; i++)
		if (t->items[i].pidfd >= 0)
			close(t->items[i].pidfd);
	free(t->items);
	free(t);
}
