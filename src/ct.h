/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Constant-time validation hooks (ci/ct runs tests/test_ct.c under valgrind).
 *
 * The CT test marks every secret input (seed, the secret parts of sk, rnd) undefined with
 * valgrind's client requests; memcheck then reports every branch and every memory address
 * that depends on them. The library declassifies exactly what FIPS 204 lets be public,
 * at the point where it becomes public:
 *
 *   MLDSA_CT_PUBLIC(cond)        the value of cond (0 or 1), declared public: each signing
 *                                attempt's rejection decision, the validity of a secret
 *                                key (returned to the caller), the accept decisions of
 *                                the rejection samplers (independent of the kept values)
 *   MLDSA_CT_DECLASSIFY(p, len)  len bytes at p declared public: parts of the outputs
 *                                (rho of pk, the hint of an accepted signature)
 *
 * Both are plain expressions (no code at all) unless the library is compiled with
 * -DMLDSA_CT_TESTING (cmake -DMLDSA_CT_TESTING=ON), which needs <valgrind/memcheck.h>.
 *
 * MLDSA_CT_PLANTED_LEAK(secret): nothing, except in the deliberately leaky build of
 * `ci/ct --self-test` (-DMLDSA_CT_PLANT_LEAK), where it branches on a secret value and
 * indexes a table with it: that build must make the CT check fail. */
#ifndef MLDSA_CT_H
#define MLDSA_CT_H

#include <stdint.h>

#if defined(MLDSA_CT_TESTING)
#include <valgrind/memcheck.h>

#define MLDSA_CT_DECLASSIFY(p, len) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (len)))
/* GNU statement expression: the flag lives in memory for the client request. */
#define MLDSA_CT_PUBLIC(cond)                                \
  __extension__({                                            \
    int mldsa_ct_public_ = (cond) != 0;                      \
    MLDSA_CT_DECLASSIFY(&mldsa_ct_public_, sizeof(int));     \
    mldsa_ct_public_;                                        \
  })
#else
#define MLDSA_CT_DECLASSIFY(p, len) ((void)0)
#define MLDSA_CT_PUBLIC(cond) (cond)
#endif

#if defined(MLDSA_CT_PLANT_LEAK)
/* Test-only defect: a branch on a secret bit and a secret table index. */
static __attribute__((noinline, unused)) void mldsa_ct_planted_leak(int32_t secret) {
  static volatile uint8_t table[16];
  if (secret & 1) table[0] = 1;
  table[(uint32_t)secret & 15] = 2;
  (void)table[1];
}
#define MLDSA_CT_PLANTED_LEAK(secret) mldsa_ct_planted_leak(secret)
#else
#define MLDSA_CT_PLANTED_LEAK(secret) ((void)0)
#endif

#endif
