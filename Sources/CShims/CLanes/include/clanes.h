#ifndef CLANES_H
#define CLANES_H
/* Four-lane shuffles as the compiler's own vector shuffles (Swift imports the type as
   SIMD4<Float>). */
typedef float clanes_float4 __attribute__((ext_vector_type(4)));

static inline __attribute__((always_inline)) clanes_float4 clanes_interleave_low(clanes_float4 a, clanes_float4 b) {
    return __builtin_shufflevector(a, b, 0, 4, 1, 5);
}
static inline __attribute__((always_inline)) clanes_float4 clanes_interleave_high(clanes_float4 a, clanes_float4 b) {
    return __builtin_shufflevector(a, b, 2, 6, 3, 7);
}
static inline __attribute__((always_inline)) clanes_float4 clanes_low_halves(clanes_float4 a, clanes_float4 b) {
    return __builtin_shufflevector(a, b, 0, 1, 4, 5);
}
static inline __attribute__((always_inline)) clanes_float4 clanes_high_halves(clanes_float4 a, clanes_float4 b) {
    return __builtin_shufflevector(a, b, 2, 3, 6, 7);
}
#endif
