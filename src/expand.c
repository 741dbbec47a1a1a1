/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* ExpandA, ExpandS and ExpandMask (FIPS 204 Alg. 32-34) on this ISA's batched SHAKE:
 * W = 1, 2, 4 or 8 streams per Keccak call. Every stream's bytes are exactly those of the
 * one-stream definition, so the result is the same on every ISA. */
#include <string.h>

#include "ct.h"
#include "expand.h"
#include "fips202x.h"
#include "kernels.h"
#include "util.h"

#define W MLDSA_KECCAKX_W(MLDSA_ISA)
#define SHAKE128X_ABSORB KERNEL(shake128x_absorb)
#define SHAKE256X_ABSORB KERNEL(shake256x_absorb)
#define SHAKE128X_SQUEEZE KERNEL(shake128x_squeezeblocks)
#define SHAKE256X_SQUEEZE KERNEL(shake256x_squeezeblocks)

/* Blocks squeezed up front: enough for almost every stream, then one block at a time. */
#define A_BLOCKS 5    /* 840 bytes = 280 candidates for 256 coefficients (p = 0.999) */
#define S_BLOCKS 2    /* 272 bytes = 544 half-bytes for 256 coefficients */
#define Y_BLOCKS MLDSA_MASK_BLOCKS

/* The samplers' inner loops are kernels of this ISA (kernels.h): RejNTTPoly's 23-bit
 * candidates (public), RejBoundedPoly's half-bytes for this set's eta (secret; only the
 * accept pattern may show). */
#define REJ_UNIFORM KERNEL(rej_uniform)
#if defined(MLDSA_CT_TESTING)
/* ci/ct (valgrind) can be told that the accept pattern is public only in C
 * (MLDSA_CT_PUBLIC in the scalar loop); how the assembly uses it is checked statically,
 * instruction by instruction, by ci/ct_static and its allow-list. */
#define REJ_ETA_ISA scalar
#else
#define REJ_ETA_ISA MLDSA_ISA
#endif
#if MLDSA_ETA == 2
#define REJ_ETA MLDSA_CAT3(mldsa_rej_eta2_, REJ_ETA_ISA, )
#else
#define REJ_ETA MLDSA_CAT3(mldsa_rej_eta4_, REJ_ETA_ISA, )
#endif

typedef unsigned (*rejection_fn)(int32_t *a, unsigned n, const uint8_t *buf, size_t len);
typedef void (*squeeze_fn)(uint8_t *const *out, size_t nblocks, mldsa_keccakx *st, unsigned n);

/* seed = prefix || two little-endian bytes (j, i) of FIPS 204's IntegerToBytes. */
static void make_seed(uint8_t *seed, const uint8_t *prefix, size_t len, unsigned lo,
                      unsigned hi) {
  memcpy(seed, prefix, len);
  seed[len] = (uint8_t)lo;
  seed[len + 1] = (uint8_t)hi;
}

/* Fill poly[0..n-1] by rejection sampling from the n streams of st: `blocks` blocks up
 * front, then one more block of every stream while any polynomial is short. Whether a
 * polynomial is full depends only on the accept pattern, which is public. */
static void rejection_sample(int32_t *const *poly, unsigned n, mldsa_keccakx *st,
                             uint8_t *const *out, size_t blocks, size_t rate,
                             squeeze_fn squeeze, rejection_fn rejection) {
  unsigned count[W], done = 1;
  squeeze(out, blocks, st, n);
  for (unsigned j = 0; j < n; ++j) {
    count[j] = rejection(poly[j], 0, out[j], blocks * rate);
    done &= count[j] == MLDSA_N;
  }
  while (!done) {
    squeeze(out, 1, st, n);
    done = 1;
    for (unsigned j = 0; j < n; ++j) {
      count[j] = rejection(poly[j], count[j], out[j], rate);
      done &= count[j] == MLDSA_N;
    }
  }
}

