#include "procfs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool procfs__status_field(uint32_t pid, const char *field, char *value, size_t value_size)
{
	char path[64], line[512];
	size_t field_len = strlen(field);
	bool found = false;

	snprintf(path, sizeof path, "/proc/%u/status", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof line, f)) {
		if (strncmp(line, field, field_len) != 0 || line[field_len] != ':')
			continue;
		const char *v = line + field_len + 1;
		v += strspn(v, " \t");
		snprintf(value, value_size, "%.*s", (int)strcspn(v, "\n"), v);
		found = true;
	}
	fclose(f);
	return found;
}

uint32_t procfs__ns_pid(uint32_t pid)
{
	char value[256];

	if (!procfs__status_field(pid, "NSpid", value, sizeof value))
		return pid;
	const char *last = strrchr(value, '\t');
	last = last ? last + 1 : value;
	char *end;
	unsigned long ns_pid = strtoul(last, &end, 10);
	return end != last && ns_pid > 0 && ns_pid <= UINT32_MAX ? (uint32_t)ns_pid : pid;
}
