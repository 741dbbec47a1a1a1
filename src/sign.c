/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* KeyGen, Sign and Verify (FIPS 204 Alg. 6-8), written once and compiled per parameter
 * set (MLDSA_MODE) and per ISA (MLDSA_ISA): the arithmetic goes through the kernels of
 * that ISA, so the result is mldsa65_sign_avx2 and friends. */
#include <string.h>

#include "backend.h"
#include "ct.h"
#include "expand.h"
#include "expand_model.h"
#include "fips202.h"
#include "fips202x.h"
#include "isa_names.h"
#include "kernels.h"
#include "mldsa.h"
#include "once.h"
#include "poly.h"
#include "util.h"

/* One-shot SHAKE256 on this ISA's single-state permutation. */
#define SHAKE256(out, outlen, in, inlen) \
  mldsa_shake256_with(KERNEL(keccak_f1600_x1), out, outlen, in, inlen)

/* Vector-wide applications of the kernels. */
#define FOR_EACH_POLY(n, i) for (unsigned i = 0; i < (n); ++i)

static void veck_ntt(mldsa_polyveck *v) { FOR_EACH_POLY(MLDSA_K, i) KERNEL(ntt)(v->v[i].c); }
static void vecl_ntt(mldsa_polyvecl *v) { FOR_EACH_POLY(MLDSA_L, i) KERNEL(ntt)(v->v[i].c); }
static void veck_invntt(mldsa_polyveck *v) {
  FOR_EACH_POLY(MLDSA_K, i) KERNEL(invntt_tomont)(v->v[i].c);
}
static void veck_reduce32(mldsa_polyveck *v) {
  FOR_EACH_POLY(MLDSA_K, i) KERNEL(reduce32)(v->v[i].c);
}
static void veck_caddq(mldsa_polyveck *v) { FOR_EACH_POLY(MLDSA_K, i) KERNEL(caddq)(v->v[i].c); }

/* w = A v in NTT domain (A and v in this ISA's NTT order), |w| < L q. */
static void matrix_mul(mldsa_polyveck *w, const mldsa_matrix *a, const mldsa_polyvecl *v) {
  FOR_EACH_POLY(MLDSA_K, i)
  KERNEL(pointwise_acc)(w->v[i].c, a->row[i].v[0].c, v->v[0].c, MLDSA_L);
}

/* Rows first .. end - 1 of A from ExpandA into this ISA's NTT order. */
static void reorder_matrix(mldsa_matrix *a, unsigned first, unsigned end) {
  for (unsigned i = first; i < end; ++i)
    FOR_EACH_POLY(MLDSA_L, j) KERNEL(ntt_reorder)(a->row[i].v[j].c);
}

/* ---- KeyGen_internal (Alg. 6) ---- */

/* Where t0 of an encoded secret key starts. */
#define SK_T0_OFFSET \
  (2 * MLDSA_SEEDBYTES + MLDSA_TRBYTES + (MLDSA_L + MLDSA_K) * MLDSA_POLYETA_PACKEDBYTES)

/* Everything secret keygen holds, in one place to be wiped once. t = A s1 + s2 is made
 * a row at a time, straight into the encodings of t1 and t0. */
struct keygen_ws {
  uint8_t seedbuf[MLDSA_SEEDBYTES + 2];
  uint8_t expanded[2 * MLDSA_SEEDBYTES + MLDSA_CRHBYTES]; /* rho || rho' || K */
  mldsa_polyvecl s1;                                     /* s1, then NTT(s1) */
  mldsa_polyveck s2;
  mldsa_poly t, t0; /* a row of t: t1 and t0 */
};

/* Rows first .. end - 1 of t = A s1 + s2 (NTT(s1) in ws, those rows of A reordered),
 * with coefficients in [0, q): (t1, t0) = Power2Round(t), t1 into pk, t0 encoded into
 * t0_out (K polynomials, as in sk). */
static void public_rows(uint8_t *pk, uint8_t *t0_out, struct keygen_ws *ws,
                        const mldsa_matrix *a, unsigned first, unsigned end) {
  for (unsigned i = first; i < end; ++i) {
    KERNEL(pointwise_acc)(ws->t.c, a->row[i].v[0].c, ws->s1.v[0].c, MLDSA_L);
    KERNEL(reduce32)(ws->t.c);
    KERNEL(invntt_tomont)(ws->t.c);
    KERNEL(add)(ws->t.c, ws->t.c, ws->s2.v[i].c);
    /* invntt_tomont promises |out| < q only, so out + s2 may reach q + eta: reduce32
       brings it into [-6283009, 6283008] before caddq, which then gives [0, q) as
       power2round needs */
    KERNEL(reduce32)(ws->t.c);
    KERNEL(caddq)(ws->t.c);
    KERNEL(power2round)(ws->t.c, ws->t0.c, ws->t.c);
    pack_t1_poly(pk + MLDSA_SEEDBYTES + i * MLDSA_POLYT1_PACKEDBYTES, ws->t.c);
    pack_t0_poly(t0_out + i * MLDSA_POLYT0_PACKEDBYTES, ws->t0.c);
  }
}

/* public_split's choices, for keygen (ExpandS beside ExpandA's first part) and for the
 * import check (ExpandA alone), made once per process. */
static unsigned keygen_split, import_split;
static mldsa_once_flag splits_chosen = MLDSA_ONCE_INIT;
static void choose_splits(void) {
  keygen_split = public_split(MLDSA_L + MLDSA_K);
  import_split = public_split(0);
}

/* From s1 and s2 in ws and rows 0 .. split - 1 of A (ExpandA's standard order), the rest
 * of A, pk = pkEncode(rho, t1), t0 encoded into t0_out and tr = H(pk) (public_split). A
 * ends in this ISA's order and ws->s1 as NTT(s1). Inlined, as check_secret below: the
 * ExpandA it calls is the deepest callee of keygen and of the import check, and
 * mldsa_stack_wipe reaches as deep as that callee and no deeper. */
static inline __attribute__((always_inline)) void make_public(
    uint8_t *pk, uint8_t tr[MLDSA_TRBYTES], uint8_t *t0_out, struct keygen_ws *ws,
    mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES], unsigned split) {
  vecl_ntt(&ws->s1);
  memcpy(pk, rho, MLDSA_SEEDBYTES);
  reorder_matrix(a, 0, split);
  public_rows(pk, t0_out, ws, a, 0, split);
  if (split == MLDSA_K) { /* all of A was there: the hash alone */
    SHAKE256(tr, MLDSA_TRBYTES, pk, MLDSA_PUBLICKEYBYTES);
    return;
  }
  const mldsa_hash_input in = {{pk}, {MLDSA_PUBLICKEYBYTES}, 1};
  hash_rest h;
  expand_a_hash_begin(a, rho, split * MLDSA_L, tr, MLDSA_TRBYTES, &in,
                      MLDSA_SEEDBYTES + split * MLDSA_POLYT1_PACKEDBYTES, &h);
  reorder_matrix(a, split, MLDSA_K);
  public_rows(pk, t0_out, ws, a, split, MLDSA_K);
  hash_finish(&h, tr, MLDSA_TRBYTES);
}

