#include "sysctl.h"

#include <stdio.h>
#include <string.h>

int sysctl__read_long(const char *name, long *value)
{
	char path[256] = "/proc/sys/";
	size_t at = strlen(path);

	for (const char *c = name; *c && at + 1 < sizeof path; c++)
		path[at++] = *c == '.' ? '/' : *c;
	path[at] = 0;
	FILE *f = fopen(path, "r");
	long read = 0;
	int ok = f && fscanf(f, "%ld", &read) == 1;
	if (f)
		fclose(f);
	if (!ok)
		return -1;
	*value = read;
	return 0;
}
