#include "writer.h"

#include <string.h>

#include "bcc_report.h"
#include "folded.h"
#include "svg.h"

const struct writer writers[] = {
	{ "folded", "folded stacks, one \"frame;...;leaf COUNT\" line per stack",
	  folded_writer__write },
	{ "bcc-report", "bcc profile's multi-line report: stacks leaf first, \"- comm (pid)\", count",
	  bcc_report_writer__write },
	{ "svg", "interactive SVG flame graph (flamegraph.pl's layout and colours)",
	  svg_writer__write },
	{ NULL, NULL, NULL },
};

const struct writer *writer__find(const char *name)
{
	for (const struct writer *w = writers; w->name; w++)
		if (strcmp(w->name, name) == 0)
			return w;
	return NULL;
}