void ENTRY(keygen)(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]) {
  struct keygen_ws ws;
  uint8_t tr[MLDSA_TRBYTES];
  const uint8_t *rho = ws.expanded, *rhoprime = ws.expanded + MLDSA_SEEDBYTES,
                *key = ws.expanded + MLDSA_SEEDBYTES + MLDSA_CRHBYTES;

  memcpy(ws.seedbuf, seed, MLDSA_SEEDBYTES);
  ws.seedbuf[MLDSA_SEEDBYTES] = MLDSA_K;
  ws.seedbuf[MLDSA_SEEDBYTES + 1] = MLDSA_L;
  SHAKE256(ws.expanded, sizeof ws.expanded, ws.seedbuf, sizeof ws.seedbuf);
  MLDSA_CT_DECLASSIFY(ws.expanded, MLDSA_SEEDBYTES); /* rho: public, part of pk */

  mldsa_matrix a;
  mldsa_once(&splits_chosen, choose_splits);
  expand_a_s(&a, rho, keygen_split * MLDSA_L, &ws.s1, &ws.s2, rhoprime); /* ExpandS beside */
  /* sk = rho || K || tr || s1 || s2 || t0: s1 and s2 before NTT(s1), tr and t0 after */
  pack_sk(sk, rho, key, NULL, &ws.s1, &ws.s2, NULL);
  make_public(pk, tr, sk + SK_T0_OFFSET, &ws, &a, rho, keygen_split);
  memcpy(sk + 2 * MLDSA_SEEDBYTES, tr, MLDSA_TRBYTES);
  mldsa_zeroize(&ws, sizeof ws);
  mldsa_stack_wipe();
}

/* ---- Sign_internal (Alg. 7), from mu ---- */

/* What signing needs of the secret key, in the form the attempts use: the body of a
 * prepared secret key (with t0 beside it, prepared_secret below), and the one-shot
 * sign's own copy (which takes t0 from sk a row at a time instead: the t0 check runs
 * about once per signature, and the K polynomials it saves keep ML-DSA-87 on a 128 KiB
 * thread stack). */
typedef struct {
  uint8_t rho[MLDSA_SEEDBYTES], key[MLDSA_SEEDBYTES];
  mldsa_polyvecl s1; /* NTT domain, this ISA's order */
  mldsa_polyveck s2; /* NTT domain, this ISA's order */
  mldsa_matrix a;    /* ExpandA(rho), this ISA's order */
} signing_key;

/* t0 of the signing key: in NTT domain (a prepared key), or else encoded (the t0 part of
 * sk). Which one is public. */
typedef struct {
  const mldsa_polyveck *ntt;
  const uint8_t *packed;
} t0_source;

/* z = y + c s1 needs y after NTT(y) went into A y. ML-DSA-87 on avx512, the largest
 * set with the largest mask stream (8 polynomials), keeps no y: z = INTT(c s1 + NTT(y))
 * in place of NTT(y), both terms times 2^-32 (a product with ones_poly), which
 * invntt_tomont undoes; that keeps its sign 7 KiB further below 112 KiB of stack. Every
 * other case keeps y, one more vector: the extra product and reduction per polynomial
 * would cost 2-3% of sign (measured: callgrind on scalar and sse2, rdtsc on avx2 and
 * avx512), and their stacks have room. */
#define SIGN_KEEPS_Y_scalar 1
#define SIGN_KEEPS_Y_sse2 1
#define SIGN_KEEPS_Y_avx2 1
#define SIGN_KEEPS_Y_avx512 (MLDSA_MODE != 87)
#define SIGN_KEEPS_Y_neon 1
#define SIGN_KEEPS_Y MLDSA_CAT3(SIGN_KEEPS_Y_, MLDSA_ISA, )
/* The per-signature workspace: all secret, wiped once at the end. The vectors are worked
 * a row at a time where the algorithm allows: w1 lives only in its encoding (in ctilde_in),
 * NTT(y) becomes z in place, and the hint is made again, into w0, once an attempt is
 * accepted. */
struct sign_ws {
  uint8_t rhopp_in[MLDSA_SEEDBYTES + MLDSA_RNDBYTES + MLDSA_CRHBYTES]; /* K || rnd || mu */
  uint8_t rhopp[MLDSA_CRHBYTES];
  uint8_t ctilde_in[MLDSA_CRHBYTES + MLDSA_K * MLDSA_POLYW1_PACKEDBYTES]; /* mu || w1 */
  uint8_t ctilde[MLDSA_CTILDEBYTES];
  mldsa_polyvecl z;                   /* y, then NTT(y), then z */
#if SIGN_KEEPS_Y
  mldsa_polyvecl y;
#endif
  mldsa_polyveck w0; /* LowBits(w), then r0, then r0 + c t0, then the hint h */
  mldsa_poly c, t, u;                 /* NTT(c), two temporaries */
  mask_stream mask;                   /* y of this and the next attempts */
};

#if !SIGN_KEEPS_Y
/* 1 in every coefficient: a pointwise Montgomery product with it multiplies by 2^-32. */
static const mldsa_poly ones_poly = {{
#define ONE8 1, 1, 1, 1, 1, 1, 1, 1
#define ONE64 ONE8, ONE8, ONE8, ONE8, ONE8, ONE8, ONE8, ONE8
    ONE64, ONE64, ONE64, ONE64
#undef ONE64
#undef ONE8
}};
#endif

/* sigEncode (FIPS 204 Alg. 26) of an accepted attempt: z by this ISA's kernel, c~ and
 * the hints by packing.c. */
static void sig_encode(uint8_t sig[MLDSA_SIGBYTES], const uint8_t ctilde[MLDSA_CTILDEBYTES],
                       const mldsa_polyvecl *z, const mldsa_polyveck *h) {
  FOR_EACH_POLY(MLDSA_L, i)
    KERNEL_G1(pack_z)(sig + MLDSA_CTILDEBYTES + i * MLDSA_POLYZ_PACKEDBYTES, z->v[i].c);
  pack_sig(sig, ctilde, h);
}

/* One attempt of the rejection loop; 1 when the attempt gives a signature. The
 * rejection decision of an attempt is public (FIPS 204 section 3.4), the rest secret. */
/* The r0 check of an attempt: w0 = LowBits(w) becomes r0 = w0 - c s2 (c_hat is NTT(c);
 * tmp is scratch); 1 when some |r0| >= gamma2 - beta. Shared by the one-at-a-time and the
 * batched attempts. */
static int r0_rejects(mldsa_polyveck *w0, const mldsa_poly *c_hat, const signing_key *k,
                      mldsa_poly *tmp) {
  int reject = 0;
  FOR_EACH_POLY(MLDSA_K, i) {
    KERNEL(pointwise_montgomery)(tmp->c, c_hat->c, k->s2.v[i].c);
    KERNEL(invntt_tomont)(tmp->c);
    KERNEL(sub)(w0->v[i].c, w0->v[i].c, tmp->c);
    KERNEL(reduce32)(w0->v[i].c);
    reject |= KERNEL(chknorm)(w0->v[i].c, MLDSA_GAMMA2 - MLDSA_BETA);
  }
  return reject;
}

