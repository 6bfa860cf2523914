/* What the test workloads share (header only: each workload is one cc
 * command). A workload runs for an amount of CPU time, not of wall time, so
 * that a machine busy with other work still gives a profiler the same number
 * of samples of it, only later; and it can tell the tests how much CPU it
 * used, an account of its samples independent of the profiler:
 *
 *   FK_STOP=1         workload_ready() stops the process (SIGSTOP) once it
 *                     is set up: the test starts the profiler, waits until it
 *                     samples, then lets the workload run with SIGCONT, so
 *                     that every CPU second of the work is inside the recording
 *   FK_CPU_REPORT=F   workload_report() appends "NAME USER SYSTEM" to F: the
 *                     comm that samples of it carry, and its user and system
 *                     CPU seconds (getrusage)
 */
#ifndef FK_WORKLOAD_H
#define FK_WORKLOAD_H

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* A system call made by a `syscall` instruction inline in the calling
 * function (on x86-64), not by libc's wrapper: a frame-pointer walk (record
 * --off-cpu's, -e's) from inside a libc built without frame pointers skips
 * the wrapper's caller, and the tests look for that caller. */
#if defined(__x86_64__)
__attribute__((always_inline)) static inline long workload_syscall3(long n, long a, long b, long c)
{
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}
#else
#define workload_syscall3(n, a, b, c) syscall(n, a, b, c)
#endif

/* CPU seconds of CLOCK_PROCESS_CPUTIME_ID or CLOCK_THREAD_CPUTIME_ID. */
static double workload_cpu_seconds(clockid_t clock)
{
	struct timespec now;

	clock_gettime(clock, &now);
	return (double)now.tv_sec + now.tv_nsec / 1e9;
}

static void workload_ready(void)
{
	const char *stop = getenv("FK_STOP");

	if (stop && *stop)
		raise(SIGSTOP);
}

/* who: RUSAGE_SELF (the process) or RUSAGE_THREAD (the calling thread, named
 * by its own comm). One write with O_APPEND: lines of threads and processes
 * sharing F do not mix. */
static void workload_report(int who)
{
	const char *path = getenv("FK_CPU_REPORT");
	char name[17] = "", line[128];
	struct rusage usage;
	int fd, n;

	if (!path || !*path || getrusage(who, &usage) != 0)
		return;
	prctl(PR_GET_NAME, name);
	n = snprintf(line, sizeof line, "%s %ld.%06ld %ld.%06ld\n", name,
		     (long)usage.ru_utime.tv_sec, (long)usage.ru_utime.tv_usec,
		     (long)usage.ru_stime.tv_sec, (long)usage.ru_stime.tv_usec);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0 || write(fd, line, (size_t)n) != n)
		perror(path);
	if (fd >= 0)
		close(fd);
}

#endif
