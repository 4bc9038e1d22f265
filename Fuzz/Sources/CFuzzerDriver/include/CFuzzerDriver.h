// libFuzzer's entry for a program that has its own main (SwiftPM gives every executable
// one): runs the fuzzing loop with the command line's -flags and corpus folders.
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));
