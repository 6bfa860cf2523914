/*
 * record's options: one table, each row a getopt row and what it sets (a
 * field of struct record_options by kind, or a setter for what needs more),
 * then the checks of the options against each other. A new option is a row
 * here, its lines in record.c's usage, and its check below.
 */
#include "record.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/error.h"
#include "../lib/output.h"
#include "../lib/slice_length.h"
#include "../lib/xalloc.h"
#include "../writers/graph_options.h"
#include "../writers/outdir.h"
#include "../push/push.h"
#include "option_error.h"


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
	OPT_EVERY,
	OPT_KEEP,
	OPT_PUSH,
	OPT_APP,
	OPT_LABEL,
	OPT_SPOOL,
	OPT_SPOOL_MAX,
	OPT_PUSH_TIMEOUT,
	OPT_AUTH_FILE,
};


/* What a row sets. */
enum row_kind {
	ROW_TRUE,       /* a bool field: true */
	ROW_FALSE,      /* a bool field: false */
	ROW_TEXT,       /* a const char * field: the argument */
	ROW_NUMBER,     /* an unsigned field (4 or 8 bytes): a number in [min, max] */
	ROW_CALL,       /* set(): for what needs more */
};

struct record_option {
	struct option getopt;       /* name, has_arg, val (a letter, or OPT_) */
	enum row_kind kind;
	size_t field, size;         /* offsetof and sizeof in struct record_options */
	unsigned long long min, max;
	/* ROW_CALL: 0, 1 (--help: stop, done), or -1 after a message */
	int (*set)(struct record_options *o, const char *arg);
	bool off_cpu;               /* --off-cpu's own: an error without it */
	bool push;                  /* --push's own: an error without it */
};

#define FIELD(f) .field = offsetof(struct record_options, f), \
	.size = sizeof(((struct record_options *)0)->f)

static int parse_number(const char *name, const char *arg, unsigned long long min,
			unsigned long long max, unsigned long long *value);
static int parse_state(const char *arg, struct bpf_sampler_options *s);

static int set_frequency(struct record_options *o, const char *arg)
{
	unsigned long long n;
	if (parse_number("-F", arg, 1, 1000000, &n) < 0)
		return -1;
	o->sampler.frequency = (unsigned)n;
	o->frequency_given = true;
	return 0;
}

static int set_count(struct record_options *o, const char *arg)
{
	unsigned long long n;
	if (parse_number("-c", arg, 1, UINT64_MAX, &n) < 0)
		return -1;
	o->sampler.period = n;
	o->period_given = true;
	return 0;
}

static int set_event(struct record_options *o, const char *arg)
{
	o->event_args = fk_grow(o->event_args, &o->event_arg_cap, o->event_arg_count + 1,
				sizeof(*o->event_args));
	o->event_args[o->event_arg_count++] = arg;
	return 0;
}

static int set_all_time(struct record_options *o, const char *arg)
{
	(void)arg;
	o->sampler.all_time = true;
	o->sampler.off_cpu = true;
	return 0;
}

static int set_cpu(struct record_options *o, const char *arg)
{
	unsigned long long n;
	if (parse_number("-C", arg, 0, 1 << 20, &n) < 0)
		return -1;
	o->sampler.cpu = (int)n;
	return 0;
}

static int set_format(struct record_options *o, const char *arg)
{
	return (o->format = writer__for_format(arg, true)) ? 0 : -1;
}

static int set_unwind(struct record_options *o, const char *arg)
{
	static const char *const modes[] = { [UNWIND_AUTO] = "auto", [UNWIND_FP] = "fp",
					     [UNWIND_DWARF] = "dwarf" };
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if (strcmp(arg, modes[i]) == 0) {
			o->unwind = (enum unwind_mode)i;
			return 0;
		}
	return error("--unwind %s: expected auto, fp or dwarf", arg);
}

static int set_no_python(struct record_options *o, const char *arg)
{
	(void)arg;
	o->interp.python = false;
	return 0;
}

static int set_lines(struct record_options *o, const char *arg)
{
	(void)arg;
	o->interp.lines = true;
	return 0;
}

static int set_timeline(struct record_options *o, const char *arg)
{
	return slice_length__parse("--timeline", arg, &o->sampler.slice_ns);
}

static int set_debuginfod(struct record_options *o, const char *arg)
{
	o->debuginfod = arg ? arg : "";
	return 0;
}

