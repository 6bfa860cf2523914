#include "pages.h"

#include <inttypes.h>
#include <stdio.h>

bool pages__in_file_mapping(const void *addr)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[512];
	bool found = false, file = false;

	while (maps && !found && fgets(line, sizeof line, maps)) {
		uint64_t low, high, inode;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %*s %*s %" SCNu64, &low, &high,
			   &inode) == 3 && (uintptr_t)addr >= low && (uintptr_t)addr < high) {
			found = true;
			file = inode != 0;
		}
	}
	if (maps)
		fclose(maps);
	return file;
}
