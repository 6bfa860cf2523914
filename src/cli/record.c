/*
 * flamekit record: sample stacks with BPF, count them in the kernel, and
 * write the summary as bcc profile's report, folded stacks or a flame graph.
 * Options are bcc profile's (same letters, same meaning), plus -u, -o,
 * --outdir and `-- COMMAND`; --off-cpu counts the time tasks spend off
 * CPU instead, with bcc offcputime's filters (long options only: its -u,
 * -k, -m and -M mean other things here or nothing).
 *
 * This file holds the options and the order of things; the parts are
 * sampler/workload.h (the command started for `--`), sampler/recording.h
 * (sampling, until done), sampler/sampled_profile.h (the counted keys
 * named, as a profile), writers/writer.h (the writer a file name asks for,
 * written by lib/output's rules) and writers/outdir.h.
 */
#include "cli.h"
#include "option_error.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../lib/buf.h"
#include "../lib/error.h"
#include "../lib/output.h"
#include "../lib/slice_length.h"
#include "../lib/xalloc.h"
#include "../profile/profile.h"
#include "../sampler/bpf_sampler.h"
#include "../sampler/event_rate.h"
#include "../sampler/event_spec.h"
#include "../sampler/missing_report.h"
#include "../sampler/recording.h"
#include "../sampler/sampled_profile.h"
#include "../sampler/targets.h"
#include "../sampler/workload.h"
#include "../symbolize/debuginfo.h"
#include "../symbolize/process_symbols.h"
#include "../symbolize/user_unwinder.h"
#include "../writers/graph_options.h"
#include "../writers/outdir.h"
#include "../writers/svg.h"
#include "../writers/writer.h"

enum unwind_mode {
	UNWIND_AUTO,        /* dwarf where it works (x86-64, kernel BTF), else fp */
	UNWIND_FP,          /* frame pointers, walked in the kernel */
	UNWIND_DWARF,       /* stacks copied out, unwound from the binaries' tables */
};

struct record_options {
	struct bpf_sampler_options sampler;
	const char *pid_list, *tid_list;   /* as given, for the header */
	uint32_t *pids, *tids;
	const char *user;
	bool folded, delimited, annotate;
	bool call_graph;                   /* -g: perf's, accepted (stacks are always on) */
	double duration;                   /* seconds; 0: until Ctrl-C */
	const char *output_path;
	const struct writer *writer;       /* what -o names, --format, -f, or the report;
					    * with --outdir, its file beside the SVG */
	const struct writer *format;       /* --format */
	const char *outdir;
	char **command;                    /* after "--" */
	bool frequency_given, period_given;
	enum unwind_mode unwind;
	const char *off_cpu_option;        /* the first option given that needs --off-cpu */
	char **event_args;                 /* -e's arguments, as given (each may list several) */
	size_t event_arg_count, event_arg_cap;
	struct event_spec *events;         /* parsed: one for record, any number for --rate */
	size_t event_count;
	bool rate;                         /* --rate: count events per second, no stacks */
	struct interp_options interp;      /* interpreter frames (Python by default) */
	struct svg_options graph;          /* flamegraph's display options (graph_options.h) */
	int graph_option;                  /* the first of them given (its getopt value), 0: none */
	int svg_only_option;               /* the first given that the page does not take */
	bool colors_given;                 /* --colors: no palette of record's own */
	struct option *long_options;       /* record's rows and the graph's (owned) */
	const char *debuginfod;            /* --debuginfod[=URLS]: "" for DEBUGINFOD_URLS's */
};

enum {
	OPT_STACK_STORAGE_SIZE = 256,
	OPT_PERF_MAX_STACK_DEPTH,
	OPT_CGROUPMAP,
	OPT_MNTNSMAP,
	OPT_OUTDIR,
	OPT_FORMAT,
	OPT_UNWIND,
	OPT_NO_PYTHON,
	OPT_LINES,
	OPT_RATE,
	OPT_ALL_TIME,  /* --off-cpu's options serve it too */
	OPT_TIMELINE,
	OPT_DEBUGINFOD,
	OPT_OFF_CPU,   /* the options after it are its own */
	OPT_MIN_BLOCK,
	OPT_MAX_BLOCK,
	OPT_STATE,
	OPT_USER_THREADS_ONLY,
	OPT_KERNEL_THREADS_ONLY,
	OPT_WAKEUPS,
};

