/* fk-7030: a workload whose profile is known. It spends 70% of its CPU
 * time in seventy() and 30% in thirty() (the same loop, 7 and 3 units per
 * round), for SECONDS seconds (default 3), or for exactly ROUNDS rounds
 * when given (bench/record.sh times that to see a profiler's overhead). Built by the tests with frame
 * pointers: cc -O0 -fno-omit-frame-pointer -fno-inline -o fk-7030 fk-7030.c */
#include <stdlib.h>
#include <time.h>

#define UNIT 2000

static volatile unsigned long sink;

__attribute__((noinline)) void seventy(void)
{
	unsigned long x = sink;
	for (unsigned long i = 0; i < 7 * UNIT; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

__attribute__((noinline)) void thirty(void)
{
	unsigned long x = sink;
	for (unsigned long i = 0; i < 3 * UNIT; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3.0;
	long rounds = argc > 2 ? atol(argv[2]) : 0;
	struct timespec start, now;

	for (long i = 0; i < rounds; i++) {
		seventy();
		thirty();
	}
	if (rounds > 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		seventy();
		thirty();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((double)(now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 < seconds);
	return 0;
}
