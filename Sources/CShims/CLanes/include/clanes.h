#ifndef CLANES_H
#define CLANES_H
/* Shuffles of four-lane float vectors for the contact rows (Dynamics), as the compiler's own
   vector shuffles on every CPU. Swift imports the type as SIMD4<Float>. No library, nothing of
   Linux: one header, so that regular and Embedded Swift see the same code. */
typedef float clanes_float4 __attribute__((ext_vector_type(4)));

/* (a0 b0 a1 b1) */
static inline __attribute__((always_inline)) clanes_float4 clanes_interleave_low(clanes_float4 a, clanes_float4 b) {
    return __builtin_shufflevector(a, b, 0, 4, 1, 5);
}
/* (a2 b2 a3 b3) */
static inline __attribute__((always_inline)) clanes_float4 clanes_interleave_high(clanes_float4 a, clanes_float4 b) {
    return __builtin_shufflevector(a, b, 2, 6, 3, 7);
}
/* (a0 a1 b0 b1) */
static inline __attribute__((always_inline)) clanes_float4 clanes_low_halves(clanes_float4 a, clanes_float4 b) {
    return __builtin_shufflevector(a, b, 0, 1, 4, 5);
}
/* (a2 a3 b2 b3) */
static inline __attribute__((always_inline)) clanes_float4 clanes_high_halves(clanes_float4 a, clanes_float4 b) {
    return __builtin_shufflevector(a, b, 2, 3, 6, 7);
}
#endif
