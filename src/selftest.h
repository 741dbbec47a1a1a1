/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Self-tests (src/selftest.c): the known-answer tests of mldsa_selftest, and in a build
 * with MLDSA_SELFTEST (CMake option) the power-on run before the first operation, the
 * pairwise consistency test of every new key pair and the sticky failure state.
 *
 * Without MLDSA_SELFTEST the hooks below cost nothing: MLDSA_SELFTEST_REFUSED() is 0. */
#ifndef MLDSA_SELFTEST_H
#define MLDSA_SELFTEST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "backend.h"

#ifdef MLDSA_SELFTEST
/* Runs the known-answer tests once per process (the first caller runs them, the others
 * wait), then MLDSA_OK, or MLDSA_ERR_SELFTEST from then on when any self-test of this
 * process failed (the power-on run, an mldsa_selftest call, a pairwise test). */
int mldsa_selftest_ready(void);
/* The pairwise consistency test of a new key pair (FIPS 140-3 IG 10.3.A): a
 * deterministic signature of a fixed mu with sk, verified with pk. MLDSA_OK, or
 * MLDSA_ERR_SELFTEST, which is then sticky. */
int mldsa_selftest_pairwise(const mldsa_backend *b, const uint8_t *pk, const uint8_t *sk);
#define MLDSA_SELFTEST_REFUSED() (mldsa_selftest_ready() != MLDSA_OK)
#else
#define MLDSA_SELFTEST_REFUSED() 0
#endif

/* Keygen from a seed (api.c) with mldsa_keygen_from_seed's argument checks and codes but
 * without the pairwise test: the derivation of a key imported as its seed (keyformat.c),
 * which is no new key pair, and whose callers' frames leave no room for a signature. */
int mldsa_keygen_derive(mldsa_param p, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len,
                        const uint8_t seed[32]);

/* Zeroes an output of a call refused with MLDSA_ERR_SELFTEST: n bytes at p unless p is
 * NULL (every length the caller states is taken as its buffer's size). */
static inline void mldsa_selftest_zero(void *p, size_t n) {
  if (p != NULL && n != 0) memset(p, 0, n);
}

#endif
