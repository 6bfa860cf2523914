/* fk-offcpu: a workload whose off-CPU profile is known. Its main thread
 * (comm fk-offcpu) runs ROUNDS rounds (default 300, about 3 s) of
 *
 *   seventy()  sleeps 7 ms (nanosleep);
 *   thirty()   asks the second thread (comm fk-feeder) for a byte and reads
 *              it from a pipe, which feed() writes 3 ms later: the feeder
 *              wakes the main thread;
 *   brief()    sleeps 100 us, a short block for --min-block to leave out;
 *
 * so seventy() and thirty() share their blocked time about 70/30. It times
 * each block itself (CLOCK_MONOTONIC around the system call) and, with
 * FK_BLOCK_REPORT=F, appends to F one line per function (seventy, thirty,
 * brief):
 *
 *   NAME MICROSECONDS BLOCKS MICROSECONDS_IN_BLOCKS_OF_1MS_OR_MORE ..._5MS_OR_MORE
 *
 * (a loaded machine delays some wakeups: a brief() block can last 1 ms, a
 * thirty() one 5 ms). FK_STOP as in workload.h: the feeder is started,
 * blocked, before the process stops.
 *
 * The blocking system calls are made by an inline `syscall` instruction in
 * the function named for them (on x86-64), not through libc's wrappers: a
 * frame-pointer walk (record --off-cpu's) from inside a libc built without
 * frame pointers skips the wrapper's caller, which here is the point.
 * cc -O0 -fno-omit-frame-pointer -fno-inline -pthread -o fk-offcpu fk-offcpu.c */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>

#include "workload.h"

static int request[2], data[2];

static uint64_t now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

struct tally {
	const char *name;
	uint64_t us, blocks, us_1ms, us_5ms;
};

static struct tally seventy_t = { "seventy" }, thirty_t = { "thirty" }, brief_t = { "brief" };

static void count(struct tally *t, uint64_t us)
{
	t->us += us;
	t->blocks++;
	t->us_1ms += us >= 1000 ? us : 0;
	t->us_5ms += us >= 5000 ? us : 0;
}

/* Inlined, so that the system call is made in the function named for it. */
__attribute__((always_inline)) static inline void timed_sleep(struct tally *t, long ns)
{
	struct timespec wait = { 0, ns };
	uint64_t start = now_us();

	workload_syscall3(SYS_nanosleep, (long)&wait, 0, 0);
	count(t, now_us() - start);
}

__attribute__((noinline)) void seventy(void)
{
	timed_sleep(&seventy_t, 7000000);
}

__attribute__((noinline)) void thirty(void)
{
	char c = 1;

	if (write(request[1], &c, 1) != 1) {
		perror("fk-offcpu: request");
		exit(1);
	}
	uint64_t start = now_us();
	long n = workload_syscall3(SYS_read, data[0], (long)&c, 1);
	count(&thirty_t, now_us() - start);
	if (n != 1) {
		fprintf(stderr, "fk-offcpu: read: %s\n", strerror((int)-n));
		exit(1);
	}
}

__attribute__((noinline)) void brief(void)
{
	timed_sleep(&brief_t, 100000);
}

/* The feeder's side of thirty(): a byte 3 ms after each request. */
__attribute__((noinline)) void feed(void)
{
	struct timespec t = { 0, 3000000 };
	char c;

	if (read(request[0], &c, 1) != 1)
		exit(0);  /* the main thread is gone */
	nanosleep(&t, NULL);
	workload_syscall3(SYS_write, data[1], (long)&c, 1);
}

static void *feeder(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "fk-feeder");
	for (;;)
		feed();
	return NULL;
}

static void report(void)
{
	const char *path = getenv("FK_BLOCK_REPORT");
	const struct tally *all[] = { &seventy_t, &thirty_t, &brief_t };
	char text[512];
	int len = 0, fd;

	if (!path || !*path)
		return;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		len += snprintf(text + len, sizeof(text) - (size_t)len, "%s %llu %llu %llu %llu\n",
				all[i]->name, (unsigned long long)all[i]->us,
				(unsigned long long)all[i]->blocks,
				(unsigned long long)all[i]->us_1ms,
				(unsigned long long)all[i]->us_5ms);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0 || write(fd, text, (size_t)len) != len)
		perror(path);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 300;
	pthread_t thread;

	if (pipe(request) || pipe(data) || pthread_create(&thread, NULL, feeder, NULL)) {
		perror("fk-offcpu");
		return 1;
	}
	workload_ready();
	for (long i = 0; i < rounds; i++) {
		seventy();
		thirty();
		brief();
	}
	report();
	return 0;
}
