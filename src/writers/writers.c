#include "writer.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../lib/error.h"
#include "../lib/output.h"
#include "bcc_report.h"
#include "folded.h"
#include "html.h"
#include "otlp.h"
#include "pprof.h"
#include "speedscope.h"
#include "svg.h"

const struct writer writers[] = {
	{ .name = "folded", .summary = "folded stacks, one \"frame;...;leaf COUNT\" line per stack",
	  .write = folded_writer__write, .endings = (const char *const[]){ ".folded", NULL } },
	{ .name = "timed",
	  .summary = "timed folded stacks, one \"frame;...;leaf COUNT @SECONDS\" line per slice and stack",
	  .write = timed_writer__write, .endings = (const char *const[]){ ".timed", NULL },
	  .keeps_time = true },
	{ .name = "pprof",
	  .summary = "pprof's profile.proto, gzipped (go tool pprof, Pyroscope, Parca, speedscope)",
	  .write = pprof_writer__write, .endings = (const char *const[]){ ".pb.gz", ".pprof", NULL },
	  .binary = true, .compressed = true, .keeps_processes = true, .keeps_time = true },
	{ .name = "speedscope", .summary = "speedscope's JSON file format, a profile per process",
	  .write = speedscope_writer__write,
	  .endings = (const char *const[]){ ".speedscope.json", NULL }, .keeps_processes = true,
	  .keeps_time = true },
	{ .name = "otlp",
	  .summary = "OpenTelemetry profiles (OTLP ProfilesData, v1development at ac2c4b5)",
	  .write = otlp_writer__write, .endings = (const char *const[]){ ".otlp", NULL },
	  .binary = true, .keeps_processes = true, .keeps_time = true },
	{ .name = "bcc-report",
	  .summary = "bcc profile's multi-line report: stacks leaf first, \"- comm (pid)\", count",
	  .write = bcc_report_writer__write, .endings = (const char *const[]){ ".txt", NULL },
	  .view = true, .keeps_processes = true },
	{ .name = "svg", .summary = "interactive SVG flame graph (flamegraph.pl's layout and colours)",
	  .write = svg_writer__write, .endings = (const char *const[]){ ".svg", NULL }, .view = true },
	{ .name = "html",
	  .summary = "offline HTML viewer: flame graph, heat map of time slices, table, sandwich, diff",
	  .write = html_writer__write, .endings = (const char *const[]){ ".html", NULL }, .view = true,
	  .keeps_time = true },
	{ .name = NULL },
};

const struct writer *writer__find(const char *name)
{
	for (const struct writer *w = writers; w->name; w++)
		if (strcmp(w->name, name) == 0)
			return w;
	return NULL;
}

static bool ends_with(const char *s, size_t len, const char *ending)
{
	size_t n = strlen(ending);
	return len >= n && memcmp(s + len - n, ending, n) == 0;
}

const struct writer *writer__for_path(const char *path)
{
	size_t len = strlen(path);
	/* the name as it is, then without ".gz" */
	for (int pass = 0; pass < 2; pass++) {
		for (const struct writer *w = writers; w->name; w++)
			for (const char *const *ending = w->endings; *ending; ending++)
				if (ends_with(path, len, *ending))
					return w;
		if (!ends_with(path, len, ".gz"))
			break;
		len -= 3;
	}
	return NULL;
}

const struct writer *writer__for_format(const char *name, bool with_views)
{
	const struct writer *w = writer__find(name);
	if (w && (with_views || !w->view))
		return w;
	if (w)
		error("--format %s: that is a view of a profile (flamekit flamegraph and view draw "
		      "them), not a profile format; the formats are:", name);
	else
		error("--format %s: no such format; the formats are:", name);
	for (w = writers; w->name; w++)
		if (with_views || !w->view)
			fprintf(stderr, "  %-12s %s\n", w->name, w->summary);
	return NULL;
}

const char *writer__file_ending(const struct writer *w)
{
	return strcmp(w->name, "folded") == 0 ? ".folded.gz" : w->endings[0];
}

int writer__open_output(const struct writer *w, struct output **out, const char *path)
{
	if (w->binary && (!path || strcmp(path, "-") == 0) && isatty(STDOUT_FILENO))
		return error("%s is binary, not for a terminal: write it to a file (-o FILE%s) "
			     "or a pipe", w->name, w->endings[0]);
	return w->compressed ? output__open(out, path) : output__open_by_name(out, path);
}

int writer__write_file(const struct writer *w, const struct profile *p,
		       const struct writer_options *options, const char *path)
{
	struct output *out;

	if (writer__open_output(w, &out, path) < 0)
		return WRITE_FILE_UNUSABLE;
	if (w->write(p, output__stream(out), options) < 0) {
		output__abort(out);
		return WRITE_FILE_UNUSABLE;
	}
	return output__commit(out) < 0 ? WRITE_FILE_FAILED : 0;
}
