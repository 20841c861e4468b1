#ifndef JUICE_FUZZ_CLIBFUZZER_H
#define JUICE_FUZZ_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt's libclang_rt.fuzzer, linked by -sanitize=fuzzer): parses the
/// command line and calls `callback` with each input.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