static int sign_attempt(struct sign_ws *ws, const signing_key *k, t0_source t0) {
#if SIGN_KEEPS_Y
  expand_mask(&ws->y, &ws->mask, ws->rhopp);
  ws->z = ws->y;
#else
  expand_mask(&ws->z, &ws->mask, ws->rhopp);
#endif

  /* w = A y a row at a time, split into high and low bits; w1 only encoded */
  vecl_ntt(&ws->z);
  FOR_EACH_POLY(MLDSA_K, i) {
    KERNEL(pointwise_acc)(ws->t.c, k->a.row[i].v[0].c, ws->z.v[0].c, MLDSA_L);
    KERNEL(reduce32)(ws->t.c);
    KERNEL(invntt_tomont)(ws->t.c);
    KERNEL(caddq)(ws->t.c);
    KERNEL_G2(decompose)(ws->t.c, ws->w0.v[i].c, ws->t.c);
    KERNEL_G2(pack_w1)(ws->ctilde_in + MLDSA_CRHBYTES + i * MLDSA_POLYW1_PACKEDBYTES, ws->t.c);
  }

  /* c~ = H(mu || w1Encode(w1)), with the next attempt's y in the batch's other lanes;
   * c = SampleInBall(c~) */
  _Static_assert(sizeof ws->ctilde_in >= MLDSA_MASK_BLOCKS * MLDSA_SHAKE256_RATE,
                 "c~'s input fills the permutations of a polynomial of y");
  hash_beside_mask(&ws->mask, ws->rhopp, ws->ctilde, MLDSA_CTILDEBYTES, ws->ctilde_in,
                   sizeof ws->ctilde_in);
  sample_in_ball(&ws->c, ws->ctilde, KERNEL(keccak_f1600_x1));
  KERNEL(ntt)(ws->c.c);

  /* Each check's outcome is public, so an attempt stops at the first one that fails.
   * The r0 check goes first: it rejects more attempts than the z check (57%, 69% and 61%
   * of them against 46%, 37% and 35% for ML-DSA-44, -65 and -87, counted over 2,000
   * signatures each), so fewer attempts pay for the other. The order of the checks does
   * not change the signature. */
  /* r0 = LowBits(w - c s2) must stay below gamma2 - beta */
  int reject = r0_rejects(&ws->w0, &ws->c, k, &ws->t);
  if (MLDSA_CT_PUBLIC(reject)) return 0;

  /* z = y + c s1 (SIGN_KEEPS_Y above), must stay below gamma1 - beta */
  FOR_EACH_POLY(MLDSA_L, i) {
#if SIGN_KEEPS_Y
    KERNEL(pointwise_montgomery)(ws->z.v[i].c, ws->c.c, k->s1.v[i].c);
    KERNEL(invntt_tomont)(ws->z.v[i].c);
    KERNEL(add)(ws->z.v[i].c, ws->z.v[i].c, ws->y.v[i].c);
#else
    KERNEL(pointwise_montgomery)(ws->t.c, ws->c.c, k->s1.v[i].c);
    KERNEL(pointwise_montgomery)(ws->z.v[i].c, ws->z.v[i].c, ones_poly.c);
    KERNEL(add)(ws->z.v[i].c, ws->z.v[i].c, ws->t.c);
    KERNEL(reduce32)(ws->z.v[i].c);
    KERNEL(invntt_tomont)(ws->z.v[i].c);
#endif
    KERNEL(reduce32)(ws->z.v[i].c);
  }
  FOR_EACH_POLY(MLDSA_L, i) reject |= KERNEL(chknorm)(ws->z.v[i].c, MLDSA_GAMMA1 - MLDSA_BETA);
  if (MLDSA_CT_PUBLIC(reject)) return 0;

  /* c t0 must stay below gamma2; the hint then makes up for the dropped t0 */
  unsigned ones = 0;
  FOR_EACH_POLY(MLDSA_K, i) {
    const int32_t *t0i;
    if (t0.ntt != NULL) {
      t0i = t0.ntt->v[i].c;
    } else {
      unpack_t0_poly(ws->u.c, t0.packed + i * MLDSA_POLYT0_PACKEDBYTES);
      KERNEL(ntt)(ws->u.c);
      t0i = ws->u.c;
    }
    KERNEL(pointwise_montgomery)(ws->t.c, ws->c.c, t0i);
    KERNEL(invntt_tomont)(ws->t.c);
    KERNEL(reduce32)(ws->t.c);
    reject |= KERNEL(chknorm)(ws->t.c, MLDSA_GAMMA2);
    KERNEL(add)(ws->w0.v[i].c, ws->w0.v[i].c, ws->t.c);
    unpack_w1_poly(ws->u.c, ws->ctilde_in + MLDSA_CRHBYTES + i * MLDSA_POLYW1_PACKEDBYTES);
    ones += KERNEL_G2(make_hint)(ws->u.c, ws->w0.v[i].c, ws->u.c); /* counted only */
  }
  if (MLDSA_CT_PUBLIC(reject)) return 0;
  return MLDSA_CT_PUBLIC(ones <= MLDSA_OMEGA);
}

/* The rejection loop under a signing key: the one-shot and the prepared sign. sig is
 * zeroed when no attempt within the limit succeeds (MLDSA_ERR_KEY). */
static int sign_with(uint8_t *sig, const signing_key *k, t0_source t0, const uint8_t mu[64],
                     const uint8_t rnd[32]) {
  struct sign_ws ws;
  int ret = MLDSA_ERR_KEY;
  /* rho'' = H(K || rnd || mu) */
  memcpy(ws.rhopp_in, k->key, MLDSA_SEEDBYTES);
  memcpy(ws.rhopp_in + MLDSA_SEEDBYTES, rnd, MLDSA_RNDBYTES);
  memcpy(ws.rhopp_in + MLDSA_SEEDBYTES + MLDSA_RNDBYTES, mu, MLDSA_CRHBYTES);
  SHAKE256(ws.rhopp, sizeof ws.rhopp, ws.rhopp_in, sizeof ws.rhopp_in);
  memcpy(ws.ctilde_in, mu, MLDSA_CRHBYTES);
  mask_stream_init(&ws.mask);

  for (unsigned attempt = 0; attempt < MLDSA_MAX_SIGN_ATTEMPTS; ++attempt) {
    MLDSA_SEAM_COUNT_ATTEMPT();
    if (MLDSA_SEAM_REJECT(sign_attempt(&ws, k, t0))) {
      MLDSA_SEAM_FAULT_Z(ws.z.v[0].c[0]);
      /* the hint again, into w0 (r0 + c t0, no longer needed), from w1's encoding */
      FOR_EACH_POLY(MLDSA_K, i) {
        unpack_w1_poly(ws.u.c, ws.ctilde_in + MLDSA_CRHBYTES + i * MLDSA_POLYW1_PACKEDBYTES);
        KERNEL_G2(make_hint)(ws.w0.v[i].c, ws.w0.v[i].c, ws.u.c);
      }
      MLDSA_CT_DECLASSIFY(&ws.w0, sizeof ws.w0); /* accepted: the hint is in sig */
      sig_encode(sig, ws.ctilde, &ws.z, &ws.w0);
      ret = MLDSA_OK;
      break;
    }
  }
  if (ret != MLDSA_OK) memset(sig, 0, MLDSA_SIGBYTES);
  mldsa_zeroize(&ws, sizeof ws);
  mldsa_stack_wipe_sign();
  return ret;
}

/* s1, s2 of a signing key into NTT domain, A from its rho; with mu_in, also
 * mu = H(mu_in) in the batched permutations of ExpandA. */