static int set_state(struct record_options *o, const char *arg)
{
	return parse_state(arg, &o->sampler);
}

static int set_help(struct record_options *o, const char *arg)
{
	(void)o, (void)arg;
	return 1;
}

/* --app: a name Pyroscope and OpenTelemetry take as it is. */
static int set_app(struct record_options *o, const char *arg)
{
	if (!*arg || strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_.-") != strlen(arg))
		return error("--app %s: expected letters, digits, '_', '.' and '-'", arg);
	o->app = arg;
	return 0;
}

/* --label KEY=VALUE: KEY as Prometheus names labels (dots allowed, as
 * OpenTelemetry's attributes have them), VALUE without the characters that
 * delimit Pyroscope's name{k=v,...}. */
static int set_label(struct record_options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t key = eq ? (size_t)(eq - arg) : 0;
	bool ok = key > 0 && !isdigit((unsigned char)arg[0]) && eq[1] != 0 &&
		  strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.") ==
			  key;
	for (const char *c = eq ? eq + 1 : ""; ok && *c; c++)
		ok = !strchr(",{}=\"\\", *c) && (unsigned char)*c >= 0x20 && *c != 0x7f;
	if (!ok)
		return error("--label %s: expected KEY=VALUE, KEY of letters, digits, '_' and '.' "
			     "(not first a digit), VALUE not empty and without , { } = \" \\",
			     arg);
	o->labels = fk_grow(o->labels, &o->label_cap, o->label_count + 1, sizeof(*o->labels));
	o->labels[o->label_count++] = arg;
	return 0;
}

/* --spool-max SIZE: bytes, or with K, M or G (powers of 1024). */
static int set_spool_max(struct record_options *o, const char *arg)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(arg, &end, 10);
	unsigned shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
	if (shift)
		end++;
	if (errno || end == arg || *end || arg[0] == '-' || n == 0 || n > (UINT64_MAX >> shift))
		return error("--spool-max %s: expected a size in bytes, or with K, M or G (100M)",
			     arg);
	o->spool_max = (uint64_t)n << shift;
	return 0;
}

static int set_push_timeout(struct record_options *o, const char *arg)
{
	char *end;
	errno = 0;
	double t = strtod(arg, &end);
	if (errno || end == arg || *end || !(t >= 0) || t > 86400)
		return error("--push-timeout %s: expected seconds, 0 to 86400", arg);
	o->push_timeout = t;
	return 0;
}

