#include "bpf_sampler.h"

#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "../bpf/record.h"
#include "record.skel.h"
#include "record_task.skel.h"
#include "stack_fetch.h"
#include "../lib/error.h"
#include "../lib/index_table.h"
#include "../lib/pages.h"
#include "../lib/pid_table.h"
#include "../lib/sysctl.h"
#include "../lib/xalloc.h"
#include "core_btf.h"
#include "machine.h"
#include "online_cpus.h"

/* The ring of copied stacks when every sample is copied (--unwind=dwarf;
 * the kernel maps it twice into our address space, so twice its size is in
 * our resident set): 1 MB per online CPU, a power of two from 2 MB to 64
 * MB; at 997 Hz on 2 busy CPUs, about 5 KB a sample when other programs'
 * threads are sampled too, 2 MB is some 200 ms of samples: time for a
 * flamekit that a loaded machine keeps off the CPU. User space is woken
 * when a sixteenth of it is full. */
static uint32_t samples_ring_bytes(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint32_t bytes = 2u << 20;
	while (bytes < (64u << 20) && cpus > 0 && (uint64_t)bytes < (uint64_t)cpus * (1u << 20))
		bytes <<= 1;
	return bytes;
}

/* When the kernel walks the stacks, the copies of what its walk cannot take
 * queued at once in each queue (record.bpf.c's `copies`, 68 KB each, and
 * `small_copies`, 16 KB, in the kernel's memory): 1 to 2 % of a build's samples, more in bursts while a new
 * program's tables are made, where a ring of 1 MB (about 100 copies) lost
 * none and one of 512 KB some. A sample that finds its queue full (user
 * space held off the CPU) is walked by frame pointers instead, and counted. */
#define QUEUED_COPIES 128

struct bpf_sampler {
	/* One of the two builds of record.bpf.c; see there. */
	struct record_bpf *plain;
	struct record_task_bpf *task;
	struct bpf_object *obj;
	struct record_config *config;
	struct bpf_program *sample_program, *fork_program;  /* fork_program: only with -- COMMAND */
	struct bpf_program *switch_program, *waking_program;  /* only with off_cpu, wakeups */
	struct bpf_program *exec_program;   /* only with kernel_unwind */
	struct bpf_program *event_program;  /* -e on a tracepoint or function */
	const struct event_spec *event;     /* NULL: the timer */
	bool attach_clock;                  /* sample_program on per-CPU perf events */
	struct bpf_map *counts, *stacks, *stats, *pids, *tids, *new_pids, *samples;
	struct bpf_map *sample_buffers, *stack_ends;
	struct pid_table known_ends;        /* of struct known_end: what stack_ends holds */
	/* the reads' fetches of many stored stacks at once (opened at the
	 * first read; NULL where the kernel cannot), and how many values they
	 * and lookups one by one read */
	struct stack_fetch *fetch;
	bool fetch_tried;
	struct bpf_sampler_fetches fetches;
	/* record --every (time slices): the depth of each stack read since the
	 * last forget, which deletes those without reading them again */
	bool notes_depths;
	struct stack_depth *depths;
	size_t depth_count, depth_cap;
	struct index_table depth_index;
	struct bpf_map *cgroup_filter, *mntns_filter;
	struct bpf_map *blocked, *wakers;
	struct bpf_map *stack_generation;
	uint64_t generation;                /* what stack_generation holds */
	struct bpf_map *interp_events;      /* with python */
	struct bpf_map *unwind_misses;      /* with kernel_unwind */
	/* with kernel_unwind, copies come through a queue (QUEUED_COPIES),
	 * read into copy_buffer, not through `samples` */
	struct bpf_map *copies, *small_copies, *copies_ready;
	bool queued_copies;
	struct record_sample_buffer *copy_buffer;
	unsigned cpu_budget_percent;        /* of a CPU's time sampling may take; 0: all */

	struct bpf_link **links;     /* one per CPU, and the fork tracer's */
	size_t link_count;
	struct ring_buffer *ring;
	/* rings read once the kernel writes to them (map_when_written()) */
	bool samples_mapped, interp_mapped;
	bool samples_at_once;        /* every sample copied: mapped from the start */
	const struct bpf_sampler_callbacks *callbacks;
	void *callback_arg;
	bool copy_user_stacks;

	unsigned frequency;
	uint64_t period;
	int cpu;
	unsigned max_stack_depth;
};

static int libbpf_quiet(enum libbpf_print_level level, const char *format, va_list args)
{
	(void)level, (void)format, (void)args;
	return 0;
}

static int libbpf_verbose(enum libbpf_print_level level, const char *format, va_list args)
{
	(void)level;
	fputs("libbpf: ", stderr);
	return vfprintf(stderr, format, args);
}

/* Does this kernel charge BPF maps to RLIMIT_MEMLOCK (before 5.11, when
 * memory cgroups took over)? libbpf raises the limit itself there, which
 * fails where we may not raise it (a container without CAP_SYS_RESOURCE). */
static bool kernel_charges_memlock(void)
{
	struct utsname u;
	unsigned major = 0, minor = 0;

	return uname(&u) == 0 && sscanf(u.release, "%u.%u", &major, &minor) == 2 &&
	       (major < 5 || (major == 5 && minor < 11));
}

/* Why loading failed, as far as the system tells: privilege was checked
 * before, so a refusal has another cause. */
static int explain_load_failure(int err)
{
	char lockdown[128] = "";
	struct rlimit memlock;
	FILE *f;

	if (err == -ENOSYS)
		return error("this kernel has no BPF system call (CONFIG_BPF_SYSCALL is off): "
			     "record needs a kernel with BPF");
	if (err != -EPERM && err != -EACCES)
		return error("could not load the BPF program: %s; rerun with -v for libbpf's log",
			     strerror(-err));
	if (kernel_charges_memlock() && getrlimit(RLIMIT_MEMLOCK, &memlock) == 0 &&
	    memlock.rlim_cur != RLIM_INFINITY)
		return error("the kernel refused the BPF maps (%s): kernels before 5.11 charge them "
			     "to the locked-memory limit (%llu KiB): run `ulimit -l unlimited` first",
			     strerror(-err), (unsigned long long)memlock.rlim_cur / 1024);
	f = fopen("/sys/kernel/security/lockdown", "r");
	if (f) {
		if (!fgets(lockdown, sizeof lockdown, f))
			lockdown[0] = 0;
		fclose(f);
	}
	if (strstr(lockdown, "[confidentiality]"))
		return error("kernel lockdown (confidentiality) forbids BPF programs that read "
			     "kernel memory: boot without lockdown=confidentiality");
	return error("the kernel refused to load the BPF program (%s)%s; rerun with -v for "
		     "libbpf's log", strerror(-err), lockdown[0] ? "" :
		     ": kernel lockdown (lockdown=confidentiality) would (securityfs, not mounted "
		     "here, shows it at /sys/kernel/security/lockdown)");
}

/* Is a BPF filesystem mounted at /sys/fs/bpf, where bcc's tools pin maps? */
static bool bpffs_mounted(void)
{
	struct statfs st;

	return statfs("/sys/fs/bpf", &st) == 0 && (unsigned long)st.f_type == BPF_FS_MAGIC;
}

/* Points a map of the object at a pinned map (--cgroupmap, --mntnsmap). */
static int reuse_pinned_map(struct bpf_map *map, const char *path, const char *option)
{
	int fd = bpf_obj_get(path);
	struct bpf_map_info info = { 0 };
	__u32 info_len = sizeof(info);

	if (fd < 0 && errno == ENOENT && !bpffs_mounted())
		return error("%s %s: no such map, and no BPF filesystem is mounted at /sys/fs/bpf "
			     "(mount -t bpf bpf /sys/fs/bpf, then pin the map there)", option, path);
	if (fd < 0)
		return error("%s %s: %s: give the path of a pinned BPF map (under /sys/fs/bpf)",
			     option, path, strerror(errno));
	if (bpf_obj_get_info_by_fd(fd, &info, &info_len) < 0 || info.type != bpf_map__type(map)) {
		close(fd);
		return error("%s %s: not a hash map (make it as bcc's tools expect: "
			     "bpftool map create PATH type hash key 8 value %u ...)", option, path,
			     bpf_map__value_size(map));
	}
	if (info.key_size != bpf_map__key_size(map)) {
		close(fd);
		return error("%s %s: its keys are %u bytes, expected %u", option, path,
			     info.key_size, bpf_map__key_size(map));
	}
	int err = bpf_map__reuse_fd(map, fd);
	close(fd);  /* reuse_fd took a duplicate */
	if (err)
		return error("%s %s: %s", option, path, strerror(-err));
	return 0;
}

static int fill_set(struct bpf_map *map, const uint32_t *ids, size_t count, const char *what)
{
	__u8 one = 1;

	for (size_t i = 0; i < count; i++)
		if (bpf_map__update_elem(map, &ids[i], sizeof(ids[i]), &one, sizeof(one), BPF_ANY))
			return error("could not add %s %u to the filter: %s", what, ids[i],
				     strerror(errno));
	return 0;
}

/* The object's ELF, in our binary's read-only data, once libbpf has loaded
 * it (it reads the ELF at the open, and copies what it keeps): its pages
 * given back to the page cache, read from our binary again if touched.
 * 360 KB of the resident set for the whole run otherwise. */
static void release_object_bytes(const struct bpf_sampler *s)
{
	size_t size;
	const void *bytes = s->task ? record_task_bpf__elf_bytes(&size) :
		record_bpf__elf_bytes(&size);

	pages__give_back(bytes, size);
}

