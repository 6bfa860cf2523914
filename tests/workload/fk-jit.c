/* fk-jit: code made at run time, as a JIT makes it, named the way JITs
 * name it for profilers: a line "START SIZE name" in /tmp/perf-PID.map.
 *
 *	fk-jit SECONDS
 *
 * main > jit_hot, jit_hot being x86-64 machine code copied into an
 * anonymous executable mapping (a countdown loop). The map file is removed
 * at the end. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	/* mov ecx, 100000; 1: dec ecx; jnz 1b; ret */
	static const unsigned char code[] = { 0xb9, 0xa0, 0x86, 0x01, 0x00, 0xff, 0xc9, 0x75,
					      0xfc, 0xc3 };
	double seconds = argc > 1 ? atof(argv[1]) : 3.0;
	unsigned char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	struct timespec start, now;

	if (page == MAP_FAILED)
		return 1;
	memcpy(page, code, sizeof code);
	snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
	FILE *map = fopen(path, "w");
	if (!map)
		return 1;
	fprintf(map, "%lx %zx jit_hot\n", (unsigned long)(uintptr_t)page, sizeof code);
	fclose(map);
	void (*jit_hot)(void) = (void (*)(void))(uintptr_t)page;
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		jit_hot();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((double)(now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 < seconds);
	unlink(path);
	return 0;
#else
	(void)argc, (void)argv;
	return 2;  /* x86-64 machine code */
#endif
}
