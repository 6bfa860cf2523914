#include "interp.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/clock.h"
#include "../lib/pid_table.h"
#include "../lib/xalloc.h"
#include "python.h"

static const struct interp_runtime *const interp_runtimes[] = {
	&python_runtime,
};

#define RUNTIME_COUNT (sizeof(interp_runtimes) / sizeof(interp_runtimes[0]))
#define NO_RUNTIME -1
/* A runtime not started yet (its library mapped, its interpreter not made)
 * is looked at again after 5 ms, then 10, 20 ... up to every 100 ms, 100
 * times in all (some ten seconds): an interpreter starts within tens of
 * milliseconds, and its frames are missed until it is seen. */
#define MAX_TRIES 100
#define FIRST_TRY_NS 5000000ULL
#define LAST_TRY_NS 100000000ULL

enum process_state {
	PROCESS_UNKNOWN,    /* not looked at yet */
	PROCESS_NONE,       /* runs no runtime known here */
	PROCESS_LATER,      /* a runtime that has not started yet */
	PROCESS_ATTACHED,
	PROCESS_REFUSED,
};

struct process {
	uint32_t pid;
	enum process_state state;
	int runtime;                 /* index in interp_runtimes[], or NO_RUNTIME */
	unsigned tries;
	uint64_t next_try, try_gap;  /* PROCESS_LATER: when to look again (ns), and the wait */
	char *why;                   /* PROCESS_REFUSED's reason */
	uint64_t python_mapped;      /* when it last mapped a file named python* (ns) */
	uint64_t exited;             /* when it exited (ns); 0: alive, as far as told */
};

struct tally {
	char *text;
	uint64_t samples;
};

struct interp_session {
	struct interp_options options;
	void *runtimes[RUNTIME_COUNT];   /* NULL: off */
	struct pid_table processes;
	struct tally *tallies;
	size_t tally_count, tally_cap;
	struct buf why;
	uint64_t next_try;       /* CLOCK_MONOTONIC ns of the soonest look again; 0: none due */
};

struct interp_session *interp_session__new(const struct interp_options *o)
{
	struct interp_session *s = fk_calloc(1, sizeof(*s));

	s->options = *o;
	pid_table__init(&s->processes);
	for (size_t i = 0; i < RUNTIME_COUNT; i++)
		if (interp_runtimes[i]->wanted(o))
			s->runtimes[i] = interp_runtimes[i]->open(o);
	return s;
}

static void free_process(void *record)
{
	struct process *p = record;
	free(p->why);
	free(p);
}

void interp_session__free(struct interp_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < RUNTIME_COUNT; i++)
		if (s->runtimes[i])
			interp_runtimes[i]->close(s->runtimes[i]);
	pid_table__release(&s->processes, free_process);
	for (size_t i = 0; i < s->tally_count; i++)
		free(s->tallies[i].text);
	free(s->tallies);
	buf__free(&s->why);
	free(s);
}

bool interp_session__active(const struct interp_session *s)
{
	for (size_t i = 0; s && i < RUNTIME_COUNT; i++)
		if (s->runtimes[i])
			return true;
	return false;
}

/* Asks each runtime in turn whether p runs it. */
static void look_at(struct interp_session *s, struct process *p)
{
	bool later = false;

	for (size_t i = 0; i < RUNTIME_COUNT; i++) {
		if (!s->runtimes[i])
			continue;
		buf__reset(&s->why);
		enum interp_attach a = interp_runtimes[i]->attach(s->runtimes[i], p->pid, &s->why);
		if (a == INTERP_NOT_MINE)
			continue;
		p->runtime = (int)i;
		if (a == INTERP_ATTACHED) {
			p->state = PROCESS_ATTACHED;
			return;
		}
		if (a == INTERP_REFUSED) {
			p->state = PROCESS_REFUSED;
			free(p->why);
			p->why = fk_strdup(s->why.data ? s->why.data : "not known here");
			return;
		}
		later = true;
	}
	p->state = later ? PROCESS_LATER : PROCESS_NONE;
	if (!later) {
		p->runtime = NO_RUNTIME;
		return;
	}
	p->try_gap = p->try_gap ? p->try_gap * 2 : FIRST_TRY_NS;
	if (p->try_gap > LAST_TRY_NS)
		p->try_gap = LAST_TRY_NS;
	p->next_try = monotonic_ns() + p->try_gap;
	if (!s->next_try || p->next_try < s->next_try)
		s->next_try = p->next_try;
}