/* Opens the build of record.bpf.c the options need; NULL with errno set. */
static struct bpf_object *open_object(struct bpf_sampler *s, bool task_access)
{
	if (task_access) {
		size_t size;
		const void *bytes = record_task_bpf__elf_bytes(&size);
		char *btf = core_btf__path(bytes, size);
		LIBBPF_OPTS(bpf_object_open_opts, opts, .btf_custom_path = btf);
		s->task = record_task_bpf__open_opts(&opts);
		free(btf);
		if (s->task) {
			s->config = &s->task->rodata->config;
			s->fork_program = s->task->progs.follow_fork;
			s->switch_program = s->task->progs.on_switch;
			s->waking_program = s->task->progs.on_waking;
			s->exec_program = s->task->progs.unwind_note_exec;
			return s->obj = s->task->obj;
		}
	} else {
		s->plain = record_bpf__open();
		if (s->plain) {
			s->config = &s->plain->rodata->config;
			return s->obj = s->plain->obj;
		}
	}
	return NULL;
}

static void disable_program(struct bpf_program **program)
{
	bpf_program__set_autoload(*program, false);
	*program = NULL;
}

/* Are user stacks walked in the kernel from tables? */
static bool kernel_unwinds(const struct bpf_sampler_options *o)
{
	return o->kernel_unwind && o->user_stacks && (o->copy_user_stacks || o->off_cpu);
}

/* The share of a CPU's time (percent) sampling may take: the kernel's
 * bound on perf's sampling, kernel.perf_cpu_time_max_percent (25 unless
 * set; 0 or 100 there: no bound, as for perf), or 25 when unreadable. */
static unsigned cpu_budget_percent(void)
{
	long percent = 25;

	sysctl__read_long("kernel.perf_cpu_time_max_percent", &percent);
	return percent > 0 && percent < 100 ? (unsigned)percent : 0;
}

/* Does the event come in an interrupt (the timer, a clock, a hardware
 * counter), whose samples could leave a CPU no time for anything else? */
static bool comes_in_interrupts(const struct event_spec *e)
{
	if (!e)
		return true;
	return e->kind == EVENT_PERF &&
	       (e->hardware || (e->perf_type == PERF_TYPE_SOFTWARE &&
				(e->perf_config == PERF_COUNT_SW_CPU_CLOCK ||
				 e->perf_config == PERF_COUNT_SW_TASK_CLOCK)));
}

/* The options as the kernel side's const volatile knobs. */
static void set_config(struct record_config *c, const struct bpf_sampler_options *o,
		       uint32_t ring_bytes, unsigned budget_percent)
{
	c->stack_bytes = o->max_stack_depth * sizeof(__u64);
	c->user_stacks = o->user_stacks;
	c->kernel_stacks = o->kernel_stacks;
	c->include_idle = o->include_idle;
	c->per_thread = o->per_thread;
	c->filter_pids = o->pid_count > 0;
	c->filter_tids = o->tid_count > 0;
	c->filter_uid = o->filter_uid;
	c->uid = o->uid;
	c->filter_cgroup = o->cgroup_map != NULL;
	c->filter_mntns = o->mntns_map != NULL;
	c->notify_new_pids = o->notify_new_pids;
	c->slice_ns = o->slice_ns;
	c->start_ns = o->start_ns;
	c->copy_user_stacks = o->copy_user_stacks;
	c->kernel_unwind = kernel_unwinds(o);
	c->samples_wakeup = ring_bytes / 16;
	c->filter_cpu = o->off_cpu && o->cpu >= 0;
	c->cpu = o->cpu >= 0 ? (uint32_t)o->cpu : 0;
	c->filter_state = o->filter_state;
	c->state = o->state;
	c->user_threads_only = o->user_threads_only;
	c->kernel_threads_only = o->kernel_threads_only;
	c->wakeups = o->wakeups;
	c->min_block_us = o->min_block_us;
	c->max_block_us = o->max_block_us;
	c->sample_weight = o->all_time ? o->sample_weight : 1;
	c->count_only = o->count_only;
	c->python = o->python;
	c->python_lines = o->python_lines;
	/* perf events: the kernel's sample_period keeps one in N */
	c->event_every = o->event && o->event->kind != EVENT_PERF ? o->event_every : 0;
	c->cpu_budget_ns = RECORD_BUDGET_WINDOW_NS * budget_percent / 100;
}

/* The program for -e's event, by its kind; NULL for the timer and perf events. */
static const char *event_program_name(const struct event_spec *e)
{
	switch (e ? e->kind : EVENT_NONE) {
	case EVENT_TRACEPOINT: return "on_tracepoint";
	case EVENT_UFUNC: return "on_uprobe";
	case EVENT_KFUNC: return "on_fentry";
	default: return NULL;
	}
}

/* Only the programs the options want are loaded: the others' autoload goes
 * off (the object holds them all). */
static void choose_programs(struct bpf_sampler *s, const struct bpf_sampler_options *o)
{
	static const char *const event_programs[] = { "on_tracepoint", "on_uprobe", "on_fentry" };
	const char *wanted = event_program_name(o->event);

	for (size_t i = 0; i < sizeof(event_programs) / sizeof(event_programs[0]); i++) {
		struct bpf_program *p = bpf_object__find_program_by_name(s->obj, event_programs[i]);
		if (wanted && strcmp(wanted, event_programs[i]) == 0)
			s->event_program = p;
		else if (p)
			bpf_program__set_autoload(p, false);
	}
	s->attach_clock = !wanted && (!o->off_cpu || o->all_time);
	bpf_program__set_autoload(s->sample_program, s->attach_clock);
	if (s->task) {
		if (!o->follow_children)
			disable_program(&s->fork_program);
		if (!o->off_cpu)
			disable_program(&s->switch_program);
		if (!o->wakeups)
			disable_program(&s->waking_program);
		if (!kernel_unwinds(o))
			disable_program(&s->exec_program);
	}
}

/* Interpreter frames: processes and threads a host may run, and a ring for
 * the news of their walks (a new stack is about 1 KB; the ring is in our
 * resident set twice over, as every ring is). */
static int size_interp_maps(struct bpf_sampler *s)
{
	struct bpf_map *procs = bpf_object__find_map_by_name(s->obj, "python_procs");
	struct bpf_map *threads = bpf_object__find_map_by_name(s->obj, "python_threads");
	int err = bpf_map__set_max_entries(procs, 4096);

	if (!err)
		err = bpf_map__set_max_entries(threads, 65536);
	if (!err)
		err = bpf_map__set_max_entries(s->interp_events, 256u << 10);
	return err;
}

/* Map sizes from the options; 0, or a negative errno from libbpf. */
static int size_maps(struct bpf_sampler *s, const struct bpf_sampler_options *o)
{
	int err = 0;

	if (o->stack_storage_size) {
		err = bpf_map__set_max_entries(s->counts, o->stack_storage_size);
		/* chunks of stacks: a key's user and kernel stacks, of
		 * RECORD_STACK_CHUNK frames each, or more */
		if (!err)
			err = bpf_map__set_max_entries(s->stacks, BPF_SAMPLER_CHUNKS_PER_KEY *
							       o->stack_storage_size);
	}
	if (!err && o->counts_size)
		err = bpf_map__set_max_entries(s->counts, o->counts_size);
	if (!err)
		err = bpf_map__set_value_size(s->stacks, offsetof(struct record_stack, ips) +
					      record_chunk_frames(o->max_stack_depth) *
					      sizeof(__u64));
	if (!err && o->pid_count > bpf_map__max_entries(s->pids))
		err = bpf_map__set_max_entries(s->pids, o->pid_count);
	if (!err && o->tid_count > bpf_map__max_entries(s->tids))
		err = bpf_map__set_max_entries(s->tids, o->tid_count);
	if (!err && o->off_cpu)
		err = bpf_map__set_max_entries(s->blocked, BPF_SAMPLER_OFF_CPU_TASKS);
	if (!err && o->wakeups)
		err = bpf_map__set_max_entries(s->wakers, BPF_SAMPLER_OFF_CPU_TASKS);
	if (!err && o->python)
		err = size_interp_maps(s);
	/* the kernel's walk: its tables' maps; stacks and keys (a host's
	 * worth) take memory as they come, not all of it at load (Linux 6.1
	 * allows that in a timer's program) */
	if (!err && kernel_unwinds(o)) {
		err = bpf_map__set_map_flags(s->stacks, BPF_F_NO_PREALLOC);
		if (!err)
			err = bpf_map__set_map_flags(s->counts, BPF_F_NO_PREALLOC);
		/* tables are written into its memory (kernel_unwind.c) */
		if (!err)
			err = bpf_map__set_map_flags(
				bpf_object__find_map_by_name(s->obj, "unwind_rows"), BPF_F_MMAPABLE);
		if (!err)
			err = bpf_map__set_max_entries(
				bpf_object__find_map_by_name(s->obj, "unwind_binaries"),
				BPF_SAMPLER_UNWIND_BINARIES);
		if (!err)
			err = bpf_map__set_max_entries(
				bpf_object__find_map_by_name(s->obj, "unwind_rows"),
				BPF_SAMPLER_UNWIND_ROWS);
	}
	return err;
}