static const struct option record_long_options[] = {
	{ "pid", required_argument, NULL, 'p' },
	{ "tid", required_argument, NULL, 'L' },
	{ "user", required_argument, NULL, 'u' },
	{ "user-stacks-only", no_argument, NULL, 'U' },
	{ "kernel-stacks-only", no_argument, NULL, 'K' },
	{ "frequency", required_argument, NULL, 'F' },
	{ "count", required_argument, NULL, 'c' },
	{ "delimited", no_argument, NULL, 'd' },
	{ "annotations", no_argument, NULL, 'a' },
	{ "include-idle", no_argument, NULL, 'I' },
	{ "folded", no_argument, NULL, 'f' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "stack-storage-size", required_argument, NULL, OPT_STACK_STORAGE_SIZE },
	{ "perf-max-stack-depth", required_argument, NULL, OPT_PERF_MAX_STACK_DEPTH },
	{ "cgroupmap", required_argument, NULL, OPT_CGROUPMAP },
	{ "mntnsmap", required_argument, NULL, OPT_MNTNSMAP },
	{ "output", required_argument, NULL, 'o' },
	{ "outdir", required_argument, NULL, OPT_OUTDIR },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "unwind", required_argument, NULL, OPT_UNWIND },
	{ "no-python", no_argument, NULL, OPT_NO_PYTHON },
	{ "lines", no_argument, NULL, OPT_LINES },
	{ "event", required_argument, NULL, 'e' },
	{ "rate", no_argument, NULL, OPT_RATE },
	{ "all-time", no_argument, NULL, OPT_ALL_TIME },
	{ "timeline", optional_argument, NULL, OPT_TIMELINE },
	{ "debuginfod", optional_argument, NULL, OPT_DEBUGINFOD },
	{ "off-cpu", no_argument, NULL, OPT_OFF_CPU },
	{ "min-block", required_argument, NULL, OPT_MIN_BLOCK },
	{ "max-block", required_argument, NULL, OPT_MAX_BLOCK },
	{ "state", required_argument, NULL, OPT_STATE },
	{ "user-threads-only", no_argument, NULL, OPT_USER_THREADS_ONLY },
	{ "kernel-threads-only", no_argument, NULL, OPT_KERNEL_THREADS_ONLY },
	{ "wakeups", no_argument, NULL, OPT_WAKEUPS },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void record_usage(FILE *out)
{
	fputs("usage: flamekit record [OPTIONS] [DURATION] [-- COMMAND [ARGS...]]\n"
	      "       flamekit record --rate -e EVENT[,EVENT...] SECONDS\n\n"
	      "Samples stacks on a timer with BPF and counts them in the kernel (needs root);\n"
	      "with --off-cpu, counts the microseconds tasks spend off CPU instead; with\n"
	      "-e, the stacks of an event (a perf event, tracepoint or function).\n"
	      "Runs for DURATION seconds, until COMMAND exits, or until Ctrl-C; then writes\n"
	      "bcc profile's report (default), folded stacks (-f) or what -o names.\n\n"
	      "what to sample (default: every process on every CPU):\n"
	      "  -p, --pid PID[,PID...]    these processes only, until they have all exited\n"
	      "  -L, --tid TID[,TID...]    these threads only, until they have all exited\n"
	      "  -u, --user USER           processes of USER, also ones started meanwhile\n"
	      "  -- COMMAND [ARGS...]      start COMMAND, profile it and its children,\n"
	      "                            stop when it exits\n"
	      "  -C, --cpu CPU             this CPU only (--off-cpu: tasks that leave it)\n"
	      "  -I, --include-idle        include the idle task (pid 0)\n"
	      "      --cgroupmap PATH      tasks in the cgroups of this pinned BPF map\n"
	      "      --mntnsmap PATH       tasks in the mount namespaces of this pinned map\n\n"
	      "how:\n"
	      "  -F, --frequency HZ        samples per second per CPU (default 49; at most\n"
	      "                            the kernel's perf_event_max_sample_rate)\n"
	      "  -c, --count NS            instead: one sample per NS of CPU time\n"
	      "  -U, --user-stacks-only    user stacks only\n"
	      "  -K, --kernel-stacks-only  kernel stacks only\n"
	      "  -g                        accepted for perf's sake: stacks are always on\n"
	      "      --unwind=MODE         user stacks by auto (default): walked in the kernel\n"
	      "                            from the binaries' .eh_frame where the kernel\n"
	      "                            allows, copied as dwarf does where the walk\n"
	      "                            cannot go; fp: frame pointers, walked in the\n"
	      "                            kernel (cheapest, but programs built without them\n"
	      "                            lose frames); dwarf: the top 64 KB of each stack\n"
	      "                            copied and unwound from the binaries' .eh_frame\n"
	      "      --no-python           no Python frames: by default the frames of CPython\n"
	      "                            3.11 and later are walked at each sample and\n"
	      "                            named \"function (file.py)\" in place of the\n"
	      "                            interpreter's _PyEval_EvalFrameDefault\n"
	      "      --lines               Python frames name their line: \"f (file.py:12)\"\n"
	      "      --stack-storage-size N  distinct stacks and keys kept (default 16384)\n"
	      "      --perf-max-stack-depth N  frames kept per stack walked in the kernel\n"
	      "                            (default and most 127; copied user stacks keep\n"
	      "                            up to 1024)\n\n"
	      "off-CPU time (as bcc offcputime and offwaketime; needs the kernel's BTF):\n"
	      "      --off-cpu             count the microseconds each task is off CPU (asleep,\n"
	      "                            blocked, or waiting to run) by the stacks it left\n"
	      "                            with; user stacks walked in the kernel from the\n"
	      "                            binaries' unwind tables (--unwind=fp: by frame\n"
	      "                            pointers, so code built without them loses\n"
	      "                            frames, often the caller of a libc system call)\n"
	      "      --min-block US        only blocks of at least US microseconds (default 1)\n"
	      "      --max-block US        only blocks of at most US microseconds\n"
	      "      --state STATE         only tasks that left the CPU in STATE: any (the\n"
	      "                            default), running (preempted), interruptible\n"
	      "                            (S: sleeping, waiting on pipes, sockets, futexes),\n"
	      "                            uninterruptible (D: disk I/O, some locks), or as\n"
	      "                            bcc a number: 0 running, else a mask of task\n"
	      "                            state bits (1 S, 2 D)\n"
	      "      --user-threads-only   user threads only, no kernel threads\n"
	      "      --kernel-threads-only kernel threads only\n"
	      "      --wakeups             also by who woke the task: above a \"--\" frame,\n"
	      "                            the waker's stacks leaf first and its comm, each\n"
	      "                            frame marked _[w] (bcc offwaketime's layout)\n"
	      "  The values are microseconds: the SVG's counts read \"us\", the report\n"
	      "  begins with bcc's \"Tracing off-CPU time (us) ...\" line; an SVG is coloured\n"
	      "  as --colors io (--wakeups: chain, wakers in aqua).\n"
	      "      --all-time            on- and off-CPU time in one profile (us): each timer\n"
	      "                            sample counts 1e6/F us; off-CPU kernel frames end\n"
	      "                            in _[o] (a [off-CPU]_[o] leaf without them), blue\n"
	      "                            in the SVG (--colors hotcold), the rest hot\n\n"
	      "events (one per recording; user stacks by frame pointers unless --unwind=dwarf):\n"
	      "  -e, --event EVENT         stacks on EVENT instead of the timer:\n"
	      "                            page-faults, minor-faults, major-faults,\n"
	      "                            context-switches, cpu-migrations; with a PMU (and\n"
	      "                            -c) cycles, instructions, cache-references,\n"
	      "                            cache-misses, branches, branch-misses;\n"
	      "                            CATEGORY:NAME, a tracepoint (sched:sched_wakeup);\n"
	      "                            k:FUNCTION, a kernel function (fentry);\n"
	      "                            u:BINARY:FUNCTION, a user function (uprobe; BINARY\n"
	      "                            a whole path; user stacks only)\n"
	      "  -c, --count N             with -e: keep one in N events, for every kind\n"
	      "                            (perf events: the kernel's sample period;\n"
	      "                            tracepoints and functions: the BPF program's count)\n"
	      "  Without -c the values are events (the SVG reads \"events\"), with it samples;\n"
	      "  the report's header says which.\n"
	      "      --rate                with -e EVENT[,EVENT...] SECONDS: count the events of\n"
	      "                            the whole machine, no stacks (as perf stat -a), and\n"
	      "                            print each one's rate and the -c that keeps about\n"
	      "                            1000 stacks a second\n\n"
	      "output:\n"
	      "  -f, --folded              folded stacks \"comm;user;...;kernel COUNT\"\n"
	      "  -d, --delimited           a \"-\" frame between user and kernel stacks\n"
	      "  -a, --annotations         mark kernel frames with _[k], JIT frames (named by\n"
	      "                            /tmp/perf-PID.map) with _[j] in -f's lines and the\n"
	      "                            report too (bcc's forms); every other output has\n"
	      "                            them, and the graphs colour by them. Not perf's -a:\n"
	      "                            every CPU is sampled without it\n"
	      "  -o, --output FILE         FILE.folded, FILE.timed (per time slice), FILE.svg,\n"
	      "                            FILE.html (flamekit view's page), FILE.txt (the\n"
	      "                            report), FILE.pb.gz or FILE.pprof (pprof, with\n"
	      "                            cpu nanoseconds, period and duration),\n"
	      "                            FILE.speedscope.json or FILE.otlp (OpenTelemetry);\n"
	      "                            FILE.gz after a text ending is compressed;\n"
	      "                            written whole or not at all\n"
	      "      --format NAME         write NAME (folded, timed, pprof, speedscope, otlp,\n"
	      "                            bcc-report, svg, html) to stdout or -o FILE, or as\n"
	      "                            --outdir's second file\n"
	      "      --outdir DIR          write DIR/HOST_YYYYMMDD_HHMMSS_UTC[.pid_PID|\n"
	      "                            .user_NAME|.cmd_NAME].svg and .folded.gz (or the\n"
	      "                            --format's file: .pb.gz, .speedscope.json, .otlp)\n"
	      "      --timeline[=MS]       count stacks per time slice of MS milliseconds\n"
	      "                            (default 20) from the start: timed folded stacks\n"
	      "                            on stdout, or -o FILE.timed, or -o FILE.html (its\n"
	      "                            heat map); those two turn it on at 20 ms. A stack\n"
	      "                            is a key per slice: the counts map keeps 8 x\n"
	      "                            --stack-storage-size keys. --off-cpu: a block\n"
	      "                            counts in the slice where it ended\n"
	      "      --debuginfod[=URLS]   after the recording, fetch the debug files of\n"
	      "                            binaries without symbols from debuginfod servers\n"
	      "                            (URLS, else DEBUGINFOD_URLS's; as perf record\n"
	      "                            --debuginfod) into the client's cache\n"
	      "  -v, --verbose             show libbpf's messages\n"
	      "  -h, --help                show this help\n\n"
	      "flame graph (flamekit flamegraph's options, for -o FILE.svg and --outdir's\n"
	      "SVG; -o FILE.html takes --title, --colors, --hash and --countname):\n",
	      out);
	fputs(graph_options_help, out);
	fputs("\n"
	      "At the end flamekit prints how many samples it took and how many were lost\n"
	      "(0 unless a map filled up or, at high rates, it fell behind the copied\n"
	      "stacks). Ctrl-C (or SIGTERM) ends the recording and writes the output, and\n"
	      "is passed on to COMMAND; a second Ctrl-C aborts at once without writing.\n\n"
	      "examples:\n"
	      "  sudo flamekit record -o flame.svg 10           # all CPUs, 10 s\n"
	      "  sudo flamekit record -o app.svg --title app --colors java -p 1234 30\n"
	      "  sudo flamekit record -F 997 -p 1234 -f > app.folded\n"
	      "  sudo flamekit record -o build.svg -- make -j2  # a command and its children\n"
	      "  sudo flamekit record -u www-data --outdir /var/tmp/flames 30\n"
	      "  sudo flamekit record -p 1234 -o cpu.pb.gz 30     # for go tool pprof, Pyroscope\n"
	      "  sudo flamekit record -o run.html -- ./server   # the page, with a heat map\n"
	      "  sudo flamekit record --off-cpu -p 1234 -o blocked.svg 10  # time off CPU\n"
	      "  sudo flamekit record --off-cpu --wakeups --min-block 1000 -f -p 1234 10\n"
	      "  sudo flamekit record --all-time -F 997 -p 1234 -o wall.svg 10  # both\n"
	      "  sudo flamekit record --rate -e sched:sched_wakeup,page-faults 5\n"
	      "  sudo flamekit record -e sched:sched_wakeup -c 10 -o wakeups.svg 10\n"
	      "  sudo flamekit record -e u:/usr/lib/x86_64-linux-gnu/libc.so.6:malloc -p 1234 -f 10\n"
	      "  sudo flamekit record -e page-faults -f -- ./build.sh\n",
	      out);
}

/* "--name" of a long option, by its getopt value. */
static const char *long_option_name(int val)
{
	static char name[32];
	for (const struct option *o = record_long_options; o->name; o++)
		if (o->val == val) {
			snprintf(name, sizeof name, "--%s", o->name);
			break;
		}
	return name;
}

/* A whole number in [min, max] for option `name`. */
static int parse_number(const char *name, const char *arg, unsigned long long min,
			unsigned long long max, unsigned long long *value)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < min || v > max)
		return error("%s %s: expected a whole number from %llu to %llu", name, arg, min, max);
	*value = v;
	return 0;
}

