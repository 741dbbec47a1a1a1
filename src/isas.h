/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The list of arithmetic backends compiled into this build. Adding an ISA is one entry
 * here (and its generated kernels in asm_out/<isa>/). */
#ifndef MLDSA_ISAS_H
#define MLDSA_ISAS_H

#if defined(MLDSA_HAVE_ASM)
#define MLDSA_FOR_EACH_ASM_ISA(X) X(sse2) X(avx2) X(avx512)
#else
#define MLDSA_FOR_EACH_ASM_ISA(X)
#endif

/* Widest last is not required; dispatch picks by its own preference order. */
#define MLDSA_FOR_EACH_ISA(X) X(scalar) MLDSA_FOR_EACH_ASM_ISA(X)

#endif
