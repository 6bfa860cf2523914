/* fk-7030: a workload whose profile is known. It spends 70% of its CPU
 * time in seventy() and 30% in thirty() (the same loop, 7 and 3 units per
 * round), for SECONDS seconds of CPU time (default 3; on an idle CPU as
 * long in wall time), or for exactly ROUNDS rounds when given
 * (bench/record.sh times that to see a profiler's overhead). With a third
 * argument "phases" (ROUNDS 0), it runs in two phases instead, for time
 * slices to tell apart: seventy() alone for SECONDS of CPU time, then
 * thirty() alone for as long. FK_STOP and FK_CPU_REPORT as in workload.h. Built by the tests with frame pointers:
 * cc -O0 -fno-omit-frame-pointer -fno-inline -o fk-7030 fk-7030.c */
#include <string.h>

#include "workload.h"

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

	workload_ready();
	if (argc > 3 && strcmp(argv[3], "phases") == 0) {
		double start = workload_cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
		do
			for (int i = 0; i < 8; i++)
				seventy();
		while (workload_cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - start < seconds);
		do
			for (int i = 0; i < 8; i++)
				thirty();
		while (workload_cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - start < 2 * seconds);
		workload_report(RUSAGE_SELF);
		return 0;
	}
	for (long i = 0; i < rounds; i++) {
		seventy();
		thirty();
	}
	if (rounds == 0)
		do
			for (int i = 0; i < 8; i++) {  /* the clock is a system call */
				seventy();
				thirty();
			}
		while (workload_cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) < seconds);
	workload_report(RUSAGE_SELF);
	return 0;
}