/* "12,34" into ids; every one must be a running process or thread. */
static int parse_id_list(const char *name, const char *arg, uint32_t **ids, size_t *count)
{
	size_t cap = 0;
	char *copy = fk_strdup(arg), *save = NULL;
	int status = 0;

	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		unsigned long long id;
		if (parse_number(name, item, 1, 0x3fffffff, &id) < 0) {
			status = -1;
			break;
		}
		char path[64];
		struct stat st;
		snprintf(path, sizeof path, "/proc/%llu", id);
		if (stat(path, &st) != 0) {
			status = error("%s %llu: no such %s is running", name, id,
				       name[1] == 'p' ? "process" : "thread");
			break;
		}
		*ids = fk_grow(*ids, &cap, *count + 1, sizeof(**ids));
		(*ids)[(*count)++] = (uint32_t)id;
	}
	if (status == 0 && *count == 0)
		status = error("%s wants a list of ids like 1234,5678, not '%s'", name, arg);
	free(copy);
	return status;
}

/* --state: a name, or bcc's number (0: running, else a mask of the state
 * bits of include/linux/sched.h). */
static int parse_state(const char *arg, struct bpf_sampler_options *s)
{
	static const struct { const char *name; uint32_t state; } names[] = {
		{ "running", 0 },
		{ "interruptible", 1 },    /* TASK_INTERRUPTIBLE */
		{ "uninterruptible", 2 },  /* TASK_UNINTERRUPTIBLE */
	};
	unsigned long long n;

	s->filter_state = strcmp(arg, "any") != 0;
	if (!s->filter_state)
		return 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(arg, names[i].name) == 0) {
			s->state = names[i].state;
			return 0;
		}
	if (arg[0] < '0' || arg[0] > '9')
		return error("--state %s: expected any, running, interruptible, uninterruptible "
			     "or a number (bcc's mask of task state bits)", arg);
	if (parse_number("--state", arg, 0, UINT32_MAX, &n) < 0)
		return -1;
	s->state = (uint32_t)n;
	return 0;
}

/* The most samples a second per CPU this kernel takes, by which perf
 * record bounds -F; 0 when it does not say. */
static unsigned long long kernel_max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
	unsigned long long rate = 0;
	if (f) {
		if (fscanf(f, "%llu", &rate) != 1)
			rate = 0;
		fclose(f);
	}
	return rate;
}

/* The timer's rate (-F, or -c NS) within the kernel's bound: above it the
 * kernel throttles, and a recording could only fall behind. */
static int check_sample_rate(const struct record_options *o)
{
	static const char limit[] = "/proc/sys/kernel/perf_event_max_sample_rate";
	unsigned long long max = kernel_max_sample_rate();

	if (!max || o->event_count || !(o->frequency_given || o->period_given))
		return 0;
	if (o->frequency_given && o->sampler.frequency > max)
		return error("-F %u: this kernel takes at most %llu samples a second (%s, perf "
			     "record's bound too): give -F %llu or less", o->sampler.frequency, max,
			     limit, max);
	if (o->period_given && o->sampler.period < 1000000000ull / max)
		return error("-c %" PRIu64 ": a sample every %" PRIu64 " ns is more than the %llu "
			     "a second this kernel takes (%s): give -c %llu or more", o->sampler.period,
			     o->sampler.period, max, limit, (1000000000ull + max - 1) / max);
	return 0;
}

/* --off-cpu's options against each other and against the timer's. */
static int check_off_cpu_options(const struct record_options *o)
{
	const struct bpf_sampler_options *s = &o->sampler;

	if (!s->off_cpu) {
		if (o->off_cpu_option)
			return error("%s is for off-CPU time: add --off-cpu", o->off_cpu_option);
		return 0;
	}
	const char *name = s->all_time ? "--all-time" : "--off-cpu";
	if (s->all_time && s->wakeups)
		return error("--wakeups is for --off-cpu alone: --all-time draws on- and off-CPU "
			     "time, not wakers; drop one");
	if (s->all_time && o->period_given && s->period < 1000)
		return error("-c %" PRIu64 ": --all-time counts microseconds, so a sample must "
			     "stand for 1000 ns of CPU time at least", s->period);
	if (!s->all_time && (o->frequency_given || o->period_given))
		return error("%s sets the timer of on-CPU sampling, which --off-cpu does not "
			     "use: it times every block", o->frequency_given ? "-F" : "-c");
	if (s->include_idle)
		return error("-I: the idle task is off CPU exactly while others run; drop -I "
			     "with %s", name);
	if (o->unwind == UNWIND_DWARF)
		return error("--unwind=dwarf: %s walks user stacks in the kernel "
			     "(copying stacks at every context switch would cost too much): "
			     "drop --unwind or give --unwind=fp", name);
	if (s->min_block_us > s->max_block_us)
		return error("--min-block %" PRIu64 " is above --max-block %" PRIu64 ": no block "
			     "could count", s->min_block_us, s->max_block_us);
	if (s->user_threads_only && s->kernel_threads_only)
		return error("--user-threads-only and --kernel-threads-only exclude each other");
	if (s->kernel_threads_only && !s->kernel_stacks)
		return error("-U (user stacks only) with --kernel-threads-only: kernel threads "
			     "have no user stacks");
	return 0;
}

/* -e's arguments as events: each may list several, "a,b"; the u: paths
 * hold no commas. */
static int parse_events(struct record_options *o)
{
	size_t cap = 0;

	for (size_t i = 0; i < o->event_arg_count; i++) {
		char *copy = fk_strdup(o->event_args[i]), *save = NULL;
		int status = 0;
		for (char *item = strtok_r(copy, ",", &save); item && !status;
		     item = strtok_r(NULL, ",", &save)) {
			o->events = fk_grow(o->events, &cap, o->event_count + 1, sizeof(*o->events));
			status = event_spec__parse(item, &o->events[o->event_count]);
			if (status == 0)
				o->event_count++;
		}
		free(copy);
		if (status < 0)
			return -1;
		if (o->event_count == 0)
			return error("-e '%s': name an event (see flamekit record --help)",
				     o->event_args[i]);
	}
	return 0;
}

/* --rate counts the whole machine's events, and prints rates: no stacks. */
static int check_rate_options(const struct record_options *o)
{
	const char *given = o->pid_list ? "-p" : o->tid_list ? "-L" : o->user ? "-u" :
		o->command ? "-- COMMAND" : o->output_path ? "-o" : o->folded ? "-f" :
		o->format ? "--format" :
		o->outdir ? "--outdir" : o->sampler.all_time ? "--all-time" :
		o->sampler.off_cpu ? "--off-cpu" : o->frequency_given ? "-F" :
		o->period_given ? "-c" : o->sampler.cpu >= 0 ? "-C" :
		o->sampler.slice_ns ? "--timeline" :
		o->graph_option ? graph_options__name(o->graph_option) : NULL;

	if (o->event_count == 0)
		return error("--rate counts events: name them with -e EVENT[,EVENT...]");
	if (given)
		return error("--rate counts the events of the whole machine (as perf stat -a) "
			     "and prints their rates: drop %s", given);
	if (!(o->duration > 0))
		return error("--rate needs a duration: flamekit record --rate -e EVENT SECONDS");
	return 0;
}

/* -e's event against the other options; fills the sampler's. */
static int check_event_options(struct record_options *o)
{
	struct bpf_sampler_options *s = &o->sampler;
	const struct event_spec *e = &o->events[0];

	if (o->event_count > 1)
		return error("-e names %zu events: record counts stacks on one per run "
			     "(record --rate counts several)", o->event_count);
	if (s->off_cpu)
		return error("-e and %s exclude each other: one kind of stacks per run",
			     s->all_time ? "--all-time" : "--off-cpu");
	if (o->frequency_given)
		return error("-F sets the timer's frequency; -e %s counts its events: keep one in "
			     "N of them with -c N", e->text);
	if (e->hardware && !o->period_given)
		return error("-e %s: a hardware event happens too often to take a stack at every "
			     "one: keep one in N with -c N (flamekit record --rate -e %s 1 "
			     "suggests one)", e->text, e->text);
	if (e->kind == EVENT_UFUNC) {
		if (!s->user_stacks)
			return error("-K with -e %s: a uprobe's kernel stack is only the probe's "
				     "machinery; drop -K", e->text);
		s->kernel_stacks = false;  /* the same: the user stack is what there is */
	}
	s->event = e;
	s->event_every = o->period_given ? s->period : 0;
	s->period = 0;
	return 0;
}

/* The writer -o names (or --format, -f, or the report; with --outdir, its
 * file beside the SVG: --format's or folded stacks); -f or --format with
 * another one is a mistake. */