int bpf_sampler__open(const struct bpf_sampler_options *o, struct bpf_sampler **out)
{
	bool kfunc = o->event && o->event->kind == EVENT_KFUNC;
	/* the kernel's walk reads each mapping's file: CO-RE */
	bool task_access = o->follow_children || o->mntns_map || o->off_cpu || kfunc ||
			   kernel_unwinds(o);
	uint32_t ring_bytes = samples_ring_bytes();
	struct bpf_sampler *s = NULL;
	int err;

	*out = NULL;
	libbpf_set_print(o->verbose ? libbpf_verbose : libbpf_quiet);
	err = machine__check_privilege();
	if (err < 0)
		goto cleanup;
	machine__raise_open_files();
	if ((task_access || o->copy_user_stacks) && access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		err = error("%s needs the kernel's BTF (/sys/kernel/btf/vmlinux is missing): "
			    "use a kernel built with CONFIG_DEBUG_INFO_BTF%s",
			    o->all_time ? "--all-time" : o->off_cpu ? "--off-cpu" :
			    kfunc ? "-e k:FUNCTION (fentry)" : o->mntns_map ? "--mntnsmap" :
			    o->follow_children ? "profiling a command" : "--unwind=dwarf",
			    o->off_cpu || o->mntns_map || kfunc ? "" : o->follow_children ?
			    ", or start the command and use -p PID" : ", or use --unwind=fp");
		goto cleanup;
	}

	if (o->event && event_spec__check(o->event) < 0) {
		err = -1;
		goto cleanup;
	}

	s = fk_calloc(1, sizeof(*s));
	pid_table__init(&s->known_ends);
	s->notes_depths = o->slice_ns != 0;
	s->event = o->event && o->event->kind != EVENT_NONE ? o->event : NULL;
	s->frequency = o->frequency;
	s->period = s->event ? o->event_every : o->period;  /* a perf event's sample_period */
	s->cpu = o->cpu;
	s->max_stack_depth = o->max_stack_depth;
	s->copy_user_stacks = o->copy_user_stacks;
	s->samples_at_once = o->copy_user_stacks && !kernel_unwinds(o);
	s->queued_copies = o->copy_user_stacks && kernel_unwinds(o);
	if (!open_object(s, task_access)) {
		err = error("could not open the BPF object: %s", strerror(errno));
		goto cleanup;
	}
	s->sample_program = bpf_object__find_program_by_name(s->obj, "do_sample");
	if (kernel_unwinds(o))
		s->unwind_misses = bpf_object__find_map_by_name(s->obj, "unwind_misses");
	s->counts = bpf_object__find_map_by_name(s->obj, "counts");
	s->stacks = bpf_object__find_map_by_name(s->obj, "stacks");
	s->stats = bpf_object__find_map_by_name(s->obj, "stats");
	s->pids = bpf_object__find_map_by_name(s->obj, "pids");
	s->tids = bpf_object__find_map_by_name(s->obj, "tids");
	s->new_pids = bpf_object__find_map_by_name(s->obj, "new_pids");
	s->samples = bpf_object__find_map_by_name(s->obj, "samples");
	s->copies = bpf_object__find_map_by_name(s->obj, "copies");
	s->small_copies = bpf_object__find_map_by_name(s->obj, "small_copies");
	s->copies_ready = bpf_object__find_map_by_name(s->obj, "copies_ready");
	s->sample_buffers = bpf_object__find_map_by_name(s->obj, "sample_buffers");
	s->stack_ends = bpf_object__find_map_by_name(s->obj, "stack_ends");
	s->cgroup_filter = bpf_object__find_map_by_name(s->obj, "cgroup_filter");
	s->mntns_filter = bpf_object__find_map_by_name(s->obj, "mntns_filter");
	s->blocked = bpf_object__find_map_by_name(s->obj, "blocked");
	s->wakers = bpf_object__find_map_by_name(s->obj, "wakers");
	s->stack_generation = bpf_object__find_map_by_name(s->obj, "stack_generation");
	s->interp_events = o->python ? bpf_object__find_map_by_name(s->obj, "interp_events") : NULL;
	s->cpu_budget_percent = comes_in_interrupts(o->event) ? cpu_budget_percent() : 0;
	set_config(s->config, o, ring_bytes, s->cpu_budget_percent);

	err = size_maps(s, o);
	if (err) {
		err = error("could not size the BPF maps: %s", strerror(-err));
		goto cleanup;
	}
	if (!o->notify_new_pids)
		bpf_map__set_max_entries(s->new_pids, 4096);  /* smallest useful ring */
	if (o->copy_user_stacks) {
		int cpus = libbpf_num_possible_cpus();
		err = cpus > 0 ? bpf_map__set_max_entries(s->sample_buffers, (unsigned)cpus) : cpus;
		if (!err)
			err = s->queued_copies ? bpf_map__set_max_entries(s->copies, QUEUED_COPIES) :
				bpf_map__set_max_entries(s->samples, ring_bytes);
		if (!err && s->queued_copies)
			err = bpf_map__set_max_entries(s->small_copies, QUEUED_COPIES);
		if (err) {
			err = error("could not size the BPF maps for copied stacks: %s",
				    strerror(-err));
			goto cleanup;
		}
	}
	if ((o->cgroup_map && reuse_pinned_map(s->cgroup_filter, o->cgroup_map, "--cgroupmap") < 0) ||
	    (o->mntns_map && reuse_pinned_map(s->mntns_filter, o->mntns_map, "--mntnsmap") < 0)) {
		err = -1;
		goto cleanup;
	}
	/* The programs not asked for are neither loaded nor attached. */
	choose_programs(s, o);
	if (kfunc && bpf_program__set_attach_target(s->event_program, 0, o->event->function)) {
		err = error("-e %s: cannot trace %s: %s", o->event->text, o->event->function,
			    strerror(errno));
		goto cleanup;
	}

	err = s->task ? record_task_bpf__load(s->task) : record_bpf__load(s->plain);
	if (err && kfunc && (err == -EPERM || err == -EOPNOTSUPP || err == -524 /* ENOTSUPP */))
		err = error("-e %s: this kernel does not let BPF programs trace kernel functions "
			    "(fentry: %s): use a tracepoint instead, or a kernel with BPF "
			    "trampolines (CONFIG_FUNCTION_TRACER)", o->event->text, strerror(-err));
	else if (err && kfunc) {
		err = error("-e %s: the kernel cannot trace %s with fentry (%s): it is not in "
			    "the kernel's BTF, or not traceable (inlined, notrace); rerun with -v "
			    "for libbpf's log", o->event->text, o->event->function, strerror(-err));
	}
	if (err && kfunc)
		goto cleanup;
	if (err) {
		err = explain_load_failure(err);
		goto cleanup;
	}
	release_object_bytes(s);
	if (fill_set(s->pids, o->pids, o->pid_count, "pid") < 0 ||
	    fill_set(s->tids, o->tids, o->tid_count, "tid") < 0) {
		err = -1;
		goto cleanup;
	}
	*out = s;
	s = NULL;
cleanup:
	bpf_sampler__free(s);
	return err;
}

/* The timer's cpu-clock event on cpu, or -e's perf event (one in period
 * events; 0: every one). */
static int open_clock_event(const struct event_spec *event, unsigned frequency, uint64_t period,
			    int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr),
	};
	if (event) {
		attr.type = event->perf_type;
		attr.config = event->perf_config;
		attr.sample_period = period ? period : 1;
	} else if (period) {
		attr.sample_period = period;
	} else {
		attr.freq = 1;
		attr.sample_freq = frequency;
	}
	return (int)syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int explain_perf_failure(const struct event_spec *event, int err, int cpu,
				unsigned frequency)
{
	long paranoid = 0, max_rate = 0;

	if (event && event->hardware && (err == ENOENT || err == ENODEV || err == EOPNOTSUPP))
		return error("-e %s: this machine has no hardware performance counters (%s: a "
			     "virtual machine without a virtual PMU?): use a software event or a "
			     "tracepoint", event->text, strerror(err));
	if (event && (err == ENOENT || err == ENODEV || err == EOPNOTSUPP || err == EINVAL))
		return error("-e %s: this kernel cannot sample it (perf_event_open: %s)",
			     event->text, strerror(err));

	if (err == EACCES || err == EPERM) {
		if (sysctl__read_long("kernel.perf_event_paranoid", &paranoid) == 0)
			return error("perf_event_open on CPU %d: %s; kernel.perf_event_paranoid "
				     "is %ld: run as root, or lower it with "
				     "`sysctl kernel.perf_event_paranoid=-1`",
				     cpu, strerror(err), paranoid);
		return error("perf_event_open on CPU %d: %s: run as root", cpu, strerror(err));
	}
	if (err == EINVAL &&
	    sysctl__read_long("kernel.perf_event_max_sample_rate", &max_rate) == 0 &&
	    frequency > (unsigned long)max_rate)
		return error("-F %u is above kernel.perf_event_max_sample_rate (%ld): use a "
			     "lower frequency or raise the sysctl", frequency, max_rate);
	if (err == ENOENT || err == ENODEV || err == EOPNOTSUPP)
		return error("perf_event_open on CPU %d: %s: this kernel has no cpu-clock "
			     "sampling event (CONFIG_PERF_EVENTS)", cpu, strerror(err));
	return error("perf_event_open on CPU %d: %s", cpu, strerror(err));
}

/* Attaches a program to its tracepoint (NULL: not loaded, nothing to do). */
static int attach_tracer(struct bpf_sampler *s, struct bpf_program *program, const char *what)
{
	if (!program)
		return 0;
	s->links[s->link_count] = bpf_program__attach(program);
	if (!s->links[s->link_count])
		return error("could not trace %s: %s", what, strerror(errno));
	s->link_count++;
	return 0;
}

/* -e's tracepoint or function (nothing to do for the timer and perf events). */
static int attach_event(struct bpf_sampler *s)
{
	const struct event_spec *e = s->event;
	struct bpf_link *link = NULL;

	if (!s->event_program)
		return 0;
	if (e->kind == EVENT_TRACEPOINT) {
		link = bpf_program__attach_tracepoint(s->event_program, e->category, e->name);
		if (!link)
			return error("-e %s: cannot attach to the tracepoint: %s", e->text,
				     strerror(errno));
	} else if (e->kind == EVENT_UFUNC) {
		LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = e->function);
		/* every process: the pid filters are the program's */
		link = bpf_program__attach_uprobe_opts(s->event_program, -1, e->binary, 0, &opts);
		if (!link && (errno == ENOENT || errno == ESRCH))
			return error("-e %s: no function %s in %s (its symbol tables)", e->text,
				     e->function, e->binary);
		if (!link)
			return error("-e %s: cannot place a uprobe on %s in %s: %s", e->text,
				     e->function, e->binary, strerror(errno));
	} else {
		link = bpf_program__attach(s->event_program);
		if (!link)
			return error("-e %s: cannot attach to %s: %s", e->text, e->function,
				     strerror(errno));
	}
	s->links[s->link_count++] = link;
	return 0;
}

