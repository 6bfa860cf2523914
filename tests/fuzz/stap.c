/* libFuzzer target: the stap reader (see reader_harness.h). */
#include "../../src/readers/stap.h"
#define FUZZ_READER stap_reader__read
#include "reader_harness.h"
