/*
 * What `record -e EVENT` and `record --rate -e EVENT` name, parsed: a perf
 * event the kernel counts (software: page-faults, context-switches, ...;
 * hardware: cycles, instructions, ..., where there is a PMU), a tracepoint
 * (CATEGORY:NAME), a kernel function (k:FUNCTION) or a user function
 * (u:BINARY:FUNCTION, BINARY a path; the last ':' ends it).
 *
 *	struct event_spec e;
 *	if (event_spec__parse("u:/lib/libc.so.6:malloc", &e) < 0) ...  // one error line
 *	if (event_spec__check(&e) < 0) ...    // is it there on this machine? (root)
 *	... e.binary, e.function ...
 *	event_spec__free(&e);
 *
 * The spec owns copies of its strings; text is the name as given, for
 * headers and errors. Parsing needs no privilege and reads nothing (its
 * errors are the same everywhere); checking reads tracefs (mounting it
 * where it is not, see machine.h), the binary and /proc/kallsyms.
 */
#ifndef FLAMEKIT_SAMPLER_EVENT_SPEC_H
#define FLAMEKIT_SAMPLER_EVENT_SPEC_H

#include <stdbool.h>
#include <stdint.h>

enum event_kind {
	EVENT_NONE,        /* no -e: the timer */
	EVENT_PERF,        /* perf_event_open(perf_type, perf_config) */
	EVENT_TRACEPOINT,  /* category:name */
	EVENT_KFUNC,       /* k:function (fentry) */
	EVENT_UFUNC,       /* u:binary:function (uprobe) */
};

struct event_spec {
	enum event_kind kind;
	char *text;                /* as given */
	uint32_t perf_type;        /* PERF_TYPE_SOFTWARE or PERF_TYPE_HARDWARE */
	uint64_t perf_config;
	bool hardware;             /* needs a PMU */
	char *category, *name;     /* a tracepoint's */
	char *binary, *function;   /* function: k: and u:; binary: u: */
};

/* Fills *out (zeroed first); prints one error line and returns -1 when
 * text names no event (out is then empty: freeing it is safe). */
int event_spec__parse(const char *text, struct event_spec *out);
/* Is the event there: the tracepoint in tracefs (mounted if need be and
 * allowed), the binary readable, the
 * kernel function in /proc/kallsyms? One error line and -1 if not. (A user
 * function's symbol is looked up when it is attached.) */
int event_spec__check(const struct event_spec *e);
void event_spec__free(struct event_spec *e);

/* The perf event names, for help and errors: "page-faults, ..." */
const char *event_spec__perf_names(void);

#endif