int bpf_sampler__attach(struct bpf_sampler *s)
{
	int *cpus;
	size_t cpu_count = online_cpus(&cpus);
	int err = 0;

	if (cpu_count == 0) {
		free(cpus);
		return error("could not read the online CPUs from /sys/devices/system/cpu/online");
	}
	if (s->cpu >= 0) {
		bool online = false;
		for (size_t i = 0; i < cpu_count; i++)
			online |= cpus[i] == s->cpu;
		if (!online) {
			free(cpus);
			return error("-C %d: no such CPU online (online: see "
				     "/sys/devices/system/cpu/online)", s->cpu);
		}
	}
	s->links = fk_calloc(cpu_count + 5, sizeof(*s->links));
	if (attach_tracer(s, s->fork_program, "new processes (sched_process_fork)") < 0 ||
	    attach_tracer(s, s->switch_program, "the scheduler's switches (sched_switch)") < 0 ||
	    attach_tracer(s, s->waking_program, "wakeups (sched_waking)") < 0 ||
	    attach_event(s) < 0) {
		free(cpus);
		bpf_sampler__detach(s);
		return -1;
	}
	/* a new program's mappings kept for the kernel's walk at its exec;
	 * without, its samples find them alone (a few more are copied) */
	if (s->exec_program && (s->links[s->link_count] = bpf_program__attach(s->exec_program)))
		s->link_count++;
	/* off-CPU time and -e's tracepoints and functions: their tracers take
	 * the clock events' place (--all-time: both) */
	for (size_t i = 0; i < cpu_count && s->attach_clock; i++) {
		if (s->cpu >= 0 && cpus[i] != s->cpu)
			continue;
		int fd = open_clock_event(s->event, s->frequency, s->period, cpus[i]);
		if (fd < 0) {
			err = errno;
			if (err == ENODEV && !(s->event && s->event->hardware))  /* went offline meanwhile */
				continue;
			explain_perf_failure(s->event, err, cpus[i], s->frequency);
			break;
		}
		struct bpf_link *link = bpf_program__attach_perf_event(s->sample_program, fd);
		if (!link) {
			err = errno;
			close(fd);
			error("could not attach the BPF program to CPU %d's %s event: %s",
			      cpus[i], s->event ? s->event->text : "clock", strerror(err));
			break;
		}
		s->links[s->link_count++] = link;  /* the link owns fd now */
		err = 0;
	}
	free(cpus);
	if (err) {
		bpf_sampler__detach(s);
		return -1;
	}
	return 0;
}

static int on_new_pid_record(void *arg, void *data, size_t size)
{
	struct bpf_sampler *s = arg;
	uint32_t pid;

	if (size >= sizeof(pid) && s->callbacks->new_pid) {
		memcpy(&pid, data, sizeof(pid));
		s->callbacks->new_pid(pid, s->callback_arg);
	}
	return 0;
}

static int on_interp_record(void *arg, void *data, size_t size)
{
	struct bpf_sampler *s = arg;

	if (s->callbacks->interp_event)
		s->callbacks->interp_event(data, size, s->callback_arg);
	return 0;
}

static int on_unwind_miss_record(void *arg, void *data, size_t size)
{
	struct bpf_sampler *s = arg;
	struct record_unwind_miss miss;

	if (size >= sizeof(miss) && s->callbacks->unwind_miss) {
		memcpy(&miss, data, sizeof(miss));
		s->callbacks->unwind_miss(&miss, s->callback_arg);
	}
	return 0;
}

static int on_sample_record(void *arg, void *data, size_t size)
{
	struct bpf_sampler *s = arg;
	struct record_sample header;

	if (size < sizeof(header) || !s->callbacks->sample)
		return 0;
	memcpy(&header, data, sizeof(header));
	if (header.stack_size > size - sizeof(header))
		return 0;
	struct copied_sample sample = {
		.pid = header.pid,
		.tid = header.tid,
		.slice = header.slice,
		.time = header.time,
		.kernel_stack = header.kernel_stack,
		.interp_stack = header.interp_stack,
		.regs = (const uint64_t *)((struct record_sample *)data)->regs,
		.stack = (const uint8_t *)data + sizeof(header),
		.stack_size = header.stack_size,
		.fallback = header.fallback,
		.fallback_pc = header.fallback_pc,
	};
	memcpy(sample.comm, header.comm, sizeof(header.comm));
	sample.comm[sizeof(sample.comm) - 1] = 0;
	/* (libbpf stops reading at a negative value and returns it) */
	return s->callbacks->sample(&sample, s->callback_arg) ? -ECANCELED : 0;
}

/* A copy is queued (copies_ready's word for it says in which queue):
 * popped and read. */
static int on_copy_ready(void *arg, void *data, size_t size)
{
	struct bpf_sampler *s = arg;
	uint64_t which = 0;

	memcpy(&which, data, size < sizeof(which) ? size : sizeof(which));
	struct bpf_map *queue = which == RECORD_COPY_SMALL ? s->small_copies : s->copies;
	if (!s->copy_buffer)
		s->copy_buffer = fk_malloc(sizeof(*s->copy_buffer));
	if (bpf_map_lookup_and_delete_elem(bpf_map__fd(queue), NULL, s->copy_buffer))
		return 0;
	/* (on_sample_record() checks the copy's size against the value's) */
	return on_sample_record(s, s->copy_buffer, bpf_map__value_size(queue));
}

static int map_now(struct bpf_sampler *s, struct bpf_map *map,
		   ring_buffer_sample_fn on_record, bool *mapped)
{
	if (*mapped)
		return 0;
	if (ring_buffer__add(s->ring, bpf_map__fd(map), on_record, s) < 0)
		return -1;
	*mapped = true;
	return 0;
}

/*
 * Adds a ring to those read once the kernel has written to it (poll()
 * tells, without mapping it): a ring mapped is in our resident set whole,
 * twice over (samples_ring_bytes()), while most runs copy no stack (frame
 * pointers, the kernel's walk) or have no interpreter to hear of. The
 * kernel keeps what it wrote until then. 0, or -1.
 */
static int map_when_written(struct bpf_sampler *s, struct bpf_map *map,
			    ring_buffer_sample_fn on_record, bool *mapped)
{
	if (!map || *mapped)
		return 0;
	struct pollfd written = { bpf_map__fd(map), POLLIN, 0 };
	if (poll(&written, 1, 0) <= 0 || !(written.revents & POLLIN))
		return 0;
	return map_now(s, map, on_record, mapped);
}

int bpf_sampler__poll(struct bpf_sampler *s, const struct bpf_sampler_callbacks *callbacks,
		      void *arg, int timeout_ms)
{
	if (!s->ring) {
		s->samples_mapped = s->interp_mapped = false;
		s->ring = ring_buffer__new(bpf_map__fd(s->new_pids), on_new_pid_record, s, NULL);
		if (s->ring &&
		    ((s->unwind_misses &&
		      ring_buffer__add(s->ring, bpf_map__fd(s->unwind_misses),
				       on_unwind_miss_record, s) < 0) ||
		     (s->queued_copies &&
		      ring_buffer__add(s->ring, bpf_map__fd(s->copies_ready), on_copy_ready,
				       s) < 0))) {
			ring_buffer__free(s->ring);
			s->ring = NULL;
		}
		if (!s->ring)
			return error("could not map the BPF ring buffers: %s", strerror(errno));
	}
	int err = 0;
	if (s->copy_user_stacks && !s->queued_copies)
		err = s->samples_at_once ?
			map_now(s, s->samples, on_sample_record, &s->samples_mapped) :
			map_when_written(s, s->samples, on_sample_record, &s->samples_mapped);
	if (!err)
		err = map_when_written(s, s->interp_events, on_interp_record, &s->interp_mapped);
	if (err)
		return error("could not map the BPF ring buffers: %s", strerror(errno));
	s->callbacks = callbacks;
	s->callback_arg = arg;
	int n = timeout_ms > 0 ? ring_buffer__poll(s->ring, timeout_ms) :
		ring_buffer__consume(s->ring);
	return n < 0 && n != -EINTR && n != -ECANCELED ?
		error("reading the BPF ring buffers: %s", strerror(-n)) : 0;
}

int bpf_sampler__map_fd(struct bpf_sampler *s, const char *name)
{
	struct bpf_map *map = bpf_object__find_map_by_name(s->obj, name);
	return map ? bpf_map__fd(map) : -1;
}

void bpf_sampler__detach(struct bpf_sampler *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->link_count; i++)
		bpf_link__destroy(s->links[i]);
	free(s->links);
	s->links = NULL;
	s->link_count = 0;
}

/* Frames one value of the stacks map holds: a deeper stack (walked in
 * the kernel) goes on in chunks of this many (record.h's record_mix()). */
static size_t stack_chunk(const struct bpf_sampler *s)
{
	return (bpf_map__value_size(s->stacks) - offsetof(struct record_stack, ips)) /
	       sizeof(__u64);
}

struct stack_depth {
	uint64_t hash;
	uint32_t depth;
};

static uint64_t depth_hash_of(const void *items, size_t index)
{
	return ((const struct stack_depth *)items)[index].hash;
}

/* The slot of hash in depth_index: its entry's, or the empty one to put it in. */
static size_t depth_slot(struct bpf_sampler *s, uint64_t hash)
{
	if (!s->depth_index.slots)
		index_table__init(&s->depth_index, 1024);
	size_t slot = index_table__first(&s->depth_index, hash);
	for (uint32_t at; (at = s->depth_index.slots[slot]) != 0;
	     slot = index_table__next(&s->depth_index, slot))
		if (s->depths[at - 1].hash == hash)
			break;
	return slot;
}

