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
#define Y_BLOCKS ((MLDSA_POLYZ_PACKEDBYTES + MLDSA_SHAKE256_RATE - 1) / MLDSA_SHAKE256_RATE)

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

void expand_a(mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES]) {
  mldsa_keccakx st;
  uint8_t seed[W][MLDSA_SEEDBYTES + 2], buf[W][A_BLOCKS * MLDSA_SHAKE128_RATE];
  const uint8_t *in[W];
  uint8_t *out[W];
  int32_t *poly[W];
  unsigned count[W];
  for (unsigned start = 0; start < MLDSA_K * MLDSA_L; start += W) {
    unsigned n = MLDSA_K * MLDSA_L - start < W ? MLDSA_K * MLDSA_L - start : W;
    for (unsigned j = 0; j < n; ++j) {
      unsigned row = (start + j) / MLDSA_L, col = (start + j) % MLDSA_L;
      memcpy(seed[j], rho, MLDSA_SEEDBYTES);
      seed[j][MLDSA_SEEDBYTES] = (uint8_t)col;
      seed[j][MLDSA_SEEDBYTES + 1] = (uint8_t)row;
      in[j] = seed[j];
      out[j] = buf[j];
      poly[j] = a->row[row].v[col].c;
    }
    SHAKE128X_ABSORB(&st, in, MLDSA_SEEDBYTES + 2, n);
    SHAKE128X_SQUEEZE(out, A_BLOCKS, &st, n);
    unsigned done = 1;
    for (unsigned j = 0; j < n; ++j) {
      count[j] = REJ_UNIFORM(poly[j], 0, buf[j], sizeof buf[j]);
      done &= count[j] == MLDSA_N;
    }
    while (!done) {
      SHAKE128X_SQUEEZE(out, 1, &st, n);
      done = 1;
      for (unsigned j = 0; j < n; ++j) {
        count[j] = REJ_UNIFORM(poly[j], count[j], buf[j], MLDSA_SHAKE128_RATE);
        done &= count[j] == MLDSA_N;
      }
    }
  }
}

void expand_s(mldsa_polyvecl *s1, mldsa_polyveck *s2, const uint8_t rhoprime[MLDSA_CRHBYTES]) {
  mldsa_keccakx st;
  uint8_t seed[W][MLDSA_CRHBYTES + 2], buf[W][S_BLOCKS * MLDSA_SHAKE256_RATE];
  const uint8_t *in[W];
  uint8_t *out[W];
  int32_t *poly[W];
  unsigned count[W];
  for (unsigned start = 0; start < MLDSA_L + MLDSA_K; start += W) {
    unsigned n = MLDSA_L + MLDSA_K - start < W ? MLDSA_L + MLDSA_K - start : W;
    for (unsigned j = 0; j < n; ++j) {
      unsigned r = start + j;
      memcpy(seed[j], rhoprime, MLDSA_CRHBYTES);
      seed[j][MLDSA_CRHBYTES] = (uint8_t)r;
      seed[j][MLDSA_CRHBYTES + 1] = (uint8_t)(r >> 8);
      in[j] = seed[j];
      out[j] = buf[j];
      poly[j] = r < MLDSA_L ? s1->v[r].c : s2->v[r - MLDSA_L].c;
    }
    SHAKE256X_ABSORB(&st, in, MLDSA_CRHBYTES + 2, n);
    SHAKE256X_SQUEEZE(out, S_BLOCKS, &st, n);
    unsigned done = 1;
    for (unsigned j = 0; j < n; ++j) {
      count[j] = REJ_ETA(poly[j], 0, buf[j], sizeof buf[j]);
      done &= count[j] == MLDSA_N;
    }
    while (!done) {
      SHAKE256X_SQUEEZE(out, 1, &st, n);
      done = 1;
      for (unsigned j = 0; j < n; ++j) {
        count[j] = REJ_ETA(poly[j], count[j], buf[j], MLDSA_SHAKE256_RATE);
        done &= count[j] == MLDSA_N;
      }
    }
  }
  mldsa_zeroize(&st, sizeof st);
  mldsa_zeroize(seed, sizeof seed);
  mldsa_zeroize(buf, sizeof buf);
}

/* y_r = gamma1 - BitUnpack(H(rho'' || kappa + r)), gamma1 = 2^17 or 2^19. */
static void unpack_mask(int32_t *y, const uint8_t *buf) {
  unpack_z_poly(y, buf); /* the z decoder of packing.c: the same encoding */
}

void expand_mask(mldsa_polyvecl *y, const uint8_t rhoprime[MLDSA_CRHBYTES], uint16_t kappa) {
  mldsa_keccakx st;
  uint8_t seed[W][MLDSA_CRHBYTES + 2], buf[W][Y_BLOCKS * MLDSA_SHAKE256_RATE];
  const uint8_t *in[W];
  uint8_t *out[W];
  for (unsigned start = 0; start < MLDSA_L; start += W) {
    unsigned n = MLDSA_L - start < W ? MLDSA_L - start : W;
    for (unsigned j = 0; j < n; ++j) {
      uint16_t nonce = (uint16_t)(kappa + start + j);
      memcpy(seed[j], rhoprime, MLDSA_CRHBYTES);
      seed[j][MLDSA_CRHBYTES] = (uint8_t)nonce;
      seed[j][MLDSA_CRHBYTES + 1] = (uint8_t)(nonce >> 8);
      in[j] = seed[j];
      out[j] = buf[j];
    }
    SHAKE256X_ABSORB(&st, in, MLDSA_CRHBYTES + 2, n);
    SHAKE256X_SQUEEZE(out, Y_BLOCKS, &st, n);
    for (unsigned j = 0; j < n; ++j) unpack_mask(y->v[start + j].c, buf[j]);
  }
  mldsa_zeroize(&st, sizeof st);
  mldsa_zeroize(seed, sizeof seed);
  mldsa_zeroize(buf, sizeof buf);
}
