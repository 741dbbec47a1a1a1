/* KeyGen, Sign and Verify (FIPS 204 Alg. 6-8), written once and compiled per parameter
 * set (MLDSA_MODE) and per ISA (MLDSA_ISA): the arithmetic goes through the kernels of
 * that ISA, so the result is mldsa65_sign_avx2 and friends. */
#include <string.h>

#include "backend.h"
#include "ct.h"
#include "expand.h"
#include "fips202.h"
#include "isa_names.h"
#include "kernels.h"
#include "mldsa.h"
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

/* ExpandA, then into this ISA's NTT order. */
static void expand_matrix(mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES]) {
  expand_a(a, rho);
  FOR_EACH_POLY(MLDSA_K, i)
  FOR_EACH_POLY(MLDSA_L, j) KERNEL(ntt_reorder)(a->row[i].v[j].c);
}

/* t = A s1 + s2 with coefficients in [0, q), from s1 in NTT domain. invntt_tomont
 * promises |out| < q only, so out + s2 may reach q + eta: reduce32 brings it into
 * [-6283009, 6283008] before caddq, which then gives [0, q) as power2round needs. */
static void compute_t(mldsa_polyveck *t, const mldsa_matrix *a, const mldsa_polyvecl *s1hat,
                      const mldsa_polyveck *s2) {
  matrix_mul(t, a, s1hat);
  veck_reduce32(t);
  veck_invntt(t);
  FOR_EACH_POLY(MLDSA_K, i) KERNEL(add)(t->v[i].c, t->v[i].c, s2->v[i].c);
  veck_reduce32(t);
  veck_caddq(t);
}

/* ---- KeyGen_internal (Alg. 6) ---- */

/* Everything secret keygen holds, in one place to be wiped once. */
struct keygen_ws {
  uint8_t seedbuf[MLDSA_SEEDBYTES + 2];
  uint8_t expanded[2 * MLDSA_SEEDBYTES + MLDSA_CRHBYTES]; /* rho || rho' || K */
  mldsa_polyvecl s1, s1hat;
  mldsa_polyveck s2, t1, t0;
};

/* From s1 and s2 in ws: t = A s1 + s2, (t1, t0) = Power2Round(t) into ws, then
 * pk = pkEncode(rho, t1) and tr = H(pk). */
static void make_public(uint8_t *pk, uint8_t tr[MLDSA_TRBYTES], struct keygen_ws *ws,
                        const uint8_t rho[MLDSA_SEEDBYTES]) {
  mldsa_matrix a;
  expand_matrix(&a, rho);
  ws->s1hat = ws->s1;
  vecl_ntt(&ws->s1hat);
  compute_t(&ws->t1, &a, &ws->s1hat, &ws->s2);
  FOR_EACH_POLY(MLDSA_K, i)
  KERNEL(power2round)(ws->t1.v[i].c, ws->t0.v[i].c, ws->t1.v[i].c);
  pack_pk(pk, rho, &ws->t1);
  SHAKE256(tr, MLDSA_TRBYTES, pk, MLDSA_PUBLICKEYBYTES);
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

  expand_s(&ws.s1, &ws.s2, rhoprime);
  make_public(pk, tr, &ws, rho);
  pack_sk(sk, rho, key, tr, &ws.s1, &ws.s2, &ws.t0);
  mldsa_zeroize(&ws, sizeof ws);
  mldsa_stack_wipe();
}

/* ---- Sign_internal (Alg. 7), from mu ---- */

struct sign_ws {
  uint8_t rho[MLDSA_SEEDBYTES], key[MLDSA_SEEDBYTES], tr[MLDSA_TRBYTES];
  uint8_t rhopp_in[MLDSA_SEEDBYTES + MLDSA_RNDBYTES + MLDSA_CRHBYTES]; /* K || rnd || mu */
  uint8_t rhopp[MLDSA_CRHBYTES];
  uint8_t ctilde_in[MLDSA_CRHBYTES + MLDSA_K * MLDSA_POLYW1_PACKEDBYTES]; /* mu || w1 */
  uint8_t ctilde[MLDSA_CTILDEBYTES];
  mldsa_polyvecl s1, y, z;
  mldsa_polyveck s2, t0, w1, w0, h;
  mldsa_poly c;
  mask_stream mask; /* y of this and the next attempts */
};

/* One attempt of the rejection loop; 1 when the attempt gives a signature. The
 * rejection decision of an attempt is public (FIPS 204 section 3.4), the rest secret. */
