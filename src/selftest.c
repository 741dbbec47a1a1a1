/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Self-tests (FIPS 140-3 style): mldsa_selftest, and with MLDSA_SELFTEST the power-on run,
 * the pairwise consistency test of keygen and the sticky failure state (selftest.h).
 *
 * Known-answer tests, for every parameter set of the build, on the backends of the ISA in
 * use (the same functions the API calls), against src/selftest_kat.h (generated from the
 * ACVP vectors by ci/selftest_kat.py; only SHA3-256 digests of the long answers):
 *   1. keygen from seed xi: SHA3-256 of pk and sk as expected;
 *   2. keygen from a second seed, deterministic signing (external, pure: M' = 0 || len(ctx)
 *      || ctx || msg): the signature's SHA3-256 as expected;
 *   3. verify of that signature under that pk: accepted;
 *   4. verify of the signature with one bit of c~ flipped: refused;
 *   5. the same key pair prepared: signing under the prepared key gives the same signature
 *      (SHA3-256 as expected), verification under the prepared public key accepts it and
 *      refuses it with c~ flipped;
 *   6. the batch paths under those prepared keys: a batch of one message signed gives the
 *      same signature, a batch of that signature and the flipped one verifies the first
 *      only.
 *
 * Memory: ML-DSA-87 signing alone needs 105 KiB of stack and the operations must fit in
 * 112 KiB (tests/stack_budget.txt), so the keys and the signature of the known-answer
 * tests (12 KiB for ML-DSA-87) and its prepared keys (150 KiB) are static, under a mutex:
 * concurrent mldsa_selftest calls run one after another. The pairwise test needs only a
 * signature (4.5 KiB), on the stack.
 * The keys of the known-answer tests are public test vectors; they are wiped all the same. */
#include <stdatomic.h>
#include <string.h>

#include "api_list.h"
#include "backend.h"
#include "fips202.h"
#include "once.h"
#include "seams.h"
#include "selftest.h"
#include "selftest_kat.h"
#include "util.h"

#define SIG_MAX MLDSA_MAX_SIGNATURE_BYTES
#define DIGEST_BYTES 32

static const mldsa_selftest_kat kats[] = {
#ifdef MLDSA_HAVE_44
    MLDSA_SELFTEST_KAT_44,
#endif
#ifdef MLDSA_HAVE_65
    MLDSA_SELFTEST_KAT_65,
#endif
#ifdef MLDSA_HAVE_87
    MLDSA_SELFTEST_KAT_87,
#endif
};
#define NUM_KATS (sizeof kats / sizeof kats[0])

static mldsa_mutex scratch_lock = MLDSA_MUTEX_INIT;
static struct {
  uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES];
  uint8_t sk[MLDSA_MAX_SECRET_KEY_BYTES];
  uint8_t sig[SIG_MAX];
  uint8_t flipped[SIG_MAX]; /* the signature with one bit of c~ flipped */
  mldsa_prepared_public_key pp;
  mldsa_prepared_secret_key ps;
} scratch;

/* 1 when SHA3-256 of len bytes at p is not want. */
static int digest_differs(const uint8_t *p, size_t len, const uint8_t want[DIGEST_BYTES]) {
  uint8_t d[DIGEST_BYTES];
  mldsa_sha3_256(d, p, len);
  return memcmp(d, want, DIGEST_BYTES) != 0;
}

/* M' = 0 || len(ctx) || ctx || msg (FIPS 204 Alg. 2), in two pieces. */
typedef struct {
  const mldsa_backend *b;
  uint8_t prefix[2 + 255];
  size_t prefix_len;
  const uint8_t *msg;
  size_t msg_len;
} framed;

static void frame(framed *f, const mldsa_backend *b, const mldsa_selftest_kat *k) {
  f->b = b;
  f->prefix[0] = 0;
  f->prefix[1] = (uint8_t)k->ctx_len;
  if (k->ctx_len) memcpy(f->prefix + 2, k->ctx, k->ctx_len);
  f->prefix_len = 2u + k->ctx_len;
  f->msg = k->msg;
  f->msg_len = k->msg_len;
}

