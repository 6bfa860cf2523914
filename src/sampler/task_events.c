#include "task_events.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../lib/error.h"
#include "../lib/xalloc.h"
#include "online_cpus.h"

/* 64 pages of records per CPU: some 2,000 mmaps between two reads. */
#define RING_PAGES 64

struct ring {
	int fd;
	void *base;                 /* the control page, then the data pages */
	size_t data_size;
	/* during a read: what is left, and the next record's size and time
	 * (peek(); next_size 0: none left) */
	uint64_t tail, head;
	size_t next_size;
	uint64_t next_time;
};

struct task_events {
	struct ring *rings;
	size_t ring_count;
	uint64_t lost;
	size_t page_size;
	char *record;               /* a record that wraps the ring's end, copied whole */
	size_t record_cap;
};

int task_events__open(struct task_events **out)
{
	struct task_events *te = fk_calloc(1, sizeof(*te));
	int *cpus, n = (int)online_cpus(&cpus), status = 0;

	*out = NULL;
	te->page_size = (size_t)sysconf(_SC_PAGESIZE);
	te->rings = fk_calloc((size_t)n + 1, sizeof(*te->rings));
	for (int i = 0; i < n; i++) {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_SOFTWARE,
			.config = PERF_COUNT_SW_DUMMY,
			.size = sizeof(attr),
			.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
			.sample_id_all = 1,
			.mmap = 1,
			.mmap2 = 1,
			.comm = 1,
			.comm_exec = 1,
			.task = 1,
			.use_clockid = 1,
			.clockid = CLOCK_MONOTONIC,
			.exclude_kernel = 1,
		};
		int fd = (int)syscall(__NR_perf_event_open, &attr, -1, cpus[i], -1,
				      PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && errno == ENODEV)
			continue;  /* went offline meanwhile */
		if (fd < 0) {
			status = error("could not follow mmap and exec on CPU %d "
				       "(perf_event_open of a dummy event): %s", cpus[i],
				       strerror(errno));
			break;
		}
		struct ring *r = &te->rings[te->ring_count++];
		r->fd = fd;
		r->data_size = RING_PAGES * te->page_size;
		r->base = mmap(NULL, r->data_size + te->page_size, PROT_READ | PROT_WRITE,
			       MAP_SHARED, fd, 0);
		if (r->base == MAP_FAILED) {
			r->base = NULL;
			status = error("could not map the mmap-event ring of CPU %d: %s "
				       "(raise `ulimit -l` or kernel.perf_event_mlock_kb)",
				       cpus[i], strerror(errno));
			break;
		}
	}
	free(cpus);
	if (status < 0) {
		task_events__free(te);
		return -1;
	}
	*out = te;
	return 0;
}

/* The sample_id_all trailer of a non-sample record: pid, tid, time. */
struct id_trailer {
	uint32_t pid, tid;
	uint64_t time;
};

static void handle_record(struct task_events *te, const struct perf_event_header *h,
			  const struct task_events_callbacks *cb, void *arg)
{
	const char *body = (const char *)(h + 1);
	size_t size = h->size - sizeof(*h);
	struct id_trailer id = { 0 };

	if (size >= sizeof(id))
		memcpy(&id, body + size - sizeof(id), sizeof(id));
	switch (h->type) {
	case PERF_RECORD_MMAP2: {
		struct {
			uint32_t pid, tid;
			uint64_t addr, len, pgoff;
			uint32_t maj, min;
			uint64_t ino, ino_generation;
			uint32_t prot, flags;
		} m;
		if (size < sizeof(m) + sizeof(id) || !cb->mmap)
			return;
		memcpy(&m, body, sizeof(m));
		const char *path = body + sizeof(m);
		if (!memchr(path, 0, size - sizeof(m) - sizeof(id)))
			return;
		struct task_mmap event = {
			m.pid, m.tid, m.addr, m.len, m.pgoff,
			(uint64_t)m.maj << 32 | m.min, m.ino, path, id.time,
		};
		if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)
			event.dev = event.inode = 0;  /* not asked for; ids not there */
		cb->mmap(&event, arg);
		break;
	}
	case PERF_RECORD_COMM: {
		uint32_t ids[2];
		if (!(h->misc & PERF_RECORD_MISC_COMM_EXEC) || !cb->exec ||
		    size < sizeof(ids) + sizeof(id))
			return;
		memcpy(ids, body, sizeof(ids));
		const char *comm = body + sizeof(ids);
		if (!memchr(comm, 0, size - sizeof(ids) - sizeof(id)))
			return;
		if (ids[0] == ids[1])  /* the thread group's leader: the process execs */
			cb->exec(ids[0], comm, id.time, arg);
		break;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		struct {
			uint32_t pid, ppid, tid, ptid;
			uint64_t time;
		} t;
		if (size < sizeof(t))
			return;
		memcpy(&t, body, sizeof(t));
		if (t.pid != t.tid)
			return;  /* a thread, not a process */
		if (h->type == PERF_RECORD_FORK && cb->fork)
			cb->fork(t.pid, t.ppid, t.time, arg);
		else if (h->type == PERF_RECORD_EXIT && cb->exit)
			cb->exit(t.pid, t.time, arg);
		break;
	}
	case PERF_RECORD_LOST: {
		uint64_t lost[2];
		if (size >= sizeof(lost)) {
			memcpy(lost, body, sizeof(lost));
			te->lost += lost[1];
		}
		break;
	}
	}
}

