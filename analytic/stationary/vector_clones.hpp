#pragma once
// The matrix-free generator's hot loops, compiled for AVX-512 and AVX2 beside the baseline and
// chosen when the program loads, by the processor it runs on: a package built for any x86-64 still
// runs each loop at the width of the machine. Measured at K = 20 on two threads of an AVX-512 Xeon:
// 0.93 of the time of the AVX2 clones. Put on a function's first declaration (clang refuses it on a
// definition after a call), and call the function from its own file only, through a plain function
// there for the others: across files the two compilers part ways. g++ builds a resolver in the
// caller's file for clones that only the defining file has; clang's defining file exports the
// resolver as NAME.ifunc, which a caller that does not see the attribute never names. The link then
// fails, with unity batches too once the two files fall into different ones.
#if defined(__x86_64__)
#define CRAWLQ_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CRAWLQ_VECTOR_CLONES
#endif

// On a helper or lambda that a clone calls in its hot loop: a function the compiler keeps out of
// line is built for the baseline alone, whatever clone calls it.
#define CRAWLQ_INLINE_IN_CLONES __attribute__((always_inline))
