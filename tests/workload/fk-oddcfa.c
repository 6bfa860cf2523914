/* fk-oddcfa: a workload whose user stacks the kernel's walk cannot take,
 * so that every sample of it goes down the copy path to user space:
 *
 *	fk-oddcfa SECONDS          main > through_rbx > leaf_spin, for SECONDS of CPU
 *
 * through_rbx is written by hand and keeps its CFA in rbx, a rule the
 * kernel's tables mark FALLBACK (they follow CFAs in rsp and rbp only).
 * perf's libunwind follows it; libdwfl (elfutils 0.188) stops after it.
 * Built with frame pointers (-fno-omit-frame-pointer), so that a
 * frame-pointer walk gets through leaf_spin too. x86-64 only. */
#include "workload.h"

static volatile unsigned long sink;

__attribute__((noinline, noclone, used)) void leaf_spin(void)
{
	unsigned long x = sink;
	for (unsigned long i = 0; i < 20000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

void through_rbx(void);
__asm__(".text\n"
	".globl through_rbx\n"
	".type through_rbx, @function\n"
	"through_rbx:\n"
	".cfi_startproc\n"
	"	push %rbx\n"
	".cfi_def_cfa_offset 16\n"
	".cfi_offset %rbx, -16\n"
	"	mov %rsp, %rbx\n"
	".cfi_def_cfa_register %rbx\n"
	"	sub $16, %rsp\n"
	"	call leaf_spin\n"
	"	mov %rbx, %rsp\n"
	".cfi_def_cfa_register %rsp\n"
	"	pop %rbx\n"
	".cfi_def_cfa_offset 8\n"
	"	ret\n"
	".cfi_endproc\n"
	".size through_rbx, .-through_rbx\n");

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3.0;

	workload_ready();
	do {
		through_rbx();
		sink += 1;
	} while (workload_cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) < seconds);
	workload_report(RUSAGE_SELF);
	return 0;
}