static int sign_attempt(struct sign_ws *ws, const mldsa_matrix *a) {
  expand_mask(&ws->y, &ws->mask, ws->rhopp);

  /* w = A y, split into high and low bits */
  ws->z = ws->y;
  vecl_ntt(&ws->z);
  matrix_mul(&ws->w1, a, &ws->z);
  veck_reduce32(&ws->w1);
  veck_invntt(&ws->w1);
  veck_caddq(&ws->w1);
  FOR_EACH_POLY(MLDSA_K, i)
  KERNEL_G2(decompose)(ws->w1.v[i].c, ws->w0.v[i].c, ws->w1.v[i].c);

  /* c~ = H(mu || w1Encode(w1)), c = SampleInBall(c~) */
  pack_w1(ws->ctilde_in + MLDSA_CRHBYTES, &ws->w1);
  SHAKE256(ws->ctilde, MLDSA_CTILDEBYTES, ws->ctilde_in, sizeof ws->ctilde_in);
  sample_in_ball(&ws->c, ws->ctilde, KERNEL(keccak_f1600_x1));
  KERNEL(ntt)(ws->c.c);

  /* z = y + c s1, must stay below gamma1 - beta */
  FOR_EACH_POLY(MLDSA_L, i) {
    KERNEL(pointwise_montgomery)(ws->z.v[i].c, ws->c.c, ws->s1.v[i].c);
    KERNEL(invntt_tomont)(ws->z.v[i].c);
    KERNEL(add)(ws->z.v[i].c, ws->z.v[i].c, ws->y.v[i].c);
    KERNEL(reduce32)(ws->z.v[i].c);
  }
  /* Each check's outcome is public, so an attempt stops at the first one that fails. */
  int reject = 0;
  FOR_EACH_POLY(MLDSA_L, i) reject |= KERNEL(chknorm)(ws->z.v[i].c, MLDSA_GAMMA1 - MLDSA_BETA);
  if (MLDSA_CT_PUBLIC(reject)) return 0;

  /* r0 = LowBits(w - c s2) must stay below gamma2 - beta */
  FOR_EACH_POLY(MLDSA_K, i) {
    KERNEL(pointwise_montgomery)(ws->h.v[i].c, ws->c.c, ws->s2.v[i].c);
    KERNEL(invntt_tomont)(ws->h.v[i].c);
    KERNEL(sub)(ws->w0.v[i].c, ws->w0.v[i].c, ws->h.v[i].c);
    KERNEL(reduce32)(ws->w0.v[i].c);
    reject |= KERNEL(chknorm)(ws->w0.v[i].c, MLDSA_GAMMA2 - MLDSA_BETA);
  }
  if (MLDSA_CT_PUBLIC(reject)) return 0;

  /* c t0 must stay below gamma2; the hint then makes up for the dropped t0 */
  FOR_EACH_POLY(MLDSA_K, i) {
    KERNEL(pointwise_montgomery)(ws->h.v[i].c, ws->c.c, ws->t0.v[i].c);
    KERNEL(invntt_tomont)(ws->h.v[i].c);
    KERNEL(reduce32)(ws->h.v[i].c);
    reject |= KERNEL(chknorm)(ws->h.v[i].c, MLDSA_GAMMA2);
  }
  if (MLDSA_CT_PUBLIC(reject)) return 0;

  unsigned ones = 0;
  FOR_EACH_POLY(MLDSA_K, i) {
    KERNEL(add)(ws->w0.v[i].c, ws->w0.v[i].c, ws->h.v[i].c);
    ones += KERNEL_G2(make_hint)(ws->h.v[i].c, ws->w0.v[i].c, ws->w1.v[i].c);
  }
  return MLDSA_CT_PUBLIC(ones <= MLDSA_OMEGA);
}

int ENTRY(sign)(uint8_t *sig, const uint8_t mu[64], const uint8_t rnd[32], const uint8_t *sk) {
  struct sign_ws ws;
  mldsa_matrix a;
  int ret = MLDSA_ERR_KEY;

  int bad_key = unpack_sk(ws.rho, ws.key, ws.tr, &ws.s1, &ws.s2, &ws.t0, sk);
  MLDSA_CT_PLANTED_LEAK(ws.s1.v[0].c[0]); /* nothing, except in ci/ct --self-test */
  if (MLDSA_CT_PUBLIC(bad_key == 0)) { /* the key's validity is returned */
    /* rho'' = H(K || rnd || mu) */
    memcpy(ws.rhopp_in, ws.key, MLDSA_SEEDBYTES);
    memcpy(ws.rhopp_in + MLDSA_SEEDBYTES, rnd, MLDSA_RNDBYTES);
    memcpy(ws.rhopp_in + MLDSA_SEEDBYTES + MLDSA_RNDBYTES, mu, MLDSA_CRHBYTES);
    SHAKE256(ws.rhopp, sizeof ws.rhopp, ws.rhopp_in, sizeof ws.rhopp_in);
    memcpy(ws.ctilde_in, mu, MLDSA_CRHBYTES);

    expand_matrix(&a, ws.rho);
    mask_stream_init(&ws.mask);
    vecl_ntt(&ws.s1);
    veck_ntt(&ws.s2);
    veck_ntt(&ws.t0);

    for (unsigned attempt = 0; attempt < MLDSA_MAX_SIGN_ATTEMPTS; ++attempt) {
      if (sign_attempt(&ws, &a)) {
        MLDSA_CT_DECLASSIFY(&ws.h, sizeof ws.h); /* accepted: the hint is in sig */
        pack_sig(sig, ws.ctilde, &ws.z, &ws.h);
        ret = MLDSA_OK;
        break;
      }
    }
  }
  if (ret != MLDSA_OK) memset(sig, 0, MLDSA_SIGBYTES);
  mldsa_zeroize(&ws, sizeof ws);
  mldsa_stack_wipe();
  return ret;
}

