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
 * the swap c[i] = c[j], c[j] = +-1 reads and writes all four words of each under a
 * one-hot mask of j (a shift by a secret count is constant time); i is public. Only the
 * byte-rejection loop depends on the stream (whether a byte exceeds i), as in every
 * FIPS 204 implementation. */

#define WORDS (MLDSA_N / 64)

/* All ones if w == x, else 0, for w, x in [0, WORDS), without a branch. */
static uint64_t word_is(uint64_t w, uint64_t x) { return 0 - (((w ^ x) - 1) >> 63); }

/* The low bit of each byte of the result is bit m of b, for byte m (m = 0..7). */
static uint64_t spread_bits(uint64_t b) {
  uint64_t x = (b * UINT64_C(0x0101010101010101)) & UINT64_C(0x8040201008040201);
  return ((x + UINT64_C(0x7f7f7f7f7f7f7f7f)) >> 7) & UINT64_C(0x0101010101010101);
}

/* SampleInBall from the stream's first block, in buf (wiped here), with *st the sponge
 * that squeezed it (for the rare c~ that needs more bytes). */
static void sample_in_ball_core(mldsa_poly *c, mldsa_keccak *st, uint8_t buf[MLDSA_SHAKE256_RATE]) {
  uint64_t nonzero[WORDS] = {0}, negative[WORDS] = {0}, at_j[WORDS], signs = 0;
  for (unsigned i = 0; i < 8; ++i) signs |= (uint64_t)buf[i] << (8 * i);
  unsigned pos = 8;
  for (unsigned i = MLDSA_N - MLDSA_TAU; i < MLDSA_N; ++i) {
    uint64_t j;
    do {
      if (pos == MLDSA_SHAKE256_RATE) {
        mldsa_shake_squeeze(st, buf, MLDSA_SHAKE256_RATE);
        pos = 0;
      }
      j = buf[pos++];
    } while (MLDSA_CT_PUBLIC(j > i));
    const uint64_t bit_j = (uint64_t)1 << (j & 63), sign = signs & 1;
    uint64_t old_nonzero = 0, old_negative = 0;
    MLDSA_UNROLL /* with constant indices the eight words stay in registers */
    for (uint64_t w = 0; w < WORDS; ++w) { /* old c[j] */
      at_j[w] = bit_j & word_is(w, j >> 6);
      old_nonzero |= nonzero[w] & at_j[w];
      old_negative |= negative[w] & at_j[w];
    }
    /* c[i] (zero until now) = old c[j]; then c[j] = +-1, which when j == i is c[i] */
    nonzero[i / 64] |= ((old_nonzero >> (j & 63)) & 1) << (i % 64);
    negative[i / 64] |= ((old_negative >> (j & 63)) & 1) << (i % 64);
    MLDSA_UNROLL
    for (uint64_t w = 0; w < WORDS; ++w) {
      nonzero[w] |= at_j[w];
      negative[w] ^= (negative[w] ^ (0 - sign)) & at_j[w];
    }
    signs >>= 1;
  }
  /* c[k] = nonzero bit - 2 negative bit (negative implies nonzero), 8 at a time: each
   * byte of v is 0, 1 or 0xff (-1) */
  for (unsigned k = 0; k < MLDSA_N / 8; ++k) {
    const uint64_t nz = (nonzero[k / 8] >> (8 * (k % 8))) & 0xff;
    const uint64_t neg = (negative[k / 8] >> (8 * (k % 8))) & 0xff;
    const uint64_t v = spread_bits(nz) ^ (spread_bits(neg) * 0xfe);
    MLDSA_UNROLL
    for (unsigned m = 0; m < 8; ++m)
      c->c[8 * k + m] = (int32_t)(((v >> (8 * m)) & 0xff) ^ 0x80) - 0x80;
  }
  mldsa_zeroize(nonzero, sizeof nonzero);
  mldsa_zeroize(negative, sizeof negative);
  mldsa_zeroize(at_j, sizeof at_j);
  mldsa_zeroize(buf, MLDSA_SHAKE256_RATE);
}

