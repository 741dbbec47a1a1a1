/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Byte encodings of keys and signatures (FIPS 204 section 7.2), compiled once per
 * parameter set.
 *
 * All coefficient packing goes through one little-endian bit packer, pack_coeffs /
 * unpack_coeffs below, written once for a bit width `bits` and instantiated (inlined at a
 * constant width) for each encoding: t1 10 bits, t0 13, s1/s2 3 or 4, z 18 or 20, w1 6
 * or 4. A polynomial is cut into groups of coefficients that fill whole bytes (widths
 * below 8: lcm(bits, 8) / bits coefficients, at most 3 bytes) or whole 64-bit words
 * (wider: lcm(bits, 64) / bits coefficients, every load and store a full word). The group
 * loop's body is straight-line code: its inner loop is fully unrolled, so every shift,
 * offset and access width is a compile-time constant. The group shapes were chosen by
 * measurement (callgrind and rdtsc of each width, gcc 12 -O2): word groups take 15-30%
 * fewer instructions than byte groups at 10-20 bits; at 3-6 bits byte groups are as good
 * or better (gcc vectorizes the 4-bit ones with SSE2), and 64-coefficient groups of
 * narrow values made gcc emit worse code.
 *
 * The bytes are those of the bit-at-a-time definition (BitPack / SimpleBitPack, Alg.
 * 16-19), on any host byte order.
 *
 * Constant time: no branch and no address depends on a coefficient (s1, s2, t0, y and z
 * are secret); only pack_sig's hint loop branches on h, which is public once the signature
 * is output (it packs only the accepted signature). */
#include <string.h>

#include "mldsa.h"
#include "poly.h"
#include "util.h"

/* The public header's compile-time sizes are this set's sizes. */
#define SIZE_OF(kind) SIZE_CAT(MLDSA, MLDSA_MODE, kind)
#define SIZE_CAT(a, b, c) SIZE_CAT_(a, b, c)
#define SIZE_CAT_(a, b, c) a##b##c
_Static_assert(SIZE_OF(_PUBLIC_KEY_BYTES) == MLDSA_PUBLICKEYBYTES, "public key size");
_Static_assert(SIZE_OF(_SECRET_KEY_BYTES) == MLDSA_SECRETKEYBYTES, "secret key size");
_Static_assert(SIZE_OF(_SIGNATURE_BYTES) == MLDSA_SIGBYTES, "signature size");
_Static_assert(MLDSA_SEED_BYTES == MLDSA_SEEDBYTES && MLDSA_RND_BYTES == MLDSA_RNDBYTES &&
                   MLDSA_MU_BYTES == MLDSA_CRHBYTES && MLDSA_TR_BYTES == MLDSA_TRBYTES,
               "seed, rnd, mu and tr sizes");

#if defined(__GNUC__) || defined(__clang__)
#define PACK_INLINE static inline __attribute__((always_inline))
#else
#define PACK_INLINE static inline
#endif

/* Group shape for a width (1 to 31 bits): G coefficients in B bytes, G * bits == 8 * B.
 * bits & -bits is the largest power of two dividing bits (below 8, resp. 64), so G is
 * lcm(bits, 8) / bits, resp. lcm(bits, 64) / bits. */
#define GROUP_COEFFS(bits) (((bits) < 8 ? 8u : 64u) / ((bits) & (0u - (bits))))
#define GROUP_BYTES(bits) (GROUP_COEFFS(bits) * (bits) / 8)

