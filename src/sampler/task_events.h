/*
 * What processes do to their address space while `record` samples them:
 * one perf "dummy" event per CPU that counts nothing but reports every
 * executable mmap (PERF_RECORD_MMAP2), exec (PERF_RECORD_COMM with the exec
 * bit), fork and exit of every task, each with its CLOCK_MONOTONIC time (the
 * clock of bpf_ktime_get_ns(), so events and BPF samples order together).
 *
 * The kernel writes the records into one ring per CPU; task_events__read()
 * hands over everything written so far, CPU by CPU (so records of one CPU
 * are in time order, records of two CPUs are not: consumers order by time).
 *
 *	struct task_events *te;
 *	if (task_events__open(&te) < 0) ...      // before sampling starts
 *	task_events__read(te, &callbacks, arg);  // often, and once at the end
 *	task_events__free(te);
 *
 * Pointers in a callback's event (the path) are valid during the call only.
 * A ring that overflowed between two reads loses records: task_events__lost()
 * counts them.
 */
#ifndef FLAMEKIT_TASK_EVENTS_H
#define FLAMEKIT_TASK_EVENTS_H

#include <stdint.h>

struct task_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint64_t dev, inode;      /* dev as major << 32 | minor, as /proc/PID/maps prints them */
	const char *path;         /* "/usr/lib/...", "[vdso]", "//anon", ... */
	uint64_t time;
};

struct task_events_callbacks {
	void (*mmap)(const struct task_mmap *m, void *arg);
	void (*exec)(uint32_t pid, const char *comm, uint64_t time, void *arg);
	void (*fork)(uint32_t pid, uint32_t parent_pid, uint64_t time, void *arg);
	void (*exit)(uint32_t pid, uint64_t time, void *arg);
};

struct task_events;

int task_events__open(struct task_events **out);
void task_events__read(struct task_events *te, const struct task_events_callbacks *cb,
		       void *arg);
uint64_t task_events__lost(const struct task_events *te);
void task_events__free(struct task_events *te);

#endif
