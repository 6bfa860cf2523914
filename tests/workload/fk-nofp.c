/* fk-nofp: a workload built the way Debian builds its packages, without
 * frame pointers (cc -O2 -fomit-frame-pointer), whose stacks are known:
 *
 *	fk-nofp SECONDS            main > top_level > mid_a > mid_b > leaf_hot
 *	fk-nofp SECONDS DEPTH      main > deep (DEPTH times) > leaf_hot
 *	fk-nofp 0 DEPTH ROUNDS     exactly ROUNDS rounds (bench/unwind.sh times them)
 *
 * Every call is followed by more work, so none becomes a tail call and
 * every frame is there to be unwound. */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline, noclone)) void leaf_hot(void)
{
	unsigned long x = sink;
	for (unsigned long i = 0; i < 20000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

__attribute__((noinline, noclone)) void mid_b(void)
{
	leaf_hot();
	sink += 1;
}

__attribute__((noinline, noclone)) void mid_a(void)
{
	mid_b();
	sink += 2;
}

__attribute__((noinline, noclone)) void top_level(void)
{
	mid_a();
	sink += 3;
}

/* About 128 bytes of stack per level, as real recursive code has. */
__attribute__((noinline, noclone)) void deep(int n)
{
	volatile char pad[96];
	pad[0] = (char)n;
	if (n > 1)
		deep(n - 1);
	else
		leaf_hot();
	sink += pad[0];
}

static double since(const struct timespec *start)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3.0;
	int depth = argc > 2 ? atoi(argv[2]) : 0;
	long rounds = argc > 3 ? atol(argv[3]) : 0;
	struct timespec start;

	for (long i = 0; i < rounds; i++) {
		if (depth > 0)
			deep(depth);
		else
			top_level();
	}
	if (rounds > 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		if (depth > 0)
			deep(depth);
		else
			top_level();
	} while (since(&start) < seconds);
	return 0;
}