/* n (<= 8) little-endian bytes, as at most one access of each of 8, 4, 2 and 1 bytes: on
 * a little-endian host through memcpy (one load or store each), else byte by byte. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PACK_HOST_LE 1
#else
#define PACK_HOST_LE 0
#endif

PACK_INLINE void store_le(uint8_t *p, uint64_t x, unsigned n) {
  if (PACK_HOST_LE) {
    if (n == 8) {
      memcpy(p, &x, 8);
      return;
    }
    if (n >= 4) {
      uint32_t w = (uint32_t)x;
      memcpy(p, &w, 4);
      p += 4, n -= 4, x >>= 32;
    }
    if (n >= 2) {
      uint16_t w = (uint16_t)x;
      memcpy(p, &w, 2);
      p += 2, n -= 2, x >>= 16;
    }
    if (n) *p = (uint8_t)x;
  } else {
    MLDSA_UNROLL
    for (unsigned i = 0; i < n; ++i) p[i] = (uint8_t)(x >> (8 * i));
  }
}

PACK_INLINE uint64_t load_le(const uint8_t *p, unsigned n) {
  uint64_t x = 0;
  if (PACK_HOST_LE) {
    unsigned s = 0;
    if (n == 8) {
      memcpy(&x, p, 8);
      return x;
    }
    if (n >= 4) {
      uint32_t w;
      memcpy(&w, p, 4);
      x = w, p += 4, n -= 4, s = 32;
    }
    if (n >= 2) {
      uint16_t w;
      memcpy(&w, p, 2);
      x |= (uint64_t)w << s, p += 2, n -= 2, s += 16;
    }
    if (n) x |= (uint64_t)*p << s;
  } else {
    MLDSA_UNROLL
    for (unsigned i = 0; i < n; ++i) x |= (uint64_t)p[i] << (8 * i);
  }
  return x;
}

/* Each coefficient a is stored as a itself (t1, w1: negate = 0) or as offset - a (eta, t0,
 * z: negate = 1), which the caller guarantees to be in [0, 2^bits).
 *
 * out: 32 * bits bytes, the 256 stored values LSB first. Within a group, a 64-bit
 * accumulator collects values and is written out whenever it is full (a value that
 * straddles two words leaves its high bits in the emptied accumulator), and at the
 * group's end (byte groups). */
PACK_INLINE void pack_coeffs(uint8_t *restrict out, const int32_t *restrict a, unsigned bits,
                             int32_t offset, int negate) {
  const unsigned G = GROUP_COEFFS(bits), B = GROUP_BYTES(bits);
  for (unsigned g = 0; g < MLDSA_N / G; ++g) {
    uint64_t acc = 0;
    unsigned have = 0, pos = 0; /* bits in acc; bytes of the group written */
    MLDSA_UNROLL
    for (unsigned j = 0; j < G; ++j) {
      uint32_t v = negate ? (uint32_t)offset - (uint32_t)a[G * g + j] : (uint32_t)a[G * g + j];
      acc |= (uint64_t)v << have;
      have += bits;
      if (have >= 64) {
        store_le(out + B * g + pos, acc, 8);
        pos += 8;
        have -= 64;
        acc = have ? (uint64_t)v >> (bits - have) : 0;
      }
    }
    if (have) store_le(out + B * g + pos, acc, have / 8);
  }
}

/* The inverse: the accumulator takes the group's next word (or its bytes, if fewer are
 * left) whenever it holds fewer than `bits` bits.
 *
 * With negate, the bits are complemented as they are loaded and a = (~v & mask) +
 * (offset - mask), which is offset - v: one add of a constant per coefficient, instead of
 * a subtraction from one (which x86 does in two instructions). */
PACK_INLINE void unpack_coeffs(int32_t *restrict a, const uint8_t *restrict in, unsigned bits,
                               int32_t offset, int negate) {
  const unsigned G = GROUP_COEFFS(bits), B = GROUP_BYTES(bits);
  const uint32_t mask = (1u << bits) - 1;
  for (unsigned g = 0; g < MLDSA_N / G; ++g) {
    uint64_t acc = 0, v;
    unsigned have = 0, pos = 0; /* bits in acc; bytes of the group read */
    MLDSA_UNROLL
    for (unsigned j = 0; j < G; ++j) {
      if (have >= bits) {
        v = acc;
        acc >>= bits;
        have -= bits;
      } else {
        unsigned n = B - pos < 8 ? B - pos : 8;
        uint64_t w = load_le(in + B * g + pos, n);
        if (negate) w ^= n == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * n)) - 1;
        pos += n;
        v = acc | w << have;
        acc = w >> (bits - have);
        have = 8 * n - (bits - have);
      }
      a[G * g + j] = negate ? (int32_t)(((uint32_t)v & mask) + ((uint32_t)offset - mask))
                            : (int32_t)((uint32_t)v & mask);
    }
  }
}

