/* libFuzzer target: the bpftrace reader (see reader_harness.h). */
#include "../../src/readers/bpftrace.h"
#define FUZZ_READER bpftrace_reader__read
#include "reader_harness.h"
