/*
 * Interpreter frames in `record`: the functions an interpreted program runs,
 * where the native stack shows only the interpreter's loop. Each runtime
 * (CPython: python.h) fills the same small interface, a row of
 * interp_runtimes[] (interp.c): recognise a process and attach to it (its
 * BPF side then walks its frames at each sample: src/bpf/NAME.bpf.h), take
 * the news its BPF side sends, name its frames, detach. A new language is
 * one file per side and one row.
 *
 * A session holds every runtime's state for one recording:
 *
 *	struct interp_session *s = interp_session__new(&options);
 *	interp_session__see(s, pid);          // a process first sampled, exec'd,
 *	                                      // or that mapped a runtime's library
 *	interp_session__event(s, data, size); // what the BPF side sent
 *	interp_session__tick(s);              // now and then: retries
 *	...
 *	size_t n = interp_session__merge(s, pid, natives, native_count, words, word_count,
 *					 count, merged, cap);
 *	interp_session__report(s, on_line, arg);
 *	interp_session__free(s);
 *
 * The merge rule, the one place it is written: the native frames (leaf
 * first, named, however they were unwound: in user space from copies, by
 * frame pointers or in the kernel) keep their order; each native frame of
 * a runtime's interpreter loop (runs_frames()) is replaced by the group of
 * interpreter frames it was running, taken from the leaf: the runtime's
 * BPF side marks where one group ends (a C frame of the loop began there).
 * So native code between interpreted frames (a C extension, a builtin that
 * calls back) stays where it ran. Groups left over when the native stack
 * has no more loop frames (a native walk cut short) go at its root; loop
 * frames left over (no interpreter frames were walked) stay as they are.
 *
 * Names returned stay valid until interp_session__free().
 */
#ifndef FLAMEKIT_INTERP_INTERP_H
#define FLAMEKIT_INTERP_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/buf.h"

struct interp_options {
	bool python;                 /* CPython 3.11+ frames */
	bool lines;                  /* names carry the line running: "f (file.py:12)" */
	/* a runtime's versions to use, e.g. "3.12,3.13"; NULL: every one known.
	 * Others are refused as unknown (FLAMEKIT_PYTHON_KNOWN; for tests) */
	const char *known_versions;
	/* the BPF maps a runtime's kernel side reads, by name; -1: none */
	int (*map_fd)(void *arg, const char *name);
	void *map_arg;
};

enum interp_attach {
	INTERP_NOT_MINE,   /* the process does not run this runtime */
	INTERP_ATTACHED,   /* its frames are walked from now on */
	INTERP_LATER,      /* it will (a runtime not started yet): ask again */
	INTERP_REFUSED,    /* it does, in a form not known here: why says (no pid in it) */
};

/* One frame as a runtime names it from its BPF side's word. */
struct interp_frame {
	const char *name;            /* NULL: the end of a group (no frame) */
	bool cut;                    /* a marker of a walk that ended early */
	bool unnamed;                /* a frame whose code could not be read */
};

/* The interface each runtime fills (STYLE item 13). */
struct interp_runtime {
	const char *name;            /* "python" */
	bool (*wanted)(const struct interp_options *o);
	void *(*open)(const struct interp_options *o);
	void (*close)(void *runtime);
	enum interp_attach (*attach)(void *runtime, uint32_t pid, struct buf *why);
	void (*detach)(void *runtime, uint32_t pid);
	/* news from its BPF side (record_interp_event); false: not its own */
	bool (*event)(void *runtime, const void *data, size_t size);
	/* names word, one of the words its BPF side kept for pid */
	struct interp_frame (*name_frame)(void *runtime, uint32_t pid, uint64_t word);
	/* whether a native frame of this name runs interpreter frames */
	bool (*runs_frames)(const char *native_name);
};

struct interp_session;

struct interp_session *interp_session__new(const struct interp_options *o);
void interp_session__free(struct interp_session *s);
/* Whether any runtime is on (the BPF side has work). */
bool interp_session__active(const struct interp_session *s);
void interp_session__see(struct interp_session *s, uint32_t pid);
/* pid exec'd at time (CLOCK_MONOTONIC ns): what it ran is gone; it is
 * looked at again once it maps a file named python* (its events, in any
 * order: interp_session__mapped()). */
void interp_session__exec(struct interp_session *s, uint32_t pid, uint64_t time);
/* pid was forked by parent_pid: a child of a process running none of the
 * runtimes runs none either, until it execs or maps one. */
void interp_session__fork(struct interp_session *s, uint32_t pid, uint32_t parent_pid);
/* pid exited at time (ns, the task events' clock). */
void interp_session__exit(struct interp_session *s, uint32_t pid, uint64_t time);
/* The processes that exited before `before` have their samples named
 * (record --every: a window written): what was known of them goes (their
 * runtimes detached). */
void interp_session__forget_exited(struct interp_session *s, uint64_t before);
/* pid mapped path at time: a runtime's library may have come (looked at again). */
void interp_session__mapped(struct interp_session *s, uint32_t pid, const char *path,
			    uint64_t time);
void interp_session__event(struct interp_session *s, const void *data, size_t size);
/* Looks again at the processes whose runtime had not started (their
 * turn: a few milliseconds after the first look, then less often). */
void interp_session__tick(struct interp_session *s);
/* Seconds until interp_session__tick() has a look to take, at most `most`:
 * the recording's loop wakes by then. */
double interp_session__seconds_to_tick(const struct interp_session *s, double most);

/*
 * Merges one stack (see above): natives[0 .. native_count) leaf first,
 * words[0 .. word_count) the interpreter frames its BPF side kept for pid
 * (leaf first); writes at most cap names, leaf first, into merged and
 * returns how many. count (samples) goes to the report's tallies.
 */
size_t interp_session__merge(struct interp_session *s, uint32_t pid, const char *const *natives,
			     size_t native_count, const uint64_t *words, size_t word_count,
			     uint64_t count, const char **merged, size_t cap);
/* What kept interpreter frames out, a line each ("have no Python frames:
 * ..."), with the samples it cost; most first. */
void interp_session__report(const struct interp_session *s,
			    void (*line)(void *arg, const char *text, uint64_t samples), void *arg);

#endif
