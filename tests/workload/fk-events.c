/* fk-events: a workload whose events are known, for record -e. By its first
 * argument:
 *
 *   calls N      calls target() N times (from caller()): record -e u:...:target
 *                counts exactly N in caller;target
 *   getrandom N  makes N getrandom system calls from getrandom_loop() (not
 *                by libc, which a newer one answers from the vDSO):
 *                syscalls:sys_enter_getrandom fires N times
 *   pages N      maps N fresh pages (no huge pages) and writes one byte to
 *                each in touch_pages(): N page faults there
 *
 * then writes "NAME N" to FK_EVENT_REPORT (when set). FK_STOP as in
 * workload.h; FK_CALL_GAP_US=U sleeps U us after each call.
 * cc -O0 -fno-omit-frame-pointer -fno-inline -o fk-events fk-events.c */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "workload.h"

__attribute__((noinline)) int target(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) void caller(long n, long gap_us)
{
	volatile int sum = 0;

	for (long i = 0; i < n; i++) {
		sum += target((int)i);
		if (gap_us)
			usleep((useconds_t)gap_us);
	}
}

/* The system call from here, not from libc (see workload_syscall3()). */
__attribute__((noinline)) void getrandom_loop(long n)
{
	char byte;

	for (long i = 0; i < n; i++)
		if (workload_syscall3(SYS_getrandom, (long)&byte, 1, 0) != 1)
			exit(1);
}

__attribute__((noinline)) void touch_pages(volatile char *pages, long n, long page)
{
	for (long i = 0; i < n; i++)
		pages[i * page] = 1;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0, page = sysconf(_SC_PAGESIZE);
	char *pages = NULL;

	if (argc < 3 || n <= 0) {
		fprintf(stderr, "usage: fk-events calls|getrandom|pages N\n");
		return 2;
	}
	if (strcmp(argv[1], "pages") == 0) {
		pages = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (pages == MAP_FAILED || madvise(pages, (size_t)(n * page), MADV_NOHUGEPAGE) != 0) {
			perror("mmap");
			return 1;
		}
	}
	workload_ready();
	if (strcmp(argv[1], "calls") == 0)
		caller(n, getenv("FK_CALL_GAP_US") ? atol(getenv("FK_CALL_GAP_US")) : 0);
	else if (strcmp(argv[1], "getrandom") == 0)
		getrandom_loop(n);
	else if (pages)
		touch_pages(pages, n, page);
	else
		return 2;
	const char *path = getenv("FK_EVENT_REPORT");
	FILE *f = path && *path ? fopen(path, "a") : NULL;
	if (f) {
		fprintf(f, "%s %ld\n", argv[1], n);
		fclose(f);
	}
	return 0;
}