static int pick_writer(struct record_options *o)
{
	const struct writer *folded = writer__find("folded");
	if (o->folded && o->format && o->format != folded)
		return error("-f writes folded stacks but --format asks for %s: drop one",
			     o->format->name);
	if (o->outdir) {
		o->writer = o->format ? o->format : folded;
		if (o->writer == writer__find("svg"))
			return error("--outdir writes an SVG already; --format names the file beside "
				     "it: folded (the default), pprof, speedscope, otlp, ...");
		return 0;
	}
	if (!o->output_path) {
		o->writer = o->format ? o->format : o->folded ? folded : writer__find("bcc-report");
		return 0;
	}
	o->writer = writer__for_path(o->output_path);
	if (o->format && o->writer && o->writer != o->format)
		return error("-o %s names %s but --format asks for %s: drop one, or name the file "
			     "FILE%s", o->output_path, o->writer->name, o->format->name,
			     o->format->endings[0]);
	if (o->format)
		o->writer = o->format;
	if (!o->writer)
		return error("-o %s: cannot tell the format from the name: end it in .folded, "
			     ".timed, .svg, .html, .txt (the report), .pb.gz, .speedscope.json or "
			     ".otlp (.gz after a text one compresses it), or give --format", o->output_path);
	if (o->folded && o->writer != folded)
		return error("-f writes folded stacks but -o %s asks for %s: drop -f or name "
			     "the file .folded", o->output_path,
			     strcmp(o->writer->name, "svg") == 0    ? "an SVG"
			     : strcmp(o->writer->name, "html") == 0 ? "an HTML page"
			     : strcmp(o->writer->name, "timed") == 0 ? "timed folded stacks"
			     : strcmp(o->writer->name, "bcc-report") == 0 ? "the report"
								    : o->writer->summary);
	return 0;
}

static int parse_user(struct record_options *o)
{
	struct passwd *pw = getpwnam(o->user);
	unsigned long long uid;

	if (pw) {
		o->sampler.uid = pw->pw_uid;
	} else if (o->user[0] >= '0' && o->user[0] <= '9' &&
		   parse_number("-u", o->user, 0, 0xfffffffe, &uid) == 0) {
		o->sampler.uid = (uint32_t)uid;
	} else {
		return error("-u %s: no such user (give a name from /etc/passwd or a uid)", o->user);
	}
	o->sampler.filter_uid = true;
	return 0;
}

/* --timeline against the outputs: time slices go to timed folded stacks
 * (stdout or -o FILE.timed) or to the page (-o FILE.html); naming either
 * file (or --format) turns them on. pprof, speedscope and OTLP keep them
 * when asked; the other outputs have no time. */
static int check_timeline(struct record_options *o)
{
	const struct writer *timed = writer__find("timed");
	bool asks_for_time = (o->output_path || o->format) && !o->outdir &&
			     (o->writer == timed || o->writer == writer__find("html"));
	if (!o->sampler.slice_ns) {
		if (asks_for_time)
			return slice_length__parse("--timeline", NULL, &o->sampler.slice_ns);
		return 0;
	}
	if (o->outdir)
		return error("--timeline and --outdir exclude each other: --outdir writes an SVG "
			     "and .folded.gz, which have no time");
	if (o->folded)
		return error("--timeline writes timed folded stacks, -f plain ones: drop -f");
	if (o->output_path && !o->writer->keeps_time)
		return error("--timeline: -o %s has no time; name it FILE.timed or FILE.html (or "
			     "FILE.pb.gz, FILE.speedscope.json, FILE.otlp)", o->output_path);
	if (o->format && !o->writer->keeps_time)
		return error("--timeline: --format %s has no time; give timed, html, pprof, "
			     "speedscope or otlp", o->format->name);
	if (!o->output_path && !o->format)
		o->writer = timed;
	return 0;
}

static void note_graph_option(struct record_options *o, int opt)
{
	if (!o->graph_option)
		o->graph_option = opt;
	if (!o->svg_only_option && !graph_options__page_takes(opt))
		o->svg_only_option = opt;
	if (opt == GRAPH_OPT_COLORS)
		o->colors_given = true;
}

/* flamegraph's options where a graph is written: -o FILE.svg and --outdir
 * (its SVG) take them all, -o FILE.html those the page draws by; checked
 * now as the SVG writer would check them at the end. */
static int check_graph_options(const struct record_options *o)
{
	const char *name = o->writer ? o->writer->name : "";
	bool svg = o->outdir || strcmp(name, "svg") == 0, page = strcmp(name, "html") == 0;

	if (!o->graph_option)
		return 0;
	if (!svg && !page)
		return error("%s is a flame graph option: it applies to -o FILE.svg, -o FILE.html "
			     "and --outdir, not to %s", graph_options__name(o->graph_option),
			     o->output_path ? o->output_path : o->folded ? "folded stacks (-f)" :
			     o->sampler.slice_ns ? "timed folded stacks" : "the report");
	if (page && o->svg_only_option)
		return error("%s draws the SVG; -o %s is the page, which takes --title, "
			     "--colors, --hash and --countname", graph_options__name(o->svg_only_option),
			     o->output_path);
	if (o->colors_given && !svg_color__known_palette(o->graph.colors))
		return error("--colors %s: no such palette; try hot, mem, io, wakeup, chain, java, "
			     "js, perl, hotcold, red, green, blue, aqua, yellow, purple or orange",
			     o->graph.colors);
	return svg_options__check(&o->graph);
}

/* -a is bcc profile's (annotations), perf's -a is "all CPUs": said once
 * where the annotations are not plainly what was asked for, i.e. with
 * perf's -g, or where they go into a graph or report rather than the
 * folded stacks a bcc user marks them in (for flamegraph --colors java). */
static void explain_annotate(const struct record_options *o)
{
	const char *name = o->writer ? o->writer->name : "";
	bool folded = !o->outdir && (strcmp(name, "folded") == 0 || strcmp(name, "timed") == 0);

	if (o->annotate && (o->call_graph || !(folded || o->delimited)))
		fprintf(stderr, "flamekit: note: -a is bcc profile's --annotations (kernel frames "
			"end in _[k], JIT frames in _[j]); every CPU is sampled without it (perf's "
			"-a)\n");
}

/* Parses argv; returns 0, 1 for --help (done), or -1 after an error. */
static int parse_record_options(struct record_options *o, int argc, char **argv)
{
	unsigned long long n;
	int opt, dashes = argc;

	/* Everything after the first "--" is the command. */
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			dashes = i;
			break;
		}
	if (dashes < argc) {
		o->command = argv + dashes + 1;
		if (!o->command[0])
			return error("-- must be followed by a command to run");
	}
	optind = 1;
	opterr = 0;
	o->long_options = graph_options__table(record_long_options);
	while ((opt = getopt_long(dashes, argv, ":p:L:u:UKF:c:e:daIfgC:o:vh", o->long_options,
				  NULL)) != -1) {
		switch (opt) {
		case 'p': o->pid_list = optarg; break;
		case 'L': o->tid_list = optarg; break;
		case 'u': o->user = optarg; break;
		case 'U': o->sampler.kernel_stacks = false; break;
		case 'K': o->sampler.user_stacks = false; break;
		case 'F':
			if (parse_number("-F", optarg, 1, 1000000, &n) < 0)
				return -1;
			o->sampler.frequency = (unsigned)n;
			o->frequency_given = true;
			break;
		case 'c':
			if (parse_number("-c", optarg, 1, UINT64_MAX, &n) < 0)
				return -1;
			o->sampler.period = n;
			o->period_given = true;
			break;
		case 'e':
			o->event_args = fk_grow(o->event_args, &o->event_arg_cap,
						o->event_arg_count + 1, sizeof(*o->event_args));
			o->event_args[o->event_arg_count++] = optarg;
			break;
		case OPT_RATE: o->rate = true; break;
		case OPT_ALL_TIME:
			o->sampler.all_time = true;
			o->sampler.off_cpu = true;
			break;
		case 'd': o->delimited = true; break;
		case 'a': o->annotate = true; break;
		case 'g': o->call_graph = true; break;
		case 'I': o->sampler.include_idle = true; break;
		case 'f': o->folded = true; break;
		case 'C':
			if (parse_number("-C", optarg, 0, 1 << 20, &n) < 0)
				return -1;
			o->sampler.cpu = (int)n;
			break;
		case 'o': o->output_path = optarg; break;
		case 'v': o->sampler.verbose = true; break;
		case OPT_STACK_STORAGE_SIZE:
			if (parse_number("--stack-storage-size", optarg, 16, 1 << 24, &n) < 0)
				return -1;
			o->sampler.stack_storage_size = (unsigned)n;
			break;
		case OPT_PERF_MAX_STACK_DEPTH:
			if (parse_number("--perf-max-stack-depth", optarg, 1,
					 BPF_SAMPLER_MAX_STACK_DEPTH, &n) < 0)
				return -1;
			o->sampler.max_stack_depth = (unsigned)n;
			break;
		case OPT_CGROUPMAP: o->sampler.cgroup_map = optarg; break;
		case OPT_MNTNSMAP: o->sampler.mntns_map = optarg; break;
		case OPT_OUTDIR: o->outdir = optarg; break;
		case OPT_FORMAT:
			if (!(o->format = writer__for_format(optarg, true)))
				return -1;
			break;
		case OPT_UNWIND:
			if (strcmp(optarg, "auto") == 0)
				o->unwind = UNWIND_AUTO;
			else if (strcmp(optarg, "fp") == 0)
				o->unwind = UNWIND_FP;
			else if (strcmp(optarg, "dwarf") == 0)
				o->unwind = UNWIND_DWARF;
			else
				return error("--unwind %s: expected auto, fp or dwarf", optarg);
			break;
		case OPT_NO_PYTHON: o->interp.python = false; break;
		case OPT_LINES: o->interp.lines = true; break;
		case OPT_TIMELINE:
			if (slice_length__parse("--timeline", optarg, &o->sampler.slice_ns) < 0)
				return -1;
			break;
		case OPT_DEBUGINFOD: o->debuginfod = optarg ? optarg : ""; break;
		case OPT_OFF_CPU: o->sampler.off_cpu = true; break;
		case OPT_MIN_BLOCK:
			if (parse_number("--min-block", optarg, 1, UINT64_MAX, &n) < 0)
				return -1;
			o->sampler.min_block_us = n;
			break;
		case OPT_MAX_BLOCK:
			if (parse_number("--max-block", optarg, 1, UINT64_MAX, &n) < 0)
				return -1;
			o->sampler.max_block_us = n;
			break;
		case OPT_STATE:
			if (parse_state(optarg, &o->sampler) < 0)
				return -1;
			break;
		case OPT_USER_THREADS_ONLY: o->sampler.user_threads_only = true; break;
		case OPT_KERNEL_THREADS_ONLY: o->sampler.kernel_threads_only = true; break;
		case OPT_WAKEUPS: o->sampler.wakeups = true; break;
		case 'h':
			record_usage(stdout);
			return 1;
		default: /* '?' and ':' */
			if (graph_options__owns(opt)) {
				if (graph_options__parse(&o->graph, opt, optarg, false) < 0)
					return -1;
				note_graph_option(o, opt);
				continue;
			}
			return option_error("record", OPTION_VOICE_FLAMEKIT, opt, argv,
					    o->long_options);
		}
		if (opt > OPT_OFF_CPU && !o->off_cpu_option)
			o->off_cpu_option = long_option_name(opt);
	}
	if (optind < dashes) {
		char *end;
		errno = 0;
		o->duration = strtod(argv[optind], &end);
		if (errno || end == argv[optind] || *end || !(o->duration > 0) || o->duration > 1e9)
			return error("duration %s: expected a number of seconds greater than 0",
				     argv[optind]);
		if (optind + 1 < dashes)
			return error("unexpected argument '%s': give one duration; put a command "
				     "after --", argv[optind + 1]);
	}

	/* Conflicts, named right after parsing. */
	if (!o->sampler.user_stacks && !o->sampler.kernel_stacks)
		return error("-U (user stacks only) and -K (kernel stacks only) exclude each other");
