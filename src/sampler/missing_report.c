#include "missing_report.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/buf.h"
#include "../lib/cache_dir.h"
#include "../lib/xalloc.h"
#include "dpkg_paths.h"

/* One line: frames without names (a miss), walks that stopped (a stop), or
 * a cause told in words (text). */
struct missing {
	bool is_stop;
	bool is_text;             /* binary holds the text */
	enum symbol_miss miss;
	enum unwind_stop_reason stop;
	char *binary;  /* NULL where the cause has none */
	uint64_t samples;
};

struct missing_report {
	struct missing *items;
	size_t count, cap;
	char **notes;  /* whole lines, said after the shares: the JVMs that were not asked */
	size_t note_count, note_cap;
};

struct missing_report *missing_report__new(void)
{
	return fk_calloc(1, sizeof(struct missing_report));
}

void missing_report__free(struct missing_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->count; i++)
		free(r->items[i].binary);
	free(r->items);
	for (size_t i = 0; i < r->note_count; i++)
		free(r->notes[i]);
	free(r->notes);
	free(r);
}

static void add(struct missing_report *r, const struct missing *m)
{
	for (size_t i = 0; i < r->count; i++) {
		struct missing *had = &r->items[i];
		if (had->is_stop == m->is_stop && had->is_text == m->is_text && had->miss == m->miss &&
		    had->stop == m->stop &&
		    process_module__same_path(had->binary, m->binary)) {
			had->samples += m->samples;
			return;
		}
	}
	r->items = fk_grow(r->items, &r->cap, r->count + 1, sizeof(*r->items));
	r->items[r->count] = *m;
	r->items[r->count++].binary = m->binary ? fk_strdup(m->binary) : NULL;
}

void missing_report__add_name(struct missing_report *r, enum symbol_miss miss,
			      const char *binary, uint64_t samples)
{
	if (miss == SYMBOL_FOUND || miss == SYMBOL_NOT_MAPPED)
		return;  /* a guess through garbage, mostly: nothing to install */
	add(r, &(struct missing){ false, false, miss, UNWIND_STOP_NO_ENTRY, (char *)binary, samples });
}

void missing_report__add_text(struct missing_report *r, const char *text, uint64_t samples)
{
	add(r, &(struct missing){ false, true, SYMBOL_FOUND, UNWIND_STOP_NO_ENTRY, (char *)text,
				  samples });
}

void missing_report__add_stops(struct missing_report *r, const struct unwind_stop *stops,
			       size_t count)
{
	for (size_t i = 0; i < count; i++)
		add(r, &(struct missing){ true, false, SYMBOL_FOUND, stops[i].reason,
					  (char *)stops[i].binary, stops[i].samples });
}

void missing_report__add_jvm_refusal(struct missing_report *r, uint32_t pid, const char *why)
{
	struct buf line = BUF_INIT;
	buf__printf(&line, "flamekit: could not ask the JVM %u for its perf map: %s; its JIT frames "
		    "are named only by a perf map agent's /tmp/perf-%u.map", pid, why, pid);
	r->notes = fk_grow(r->notes, &r->note_cap, r->note_count + 1, sizeof(*r->notes));
	r->notes[r->note_count++] = line.data;
}

static int most_samples_first(const void *a, const void *b)
{
	const struct missing *x = a, *y = b;
	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	if (!x->binary || !y->binary)
		return (x->binary == NULL) - (y->binary == NULL);
	return strcmp(x->binary, y->binary);
}

static const char *basename_of(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	return slash ? slash + 1 : path ? path : "?";
}

/* What the fixes name, of the machine the report is printed on. */
struct fix_context {
	bool dpkg;               /* dpkg's file lists are there */
	char codename[64];       /* Debian's release ("bookworm"); "" elsewhere */
	bool named_package;      /* a line named a -dbgsym package */
};

/* Debian's release name from /etc/os-release, or "" on another system. */
static void read_debian_codename(char *out, size_t size)
{
	FILE *f = fopen("/etc/os-release", "re");
	char line[256], codename[64] = "";
	bool debian = false;

	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strcmp(line, "ID=debian") == 0)
			debian = true;
		else if (strncmp(line, "VERSION_CODENAME=", 17) == 0)
			snprintf(codename, sizeof codename, "%.63s", line + 17);
	}
	if (f)
		fclose(f);
	snprintf(out, size, "%.63s", debian ? codename : "");
}