static struct process *process_of(struct interp_session *s, uint32_t pid, bool *made)
{
	struct process *p = pid_table__get(&s->processes, pid, sizeof(*p), made);
	if (*made)
		p->runtime = NO_RUNTIME;
	return p;
}

void interp_session__see(struct interp_session *s, uint32_t pid)
{
	bool made;

	if (!interp_session__active(s) || pid == 0)
		return;
	struct process *p = process_of(s, pid, &made);
	if (p->state == PROCESS_UNKNOWN)
		look_at(s, p);
}

void interp_session__exec(struct interp_session *s, uint32_t pid, uint64_t time)
{
	bool made;

	if (!interp_session__active(s))
		return;
	struct process *p = process_of(s, pid, &made);
	if (p->state == PROCESS_ATTACHED)
		interp_runtimes[p->runtime]->detach(s->runtimes[p->runtime], pid);
	p->tries = 0;
	p->state = PROCESS_NONE;
	p->runtime = NO_RUNTIME;
	/* looked at once the new program maps a python, not at every exec of
	 * a host (a read of /proc/PID/maps each: most of a recording's own
	 * CPU on a build). Its mappings' events come after the exec's, or
	 * were read first (another CPU's): then it is now. */
	if (p->python_mapped >= time)
		look_at(s, p);
}

void interp_session__exit(struct interp_session *s, uint32_t pid, uint64_t time)
{
	if (!interp_session__active(s))
		return;
	struct process *p = pid_table__get(&s->processes, pid, 0, NULL);
	if (p)
		p->exited = time;
}

struct exited_before {
	struct interp_session *session;
	uint64_t before;
};

/* pid_table__remove_if()'s test: gone before the time, detached if attached */
static bool exited_before(const void *record, void *arg)
{
	const struct process *p = record;
	const struct exited_before *e = arg;
	if (!p->exited || p->exited >= e->before)
		return false;
	if (p->state == PROCESS_ATTACHED)
		interp_runtimes[p->runtime]->detach(e->session->runtimes[p->runtime], p->pid);
	return true;
}

void interp_session__forget_exited(struct interp_session *s, uint64_t before)
{
	struct exited_before e = { s, before };

	if (interp_session__active(s))
		pid_table__remove_if(&s->processes, exited_before, &e, free_process);
}

void interp_session__fork(struct interp_session *s, uint32_t pid, uint32_t parent_pid)
{
	bool made;

	if (!interp_session__active(s))
		return;
	/* a pid used again: the new process is not the one that exited */
	struct process *old = pid_table__get(&s->processes, pid, 0, NULL);
	if (old)
		old->exited = 0;
	struct process *parent = pid_table__get(&s->processes, parent_pid, 0, NULL);
	/* a child of a process looked at and found no interpreter's (a shell,
	 * make) starts as that: not read from /proc/PID/maps at its first
	 * sample; its exec or a python it maps are told as they come */
	if (!parent || parent->state != PROCESS_NONE || parent->python_mapped)
		return;
	struct process *p = process_of(s, pid, &made);
	if (made)
		p->state = PROCESS_NONE;
}

void interp_session__mapped(struct interp_session *s, uint32_t pid, const char *path,
			    uint64_t time)
{
	bool made;

	if (!interp_session__active(s) || !strstr(path, "python"))
		return;
	struct process *p = process_of(s, pid, &made);
	if (time > p->python_mapped)
		p->python_mapped = time;
	/* what was looked at and found wanting (or exec'd since): a library
	 * may be it */
	if (p->state == PROCESS_NONE)
		look_at(s, p);
}

void interp_session__event(struct interp_session *s, const void *data, size_t size)
{
	for (size_t i = 0; i < RUNTIME_COUNT; i++)
		if (s->runtimes[i] && interp_runtimes[i]->event(s->runtimes[i], data, size))
			return;
}