/* mu = SHAKE256(tr || M', 64), for the backend's verify_pk */
static void mu_of(uint8_t mu[64], const uint8_t tr[64], const void *arg) {
  const framed *f = arg;
  mldsa_keccak st;
  mldsa_shake256_init_with(&st, f->b->keccak);
  mldsa_shake_absorb(&st, tr, 64);
  mldsa_shake_absorb(&st, f->prefix, f->prefix_len);
  mldsa_shake_absorb(&st, f->msg, f->msg_len);
  mldsa_shake_finalize(&st);
  mldsa_shake_squeeze(&st, mu, 64);
}

/* Steps 5 and 6 of the known-answer tests: the key pair in scratch prepared, its known
 * signature in scratch.sig, mu the one it signs; with scratch held. */
static int kat_prepared(const mldsa_backend *b, const mldsa_selftest_kat *k,
                        const uint8_t mu[64]) {
  static const uint8_t zero_rnd[32];
  uint8_t *sig = scratch.sig, *flipped = scratch.flipped;
  memcpy(flipped, sig, b->sig_bytes);
  flipped[0] ^= 0x01;
  if (b->prepare_secret(&scratch.ps, scratch.sk) != MLDSA_OK) return MLDSA_ERR_SELFTEST;
  b->prepare_public(&scratch.pp, scratch.pk);

  /* 5. prepared: sign, verify, refuse */
  if (b->sign_prepared(sig, &scratch.ps, mu, zero_rnd) != MLDSA_OK) return MLDSA_ERR_SELFTEST;
  if (MLDSA_SEAM_SELFTEST(MLDSA_SEAM_SELFTEST_PREPARED)) sig[b->sig_bytes - 1] ^= 1;
  if (digest_differs(sig, b->sig_bytes, k->sig_sha3) ||
      b->verify_prepared(&scratch.pp, sig, mu) != MLDSA_OK ||
      b->verify_prepared(&scratch.pp, flipped, mu) == MLDSA_OK)
    return MLDSA_ERR_SELFTEST;

  /* 6. batches: one message signed, two signatures verified */
  const mldsa_sign_item item = {k->msg, k->msg_len, k->ctx, k->ctx_len, zero_rnd, sig,
                                b->sig_bytes};
  const mldsa_sign_item *to_sign[1] = {&item};
  const uint8_t *rnd[1] = {zero_rnd};
  int res[2] = {MLDSA_ERR_SELFTEST, MLDSA_ERR_SELFTEST};
  memset(sig, 0, b->sig_bytes);
  b->sign_batch(&scratch.ps, to_sign, rnd, 1, res);
  if (MLDSA_SEAM_SELFTEST(MLDSA_SEAM_SELFTEST_BATCH)) sig[b->sig_bytes - 1] ^= 1;
  if (res[0] != MLDSA_OK || digest_differs(sig, b->sig_bytes, k->sig_sha3))
    return MLDSA_ERR_SELFTEST;
  const mldsa_verify_item checks[2] = {
      {NULL, 0, k->msg, k->msg_len, k->ctx, k->ctx_len, sig, b->sig_bytes},
      {NULL, 0, k->msg, k->msg_len, k->ctx, k->ctx_len, flipped, b->sig_bytes}};
  const mldsa_verify_item *to_verify[2] = {&checks[0], &checks[1]};
  res[0] = res[1] = MLDSA_ERR_SELFTEST;
  if (b->batch_width >= 2) { /* both in one group where the lanes allow */
    b->verify_batch(&scratch.pp, to_verify, 2, res);
  } else {
    b->verify_batch(&scratch.pp, to_verify, 1, res);
    b->verify_batch(&scratch.pp, to_verify + 1, 1, res + 1);
  }
  if (res[0] != MLDSA_OK || res[1] != MLDSA_ERR_VERIFY) return MLDSA_ERR_SELFTEST;
  return MLDSA_OK;
}

