/*
 * flamekit record: sample stacks with BPF, count them in the kernel, and
 * write the summary as bcc profile's report, folded stacks or a flame graph.
 * Options are bcc profile's (same letters, same meaning), plus -u, -o,
 * --outdir and `-- COMMAND`; --off-cpu counts the time tasks spend off
 * CPU instead, with bcc offcputime's filters (long options only: its -u,
 * -k, -m and -M mean other things here or nothing).
 *
 * This file holds the usage text and picks the mode; record.h says which
 * file holds what (the options' table, each mode's orchestration). The
 * parts they put together are sampler/workload.h (the command started for
 * `--`), sampler/recording.h (sampling, until done),
 * sampler/sampled_profile.h (the counted keys named, as a profile),
 * writers/writer.h (the writer a file name asks for, written by lib/output's
 * rules) and writers/outdir.h.
 */
#include "cli.h"
#include "record.h"

#include <malloc.h>
#include <stdlib.h>

#include "../sampler/event_spec.h"
#include "../writers/graph_options.h"

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
	      "      --stack-storage-size N  distinct stacks and keys kept (default 16384;\n"
	      "                            131072 when user stacks are walked in the kernel)\n"
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
	      "continuous profiling (a profile a window, until DURATION or Ctrl-C/SIGTERM):\n"
	      "      --every SECONDS       back-to-back windows of SECONDS, each sample in\n"
	      "                            exactly one, each its own profile with its start\n"
	      "                            and duration; with --outdir, one file a window:\n"
	      "                            DIR/HOST_YYYYMMDD_HHMMSS_UTC[.pid_PID|...].pb.gz\n"
	      "                            (or --format's ending)\n"
	      "      --keep N              --outdir keeps the newest N windows' files\n"
	      "      --push URL            send each window to URL: .../ingest is Pyroscope's\n"
	      "                            HTTP API (pprof, named APP.cpu{host=HOST,...}),\n"
	      "                            .../v1development/profiles OTLP/HTTP; a sender\n"
	      "                            thread drains a disk spool, so sampling never\n"
	      "                            waits and nothing is lost while the backend is down\n"
	      "      --app NAME            the service's name (default: the command's or the\n"
	      "                            first target's)\n"
	      "      --label KEY=VALUE     a label (Pyroscope) or resource attribute (OTLP);\n"
	      "                            repeatable\n"
	      "      --spool DIR           windows not yet delivered (default: as root\n"
	      "                            /var/lib/flamekit/spool, else $XDG_STATE_HOME/\n"
	      "                            flamekit/spool); the next run sends them first\n"
	      "      --spool-max SIZE      at most SIZE bytes there (K, M, G; default 100M):\n"
	      "                            the oldest windows are dropped first, and counted\n"
	      "      --push-timeout SECONDS  at exit, the time the windows left get (default\n"
	      "                            10); the rest stay spooled\n"
	      "      --auth-file FILE      the Authorization header's value (\"Bearer TOKEN\")\n"
	      "                            on FILE's first line; else $FLAMEKIT_PUSH_AUTHORIZATION\n\n"
	      "flame graph (flamekit flamegraph's options, for -o FILE.svg and --outdir's\n"
	      "SVG; -o FILE.html takes --title, --colors, --hash and --countname):\n",
	      out);
	fputs(graph_options_help, out);
	fputs("\n"
	      "At the end flamekit prints how many samples it took and how many were lost\n"
	      "(0 unless a map filled up or, at high rates, it fell behind the stacks\n"
	      "--unwind=dwarf copies or its sampling took more than\n"
	      "kernel.perf_cpu_time_max_percent of a CPU). Ctrl-C (or SIGTERM) ends the\n"
	      "recording and writes the output, and is passed on to COMMAND; a second\n"
	      "Ctrl-C aborts at once without writing.\n\n"
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
	      "  sudo flamekit record -e page-faults -f -- ./build.sh\n"
	      "  sudo flamekit record --every 60 --push http://pyroscope:4040/ingest --label env=prod\n"
	      "  sudo flamekit record -p 1234 --every 10 --outdir /var/tmp/flames --keep 360\n",
	      out);
}

void record_options__init(struct record_options *o)
{
	*o = (struct record_options){
		.sampler = {
			.frequency = 49,
			.cpu = -1,
			.user_stacks = true,
			.kernel_stacks = true,
			.stack_storage_size = 0,  /* record__prepare_sampler() chooses */
			.max_stack_depth = BPF_SAMPLER_MAX_STACK_DEPTH,
			.min_block_us = 1,
			.max_block_us = UINT64_MAX,
		},
		.spool_max = 100 << 20,
		.push_timeout = 10,
		/* FLAMEKIT_PYTHON_KNOWN=3.12,3.13: the versions whose layouts
		 * may be used (the others are refused as unknown; for tests) */
		.interp = { .python = true, .known_versions = getenv("FLAMEKIT_PYTHON_KNOWN") },
	};
	svg_options__init(&o->graph);
}

void record_options__release(struct record_options *o)
{
	free(o->pids);
	free(o->tids);
	for (size_t i = 0; i < o->event_count; i++)
		event_spec__free(&o->events[i]);
	free(o->events);
	free(o->event_args);
	free(o->long_options);
	free(o->labels);
	free(o->authorization);
	free(o->spool_default);
}

int cmd_record(int argc, char **argv)
{
	struct record_options o;

	/* Arrays of 128 KB and more (the profile's stacks, a binary's names)
	 * each in a mapping of its own, as glibc starts: grown in place by
	 * mremap(), and given back whole when freed. glibc raises the bound to
	 * the size of each such array freed (an unwind table built, 1 to 24
	 * MB), after which arrays grown by doubling were copied in the heap and
	 * left their old copies resident: 1 MB of the peak of three builds. */
	mallopt(M_MMAP_THRESHOLD, 128 << 10);
	record_options__init(&o);
	int parsed = record_options__parse(&o, argc, argv);
	if (parsed > 0)
		record_usage(stdout);
	int status = parsed < 0 ? EXIT_BAD_INPUT : parsed > 0 ? 0 :
		o.rate ? record_rate__run(&o) : o.every ? record_every__run(&o) : record_once__run(&o);
	record_options__release(&o);
	return status;
}
