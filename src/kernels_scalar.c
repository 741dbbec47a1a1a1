/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The scalar arithmetic kernels: the portable reference every generated kernel is tested
 * against, and the backend on CPUs without one. Contracts in kernels.h. */
#include <stddef.h>
#include <stdint.h>

#include "scalar/zetas.h"
#include "ct.h"
#include "kernels.h"

/* a * 2^-32 mod q in (-q, q), for |a| < 2^31 q. */
static int32_t montgomery_reduce(int64_t a) {
  int32_t m = (int32_t)((uint64_t)(int32_t)a * (uint64_t)MLDSA_QINV);
  return (int32_t)((a - (int64_t)m * MLDSA_Q) >> 32);
}

/* Cooley-Tukey, layers of length 128 down to 1 (FIPS 204 Alg. 41). Each layer adds less
 * than q to the bound, so |a| < q becomes |a| < 9q. */
void mldsa_ntt_scalar(int32_t a[MLDSA_N]) {
  unsigned k = 0;
  /* layer l has 2^l blocks of 2 len = 256 >> l coefficients (no division anywhere) */
  for (unsigned layer = 0; layer < 8; ++layer) {
    unsigned len = 128u >> layer;
    for (unsigned block = 0; block < (1u << layer); ++block) {
      unsigned start = 2 * len * block;
      int32_t zeta = mldsa_zetas[++k];
      for (unsigned j = start; j < start + len; ++j) {
        int32_t t = montgomery_reduce((int64_t)zeta * a[j + len]);
        a[j + len] = a[j] - t;
        a[j] = a[j] + t;
      }
    }
  }
}

/* Gentleman-Sande, layers of length 1 up to 128 (FIPS 204 Alg. 42). Sums grow to at most
 * 256q < 2^31 before the final Montgomery product by 2^64/256 brings them below q. */
void mldsa_invntt_tomont_scalar(int32_t a[MLDSA_N]) {
  unsigned k = MLDSA_N;
  for (unsigned layer = 8; layer-- > 0;) {
    unsigned len = 128u >> layer;
    for (unsigned block = 0; block < (1u << layer); ++block) {
      unsigned start = 2 * len * block;
      int32_t zeta = -mldsa_zetas[--k];
      for (unsigned j = start; j < start + len; ++j) {
        int32_t t = a[j];
        a[j] = t + a[j + len];
        a[j + len] = montgomery_reduce((int64_t)zeta * (t - a[j + len]));
      }
    }
  }
  for (unsigned j = 0; j < MLDSA_N; ++j)
    a[j] = montgomery_reduce((int64_t)MLDSA_INVNTT_SCALE * a[j]);
}

/* The scalar NTT keeps the standard order. */
void mldsa_ntt_reorder_scalar(int32_t a[MLDSA_N]) { (void)a; }

void mldsa_pointwise_montgomery_scalar(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],
                                       const int32_t b[MLDSA_N]) {
  for (unsigned i = 0; i < MLDSA_N; ++i) c[i] = montgomery_reduce((int64_t)a[i] * b[i]);
}

/* Products reduced one by one, then summed: |c| < len*q. */
void mldsa_pointwise_acc_scalar(int32_t c[MLDSA_N], const int32_t *a, const int32_t *b,
                                unsigned len) {
  for (unsigned i = 0; i < MLDSA_N; ++i) {
    int32_t acc = 0;
    for (unsigned j = 0; j < len; ++j)
      acc += montgomery_reduce((int64_t)a[j * MLDSA_N + i] * b[j * MLDSA_N + i]);
    c[i] = acc;
  }
}

void mldsa_add_scalar(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],
                      const int32_t b[MLDSA_N]) {
  for (unsigned i = 0; i < MLDSA_N; ++i) c[i] = a[i] + b[i];
}

void mldsa_sub_scalar(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],
                      const int32_t b[MLDSA_N]) {
  for (unsigned i = 0; i < MLDSA_N; ++i) c[i] = a[i] - b[i];
}