#if !defined(__x86_64__)
	if (o->unwind == UNWIND_DWARF)
		return error("--unwind=dwarf: copied stacks are unwound on x86-64 only so far: "
			     "use --unwind=fp");
#endif
	if (o->frequency_given && o->period_given)
		return error("-F (frequency) and -c (count) exclude each other: give one");
	if (check_off_cpu_options(o) < 0 || parse_events(o) < 0)
		return -1;
	if (o->rate)
		return check_rate_options(o);
	if (o->event_count && check_event_options(o) < 0)
		return -1;
	if (check_sample_rate(o) < 0)
		return -1;
	if (o->debuginfod && !*o->debuginfod && !(getenv("DEBUGINFOD_URLS") &&
						   *getenv("DEBUGINFOD_URLS")))
		return error("--debuginfod: DEBUGINFOD_URLS is not set: name the servers, "
			     "--debuginfod=URL (Debian's: https://debuginfod.debian.net)");
	if (o->debuginfod && !o->sampler.user_stacks)
		return error("--debuginfod fetches user programs' debug files: drop -K");
	if (o->command && (o->pid_list || o->tid_list))
		return error("-- COMMAND profiles the command it starts: drop -p/-L");
	if (o->outdir && o->output_path)
		return error("-o and --outdir exclude each other: --outdir names its own files");
	if (o->outdir && o->folded)
		return error("--outdir writes an SVG and .folded.gz: drop -f");
	if (o->pid_list && parse_id_list("-p", o->pid_list, &o->pids, &o->sampler.pid_count) < 0)
		return -1;
	if (o->tid_list && parse_id_list("-L", o->tid_list, &o->tids, &o->sampler.tid_count) < 0)
		return -1;
	o->sampler.pids = o->pids;
	o->sampler.tids = o->tids;
	if (o->user && parse_user(o) < 0)
		return -1;
	if (pick_writer(o) < 0 || check_timeline(o) < 0 || check_graph_options(o) < 0)
		return -1;
	explain_annotate(o);
	/* Every file written at the end is checked now, before sampling (and
	 * before a command runs): a recording is not to be lost to a path.
	 * --outdir is where an operator's runs collect: made if missing. */
	if (o->output_path && output__check(o->output_path) < 0)
		return -1;
	if (o->outdir && outdir__prepare(o->outdir) < 0)
		return -1;
	return 0;
}

/* bcc's header line, without its newline: "Sampling at 49 Hertz of all
 * threads by user + kernel stack for 5 secs.", or offcputime's "Tracing
 * off-CPU time (us) of ..." (offwaketime's "Tracing blocked time (us) of
 * ... off-CPU and waker stack"). */
/* What is recorded, as the header names it: "PID 1234", "all threads". */
static void describe_subject(const struct record_options *o, struct buf *what)
{
	const struct bpf_sampler_options *s = &o->sampler;

	if (o->pid_list)
		buf__printf(what, "PID %s", o->pid_list);
	else if (o->tid_list)
		buf__printf(what, "TID %s", o->tid_list);
	else if (o->command)
		buf__printf(what, "command %s and its children", o->command[0]);
	else if (o->user)
		buf__printf(what, "user %s", o->user);
	else if (s->off_cpu && (s->user_threads_only || s->kernel_threads_only))
		buf__printf(what, "%s threads", s->user_threads_only ? "user" : "kernel");
	else
		buf__printf(what, "all threads");
}

static void format_header(const struct record_options *o, struct buf *line)
{
	const struct bpf_sampler_options *s = &o->sampler;
	struct buf what = BUF_INIT;

	describe_subject(o, &what);
	const char *stacks = !s->kernel_stacks ? "user" : !s->user_stacks ? "kernel" :
		"user + kernel";
	if (s->all_time)
		buf__printf(line, "Tracing on- and off-CPU time (us) of %s by %s stack (on CPU "
			    "%" PRIu64 " us a sample, at %u Hertz; off-CPU frames marked _[o]%s)",
			    what.data, stacks, s->sample_weight, s->period ?
			    (unsigned)(1000000000 / s->period) : s->frequency,
			    !s->user_stacks ? "" : s->kernel_unwind ?
			    "; user stacks from unwind tables" : "; user stacks by frame pointers");
	else if (s->event && s->event_every > 1)
		buf__printf(line, "Tracing %s samples (one in %" PRIu64 " events) of %s by %s "
			    "stack%s", s->event->text, s->event_every, what.data, stacks,
			    s->user_stacks && !s->copy_user_stacks ?
			    " (user stacks by frame pointers)" : "");
	else if (s->event)
		buf__printf(line, "Tracing %s events (each counted) of %s by %s stack%s",
			    s->event->text, what.data, stacks, s->user_stacks && !s->copy_user_stacks ?
			    " (user stacks by frame pointers)" : "");
	else if (s->off_cpu)
		buf__printf(line, "Tracing %s time (us) of %s by %s %sstack%s",
			    s->wakeups ? "blocked" : "off-CPU", what.data, stacks,
			    s->wakeups ? "off-CPU and waker " : "",
			    !s->user_stacks ? "" : s->kernel_unwind ?
			    " (user stacks from unwind tables)" : " (user stacks by frame pointers)");
	else if (s->period)
		buf__printf(line, "Sampling every %" PRIu64 " ns of CPU time of %s by %s stack",
			    s->period, what.data, stacks);
	else
		buf__printf(line, "Sampling at %u Hertz of %s by %s stack", s->frequency,
			    what.data, stacks);
	if (s->cpu >= 0)
		buf__printf(line, " on CPU#%d", s->cpu);
	if (o->duration > 0)
		buf__printf(line, " for %g secs.", o->duration);
	else if (o->command)
		buf__printf(line, " until it exits... Hit Ctrl-C to end.");
	else
		buf__printf(line, "... Hit Ctrl-C to end.");
	buf__free(&what);
}

/* Why a recording has no stacks, in flamekit's words (flamegraph.pl's
 * "No valid input provided" would blame the input): "no samples: PID 1234
 * did not run on a CPU while sampled ...". */