/* The ring's bytes from its offset `at` on, wrapping at its end. */
static void copy_out(const struct task_events *te, const struct ring *r, uint64_t at, void *to,
		     size_t size)
{
	const char *data = (const char *)r->base + te->page_size;
	size_t from = at % r->data_size, first = r->data_size - from;

	if (first > size)
		first = size;
	memcpy(to, data + from, first);
	memcpy((char *)to + first, data, size - first);
}

/* Looks at the ring's next record: its size and time (the trailer's, at
 * its end; 0 for a record too short to have one: handed over first). */
static void peek(const struct task_events *te, struct ring *r)
{
	struct perf_event_header h;

	r->next_size = 0;
	if (r->tail + sizeof(h) > r->head)
		return;
	copy_out(te, r, r->tail, &h, sizeof(h));
	if (h.size < sizeof(h) || r->tail + h.size > r->head)
		return;
	r->next_size = h.size;
	r->next_time = 0;
	if (h.size >= sizeof(h) + sizeof(struct id_trailer))
		copy_out(te, r, r->tail + h.size - sizeof(r->next_time), &r->next_time,
			 sizeof(r->next_time));
}

/* The ring's next record (peek() found one), whole: in place, or copied
 * when it wraps the ring's end. */
static const struct perf_event_header *next_record(struct task_events *te, const struct ring *r)
{
	size_t at = r->tail % r->data_size;

	if (at + r->next_size <= r->data_size)
		return (const void *)((const char *)r->base + te->page_size + at);
	te->record = fk_grow(te->record, &te->record_cap, r->next_size, 1);
	copy_out(te, r, r->tail, te->record, r->next_size);
	return (const void *)te->record;
}

/* Every record written so far, all rings' merged by time: a process that
 * forks on one CPU and exits on another has its fork handed over first,
 * whichever ring is read first. */
void task_events__read(struct task_events *te, const struct task_events_callbacks *cb,
		       void *arg)
{
	for (size_t i = 0; i < te->ring_count; i++) {
		struct ring *r = &te->rings[i];
		struct perf_event_mmap_page *control = r->base;
		r->head = __atomic_load_n(&control->data_head, __ATOMIC_ACQUIRE);
		r->tail = control->data_tail;
		peek(te, r);
	}
	for (;;) {
		struct ring *earliest = NULL;
		for (size_t i = 0; i < te->ring_count; i++) {
			struct ring *r = &te->rings[i];
			if (r->next_size && (!earliest || r->next_time < earliest->next_time))
				earliest = r;
		}
		if (!earliest)
			break;
		handle_record(te, next_record(te, earliest), cb, arg);
		earliest->tail += earliest->next_size;
		peek(te, earliest);
	}
	for (size_t i = 0; i < te->ring_count; i++) {
		struct perf_event_mmap_page *control = te->rings[i].base;
		__atomic_store_n(&control->data_tail, te->rings[i].tail, __ATOMIC_RELEASE);
	}
}

uint64_t task_events__lost(const struct task_events *te)
{
	return te->lost;
}

void task_events__free(struct task_events *te)
{
	if (!te)
		return;
	for (size_t i = 0; i < te->ring_count; i++) {
		if (te->rings[i].base)
			munmap(te->rings[i].base, te->rings[i].data_size + te->page_size);
		close(te->rings[i].fd);
	}
	free(te->rings);
	free(te->record);
	free(te);
}
