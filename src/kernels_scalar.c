/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The scalar arithmetic kernels: the portable reference every generated kernel is tested
 * against, and the backend on CPUs without one. Contracts in kernels.h. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "scalar/zetas.h"
#include "ct.h"
#include "fips202.h"
#include "kernels.h"
#include "util.h"

/* q as a value the compiler cannot see through, for multiplications by q: GCC (12, x86-64)
 * otherwise turns m * q (q = 2^23 - 2^13 + 1) into six shifts, moves and subtractions,
 * where one multiply instruction is shorter and, in these multiply-bound loops, faster
 * (Clang emits the multiply either way). */
#if defined(__GNUC__)
#define Q_OPAQUE(var) \
  int64_t var = MLDSA_Q; \
  __asm__("" : "+r"(var))
#else
#define Q_OPAQUE(var) const int64_t var = MLDSA_Q
#endif

/* a * 2^-32 mod q in (-q, q), for |a| < 2^31 q; q is MLDSA_Q (see Q_OPAQUE). */
static inline int32_t montgomery_reduce_q(int64_t a, int64_t q) {
  int32_t m = (int32_t)((uint64_t)(int32_t)a * (uint64_t)MLDSA_QINV);
  return (int32_t)((a - (int64_t)m * q) >> 32);
}
#define montgomery_reduce(a) montgomery_reduce_q((a), q)

/* Both transforms run two layers per pass over the array (a radix-4 pass): four
 * coefficients are loaded, go through the butterflies of both layers in registers, and
 * are stored once, which halves the loads and stores of a layer-at-a-time loop. The
 * arithmetic, and so every output bit, is that of FIPS 204 Alg. 41 and 42 one layer
 * after the other. Layer l (0..7) has 2^l blocks of 2 len = 256 >> l coefficients;
 * block b of layer l uses zetas[2^l + b] (no division anywhere). */

/* Cooley-Tukey butterfly: (x, y) <- (x + zeta y, x - zeta y), zeta y in Montgomery form */
#define CT_BF(x, y, zeta)                                  \
  do {                                                     \
    int32_t t_ = montgomery_reduce((int64_t)(zeta) * (y)); \
    (y) = (x) - t_;                                        \
    (x) = (x) + t_;                                        \
  } while (0)

/* Gentleman-Sande butterfly: (x, y) <- (x + y, zeta (x - y)) */
#define GS_BF(x, y, zeta)                                      \
  do {                                                         \
    int32_t t_ = (x);                                          \
    (x) = t_ + (y);                                            \
    (y) = montgomery_reduce((int64_t)(zeta) * (t_ - (y)));     \
  } while (0)

/* Layers l and l + 1 of the forward transform. */
static inline void ntt_pass(int32_t a[MLDSA_N], unsigned l) {
  Q_OPAQUE(q);
  const unsigned len1 = 128u >> l, len2 = len1 >> 1;
  for (unsigned b = 0; b < (1u << l); ++b) {
    const unsigned start = 2 * len1 * b;
    const int32_t z1 = mldsa_zetas[(1u << l) + b];
    const int32_t z2a = mldsa_zetas[(2u << l) + 2 * b], z2b = mldsa_zetas[(2u << l) + 2 * b + 1];
    for (unsigned j = start; j < start + len2; ++j) {
      int32_t x0 = a[j], x1 = a[j + len2], x2 = a[j + len1], x3 = a[j + len1 + len2];
      CT_BF(x0, x2, z1);
      CT_BF(x1, x3, z1);
      CT_BF(x0, x1, z2a);
      CT_BF(x2, x3, z2b);
      a[j] = x0;
      a[j + len2] = x1;
      a[j + len1] = x2;
      a[j + len1 + len2] = x3;
    }
  }
}

/* Cooley-Tukey, layers of length 128 down to 1 (FIPS 204 Alg. 41). Each layer adds less
 * than q to the bound, so |a| < q becomes |a| < 9q. */
void mldsa_ntt_scalar(int32_t a[MLDSA_N]) {
  ntt_pass(a, 0);
  ntt_pass(a, 2);
  ntt_pass(a, 4);
  ntt_pass(a, 6);
}