static void explain_no_stacks(const struct record_options *o, struct buf *why)
{
	const struct bpf_sampler_options *s = &o->sampler;
	struct buf what = BUF_INIT, cpu = BUF_INIT;

	describe_subject(o, &what);
	if (s->cpu >= 0)
		buf__printf(&cpu, " on CPU#%d", s->cpu);
	if (s->event)
		buf__printf(why, "no %s: %s did not happen in %s%s while traced",
			    s->event_every > 1 ? "samples" : "events", s->event->text, what.data,
			    cpu.data ? cpu.data : "");
	else if (s->off_cpu && !s->all_time)
		buf__printf(why, "no off-CPU time: %s did not leave a CPU%s in blocks the filters "
			    "keep while traced", what.data, cpu.data ? cpu.data : "");
	else
		buf__printf(why, "no samples: %s did not run on a CPU%s while sampled (idle? "
			    "flamekit record --off-cpu shows where it waits)", what.data,
			    cpu.data ? cpu.data : "");
	buf__free(&what);
	buf__free(&cpu);
}

/* Is this a release of Linux at least major.minor? */
static bool kernel_at_least(unsigned want_major, unsigned want_minor)
{
	struct utsname u;
	unsigned major = 0, minor = 0;

	return uname(&u) == 0 && sscanf(u.release, "%u.%u", &major, &minor) == 2 &&
	       (major > want_major || (major == want_major && minor >= want_minor));
}

/* --unwind=auto: user stacks walked in the kernel from the binaries'
 * tables where it can (x86-64, the kernel's BTF, bpf_loop: Linux 5.17). */
static bool choose_kernel_unwind(void)
{
#if defined(__x86_64__)
	return access("/sys/kernel/btf/vmlinux", R_OK) == 0 && kernel_at_least(5, 17);
#else
	return false;
#endif
}

/* --unwind=auto: copied stacks where the kernel can give them (x86-64 user
 * registers through bpf_task_pt_regs(), Linux 5.15, which needs the
 * kernel's BTF), since most binaries of a distribution have no frame
 * pointers, and no stack's root (libc's) has them; the kernel's
 * frame-pointer walk elsewhere. One way for every binary: a stack mixes
 * binaries built both ways, and libdwfl walks frame-pointer code from its
 * .eh_frame as well. */
static bool choose_dwarf(const struct record_options *o)
{
#if defined(__x86_64__)
	/* -e: events can come far oftener than the timer's 49 Hz, and a copy
	 * is up to 64 KB: frame pointers unless --unwind=dwarf asks */
	if (o->unwind == UNWIND_AUTO && o->sampler.event)
		return false;
	if (o->unwind == UNWIND_AUTO)
		return access("/sys/kernel/btf/vmlinux", R_OK) == 0 && kernel_at_least(5, 15);
	return o->unwind == UNWIND_DWARF;
#else
	(void)o;
	return false;
#endif
}

static int compare_fallbacks(const void *a, const void *b)
{
	const struct recording_fallback *x = a, *y = b;
	return x->samples > y->samples ? -1 : x->samples < y->samples;
}

/*
 * --unwind=auto: how many samples' user stacks the kernel could not walk
 * and left to the copy path, and where: the binaries (most first) its walk
 * stopped in; "new processes" for those sampled before their mappings
 * were given to the kernel (a process's first sample always is).
 */
static void report_fallbacks(const struct recording_results *r,
			     const struct bpf_sampler_stats *stats, bool verbose)
{
	uint64_t walked = stats->unwound + r->fallback_samples;
	struct buf where = BUF_INIT;

	if (verbose || stats->unwound_deep) {
		struct kernel_unwind_stats k;
		kernel_unwind__stats(r->kernel_unwind, &k);
		fprintf(stderr, "flamekit: %" PRIu64 " user stacks walked in the kernel (%" PRIu64
			" cut at %d frames); %" PRIu64 " unwind tables, %" PRIu64 " KiB, for %"
			PRIu64 " processes; %" PRIu64 " binaries without one, %" PRIu64
			" over the budget\n", stats->unwound, stats->unwound_deep,
			BPF_SAMPLER_MAX_USER_DEPTH, k.tables, k.bytes / 1024,
			k.processes, k.no_table, k.over_budget);
	}
	if (r->fallback_samples == 0)
		return;
	struct recording_fallback *sorted = fk_calloc(r->fallback_binary_count,
						      sizeof(*sorted));
	memcpy(sorted, r->fallback_binaries, r->fallback_binary_count * sizeof(*sorted));
	qsort(sorted, r->fallback_binary_count, sizeof(*sorted), compare_fallbacks);
	for (size_t i = 0; i < r->fallback_binary_count && i < 5; i++) {
		const char *name = sorted[i].binary ? strrchr(sorted[i].binary, '/') : NULL;
		buf__printf(&where, "%s%s %" PRIu64, i ? ", " : "",
			    name ? name + 1 : sorted[i].binary ? sorted[i].binary : "new processes",
			    sorted[i].samples);
	}
	if (r->fallback_binary_count > 5)
		buf__printf(&where, ", ...");
	fprintf(stderr, "flamekit: %" PRIu64 " of %" PRIu64 " user stacks (%.1f%%) unwound in "
		"user space, not in the kernel: %s\n", r->fallback_samples, walked,
		walked ? 100.0 * (double)r->fallback_samples / (double)walked : 0.0, where.data);
	if (verbose) {
		static const char *const why[] = { "", "new processes", "outside the mappings known",
			"binaries without a table", "rules the walk does not follow",
			"stack memory not readable" };
		fputs("flamekit: by why:", stderr);
		for (size_t i = 1; i < sizeof(why) / sizeof(why[0]); i++)
			if (r->fallback_reasons[i])
				fprintf(stderr, " %s %" PRIu64 ";", why[i], r->fallback_reasons[i]);
		fputc('\n', stderr);
	}
	free(sorted);
	buf__free(&where);
}

/*
 * Writes the profile where the options say. An off-CPU profile is labelled
 * as FlameGraph's off-CPU graphs are (titled, blue: --colors io; with
 * wakers --colors chain, whose _[w] frames the profile has already), and
 * its report starts with bcc's header, which says its counts are
 * microseconds; the SVG's counts read "us" from the profile's unit.
 */
static int write_output(const struct record_options *o, time_t started,
			const struct profile *profile, const char *header, const char *empty_text)
{
	const struct bpf_sampler_options *s = &o->sampler;
	struct svg_options graph = o->graph;  /* flamegraph's options as given */
	struct html_options page = { 0 };
	struct writer_options graph_labels = { .format = &graph, .empty_text = empty_text },
			      labels = { .empty_text = empty_text };
	const char *title = NULL, *colors = NULL;
	char event_title[256];

	if (s->all_time) {
		title = "On- and Off-CPU Time Flame Graph";
		colors = "hotcold";
	} else if (s->event) {
		snprintf(event_title, sizeof event_title, "%s Flame Graph", s->event->text);
		title = event_title;
		colors = "kind";
	} else if (s->off_cpu) {
		title = s->wakeups ? "Off-Wake Time Flame Graph" : "Off-CPU Time Flame Graph";
		colors = s->wakeups ? "chain" : "io";
	} else {
		colors = "kind";  /* kernel, native, Python and JIT frames apart */
	}
	/* what the user gave wins over record's own labels */
	if (!graph.title)
		graph.title = title;
	if (colors && !o->colors_given)
		graph.colors = colors;
	graph.chain_marked = s->wakeups;
	if (o->outdir) {
		struct outdir_subject subject = {
			o->pid_list, o->user, o->command ? o->command[0] : NULL,
		};
		return outdir__write(o->outdir, started, &subject, profile, &graph_labels, o->writer);
	}
	if (strcmp(o->writer->name, "svg") == 0) {
		labels = graph_labels;
	} else if (strcmp(o->writer->name, "html") == 0) {
		graph_options__page(&graph, &page);
		labels.format = &page;
		labels.title = graph.title;
		labels.count_name = graph.count_name;
	} else if ((s->off_cpu || s->event) && strcmp(o->writer->name, "bcc-report") == 0)
		labels.title = header;
	return writer__write_file(o->writer, profile, &labels, o->output_path);
}

/* What pprof and OTLP say of a recording besides its stacks (profile.h's
 * source): when it started and how long it ran, what was measured, what
 * one sample stands for, and where. */
static void set_source(const struct record_options *o, const struct timespec *start,
		       double elapsed, struct profile *profile)
{
	const struct bpf_sampler_options *s = &o->sampler;
	struct profile_source source = {
		.start_unix_ns = (uint64_t)start->tv_sec * 1000000000 + (uint64_t)start->tv_nsec,
		.duration_ns = (uint64_t)(elapsed * 1e9),
	};
	const char *measure = s->all_time ? "wall" : s->off_cpu ? "off_cpu" :
			      s->event ? s->event->text : "cpu";
	snprintf(source.measure, sizeof source.measure, "%s", measure);
	if (s->event && s->event_every > 1) {
		source.period = s->event_every;
		source.period_unit = PROFILE_EVENTS;
	} else if (!s->event && !s->off_cpu) {
		source.period = s->period ? s->period : (1000000000 + s->frequency / 2) / s->frequency;
		source.period_unit = PROFILE_NANOSECONDS;
	}
	if (gethostname(source.host, sizeof source.host - 1) != 0)
		source.host[0] = '\0';
	profile__set_source(profile, &source);
}