void mldsa_reduce32_scalar(int32_t a[MLDSA_N]) {
  for (unsigned i = 0; i < MLDSA_N; ++i) {
    int32_t t = (a[i] + (1 << 22)) >> 23;
    a[i] -= t * MLDSA_Q;
  }
}

void mldsa_caddq_scalar(int32_t a[MLDSA_N]) {
  for (unsigned i = 0; i < MLDSA_N; ++i) a[i] += (a[i] >> 31) & MLDSA_Q;
}

void mldsa_shiftl_scalar(int32_t a[MLDSA_N]) {
  for (unsigned i = 0; i < MLDSA_N; ++i) a[i] = (int32_t)((uint32_t)a[i] << MLDSA_D);
}

void mldsa_power2round_scalar(int32_t a1[MLDSA_N], int32_t a0[MLDSA_N],
                              const int32_t a[MLDSA_N]) {
  for (unsigned i = 0; i < MLDSA_N; ++i) {
    int32_t hi = (a[i] + (1 << (MLDSA_D - 1)) - 1) >> MLDSA_D;
    a0[i] = a[i] - (hi << MLDSA_D);
    a1[i] = hi;
  }
}

/* HighBits without division (a udiv here leaked timing elsewhere, CVE-2026-22705):
 * ceil(a / 128) then a multiply-and-shift that equals floor(x / (2 gamma2 / 128) + 1/2)
 * for every x = ceil(a/128), a in [0, q). The last interval wraps to a1 = 0. */
static int32_t highbits_g88(int32_t a) {
  int32_t a1 = (a + 127) >> 7;
  a1 = (a1 * 11275 + (1 << 23)) >> 24;
  a1 ^= ((43 - a1) >> 31) & a1;   /* a1 == 44 -> 0 */
  return a1;
}

static int32_t highbits_g32(int32_t a) {
  int32_t a1 = (a + 127) >> 7;
  a1 = (a1 * 1025 + (1 << 21)) >> 22;
  return a1 & 15;                 /* a1 == 16 -> 0 */
}