/* Layers l + 1 and then l of the inverse transform: block b of layer l uses
 * -zetas[2^(l+1) - 1 - b] (the forward twiddles backwards). */
static inline void invntt_pass(int32_t a[MLDSA_N], unsigned l) {
  Q_OPAQUE(q);
  const unsigned len1 = 128u >> l, len2 = len1 >> 1;
  for (unsigned b = 0; b < (1u << l); ++b) {
    const unsigned start = 2 * len1 * b;
    const int32_t za = -mldsa_zetas[(4u << l) - 1 - 2 * b];
    const int32_t zb = -mldsa_zetas[(4u << l) - 2 - 2 * b];
    const int32_t zc = -mldsa_zetas[(2u << l) - 1 - b];
    for (unsigned j = start; j < start + len2; ++j) {
      int32_t x0 = a[j], x1 = a[j + len2], x2 = a[j + len1], x3 = a[j + len1 + len2];
      GS_BF(x0, x1, za);
      GS_BF(x2, x3, zb);
      GS_BF(x0, x2, zc);
      GS_BF(x1, x3, zc);
      a[j] = x0;
      a[j + len2] = x1;
      a[j + len1] = x2;
      a[j + len1 + len2] = x3;
    }
  }
}

/* Gentleman-Sande, layers of length 1 up to 128 (FIPS 204 Alg. 42). Sums grow to at most
 * 256q < 2^31 before the final Montgomery product by f = 2^64/256 brings them below q.
 * The last pass (layers 1 and 0) scales as it stores: the sums of layer 0 by f, its
 * differences by f times its twiddle (MLDSA_INVNTT_SCALE_ZETA) in one product; every
 * product is below 256q * q/2 < 2^31 q, so every output is below q. */
void mldsa_invntt_tomont_scalar(int32_t a[MLDSA_N]) {
  invntt_pass(a, 6);
  invntt_pass(a, 4);
  invntt_pass(a, 2);
  Q_OPAQUE(q);
  const int32_t za = -mldsa_zetas[3], zb = -mldsa_zetas[2];
  for (unsigned j = 0; j < 64; ++j) {
    int32_t x0 = a[j], x1 = a[j + 64], x2 = a[j + 128], x3 = a[j + 192];
    GS_BF(x0, x1, za);
    GS_BF(x2, x3, zb);
    a[j] = montgomery_reduce((int64_t)MLDSA_INVNTT_SCALE * (x0 + x2));
    a[j + 64] = montgomery_reduce((int64_t)MLDSA_INVNTT_SCALE * (x1 + x3));
    a[j + 128] = montgomery_reduce((int64_t)MLDSA_INVNTT_SCALE_ZETA * (x0 - x2));
    a[j + 192] = montgomery_reduce((int64_t)MLDSA_INVNTT_SCALE_ZETA * (x1 - x3));
  }
}

/* The scalar NTT keeps the standard order. */
void mldsa_ntt_reorder_scalar(int32_t a[MLDSA_N]) { (void)a; }

void mldsa_pointwise_montgomery_scalar(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],
                                       const int32_t b[MLDSA_N]) {
  Q_OPAQUE(q);
  for (unsigned i = 0; i < MLDSA_N; ++i) c[i] = montgomery_reduce((int64_t)a[i] * b[i]);
}

/* The len products summed exactly in 64 bits, then one Montgomery reduction: with
 * |a|, |b| < 9q and len <= 8 the sum is below 648 q^2 < 2^56, so a - m q is exact and
 * |c| < 648 q^2 / 2^32 + q/2 < 2q, inside the contract's len*q for len >= 2 (and below
 * q for len = 1, where the sum is below 81 q^2 < 2^31 q). */
#if defined(__GNUC__)
#define UNROLL_ACC _Pragma("GCC unroll 8")
#else
#define UNROLL_ACC
#endif
static inline void pointwise_acc_len(int32_t c[MLDSA_N], const int32_t *a, const int32_t *b,
                                     unsigned len) {
  Q_OPAQUE(q);
  for (unsigned i = 0; i < MLDSA_N; ++i) {
    int64_t acc = 0;
    UNROLL_ACC
    for (unsigned j = 0; j < len; ++j) acc += (int64_t)a[j * MLDSA_N + i] * b[j * MLDSA_N + i];
    c[i] = montgomery_reduce(acc);
  }
}