/* The sum of a one-column integer profile's counts. */
static uint64_t profile_total(const struct profile *p)
{
	uint64_t total = 0;
	for (size_t i = 0; i < profile__size(p); i++) {
		struct profile_stack stack;
		profile__stack(p, i, &stack);
		total += stack.values[0].integer;
	}
	return total;
}

/* A line of the interpreters' end-of-run report, into the missing report. */
static void add_interp_line(void *arg, const char *text, uint64_t samples)
{
	missing_report__add_text(arg, text, samples);
}

/* After the first stop signal: a second one aborts at once, without
 * writing (lib/output.h removes a file half-written), even where the
 * signal was ignored when flamekit started (a background job of a script
 * ignores SIGINT, yet the first one was taken, blocked). */
static void let_signals_abort(const sigset_t *stop_signals, const sigset_t *original_mask)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	sigset_t unblock;

	sigemptyset(&unblock);
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
		if (sigismember(stop_signals, stops[i])) {
			signal(stops[i], SIG_DFL);
			sigaddset(&unblock, stops[i]);
		}
	sigprocmask(SIG_SETMASK, original_mask, NULL);
	sigprocmask(SIG_UNBLOCK, &unblock, NULL);
}

/* "PID 12 has exited", "PIDs 12,34 have all exited", or the same of TIDs. */
static void say_targets_exited(const struct record_options *o)
{
	bool threads = !o->pid_list;
	const char *list = threads ? o->tid_list : o->pid_list;
	bool several = strchr(list, ',') != NULL;
	fprintf(stderr, "flamekit: %s%s %s %s exited: the recording ends\n",
		threads ? "TID" : "PID", several ? "s" : "", list, several ? "have all" : "has");
}

static int record_run(struct record_options *o)
{
	sigset_t stop_signals, original_mask;
	struct workload *workload = NULL;
	struct targets *targets = NULL;
	struct debuginfod_fetcher *fetch = NULL;
	struct recording *recording = NULL;
	struct profile *profile = NULL;
	struct missing_report *missing = NULL;
	struct buf header = BUF_INIT, why_empty = BUF_INIT;
	uint32_t child_pid;
	time_t started = time(NULL);
	struct timespec wall_start;
	int status = EXIT_BAD_INPUT;

	clock_gettime(CLOCK_REALTIME, &wall_start);

	/* Signals are taken synchronously while sampling (sigtimedwait), so the
	 * first Ctrl-C ends the recording; after it, a second one aborts. A
	 * SIGHUP ignored from the start (nohup) stays ignored. */
	struct sigaction hup;
	sigemptyset(&stop_signals);
	sigaddset(&stop_signals, SIGINT);
	sigaddset(&stop_signals, SIGTERM);
	if (sigaction(SIGHUP, NULL, &hup) != 0 || hup.sa_handler != SIG_IGN)
		sigaddset(&stop_signals, SIGHUP);
	sigaddset(&stop_signals, SIGCHLD);
	sigprocmask(SIG_BLOCK, &stop_signals, &original_mask);

	if (o->command) {
		if (workload__start(&workload, o->command, &original_mask) < 0)
			goto cleanup;
		child_pid = workload__pid(workload);
		o->sampler.pids = &child_pid;
		o->sampler.pid_count = 1;
		o->sampler.follow_children = true;
	}
	o->sampler.copy_user_stacks = o->sampler.user_stacks && !o->sampler.off_cpu &&
				      choose_dwarf(o);
	/* auto: the walk in the kernel, what it cannot do copied (off CPU:
	 * walked by frame pointers) */
	o->sampler.kernel_unwind = o->sampler.user_stacks && o->unwind == UNWIND_AUTO &&
				   (o->sampler.copy_user_stacks || o->sampler.off_cpu) &&
				   choose_kernel_unwind();
	if (o->sampler.all_time)  /* a timer sample's CPU time, in us */
		o->sampler.sample_weight = o->sampler.period ? o->sampler.period / 1000 :
			(1000000 + o->sampler.frequency / 2) / o->sampler.frequency;
	if (o->sampler.slice_ns) {  /* slice 0 starts now, in bpf_ktime_get_ns()'s clock */
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		o->sampler.start_ns = (uint64_t)now.tv_sec * 1000000000 + (uint64_t)now.tv_nsec;
		o->sampler.counts_size = o->sampler.stack_storage_size * 8;
	}
	/* every frame says its kind (_[k], _[j]; Python frames by their form),
	 * except in bcc's own forms, -f's lines and the report, where -a does */
	bool bcc_form = !o->outdir && (o->folded || strcmp(o->writer->name, "bcc-report") == 0);
	bool annotate = o->annotate || !bcc_form;
	if (recording__new_with_interp(&o->sampler, annotate, &o->interp, &recording) < 0)
		goto cleanup;
	if (workload && workload__release(workload) < 0)
		goto cleanup;
	if (o->sampler.pid_count || o->sampler.tid_count)
		targets = o->sampler.pid_count && !o->command ?
			targets__new(o->sampler.pids, o->sampler.pid_count, false) :
			targets__new(o->sampler.tids, o->sampler.tid_count, true);
	format_header(o, &header);
	fprintf(stderr, "%s\n", header.data);
	struct recording_limits limits = { o->duration, workload, targets, &stop_signals };
	struct recording_end end;
	if (recording__run(recording, &limits, &end) < 0)
		goto cleanup;
	/* as perf record passes on what ends it; what the terminal sent (Ctrl-C)
	 * reached the command's process group, the command with it */
	if (end.why == RECORDING_SIGNAL && workload && end.sent_to_us_only)
		workload__signal(workload, end.signal);
	if (end.why == RECORDING_TARGETS_EXITED)
		say_targets_exited(o);
	/* a signal after an end of another kind is a first one: it meets the
	 * dispositions flamekit started with, as before sampling */
	if (end.why == RECORDING_SIGNAL)
		let_signals_abort(&stop_signals, &original_mask);
	else
		sigprocmask(SIG_SETMASK, &original_mask, NULL);
	if (recording__finish(recording) < 0)
		goto cleanup;
	const struct recording_results *r = recording__results(recording);
	const struct bpf_sampler_stats stats = r->stats;

	struct sampled_profile_options naming = {
		.user_stacks = o->sampler.user_stacks,
		.kernel_stacks = o->sampler.kernel_stacks,
		.delimited = o->delimited,
		.annotate = annotate,
		.with_pids = o->writer->keeps_processes,
		.unit = o->sampler.off_cpu ? PROFILE_MICROSECONDS :
			o->sampler.event && o->sampler.event_every <= 1 ? PROFILE_EVENTS :
			PROFILE_SAMPLES,
		.tracepoint_stacks = o->sampler.event && o->sampler.event->kind != EVENT_PERF,
		.mark_off_cpu = o->sampler.all_time,
	};
	/* debug files from debuginfod: fetched now, as names are wanted, never
	 * while sampling (a network wait would hold up the copied stacks) */
	if (o->debuginfod) {
		fetch = debuginfod_fetcher__new(*o->debuginfod ? o->debuginfod : NULL);
		process_symbols__fetch_debuginfo(r->processes, fetch);
	}
	missing = missing_report__new();
	profile = sampled_profile__build_with_interp(&naming, r->sampler, r->counts, r->processes,
						     r->interp, missing);
	interp_session__report(r->interp, add_interp_line, missing);
	recording__free_sampler(recording);  /* the kernel's memory back before writing */
	if (o->sampler.slice_ns)
		profile__set_time(profile, &(struct profile_time){ o->sampler.slice_ns,
								   o->sampler.start_ns });
	set_source(o, &wall_start, r->elapsed, profile);

	struct buf empty_text = BUF_INIT;
	if (profile__size(profile) == 0) {
		explain_no_stacks(o, &why_empty);
		buf__printf(&empty_text, "%c%s", toupper((unsigned char)why_empty.data[0]),
			    why_empty.data + 1);
	}
	int written = write_output(o, started, profile, header.data, empty_text.data);
	buf__free(&empty_text);
	if (written < 0) {
		status = exit_status_of_write(written);
		goto cleanup;
	}

	if (o->sampler.all_time)
		fprintf(stderr, "flamekit: %" PRIu64 " samples and blocks, %" PRIu64 " us off CPU, "
			"%" PRIu64 " distinct stacks in %.1f s; %" PRIu64 " lost\n", stats.samples,
			stats.off_cpu_us, (uint64_t)profile__size(profile), r->elapsed,
			stats.dropped + stats.stacks_lost + stats.blocks_lost);
	else if (o->sampler.off_cpu)
		fprintf(stderr, "flamekit: %" PRIu64 " blocks, %" PRIu64 " us off CPU, %" PRIu64
			" distinct stacks in %.1f s; %" PRIu64 " lost\n", stats.samples,
			stats.off_cpu_us, (uint64_t)profile__size(profile), r->elapsed,
			stats.dropped + stats.stacks_lost + stats.blocks_lost);
	else if (o->sampler.event && o->sampler.event->kind != EVENT_PERF)
		fprintf(stderr, "flamekit: %" PRIu64 " %s events, %" PRIu64 " kept (%s), %" PRIu64
			" distinct stacks in %.1f s; %" PRIu64 " lost\n", stats.events,
			o->sampler.event->text, stats.samples,
			o->sampler.event_every > 1 ? "samples" : "every one",
			(uint64_t)profile__size(profile), r->elapsed,
			stats.dropped + stats.stacks_lost + stats.copies_lost);
	else if (o->sampler.event)
		fprintf(stderr, "flamekit: %" PRIu64 " %s %s, %" PRIu64 " distinct stacks in "
			"%.1f s; %" PRIu64 " lost\n", stats.samples, o->sampler.event->text,
			o->sampler.event_every > 1 ? "samples" : "events",
			(uint64_t)profile__size(profile), r->elapsed,
			stats.dropped + stats.stacks_lost + stats.copies_lost);
	else
		fprintf(stderr, "flamekit: %" PRIu64 " samples, %" PRIu64 " distinct stacks in "
			"%.1f s; %" PRIu64 " lost\n", stats.samples, (uint64_t)profile__size(profile),
			r->elapsed, stats.dropped + stats.stacks_lost + stats.copies_lost);
	if (why_empty.data)
		warning("%s", why_empty.data);
	if (stats.blocks_lost)
		warning("%" PRIu64 " blocks not timed: more tasks were off CPU at once than "
			"flamekit keeps (%d)", stats.blocks_lost, BPF_SAMPLER_OFF_CPU_TASKS);
	if (stats.wakers_lost)
		warning("%" PRIu64 " wakers not kept: more tasks were woken at once than "
			"flamekit keeps (%d)", stats.wakers_lost, BPF_SAMPLER_OFF_CPU_TASKS);
	if (stats.copies_lost)
		warning("%" PRIu64 " samples dropped: flamekit fell behind the copied stacks "
			"(a busy machine); lower -F or use --unwind=fp", stats.copies_lost);
	if (stats.dropped)
		warning("%" PRIu64 " samples dropped: the counts map was full; raise "
			"--stack-storage-size (now %u)", stats.dropped, o->sampler.stack_storage_size);
	if (stats.stacks_lost)
		warning("%" PRIu64 " stacks could not be read or stored and show as [Missed ... "
			"Stack]; raise --stack-storage-size if the stack map was full",
			stats.stacks_lost);
	if (r->kernel_unwind)
		report_fallbacks(r, &stats, o->sampler.verbose);
	if (r->kernel_unwind && stats.unwound_fp)
		fprintf(stderr, "flamekit: %" PRIu64 " of %" PRIu64 " off-CPU and waker user stacks "
			"walked by frame pointers only (their process's tables were not loaded "
			"yet): cut short where code keeps no frame pointers\n", stats.unwound_fp,
			stats.unwound_fp + stats.unwound);
	if (r->unwinder) {
		const struct unwind_stop *stops;
		size_t stop_count = user_unwinder__stops(r->unwinder, &stops);
		missing_report__add_stops(missing, stops, stop_count);
	}
	bool fetched = fetch != NULL;
	if (o->sampler.all_time)
		missing_report__print(missing, stderr, profile_total(profile), "microseconds",
				      fetched);
	else if (o->sampler.off_cpu)
		missing_report__print(missing, stderr, stats.off_cpu_us, "off-CPU microseconds",
				      fetched);
	else if (o->sampler.event)
		missing_report__print(missing, stderr, stats.samples,
				      o->sampler.event_every > 1 ? "samples" : "events", fetched);
	else
		missing_report__print(missing, stderr, stats.samples, "samples", fetched);
	if (o->sampler.verbose && r->unwinder) {
		struct user_unwinder_stats u;
		user_unwinder__stats(r->unwinder, &u);
		fprintf(stderr, "flamekit: %" PRIu64 " user stacks unwound, %" PRIu64 " of them "
			"from the cache; %" PRIu64 " bytes of stack copied per sample\n",
			u.walks + u.cached, u.cached,
			r->copied_samples ? r->copied_bytes / r->copied_samples : 0);
	}
	if (stats.children_lost)
		warning("%" PRIu64 " child processes were not followed: too many at once",
			stats.children_lost);
	status = 0;
cleanup:
	workload__free(workload);
	targets__free(targets);
	recording__free(recording);
	debuginfod_fetcher__free(fetch);  /* (the binaries, freed with the recording, used it) */
	profile__free(profile);
	missing_report__free(missing);
	buf__free(&header);
	buf__free(&why_empty);
	sigprocmask(SIG_SETMASK, &original_mask, NULL);
	return status;
}

