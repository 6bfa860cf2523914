/* libFuzzer target: the perf report -g folded reader (see reader_harness.h). */
#include "../../src/readers/perf_folded.h"
#define FUZZ_READER perf_folded_reader__read
#include "reader_harness.h"