void expand_a(mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES]) {
  mldsa_keccakx st;
  uint8_t seed[W][MLDSA_SEEDBYTES + 2], buf[W][A_BLOCKS * MLDSA_SHAKE128_RATE];
  const uint8_t *in[W];
  uint8_t *out[W];
  int32_t *poly[W];
  for (unsigned start = 0; start < MLDSA_K * MLDSA_L; start += W) {
    unsigned n = MLDSA_K * MLDSA_L - start < W ? MLDSA_K * MLDSA_L - start : W;
    for (unsigned j = 0; j < n; ++j) {
      unsigned row = (start + j) / MLDSA_L, col = (start + j) % MLDSA_L;
      make_seed(seed[j], rho, MLDSA_SEEDBYTES, col, row);
      in[j] = seed[j];
      out[j] = buf[j];
      poly[j] = a->row[row].v[col].c;
    }
    SHAKE128X_ABSORB(&st, in, MLDSA_SEEDBYTES + 2, n);
    rejection_sample(poly, n, &st, out, A_BLOCKS, MLDSA_SHAKE128_RATE, SHAKE128X_SQUEEZE,
                     REJ_UNIFORM);
  }
}

void expand_s(mldsa_polyvecl *s1, mldsa_polyveck *s2, const uint8_t rhoprime[MLDSA_CRHBYTES]) {
  mldsa_keccakx st;
  uint8_t seed[W][MLDSA_CRHBYTES + 2], buf[W][S_BLOCKS * MLDSA_SHAKE256_RATE];
  const uint8_t *in[W];
  uint8_t *out[W];
  int32_t *poly[W];
  for (unsigned start = 0; start < MLDSA_L + MLDSA_K; start += W) {
    unsigned n = MLDSA_L + MLDSA_K - start < W ? MLDSA_L + MLDSA_K - start : W;
    for (unsigned j = 0; j < n; ++j) {
      unsigned r = start + j;
      make_seed(seed[j], rhoprime, MLDSA_CRHBYTES, r & 0xFF, r >> 8);
      in[j] = seed[j];
      out[j] = buf[j];
      poly[j] = r < MLDSA_L ? s1->v[r].c : s2->v[r - MLDSA_L].c;
    }
    SHAKE256X_ABSORB(&st, in, MLDSA_CRHBYTES + 2, n);
    rejection_sample(poly, n, &st, out, S_BLOCKS, MLDSA_SHAKE256_RATE, SHAKE256X_SQUEEZE,
                     REJ_ETA);
  }
  mldsa_zeroize(&st, sizeof st);
  mldsa_zeroize(seed, sizeof seed);
  mldsa_zeroize(buf, sizeof buf);
}

void mask_stream_init(mask_stream *ms) {
  ms->next = W;
  ms->nonce = 0;
}

/* Refill the stream with the next W polynomials of ExpandMask's sequence: nonces
 * ms->nonce .. ms->nonce + W - 1, one Keccak batch squeezed straight into the stream. */
static void refill_mask(mask_stream *ms, const uint8_t rhoprime[MLDSA_CRHBYTES]) {
  mldsa_keccakx st;
  uint8_t seed[W][MLDSA_CRHBYTES + 2];
  const uint8_t *in[W];
  uint8_t *out[W];
  for (unsigned j = 0; j < W; ++j) {
    uint16_t nonce = (uint16_t)(ms->nonce + j);
    make_seed(seed[j], rhoprime, MLDSA_CRHBYTES, nonce & 0xFF, nonce >> 8);
    in[j] = seed[j];
    out[j] = ms->buf[j];
  }
  SHAKE256X_ABSORB(&st, in, MLDSA_CRHBYTES + 2, W);
  SHAKE256X_SQUEEZE(out, Y_BLOCKS, &st, W);
  ms->nonce = (uint16_t)(ms->nonce + W);
  ms->next = 0;
  mldsa_zeroize(&st, sizeof st);
  mldsa_zeroize(seed, sizeof seed);
}

void expand_mask(mldsa_polyvecl *y, mask_stream *ms, const uint8_t rhoprime[MLDSA_CRHBYTES]) {
  for (unsigned r = 0; r < MLDSA_L; ++r) {
    if (ms->next == W) refill_mask(ms, rhoprime);
    /* y = gamma1 - BitUnpack(...): the encoding of z, so its decoder */
    unpack_z_poly(y->v[r].c, ms->buf[ms->next++]);
  }
}
