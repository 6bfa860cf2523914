/* fk-dlopen: loads a library a while after it starts, as plugins are
 * loaded, and spends the rest of its time in it:
 *
 *	fk-dlopen LIBRARY SECONDS [DELAY [fork]]
 *
 * main > early_work for DELAY seconds (default 1), then dlopen(LIBRARY) and
 * main > late_hot (the library's) until SECONDS have passed. Built without
 * frame pointers; the library is built without -g (see fk-late.c).
 *
 * With "fork", after the dlopen it forks a child named fk-forked, which
 * forks a grandchild named fk-grandchild, none of them exec'ing: all three
 * run main > late_hot in the address space the parent had at the fork. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double since(const struct timespec *start)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

__attribute__((noinline, noclone)) void early_work(void)
{
	unsigned long x = sink;
	for (unsigned long i = 0; i < 20000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: fk-dlopen LIBRARY SECONDS [DELAY]\n");
		return 2;
	}
	double seconds = atof(argv[2]), delay = argc > 3 ? atof(argv[3]) : 1.0;
	struct timespec start;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (since(&start) < delay)
		early_work();
	void *lib = dlopen(argv[1], RTLD_NOW);
	void (*late_hot)(void) = lib ? (void (*)(void))dlsym(lib, "late_hot") : NULL;
	if (!late_hot) {
		fprintf(stderr, "fk-dlopen: %s\n", dlerror());
		return 1;
	}
	pid_t child = -1, grandchild = -1;
	if (argc > 4 && strcmp(argv[4], "fork") == 0) {
		child = fork();
		if (child == 0) {
			prctl(PR_SET_NAME, "fk-forked");
			grandchild = fork();
			if (grandchild == 0)
				prctl(PR_SET_NAME, "fk-grandchild");
		}
	}
	while (since(&start) < seconds) {
		late_hot();
		sink += 1;
	}
	if (grandchild > 0)
		waitpid(grandchild, NULL, 0);
	if (child > 0)
		waitpid(child, NULL, 0);
	return 0;
}