/* What --rate's -c suggestion aims at: stacks a second on the whole
 * machine, a cost no workload notices (as the timer's 49 Hz on 20 CPUs). */
#define RATE_TARGET 1000

/* --rate: counts the events for the duration (or until Ctrl-C), then
 * prints a line each: name, count, per second, and the -c that keeps
 * about RATE_TARGET a second. */
static int rate_run(struct record_options *o)
{
	sigset_t stop_signals, original_mask;
	struct event_rate *rate = NULL;
	uint64_t *counts = fk_calloc(o->event_count, sizeof(*counts));
	struct timespec start, end;
	int status = EXIT_BAD_INPUT;

	sigemptyset(&stop_signals);
	sigaddset(&stop_signals, SIGINT);
	sigaddset(&stop_signals, SIGTERM);
	sigaddset(&stop_signals, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop_signals, &original_mask);
	if (event_rate__open(o->events, o->event_count, o->sampler.verbose, &rate) < 0)
		goto cleanup;
	clock_gettime(CLOCK_MONOTONIC, &start);
	fprintf(stderr, "Counting %zu event%s of all threads on all CPUs for %g secs...\n",
		o->event_count, o->event_count == 1 ? "" : "s", o->duration);
	struct timespec wait = { (time_t)o->duration,
				 (long)((o->duration - (double)(time_t)o->duration) * 1e9) };
	sigtimedwait(&stop_signals, NULL, &wait);  /* the duration, or a Ctrl-C */
	if (event_rate__read(rate, counts) < 0)
		goto cleanup;
	clock_gettime(CLOCK_MONOTONIC, &end);
	double elapsed = (double)(end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
	int width = 5;
	for (size_t i = 0; i < o->event_count; i++)
		if ((int)strlen(o->events[i].text) > width)
			width = (int)strlen(o->events[i].text);
	printf("%-*s %14s %14s %8s\n", width, "EVENT", "COUNT", "PER SECOND", "-c");
	for (size_t i = 0; i < o->event_count; i++) {
		double per_second = elapsed > 0 ? (double)counts[i] / elapsed : 0;
		uint64_t every = per_second > RATE_TARGET ? (uint64_t)(per_second / RATE_TARGET + 0.5) : 1;
		printf("%-*s %14" PRIu64 " %14.1f %8" PRIu64 "\n", width, o->events[i].text, counts[i],
		       per_second, every);
	}
	printf("# in %.2f s on the whole machine; -c: one in that many events keeps about "
	       "%d stacks a second\n", elapsed, RATE_TARGET);
	status = 0;
cleanup:
	event_rate__free(rate);
	free(counts);
	sigprocmask(SIG_SETMASK, &original_mask, NULL);
	return status;
}

int cmd_record(int argc, char **argv)
{
	struct record_options o = {
		.sampler = {
			.frequency = 49,
			.cpu = -1,
			.user_stacks = true,
			.kernel_stacks = true,
			.stack_storage_size = 16384,
			.max_stack_depth = BPF_SAMPLER_MAX_STACK_DEPTH,
			.min_block_us = 1,
			.max_block_us = UINT64_MAX,
		},
		/* FLAMEKIT_PYTHON_KNOWN=3.12,3.13: the versions whose layouts
		 * may be used (the others are refused as unknown; for tests) */
		.interp = { .python = true, .known_versions = getenv("FLAMEKIT_PYTHON_KNOWN") },
	};
	svg_options__init(&o.graph);
	int parsed = parse_record_options(&o, argc, argv);
	int status = parsed < 0 ? EXIT_BAD_INPUT : parsed > 0 ? 0 :
		o.rate ? rate_run(&o) : record_run(&o);

	free(o.pids);
	free(o.tids);
	for (size_t i = 0; i < o.event_count; i++)
		event_spec__free(&o.events[i]);
	free(o.events);
	free(o.event_args);
	free(o.long_options);
	return status;
}
