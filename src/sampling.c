/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SampleInBall (FIPS 204 Alg. 29), compiled once per parameter set. */
#include <string.h>

#include "ct.h"
#include "fips202.h"
#include "poly.h"
#include "util.h"

/* SampleInBall (Alg. 29): tau coefficients +-1 placed by a Fisher-Yates shuffle driven by
 * H(c~). c~ is secret for attempts that are rejected, so no address may depend on the
 * positions j: c is kept as two 256-bit masks (nonzero, negative) while it is built, and
 * the swap c[i] = c[j], c[j] = +-1 touches all four words of each under masks (a shift by
 * a secret count is constant time). Only the byte-rejection loop depends on the stream
 * (whether a byte exceeds i), as in every FIPS 204 implementation. */

/* 1 if x == 0, else 0, without a branch. */
static uint64_t is_zero(uint64_t x) { return ((x | (0 - x)) >> 63) ^ 1; }

void sample_in_ball(mldsa_poly *c, const uint8_t ctilde[MLDSA_CTILDEBYTES],
                    mldsa_permutation perm) {
  mldsa_keccak st;
  uint8_t buf[MLDSA_SHAKE256_RATE];
  uint64_t nonzero[MLDSA_N / 64] = {0}, negative[MLDSA_N / 64] = {0}, signs = 0;
  mldsa_shake256_init_with(&st, perm);
  mldsa_shake_absorb(&st, ctilde, MLDSA_CTILDEBYTES);
  mldsa_shake_finalize(&st);
  mldsa_shake_squeeze(&st, buf, sizeof buf);
  for (unsigned i = 0; i < 8; ++i) signs |= (uint64_t)buf[i] << (8 * i);
  unsigned pos = 8;
  for (unsigned i = MLDSA_N - MLDSA_TAU; i < MLDSA_N; ++i) {
    uint64_t j;
    do {
      if (pos == sizeof buf) {
        mldsa_shake_squeeze(&st, buf, sizeof buf);
        pos = 0;
      }
      j = buf[pos++];
    } while (MLDSA_CT_PUBLIC(j > i));
    uint64_t sign = signs & 1, old_nonzero = 0, old_negative = 0;
    for (uint64_t w = 0; w < MLDSA_N / 64; ++w) {
      uint64_t at_j = (1ULL << (j & 63)) & (0 - is_zero((j >> 6) ^ w));
      old_nonzero |= nonzero[w] & at_j;
      old_negative |= negative[w] & at_j;
      nonzero[w] |= at_j;
      negative[w] = (negative[w] & ~at_j) | ((0 - sign) & at_j);
    }
    /* c[i] (zero until now) = old c[j], unless j == i, when it keeps the new sign */
    uint64_t same = is_zero(i ^ j);
    uint64_t nz_i = same | (is_zero(old_nonzero) ^ 1);
    uint64_t neg_i = (same & sign) | ((same ^ 1) & (is_zero(old_negative) ^ 1));
    nonzero[i / 64] |= nz_i << (i % 64);
    negative[i / 64] = (negative[i / 64] & ~(1ULL << (i % 64))) | (neg_i << (i % 64));
    signs >>= 1;
  }
  /* c[k] = nonzero bit - 2 negative bit (negative implies nonzero), a word at a time */
  for (unsigned w = 0; w < MLDSA_N / 64; ++w) {
    uint64_t nz = nonzero[w], neg = negative[w];
    for (unsigned b = 0; b < 64; ++b, nz >>= 1, neg >>= 1)
      c->c[64 * w + b] = (int32_t)(nz & 1) - 2 * (int32_t)(neg & 1);
  }
  mldsa_zeroize(nonzero, sizeof nonzero);
  mldsa_zeroize(negative, sizeof negative);
  mldsa_zeroize(buf, sizeof buf);
  mldsa_zeroize(&st, sizeof st);
}