void interp_session__tick(struct interp_session *s)
{
	if (!interp_session__active(s) || !s->next_try)
		return;
	uint64_t now = monotonic_ns();
	if (now < s->next_try)
		return;
	s->next_try = 0;
	for (size_t i = 0; i < s->processes.count; i++) {
		struct process *p = s->processes.records[i];
		if (p->state != PROCESS_LATER || p->tries >= MAX_TRIES)
			continue;
		if (p->next_try <= now) {
			p->tries++;
			look_at(s, p);  /* (sets s->next_try if it is still to come) */
		} else if (!s->next_try || p->next_try < s->next_try) {
			s->next_try = p->next_try;
		}
	}
}

double interp_session__seconds_to_tick(const struct interp_session *s, double most)
{
	if (!s || !s->next_try)
		return most;
	uint64_t now = monotonic_ns();
	double left = s->next_try > now ? (double)(s->next_try - now) / 1e9 : 0;
	return left < most ? left : most;
}

static void tally(struct interp_session *s, const char *text, uint64_t samples)
{
	for (size_t i = 0; i < s->tally_count; i++) {
		if (strcmp(s->tallies[i].text, text) == 0) {
			s->tallies[i].samples += samples;
			return;
		}
	}
	s->tallies = fk_grow(s->tallies, &s->tally_cap, s->tally_count + 1, sizeof(*s->tallies));
	s->tallies[s->tally_count++] = (struct tally){ fk_strdup(text), samples };
}

size_t interp_session__merge(struct interp_session *s, uint32_t pid, const char *const *natives,
			     size_t native_count, const uint64_t *words, size_t word_count,
			     uint64_t count, const char **merged, size_t cap)
{
	struct process *p = s ? pid_table__get(&s->processes, pid, 0, NULL) : NULL;
	const struct interp_runtime *rt = p && p->runtime != NO_RUNTIME ?
		interp_runtimes[p->runtime] : NULL;
	void *state = rt ? s->runtimes[p->runtime] : NULL;
	size_t out = 0, next_word = 0;
	bool unreplaced = false, cut = false, unnamed = false;

	for (size_t i = 0; i < native_count && out < cap; i++) {
		if (!rt || !rt->runs_frames(natives[i])) {
			merged[out++] = natives[i];
			continue;
		}
		if (next_word >= word_count) {
			merged[out++] = natives[i];
			unreplaced = true;
			continue;
		}
		/* this C frame's group: up to the end of the group */
		while (next_word < word_count && out < cap) {
			struct interp_frame f = rt->name_frame(state, pid, words[next_word++]);
			if (!f.name)
				break;
			cut |= f.cut;
			unnamed |= f.unnamed;
			merged[out++] = f.name;
		}
	}
	/* groups whose C frames the native walk did not reach: at the root */
	while (rt && next_word < word_count && out < cap) {
		struct interp_frame f = rt->name_frame(state, pid, words[next_word++]);
		if (f.name) {
			cut |= f.cut;
			unnamed |= f.unnamed;
			merged[out++] = f.name;
		}
	}
	if (p && p->state == PROCESS_REFUSED)
		tally(s, p->why, count);
	else if (cut)
		tally(s, "have interpreter frames cut short: their frame chain looped, could not be "
			 "read, or was deeper than --perf-max-stack-depth", count);
	else if (p && p->state == PROCESS_ATTACHED && unreplaced)
		tally(s, word_count ? "have fewer interpreter frames than the interpreter's C frames "
			  "running them (a sample as a C frame began or ended)"
			: "have no interpreter frames: the thread was not found in the "
			  "interpreter's list in time, or its frames could not be read", count);
	if (unnamed)
		tally(s, "have interpreter frames without names: their code could not be read "
			 "(the process had exited, or the code was freed)", count);
	return out;
}

static int most_first(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;
	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return strcmp(x->text, y->text);
}

void interp_session__report(const struct interp_session *s,
			    void (*line)(void *arg, const char *text, uint64_t samples), void *arg)
{
	if (!s || !s->tally_count)
		return;
	struct tally *sorted = fk_malloc(s->tally_count * sizeof(*sorted));
	memcpy(sorted, s->tallies, s->tally_count * sizeof(*sorted));
	qsort(sorted, s->tally_count, sizeof(*sorted), most_first);
	for (size_t i = 0; i < s->tally_count; i++)
		line(arg, sorted[i].text, sorted[i].samples);
	free(sorted);
}
