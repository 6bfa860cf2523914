/* fk-varied: a workload whose stacks change as it runs, built without
 * frame pointers (cc -O2 -fomit-frame-pointer): 16384 distinct stacks, each
 * the path of a number's 14 bits from main down to leaf_spin,
 *
 *	main > path > (go_left | go_right) > path > ... > leaf_spin
 *
 * taken in turn for about 0.2 ms each, so that a second of it meets some
 * thousands of stacks that the second before did not (a profiler that keeps
 * every stack it ever met fills up; one that keeps a window's does not).
 *
 *	fk-varied SECONDS
 */
#include <stdlib.h>
#include <time.h>

#define LEVELS 14

static volatile unsigned long sink;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

__attribute__((noinline, noclone)) void leaf_spin(void)
{
	unsigned long x = sink;
	for (unsigned long i = 0; i < 60000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

void path(unsigned bits, int level);

__attribute__((noinline, noclone)) void go_left(unsigned bits, int level)
{
	path(bits, level + 1);
	sink += 1;
}

__attribute__((noinline, noclone)) void go_right(unsigned bits, int level)
{
	path(bits, level + 1);
	sink += 2;
}

__attribute__((noinline, noclone)) void path(unsigned bits, int level)
{
	if (level == LEVELS)
		leaf_spin();
	else if (bits >> level & 1)
		go_right(bits, level);
	else
		go_left(bits, level);
	sink += 3;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 5, end = now() + seconds;
	for (unsigned n = 0; now() < end; n++)
		path(n % (1u << LEVELS), 0);
	return 0;
}
