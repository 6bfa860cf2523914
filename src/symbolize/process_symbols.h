/*
 * User-space symbols of processes, live or gone: each process's executable
 * mappings as they were when it was sampled, the binaries they map (their
 * symbols: binary_symbols.h), the vDSO, and /tmp/perf-PID.map for JIT code
 * (the one in the process's own /tmp, by its own pid, where it lives in a
 * container), which HotSpot JVMs are asked to write (below).
 *
 * Mappings come from two places. While recording, the mmap, exec and fork
 * events of every process (sampler/task_events.h) are fed in as they
 * happen, each with its time; a process that began before the recording
 * is read from /proc/PID/maps the first time it is sampled (its mappings
 * count as made at time 0). A name is then looked up for an address at a
 * time: the mapping made last before that time, since the process's last
 * exec or fork before it, holds the address. So a library loaded at any
 * moment, a process that exited, and a pid used again by another process
 * all resolve.
 *
 * A binary is opened once (keyed by device and inode) however many
 * processes map it: through the process's own view (/proc/PID/map_files,
 * so deleted files and other mount namespaces work) while it lives, else by
 * path (refused when the path now holds another file of the same file
 * system: a replaced binary). It stays open (its symbol names point into
 * the file's mapping) until process_symbols__free(), or until a long run
 * finds no process mapping it any more (process_symbols__forget_binaries()).
 * Binaries of a process are opened when it is first sampled
 * (process_symbols__add(), or the first lookup), and from then on as it
 * maps them.
 *
 *	struct process_symbols *ps = process_symbols__new();
 *	process_symbols__mmap(ps, pid, ...);              // as events come
 *	process_symbols__add(ps, pid);                    // when first sampled
 *	struct symbol_lookup found;
 *	process_symbols__lookup(ps, pid, addr, time, &found);  // found.name
 *	process_symbols__free(ps);
 *
 * Names are function names (C++ demangled), or "[unknown]" where nothing
 * was mapped, "[unknown:jit]" in anonymous code without a perf map entry,
 * "[unknown:no-symbols NAME]" in a binary without a symbol there,
 * "[unknown:unreadable NAME]" in one that could not be read. They stay valid
 * until process_symbols__free(). A perf map is read again from where the
 * last read stopped whenever an address is in none of its symbols (the JIT
 * appends as it compiles).
 */
#ifndef FLAMEKIT_SYMBOLIZE_PROCESS_SYMBOLS_H
#define FLAMEKIT_SYMBOLIZE_PROCESS_SYMBOLS_H

#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "debuginfo.h"
#include "symbol_table.h"

struct process_symbols;

struct process_symbols *process_symbols__new(void);
void process_symbols__free(struct process_symbols *ps);
void process_symbols__add(struct process_symbols *ps, uint32_t pid);
/* Names from /tmp/perf-PID.map (JIT code) end in _[j] from now on, as
 * kernel frames end in _[k] (record -a), for flamegraph --colors java/js. */
void process_symbols__annotate_jit(struct process_symbols *ps, bool on);
/* From now on, a binary whose names are first wanted and that has no
 * symbol table on this machine gets its debug file from fetch (NULL: no
 * more), which the caller owns and keeps until process_symbols__free():
 * for record --debuginfod, after the recording, never during it. */
void process_symbols__fetch_debuginfo(struct process_symbols *ps, struct debuginfod_fetcher *fetch);

/*
 * HotSpot JVMs (processes that map libjvm.so) write their JIT's perf map
 * when asked (symbolize/jvm_attach.h, JDK 17+), with no agent. Each sampled
 * JVM is asked while the recording runs, a second after it was first
 * sampled and then at doubling intervals up to a minute, whenever
 * process_symbols__ask_jvms() is called (the recording's loop: it asks
 * only the JVMs whose turn it is, and never waits: an ask goes on at the
 * next call); and a JVM still alive is asked once more at the first of its
 * JIT frames that a lookup cannot name (waiting, up to 5 s, for its answer).
 */
void process_symbols__ask_jvms(struct process_symbols *ps);
/* The JVMs never answered, and why the last ask failed ("it was started
 * with -XX:+DisableAttachMechanism"). */
void process_symbols__jvm_refusals(struct process_symbols *ps,
				   void (*each)(uint32_t pid, const char *why, void *arg),
				   void *arg);

/* Events, each with its CLOCK_MONOTONIC time in ns. dev is major << 32 |
 * minor; path as the kernel names the mapping ("/usr/lib/...", "[vdso]",
 * "//anon"). Only executable mappings are expected. */
void process_symbols__mmap(struct process_symbols *ps, uint32_t pid, uint64_t start,
			   uint64_t len, uint64_t offset, uint64_t dev, uint64_t inode,
			   const char *path, uint64_t time);
void process_symbols__exec(struct process_symbols *ps, uint32_t pid, uint64_t time);
/* pid forked from parent_pid: until it execs, its address space is the
 * parent's as it was at the fork (looked up there, not copied). */
void process_symbols__fork(struct process_symbols *ps, uint32_t pid, uint32_t parent_pid,
			   uint64_t time);
/* pid exited at time (a fork or exec after it is another process's). */
void process_symbols__exit(struct process_symbols *ps, uint32_t pid, uint64_t time);
/* Lets go of the processes that exited before `before`, whose samples are
 * all named (record --every: windows written): what it knew of them, and
 * the names their perf maps gave, which are not valid after. Their
 * binaries stay open for the others that map them. */