#define ETA_BITS (MLDSA_ETA == 2 ? 3 : 4)
#define W1_BITS (MLDSA_GAMMA2 == MLDSA_GAMMA2_88 ? 6 : 4)
#define T0_OFFSET (1 << (MLDSA_D - 1))

/* The instances: one function per encoding, each the generic code at a constant width. */
void pack_t1_poly(uint8_t out[MLDSA_POLYT1_PACKEDBYTES], const int32_t a[MLDSA_N]) {
  pack_coeffs(out, a, 10, 0, 0);
}
static void unpack_t1_poly(int32_t *a, const uint8_t *in) { unpack_coeffs(a, in, 10, 0, 0); }
void pack_t0_poly(uint8_t out[MLDSA_POLYT0_PACKEDBYTES], const int32_t a[MLDSA_N]) {
  pack_coeffs(out, a, MLDSA_D, T0_OFFSET, 1);
}
void unpack_t0_poly(int32_t a[MLDSA_N], const uint8_t in[MLDSA_POLYT0_PACKEDBYTES]) {
  unpack_coeffs(a, in, MLDSA_D, T0_OFFSET, 1);
}
static void pack_eta_poly(uint8_t *out, const int32_t *a) {
  pack_coeffs(out, a, ETA_BITS, MLDSA_ETA, 1);
}
void unpack_w1_poly(int32_t a[MLDSA_N], const uint8_t in[MLDSA_POLYW1_PACKEDBYTES]) {
  unpack_coeffs(a, in, W1_BITS, 0, 0);
}

/* Unpack an eta-encoded polynomial; returns an all-ones mask if any coefficient was
 * outside [-eta, eta] (encoded value > 2 eta, i.e. a = eta - value < -eta), computed
 * without branches. */
static uint32_t unpack_eta(mldsa_poly *a, const uint8_t *in) {
  uint32_t bad = 0;
  unpack_coeffs(a->c, in, ETA_BITS, MLDSA_ETA, 1);
  for (unsigned i = 0; i < MLDSA_N; ++i) bad |= (uint32_t)(a->c[i] + MLDSA_ETA);
  return -(bad >> 31);
}

void pack_pk(uint8_t pk[MLDSA_PUBLICKEYBYTES], const uint8_t rho[MLDSA_SEEDBYTES],
             const mldsa_polyveck *t1) {
  memcpy(pk, rho, MLDSA_SEEDBYTES);
  for (unsigned i = 0; i < MLDSA_K; ++i)
    pack_t1_poly(pk + MLDSA_SEEDBYTES + i * MLDSA_POLYT1_PACKEDBYTES, t1->v[i].c);
}

void unpack_pk(uint8_t rho[MLDSA_SEEDBYTES], mldsa_polyveck *t1,
               const uint8_t pk[MLDSA_PUBLICKEYBYTES]) {
  memcpy(rho, pk, MLDSA_SEEDBYTES);
  for (unsigned i = 0; i < MLDSA_K; ++i)
    unpack_t1_poly(t1->v[i].c, pk + MLDSA_SEEDBYTES + i * MLDSA_POLYT1_PACKEDBYTES);
}

void pack_t0(uint8_t out[MLDSA_K * MLDSA_POLYT0_PACKEDBYTES], const mldsa_polyveck *t0) {
  for (unsigned i = 0; i < MLDSA_K; ++i)
    pack_t0_poly(out + i * MLDSA_POLYT0_PACKEDBYTES, t0->v[i].c);
}

void pack_sk(uint8_t sk[MLDSA_SECRETKEYBYTES], const uint8_t rho[MLDSA_SEEDBYTES],
             const uint8_t key[MLDSA_SEEDBYTES], const uint8_t tr[MLDSA_TRBYTES],
             const mldsa_polyvecl *s1, const mldsa_polyveck *s2, const mldsa_polyveck *t0) {
  memcpy(sk, rho, MLDSA_SEEDBYTES);
  sk += MLDSA_SEEDBYTES;
  memcpy(sk, key, MLDSA_SEEDBYTES);
  sk += MLDSA_SEEDBYTES;
  if (tr != NULL) memcpy(sk, tr, MLDSA_TRBYTES);
  sk += MLDSA_TRBYTES;
  for (unsigned i = 0; i < MLDSA_L; ++i, sk += MLDSA_POLYETA_PACKEDBYTES)
    pack_eta_poly(sk, s1->v[i].c);
  for (unsigned i = 0; i < MLDSA_K; ++i, sk += MLDSA_POLYETA_PACKEDBYTES)
    pack_eta_poly(sk, s2->v[i].c);
  if (t0 != NULL) pack_t0(sk, t0);
}

