/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The arithmetic kernel interface: the only way the C layer touches polynomial
 * arithmetic. Each ISA provides every kernel under the name mldsa_<kernel>_<isa>: the
 * scalar ones are C (kernels_scalar.c), the others generated assembly (asm_out/<isa>/).
 *
 * A polynomial is int32_t[MLDSA_N]. Kernels accept unaligned arrays; the C layer aligns
 * its polynomials to 64 bytes. Outputs may alias inputs where the kernel reads each
 * coefficient before writing it (all of them do, elementwise).
 *
 * Contracts (every ISA; tests check them at their edges):
 *  ntt            in |a| < q; out = NTT(a) mod q in this ISA's NTT order, |out| < 9q
 *  invntt_tomont  in |a| < q (NTT order of this ISA); out = INTT(a)*2^32 mod q, |out| < q
 *  ntt_reorder    permutes a polynomial in the standard order of FIPS 204 (bit-reversed
 *                 as ExpandA and NTT produce it) into this ISA's NTT order; the identity
 *                 where the ISA keeps the standard order
 *  pointwise_montgomery  c = a*b*2^-32 mod q, needs |a|,|b| < 9q; |c| < q
 *  pointwise_acc  c = sum_{j<len} a_j*b_j*2^-32 mod q over len polynomials stored one
 *                 after another (len 1..8), |a|,|b| < 9q; |c| < len*q
 *  add, sub       c = a +- b exactly (no reduction)
 *  reduce32       exactly a - ((a + 2^22) >> 23) * q, for
 *                 a <= 2^31 - 2^22 - 1; out in [-6283009, 6283008]
 *  caddq          exactly a + q if a < 0, else a
 *  shiftl         exactly a * 2^13, for 0 <= a < 2^10
 *  power2round    a in [0, q): a1 = (a - a0) / 2^13, a0 = a mod+- 2^13, a0 in (-2^12, 2^12]
 *  decompose_gXX  a in [0, q), gamma2 = (q-1)/XX: a1, a0 per FIPS 204 Alg. 36
 *                 (a1 in [0, (q-1)/(2 gamma2)), a0 in (-gamma2, gamma2], with the
 *                 a - a0 = q - 1 case mapped to a1 = 0, a0 - 1)
 *  make_hint_gXX  h = 1 where a0 > g2 or a0 < -g2 or (a0 == -g2 and a1 != 0), else 0;
 *                 returns the number of ones. a0 in (-q, q), a1 in [0, (q-1)/(2 g2))
 *  use_hint_gXX   a in [0, q), h in {0, 1}: FIPS 204 Alg. 40
 *  chknorm        1 if any |a_i| >= bound, else 0; a_i in (-2^31, 2^31),
 *                 0 <= bound <= (q-1)/8. Constant time: the answer only, not the index.
 *
 * Decoders (FIPS 204 Alg. 19):
 *  unpack_z_gXX   a_i = gamma1 - (bits b i .. b i + b - 1 of buf, little-endian),
 *                 gamma1 = 2^XX, b = XX + 1: z of a signature and ExpandMask's y. Reads
 *                 buf[0 .. 32 b - 1] only (576 or 640 bytes), any byte values.
 *
 * Encoders (FIPS 204 Alg. 16, 28):
 *  pack_w1_gXX    w1Encode of one polynomial: out bits b i .. b i + b - 1 = a_i,
 *                 little-endian, for a_i in [0, 2^b); b = 6 (gamma2 = (q-1)/88) or 4
 *                 ((q-1)/32). Writes out[0 .. 32 b - 1] only (192 or 128 bytes).
 *  pack_z_gXX     z's part of sigEncode, BitPack(z, gamma1 - 1, gamma1): out bits
 *                 b i .. b i + b - 1 = gamma1 - z_i, little-endian, for z_i in
 *                 [-gamma1 + 1, gamma1]; gamma1 = 2^XX, b = XX + 1. Writes out[0 .. 32 b
 *                 - 1] only (576 or 640 bytes; out must not overlap z).
 *
 * Samplers (the inner loops of RejNTTPoly and RejBoundedPoly, FIPS 204 Alg. 30, 31):
 *  rej_uniform    appends to a[n..255] the 3-byte little-endian groups of buf[0..len),
 *                 masked to 23 bits, that are < q, until a holds 256; returns the new
 *                 count (n when n >= 256). Reads buf[0..len-1] only (a last incomplete
 *                 group is ignored); writes a[n..255] only: a[n..count-1] exactly as
 *                 the scalar loop, a[count..255] unspecified. buf is public (rho): may
 *                 branch and address tables by which candidates are rejected.
 *  rej_eta2/4     the same for the 2 len half-bytes b of buf (low one first): eta 2
 *                 keeps b < 15 as 2 - (b mod 5), eta 4 keeps b < 9 as 4 - b. buf is
 *                 secret: only the accept pattern (which half-bytes are rejected, as the
 *                 scalar loop's branches) may show; AVX2 and NEON load their left-pack
 *                 rows at addresses given by it, no other address or branch depends on
 *                 buf.
 *
 * Constant time: no branch and no memory address depends on coefficient values. */
#ifndef MLDSA_KERNELS_H
#define MLDSA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "isas.h"
#include "params.h"

#define MLDSA_DECLARE_KERNELS(isa)                                                       \
  void mldsa_ntt_##isa(int32_t a[MLDSA_N]);                                              \
  void mldsa_invntt_tomont_##isa(int32_t a[MLDSA_N]);                                    \
  void mldsa_ntt_reorder_##isa(int32_t a[MLDSA_N]);                                      \
  void mldsa_pointwise_montgomery_##isa(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],    \
                                        const int32_t b[MLDSA_N]);                       \
  void mldsa_pointwise_acc_##isa(int32_t c[MLDSA_N], const int32_t *a, const int32_t *b, \
                                 unsigned len);                                          \
  void mldsa_add_##isa(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],                     \
                       const int32_t b[MLDSA_N]);                                        \
  void mldsa_sub_##isa(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],                     \
                       const int32_t b[MLDSA_N]);                                        \
  void mldsa_reduce32_##isa(int32_t a[MLDSA_N]);                                         \
  void mldsa_caddq_##isa(int32_t a[MLDSA_N]);                                            \
  void mldsa_shiftl_##isa(int32_t a[MLDSA_N]);                                           \
  void mldsa_power2round_##isa(int32_t a1[MLDSA_N], int32_t a0[MLDSA_N],                 \
                               const int32_t a[MLDSA_N]);                                \
  void mldsa_decompose_g88_##isa(int32_t a1[MLDSA_N], int32_t a0[MLDSA_N],               \
                                 const int32_t a[MLDSA_N]);                              \
  void mldsa_decompose_g32_##isa(int32_t a1[MLDSA_N], int32_t a0[MLDSA_N],               \
                                 const int32_t a[MLDSA_N]);                              \
  unsigned mldsa_make_hint_g88_##isa(int32_t h[MLDSA_N], const int32_t a0[MLDSA_N],      \
                                     const int32_t a1[MLDSA_N]);                         \
  unsigned mldsa_make_hint_g32_##isa(int32_t h[MLDSA_N], const int32_t a0[MLDSA_N],      \
                                     const int32_t a1[MLDSA_N]);                         \
  void mldsa_use_hint_g88_##isa(int32_t b[MLDSA_N], const int32_t a[MLDSA_N],            \
                                const int32_t h[MLDSA_N]);                               \
  void mldsa_use_hint_g32_##isa(int32_t b[MLDSA_N], const int32_t a[MLDSA_N],            \
                                const int32_t h[MLDSA_N]);                               \
  int mldsa_chknorm_##isa(const int32_t a[MLDSA_N], int32_t bound);                      \
  void mldsa_unpack_z_g17_##isa(int32_t a[MLDSA_N], const uint8_t *buf);  /* 576 bytes */ \
  void mldsa_unpack_z_g19_##isa(int32_t a[MLDSA_N], const uint8_t *buf);  /* 640 bytes */ \
  void mldsa_pack_w1_g88_##isa(uint8_t *out, const int32_t a[MLDSA_N]);   /* 192 bytes */ \
  void mldsa_pack_w1_g32_##isa(uint8_t *out, const int32_t a[MLDSA_N]);   /* 128 bytes */ \
  void mldsa_pack_z_g17_##isa(uint8_t *out, const int32_t z[MLDSA_N]);    /* 576 bytes */ \
  void mldsa_pack_z_g19_##isa(uint8_t *out, const int32_t z[MLDSA_N]);    /* 640 bytes */ \
  unsigned mldsa_rej_uniform_##isa(int32_t *a, unsigned n, const uint8_t *buf, size_t len); \
  unsigned mldsa_rej_eta2_##isa(int32_t *a, unsigned n, const uint8_t *buf, size_t len);    \
  unsigned mldsa_rej_eta4_##isa(int32_t *a, unsigned n, const uint8_t *buf, size_t len);

MLDSA_FOR_EACH_ISA(MLDSA_DECLARE_KERNELS)

#endif
