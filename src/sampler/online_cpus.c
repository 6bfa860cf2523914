#include "online_cpus.h"

#include <stdio.h>
#include <stdlib.h>

#include "../lib/xalloc.h"

size_t online_cpus(int **cpus)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	char text[4096];
	size_t n = 0, cap = 0;

	*cpus = NULL;
	if (!f)
		return 0;
	if (!fgets(text, sizeof text, f))
		text[0] = 0;
	fclose(f);
	for (char *p = text; *p && *p != '\n';) {
		char *end;
		long first = strtol(p, &end, 10), last = first;
		if (end == p)
			break;
		if (*end == '-') {
			p = end + 1;
			last = strtol(p, &end, 10);
		}
		for (long cpu = first; cpu <= last && cpu < 1 << 20; cpu++) {
			*cpus = fk_grow(*cpus, &cap, n + 1, sizeof(**cpus));
			(*cpus)[n++] = (int)cpu;
		}
		p = *end == ',' ? end + 1 : end;
	}
	return n;
}