/* ---- Verify_internal (Alg. 8), from mu ---- */

int ENTRY(verify)(const uint8_t *sig, const uint8_t mu[64], const uint8_t *pk) {
  uint8_t rho[MLDSA_SEEDBYTES];
  uint8_t ctilde[MLDSA_CTILDEBYTES], ctilde2[MLDSA_CTILDEBYTES];
  uint8_t hash_in[MLDSA_CRHBYTES + MLDSA_K * MLDSA_POLYW1_PACKEDBYTES];
  mldsa_polyvecl z;
  mldsa_polyveck t1, h, w1;
  mldsa_poly c;
  mldsa_matrix a;

  if (unpack_sig(ctilde, &z, &h, sig) != 0) return MLDSA_ERR_VERIFY;
  int too_big = 0;
  FOR_EACH_POLY(MLDSA_L, i) too_big |= KERNEL(chknorm)(z.v[i].c, MLDSA_GAMMA1 - MLDSA_BETA);
  if (too_big) return MLDSA_ERR_VERIFY;

  unpack_pk(rho, &t1, pk);
  expand_matrix(&a, rho);
  sample_in_ball(&c, ctilde, KERNEL(keccak_f1600_x1));
  KERNEL(ntt)(c.c);

  /* w'approx = A z - c t1 2^d */
  vecl_ntt(&z);
  matrix_mul(&w1, &a, &z);
  FOR_EACH_POLY(MLDSA_K, i) {
    KERNEL(shiftl)(t1.v[i].c);
    KERNEL(ntt)(t1.v[i].c);
    KERNEL(pointwise_montgomery)(t1.v[i].c, c.c, t1.v[i].c);
    KERNEL(sub)(w1.v[i].c, w1.v[i].c, t1.v[i].c);
  }
  veck_reduce32(&w1);
  veck_invntt(&w1);
  veck_caddq(&w1);
  FOR_EACH_POLY(MLDSA_K, i) KERNEL_G2(use_hint)(w1.v[i].c, w1.v[i].c, h.v[i].c);

  memcpy(hash_in, mu, MLDSA_CRHBYTES);
  pack_w1(hash_in + MLDSA_CRHBYTES, &w1);
  SHAKE256(ctilde2, sizeof ctilde2, hash_in, sizeof hash_in);
  return mldsa_ct_differ(ctilde, ctilde2, MLDSA_CTILDEBYTES) ? MLDSA_ERR_VERIFY : MLDSA_OK;
}

/* ---- pk from an expanded sk, with the import checks ---- */

int ENTRY(public_from_secret)(uint8_t *pk, const uint8_t *sk) {
  struct keygen_ws ws;
  uint8_t rho[MLDSA_SEEDBYTES], key[MLDSA_SEEDBYTES], tr[MLDSA_TRBYTES], tr2[MLDSA_TRBYTES];
  uint8_t t0_packed[MLDSA_K * MLDSA_POLYT0_PACKEDBYTES];
  mldsa_polyveck t0_given;

  int bad = unpack_sk(rho, key, tr, &ws.s1, &ws.s2, &t0_given, sk);
  make_public(pk, tr2, &ws, rho);
  pack_t0(t0_packed, &ws.t0);

  /* The key is consistent when tr = H(pk) and its t0 is the recomputed one. */
  bad |= mldsa_ct_differ(tr, tr2, sizeof tr);
  bad |= mldsa_ct_differ(t0_packed, sk + 2 * MLDSA_SEEDBYTES + MLDSA_TRBYTES +
                                         (MLDSA_L + MLDSA_K) * MLDSA_POLYETA_PACKEDBYTES,
                         sizeof t0_packed);
  mldsa_zeroize(&ws, sizeof ws);
  mldsa_zeroize(key, sizeof key);
  mldsa_zeroize(&t0_given, sizeof t0_given);
  mldsa_zeroize(t0_packed, sizeof t0_packed);
  mldsa_stack_wipe();
  if (MLDSA_CT_PUBLIC(bad)) { /* the key's validity is returned */
    memset(pk, 0, MLDSA_PUBLICKEYBYTES);
    return MLDSA_ERR_KEY;
  }
  return MLDSA_OK;
}

const mldsa_backend ENTRY(backend) = {
    MLDSA_PUBLICKEYBYTES,
    MLDSA_SECRETKEYBYTES,
    MLDSA_SIGBYTES,
    KERNEL(keccak_f1600_x1),
    ENTRY(keygen),
    ENTRY(sign),
    ENTRY(verify),
    ENTRY(public_from_secret),
};