static void note_depth(struct bpf_sampler *s, uint64_t hash, uint32_t depth)
{
	size_t slot = depth_slot(s, hash);
	if (s->depth_index.slots[slot])
		return;
	s->depths = fk_grow(s->depths, &s->depth_cap, s->depth_count + 1, sizeof(*s->depths));
	s->depths[s->depth_count] = (struct stack_depth){ hash, depth };
	index_table__insert(&s->depth_index, slot, s->depth_count++, depth_hash_of, s->depths);
}

/* index_table's hash of item index of an array of stack hashes. */
static uint64_t mixed_hash_of(const void *items, size_t index)
{
	return index_table__mix(((const uint64_t *)items)[index]);
}

/*
 * The stacks of a group of keys, fetched at once (stack_fetch.h) before
 * the keys are handed over: each hash's value where the fetch left it.
 */
struct fetched_stacks {
	const struct stack_fetch *fetch;
	uint64_t hashes[STACK_FETCH_BATCH];
	size_t count;
	struct index_table index;  /* over hashes: room for all, never grown */
};

static struct fetched_stacks *fetched_stacks__new(const struct stack_fetch *fetch)
{
	struct fetched_stacks *f = fk_calloc(1, sizeof(*f));
	f->fetch = fetch;
	index_table__init(&f->index, 2 * STACK_FETCH_BATCH);
	return f;
}

static void fetched_stacks__free(struct fetched_stacks *f)
{
	if (f)
		index_table__release(&f->index);
	free(f);
}

/* The slot of hash: its own, or the empty one to put it in. */
static size_t fetched_slot(const struct fetched_stacks *f, uint64_t hash)
{
	size_t slot = index_table__first(&f->index, index_table__mix(hash));
	for (uint32_t at; (at = f->index.slots[slot]) != 0; slot = index_table__next(&f->index, slot))
		if (f->hashes[at - 1] == hash)
			break;
	return slot;
}

static void fetched_add(struct fetched_stacks *f, uint64_t hash)
{
	if (hash <= RECORD_STACK_MISSED)
		return;
	size_t slot = fetched_slot(f, hash);
	if (f->index.slots[slot])
		return;
	f->hashes[f->count] = hash;
	index_table__insert(&f->index, slot, f->count++, mixed_hash_of, f->hashes);
}

/* Whether hash was fetched (f NULL: nothing was), its value then in
 * *value (NULL: the map had none). */
static bool fetched_value(const struct fetched_stacks *f, uint64_t hash,
			  const struct record_stack **value)
{
	uint32_t at = f ? f->index.slots[fetched_slot(f, hash)] : 0;

	if (at)
		*value = stack_fetch__value(f->fetch, at - 1);
	return at != 0;
}

/* The value stored under key: where the fetch left it, else looked up into
 * room (a value's size); NULL where the map has none. */
static const struct record_stack *stored_value(struct bpf_sampler *s,
					       const struct fetched_stacks *fetched, __u64 key,
					       struct record_stack *room)
{
	const struct record_stack *value;

	if (fetched_value(fetched, key, &value))
		return value;
	s->fetches.one_by_one++;
	return bpf_map__lookup_elem(s->stacks, &key, sizeof(key), room,
				    bpf_map__value_size(s->stacks), 0) ? NULL : room;
}

/* The stack whose first value buffer holds (read already) into out: a
 * stack deeper than a value (walked in the kernel) is read on from its
 * chunks, up to frames (buffer holds that many, at least a value's). */
static void read_on(struct bpf_sampler *s, const struct fetched_stacks *fetched, __u64 hash,
		    struct record_stack *buffer, size_t frames, struct sampled_stack *out)
{
	size_t value_size = bpf_map__value_size(s->stacks);
	size_t chunk = stack_chunk(s);
	size_t depth = buffer->depth;

	out->ips = (const uint64_t *)buffer->ips;
	out->missed = false;
	if (depth <= chunk) {
		out->depth = depth < s->max_stack_depth ? depth : s->max_stack_depth;
		return;
	}
	out->depth = 0;
	if (depth > frames)
		depth = frames;
	struct record_stack *part = fk_calloc(1, value_size);
	for (size_t k = 1; k * chunk < depth; k++) {
		__u64 key = record_mix(hash, k);
		size_t n = depth - k * chunk < chunk ? depth - k * chunk : chunk;
		const struct record_stack *value = stored_value(s, fetched, key, part);
		if (!value) {
			out->missed = true;
			free(part);
			return;
		}
		memcpy(buffer->ips + k * chunk, value->ips, n * sizeof(__u64));
	}
	free(part);
	out->depth = (uint32_t)depth;
}

/* Looks a stack up in the stacks map (or among those fetched), into
 * buffer, as read_on() says. */
static void lookup_stack(struct bpf_sampler *s, const struct fetched_stacks *fetched, __u64 hash,
			 struct record_stack *buffer, size_t frames, struct sampled_stack *out)
{
	out->ips = (const uint64_t *)buffer->ips;
	out->depth = 0;
	out->missed = hash == RECORD_STACK_MISSED;
	if (hash <= RECORD_STACK_MISSED)
		return;
	const struct record_stack *value = stored_value(s, fetched, hash, buffer);
	if (!value) {
		out->missed = true;
		return;
	}
	if (value != buffer)
		memcpy(buffer, value, bpf_map__value_size(s->stacks));
	if (s->notes_depths)
		note_depth(s, hash, buffer->depth);
	read_on(s, fetched, hash, buffer, frames, out);
}

static int delete_keys(int fd, const void *keys, size_t key_size, size_t count);

/* A thread's stack end as stack_ends holds it (0: deleted). */
struct known_end {
	uint32_t tid;
	uint64_t end;
};

/* Stack ends kept at most: a copied sample read after its thread's exit was
 * forgotten sets an end again, and 45 processes a second on a build made
 * thousands. Past it, all are dropped, and learnt again from later copies. */
#define KNOWN_ENDS_MOST 8192

static void forget_all_stack_ends(struct bpf_sampler *s)
{
	uint32_t *tids = fk_calloc(s->known_ends.count + 1, sizeof(*tids));
	size_t n = 0;

	for (size_t i = 0; i < s->known_ends.count; i++)
		tids[n++] = ((const struct known_end *)s->known_ends.records[i])->tid;
	bpf_sampler__forget_stack_ends(s, tids, n);
	free(tids);
}

void bpf_sampler__set_stack_end(struct bpf_sampler *s, uint32_t tid, uint64_t end)
{
	struct known_end *k = pid_table__get(&s->known_ends, tid, 0, NULL);
	if (!k && !end)
		return;  /* no end set: none to delete */
	if (!k) {
		if (s->known_ends.count >= KNOWN_ENDS_MOST)
			forget_all_stack_ends(s);
		k = pid_table__get(&s->known_ends, tid, sizeof(*k), NULL);
	}
	if (k->end == end)
		return;
	k->end = end;
	if (end)
		bpf_map__update_elem(s->stack_ends, &tid, sizeof(tid), &end, sizeof(end), BPF_ANY);
	else
		bpf_map__delete_elem(s->stack_ends, &tid, sizeof(tid), 0);
}

void bpf_sampler__forget_stack_ends(struct bpf_sampler *s, uint32_t *tids, size_t count)
{
	uint32_t *set = fk_calloc(count + 1, sizeof(*set));
	size_t n = 0;

	for (size_t i = 0; i < count; i++) {
		const struct known_end *k = pid_table__get(&s->known_ends, tids[i], 0, NULL);
		if (k && k->end)
			set[n++] = tids[i];
	}
	delete_keys(bpf_map__fd(s->stack_ends), set, sizeof(*set), n);
	free(set);
	pid_table__remove_pids(&s->known_ends, tids, count, NULL);
}

void bpf_sampler__kernel_stack(struct bpf_sampler *s, uint64_t hash, uint64_t *ips,
			       struct sampled_stack *out)
{
	struct record_stack *buffer = fk_calloc(1, sizeof(*buffer));

	lookup_stack(s, NULL, hash, buffer, RECORD_MAX_STACK_DEPTH, out);
	memcpy(ips, buffer->ips, out->depth * sizeof(*ips));
	out->ips = ips;
	free(buffer);
}

/* A user stack's buffer holds this many frames: a stack walked in the
 * kernel, in chunks. */
#define USER_FRAMES RECORD_MAX_USER_DEPTH
_Static_assert(BPF_SAMPLER_MAX_USER_DEPTH == RECORD_MAX_USER_DEPTH, "one depth");

static struct record_stack *new_user_buffer(void)
{
	return fk_calloc(1, offsetof(struct record_stack, ips) + USER_FRAMES * sizeof(__u64));
}

/* A key's waker: known when the kernel saw a wakeup (a comm is never empty). */
static void read_waker(struct bpf_sampler *s, const struct fetched_stacks *fetched,
		       const struct record_key *key, struct record_stack *user,
		       struct record_stack *kernel, struct sampled_waker *out)
{
	out->known = key->waker_comm[0] != 0;
	out->pid = key->waker_pid;
	memcpy(out->comm, key->waker_comm, sizeof(key->waker_comm));
	out->comm[sizeof(out->comm) - 1] = 0;
	lookup_stack(s, fetched, key->waker_user_stack, user, USER_FRAMES, &out->user);
	lookup_stack(s, fetched, key->waker_kernel_stack, kernel, RECORD_MAX_STACK_DEPTH,
		     &out->kernel);
}

/* Keys read from `counts` per batch call (96 KB of them: a batch's buffer
 * is in the resident set at the run's end, its peak). */
#define READ_BATCH 1024

