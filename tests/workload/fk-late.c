/* The library fk-dlopen loads late: cc -O2 -fomit-frame-pointer -shared
 * -fPIC, no -g. late_hot > late_leaf, so a stack through it has a frame
 * that only the library's unwind table (.eh_frame) can step over. */
static volatile unsigned long sink;

__attribute__((noinline, noclone)) void late_leaf(void)
{
	unsigned long x = sink;
	for (unsigned long i = 0; i < 20000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

void late_hot(void)
{
	late_leaf();
	sink += 1;
}