static const struct record_option record_options_table[] = {
	{ .getopt = { "pid", required_argument, NULL, 'p' }, .kind = ROW_TEXT, FIELD(pid_list) },
	{ .getopt = { "tid", required_argument, NULL, 'L' }, .kind = ROW_TEXT, FIELD(tid_list) },
	{ .getopt = { "user", required_argument, NULL, 'u' }, .kind = ROW_TEXT, FIELD(user) },
	{ .getopt = { "user-stacks-only", no_argument, NULL, 'U' }, .kind = ROW_FALSE, FIELD(sampler.kernel_stacks) },
	{ .getopt = { "kernel-stacks-only", no_argument, NULL, 'K' }, .kind = ROW_FALSE, FIELD(sampler.user_stacks) },
	{ .getopt = { "frequency", required_argument, NULL, 'F' }, .kind = ROW_CALL, .set = set_frequency },
	{ .getopt = { "count", required_argument, NULL, 'c' }, .kind = ROW_CALL, .set = set_count },
	{ .getopt = { "delimited", no_argument, NULL, 'd' }, .kind = ROW_TRUE, FIELD(delimited) },
	{ .getopt = { "annotations", no_argument, NULL, 'a' }, .kind = ROW_TRUE, FIELD(annotate) },
	{ .getopt = { "include-idle", no_argument, NULL, 'I' }, .kind = ROW_TRUE, FIELD(sampler.include_idle) },
	{ .getopt = { "folded", no_argument, NULL, 'f' }, .kind = ROW_TRUE, FIELD(folded) },
	{ .getopt = { "cpu", required_argument, NULL, 'C' }, .kind = ROW_CALL, .set = set_cpu },
	{ .getopt = { "stack-storage-size", required_argument, NULL, OPT_STACK_STORAGE_SIZE }, .kind = ROW_NUMBER,
	  FIELD(sampler.stack_storage_size), .min = 16, .max = 1 << 24 },
	{ .getopt = { "perf-max-stack-depth", required_argument, NULL, OPT_PERF_MAX_STACK_DEPTH },
	  ROW_NUMBER, FIELD(sampler.max_stack_depth), .min = 1, .max = BPF_SAMPLER_MAX_STACK_DEPTH },
	{ .getopt = { "cgroupmap", required_argument, NULL, OPT_CGROUPMAP }, .kind = ROW_TEXT, FIELD(sampler.cgroup_map) },
	{ .getopt = { "mntnsmap", required_argument, NULL, OPT_MNTNSMAP }, .kind = ROW_TEXT, FIELD(sampler.mntns_map) },
	{ .getopt = { "output", required_argument, NULL, 'o' }, .kind = ROW_TEXT, FIELD(output_path) },
	{ .getopt = { "outdir", required_argument, NULL, OPT_OUTDIR }, .kind = ROW_TEXT, FIELD(outdir) },
	{ .getopt = { "format", required_argument, NULL, OPT_FORMAT }, .kind = ROW_CALL, .set = set_format },
	{ .getopt = { "unwind", required_argument, NULL, OPT_UNWIND }, .kind = ROW_CALL, .set = set_unwind },
	{ .getopt = { "no-python", no_argument, NULL, OPT_NO_PYTHON }, .kind = ROW_CALL, .set = set_no_python },
	{ .getopt = { "lines", no_argument, NULL, OPT_LINES }, .kind = ROW_CALL, .set = set_lines },
	{ .getopt = { "event", required_argument, NULL, 'e' }, .kind = ROW_CALL, .set = set_event },
	{ .getopt = { "rate", no_argument, NULL, OPT_RATE }, .kind = ROW_TRUE, FIELD(rate) },
	{ .getopt = { "all-time", no_argument, NULL, OPT_ALL_TIME }, .kind = ROW_CALL, .set = set_all_time },
	{ .getopt = { "timeline", optional_argument, NULL, OPT_TIMELINE }, .kind = ROW_CALL, .set = set_timeline },
	{ .getopt = { "debuginfod", optional_argument, NULL, OPT_DEBUGINFOD }, .kind = ROW_CALL,
	  .set = set_debuginfod },
	{ .getopt = { "off-cpu", no_argument, NULL, OPT_OFF_CPU }, .kind = ROW_TRUE, FIELD(sampler.off_cpu) },
	{ .getopt = { "min-block", required_argument, NULL, OPT_MIN_BLOCK }, .kind = ROW_NUMBER,
	  FIELD(sampler.min_block_us), .min = 1, .max = UINT64_MAX, .off_cpu = true },
	{ .getopt = { "max-block", required_argument, NULL, OPT_MAX_BLOCK }, .kind = ROW_NUMBER,
	  FIELD(sampler.max_block_us), .min = 1, .max = UINT64_MAX, .off_cpu = true },
	{ .getopt = { "state", required_argument, NULL, OPT_STATE }, .kind = ROW_CALL, .set = set_state,
	  .off_cpu = true },
	{ .getopt = { "user-threads-only", no_argument, NULL, OPT_USER_THREADS_ONLY }, .kind = ROW_TRUE,
	  FIELD(sampler.user_threads_only), .off_cpu = true },
	{ .getopt = { "kernel-threads-only", no_argument, NULL, OPT_KERNEL_THREADS_ONLY }, .kind = ROW_TRUE,
	  FIELD(sampler.kernel_threads_only), .off_cpu = true },
	{ .getopt = { "wakeups", no_argument, NULL, OPT_WAKEUPS }, .kind = ROW_TRUE, FIELD(sampler.wakeups),
	  .off_cpu = true },
	{ .getopt = { "every", required_argument, NULL, OPT_EVERY }, .kind = ROW_NUMBER,
	  FIELD(every), .min = 1, .max = 86400 },
	{ .getopt = { "keep", required_argument, NULL, OPT_KEEP }, .kind = ROW_NUMBER,
	  FIELD(keep), .min = 1, .max = 100000000 },
	{ .getopt = { "push", required_argument, NULL, OPT_PUSH }, .kind = ROW_TEXT,
	  FIELD(push_url) },
	{ .getopt = { "app", required_argument, NULL, OPT_APP }, .kind = ROW_CALL, .set = set_app,
	  .push = true },
	{ .getopt = { "label", required_argument, NULL, OPT_LABEL }, .kind = ROW_CALL,
	  .set = set_label, .push = true },
	{ .getopt = { "spool", required_argument, NULL, OPT_SPOOL }, .kind = ROW_TEXT,
	  FIELD(spool_dir), .push = true },
	{ .getopt = { "spool-max", required_argument, NULL, OPT_SPOOL_MAX }, .kind = ROW_CALL,
	  .set = set_spool_max, .push = true },
	{ .getopt = { "push-timeout", required_argument, NULL, OPT_PUSH_TIMEOUT }, .kind = ROW_CALL,
	  .set = set_push_timeout, .push = true },
	{ .getopt = { "auth-file", required_argument, NULL, OPT_AUTH_FILE }, .kind = ROW_TEXT,
	  FIELD(auth_file), .push = true },
	{ .getopt = { "verbose", no_argument, NULL, 'v' }, .kind = ROW_TRUE, FIELD(sampler.verbose) },
	{ .getopt = { "help", no_argument, NULL, 'h' }, .kind = ROW_CALL, .set = set_help },
	{ .getopt = { "", no_argument, NULL, 'g' }, .kind = ROW_TRUE, FIELD(call_graph) },  /* -g only */
};