/* The sponge H(c~) and its first block, in buf. */
static void first_block(mldsa_keccak *st, uint8_t buf[MLDSA_SHAKE256_RATE],
                        const uint8_t ctilde[MLDSA_CTILDEBYTES], mldsa_permutation perm) {
  mldsa_shake256_init_with(st, perm);
  mldsa_shake_absorb(st, ctilde, MLDSA_CTILDEBYTES);
  mldsa_shake_finalize(st);
  mldsa_shake_squeeze(st, buf, MLDSA_SHAKE256_RATE);
}

/* The same from lane `lane` of a w-way batched state after its first squeezing
 * permutation. */
static void lane_first_block(mldsa_keccak *st, uint8_t buf[MLDSA_SHAKE256_RATE],
                             const uint64_t *states, unsigned w, unsigned lane,
                             mldsa_permutation perm) {
  mldsa_shake256_init_with(st, perm);
  for (unsigned i = 0; i < 25; ++i) st->s[i] = states[i * w + lane];
  for (unsigned i = 0; i < MLDSA_SHAKE256_RATE / 8; ++i) mldsa_store64_le(buf + 8 * i, st->s[i]);
  st->pos = MLDSA_SHAKE256_RATE; /* the first block is in buf */
}

void sample_in_ball(mldsa_poly *c, const uint8_t ctilde[MLDSA_CTILDEBYTES],
                    mldsa_permutation perm) {
  mldsa_keccak st;
  uint8_t buf[MLDSA_SHAKE256_RATE];
  first_block(&st, buf, ctilde, perm);
  sample_in_ball_core(c, &st, buf);
  mldsa_zeroize(&st, sizeof st);
}

void sample_in_ball_lane(mldsa_poly *c, const uint64_t *states, unsigned w, unsigned lane,
                         mldsa_permutation perm) {
  mldsa_keccak st;
  uint8_t buf[MLDSA_SHAKE256_RATE];
  lane_first_block(&st, buf, states, w, lane, perm);
  sample_in_ball_core(c, &st, buf);
  mldsa_zeroize(&st, sizeof st);
}

/* The plain Fisher-Yates shuffle for a public c~, from the stream's first block in buf,
 * with *st the sponge that squeezed it: addresses and branches follow the stream. */
static void sample_in_ball_public_core(int8_t c[MLDSA_N], mldsa_keccak *st,
                                       uint8_t buf[MLDSA_SHAKE256_RATE]) {
  uint64_t signs = 0;
  for (unsigned i = 0; i < 8; ++i) signs |= (uint64_t)buf[i] << (8 * i);
  memset(c, 0, MLDSA_N);
  unsigned pos = 8;
  for (unsigned i = MLDSA_N - MLDSA_TAU; i < MLDSA_N; ++i) {
    unsigned j;
    do {
      if (pos == MLDSA_SHAKE256_RATE) {
        mldsa_shake_squeeze(st, buf, MLDSA_SHAKE256_RATE);
        pos = 0;
      }
      j = buf[pos++];
    } while (j > i);
    c[i] = c[j];
    c[j] = (int8_t)(1 - 2 * (int)(signs & 1));
    signs >>= 1;
  }
}

void sample_in_ball_public(mldsa_poly *c, const uint8_t ctilde[MLDSA_CTILDEBYTES],
                           mldsa_permutation perm) {
  mldsa_keccak st;
  uint8_t buf[MLDSA_SHAKE256_RATE];
  int8_t small[MLDSA_N];
  first_block(&st, buf, ctilde, perm);
  sample_in_ball_public_core(small, &st, buf);
  for (unsigned i = 0; i < MLDSA_N; ++i) c->c[i] = small[i];
}

void sample_in_ball_public_lane(int8_t c[MLDSA_N], const uint64_t *states, unsigned w,
                                unsigned lane, mldsa_permutation perm) {
  mldsa_keccak st;
  uint8_t buf[MLDSA_SHAKE256_RATE];
  lane_first_block(&st, buf, states, w, lane, perm);
  sample_in_ball_public_core(c, &st, buf);
}