/* The lengths ML-DSA uses (L = 4, 5, 7) with the inner loop unrolled. */
void mldsa_pointwise_acc_scalar(int32_t c[MLDSA_N], const int32_t *a, const int32_t *b,
                                unsigned len) {
  switch (len) {
    case 4: pointwise_acc_len(c, a, b, 4); break;
    case 5: pointwise_acc_len(c, a, b, 5); break;
    case 7: pointwise_acc_len(c, a, b, 7); break;
    default: pointwise_acc_len(c, a, b, len); break;
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

/* z's and y's decoder (FIPS 204 Alg. 19): b = g + 1 bits per coefficient; a group of 8
 * fills b whole bytes; two coefficients (2 b <= 40 bits, from bit 2 b j of the group)
 * come from one 64-bit little-endian load, except the very last pair, which takes only
 * the bytes left in buf. */
static inline uint64_t load_le_bytes(const uint8_t *p, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = 0; i < n; ++i) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

#define DEFINE_UNPACK_Z(g)                                                              \
  void mldsa_unpack_z_g##g##_scalar(int32_t a[MLDSA_N], const uint8_t *buf) {           \
    const unsigned b = (g) + 1;                                                          \
    const uint64_t mask = ((uint64_t)1 << b) - 1;                                       \
    for (unsigned k = 0; k < MLDSA_N / 8; ++k) {                                        \
      const uint8_t *grp = buf + k * b;                                                  \
      MLDSA_UNROLL                                                                       \
      for (unsigned j = 0; j < 4; ++j) {                                                \
        const unsigned bit = 2 * b * j;                                                  \
        uint64_t x = k + 1 < MLDSA_N / 8 || j < 3                                        \
                         ? mldsa_load64_le(grp + bit / 8)                                \
                         : load_le_bytes(grp + bit / 8, b - bit / 8);                    \
        x >>= bit % 8;                                                                   \
        a[8 * k + 2 * j] = ((int32_t)1 << (g)) - (int32_t)(x & mask);                    \
        a[8 * k + 2 * j + 1] = ((int32_t)1 << (g)) - (int32_t)((x >> b) & mask);         \
      }                                                                                  \
    }                                                                                    \
  }

DEFINE_UNPACK_Z(17)
DEFINE_UNPACK_Z(19)

/* w1's encoder (FIPS 204 Alg. 28, SimpleBitPack): 8 coefficients of b bits (b = 6 or 4)
 * fill b whole bytes, built in one 64-bit accumulator. */
#define DEFINE_PACK_W1(tag, b)                                                          \
  void mldsa_pack_w1_##tag##_scalar(uint8_t *out, const int32_t a[MLDSA_N]) {           \
    for (unsigned k = 0; k < MLDSA_N / 8; ++k) {                                        \
      uint64_t v = 0;                                                                    \
      uint8_t le[8];                                                                     \
      MLDSA_UNROLL                                                                       \
      for (unsigned j = 0; j < 8; ++j) v |= (uint64_t)(uint32_t)a[8 * k + j] << ((b) * j); \
      mldsa_store64_le(le, v);                                                           \
      memcpy(out + (b) * k, le, (b));                                                    \
    }                                                                                    \
  }

DEFINE_PACK_W1(g88, 6)
DEFINE_PACK_W1(g32, 4)

/* z's encoder (FIPS 204 Alg. 17): the fields gamma1 - z of b = g + 1 bits; a group of 4
 * coefficients (4 b bits) is b / 2 whole bytes: the first 64 bits from one accumulator,
 * the last b / 2 - 8 bytes (1 or 2) from the bits of the fourth field that spill past it. */
