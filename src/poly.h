/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The polynomial type shared by every part of the C layer, and the per-parameter-set
 * vectors, encodings and samplers (namespaced mldsaNN_..., compiled once per set). */
#ifndef MLDSA_POLY_H
#define MLDSA_POLY_H

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "fips202.h"
#include "params.h"

typedef struct {
  alignas(64) int32_t c[MLDSA_N];
} mldsa_poly;

#ifdef MLDSA_MODE
typedef struct {
  mldsa_poly v[MLDSA_L];
} mldsa_polyvecl;
typedef struct {
  mldsa_poly v[MLDSA_K];
} mldsa_polyveck;
/* A[i] is row i of the K x L matrix, in NTT domain (standard order as sampled). */
typedef struct {
  mldsa_polyvecl row[MLDSA_K];
} mldsa_matrix;

/* Encodings (FIPS 204 section 7.2 and Alg. 22-28). Each unpacker of secret or signature
 * data returns 0 on success, -1 when the bytes are not a valid encoding. */
#define pack_pk MLDSA_NS(pack_pk)
#define unpack_pk MLDSA_NS(unpack_pk)
#define pack_sk MLDSA_NS(pack_sk)
#define unpack_sk MLDSA_NS(unpack_sk)
#define pack_sig MLDSA_NS(pack_sig)
#define unpack_sig MLDSA_NS(unpack_sig)
#define pack_t0 MLDSA_NS(pack_t0)
#define unpack_t0_poly MLDSA_NS(unpack_t0_poly)
#define pack_t0_poly MLDSA_NS(pack_t0_poly)
#define pack_t1_poly MLDSA_NS(pack_t1_poly)
#define unpack_w1_poly MLDSA_NS(unpack_w1_poly)
#define sample_in_ball MLDSA_NS(sample_in_ball)
#define sample_in_ball_lane MLDSA_NS(sample_in_ball_lane)
#define sample_in_ball_public MLDSA_NS(sample_in_ball_public)
#define sample_in_ball_public_lane MLDSA_NS(sample_in_ball_public_lane)

void pack_pk(uint8_t pk[MLDSA_PUBLICKEYBYTES], const uint8_t rho[MLDSA_SEEDBYTES],
             const mldsa_polyveck *t1);
void unpack_pk(uint8_t rho[MLDSA_SEEDBYTES], mldsa_polyveck *t1,
               const uint8_t pk[MLDSA_PUBLICKEYBYTES]);
/* tr or t0 NULL: that part of sk is left as it is (for a caller that writes it later, or
 * a row at a time). */
void pack_sk(uint8_t sk[MLDSA_SECRETKEYBYTES], const uint8_t rho[MLDSA_SEEDBYTES],
             const uint8_t key[MLDSA_SEEDBYTES], const uint8_t tr[MLDSA_TRBYTES],
             const mldsa_polyvecl *s1, const mldsa_polyveck *s2, const mldsa_polyveck *t0);
/* Returns -1 if a coefficient of s1 or s2 is outside [-eta, eta] (the outputs are then
 * still fully written, so callers wipe them the same way on both paths). t0 may be NULL:
 * then t0 is not decoded (a caller that takes it from sk a row at a time). */
int unpack_sk(uint8_t rho[MLDSA_SEEDBYTES], uint8_t key[MLDSA_SEEDBYTES],
              uint8_t tr[MLDSA_TRBYTES], mldsa_polyvecl *s1, mldsa_polyveck *s2,
              mldsa_polyveck *t0, const uint8_t sk[MLDSA_SECRETKEYBYTES]);
/* The t0 part of an encoded secret key (for comparing recomputed keys). */
void pack_t0(uint8_t out[MLDSA_K * MLDSA_POLYT0_PACKEDBYTES], const mldsa_polyveck *t0);
/* c~ and the hints of a signature; z is encoded by the caller's ISA (pack_z of
 * kernels.h). */
void pack_sig(uint8_t sig[MLDSA_SIGBYTES], const uint8_t ctilde[MLDSA_CTILDEBYTES],
              const mldsa_polyveck *h);
/* c~ and the hints of a signature (z is decoded by the caller's ISA: unpack_z of
 * kernels.h). Strict: -1 unless the hint encoding is canonical (indices strictly
 * increasing within a polynomial, counts non-decreasing and at most omega, unused bytes
 * zero). */
int unpack_sig(uint8_t ctilde[MLDSA_CTILDEBYTES], mldsa_polyveck *h,
               const uint8_t sig[MLDSA_SIGBYTES]);
/* One polynomial of those encodings, for code that streams them a row at a time: t1 of
 * pk, t0 of an encoded secret key (coefficients in (-2^12, 2^12]), and w1. */
void pack_t1_poly(uint8_t out[MLDSA_POLYT1_PACKEDBYTES], const int32_t a[MLDSA_N]);
void pack_t0_poly(uint8_t out[MLDSA_POLYT0_PACKEDBYTES], const int32_t a[MLDSA_N]);
void unpack_t0_poly(int32_t a[MLDSA_N], const uint8_t in[MLDSA_POLYT0_PACKEDBYTES]);
void unpack_w1_poly(int32_t a[MLDSA_N], const uint8_t in[MLDSA_POLYW1_PACKEDBYTES]);

/* SampleInBall (FIPS 204 Alg. 29); the other samplers are per ISA (expand.h). */
/* perm: the Keccak-f[1600] of the caller's ISA (fips202.h). */
void sample_in_ball(mldsa_poly *c, const uint8_t ctilde[MLDSA_CTILDEBYTES],
                    mldsa_permutation perm);
/* The same from lane `lane` of a w-way batched state (lane i of state j at
 * states[i * w + j], fips202x.h) that has absorbed c~ and run its first squeezing
 * permutation, so that the batch calls hash many c~ at once; a stream that needs a second
 * block continues on perm. */
void sample_in_ball_lane(mldsa_poly *c, const uint64_t *states, unsigned w, unsigned lane,
                         mldsa_permutation perm);
/* The same for a public c~ (a signature's, in verification): the plain Fisher-Yates
 * shuffle, whose addresses depend on c~; from c~ itself, and from a lane of a batched
 * state into coefficients in {-1, 0, 1}. */
void sample_in_ball_public(mldsa_poly *c, const uint8_t ctilde[MLDSA_CTILDEBYTES],
                           mldsa_permutation perm);
void sample_in_ball_public_lane(int8_t c[MLDSA_N], const uint64_t *states, unsigned w,
                                unsigned lane, mldsa_permutation perm);
#endif /* MLDSA_MODE */

#endif
