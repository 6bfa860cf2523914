/* fk-threads: two busy threads in one process, for -L. The threads are
 * named fk-target and fk-decoy (their comm, what samples of them carry) and
 * each runs spin() for SECONDS seconds of its own CPU time (default 1).
 * Before they start, the main thread prints "NAME TID" for each to stdout;
 * FK_STOP and FK_CPU_REPORT (one line per thread) as in workload.h.
 * cc -O0 -fno-omit-frame-pointer -fno-inline -pthread -o fk-threads fk-threads.c */
#define _GNU_SOURCE
#include <pthread.h>

#include "workload.h"

static double seconds = 1.0;
static pthread_barrier_t named, go;

struct worker {
	const char *name;
	pid_t tid;
	pthread_t thread;
};

__attribute__((noinline)) void spin(void)
{
	static __thread volatile unsigned long sink;
	unsigned long x = sink;
	for (unsigned long i = 0; i < 10000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

static void *work(void *arg)
{
	struct worker *w = arg;

	prctl(PR_SET_NAME, w->name);
	w->tid = gettid();
	pthread_barrier_wait(&named);
	pthread_barrier_wait(&go);
	do
		for (int i = 0; i < 8; i++)  /* the clock is a system call */
			spin();
	while (workload_cpu_seconds(CLOCK_THREAD_CPUTIME_ID) < seconds);
	workload_report(RUSAGE_THREAD);
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker workers[] = { { "fk-target", 0, 0 }, { "fk-decoy", 0, 0 } };

	if (argc > 1)
		seconds = atof(argv[1]);
	pthread_barrier_init(&named, NULL, 3);
	pthread_barrier_init(&go, NULL, 3);
	for (int i = 0; i < 2; i++)
		if (pthread_create(&workers[i].thread, NULL, work, &workers[i]) != 0) {
			fputs("fk-threads: cannot start a thread\n", stderr);
			return 1;
		}
	pthread_barrier_wait(&named);
	for (int i = 0; i < 2; i++)
		printf("%s %d\n", workers[i].name, (int)workers[i].tid);
	fflush(stdout);
	workload_ready();
	pthread_barrier_wait(&go);
	for (int i = 0; i < 2; i++)
		pthread_join(workers[i].thread, NULL);
	return 0;
}