static void finish_signing_key(signing_key *k, uint8_t mu[MLDSA_CRHBYTES],
                               const mldsa_hash_input *mu_in) {
  vecl_ntt(&k->s1);
  veck_ntt(&k->s2);
  if (mu_in != NULL)
    expand_a_hash(&k->a, k->rho, mu, MLDSA_CRHBYTES, mu_in);
  else
    expand_a(&k->a, k->rho, 0, MLDSA_K * MLDSA_L);
  reorder_matrix(&k->a, 0, MLDSA_K);
}

/* Sign under sk: mu given, or (mprime not NULL) mu = H(tr || M') with M' the pieces of
 * mprime, hashed beside ExpandA into mu_out. */
static int sign_sk(uint8_t *sig, const uint8_t *mu, uint8_t *mu_out,
                   const mldsa_hash_input *mprime, const uint8_t rnd[32], const uint8_t *sk) {
  signing_key k;
  uint8_t tr[MLDSA_TRBYTES];
  int ret = MLDSA_ERR_KEY;

  int bad_key = unpack_sk(k.rho, k.key, tr, &k.s1, &k.s2, NULL, sk);
  MLDSA_CT_PLANTED_LEAK(k.s1.v[0].c[0]); /* nothing, except in ci/ct --self-test */
  if (MLDSA_CT_PUBLIC(bad_key == 0)) {   /* the key's validity is returned */
    mldsa_hash_input mu_in = {{tr}, {MLDSA_TRBYTES}, 1};
    if (mprime != NULL) {
      for (unsigned i = 0; i < mprime->n && mu_in.n < 3; ++i) {
        mu_in.p[mu_in.n] = mprime->p[i];
        mu_in.len[mu_in.n++] = mprime->len[i];
      }
    }
    finish_signing_key(&k, mu_out, mprime != NULL ? &mu_in : NULL);
    if (mprime != NULL) mu = mu_out;
    t0_source t0 = {NULL, sk + SK_T0_OFFSET};
    ret = sign_with(sig, &k, t0, mu, rnd);
  } else {
    memset(sig, 0, MLDSA_SIGBYTES);
  }
  mldsa_zeroize(&k, sizeof k);
  mldsa_stack_wipe();
  return ret;
}

int ENTRY(sign)(uint8_t *sig, const uint8_t mu[64], const uint8_t rnd[32], const uint8_t *sk) {
  return sign_sk(sig, mu, NULL, NULL, rnd, sk);
}

int ENTRY(sign_msg)(uint8_t *sig, uint8_t mu[64], const mldsa_hash_input *mprime,
                    const uint8_t rnd[32], const uint8_t *sk) {
  return sign_sk(sig, NULL, mu, mprime, rnd, sk);
}

/* ---- Verify_internal (Alg. 8), from mu ---- */

/* What verifying needs of the public key: the body of a prepared public key, and the
 * one-shot verify's own copy. */
typedef struct {
  mldsa_matrix a;    /* ExpandA(rho), this ISA's order */
  mldsa_polyveck t1; /* NTT(t1 2^d), this ISA's order */
} verifying_key;

/* The verifying key of pk, and tr = H(pk) into tr unless it is NULL: hashed in the same
 * batched permutations as ExpandA. */
static void make_verifying_key(verifying_key *k, uint8_t *tr, const uint8_t *pk) {
  uint8_t rho[MLDSA_SEEDBYTES];
  unpack_pk(rho, &k->t1, pk);
  FOR_EACH_POLY(MLDSA_K, i) {
    KERNEL(shiftl)(k->t1.v[i].c);
    KERNEL(ntt)(k->t1.v[i].c);
  }
  if (tr != NULL) {
    const mldsa_hash_input in = {{pk}, {MLDSA_PUBLICKEYBYTES}, 1};
    expand_a_hash(&k->a, rho, tr, MLDSA_TRBYTES, &in);
  } else {
    expand_a(&k->a, rho, 0, MLDSA_K * MLDSA_L);
  }
  reorder_matrix(&k->a, 0, MLDSA_K);
}

/* A signature decoded, and z checked against gamma1 - beta. */
typedef struct {
  uint8_t ctilde[MLDSA_CTILDEBYTES];
  mldsa_polyvecl z;
  mldsa_polyveck h;
} decoded_sig;

/* 0 when sig is well formed and ||z|| < gamma1 - beta (cheap: done before any key work). */
static int decode_sig(decoded_sig *d, const uint8_t *sig) {
  if (unpack_sig(d->ctilde, &d->h, sig) != 0) return -1;
  FOR_EACH_POLY(MLDSA_L, i)
  KERNEL_G1(unpack_z)(d->z.v[i].c, sig + MLDSA_CTILDEBYTES + i * MLDSA_POLYZ_PACKEDBYTES);
  int too_big = 0;
  FOR_EACH_POLY(MLDSA_L, i) too_big |= KERNEL(chknorm)(d->z.v[i].c, MLDSA_GAMMA1 - MLDSA_BETA);
  return too_big ? -1 : 0;
}

/* w1Encode(UseHint(h, A z - c t1 2^d)) into w1_out, c = NTT(SampleInBall(c~)). */
static void verify_w1(uint8_t w1_out[MLDSA_K * MLDSA_POLYW1_PACKEDBYTES], const verifying_key *k,
                      decoded_sig *d, const mldsa_poly *c) {
  mldsa_polyveck w1;
  mldsa_poly ct1;

  /* w'approx = A z - c t1 2^d */
  vecl_ntt(&d->z);
  matrix_mul(&w1, &k->a, &d->z);
  FOR_EACH_POLY(MLDSA_K, i) {
    KERNEL(pointwise_montgomery)(ct1.c, c->c, k->t1.v[i].c);
    KERNEL(sub)(w1.v[i].c, w1.v[i].c, ct1.c);
  }
  veck_reduce32(&w1);
  veck_invntt(&w1);
  veck_caddq(&w1);
  FOR_EACH_POLY(MLDSA_K, i) {
    KERNEL_G2(use_hint)(w1.v[i].c, w1.v[i].c, d->h.v[i].c);
    KERNEL_G2(pack_w1)(w1_out + i * MLDSA_POLYW1_PACKEDBYTES, w1.v[i].c);
  }
}

/* The rest of Alg. 8 under a verifying key: the one-shot and the prepared verify. */
static int verify_with(const verifying_key *k, decoded_sig *d, const uint8_t mu[64]) {
  uint8_t ctilde2[MLDSA_CTILDEBYTES];
  uint8_t hash_in[MLDSA_CRHBYTES + MLDSA_K * MLDSA_POLYW1_PACKEDBYTES];
  mldsa_poly c;

  sample_in_ball_public(&c, d->ctilde, KERNEL(keccak_f1600_x1)); /* c~ opens sig */
  KERNEL(ntt)(c.c);
  verify_w1(hash_in + MLDSA_CRHBYTES, k, d, &c);
  memcpy(hash_in, mu, MLDSA_CRHBYTES);
  SHAKE256(ctilde2, sizeof ctilde2, hash_in, sizeof hash_in);
  return mldsa_ct_differ(d->ctilde, ctilde2, MLDSA_CTILDEBYTES) ? MLDSA_ERR_VERIFY : MLDSA_OK;
}

int ENTRY(verify)(const uint8_t *sig, const uint8_t mu[64], const uint8_t *pk) {
  decoded_sig d;
  verifying_key k;
  if (decode_sig(&d, sig) != 0) return MLDSA_ERR_VERIFY;
  make_verifying_key(&k, NULL, pk);
  return verify_with(&k, &d, mu);
}