/* The known-answer tests of one parameter set, with scratch held. */
static int kat_one(const mldsa_selftest_kat *k) {
  static const uint8_t zero_rnd[32];
  const mldsa_backend *b = mldsa_backend_for(k->set);
  uint8_t *pk = scratch.pk, *sk = scratch.sk, *sig = scratch.sig, mu[64];
  framed f;
  if (b == NULL) return MLDSA_ERR_SELFTEST;

  /* 1. keygen */
  b->keygen(pk, sk, k->keygen_seed);
  if (MLDSA_SEAM_SELFTEST(MLDSA_SEAM_SELFTEST_KEYGEN)) pk[0] ^= 1;
  if (digest_differs(pk, b->pk_bytes, k->pk_sha3) || digest_differs(sk, b->sk_bytes, k->sk_sha3))
    return MLDSA_ERR_SELFTEST;

  /* 2. deterministic signature */
  b->keygen(pk, sk, k->sign_seed);
  frame(&f, b, k);
  const mldsa_hash_input mprime = {{f.prefix, f.msg}, {f.prefix_len, f.msg_len}, 2};
  if (b->sign_msg(sig, mu, &mprime, zero_rnd, sk) != MLDSA_OK) return MLDSA_ERR_SELFTEST;
  if (MLDSA_SEAM_SELFTEST(MLDSA_SEAM_SELFTEST_SIGN)) sig[b->sig_bytes - 1] ^= 1;
  if (digest_differs(sig, b->sig_bytes, k->sig_sha3)) return MLDSA_ERR_SELFTEST;

  /* 3. the known signature verifies */
  if (MLDSA_SEAM_SELFTEST(MLDSA_SEAM_SELFTEST_VERIFY)) sig[0] ^= 1;
  if (b->verify_pk(sig, pk, mu_of, &f) != MLDSA_OK) return MLDSA_ERR_SELFTEST;

  /* 4. with one bit of c~ flipped, it does not */
  if (!MLDSA_SEAM_SELFTEST(MLDSA_SEAM_SELFTEST_VERIFY_BAD)) sig[0] ^= 0x01;
  if (b->verify_pk(sig, pk, mu_of, &f) == MLDSA_OK) return MLDSA_ERR_SELFTEST;
  sig[0] ^= 0x01;

  /* 5, 6: the prepared and batch paths */
  return kat_prepared(b, k, mu);
}

/* Every set's known-answer tests; MLDSA_OK or MLDSA_ERR_SELFTEST. */
static int run_kats(void) {
  int ret = MLDSA_OK;
  mldsa_mutex_lock(&scratch_lock);
  for (size_t i = 0; i < NUM_KATS && ret == MLDSA_OK; ++i) ret = kat_one(&kats[i]);
  mldsa_zeroize(&scratch, sizeof scratch);
  mldsa_mutex_unlock(&scratch_lock);
  return ret;
}

#ifdef MLDSA_SELFTEST
static atomic_int failed; /* 1 once any self-test of this process failed: never cleared */
static mldsa_once_flag power_on = MLDSA_ONCE_INIT;

static void fail(void) { atomic_store_explicit(&failed, 1, memory_order_release); }

static void power_on_tests(void) {
  if (run_kats() != MLDSA_OK) fail();
}

int mldsa_selftest_ready(void) {
  mldsa_once(&power_on, power_on_tests);
  return atomic_load_explicit(&failed, memory_order_acquire) ? MLDSA_ERR_SELFTEST : MLDSA_OK;
}

int mldsa_selftest_pairwise(const mldsa_backend *b, const uint8_t *pk, const uint8_t *sk) {
  /* mu: any fixed value; rnd zero (a deterministic signature) */
  static const uint8_t mu[64] = {'m', 'l', 'd', 's', 'a', ' ', 'p', 'a', 'i', 'r', 'w', 'i', 's', 'e'};
  static const uint8_t zero_rnd[32];
  uint8_t sig[SIG_MAX];
  int ret = b->sign(sig, mu, zero_rnd, sk);
  if (ret == MLDSA_OK) {
    if (MLDSA_SEAM_SELFTEST(MLDSA_SEAM_SELFTEST_PAIRWISE)) sig[0] ^= 1;
    ret = b->verify(sig, mu, pk);
  }
  mldsa_zeroize(sig, b->sig_bytes);
  if (ret == MLDSA_OK) return MLDSA_OK;
  fail();
  return MLDSA_ERR_SELFTEST;
}
#endif

int mldsa_selftest_impl(void) {
#ifdef MLDSA_SELFTEST
  if (mldsa_selftest_ready() != MLDSA_OK) return MLDSA_ERR_SELFTEST;
  if (run_kats() == MLDSA_OK) return MLDSA_OK;
  fail();
  return MLDSA_ERR_SELFTEST;
#else
  return run_kats();
#endif
}
