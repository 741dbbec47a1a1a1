/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Names in code compiled once per parameter set and ISA (MLDSA_MODE, MLDSA_ISA):
 * KERNEL(ntt) is mldsa_ntt_<isa>, KERNEL_G2(decompose) this set's gamma2 variant, and
 * ENTRY(sign) this file's own mldsa<set>_sign_<isa>. */
#ifndef MLDSA_ISA_NAMES_H
#define MLDSA_ISA_NAMES_H

#include "params.h"

#ifndef MLDSA_ISA
#error "compile with -DMLDSA_ISA=<isa>"
#endif

#define MLDSA_CAT3_(a, b, c) a##b##c
#define MLDSA_CAT3(a, b, c) MLDSA_CAT3_(a, b, c)
#define KERNEL(name) MLDSA_CAT3(mldsa_, name, MLDSA_CAT3(_, MLDSA_ISA, ))
#if MLDSA_GAMMA2 == MLDSA_GAMMA2_88
#define KERNEL_G2(name) KERNEL(MLDSA_CAT3(name, _g88, ))
#else
#define KERNEL_G2(name) KERNEL(MLDSA_CAT3(name, _g32, ))
#endif
#define ENTRY(name) MLDSA_NS(MLDSA_CAT3(name, _, MLDSA_ISA))

#endif
