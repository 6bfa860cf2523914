#include "event_rate.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../lib/error.h"
#include "../lib/xalloc.h"
#include "bpf_sampler.h"
#include "machine.h"
#include "online_cpus.h"

/* One event's counter: fds (one per CPU) or a count-only sampler. */
struct counter {
	int *fds;
	size_t fd_count;
	struct bpf_sampler *sampler;
};

struct event_rate {
	struct counter *counters;
	size_t count;
};

/* A tracepoint's id, from tracefs (event_spec__check() found or mounted
 * it); 0 if unreadable. */
static uint64_t tracepoint_id(const struct event_spec *e)
{
	const char *root = machine__tracefs_mounted();
	unsigned long long id = 0;
	char path[4096];

	if (!root)
		return 0;
	snprintf(path, sizeof path, "%s/events/%s/%s/id", root, e->category, e->name);
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu", &id) != 1)
			id = 0;
		fclose(f);
	}
	return id;
}

static int open_counting(const struct event_spec *e, struct counter *c, const int *cpus,
			 size_t cpu_count)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };

	if (e->kind == EVENT_TRACEPOINT) {
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = tracepoint_id(e);
		if (!attr.config)
			return error("-e %s: cannot read its id from tracefs "
				     "(events/%s/%s/id)", e->text, e->category, e->name);
	} else {
		attr.type = e->perf_type;
		attr.config = e->perf_config;
	}
	c->fds = fk_calloc(cpu_count, sizeof(*c->fds));
	for (size_t i = 0; i < cpu_count; i++) {
		int fd = (int)syscall(__NR_perf_event_open, &attr, -1, cpus[i], -1,
				      PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && e->hardware && (errno == ENOENT || errno == ENODEV || errno == EOPNOTSUPP))
			return error("-e %s: this machine has no hardware performance counters "
				     "(%s: a virtual machine without a virtual PMU?): use a software "
				     "event or a tracepoint", e->text, strerror(errno));
		if (fd < 0)
			return error("-e %s: cannot count it on CPU %d (perf_event_open: %s)",
				     e->text, cpus[i], strerror(errno));
		c->fds[c->fd_count++] = fd;
	}
	return 0;
}

static int open_sampler(const struct event_spec *e, struct counter *c, bool verbose)
{
	struct bpf_sampler_options o = {
		.cpu = -1,
		.max_stack_depth = 1,
		.event = e,
		.count_only = true,
		.verbose = verbose,
		.max_block_us = UINT64_MAX,
	};
	if (bpf_sampler__open(&o, &c->sampler) < 0)
		return -1;
	return bpf_sampler__attach(c->sampler);
}

int event_rate__open(const struct event_spec *specs, size_t count, bool verbose,
		     struct event_rate **out)
{
	struct event_rate *r = fk_calloc(1, sizeof(*r));
	int *cpus = NULL;
	size_t cpu_count = online_cpus(&cpus);
	int err = 0;

	*out = NULL;
	r->counters = fk_calloc(count, sizeof(*r->counters));
	r->count = count;
	if (cpu_count == 0)
		err = error("could not read the online CPUs from /sys/devices/system/cpu/online");
	for (size_t i = 0; i < count && !err; i++) {
		bool counting = specs[i].kind == EVENT_PERF ||
				(specs[i].kind == EVENT_TRACEPOINT && event_spec__check(&specs[i]) == 0);
		if (specs[i].kind == EVENT_TRACEPOINT && !counting)
			err = -1;
		else if (counting)
			err = open_counting(&specs[i], &r->counters[i], cpus, cpu_count);
		else
			err = open_sampler(&specs[i], &r->counters[i], verbose);
	}
	free(cpus);
	if (err) {
		event_rate__free(r);
		return -1;
	}
	*out = r;
	return 0;
}

int event_rate__read(struct event_rate *r, uint64_t *counts)
{
	for (size_t i = 0; i < r->count; i++) {
		struct counter *c = &r->counters[i];
		counts[i] = 0;
		for (size_t f = 0; f < c->fd_count; f++) {
			uint64_t n;
			if (read(c->fds[f], &n, sizeof(n)) != (ssize_t)sizeof(n))
				return error("reading a perf counter: %s", strerror(errno));
			counts[i] += n;
		}
		if (c->sampler) {
			struct bpf_sampler_stats stats;
			if (bpf_sampler__stats(c->sampler, &stats) < 0)
				return -1;
			counts[i] = stats.events;
		}
	}
	return 0;
}

void event_rate__free(struct event_rate *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->count; i++) {
		for (size_t f = 0; f < r->counters[i].fd_count; f++)
			close(r->counters[i].fds[f]);
		free(r->counters[i].fds);
		bpf_sampler__free(r->counters[i].sampler);
	}
	free(r->counters);
	free(r);
}