int ENTRY(verify_pk)(const uint8_t *sig, const uint8_t *pk, mldsa_mu_fn mu_of, const void *arg) {
  decoded_sig d;
  verifying_key k;
  uint8_t tr[MLDSA_TRBYTES], mu[MLDSA_CRHBYTES];
  if (decode_sig(&d, sig) != 0) return MLDSA_ERR_VERIFY;
  make_verifying_key(&k, tr, pk);
  mu_of(mu, tr, arg);
  return verify_with(&k, &d, mu);
}

/* ---- pk from an expanded sk, with the import checks ---- */

/* The import check's workspace: keygen's, and t0 recomputed and encoded. In the caller's
 * frame, not the check's, so that the check's ExpandA runs within the stack wipe. */
struct import_ws {
  struct keygen_ws k;
  uint8_t t0[MLDSA_K * MLDSA_POLYT0_PACKEDBYTES];
};

/* The import check of sk, whose s1, s2 are in ws: A = ExpandA(rho) into a (this ISA's
 * order), and t1, t0, pk and H(pk) recomputed; nonzero (secret until the caller
 * declassifies it) when tr is not H(pk) or t0_given (sk's packed t0, copied by the
 * caller before pk is written, since pk may overlap sk) is not the recomputed t0.
 * ws->k.s1 becomes NTT(s1). */
static inline __attribute__((always_inline)) int check_secret(
    uint8_t *pk, struct import_ws *ws, mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES],
    const uint8_t tr[MLDSA_TRBYTES], const uint8_t t0_given[MLDSA_K * MLDSA_POLYT0_PACKEDBYTES]) {
  uint8_t tr2[MLDSA_TRBYTES];
  mldsa_once(&splits_chosen, choose_splits);
  expand_a(a, rho, 0, import_split * MLDSA_L);
  make_public(pk, tr2, ws->t0, &ws->k, a, rho, import_split);
  /* The key is consistent when tr = H(pk) and its t0 is the recomputed one. */
  int bad = mldsa_ct_differ(tr, tr2, sizeof tr2);
  bad |= mldsa_ct_differ(ws->t0, t0_given, sizeof ws->t0);
  return bad;
}

int ENTRY(public_from_secret)(uint8_t *pk, const uint8_t *sk) {
  struct import_ws ws;
  mldsa_matrix a;
  uint8_t rho[MLDSA_SEEDBYTES], key[MLDSA_SEEDBYTES], tr[MLDSA_TRBYTES];
  uint8_t t0_given[MLDSA_K * MLDSA_POLYT0_PACKEDBYTES];

  /* Everything of sk is read before pk is written: pk may overlap sk (in place). sk's t0
     is compared encoded (check_secret), never decoded. */
  int bad = unpack_sk(rho, key, tr, &ws.k.s1, &ws.k.s2, NULL, sk);
  memcpy(t0_given, sk + SK_T0_OFFSET, sizeof t0_given);
  bad |= check_secret(pk, &ws, &a, rho, tr, t0_given);
  mldsa_zeroize(&ws, sizeof ws);
  mldsa_zeroize(key, sizeof key);
  mldsa_zeroize(t0_given, sizeof t0_given);
  mldsa_stack_wipe();
  if (MLDSA_CT_PUBLIC(bad)) { /* the key's validity is returned */
    memset(pk, 0, MLDSA_PUBLICKEYBYTES);
    return MLDSA_ERR_KEY;
  }
  return MLDSA_OK;
}

/* ---- prepared keys: the header (api.c's), then the key in the form above ---- */

typedef struct {
  mldsa_prepared_header hdr;
  verifying_key k;
} prepared_public;

typedef struct {
  mldsa_prepared_header hdr;
  signing_key k;
  mldsa_polyveck t0; /* NTT domain, this ISA's order */
  uint8_t pk[MLDSA_PUBLICKEYBYTES]; /* from the import check: what MLDSA_SIGN_CHECK verifies against */
} prepared_secret;

_Static_assert(sizeof(prepared_public) <= sizeof(mldsa_prepared_public_key),
               "MLDSA_PREPARED_PUBLIC_KEY_BYTES too small");
_Static_assert(sizeof(prepared_secret) <= sizeof(mldsa_prepared_secret_key),
               "MLDSA_PREPARED_SECRET_KEY_BYTES too small");
_Static_assert(_Alignof(prepared_public) <= _Alignof(mldsa_prepared_public_key),
               "mldsa_prepared_public_key under-aligned");
_Static_assert(_Alignof(prepared_secret) <= _Alignof(mldsa_prepared_secret_key),
               "mldsa_prepared_secret_key under-aligned");

static void prepare_public(mldsa_prepared_public_key *out, const uint8_t *pk) {
  prepared_public *pp = (prepared_public *)out;
  make_verifying_key(&pp->k, pp->hdr.tr, pk);
}

static int verify_prepared(const mldsa_prepared_public_key *in, const uint8_t *sig,
                           const uint8_t mu[64]) {
  const prepared_public *pp = (const prepared_public *)in;
  decoded_sig d;
  if (decode_sig(&d, sig) != 0) return MLDSA_ERR_VERIFY;
  return verify_with(&pp->k, &d, mu);
}

static int prepare_secret(mldsa_prepared_secret_key *out, const uint8_t *sk) {
  prepared_secret *ps = (prepared_secret *)out;
  struct import_ws ws;

  int bad = unpack_sk(ps->k.rho, ps->k.key, ps->hdr.tr, &ws.k.s1, &ws.k.s2, &ps->t0, sk);
  bad |= check_secret(ps->pk, &ws, &ps->k.a, ps->k.rho, ps->hdr.tr, sk + SK_T0_OFFSET);
  ps->k.s1 = ws.k.s1; /* NTT(s1) */
  ps->k.s2 = ws.k.s2;
  veck_ntt(&ps->k.s2);
  veck_ntt(&ps->t0);
  mldsa_zeroize(&ws, sizeof ws);
  mldsa_stack_wipe();
  if (MLDSA_CT_PUBLIC(bad)) { /* the key's validity is returned */
    mldsa_zeroize(ps, sizeof *ps);
    return MLDSA_ERR_KEY;
  }
  return MLDSA_OK;
}

static int sign_prepared(uint8_t *sig, const mldsa_prepared_secret_key *in, const uint8_t mu[64],
                         const uint8_t rnd[32]) {
  const prepared_secret *ps = (const prepared_secret *)in;
  t0_source t0 = {&ps->t0, NULL};
  return sign_with(sig, &ps->k, t0, mu, rnd);
}

static const uint8_t *prepared_secret_public_key(const mldsa_prepared_secret_key *in) {
  return ((const prepared_secret *)in)->pk;
}

/* ---- batches: the hashes of independent items in the lanes of one batched Keccak ----
 *
 * Within one verification or signature the hashes around the arithmetic (mu, c~,
 * SampleInBall, rho'') form a chain on one Keccak state while the other lanes of the
 * batched permutation idle; across items they are independent. A group of up to W items
 * (W, this ISA's lane count) runs each of those hashes once for all of its items; the
 * arithmetic between them runs an item at a time, so the stack holds one item's vectors
 * and only the small per-item results (c, tr, mu, w1's encoding) of the group. */

