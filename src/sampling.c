/* The samplers of FIPS 204 (Alg. 29-34), compiled once per parameter set. */
#include <string.h>

#include "fips202.h"
#include "poly.h"
#include "util.h"

/* RejNTTPoly (Alg. 30): 23-bit little-endian candidates from SHAKE128, kept when < q.
 * The input (rho) is public, so the rejection may branch. */
static void rej_ntt_poly(mldsa_poly *a, const uint8_t seed[MLDSA_SEEDBYTES + 2]) {
  mldsa_keccak st;
  uint8_t buf[MLDSA_SHAKE128_RATE];
  unsigned n = 0;
  mldsa_shake128_init(&st);
  mldsa_shake_absorb(&st, seed, MLDSA_SEEDBYTES + 2);
  mldsa_shake_finalize(&st);
  while (n < MLDSA_N) {
    mldsa_shake_squeeze(&st, buf, sizeof buf);
    for (unsigned i = 0; i + 3 <= sizeof buf && n < MLDSA_N; i += 3) {
      uint32_t t = (buf[i] | (uint32_t)buf[i + 1] << 8 | (uint32_t)buf[i + 2] << 16) & 0x7FFFFF;
      if (t < MLDSA_Q) a->c[n++] = (int32_t)t;
    }
  }
}

void expand_a(mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES]) {
  uint8_t seed[MLDSA_SEEDBYTES + 2];
  memcpy(seed, rho, MLDSA_SEEDBYTES);
  for (unsigned i = 0; i < MLDSA_K; ++i)
    for (unsigned j = 0; j < MLDSA_L; ++j) {
      seed[MLDSA_SEEDBYTES] = (uint8_t)j;
      seed[MLDSA_SEEDBYTES + 1] = (uint8_t)i;
      rej_ntt_poly(&a->row[i].v[j], seed);
    }
}

/* RejBoundedPoly (Alg. 31): half-bytes from SHAKE256, kept when < 15 (eta 2, value
 * 2 - b mod 5) or < 9 (eta 4, value 4 - b). Which half-bytes are rejected says nothing
 * about the kept values, so the loop may depend on it; the values themselves are
 * computed without division or table look-up. */
static void rej_bounded_poly(mldsa_poly *a, const uint8_t seed[MLDSA_CRHBYTES + 2]) {
  mldsa_keccak st;
  uint8_t buf[MLDSA_SHAKE256_RATE];
  unsigned n = 0;
  mldsa_shake256_init(&st);
  mldsa_shake_absorb(&st, seed, MLDSA_CRHBYTES + 2);
  mldsa_shake_finalize(&st);
  while (n < MLDSA_N) {
    mldsa_shake_squeeze(&st, buf, sizeof buf);
    for (unsigned i = 0; i < 2 * sizeof buf && n < MLDSA_N; ++i) {
      uint32_t b = (buf[i / 2] >> (4 * (i % 2))) & 15;
#if MLDSA_ETA == 2
      if (b < 15) a->c[n++] = 2 - (int32_t)(b - ((b * 205) >> 10) * 5); /* b mod 5 */
#else
      if (b < 9) a->c[n++] = 4 - (int32_t)b;
#endif
    }
  }
  mldsa_zeroize(buf, sizeof buf);
  mldsa_zeroize(&st, sizeof st);
}

void expand_s(mldsa_polyvecl *s1, mldsa_polyveck *s2, const uint8_t rhoprime[MLDSA_CRHBYTES]) {
  uint8_t seed[MLDSA_CRHBYTES + 2];
  memcpy(seed, rhoprime, MLDSA_CRHBYTES);
  for (unsigned r = 0; r < MLDSA_L + MLDSA_K; ++r) {
    seed[MLDSA_CRHBYTES] = (uint8_t)r;
    seed[MLDSA_CRHBYTES + 1] = (uint8_t)(r >> 8);
    rej_bounded_poly(r < MLDSA_L ? &s1->v[r] : &s2->v[r - MLDSA_L], seed);
  }
  mldsa_zeroize(seed, sizeof seed);
}

