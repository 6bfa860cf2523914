/* A program with a known chain of inlined functions, for --inline tests:
 * outer (a real function) inlines middle, which inlines inner. The global
 * label in inner marks an address inside the innermost inlined code. */
static volatile int sink;

static inline __attribute__((always_inline)) int inner(int x)
{
	sink = x;
	__asm__ volatile(".globl fk_inner_marker\nfk_inner_marker:");
	sink = x + 1;
	return sink;
}

static inline __attribute__((always_inline)) int middle(int x)
{
	sink = x * 7;
	int r = inner(x) + 2;
	sink = r;
	return r;
}

__attribute__((noinline)) int outer(int x)
{
	sink = 1;
	int r = middle(x) * 5;
	sink = r;
	return r;
}

int main(int argc, char **argv)
{
	(void)argv;
	return outer(argc) & 1;
}