#define BATCH_W MLDSA_KECCAKX_W(MLDSA_ISA)

/* mu = H(tr || 0 || len(ctx) || ctx || msg) (pure ML-DSA) of n items at once. */
static void batch_mu(mldsa_keccakx *st, uint8_t *const *mu, const uint8_t *const *tr,
                     uint8_t (*head)[2], const uint8_t *const *ctx, const size_t *ctx_len,
                     const uint8_t *const *msg, const size_t *msg_len, unsigned n) {
  mldsa_hash_input in[BATCH_W];
  for (unsigned j = 0; j < n; ++j) {
    head[j][0] = 0;
    head[j][1] = (uint8_t)ctx_len[j];
    in[j] = (mldsa_hash_input){{tr[j], head[j], ctx[j], msg[j]},
                               {MLDSA_TRBYTES, 2, ctx_len[j], msg_len[j]}, 4};
  }
  KERNEL(shake256x_pieces)(st, mu, MLDSA_CRHBYTES, in, n);
}

/* What a group keeps of each item between its hashes. */
typedef struct {
  uint8_t hash_in[MLDSA_CRHBYTES + MLDSA_K * MLDSA_POLYW1_PACKEDBYTES]; /* mu || w1 */
  uint8_t tr[MLDSA_TRBYTES];
  uint8_t head[2];
  int8_t c[MLDSA_N]; /* SampleInBall(c~), coefficients in {-1, 0, 1} */
} verify_lane;

/* w1's encoding of one item into ln: under the verifying key of the item's own pk, or
 * under a prepared key; -1 when the
 * signature is malformed or z too big. Two functions, kept out of line, so that the
 * one-shot key (30-64 KiB) is on the stack only in the first. */
static __attribute__((noinline)) int batch_item_w1(verify_lane *ln, const mldsa_verify_item *it) {
  decoded_sig d;
  verifying_key k;
  mldsa_poly c;
  if (decode_sig(&d, it->sig) != 0) return -1;
  make_verifying_key(&k, NULL, it->pk);
  for (unsigned i = 0; i < MLDSA_N; ++i) c.c[i] = ln->c[i];
  KERNEL(ntt)(c.c);
  verify_w1(ln->hash_in + MLDSA_CRHBYTES, &k, &d, &c);
  return 0;
}

static __attribute__((noinline)) int batch_item_w1_prepared(verify_lane *ln,
                                                            const prepared_public *pp,
                                                            const mldsa_verify_item *it) {
  decoded_sig d;
  mldsa_poly c;
  if (decode_sig(&d, it->sig) != 0) return -1;
  for (unsigned i = 0; i < MLDSA_N; ++i) c.c[i] = ln->c[i];
  KERNEL(ntt)(c.c);
  verify_w1(ln->hash_in + MLDSA_CRHBYTES, &pp->k, &d, &c);
  return 0;
}

/* n <= W items (api.c checked them): SampleInBall of every c~, then each item's w1, then
 * every mu, then every c~' = H(mu || w1). pp NULL: each item under its own pk. */
static void verify_group(const mldsa_prepared_public_key *ppk, const mldsa_verify_item *const *items,
                         unsigned n, int *results) {
  const prepared_public *pp = (const prepared_public *)ppk;
  verify_lane lane[BATCH_W];
  mldsa_keccakx st;
  unsigned live[BATCH_W], m = 0;
  if (n > BATCH_W) n = BATCH_W;

  /* c = SampleInBall(c~): c~ opens the signature (public: the shuffle need not be
   * constant time) */
  const uint8_t *in[BATCH_W] = {NULL};
  for (unsigned j = 0; j < n; ++j) in[j] = items[j]->sig;
  KERNEL(shake256x_absorb)(&st, in, MLDSA_CTILDEBYTES, n);
  KERNEL(keccakx_permute)(&st, n); /* the first squeezing permutation */
  for (unsigned j = 0; j < n; ++j)
    sample_in_ball_public_lane(lane[j].c, st.s, BATCH_W, j, KERNEL_FN(keccak_f1600_x1));

  /* tr = H(pk) of every item in one batch: the one-shot verify hashes it in ExpandA's
   * spare lanes, which ML-DSA-87's 56 polynomials leave none of */
  uint8_t out[BATCH_W][MLDSA_SHAKE256_RATE];
  uint8_t *outp[BATCH_W] = {NULL};
  if (pp == NULL) {
    for (unsigned j = 0; j < n; ++j) {
      in[j] = items[j]->pk;
      outp[j] = out[j];
    }
    KERNEL(shake256x_absorb)(&st, in, MLDSA_PUBLICKEYBYTES, n);
    KERNEL(shake256x_squeezeblocks)(outp, 1, &st, n);
    for (unsigned j = 0; j < n; ++j) memcpy(lane[j].tr, out[j], MLDSA_TRBYTES);
  }

  for (unsigned j = 0; j < n; ++j) {
    int bad = pp != NULL ? batch_item_w1_prepared(&lane[j], pp, items[j])
                         : batch_item_w1(&lane[j], items[j]);
    results[j] = MLDSA_ERR_VERIFY;
    if (bad == 0) live[m++] = j;
  }
  if (m == 0) return;

  /* mu of the items whose signature decoded */
  uint8_t *mu[BATCH_W] = {NULL};
  const uint8_t *tr[BATCH_W] = {NULL}, *ctx[BATCH_W] = {NULL}, *msg[BATCH_W] = {NULL};
  size_t ctx_len[BATCH_W] = {0}, msg_len[BATCH_W] = {0};
  uint8_t head[BATCH_W][2];
  for (unsigned t = 0; t < m; ++t) {
    const mldsa_verify_item *it = items[live[t]];
    mu[t] = lane[live[t]].hash_in;
    tr[t] = pp != NULL ? pp->hdr.tr : lane[live[t]].tr;
    ctx[t] = it->ctx;
    ctx_len[t] = it->ctx_len;
    msg[t] = it->msg;
    msg_len[t] = it->msg_len;
  }
  batch_mu(&st, mu, tr, head, ctx, ctx_len, msg, msg_len, m);

  /* c~' = H(mu || w1), against c~ */
  for (unsigned t = 0; t < m; ++t) {
    in[t] = lane[live[t]].hash_in;
    outp[t] = out[t];
  }
  KERNEL(shake256x_absorb)(&st, in, sizeof lane[0].hash_in, m);
  KERNEL(shake256x_squeezeblocks)(outp, 1, &st, m);
  for (unsigned t = 0; t < m; ++t)
    results[live[t]] = mldsa_ct_differ(items[live[t]]->sig, out[t], MLDSA_CTILDEBYTES)
                           ? MLDSA_ERR_VERIFY
                           : MLDSA_OK;
}

/* Batch signing: the attempts of different messages share the lanes. A slot holds one
 * message in flight (its mu and rho'' hashed W messages at a time, ahead); every round
 * runs one attempt in each busy slot: ExpandMask of all of
 * them in full batches, w = A y and its split a slot at a time, then c~ = H(mu || w1) and
 * SampleInBall of all of them in one batch each, then each slot's checks. A slot whose
 * attempt is accepted writes its signature and takes the next message. Which slot runs
 * what depends only on the attempts' accept decisions, which are public (FIPS 204 section
 * 3.4); everything in a slot is secret and wiped. */