static void print_one(const struct missing *m, FILE *out, double share, const char *what,
		      const char *dpkg_path, struct fix_context *fix)
{
	if (m->is_text) {
		fprintf(out, "flamekit: %5.1f%% of %s %s\n", share, what, m->binary);
		return;
	}
	if (m->is_stop) {
		switch (m->stop) {
		case UNWIND_STOP_JIT:
			fprintf(out, "flamekit: %5.1f%% of %s stop in JIT code, whose frames cannot be "
				"walked without frame pointers: run Java with "
				"-XX:+PreserveFramePointer, node with --perf-basic-prof "
				"--interpreted-frames-native-stack\n", share, what);
			return;
		case UNWIND_STOP_COPY_END:
			fprintf(out, "flamekit: %5.1f%% of %s have stacks deeper than the 64 KB "
				"copied: their roots are missing\n", share, what);
			return;
		case UNWIND_STOP_NO_ENTRY:
			fprintf(out, "flamekit: %5.1f%% of %s stop in %s, which has no unwind "
				"entry there: build it with -fasynchronous-unwind-tables or "
				"-fno-omit-frame-pointer\n", share, what, m->binary ? m->binary : "?");
			return;
		}
		return;
	}
	switch (m->miss) {
	case SYMBOL_NO_JIT_NAME:
		fprintf(out, "flamekit: %5.1f%% of %s have JIT frames without names: HotSpot "
			"JVMs of JDK 17 or later are asked for their perf map (see below where "
			"one could not be); run node with --perf-basic-prof, Python 3.12+ with "
			"-X perf\n", share, what);
		return;
	case SYMBOL_UNREADABLE:
		fprintf(out, "flamekit: %5.1f%% of %s have frames in %s, which could not be "
			"read (deleted or replaced before it was opened)\n", share, what,
			basename_of(m->binary));
		return;
	case SYMBOL_NO_SYMBOL:
		fprintf(out, "flamekit: %5.1f%% of %s have frames in %s without symbols: ", share,
			what, basename_of(m->binary));
		if (dpkg_path) {
			/* (the path dpkg knows: /bin/gzip on a merged /usr, not /usr/bin/gzip) */
			fprintf(out, "install its debug symbols (Debian: the -dbgsym package of the "
				"one `dpkg -S %s` names) or build it unstripped\n", dpkg_path);
			fix->named_package = true;
		} else if (fix->dpkg) {
			fprintf(out, "%s is from no package: build it unstripped, or put its debug "
				"file in /usr/lib/debug/.build-id/\n", m->binary ? m->binary : "it");
		} else {
			fprintf(out, "install its debug symbols (its distribution's debug package) "
				"or build it unstripped\n");
		}
		return;
	case SYMBOL_FOUND:
	case SYMBOL_NOT_MAPPED:
		return;
	}
}

#define MISSING_LINES 10

void missing_report__print(const struct missing_report *r, FILE *out, uint64_t total,
			   const char *what, bool debuginfod_used)
{
	for (size_t i = 0; total && i < r->note_count; i++)
		fprintf(out, "%s\n", r->notes[i]);
	if (!total || r->count == 0)
		return;
	size_t n = r->count < MISSING_LINES ? r->count : MISSING_LINES, without = 0;
	struct missing *sorted = fk_malloc(r->count * sizeof(*sorted));
	const char *binaries[MISSING_LINES], *known[MISSING_LINES] = { NULL };
	struct fix_context fix = { .dpkg = access(DPKG_LISTS, R_OK) == 0 };

	memcpy(sorted, r->items, r->count * sizeof(*sorted));
	qsort(sorted, r->count, sizeof(*sorted), most_samples_first);
	for (size_t i = 0; i < n; i++)
		if (!sorted[i].is_stop && sorted[i].miss == SYMBOL_NO_SYMBOL && sorted[i].binary)
			binaries[without++] = sorted[i].binary;
	if (without && fix.dpkg) {
		char *cache = cache_dir__path("dpkg-paths");
		dpkg_paths__known(DPKG_LISTS, cache, binaries, without, known);
		free(cache);
	}
	for (size_t i = 0, k = 0; i < n; i++) {
		bool listed = k < without && sorted[i].binary == binaries[k];
		print_one(&sorted[i], out, 100.0 * (double)sorted[i].samples / (double)total, what,
			  listed ? known[k] : NULL, &fix);
		k += listed;
	}
	if (without)
		read_debian_codename(fix.codename, sizeof fix.codename);
	if (fix.named_package && fix.codename[0])
		fprintf(out, "flamekit: Debian's -dbgsym packages are in its debug archive: add "
			"\"deb http://deb.debian.org/debian-debug/ %s-debug main\" to "
			"/etc/apt/sources.list.d/debug.list, then apt update\n", fix.codename);
	if (without && !debuginfod_used) {
		const char *urls = getenv("DEBUGINFOD_URLS");
		if (urls && *urls)
			fprintf(out, "flamekit: or fetch the debug files after the recording from "
				"DEBUGINFOD_URLS' servers: record --debuginfod\n");
		else
			fprintf(out, "flamekit: or fetch the debug files after the recording from a "
				"debuginfod server: record --debuginfod=%s\n", fix.codename[0] ?
				"https://debuginfod.debian.net" : "URL");
	}
	free(sorted);
}