#define DEFINE_GAMMA2_KERNELS(g)                                                         \
  void mldsa_decompose_g##g##_scalar(int32_t a1[MLDSA_N], int32_t a0[MLDSA_N],           \
                                     const int32_t a[MLDSA_N]) {                         \
    const int32_t gamma2 = MLDSA_GAMMA2_##g;                                             \
    for (unsigned i = 0; i < MLDSA_N; ++i) {                                             \
      int32_t hi = highbits_g##g(a[i]);                                                  \
      int32_t lo = a[i] - hi * 2 * gamma2;                                               \
      lo -= (((MLDSA_Q - 1) / 2 - lo) >> 31) & MLDSA_Q; /* lo > (q-1)/2: lo - q */       \
      a1[i] = hi;                                                                        \
      a0[i] = lo;                                                                        \
    }                                                                                    \
  }                                                                                      \
                                                                                         \
  unsigned mldsa_make_hint_g##g##_scalar(int32_t h[MLDSA_N], const int32_t a0[MLDSA_N],  \
                                         const int32_t a1[MLDSA_N]) {                    \
    const int32_t gamma2 = MLDSA_GAMMA2_##g;                                             \
    unsigned count = 0;                                                                  \
    for (unsigned i = 0; i < MLDSA_N; ++i) {                                             \
      uint32_t above = (uint32_t)(gamma2 - a0[i]) >> 31;                                 \
      uint32_t below = (uint32_t)(a0[i] + gamma2) >> 31;                                 \
      uint32_t at_neg = (uint32_t)((a0[i] + gamma2) | -(a0[i] + gamma2)) >> 31 ^ 1;      \
      uint32_t a1_nonzero = (uint32_t)(a1[i] | -a1[i]) >> 31;                            \
      uint32_t bit = above | below | (at_neg & a1_nonzero);                              \
      h[i] = (int32_t)bit;                                                               \
      count += bit;                                                                      \
    }                                                                                    \
    return count;                                                                        \
  }                                                                                      \
                                                                                         \
  void mldsa_use_hint_g##g##_scalar(int32_t b[MLDSA_N], const int32_t a[MLDSA_N],        \
                                    const int32_t h[MLDSA_N]) {                          \
    const int32_t m = (MLDSA_Q - 1) / (2 * MLDSA_GAMMA2_##g);                            \
    int32_t hi[MLDSA_N], lo[MLDSA_N];                                                    \
    mldsa_decompose_g##g##_scalar(hi, lo, a);                                            \
    for (unsigned i = 0; i < MLDSA_N; ++i) {                                             \
      /* h = 1: a1 + 1 if a0 > 0, else a1 - 1, both mod m */                             \
      int32_t up = -(int32_t)((uint32_t)-lo[i] >> 31); /* a0 > 0: all ones */            \
      int32_t step = ((up & 2) - 1) & -h[i];           /* +1, -1 or 0 */                 \
      int32_t r = hi[i] + step;                                                          \
      r += (r >> 31) & m;                              /* -1 -> m - 1 */                 \
      r -= ((m - 1 - r) >> 31) & m;                    /* m -> 0 */                      \
      b[i] = r;                                                                          \
    }                                                                                    \
  }

DEFINE_GAMMA2_KERNELS(88)
DEFINE_GAMMA2_KERNELS(32)

int mldsa_chknorm_scalar(const int32_t a[MLDSA_N], int32_t bound) {
  uint32_t over = 0;
  for (unsigned i = 0; i < MLDSA_N; ++i) {
    int32_t sign = a[i] >> 31;
    int32_t abs = (a[i] ^ sign) - sign;
    over |= (uint32_t)(bound - 1 - abs) >> 31;   /* abs >= bound */
  }
  return (int)over;
}

/* RejNTTPoly's inner loop: 23-bit candidates, kept when < q. rho is public, so the
 * rejection may branch. Returns the new count. */
unsigned mldsa_rej_uniform_scalar(int32_t *a, unsigned n, const uint8_t *buf, size_t len) {
  for (size_t i = 0; i + 3 <= len && n < MLDSA_N; i += 3) {
    uint32_t t = (buf[i] | (uint32_t)buf[i + 1] << 8 | (uint32_t)buf[i + 2] << 16) & 0x7FFFFF;
    if (t < MLDSA_Q) a[n++] = (int32_t)t;
  }
  return n;
}

/* RejBoundedPoly's inner loop: half-bytes kept when < 15 (eta 2, value 2 - b mod 5) or
 * < 9 (eta 4, value 4 - b). Which half-bytes are rejected says nothing about the kept
 * values, so the loop may depend on it (declared public for ci/ct, src/ct.h); the values
 * are computed without division. */
unsigned mldsa_rej_eta2_scalar(int32_t *a, unsigned n, const uint8_t *buf, size_t len) {
  for (size_t i = 0; i < 2 * len && n < MLDSA_N; ++i) {
    uint32_t b = (buf[i / 2] >> (4 * (i % 2))) & 15;
    if (MLDSA_CT_PUBLIC(b < 15)) a[n++] = 2 - (int32_t)(b - ((b * 205) >> 10) * 5); /* b mod 5 */
  }
  return n;
}

unsigned mldsa_rej_eta4_scalar(int32_t *a, unsigned n, const uint8_t *buf, size_t len) {
  for (size_t i = 0; i < 2 * len && n < MLDSA_N; ++i) {
    uint32_t b = (buf[i / 2] >> (4 * (i % 2))) & 15;
    if (MLDSA_CT_PUBLIC(b < 9)) a[n++] = 4 - (int32_t)b;
  }
  return n;
}