int unpack_sk(uint8_t rho[MLDSA_SEEDBYTES], uint8_t key[MLDSA_SEEDBYTES],
              uint8_t tr[MLDSA_TRBYTES], mldsa_polyvecl *s1, mldsa_polyveck *s2,
              mldsa_polyveck *t0, const uint8_t sk[MLDSA_SECRETKEYBYTES]) {
  uint32_t bad = 0;
  memcpy(rho, sk, MLDSA_SEEDBYTES);
  sk += MLDSA_SEEDBYTES;
  memcpy(key, sk, MLDSA_SEEDBYTES);
  sk += MLDSA_SEEDBYTES;
  memcpy(tr, sk, MLDSA_TRBYTES);
  sk += MLDSA_TRBYTES;
  for (unsigned i = 0; i < MLDSA_L; ++i, sk += MLDSA_POLYETA_PACKEDBYTES)
    bad |= unpack_eta(&s1->v[i], sk);
  for (unsigned i = 0; i < MLDSA_K; ++i, sk += MLDSA_POLYETA_PACKEDBYTES)
    bad |= unpack_eta(&s2->v[i], sk);
  if (t0 != NULL)
    for (unsigned i = 0; i < MLDSA_K; ++i, sk += MLDSA_POLYT0_PACKEDBYTES)
      unpack_t0_poly(t0->v[i].c, sk);
  /* Only the validity of the key as a whole is revealed, which the caller returns:
   * 0 or -1 from the all-zeros or all-ones mask, without a branch. */
  return (int)(0 - (bad & 1));
}

void pack_sig(uint8_t sig[MLDSA_SIGBYTES], const uint8_t ctilde[MLDSA_CTILDEBYTES],
              const mldsa_polyveck *h) {
  memcpy(sig, ctilde, MLDSA_CTILDEBYTES);
  sig += MLDSA_CTILDEBYTES + MLDSA_L * MLDSA_POLYZ_PACKEDBYTES;
  /* Hints (Alg. 20): the positions of ones, then the running count per polynomial. h is
   * public here and sparse (at most omega ones): skip blocks of 8 zero coefficients. */
  memset(sig, 0, MLDSA_OMEGA + MLDSA_K);
  unsigned k = 0;
  for (unsigned i = 0; i < MLDSA_K; ++i) {
    const int32_t *c = h->v[i].c;
    for (unsigned j = 0; j < MLDSA_N; j += 8) {
      uint32_t any = 0;
      for (unsigned t = 0; t < 8; ++t) any |= (uint32_t)c[j + t];
      if (any == 0) continue;
      for (unsigned t = 0; t < 8; ++t)
        if (c[j + t] != 0) sig[k++] = (uint8_t)(j + t);
    }
    sig[MLDSA_OMEGA + i] = (uint8_t)k;
  }
}

int unpack_sig(uint8_t ctilde[MLDSA_CTILDEBYTES], mldsa_polyveck *h,
               const uint8_t sig[MLDSA_SIGBYTES]) {
  memcpy(ctilde, sig, MLDSA_CTILDEBYTES);
  sig += MLDSA_CTILDEBYTES + MLDSA_L * MLDSA_POLYZ_PACKEDBYTES;
  /* Hints (Alg. 21), strictly: anything but the one canonical encoding is rejected. */
  unsigned k = 0;
  for (unsigned i = 0; i < MLDSA_K; ++i) {
    memset(h->v[i].c, 0, sizeof h->v[i].c);
    unsigned end = sig[MLDSA_OMEGA + i];
    if (end < k || end > MLDSA_OMEGA) return -1;
    for (unsigned j = k; j < end; ++j) {
      if (j > k && sig[j] <= sig[j - 1]) return -1;
      h->v[i].c[sig[j]] = 1;
    }
    k = end;
  }
  for (unsigned j = k; j < MLDSA_OMEGA; ++j)
    if (sig[j] != 0) return -1;
  return 0;
}
