#include "event_spec.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/error.h"
#include "../lib/xalloc.h"
#include "machine.h"

/* perf's names (perf list), with its aliases. */
static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} perf_events[] = {
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

const char *event_spec__perf_names(void)
{
	return "page-faults (faults), minor-faults, major-faults, context-switches (cs), "
	       "cpu-migrations (migrations); with a PMU cycles, instructions, "
	       "cache-references, cache-misses, branches, branch-misses, bus-cycles, ref-cycles";
}

/* A tracepoint's or a C function's name: letters, digits, '_', '.' (gcc's
 * local symbols: foo.cold, foo.isra.0). */
static bool is_identifier(const char *s, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || (s[i] == '.' && i > 0)))
			return false;
	return true;
}

static char *copy(const char *s, size_t len)
{
	char *c = fk_malloc(len + 1);
	memcpy(c, s, len);
	c[len] = 0;
	return c;
}

int event_spec__parse(const char *text, struct event_spec *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < sizeof(perf_events) / sizeof(perf_events[0]); i++)
		if (strcmp(text, perf_events[i].name) == 0) {
			out->kind = EVENT_PERF;
			out->perf_type = perf_events[i].type;
			out->perf_config = perf_events[i].config;
			out->hardware = perf_events[i].type == PERF_TYPE_HARDWARE;
			out->text = fk_strdup(text);
			return 0;
		}
	if (strncmp(text, "k:", 2) == 0) {
		if (!is_identifier(text + 2, strlen(text + 2)))
			return error("-e %s: expected k:FUNCTION, a kernel function's name as "
				     "/proc/kallsyms spells it (k:vfs_read)", text);
		out->kind = EVENT_KFUNC;
		out->function = fk_strdup(text + 2);
	} else if (strncmp(text, "u:", 2) == 0) {
		const char *colon = strrchr(text + 2, ':');
		if (!colon || colon == text + 2 || !is_identifier(colon + 1, strlen(colon + 1)))
			return error("-e %s: expected u:BINARY:FUNCTION, the path of an executable "
				     "or library and a function in it "
				     "(u:/usr/lib/x86_64-linux-gnu/libc.so.6:malloc)", text);
		if (text[2] != '/')
			return error("-e %s: give the binary's whole path, from / (ldconfig -p "
				     "or which finds %.*s)", text, (int)(colon - text - 2), text + 2);
		out->kind = EVENT_UFUNC;
		out->binary = copy(text + 2, (size_t)(colon - text - 2));
		out->function = fk_strdup(colon + 1);
	} else {
		const char *colon = strchr(text, ':');
		if (!colon)
			return error("-e %s: no such event: give a perf event (%s), a tracepoint "
				     "CATEGORY:NAME (sched:sched_wakeup), k:FUNCTION or "
				     "u:BINARY:FUNCTION", text, event_spec__perf_names());
		if (!is_identifier(text, (size_t)(colon - text)) || !is_identifier(colon + 1, strlen(colon + 1)))
			return error("-e %s: expected a tracepoint CATEGORY:NAME (sched:sched_wakeup, "
				     "syscalls:sys_enter_getrandom; see perf list tracepoint)", text);
		out->kind = EVENT_TRACEPOINT;
		out->category = copy(text, (size_t)(colon - text));
		out->name = fk_strdup(colon + 1);
	}
	out->text = fk_strdup(text);
	return 0;
}

static bool in_kallsyms(const char *function)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256];
	bool found = false;

	if (!f)
		return true;  /* cannot tell: attaching will */
	while (!found && fgets(line, sizeof line, f))
		if (sscanf(line, "%*s %*s %255s", name) == 1)
			found = strcmp(name, function) == 0;
	fclose(f);
	return found;
}

int event_spec__check(const struct event_spec *e)
{
	char path[4096];
	struct stat st;

	switch (e->kind) {
	case EVENT_TRACEPOINT: {
		const char *root;
		snprintf(path, sizeof path, "-e %s", e->text);
		if (machine__tracefs(path, &root) < 0)
			return -1;
		snprintf(path, sizeof path, "%s/events/%s/%s", root, e->category, e->name);
		if (stat(path, &st) != 0)
			return error("-e %s: no such tracepoint in this kernel (%s/events lists "
				     "them; perf list tracepoint)", e->text, root);
		return 0;
	}
	case EVENT_UFUNC:
		if (stat(e->binary, &st) != 0)
			return error("-e %s: %s: %s", e->text, e->binary, strerror(errno));
		if (!S_ISREG(st.st_mode))
			return error("-e %s: %s is not a file: give an executable or a library",
				     e->text, e->binary);
		return 0;
	case EVENT_KFUNC:
		if (!in_kallsyms(e->function))
			return error("-e %s: no kernel function %s (not in /proc/kallsyms)",
				     e->text, e->function);
		return 0;
	default:
		return 0;
	}
}

void event_spec__free(struct event_spec *e)
{
	free(e->text);
	free(e->category);
	free(e->name);
	free(e->binary);
	free(e->function);
	memset(e, 0, sizeof(*e));
}