#define ROW_COUNT (sizeof record_options_table / sizeof record_options_table[0])

static const struct record_option *find_row(int val)
{
	for (size_t i = 0; i < ROW_COUNT; i++)
		if (record_options_table[i].getopt.val == val)
			return &record_options_table[i];
	return NULL;
}

/* "--name" of a row, for messages. */
static const char *row_name(const struct record_option *row, char *name, size_t size)
{
	snprintf(name, size, "--%s", row->getopt.name);
	return name;
}

/* Sets what the row says; 0, 1 (--help) or -1 after a message. */
static int apply_row(struct record_options *o, const struct record_option *row, const char *arg)
{
	char *field = (char *)o + row->field, name[48];
	unsigned long long n;

	switch (row->kind) {
	case ROW_TRUE: *(bool *)field = true; return 0;
	case ROW_FALSE: *(bool *)field = false; return 0;
	case ROW_TEXT: *(const char **)field = arg; return 0;
	case ROW_NUMBER:
		if (parse_number(row_name(row, name, sizeof name), arg, row->min, row->max, &n) < 0)
			return -1;
		if (row->size == sizeof(uint32_t)) {
			uint32_t v = (uint32_t)n;
			memcpy(field, &v, sizeof v);
		} else {
			uint64_t v = n;
			memcpy(field, &v, sizeof v);
		}
		return 0;
	case ROW_CALL: return row->set(o, arg);
	}
	return -1;
}

/* getopt's rows (the table's named ones, then the graph's) and its short
 * option string, from the table. */