#define DEFINE_PACK_Z(g)                                                                \
  void mldsa_pack_z_g##g##_scalar(uint8_t *out, const int32_t z[MLDSA_N]) {             \
    enum { b = (g) + 1 };                                                                \
    for (unsigned k = 0; k < MLDSA_N / 4; ++k) {                                        \
      uint64_t v[4];                                                                     \
      MLDSA_UNROLL                                                                       \
      for (unsigned j = 0; j < 4; ++j)                                                   \
        v[j] = (uint32_t)(((int32_t)1 << (g)) - z[4 * k + j]);                           \
      uint64_t lo = v[0] | v[1] << b | v[2] << 2 * b | v[3] << 3 * b;                    \
      uint64_t hi = v[3] >> (64 - 3 * b);                                                \
      mldsa_store64_le(out + b / 2 * k, lo);                                             \
      for (unsigned i = 0; i < b / 2 - 8; ++i) out[b / 2 * k + 8 + i] = (uint8_t)(hi >> (8 * i)); \
    }                                                                                    \
  }

DEFINE_PACK_Z(17)
DEFINE_PACK_Z(19)

/* Four bytes of buf, little-endian, in one load where the compiler can. */
static inline uint32_t load32_le(const uint8_t *p) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
#else
  return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
}

/* RejNTTPoly's inner loop: 23-bit candidates, kept when < q. rho is public, so the
 * rejection may branch (the loops after the first do: almost every candidate is kept, so
 * the branch is predicted). Candidates are read four bytes at a time while a fourth byte
 * is in buf, the last one bytewise. Returns the new count. */
unsigned mldsa_rej_uniform_scalar(int32_t *a, unsigned n, const uint8_t *buf, size_t len) {
  size_t i = 0;
  /* eight candidates at a time while eight more fit in a: each is stored at a[n] and n
   * advances when it is kept, with no branch */
  for (; i + 24 + 1 <= len && n + 8 <= MLDSA_N; i += 24) {
    for (unsigned k = 0; k < 8; ++k) {
      uint32_t t = load32_le(buf + i + 3 * k) & 0x7FFFFF;
      a[n] = (int32_t)t;
      n += t < MLDSA_Q;
    }
  }
  if (n >= MLDSA_N) return n;
  for (; i + 4 <= len; i += 3) {
    uint32_t t = load32_le(buf + i) & 0x7FFFFF;
    if (t < MLDSA_Q) {
      a[n++] = (int32_t)t;
      if (n == MLDSA_N) return n;
    }
  }
  for (; i + 3 <= len && n < MLDSA_N; i += 3) {
    uint32_t t = (buf[i] | (uint32_t)buf[i + 1] << 8 | (uint32_t)buf[i + 2] << 16) & 0x7FFFFF;
    if (t < MLDSA_Q) a[n++] = (int32_t)t;
  }
  return n;
}

/* RejBoundedPoly's inner loop: half-bytes kept when < 15 (eta 2, value 2 - b mod 5) or
 * < 9 (eta 4, value 4 - b). Which half-bytes are rejected says nothing about the kept
 * values, so the count may depend on it (declared public for ci/ct, src/ct.h); the
 * values are computed without division, and written to a[n] whether kept or not (as
 * in rej_uniform), so no branch and no address depends on them. A byte at a time: its
 * low half-byte, then its high one while a is not full. */
#define REJ_ETA_LOOP(value_of, keep)                                    \
  for (size_t i = 0; i < len && n < MLDSA_N; ++i) {                     \
    uint32_t lo = buf[i] & 15, hi = buf[i] >> 4;                        \
    a[n] = value_of(lo);                                                \
    n += (unsigned)MLDSA_CT_PUBLIC(keep(lo));                           \
    if (n < MLDSA_N) {                                                  \
      a[n] = value_of(hi);                                              \
      n += (unsigned)MLDSA_CT_PUBLIC(keep(hi));                         \
    }                                                                   \
  }                                                                     \
  return n

#define ETA2_VALUE(b) (2 - (int32_t)((b) - (((b) * 205) >> 10) * 5)) /* 2 - b mod 5 */
#define ETA2_KEEP(b) ((b) < 15)
#define ETA4_VALUE(b) (4 - (int32_t)(b))
#define ETA4_KEEP(b) ((b) < 9)

unsigned mldsa_rej_eta2_scalar(int32_t *a, unsigned n, const uint8_t *buf, size_t len) {
  REJ_ETA_LOOP(ETA2_VALUE, ETA2_KEEP);
}

unsigned mldsa_rej_eta4_scalar(int32_t *a, unsigned n, const uint8_t *buf, size_t len) {
  REJ_ETA_LOOP(ETA4_VALUE, ETA4_KEEP);
}
