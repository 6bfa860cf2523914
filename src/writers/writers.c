#include "writer.h"

#include <string.h>

#include "../lib/output.h"
#include "bcc_report.h"
#include "folded.h"
#include "html.h"
#include "svg.h"

const struct writer writers[] = {
	{ "folded", "folded stacks, one \"frame;...;leaf COUNT\" line per stack",
	  folded_writer__write, (const char *const[]){ ".folded", ".folded.gz", NULL } },
	{ "timed", "timed folded stacks, one \"frame;...;leaf COUNT @SECONDS\" line per slice and stack",
	  timed_writer__write, (const char *const[]){ ".timed", NULL } },
	{ "bcc-report", "bcc profile's multi-line report: stacks leaf first, \"- comm (pid)\", count",
	  bcc_report_writer__write, (const char *const[]){ ".txt", NULL } },
	{ "svg", "interactive SVG flame graph (flamegraph.pl's layout and colours)",
	  svg_writer__write, (const char *const[]){ ".svg", NULL } },
	{ "html", "offline HTML viewer: flame graph, heat map of time slices, table, sandwich, diff",
	  html_writer__write, (const char *const[]){ ".html", NULL } },
	{ NULL, NULL, NULL, NULL },
};

const struct writer *writer__find(const char *name)
{
	for (const struct writer *w = writers; w->name; w++)
		if (strcmp(w->name, name) == 0)
			return w;
	return NULL;
}

const struct writer *writer__for_path(const char *path)
{
	size_t len = strlen(path);
	for (const struct writer *w = writers; w->name; w++)
		for (const char *const *ending = w->endings; *ending; ending++) {
			size_t n = strlen(*ending);
			if (len >= n && strcmp(path + len - n, *ending) == 0)
				return w;
		}
	return NULL;
}

int writer__write_file(const struct writer *w, const struct profile *p,
		       const struct writer_options *options, const char *path)
{
	struct output *out;

	if (output__open_by_name(&out, path) < 0)
		return WRITE_FILE_UNUSABLE;
	if (w->write(p, output__stream(out), options) < 0) {
		output__abort(out);
		return WRITE_FILE_UNUSABLE;
	}
	return output__commit(out) < 0 ? WRITE_FILE_FAILED : 0;
}