/*
 * Reads a hash map READ_BATCH entries a call, handing each batch to
 * each() (0: go on): each()'s value, or 0 once all are read; false in
 * *batches if the kernel has no batch reads (found at the first call, so
 * nothing was handed over). A call reads whole buckets: ENOSPC when one
 * holds more keys than asked for (never with READ_BATCH), ENOENT after
 * the last.
 */
static int read_in_batches(int fd, size_t key_size, size_t value_size,
			   int (*each)(const void *keys, const void *values, __u32 n, void *arg),
			   void *arg, bool *batches)
{
	void *keys = fk_calloc(READ_BATCH, key_size);
	void *values = fk_calloc(READ_BATCH, value_size);
	__u64 batch = 0;
	void *in = NULL;
	int result = 0;

	*batches = true;
	for (;;) {
		__u32 n = READ_BATCH;
		int err = bpf_map_lookup_batch(fd, in, &batch, keys, values, &n, NULL);
		if (err && errno != ENOENT) {
			*batches = in != NULL;
			break;
		}
		result = n ? each(keys, values, n, arg) : 0;
		if (err || result)
			break;
		in = &batch;
	}
	free(keys);
	free(values);
	return result;
}

/* Whether hash was met before in this read (and marks it met). */
static bool stack_met(struct stack_hashes *met, struct index_table *index, uint64_t hash)
{
	if (hash <= RECORD_STACK_MISSED)
		return false;
	size_t slot = index_table__first(index, index_table__mix(hash));
	for (uint32_t at; (at = index->slots[slot]) != 0; slot = index_table__next(index, slot))
		if (met->hashes[at - 1] == hash)
			return true;
	stack_hashes__add(met, hash);
	index_table__insert(index, slot, met->count - 1, mixed_hash_of, met->hashes);
	return false;
}

struct key_reader {
	struct bpf_sampler *s;
	enum bpf_sampler_read what;
	struct record_stack *user, *kernel, *waker_user, *waker_kernel, *interp;
	struct stack_hashes met;    /* BPF_SAMPLER_READ_ADDRESSES_ONCE: stacks handed over */
	struct index_table met_index;
	/* where the kernel fetches stacks in bulk: room for a group's, and
	 * the group's being handed over (NULL: not fetched) */
	struct fetched_stacks *fetch_room;
	const struct fetched_stacks *fetched;
	int (*on_key)(const struct sampled_key *key, void *arg);
	void *arg;
};

/*
 * A group's fetch (stack_fetch.h): the stacks of a group of keys, or the
 * chunks deep stacks go on in, read at once into r->fetched before they
 * are handed over. A fetch the kernel refuses stops the fetches: values
 * are looked up one by one from then on.
 */
static struct fetched_stacks *fetch_begin(struct key_reader *r)
{
	struct fetched_stacks *f = r->fetch_room;

	r->fetched = NULL;
	if (f) {
		index_table__clear(&f->index);
		f->count = 0;
	}
	return f;
}

/* Chunks a stack of depth frames goes on in (read_on() reads them). */
static size_t chunks_after_first(const struct key_reader *r, size_t depth)
{
	size_t chunk = stack_chunk(r->s);
	if (depth > USER_FRAMES)
		depth = USER_FRAMES;
	return depth > chunk ? (depth - 1) / chunk : 0;
}

static void fetch_add_chunks(struct fetched_stacks *f, uint64_t hash, size_t chunks)
{
	for (size_t k = 1; k <= chunks && f->count < STACK_FETCH_BATCH; k++)
		fetched_add(f, record_mix(hash, k));
}

/* Fetches f's places from first on: false when the kernel would not. */
static bool fetch_run(struct key_reader *r, struct fetched_stacks *f, size_t first)
{
	if (f->count > first &&
	    stack_fetch__run(r->s->fetch, first, f->hashes + first, f->count - first) < 0) {
		stack_fetch__free(r->s->fetch);
		r->s->fetch = NULL;
		r->fetch_room = NULL;
		r->fetched = NULL;
		fetched_stacks__free(f);
		return false;
	}
	r->s->fetches.in_bulk += f->count - first;
	r->fetched = f;
	return true;
}

static int hand_over(struct key_reader *r, const struct record_key *key, __u64 count)
{
	struct sampled_key sampled = { 0 };
	static const struct record_stack none = { 0 };
	bool all = r->what == BPF_SAMPLER_READ_ALL;

	if (count == 0)
		return 0;
	sampled.pid = key->pid;
	sampled.tid = key->tid;
	sampled.slice = key->slice;
	sampled.off_cpu = key->off_cpu != 0;
	memcpy(sampled.comm, key->comm, sizeof(key->comm));
	sampled.comm[sizeof(sampled.comm) - 1] = 0;
	sampled.count = count;
	sampled.user.ips = sampled.interp.ips = (const uint64_t *)none.ips;
	sampled.kernel.ips = sampled.waker.kernel.ips = sampled.waker.user.ips = sampled.user.ips;
	if (all) {
		lookup_stack(r->s, r->fetched, key->user_stack, r->user, USER_FRAMES,
			     &sampled.user);
		lookup_stack(r->s, r->fetched, key->interp_stack, r->interp,
			     RECORD_MAX_STACK_DEPTH, &sampled.interp);
		read_waker(r->s, r->fetched, key, r->waker_user, r->waker_kernel, &sampled.waker);
	} else {
		/* (a user stack met in another process is named as it comes) */
		if (!stack_met(&r->met, &r->met_index, key->user_stack))
			lookup_stack(r->s, NULL, key->user_stack, r->user, USER_FRAMES,
				     &sampled.user);
		sampled.waker.pid = key->waker_pid;
		if (!stack_met(&r->met, &r->met_index, key->waker_user_stack))
			lookup_stack(r->s, NULL, key->waker_user_stack, r->waker_user, USER_FRAMES,
				     &sampled.waker.user);
		if (!stack_met(&r->met, &r->met_index, key->waker_kernel_stack))
			lookup_stack(r->s, NULL, key->waker_kernel_stack, r->waker_kernel,
				     RECORD_MAX_STACK_DEPTH, &sampled.waker.kernel);
	}
	if (all || !stack_met(&r->met, &r->met_index, key->kernel_stack))
		lookup_stack(r->s, r->fetched, key->kernel_stack, r->kernel,
			     RECORD_MAX_STACK_DEPTH, &sampled.kernel);
	return r->on_key(&sampled, r->arg);
}

/* Key by key, where the kernel cannot read them in batches. */
static int read_one_by_one(struct key_reader *r, int fd)
{
	struct record_key key, next;
	void *previous = NULL;

	while (bpf_map_get_next_key(fd, previous, &next) == 0) {
		__u64 count;
		key = next;
		previous = &key;
		if (bpf_map_lookup_elem(fd, &key, &count) == 0) {
			int result = hand_over(r, &key, count);
			if (result)
				return result;
		}
	}
	return 0;
}

/*
 * BPF_SAMPLER_READ_ADDRESSES_ONCE in batches, where the kernel reads maps
 * so: the counted keys say whose each stack is (the first key met that
 * holds it), then `stacks` is read a batch at a time and each stack a key
 * holds is handed over once, alone in a key with its owner's pid and
 * slice. A lookup per stack (one system call each, some 60,000 for three
 * builds of this project) was most of this pass. Stacks no key holds
 * (chunks past a value, interpreter frames, another window's) are passed
 * by; a stack deeper than a value reads its other chunks as lookups.
 */
enum stack_role { ROLE_USER, ROLE_KERNEL, ROLE_WAKER_USER, ROLE_WAKER_KERNEL };

struct stack_owner {
	uint64_t hash;
	uint32_t pid, slice;
	enum stack_role role;
};

struct stack_owners {
	struct stack_owner *items;
	size_t count, cap;
	struct index_table index;
};

static uint64_t owner_hash_of(const void *items, size_t index)
{
	return ((const struct stack_owner *)items)[index].hash;
}

/* The owner's slot of hash in o's index: its entry's, or the empty one. */
static size_t owner_slot(const struct stack_owners *o, uint64_t hash)
{
	size_t slot = index_table__first(&o->index, hash);
	for (uint32_t at; (at = o->index.slots[slot]) != 0; slot = index_table__next(&o->index, slot))
		if (o->items[at - 1].hash == hash)
			break;
	return slot;
}

static void add_owner(struct stack_owners *o, uint64_t hash, uint32_t pid, uint32_t slice,
		      enum stack_role role)
{
	if (hash <= RECORD_STACK_MISSED)
		return;
	size_t slot = owner_slot(o, hash);
	if (o->index.slots[slot])
		return;
	o->items = fk_grow(o->items, &o->cap, o->count + 1, sizeof(*o->items));
	o->items[o->count] = (struct stack_owner){ hash, pid, slice, role };
	index_table__insert(&o->index, slot, o->count++, owner_hash_of, o->items);
}

static int add_owners(const void *keys, const void *counts, __u32 n, void *owners)
{
	for (__u32 i = 0; i < n; i++) {
		const struct record_key *k = (const struct record_key *)keys + i;
		if (((const __u64 *)counts)[i] == 0)
			continue;
		add_owner(owners, k->user_stack, k->pid, k->slice, ROLE_USER);
		add_owner(owners, k->kernel_stack, k->pid, k->slice, ROLE_KERNEL);
		add_owner(owners, k->waker_user_stack, k->waker_pid, k->slice, ROLE_WAKER_USER);
		add_owner(owners, k->waker_kernel_stack, k->waker_pid, k->slice,
			  ROLE_WAKER_KERNEL);
	}
	return 0;
}