void process_symbols__forget_exited(struct process_symbols *ps, uint64_t before);
/* Gives back the pages of every binary's files that naming and unwinding
 * read (binary__release_pages(), only_read as only_if_read there): naming
 * does it itself every few hundred names; a long run calls it after each
 * window. */
void process_symbols__release_pages(struct process_symbols *ps, bool only_read);
/* Frees the names lookups made (demangled, annotated, and those named
 * together): every name looked up so far is invalid after. A long run calls it
 * after each window, whose names the profile has copied: else the names of
 * every function ever sampled would pile up. The symbols of binaries that
 * named nothing over the last calls go too (binary__forget_names()): else
 * those of every program ever run would. */
void process_symbols__forget_names(struct process_symbols *ps);
/* Closes the binaries that no process known now has mapped at the last
 * BINARY_IDLE_FORGETS + 1 calls (a long run calls it after each window):
 * else every program ever run would keep its descriptor, a deleted file
 * its disk space, and its ELF handle our memory. Their keys
 * (process_module.key, never given to another binary) into *keys, for the
 * unwinders to let go of what they keep by them; the caller frees *keys. */
size_t process_symbols__forget_binaries(struct process_symbols *ps, uint64_t **keys);
/* Lets go of the mappings no lookup at `before` or later can find (record
 * --every, after each window: those before `before` are named): the ones of
 * an address space replaced by an exec, and those that a later mapping at
 * the same address covers whole (a JIT or a dlopen mapping the same place
 * again and again kept every one). Returns how many went. */
size_t process_symbols__forget_shadowed(struct process_symbols *ps, uint64_t before);
/* The pids of the processes it keeps as alive that are gone (kill(pid, 0)
 * says so): their exits were lost (task_events__lost()). Into *pids, which
 * the caller frees; how many. */
size_t process_symbols__gone(const struct process_symbols *ps, uint32_t **pids);
/* How many processes it keeps now, and their mappings in all (record
 * --every -v says so at the end: what a long run holds). */
size_t process_symbols__count(const struct process_symbols *ps, size_t *mappings);

/* What an address is: its function's name, or why it has none. */
struct symbol_lookup {
	const char *name;    /* the function, else the frame text of the miss (below) */
	enum symbol_miss miss;
	const char *binary;  /* the binary holding addr as the process named it; NULL: none */
	bool jit;            /* named by the process's perf map: JIT code */
};

/* Many addresses to look up (a profile's): each wanted first, then the
 * binaries' all named at once, binary by binary in address order
 * (binary__want(), binary__name_wanted()): lookups find them named. */
void process_symbols__want(struct process_symbols *ps, uint32_t pid, uint64_t addr,
			   uint64_t time);
void process_symbols__name_wanted(struct process_symbols *ps);
/* Looks addr up at time (UINT64_MAX: as the process is now, or was last). */
void process_symbols__lookup(struct process_symbols *ps, uint32_t pid, uint64_t addr,
			     uint64_t time, struct symbol_lookup *out);

/* A binary as a process mapped it, for an unwinder: addresses in
 * [start, end) (this mapping) are the binary's own addresses plus bias. fd and elf are
 * the process_symbols' (do not close them); key is the same for the same
 * binary in every process, and never another binary's, even once this one
 * is closed (process_symbols__forget_binaries()). */
struct process_module {
	int fd;
	Elf *elf;
	const char *path;
	uint64_t start, end, bias;
	uint64_t low, high;         /* where the whole image lies (all its segments) */
	uint64_t key;               /* from 1 */
};

/* Whether two binaries' paths, as lookups and modules give them (NULL:
 * none known), are the same: the one test of the reports that count by
 * binary. */
static inline bool process_module__same_path(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Whether key is one of keys (process_symbols__forget_binaries()'s). */
static inline bool process_module__key_in(uint64_t key, const uint64_t *keys, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (keys[i] == key)
			return true;
	return false;
}

/* Tells that addr ran at time: if it is JIT code (anonymous memory) not yet
 * in pid's perf map, the map is read again now, while the process (which
 * may remove it as it exits) is alive. */
void process_symbols__see_code(struct process_symbols *ps, uint32_t pid, uint64_t addr,
			       uint64_t time);
/* Whether addr was in an executable mapping of pid (a file's or anonymous) at time. */
bool process_symbols__mapped(struct process_symbols *ps, uint32_t pid, uint64_t addr,
			     uint64_t time);
/* Whether pid's address space changed (an exec, or the fork that made it)
 * after time: what a sample of that time says of it is stale now. */
bool process_symbols__replaced_since(struct process_symbols *ps, uint32_t pid, uint64_t time);
/* Changes whenever pid's mappings do (mmap, exec, fork). */
uint64_t process_symbols__generation(struct process_symbols *ps, uint32_t pid);
bool process_symbols__module_at(struct process_symbols *ps, uint32_t pid, uint64_t addr,
				uint64_t time, struct process_module *out);
/* Every readable binary pid had mapped at time, once each; caller frees *modules. */
size_t process_symbols__modules(struct process_symbols *ps, uint32_t pid, uint64_t time,
				struct process_module **modules);

#endif