/* ExpandMask (Alg. 34): y_r = gamma1 - BitUnpack(H(rho'' || kappa + r)). */
void expand_mask(mldsa_polyvecl *y, const uint8_t rhoprime[MLDSA_CRHBYTES], uint16_t kappa) {
  enum { BITS = MLDSA_GAMMA1 == (1 << 17) ? 18 : 20 };
  uint8_t seed[MLDSA_CRHBYTES + 2];
  uint8_t buf[MLDSA_POLYZ_PACKEDBYTES];
  memcpy(seed, rhoprime, MLDSA_CRHBYTES);
  for (unsigned r = 0; r < MLDSA_L; ++r) {
    uint16_t nonce = (uint16_t)(kappa + r);
    seed[MLDSA_CRHBYTES] = (uint8_t)nonce;
    seed[MLDSA_CRHBYTES + 1] = (uint8_t)(nonce >> 8);
    mldsa_shake256(buf, sizeof buf, seed, sizeof seed);
    uint64_t acc = 0;
    unsigned have = 0, pos = 0;
    for (unsigned i = 0; i < MLDSA_N; ++i) {
      while (have < BITS) {
        acc |= (uint64_t)buf[pos++] << have;
        have += 8;
      }
      y->v[r].c[i] = MLDSA_GAMMA1 - (int32_t)(acc & ((1u << BITS) - 1));
      acc >>= BITS;
      have -= BITS;
    }
  }
  mldsa_zeroize(seed, sizeof seed);
  mldsa_zeroize(buf, sizeof buf);
}

/* SampleInBall (Alg. 29): tau coefficients +-1 placed by a Fisher-Yates shuffle driven by
 * H(c~). The swap touches every position with masks, so no address depends on c~ (which
 * is secret for attempts that are rejected); the byte-rejection loop depends only on
 * whether a byte exceeds i, as in every implementation of FIPS 204. */
void sample_in_ball(mldsa_poly *c, const uint8_t ctilde[MLDSA_CTILDEBYTES]) {
  mldsa_keccak st;
  uint8_t buf[MLDSA_SHAKE256_RATE];
  uint64_t signs = 0;
  mldsa_shake256_init(&st);
  mldsa_shake_absorb(&st, ctilde, MLDSA_CTILDEBYTES);
  mldsa_shake_finalize(&st);
  mldsa_shake_squeeze(&st, buf, sizeof buf);
  for (unsigned i = 0; i < 8; ++i) signs |= (uint64_t)buf[i] << (8 * i);
  unsigned pos = 8;
  memset(c->c, 0, sizeof c->c);
  for (unsigned i = MLDSA_N - MLDSA_TAU; i < MLDSA_N; ++i) {
    uint32_t j;
    do {
      if (pos == sizeof buf) {
        mldsa_shake_squeeze(&st, buf, sizeof buf);
        pos = 0;
      }
      j = buf[pos++];
    } while (j > i);
    /* c[i] = c[j]; c[j] = (-1)^sign, for every k <= i under masks */
    int32_t s = 1 - 2 * (int32_t)(signs & 1);
    int32_t cj = 0;
    for (uint32_t k = 0; k <= i; ++k) {
      int32_t hit = -(int32_t)(((k ^ j) - 1) >> 31); /* k == j: all ones */
      cj |= c->c[k] & hit;
      c->c[k] = (c->c[k] & ~hit) | (s & hit);
    }
    /* when j == i the new value stays at i; otherwise c[i] gets the old c[j] */
    int32_t same = -(int32_t)(((i ^ j) - 1) >> 31);
    c->c[i] = (c->c[i] & same) | (cj & ~same);
    signs >>= 1;
  }
  mldsa_zeroize(buf, sizeof buf);
  mldsa_zeroize(&st, sizeof st);
}