static void make_getopt_tables(struct record_options *o, char *shorts, size_t size)
{
	struct option own[ROW_COUNT + 1];
	size_t n = 0, at = 0;

	shorts[at++] = ':';
	for (size_t i = 0; i < ROW_COUNT; i++) {
		const struct option *g = &record_options_table[i].getopt;
		if (g->name[0])
			own[n++] = *g;
		if (g->val < 256 && at + 3 < size) {
			shorts[at++] = (char)g->val;
			if (g->has_arg == required_argument)
				shorts[at++] = ':';
		}
	}
	own[n] = (struct option){ NULL, 0, NULL, 0 };
	shorts[at] = '\0';
	o->long_options = graph_options__table(own);
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
			return error("--%s is for off-CPU time: add --off-cpu", o->off_cpu_option);
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
		o->sampler.slice_ns ? "--timeline" : o->every ? "--every" : o->push_url ? "--push" :
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
	if (o->every) {  /* one file a window: pprof unless --format says */
		o->writer = o->format ? o->format : writer__find("pprof");
		return 0;
	}
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

/* The Authorization header's value: --auth-file's first line, else
 * FLAMEKIT_PUSH_AUTHORIZATION's (a secret never goes in argv, where ps
 * shows it). */
static int read_authorization(struct record_options *o)
{
	const char *env = getenv("FLAMEKIT_PUSH_AUTHORIZATION");
	if (!o->auth_file) {
		if (env && *env)
			o->authorization = fk_strdup(env);
		return 0;
	}
	FILE *f = fopen(o->auth_file, "re");
	char line[4096];
	if (!f)
		return error("--auth-file %s: %s", o->auth_file, strerror(errno));
	bool got = fgets(line, sizeof line, f) != NULL;
	fclose(f);
	line[got ? strcspn(line, "\r\n") : 0] = 0;
	if (!line[0])
		return error("--auth-file %s: expected the Authorization header's value on its first "
			     "line (Bearer TOKEN, or Basic BASE64)", o->auth_file);
	o->authorization = fk_strdup(line);
	return 0;
}

/* --push and its options: a URL of a protocol flamekit speaks, windows to
 * send. */
static int check_push(struct record_options *o)
{
	if (!o->push_url) {
		if (o->push_option)
			return error("--%s is for --push URL: add it (with --every)", o->push_option);
		return 0;
	}
	o->push_protocol = push__protocol_of(o->push_url);
	if (o->push_protocol == PUSH_NONE)
		return error("--push %s: expected http[s]://HOST[:PORT]/PATH/ingest (Pyroscope) or "
			     "http[s]://HOST[:PORT]/PATH/v1development/profiles (OTLP/HTTP)",
			     o->push_url);
	if (!o->every)
		return error("--push sends one profile per window: give --every SECONDS");
	if (!o->spool_dir) {  /* root's in /var/lib, a user's in the XDG state home */
		const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
		struct buf dir = BUF_INIT;
		if (geteuid() == 0)
			buf__printf(&dir, "/var/lib/flamekit/spool");
		else if (state && state[0] == '/')
			buf__printf(&dir, "%s/flamekit/spool", state);
		else if (home && home[0] == '/')
			buf__printf(&dir, "%s/.local/state/flamekit/spool", home);
		else
			return error("--push: no place for the spool (HOME is not set): give --spool DIR");
		o->spool_dir = o->spool_default = dir.data;
	}
	return read_authorization(o);
}

/* --every and --keep against the rest: a window is a slice of its own, and
 * goes somewhere of its own. */
static int check_every(const struct record_options *o)
{
	if (o->keep && !(o->every && o->outdir))
		return error("--keep N keeps the newest N windows of --every in --outdir: give "
			     "both");
	if (!o->every)
		return 0;
	if (o->sampler.slice_ns)
		return error("--every and --timeline exclude each other: each window is one "
			     "profile of its own");
	if (o->output_path || o->folded)
		return error("--every writes one profile per window: give --outdir DIR or --push "
			     "URL instead of %s", o->output_path ? "-o" : "-f");
	if (!o->outdir && !o->push_url)
		return error("--every writes one profile per window: give --outdir DIR or --push URL");
	if (o->debuginfod)
		return error("--debuginfod fetches after the recording, which --every does not "
			     "wait for: drop it (fetch once with a plain record)");
	if (o->duration > 0 && o->duration < o->every)
		return error("--every %u with a duration of %g s: no window would close; give a "
			     "longer duration or a shorter --every", o->every, o->duration);
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
	bool svg = (o->outdir && !o->every) || strcmp(name, "svg") == 0, page = strcmp(name, "html") == 0;

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
int record_options__parse(struct record_options *o, int argc, char **argv)
{
	const struct record_option *row;
	char shorts[2 * ROW_COUNT + 2];
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
	make_getopt_tables(o, shorts, sizeof shorts);
	while ((opt = getopt_long(dashes, argv, shorts, o->long_options, NULL)) != -1) {
		if ((row = find_row(opt)) != NULL) {
			int set = apply_row(o, row, optarg);
			if (set != 0)
				return set;
			if (row->off_cpu && !o->off_cpu_option)
				o->off_cpu_option = row->getopt.name;
			if (row->push && !o->push_option)
				o->push_option = row->getopt.name;
			continue;
		}
		if (graph_options__owns(opt)) {
			if (graph_options__parse(&o->graph, opt, optarg, false) < 0)
				return -1;
			note_graph_option(o, opt);
			continue;
		}
		return option_error("record", OPTION_VOICE_FLAMEKIT, opt, argv, o->long_options);
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
	if (check_push(o) < 0 || check_every(o) < 0 || pick_writer(o) < 0 || check_timeline(o) < 0 ||
	    check_graph_options(o) < 0)
		return -1;
	if (o->every) {  /* a window is a time slice, read and dropped as it closes */
		o->sampler.slice_ns = (uint64_t)o->every * 1000000000;
	}
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
