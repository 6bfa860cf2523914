/* fk-syscall: a workload with real kernel stacks, for -U, -K and -d. Each
 * round computes in user space in in_user() and reads 64 KiB of /dev/zero
 * in in_kernel(), where the kernel clears the buffer: about half of its CPU
 * time is system time. Runs for SECONDS seconds of CPU time (default 1);
 * FK_STOP and FK_CPU_REPORT as in workload.h.
 * cc -O0 -fno-omit-frame-pointer -fno-inline -o fk-syscall fk-syscall.c */
#include "workload.h"

static volatile unsigned long sink;
static char buffer[64 * 1024];

__attribute__((noinline)) void in_user(void)
{
	unsigned long x = sink;
	for (unsigned long i = 0; i < 600; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

__attribute__((noinline)) void in_kernel(int fd)
{
	if (read(fd, buffer, sizeof buffer) != (ssize_t)sizeof buffer) {
		perror("fk-syscall: /dev/zero");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 1.0;
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		perror("fk-syscall: /dev/zero");
		return 1;
	}
	workload_ready();
	do
		for (int i = 0; i < 32; i++) {  /* the clock is a system call too */
			in_user();
			in_kernel(fd);
		}
	while (workload_cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) < seconds);
	workload_report(RUSAGE_SELF);
	return 0;
}
