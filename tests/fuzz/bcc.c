/* libFuzzer target: the bcc profile report reader (see reader_harness.h). */
#include "../../src/readers/bcc.h"
#define FUZZ_READER bcc_reader__read
#include "reader_harness.h"
