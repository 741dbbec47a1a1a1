/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Names in code compiled once per parameter set and ISA (MLDSA_MODE, MLDSA_ISA):
 * KERNEL(ntt) is mldsa_ntt_<isa> (KERNEL_FN where a constant is needed: KERNEL runs the
 * kernel probe of the test seams first), KERNEL_G2(decompose) this set's gamma2 variant, and
 * ENTRY(sign) this file's own mldsa<set>_sign_<isa>. */
#ifndef MLDSA_ISA_NAMES_H
#define MLDSA_ISA_NAMES_H

#include "params.h"
#include "seams.h"

#ifndef MLDSA_ISA
#error "compile with -DMLDSA_ISA=<isa>"
#endif

#define MLDSA_CAT3_(a, b, c) a##b##c
#define MLDSA_CAT3(a, b, c) MLDSA_CAT3_(a, b, c)
#define KERNEL_FN(name) MLDSA_CAT3(mldsa_, name, MLDSA_CAT3(_, MLDSA_ISA, ))
#ifdef MLDSA_TEST_SEAMS /* the probe of seams.h runs before every kernel call */
#define KERNEL(name) (MLDSA_SEAM_PROBE(), KERNEL_FN(name))
#else
#define KERNEL(name) KERNEL_FN(name)
#endif
#if MLDSA_GAMMA2 == MLDSA_GAMMA2_88
#define KERNEL_G2(name) KERNEL(MLDSA_CAT3(name, _g88, ))
#else
#define KERNEL_G2(name) KERNEL(MLDSA_CAT3(name, _g32, ))
#endif
#if MLDSA_GAMMA1 == (1 << 17)
#define KERNEL_G1(name) KERNEL(MLDSA_CAT3(name, _g17, ))
#else
#define KERNEL_G1(name) KERNEL(MLDSA_CAT3(name, _g19, ))
#endif
#define ENTRY(name) MLDSA_NS(MLDSA_CAT3(name, _, MLDSA_ISA))

#endif