/* One stack, whose first value is `value`, to r's on_key as its owner's. */
static int hand_over_stack(struct key_reader *r, const struct stack_owner *owner,
			   const struct record_stack *value)
{
	static const struct record_stack none = { 0 };
	struct sampled_key sampled = { .pid = owner->pid, .slice = owner->slice, .count = 1 };
	struct sampled_stack *out = &sampled.user;
	struct record_stack *buffer = r->user;
	size_t frames = USER_FRAMES;

	sampled.user.ips = sampled.interp.ips = (const uint64_t *)none.ips;
	sampled.kernel.ips = sampled.waker.kernel.ips = sampled.waker.user.ips = sampled.user.ips;
	sampled.waker.pid = owner->pid;
	if (owner->role == ROLE_KERNEL || owner->role == ROLE_WAKER_KERNEL) {
		out = owner->role == ROLE_KERNEL ? &sampled.kernel : &sampled.waker.kernel;
		buffer = r->kernel;
		frames = RECORD_MAX_STACK_DEPTH;
	} else if (owner->role == ROLE_WAKER_USER) {
		out = &sampled.waker.user;
	}
	memcpy(buffer, value, bpf_map__value_size(r->s->stacks));
	read_on(r->s, r->fetched, owner->hash, buffer, frames, out);
	return r->on_key(&sampled, r->arg);
}

struct owned_stacks {
	struct key_reader *r;
	const struct stack_owners *owners;
	const struct stack_owner **batch_owners;  /* READ_BATCH: a batch's stacks' (NULL: none) */
};

static const struct stack_owner *owner_of(const struct stack_owners *o, uint64_t hash)
{
	uint32_t at = o->index.slots[owner_slot(o, hash)];
	return at ? &o->items[at - 1] : NULL;
}

/* The chunks the deep stacks of values first, first + 1 ... go on in (of
 * as many as a fetch has room for) fetched: the end of those. */
static __u32 fetch_chunks(const struct owned_stacks *o, const void *hashes, const void *values,
			  __u32 first, __u32 n)
{
	struct fetched_stacks *f = fetch_begin(o->r);
	size_t value_size = bpf_map__value_size(o->r->s->stacks);
	__u32 end = first;

	if (!f)
		return n;
	for (; end < n; end++) {
		const struct record_stack *value = (const void *)((const char *)values +
								   end * value_size);
		/* (a chunk's own header is a frame: only a stack's first value has a depth) */
		size_t chunks = o->batch_owners[end] ? chunks_after_first(o->r, value->depth) : 0;
		if (chunks > STACK_FETCH_BATCH - f->count && f->count > 0)
			break;
		fetch_add_chunks(f, ((const __u64 *)hashes)[end], chunks);
	}
	return fetch_run(o->r, f, 0) ? end : n;
}

/* The stacks of a batch of `stacks` that keys hold, handed over. */
static int hand_over_owned(const void *hashes, const void *values, __u32 n, void *arg)
{
	const struct owned_stacks *o = arg;
	size_t value_size = bpf_map__value_size(o->r->s->stacks);
	int result = 0;

	for (__u32 i = 0; i < n; i++)
		o->batch_owners[i] = owner_of(o->owners, ((const __u64 *)hashes)[i]);
	for (__u32 i = 0; i < n && !result;) {
		__u32 end = fetch_chunks(o, hashes, values, i, n);
		for (; i < end && !result; i++)
			if (o->batch_owners[i])
				result = hand_over_stack(o->r, o->batch_owners[i],
							 (const void *)((const char *)values +
									i * value_size));
	}
	o->r->fetched = NULL;
	return result;
}

/* BPF_SAMPLER_READ_ADDRESSES_ONCE in batches (above), on_key's value into
 * *result; false where the kernel cannot. */
static bool read_addresses_in_batches(struct key_reader *r, int *result)
{
	struct stack_owners owners = { 0 };
	struct owned_stacks owned = { r, &owners, fk_calloc(READ_BATCH, sizeof(*owned.batch_owners)) };
	bool batches;

	index_table__init(&owners.index, 1024);
	read_in_batches(bpf_map__fd(r->s->counts), sizeof(struct record_key), sizeof(__u64),
			add_owners, &owners, &batches);
	if (batches)
		*result = read_in_batches(bpf_map__fd(r->s->stacks), sizeof(__u64),
					  bpf_map__value_size(r->s->stacks), hand_over_owned, &owned,
					  &batches);
	free(owned.batch_owners);
	free(owners.items);
	index_table__release(&owners.index);
	return batches;
}

/* Stacks a key names: its user, kernel and interpreter stacks, its
 * waker's two. Their first values fill up to FETCH_FIRST_VALUES of a
 * fetch's places, the chunks deep ones go on in the rest. */
#define STACKS_PER_KEY 5
#define FETCH_FIRST_VALUES (STACK_FETCH_BATCH / 2)

/* BPF_SAMPLER_READ_ALL: the stacks of keys first, first + 1 ... (as many
 * keys as a fetch has room for) fetched: the end of those keys. */
static __u32 fetch_group(struct key_reader *r, const struct record_key *keys, __u32 first,
			 __u32 n)
{
	struct fetched_stacks *f = r->what == BPF_SAMPLER_READ_ALL ? fetch_begin(r) : NULL;
	__u32 end = first;

	if (!f)
		return n;
	for (; end < n && f->count + STACKS_PER_KEY <= FETCH_FIRST_VALUES; end++) {
		fetched_add(f, keys[end].user_stack);
		fetched_add(f, keys[end].kernel_stack);
		fetched_add(f, keys[end].interp_stack);
		fetched_add(f, keys[end].waker_user_stack);
		fetched_add(f, keys[end].waker_kernel_stack);
	}
	size_t firsts = f->count;
	if (!fetch_run(r, f, 0))
		return n;
	for (size_t i = 0; i < firsts; i++) {
		const struct record_stack *value = stack_fetch__value(r->s->fetch, i);
		if (value)
			fetch_add_chunks(f, f->hashes[i], chunks_after_first(r, value->depth));
	}
	return fetch_run(r, f, firsts) ? end : n;
}

static int hand_over_keys(const void *keys, const void *counts, __u32 n, void *arg)
{
	struct key_reader *r = arg;
	int result = 0;

	for (__u32 i = 0; i < n && !result;) {
		__u32 end = fetch_group(r, keys, i, n);
		for (; i < end && !result; i++)
			result = hand_over(r, (const struct record_key *)keys + i,
					   ((const __u64 *)counts)[i]);
	}
	r->fetched = NULL;
	return result;
}

/* Every counted key, handed over: read in batches, else one by one. */
static int read_keys(struct key_reader *r)
{
	int fd = bpf_map__fd(r->s->counts);
	bool batches;
	int result = read_in_batches(fd, sizeof(struct record_key), sizeof(__u64), hand_over_keys,
				     r, &batches);

	return batches ? result : read_one_by_one(r, fd);
}

int bpf_sampler__read(struct bpf_sampler *s, enum bpf_sampler_read what,
		      int (*on_key)(const struct sampled_key *key, void *arg), void *arg)
{
	struct key_reader r = {
		.s = s, .what = what, .on_key = on_key, .arg = arg,
		.user = new_user_buffer(),
		.kernel = fk_calloc(1, sizeof(struct record_stack)),
		.waker_user = new_user_buffer(),
		.waker_kernel = fk_calloc(1, sizeof(struct record_stack)),
		.interp = fk_calloc(1, sizeof(struct record_stack)),
	};
	int result = 0;

	index_table__init(&r.met_index, 1024);
	if (!s->fetch_tried) {
		s->fetch_tried = true;
		s->fetch = stack_fetch__open(bpf_map__fd(s->stacks), bpf_map__value_size(s->stacks));
	}
	if (s->fetch)
		r.fetch_room = fetched_stacks__new(s->fetch);
	if (what != BPF_SAMPLER_READ_ADDRESSES_ONCE || !read_addresses_in_batches(&r, &result))
		result = read_keys(&r);
	fetched_stacks__free(r.fetch_room);
	free(r.user);
	free(r.kernel);
	free(r.waker_user);
	free(r.waker_kernel);
	free(r.interp);
	free(r.met.hashes);
	index_table__release(&r.met_index);
	return result;
}

/* The programs run with preemption off and end within microseconds: after
 * this long, none that began before is still running. */
#define PROGRAMS_SETTLE_NS 2000000

void bpf_sampler__wait_for_programs(void)
{
	nanosleep(&(struct timespec){ 0, PROGRAMS_SETTLE_NS }, NULL);
}

int bpf_sampler__next_generation(struct bpf_sampler *s)
{
	__u32 zero = 0;
	uint64_t next = s->generation + 1;

	if (bpf_map__update_elem(s->stack_generation, &zero, sizeof(zero), &next, sizeof(next), 0))
		return error("could not move the stored stacks to a new generation: %s",
			     strerror(errno));
	s->generation = next;
	bpf_sampler__wait_for_programs();  /* none still stores under the one before */
	return 0;
}

void stack_hashes__add(struct stack_hashes *l, uint64_t hash)
{
	if (hash <= RECORD_STACK_MISSED)
		return;
	l->hashes = fk_grow(l->hashes, &l->cap, l->count + 1, sizeof(*l->hashes));
	l->hashes[l->count++] = hash;
}

static void stack_hashes__add_key(struct stack_hashes *l, const struct record_key *key)
{
	stack_hashes__add(l, key->user_stack);
	stack_hashes__add(l, key->kernel_stack);
	stack_hashes__add(l, key->waker_user_stack);
	stack_hashes__add(l, key->waker_kernel_stack);
	stack_hashes__add(l, key->interp_stack);
}

