/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The list of arithmetic backends compiled into this build. Adding an ISA is one entry
 * here (and its generated kernels in asm_out/<isa>/). */
#ifndef MLDSA_ISAS_H
#define MLDSA_ISAS_H

/* The number of every ISA the project knows, fixed for all builds and releases: prepared
 * keys and mu states record it, so it must not depend on which ISAs a build compiles (a
 * position in the list below gave avx2 the number of sse2 in a scalar+avx2 build). 0 is
 * no ISA (zeroed memory). A new ISA takes the next number; none is ever renumbered. */
#define MLDSA_ISA_ID_NONE 0
#define MLDSA_ISA_ID_scalar 1
#define MLDSA_ISA_ID_sse2 2
#define MLDSA_ISA_ID_avx2 3
#define MLDSA_ISA_ID_avx512 4
#define MLDSA_ISA_ID_neon 5

/* The build defines MLDSA_HAVE_<ISA> for each assembly ISA it compiles (CMake option
 * MLDSA_ISAS), and MLDSA_HAVE_ASM when there is at least one. */
#if defined(MLDSA_HAVE_SSE2)
#define MLDSA_ISA_IF_SSE2(X) X(sse2)
#else
#define MLDSA_ISA_IF_SSE2(X)
#endif
#if defined(MLDSA_HAVE_AVX2)
#define MLDSA_ISA_IF_AVX2(X) X(avx2)
#else
#define MLDSA_ISA_IF_AVX2(X)
#endif
#if defined(MLDSA_HAVE_AVX512)
#define MLDSA_ISA_IF_AVX512(X) X(avx512)
#else
#define MLDSA_ISA_IF_AVX512(X)
#endif
#if defined(MLDSA_HAVE_NEON)
#define MLDSA_ISA_IF_NEON(X) X(neon)
#else
#define MLDSA_ISA_IF_NEON(X)
#endif
#define MLDSA_FOR_EACH_ASM_ISA(X) \
  MLDSA_ISA_IF_SSE2(X) MLDSA_ISA_IF_AVX2(X) MLDSA_ISA_IF_AVX512(X) MLDSA_ISA_IF_NEON(X)

/* Widest last is not required; dispatch picks by its own preference order. */
#define MLDSA_FOR_EACH_ISA(X) X(scalar) MLDSA_FOR_EACH_ASM_ISA(X)

#endif
