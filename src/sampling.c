/* SampleInBall (FIPS 204 Alg. 29), compiled once per parameter set. */
#include <string.h>

#include "fips202.h"
#include "poly.h"
#include "util.h"

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
