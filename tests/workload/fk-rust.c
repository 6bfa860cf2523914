/* fk-rust: a C program whose functions carry real Rust symbol names (from
 * rustc 1.95's output, as in tests/data/rust-symbols.txt), so that a
 * profiler's demangling can be checked without a Rust compiler: main ->
 * std::rt::lang_start_internal (v0) -> main::main (v0) ->
 * hashbrown::raw::RawTable<T,A>::reserve_rehash (legacy, with an .llvm.
 * suffix), which spins for SECONDS of CPU time (default 1). FK_STOP and
 * FK_CPU_REPORT as in workload.h. Built with frame pointers:
 * cc -O0 -fno-omit-frame-pointer -fno-inline -o fk-rust fk-rust.c */
#include "workload.h"

static volatile unsigned long sink;
static double seconds = 1.0;

void spin(void) __asm__("_ZN9hashbrown3raw21RawTable$LT$T$C$A$GT$14reserve_rehash17hb27c1786578c1e3eE.llvm.7622059379534543479");
void rust_main(void) __asm__("_RNvCs32gj3y4fnmh_4main4main");
void lang_start_internal(void) __asm__("_RNvNtCsalM65ksrrJu_3std2rt19lang_start_internal");

__attribute__((noinline)) void spin(void)
{
	double start = workload_cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
	unsigned long x = sink;
	do
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005UL + 1442695040888963407UL;
	while (workload_cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - start < seconds);
	sink = x;
}

__attribute__((noinline)) void rust_main(void)
{
	spin();
}

__attribute__((noinline)) void lang_start_internal(void)
{
	rust_main();
}

int main(int argc, char **argv)
{
	if (argc > 1)
		seconds = atof(argv[1]);
	workload_ready();
	lang_start_internal();
	workload_report(RUSAGE_SELF);
	return 0;
}
