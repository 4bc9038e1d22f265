// The header is the whole target: libFuzzer defines the function.
