/* libFuzzer target: the dtrace reader (see reader_harness.h). */
#include "../../src/readers/dtrace.h"
#define FUZZ_READER dtrace_reader__read
#include "reader_harness.h"