typedef struct {
  uint8_t ctilde_in[MLDSA_CRHBYTES + MLDSA_K * MLDSA_POLYW1_PACKEDBYTES]; /* mu || w1 */
  uint8_t rhopp[MLDSA_CRHBYTES];
  uint8_t ctilde[MLDSA_CTILDEBYTES];
  /* ExpandMask's output for this attempt: y encoded as z is (its first bytes) */
  uint8_t y[MLDSA_L][MLDSA_MASK_BLOCKS * MLDSA_SHAKE256_RATE];
  mldsa_polyveck w0; /* LowBits(w), then r0 + c t0, then the hint */
  int8_t c[MLDSA_N]; /* SampleInBall(c~) */
  unsigned item, attempt, busy;
} sign_slot;

/* As many slots as fit in 80 KiB beside one attempt's vectors (ML-DSA-44: 8, -65: 7,
 * -87: 5), at most the lanes; every busy slot is a lane of the c~ and SampleInBall
 * batches, and the 112 KiB stack of every call holds the rest of the attempt. */
enum { SIGN_SLOTS_FIT = 81920 / sizeof(sign_slot) };
#define SIGN_SLOTS (SIGN_SLOTS_FIT < BATCH_W ? (SIGN_SLOTS_FIT > 0 ? SIGN_SLOTS_FIT : 1) : BATCH_W)

/* The vectors of one attempt, reused by every slot. */
struct batch_sign_ws {
  mldsa_polyvecl z; /* NTT(y), then z */
  mldsa_poly c, t, u;
};

/* mu and rho'' of the next messages, computed W at a time ahead of the slots that will
 * take them, so that both hashes run in full batches. */
typedef struct {
  uint8_t mu[BATCH_W][MLDSA_CRHBYTES];
  uint8_t rhopp[BATCH_W][MLDSA_CRHBYTES];
  unsigned first, count; /* the messages first .. first + count - 1 */
} sign_queue;

static void queue_fill(mldsa_keccakx *st, sign_queue *q, unsigned first, unsigned count,
                       const prepared_secret *ps, const mldsa_sign_item *const *items,
                       const uint8_t *const *rnd) {
  uint8_t rhopp_in[BATCH_W][MLDSA_SEEDBYTES + MLDSA_RNDBYTES + MLDSA_CRHBYTES];
  uint8_t out[BATCH_W][MLDSA_SHAKE256_RATE];
  uint8_t *mu[BATCH_W] = {NULL}, *outp[BATCH_W] = {NULL};
  const uint8_t *tr[BATCH_W] = {NULL}, *ctx[BATCH_W] = {NULL}, *msg[BATCH_W] = {NULL};
  const uint8_t *in[BATCH_W] = {NULL};
  size_t ctx_len[BATCH_W] = {0}, msg_len[BATCH_W] = {0};
  uint8_t head[BATCH_W][2];
  if (count > BATCH_W) count = BATCH_W;
  q->first = first;
  q->count = count;
  for (unsigned t = 0; t < count; ++t) {
    const mldsa_sign_item *it = items[first + t];
    mu[t] = q->mu[t];
    tr[t] = ps->hdr.tr;
    ctx[t] = it->ctx;
    ctx_len[t] = it->ctx_len;
    msg[t] = it->msg;
    msg_len[t] = it->msg_len;
  }
  batch_mu(st, mu, tr, head, ctx, ctx_len, msg, msg_len, count);
  /* rho'' = H(K || rnd || mu) */
  for (unsigned t = 0; t < count; ++t) {
    memcpy(rhopp_in[t], ps->k.key, MLDSA_SEEDBYTES);
    memcpy(rhopp_in[t] + MLDSA_SEEDBYTES, rnd[first + t], MLDSA_RNDBYTES);
    memcpy(rhopp_in[t] + MLDSA_SEEDBYTES + MLDSA_RNDBYTES, q->mu[t], MLDSA_CRHBYTES);
    in[t] = rhopp_in[t];
    outp[t] = out[t];
  }
  KERNEL(shake256x_absorb)(st, in, sizeof rhopp_in[0], count);
  KERNEL(shake256x_squeezeblocks)(outp, 1, st, count);
  for (unsigned t = 0; t < count; ++t) memcpy(q->rhopp[t], out[t], MLDSA_CRHBYTES);
  mldsa_zeroize(rhopp_in, sizeof rhopp_in);
  mldsa_zeroize(out, sizeof out);
}

/* ExpandMask of the attempt of every busy slot (nonces attempt L .. attempt L + L - 1 of
 * its rho''), W polynomials per batch whatever slot they belong to. */
static void slots_mask(mldsa_keccakx *st, sign_slot *slot, const unsigned *busy, unsigned nb) {
  uint8_t seed[BATCH_W][MLDSA_CRHBYTES + 2];
  const uint8_t *in[BATCH_W] = {NULL};
  uint8_t *out[BATCH_W] = {NULL};
  unsigned j = 0;
  for (unsigned t = 0; t < nb; ++t) {
    sign_slot *sl = &slot[busy[t]];
    for (unsigned r = 0; r < MLDSA_L; ++r) {
      unsigned nonce = sl->attempt * MLDSA_L + r;
      memcpy(seed[j], sl->rhopp, MLDSA_CRHBYTES);
      seed[j][MLDSA_CRHBYTES] = (uint8_t)(nonce & 0xFF);
      seed[j][MLDSA_CRHBYTES + 1] = (uint8_t)(nonce >> 8);
      in[j] = seed[j];
      out[j] = sl->y[r];
      if (++j == BATCH_W || (t + 1 == nb && r + 1 == MLDSA_L)) {
        KERNEL(shake256x_absorb)(st, in, MLDSA_CRHBYTES + 2, j);
        KERNEL(shake256x_squeezeblocks)(out, MLDSA_MASK_BLOCKS, st, j);
        j = 0;
      }
    }
  }
  mldsa_zeroize(seed, sizeof seed);
}

/* w = A y of a slot's attempt: w0 kept, w1 encoded after mu. */
static void slot_commit(sign_slot *sl, struct batch_sign_ws *ws, const signing_key *k) {
  FOR_EACH_POLY(MLDSA_L, r) KERNEL_G1(unpack_z)(ws->z.v[r].c, sl->y[r]);
  vecl_ntt(&ws->z);
  FOR_EACH_POLY(MLDSA_K, i) {
    KERNEL(pointwise_acc)(ws->t.c, k->a.row[i].v[0].c, ws->z.v[0].c, MLDSA_L);
    KERNEL(reduce32)(ws->t.c);
    KERNEL(invntt_tomont)(ws->t.c);
    KERNEL(caddq)(ws->t.c);
    KERNEL_G2(decompose)(ws->t.c, sl->w0.v[i].c, ws->t.c);
    KERNEL_G2(pack_w1)(sl->ctilde_in + MLDSA_CRHBYTES + i * MLDSA_POLYW1_PACKEDBYTES, ws->t.c);
  }
}

/* The checks of a slot's attempt (sign_attempt's, in its order); 1 when accepted, with
 * z in ws->z and r0 + c t0 in the slot's w0. */