static int compare_hashes(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static void stack_hashes__sort(struct stack_hashes *l)
{
	if (l->count)
		qsort(l->hashes, l->count, sizeof(*l->hashes), compare_hashes);
}

static bool stack_hashes__has(const struct stack_hashes *l, uint64_t hash)
{
	return l->count && bsearch(&hash, l->hashes, l->count, sizeof(hash), compare_hashes);
}

/* Adds the stacks that the keys in a map's values use: `blocked`'s and
 * `wakers`' entries wait for their time to be counted. */
static void stack_hashes__add_waiting(struct stack_hashes *l, struct bpf_map *map, bool blocked)
{
	__u32 tid, next, *previous = NULL;

	if (!map || bpf_map__max_entries(map) <= 1)
		return;  /* (sized to 1: not in use) */
	int fd = bpf_map__fd(map);
	while (bpf_map_get_next_key(fd, previous, &next) == 0) {
		tid = next;
		previous = &tid;
		if (blocked) {
			struct record_blocked b;
			if (bpf_map_lookup_elem(fd, &tid, &b) == 0)
				stack_hashes__add_key(l, &b.key);
		} else {
			struct record_waker w;
			if (bpf_map_lookup_elem(fd, &tid, &w) == 0) {
				stack_hashes__add(l, w.user_stack);
				stack_hashes__add(l, w.kernel_stack);
			}
		}
	}
}

#ifndef ENOTSUPP
#define ENOTSUPP 524  /* (the kernel's own "not supported", as libbpf passes it on) */
#endif

/*
 * Deletes these keys from a map: in batches where the kernel can (a key
 * gone already is passed over), else one by one. 0, or -1 with errno (not
 * ENOENT) where a delete failed.
 */
static int delete_keys(int fd, const void *keys, size_t key_size, size_t count)
{
	const char *at = keys;
	bool batches = true;

	for (size_t done = 0; done < count;) {
		__u32 n = (__u32)(count - done < READ_BATCH ? count - done : READ_BATCH);
		if (batches) {
			int err = bpf_map_delete_batch(fd, at + done * key_size, &n, NULL);
			done += n;
			if (!err)
				continue;
			if (errno == ENOENT) {
				done++;  /* (the one not there) */
				continue;
			}
			if (n == 0 && (errno == EINVAL || errno == ENOTSUP || errno == EOPNOTSUPP ||
				       errno == ENOTSUPP)) {
				batches = false;  /* (a kernel without batch deletes) */
				continue;
			}
			return -1;
		}
		if (bpf_map_delete_elem(fd, at + done * key_size) != 0 && errno != ENOENT)
			return -1;
		done++;
	}
	return 0;
}

/* The keys of a stored stack, and of the chunks a deep one continues in,
 * onto doomed: its depth as read since the last forget, else read now. */
static void doom_stack(struct bpf_sampler *s, uint64_t hash, struct record_stack *buffer,
		       struct stack_hashes *doomed)
{
	size_t value_size = bpf_map__value_size(s->stacks), chunk = stack_chunk(s);
	size_t slot = depth_slot(s, hash);
	uint32_t at = s->depth_index.slots[slot];
	uint32_t depth;

	if (at)
		depth = s->depths[at - 1].depth;
	else if (bpf_map__lookup_elem(s->stacks, &hash, sizeof(hash), buffer, value_size, 0) == 0)
		depth = buffer->depth;
	else
		return;
	for (size_t k = 1; k * chunk < depth; k++)
		stack_hashes__add(doomed, record_mix(hash, k));
	stack_hashes__add(doomed, hash);
}

struct gathered_keys {
	struct record_key *keys;
	size_t count, cap;
};

static int gather_batch(const void *keys, const void *counts, __u32 n, void *arg)
{
	struct gathered_keys *g = arg;

	(void)counts;
	g->keys = fk_grow(g->keys, &g->cap, g->count + n, sizeof(*g->keys));
	memcpy(g->keys + g->count, keys, n * sizeof(*g->keys));
	g->count += n;
	return 0;
}

/* The counted keys, all of them, into *keys (the caller frees them). */
static size_t gather_keys(int fd, struct record_key **keys)
{
	struct gathered_keys g = { 0 };
	bool batches;

	read_in_batches(fd, sizeof(struct record_key), sizeof(__u64), gather_batch, &g, &batches);
	if (!batches) {
		struct record_key next, *previous = NULL;
		while (bpf_map_get_next_key(fd, previous, &next) == 0) {
			g.keys = fk_grow(g.keys, &g.cap, g.count + 1, sizeof(*g.keys));
			g.keys[g.count] = next;
			previous = &g.keys[g.count++];
		}
	}
	*keys = g.keys;
	return g.count;
}

int bpf_sampler__forget_slices(struct bpf_sampler *s, uint32_t slice,
			       const struct stack_hashes *held, const struct stack_hashes *dropped)
{
	struct stack_hashes used = { 0 }, unused = { 0 }, doomed = { 0 };
	struct record_key *keys;
	int fd = bpf_map__fd(s->counts);
	int status = 0;

	/* the waiting keys first: one counted meanwhile is in `counts` then */
	stack_hashes__add_waiting(&used, s->blocked, true);
	stack_hashes__add_waiting(&used, s->wakers, false);
	/* keys gathered first: deleting while walking would restart the walk */
	size_t count = gather_keys(fd, &keys), old = 0;
	for (size_t i = 0; i < count; i++) {
		if (keys[i].slice > slice) {
			stack_hashes__add_key(&used, &keys[i]);
			continue;
		}
		stack_hashes__add_key(&unused, &keys[i]);
		keys[old++] = keys[i];
	}
	if (delete_keys(fd, keys, sizeof(*keys), old) != 0)
		status = error("could not drop a counted key: %s", strerror(errno));
	for (size_t i = 0; i < held->count; i++)
		stack_hashes__add(&used, held->hashes[i]);
	for (size_t i = 0; i < dropped->count; i++)
		stack_hashes__add(&unused, dropped->hashes[i]);
	stack_hashes__sort(&used);
	stack_hashes__sort(&unused);
	struct record_stack *buffer = new_user_buffer();
	for (size_t i = 0; status == 0 && i < unused.count; i++) {
		uint64_t hash = unused.hashes[i];
		if ((i == 0 || hash != unused.hashes[i - 1]) && !stack_hashes__has(&used, hash))
			doom_stack(s, hash, buffer, &doomed);
	}
	if (status == 0)
		delete_keys(bpf_map__fd(s->stacks), doomed.hashes, sizeof(*doomed.hashes),
			    doomed.count);
	/* a stack kept may be read again: its depth is read with it then */
	free(s->depths);
	s->depths = NULL;
	s->depth_count = s->depth_cap = 0;
	index_table__release(&s->depth_index);
	free(buffer);
	free(keys);
	free(used.hashes);
	free(unused.hashes);
	free(doomed.hashes);
	return status;
}

int bpf_sampler__stats(struct bpf_sampler *s, struct bpf_sampler_stats *stats)
{
	int cpus = libbpf_num_possible_cpus();
	__u64 *values;
	__u64 sums[RECORD_STATS] = { 0 };

	memset(stats, 0, sizeof(*stats));
	if (cpus <= 0)
		return error("could not count the possible CPUs: %s", strerror(-cpus));
	values = fk_calloc((size_t)cpus, sizeof(*values));
	for (__u32 which = 0; which < RECORD_STATS; which++) {
		if (bpf_map__lookup_elem(s->stats, &which, sizeof(which), values,
					 (size_t)cpus * sizeof(*values), 0))
			continue;
		for (int cpu = 0; cpu < cpus; cpu++)
			sums[which] += values[cpu];
	}
	free(values);
	stats->samples = sums[RECORD_STAT_SAMPLES];
	stats->off_cpu_us = sums[RECORD_STAT_OFF_CPU_US];
	stats->blocks_lost = sums[RECORD_STAT_BLOCKED_FULL];
	stats->wakers_lost = sums[RECORD_STAT_WAKERS_FULL];
	stats->over_budget = sums[RECORD_STAT_OVER_BUDGET];
	stats->cpu_budget_percent = s->cpu_budget_percent;
	stats->events = sums[RECORD_STAT_EVENTS];
	stats->dropped = sums[RECORD_STAT_COUNTS_FULL];
	stats->stacks_lost = sums[RECORD_STAT_STACKS_FULL] + sums[RECORD_STAT_STACK_ERRORS];
	stats->children_lost = sums[RECORD_STAT_PIDS_FULL];
	stats->copies_lost = sums[RECORD_STAT_SAMPLES_LOST];
	stats->python_no_thread = sums[RECORD_STAT_PYTHON_NO_THREAD];
	stats->python_unreadable = sums[RECORD_STAT_PYTHON_READ];
	stats->python_loops = sums[RECORD_STAT_PYTHON_LOOP];
	stats->python_deep = sums[RECORD_STAT_PYTHON_DEEP];
	stats->interp_events_lost = sums[RECORD_STAT_PYTHON_EVENTS_LOST];
	stats->unwound = sums[RECORD_STAT_UNWOUND];
	stats->unwound_deep = sums[RECORD_STAT_UNWIND_DEEP];
	stats->unwound_fp = sums[RECORD_STAT_UNWIND_FP];
	stats->unwound_fp_no_room = sums[RECORD_STAT_UNWIND_FP_NO_ROOM];
	for (int i = 0; i < RECORD_FALLBACKS; i++)
		stats->fallbacks[i] = sums[RECORD_STAT_FALLBACK + i];
	return 0;
}

void bpf_sampler__fetches(const struct bpf_sampler *s, struct bpf_sampler_fetches *out)
{
	*out = s->fetches;
}

void bpf_sampler__unmap_rings(struct bpf_sampler *s)
{
	ring_buffer__free(s->ring);
	s->ring = NULL;
	free(s->copy_buffer);
	s->copy_buffer = NULL;
}

void bpf_sampler__free(struct bpf_sampler *s)
{
	if (!s)
		return;
	bpf_sampler__detach(s);
	bpf_sampler__unmap_rings(s);
	pid_table__release(&s->known_ends, NULL);
	stack_fetch__free(s->fetch);
	free(s->depths);
	index_table__release(&s->depth_index);
	record_bpf__destroy(s->plain);
	record_task_bpf__destroy(s->task);
	free(s);
}
