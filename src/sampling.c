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
 * H(c~). c~ is secret for attempts that are rejected, so no address may depend on the
 * positions j: the swap c[i] = c[j], c[j] = +-1 visits every byte of c, eight at a time
 * (c is kept as 256 signed bytes in 32 words while it is built). Only the byte-rejection
 * loop depends on the stream (whether a byte exceeds i), as in every FIPS 204 code. */
#define BYTES_01 0x0101010101010101ULL
#define BYTES_7F 0x7F7F7F7F7F7F7F7FULL
#define BYTES_80 0x8080808080808080ULL

/* 0xFF in each byte of v that is zero, 0x00 elsewhere (exact, no carries across bytes). */
static uint64_t zero_bytes(uint64_t v) {
  uint64_t nonzero = (((v & BYTES_7F) + BYTES_7F) | v) & BYTES_80;
  return ((nonzero ^ BYTES_80) >> 7) * 0xFF;
}

void sample_in_ball(mldsa_poly *c, const uint8_t ctilde[MLDSA_CTILDEBYTES]) {
  mldsa_keccak st;
  uint8_t buf[MLDSA_SHAKE256_RATE];
  uint64_t word[MLDSA_N / 8] = {0}, signs = 0;
  mldsa_shake256_init(&st);
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
    } while (j > i);
    uint64_t s = (uint8_t)(1 - 2 * (int)(signs & 1)) * BYTES_01; /* +-1 in every byte */
    uint64_t old = 0;
    for (unsigned w = 0; w < MLDSA_N / 8; ++w) {
      /* byte b of `index` is its own position 8w + b */
      uint64_t index = (8 * (uint64_t)w) * BYTES_01 + 0x0706050403020100ULL;
      uint64_t at_j = zero_bytes(index ^ (j * BYTES_01));
      old |= word[w] & at_j;
      word[w] = (word[w] & ~at_j) | (s & at_j);
    }
    old |= old >> 32;
    old |= old >> 16;
    old |= old >> 8;
    /* c[i] = old c[j], unless j == i, when c[i] keeps the new sign */
    uint64_t same = zero_bytes((uint64_t)(i ^ j)) & 0xFF;
    uint64_t ci = ((s & same) | (old & ~same)) & 0xFF;
    word[i / 8] = (word[i / 8] & ~(0xFFULL << (8 * (i % 8)))) | (ci << (8 * (i % 8)));
    signs >>= 1;
  }
  for (unsigned k = 0; k < MLDSA_N; ++k) c->c[k] = (int8_t)(word[k / 8] >> (8 * (k % 8)));
  mldsa_zeroize(word, sizeof word);
  mldsa_zeroize(buf, sizeof buf);
  mldsa_zeroize(&st, sizeof st);
}