static int slot_check(sign_slot *sl, struct batch_sign_ws *ws, const signing_key *k,
                      const mldsa_polyveck *t0) {
  for (unsigned i = 0; i < MLDSA_N; ++i) ws->c.c[i] = sl->c[i];
  KERNEL(ntt)(ws->c.c);
  int reject = r0_rejects(&sl->w0, &ws->c, k, &ws->t);
  if (MLDSA_CT_PUBLIC(reject)) return 0;

  /* z = y + c s1 */
  FOR_EACH_POLY(MLDSA_L, i) {
    KERNEL_G1(unpack_z)(ws->u.c, sl->y[i]);
    KERNEL(pointwise_montgomery)(ws->z.v[i].c, ws->c.c, k->s1.v[i].c);
    KERNEL(invntt_tomont)(ws->z.v[i].c);
    KERNEL(add)(ws->z.v[i].c, ws->z.v[i].c, ws->u.c);
    KERNEL(reduce32)(ws->z.v[i].c);
  }
  FOR_EACH_POLY(MLDSA_L, i) reject |= KERNEL(chknorm)(ws->z.v[i].c, MLDSA_GAMMA1 - MLDSA_BETA);
  if (MLDSA_CT_PUBLIC(reject)) return 0;

  unsigned ones = 0;
  FOR_EACH_POLY(MLDSA_K, i) {
    KERNEL(pointwise_montgomery)(ws->t.c, ws->c.c, t0->v[i].c);
    KERNEL(invntt_tomont)(ws->t.c);
    KERNEL(reduce32)(ws->t.c);
    reject |= KERNEL(chknorm)(ws->t.c, MLDSA_GAMMA2);
    KERNEL(add)(sl->w0.v[i].c, sl->w0.v[i].c, ws->t.c);
    unpack_w1_poly(ws->u.c, sl->ctilde_in + MLDSA_CRHBYTES + i * MLDSA_POLYW1_PACKEDBYTES);
    ones += KERNEL_G2(make_hint)(ws->u.c, sl->w0.v[i].c, ws->u.c); /* counted only */
  }
  if (MLDSA_CT_PUBLIC(reject)) return 0;
  return MLDSA_CT_PUBLIC(ones <= MLDSA_OMEGA);
}

/* n messages under one prepared secret key (api.c checked them; rnd[j] is item j's or
 * fresh): results[j] and the signatures as sign_prepared's. */
static void sign_group(const mldsa_prepared_secret_key *psk, const mldsa_sign_item *const *items,
                       const uint8_t *const *rnd, unsigned n, int *results) {
  const prepared_secret *ps = (const prepared_secret *)psk;
  sign_slot slot[SIGN_SLOTS];
  sign_queue q = {.first = 0, .count = 0};
  struct batch_sign_ws ws;
  mldsa_keccakx st;
  unsigned next = 0;
  for (unsigned s = 0; s < SIGN_SLOTS; ++s) slot[s].busy = 0;

  for (;;) {
    unsigned busy[SIGN_SLOTS], nb = 0;
    for (unsigned s = 0; s < SIGN_SLOTS; ++s) {
      if (!slot[s].busy && next < n) {
        if (next == q.first + q.count) queue_fill(&st, &q, next, n - next, ps, items, rnd);
        memcpy(slot[s].ctilde_in, q.mu[next - q.first], MLDSA_CRHBYTES);
        memcpy(slot[s].rhopp, q.rhopp[next - q.first], MLDSA_CRHBYTES);
        slot[s].item = next++;
        slot[s].attempt = 0;
        slot[s].busy = 1;
      }
      if (slot[s].busy) busy[nb++] = s;
    }
    if (nb == 0) break;

    slots_mask(&st, slot, busy, nb);
    for (unsigned t = 0; t < nb; ++t) slot_commit(&slot[busy[t]], &ws, &ps->k);

    /* c~ = H(mu || w1) of every busy slot, then SampleInBall(c~) */
    uint8_t out[SIGN_SLOTS][MLDSA_SHAKE256_RATE];
    const uint8_t *in[BATCH_W] = {NULL};
    uint8_t *outp[BATCH_W] = {NULL};
    for (unsigned t = 0; t < nb; ++t) {
      in[t] = slot[busy[t]].ctilde_in;
      outp[t] = out[t];
    }
    KERNEL(shake256x_absorb)(&st, in, sizeof slot[0].ctilde_in, nb);
    KERNEL(shake256x_squeezeblocks)(outp, 1, &st, nb);
    for (unsigned t = 0; t < nb; ++t) {
      memcpy(slot[busy[t]].ctilde, out[t], MLDSA_CTILDEBYTES);
      in[t] = slot[busy[t]].ctilde;
    }
    mldsa_zeroize(out, sizeof out);
    KERNEL(shake256x_absorb)(&st, in, MLDSA_CTILDEBYTES, nb);
    KERNEL(keccakx_permute)(&st, nb); /* the first squeezing permutation */
    for (unsigned t = 0; t < nb; ++t) {
      sample_in_ball_lane(&ws.c, st.s, BATCH_W, t, KERNEL_FN(keccak_f1600_x1));
      for (unsigned i = 0; i < MLDSA_N; ++i) slot[busy[t]].c[i] = (int8_t)ws.c.c[i];
    }

    for (unsigned t = 0; t < nb; ++t) {
      sign_slot *sl = &slot[busy[t]];
      uint8_t *sig = items[sl->item]->sig;
      MLDSA_SEAM_COUNT_ATTEMPT();
      if (MLDSA_SEAM_REJECT(slot_check(sl, &ws, &ps->k, &ps->t0))) {
        MLDSA_SEAM_FAULT_Z(ws.z.v[0].c[0]);
        FOR_EACH_POLY(MLDSA_K, i) {
          unpack_w1_poly(ws.u.c, sl->ctilde_in + MLDSA_CRHBYTES + i * MLDSA_POLYW1_PACKEDBYTES);
          KERNEL_G2(make_hint)(sl->w0.v[i].c, sl->w0.v[i].c, ws.u.c);
        }
        MLDSA_CT_DECLASSIFY(&sl->w0, sizeof sl->w0); /* accepted: the hint is in sig */
        sig_encode(sig, sl->ctilde, &ws.z, &sl->w0);
        results[sl->item] = MLDSA_OK;
        sl->busy = 0;
      } else if (++sl->attempt == MLDSA_MAX_SIGN_ATTEMPTS) {
        memset(sig, 0, MLDSA_SIGBYTES);
        results[sl->item] = MLDSA_ERR_KEY;
        sl->busy = 0;
      }
    }
  }
  mldsa_zeroize(slot, sizeof slot);
  mldsa_zeroize(&q, sizeof q);
  mldsa_zeroize(&ws, sizeof ws);
  mldsa_zeroize(&st, sizeof st);
  mldsa_stack_wipe_sign();
}

const mldsa_backend ENTRY(backend) = {
    MLDSA_PUBLICKEYBYTES,
    MLDSA_SECRETKEYBYTES,
    MLDSA_SIGBYTES,
    KERNEL_FN(keccak_f1600_x1),
    ENTRY(keygen),
    ENTRY(sign),
    ENTRY(sign_msg),
    ENTRY(verify),
    ENTRY(verify_pk),
    ENTRY(public_from_secret),
    MLDSA_CAT3(MLDSA_ISA_ID_, MLDSA_ISA, ),
    prepare_public,
    verify_prepared,
    prepare_secret,
    sign_prepared,
    prepared_secret_public_key,
    BATCH_W,
    verify_group,
    sign_group,
};
