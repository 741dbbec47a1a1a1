/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Streaming mu and prepared keys (include/mldsa.h) against the one-shot calls.
 *
 * - Streaming mu: for messages of 0..5 SHAKE256 blocks (lengths around every multiple of
 *   the rate, and random ones), every two-piece split point, 1-byte updates and random
 *   multi-piece splits, mu equals mldsa_compute_mu; tr from pk and from sk agree; contexts
 *   of 0, 255 and random lengths. Misuse: NULL pointers, unknown sets, wrong lengths, long
 *   contexts, states never initialised, finalised or with an overwritten header.
 * - Prepared keys: verify and sign under prepared keys give the one-shot verdicts and
 *   byte-identical signatures (deterministic and given rnd; hedged ones verify); every
 *   error code, with the output rule (nothing written for NULL / header / length errors,
 *   zeroed on later ones); corrupted headers, a secret struct passed as public, unprepare,
 *   malformed and inconsistent secret keys, misaligned structs; a copy still works.
 * - Signing a message hashes mu beside ExpandA (in lanes of its batched permutation, then
 *   on the single-state one, or in rounds added to ExpandA for a long one): for messages
 *   that end tr || M' at, just before and just after every block of the first 32,
 *   contexts of 0 and 255 bytes, mldsa_sign gives the signature of mldsa_sign_mu on
 *   mldsa_compute_mu's mu.
 * - Cross-ISA: a prepared key made here is handed to children exec'd with each
 *   MLDSA_ISA cap; a child whose ISA differs must refuse it with MLDSA_ERR_KEY, one with
 *   the same ISA must give the same results.
 *
 * Registered once per ISA (MLDSA_ISA=<isa>). Random data from a seeded PRNG
 * (MLDSA_TEST_SEED, printed). */
#define _DEFAULT_SOURCE
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mldsa.h"
#include "test_common.h"

#define RATE 136 /* SHAKE256 */
#define PK_MAX 2592
#define SK_MAX 4896
#define SIG_MAX 4627
#define FILL 0xAA

static const mldsa_param sets[3] = {MLDSA_44, MLDSA_65, MLDSA_87};

typedef struct {
  mldsa_param p;
  size_t pkb, skb, sigb;
  uint8_t pk[PK_MAX], sk[SK_MAX];
} keypair;

static void make_keys(keypair *kp, mldsa_param p) {
  uint8_t seed[32];
  mldsa_test_randbytes(seed, sizeof seed);
  kp->p = p;
  kp->pkb = mldsa_public_key_bytes(p);
  kp->skb = mldsa_secret_key_bytes(p);
  kp->sigb = mldsa_signature_bytes(p);
  ck_assert_int_eq(mldsa_keygen_from_seed(p, kp->pk, kp->pkb, kp->sk, kp->skb, seed), MLDSA_OK);
}

/* ---------------------------------------------------------------- streaming mu */

static uint8_t msg[5 * RATE + 64];
static uint8_t ctx[255];

/* mu of msg[0..len) fed as the pieces cuts[0..n) (cut offsets, increasing). */
static void stream_with_cuts(uint8_t mu[64], const keypair *kp, int secret, size_t ctx_len,
                             size_t len, const size_t *cuts, size_t n) {
  mldsa_mu_state st;
  memset(&st, 0x5A, sizeof st);
  int rc = secret ? mldsa_mu_init_secret(&st, kp->p, kp->sk, kp->skb, ctx, ctx_len)
                  : mldsa_mu_init(&st, kp->p, kp->pk, kp->pkb, ctx, ctx_len);
  ck_assert_int_eq(rc, MLDSA_OK);
  size_t at = 0;
  for (size_t i = 0; i <= n; ++i) {
    size_t end = i < n ? cuts[i] : len;
    ck_assert_int_eq(mldsa_mu_update(&st, msg + at, end - at), MLDSA_OK);
    at = end;
  }
  ck_assert_int_eq(mldsa_mu_final(&st, mu), MLDSA_OK);
  ck_assert(mldsa_test_all((const uint8_t *)&st, sizeof st, 0)); /* final wipes */
}

static void check_lengths(const keypair *kp, size_t ctx_len, const size_t *lens, size_t nlens,
                          unsigned *checked) {
  uint8_t want[64], got[64];
  for (size_t li = 0; li < nlens; ++li) {
    size_t len = lens[li];
    ck_assert_int_eq(mldsa_compute_mu(kp->p, want, kp->pk, kp->pkb, len ? msg : NULL, len,
                                      ctx_len ? ctx : NULL, ctx_len),
                     MLDSA_OK);
    /* one piece, from pk and from sk */
    stream_with_cuts(got, kp, 0, ctx_len, len, NULL, 0);
    ck_assert_msg(memcmp(got, want, 64) == 0, "len %zu ctx %zu: one update", len, ctx_len);
    stream_with_cuts(got, kp, 1, ctx_len, len, NULL, 0);
    ck_assert_msg(memcmp(got, want, 64) == 0, "len %zu ctx %zu: tr from sk", len, ctx_len);
    /* every two-piece split */
    for (size_t cut = 0; cut <= len; ++cut) {
      stream_with_cuts(got, kp, (int)(cut & 1), ctx_len, len, &cut, 1);
      ck_assert_msg(memcmp(got, want, 64) == 0, "len %zu ctx %zu: split at %zu", len, ctx_len, cut);
      ++*checked;
    }
    /* 1-byte updates */
    size_t ones[5 * RATE + 64];
    for (size_t i = 0; i + 1 < len; ++i) ones[i] = i + 1;
    stream_with_cuts(got, kp, 0, ctx_len, len, ones, len ? len - 1 : 0);
    ck_assert_msg(memcmp(got, want, 64) == 0, "len %zu ctx %zu: 1-byte updates", len, ctx_len);
    /* random pieces (empty ones included) */
    for (int r = 0; r < 4; ++r) {
      size_t cuts[16], n = mldsa_test_randbelow(16);
      for (size_t i = 0; i < n; ++i) cuts[i] = len ? mldsa_test_randbelow(len + 1) : 0;
      for (size_t i = 1; i < n; ++i) /* insertion sort */
        for (size_t j = i; j > 0 && cuts[j - 1] > cuts[j]; --j) {
          size_t t = cuts[j];
          cuts[j] = cuts[j - 1];
          cuts[j - 1] = t;
        }
      stream_with_cuts(got, kp, r & 1, ctx_len, len, cuts, n);
      ck_assert_msg(memcmp(got, want, 64) == 0, "len %zu ctx %zu: random pieces", len, ctx_len);
    }
    *checked += 7;
  }
}

START_TEST(test_mu_splits) {
  keypair kp;
  make_keys(&kp, sets[_i]);
  mldsa_test_randbytes(msg, sizeof msg);
  mldsa_test_randbytes(ctx, sizeof ctx);
  /* Lengths around every block boundary of M; the absorbed stream is tr (64) || 0 ||
   * len(ctx) || ctx || M, so for each context the boundaries in M move: the two-piece
   * splits of the longest lengths cross all of them. */
  size_t lens[32], n = 0;
  for (size_t b = 0; b <= 5; ++b)
    for (int d = -1; d <= 1; ++d)
      if ((long)(b * RATE) + d >= 0) lens[n++] = b * RATE + (size_t)(long)d;
  for (int r = 0; r < 6; ++r) lens[n++] = mldsa_test_randbelow(5 * RATE + 1);
  unsigned checked = 0;
  size_t ctx_lens[4] = {0, 255, 1 + mldsa_test_randbelow(254), RATE - 66};
  for (int c = 0; c < 4; ++c) check_lengths(&kp, ctx_lens[c], lens, n, &checked);
  printf("test_mu_splits: set %d: %u streamed mu equal to mldsa_compute_mu\n", sets[_i], checked);
}
END_TEST

START_TEST(test_mu_errors) {
  keypair kp;
  make_keys(&kp, sets[_i]);
  mldsa_mu_state st, copy;
  uint8_t mu[64], want[64];

  /* NULL, set and length errors leave the state untouched */
  ck_assert_int_eq(mldsa_mu_init(NULL, kp.p, kp.pk, kp.pkb, NULL, 0), MLDSA_ERR_NULL);
  memset(&st, 0x33, sizeof st);
  copy = st;
  ck_assert_int_eq(mldsa_mu_init(&st, (mldsa_param)66, kp.pk, kp.pkb, NULL, 0), MLDSA_ERR_PARAM);
  ck_assert_int_eq(mldsa_mu_init(&st, kp.p, NULL, kp.pkb, NULL, 0), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_mu_init(&st, kp.p, kp.pk, kp.pkb, NULL, 1), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_mu_init(&st, kp.p, kp.pk, kp.pkb - 1, NULL, 0), MLDSA_ERR_LENGTH);
  ck_assert_int_eq(mldsa_mu_init(&st, kp.p, kp.pk, kp.skb, NULL, 0), MLDSA_ERR_LENGTH);
  ck_assert_int_eq(mldsa_mu_init_secret(&st, kp.p, kp.sk, kp.pkb, NULL, 0), MLDSA_ERR_LENGTH);
  ck_assert_int_eq(mldsa_mu_init_secret(&st, (mldsa_param)0, kp.sk, kp.skb, NULL, 0),
                   MLDSA_ERR_PARAM);
  ck_assert_int_eq(memcmp(&st, &copy, sizeof st), 0);
  /* a state in that condition (never initialised) is refused */
  ck_assert_int_eq(mldsa_mu_update(&st, msg, 1), MLDSA_ERR_PARAM);
  memset(mu, FILL, sizeof mu);
  ck_assert_int_eq(mldsa_mu_final(&st, mu), MLDSA_ERR_PARAM);
  ck_assert(mldsa_test_all(mu, sizeof mu, FILL));
  memset(&st, 0, sizeof st);
  ck_assert_int_eq(mldsa_mu_update(&st, msg, 0), MLDSA_ERR_PARAM);
  ck_assert_int_eq(mldsa_mu_final(&st, mu), MLDSA_ERR_PARAM);

  /* a long context wipes the state */
  ck_assert_int_eq(mldsa_mu_init(&st, kp.p, kp.pk, kp.pkb, NULL, 0), MLDSA_OK);
  uint8_t long_ctx[256] = {0};
  ck_assert_int_eq(mldsa_mu_init(&st, kp.p, kp.pk, kp.pkb, long_ctx, 256), MLDSA_ERR_CONTEXT);
  ck_assert(mldsa_test_all((const uint8_t *)&st, sizeof st, 0));
  ck_assert_int_eq(mldsa_mu_update(&st, msg, 1), MLDSA_ERR_PARAM);

  /* update: NULL errors leave a live state usable; NULL with length 0 is fine */
  ck_assert_int_eq(mldsa_mu_init(&st, kp.p, kp.pk, kp.pkb, ctx, 10), MLDSA_OK);
  ck_assert_int_eq(mldsa_mu_update(NULL, msg, 1), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_mu_update(&st, NULL, 1), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_mu_update(&st, NULL, 0), MLDSA_OK);
  ck_assert_int_eq(mldsa_mu_update(&st, msg, 200), MLDSA_OK);
  ck_assert_int_eq(mldsa_mu_final(NULL, mu), MLDSA_ERR_NULL);
  copy = st;
  ck_assert_int_eq(mldsa_mu_final(&st, NULL), MLDSA_ERR_NULL);
  ck_assert_int_eq(memcmp(&st, &copy, sizeof st), 0);
  ck_assert_int_eq(mldsa_mu_final(&st, mu), MLDSA_OK);
  ck_assert_int_eq(mldsa_compute_mu(kp.p, want, kp.pk, kp.pkb, msg, 200, ctx, 10), MLDSA_OK);
  ck_assert_int_eq(memcmp(mu, want, 64), 0);

  /* after final: refused, nothing written */
  memset(mu, FILL, sizeof mu);
  ck_assert_int_eq(mldsa_mu_update(&st, msg, 1), MLDSA_ERR_PARAM);
  ck_assert_int_eq(mldsa_mu_final(&st, mu), MLDSA_ERR_PARAM);
  ck_assert(mldsa_test_all(mu, sizeof mu, FILL));

  /* a live state with any header byte changed is refused; the rest of the state is data */
  ck_assert_int_eq(mldsa_mu_init(&st, kp.p, kp.pk, kp.pkb, NULL, 0), MLDSA_OK);
  for (size_t i = 0; i < 24; ++i) {
    copy = st;
    ((uint8_t *)&copy)[i] ^= 0x01;
    ck_assert_msg(mldsa_mu_update(&copy, msg, 1) == MLDSA_ERR_PARAM, "header byte %zu", i);
  }
  /* random bytes are not a state */
  for (int r = 0; r < 100; ++r) {
    mldsa_test_randbytes((uint8_t *)&copy, sizeof copy);
    ck_assert_int_eq(mldsa_mu_update(&copy, msg, 1), MLDSA_ERR_PARAM);
  }
}
END_TEST

/* ---------------------------------------------------------------- sign from a message */

#define LONG_BLOCKS 32
static uint8_t long_msg[LONG_BLOCKS * RATE];

START_TEST(test_sign_message_mu) {
  keypair kp;
  make_keys(&kp, sets[_i]);
  uint8_t sig[SIG_MAX], sig2[SIG_MAX], mu[64];
  static const uint8_t zero[32];
  static const size_t ctx_lens[2] = {0, 255};
  unsigned checked = 0;
  mldsa_test_randbytes(long_msg, sizeof long_msg);
  mldsa_test_randbytes(ctx, sizeof ctx);
  for (size_t ci = 0; ci < 2; ++ci) {
    const size_t cl = ctx_lens[ci], head = 64 + 2 + cl; /* tr || 0 || len(ctx) || ctx */
    for (size_t k = 0; k <= LONG_BLOCKS; ++k) {
      for (int d = -1; d <= 1; ++d) {
        if (k * RATE + d < head || k * RATE + d - head > sizeof long_msg) continue;
        size_t len = k * RATE + d - head;
        ck_assert_int_eq(mldsa_sign(kp.p, sig, kp.sigb, long_msg, len, ctx, cl, zero, kp.sk,
                                    kp.skb),
                         MLDSA_OK);
        ck_assert_int_eq(mldsa_compute_mu(kp.p, mu, kp.pk, kp.pkb, long_msg, len, ctx, cl),
                         MLDSA_OK);
        ck_assert_int_eq(mldsa_sign_mu(kp.p, sig2, kp.sigb, mu, zero, kp.sk, kp.skb), MLDSA_OK);
        ck_assert_msg(memcmp(sig, sig2, kp.sigb) == 0, "message of %zu bytes, context %zu",
                      len, cl);
        ++checked;
      }
    }
  }
  ck_assert_uint_ge(checked, 180);
  printf("test_sign_message_mu: set %d: %u signatures of a message equal those of its mu\n",
         sets[_i], checked);
}
END_TEST

/* ---------------------------------------------------------------- prepared keys */

static mldsa_prepared_public_key ppk, ppk2;
static mldsa_prepared_secret_key psk, psk2;

START_TEST(test_prepared_agree) {
  keypair kp;
  make_keys(&kp, sets[_i]);
  uint8_t sig[SIG_MAX], sig2[SIG_MAX], rnd[32], mu[64];
  ck_assert_int_eq(mldsa_public_key_prepare(&ppk, kp.p, kp.pk, kp.pkb), MLDSA_OK);
  ck_assert_int_eq(mldsa_secret_key_prepare(&psk, kp.p, kp.sk, kp.skb), MLDSA_OK);
  static const uint8_t zero[32];
  for (int r = 0; r < 20; ++r) {
    size_t len = mldsa_test_randbelow(sizeof msg + 1), cl = r == 0 ? 255 : r % 3 ? 0 : 17;
    mldsa_test_randbytes(msg, len);
    mldsa_test_randbytes(rnd, sizeof rnd);
    const uint8_t *rr = r & 1 ? rnd : zero;
    ck_assert_int_eq(mldsa_sign(kp.p, sig, kp.sigb, msg, len, ctx, cl, rr, kp.sk, kp.skb),
                     MLDSA_OK);
    ck_assert_int_eq(mldsa_sign_prepared(&psk, sig2, kp.sigb, msg, len, ctx, cl, rr), MLDSA_OK);
    ck_assert_int_eq(memcmp(sig, sig2, kp.sigb), 0);
    ck_assert_int_eq(mldsa_compute_mu(kp.p, mu, kp.pk, kp.pkb, msg, len, ctx, cl), MLDSA_OK);
    ck_assert_int_eq(mldsa_sign_mu_prepared(&psk, sig2, kp.sigb, mu, rr), MLDSA_OK);
    ck_assert_int_eq(memcmp(sig, sig2, kp.sigb), 0);
    ck_assert_int_eq(mldsa_verify_prepared(&ppk, sig, kp.sigb, msg, len, ctx, cl), MLDSA_OK);
    ck_assert_int_eq(mldsa_verify_mu_prepared(&ppk, sig, kp.sigb, mu), MLDSA_OK);
    /* hedged */
    ck_assert_int_eq(mldsa_sign_prepared(&psk, sig2, kp.sigb, msg, len, ctx, cl, NULL), MLDSA_OK);
    ck_assert_int_eq(mldsa_verify(kp.p, sig2, kp.sigb, msg, len, ctx, cl, kp.pk, kp.pkb), MLDSA_OK);
    /* one flipped bit: the same verdict both ways */
    size_t bit = mldsa_test_randbelow(kp.sigb * 8);
    sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    int one_shot = mldsa_verify(kp.p, sig, kp.sigb, msg, len, ctx, cl, kp.pk, kp.pkb);
    ck_assert_int_eq(one_shot, MLDSA_ERR_VERIFY);
    ck_assert_int_eq(mldsa_verify_prepared(&ppk, sig, kp.sigb, msg, len, ctx, cl), one_shot);
    ck_assert_int_eq(mldsa_verify_mu_prepared(&ppk, sig, kp.sigb, mu), one_shot);
  }
  /* a copy (memcpy to other aligned memory) is the same key */
  memcpy(&ppk2, &ppk, sizeof ppk);
  memcpy(&psk2, &psk, sizeof psk);
  ck_assert_int_eq(mldsa_sign_prepared(&psk2, sig2, kp.sigb, msg, 3, NULL, 0, zero), MLDSA_OK);
  ck_assert_int_eq(mldsa_sign(kp.p, sig, kp.sigb, msg, 3, NULL, 0, zero, kp.sk, kp.skb), MLDSA_OK);
  ck_assert_int_eq(memcmp(sig, sig2, kp.sigb), 0);
  ck_assert_int_eq(mldsa_verify_prepared(&ppk2, sig, kp.sigb, msg, 3, NULL, 0), MLDSA_OK);
  /* unprepare wipes */
  mldsa_secret_key_unprepare(&psk);
  mldsa_secret_key_unprepare(&psk2);
  mldsa_secret_key_unprepare(NULL);
  ck_assert(mldsa_test_all((const uint8_t *)&psk, sizeof psk, 0));
  memset(sig, FILL, sizeof sig);
  ck_assert_int_eq(mldsa_sign_prepared(&psk, sig, kp.sigb, msg, 3, NULL, 0, zero), MLDSA_ERR_KEY);
  ck_assert(mldsa_test_all(sig, sizeof sig, FILL));
}
END_TEST

START_TEST(test_prepared_errors) {
  keypair kp;
  make_keys(&kp, sets[_i]);
  uint8_t sig[SIG_MAX + 1], mu[64] = {0};
  static const uint8_t zero[32];
  uint8_t long_ctx[256] = {0};

  /* prepare: set, NULL, alignment, length: nothing written */
  memset(&ppk, FILL, sizeof ppk);
  memset(&psk, FILL, sizeof psk);
  ck_assert_int_eq(mldsa_public_key_prepare(&ppk, (mldsa_param)45, kp.pk, kp.pkb), MLDSA_ERR_PARAM);
  ck_assert_int_eq(mldsa_public_key_prepare(NULL, kp.p, kp.pk, kp.pkb), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_public_key_prepare(&ppk, kp.p, NULL, kp.pkb), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_public_key_prepare(&ppk, kp.p, kp.pk, kp.pkb + 1), MLDSA_ERR_LENGTH);
  ck_assert_int_eq(mldsa_public_key_prepare((mldsa_prepared_public_key *)((uint8_t *)&ppk2 + 16),
                                            kp.p, kp.pk, kp.pkb),
                   MLDSA_ERR_NULL);
  ck_assert(mldsa_test_all((const uint8_t *)&ppk, sizeof ppk, FILL));
  ck_assert_int_eq(mldsa_secret_key_prepare(&psk, (mldsa_param)45, kp.sk, kp.skb), MLDSA_ERR_PARAM);
  ck_assert_int_eq(mldsa_secret_key_prepare(NULL, kp.p, kp.sk, kp.skb), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_secret_key_prepare(&psk, kp.p, NULL, kp.skb), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_secret_key_prepare(&psk, kp.p, kp.sk, kp.skb - 1), MLDSA_ERR_LENGTH);
  ck_assert_int_eq(mldsa_secret_key_prepare((mldsa_prepared_secret_key *)((uint8_t *)&psk2 + 8),
                                            kp.p, kp.sk, kp.skb),
                   MLDSA_ERR_NULL);
  ck_assert(mldsa_test_all((const uint8_t *)&psk, sizeof psk, FILL));

  /* a struct never prepared (0xAA or zero) is refused */
  memset(sig, FILL, sizeof sig);
  ck_assert_int_eq(mldsa_verify_prepared(&ppk, sig, kp.sigb, msg, 1, NULL, 0), MLDSA_ERR_KEY);
  ck_assert_int_eq(mldsa_sign_prepared(&psk, sig, kp.sigb, msg, 1, NULL, 0, zero), MLDSA_ERR_KEY);
  ck_assert(mldsa_test_all(sig, sizeof sig, FILL));

  /* malformed (s1 coefficient out of range) and inconsistent (tr) secret keys: KEY, wiped */
  uint8_t bad[SK_MAX];
  memcpy(bad, kp.sk, kp.skb);
  bad[128] = 0xFF; /* the first s1 coefficients: eta - 7 or eta - 15, out of range */
  ck_assert_int_eq(mldsa_secret_key_prepare(&psk, kp.p, bad, kp.skb), MLDSA_ERR_KEY);
  ck_assert(mldsa_test_all((const uint8_t *)&psk, sizeof psk, 0));
  memcpy(bad, kp.sk, kp.skb);
  bad[64] ^= 1; /* tr */
  memset(&psk, FILL, sizeof psk);
  ck_assert_int_eq(mldsa_secret_key_prepare(&psk, kp.p, bad, kp.skb), MLDSA_ERR_KEY);
  ck_assert(mldsa_test_all((const uint8_t *)&psk, sizeof psk, 0));
  memcpy(bad, kp.sk, kp.skb);
  bad[kp.skb - 1] ^= 1; /* t0 */
  ck_assert_int_eq(mldsa_secret_key_prepare(&psk, kp.p, bad, kp.skb), MLDSA_ERR_KEY);

  ck_assert_int_eq(mldsa_public_key_prepare(&ppk, kp.p, kp.pk, kp.pkb), MLDSA_OK);
  ck_assert_int_eq(mldsa_secret_key_prepare(&psk, kp.p, kp.sk, kp.skb), MLDSA_OK);

  /* verify: NULL (and alignment), header, length, context */
  ck_assert_int_eq(mldsa_verify_prepared(NULL, sig, kp.sigb, msg, 1, NULL, 0), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_verify_prepared(&ppk, NULL, kp.sigb, msg, 1, NULL, 0), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_verify_prepared(&ppk, sig, kp.sigb, NULL, 1, NULL, 0), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_verify_prepared(&ppk, sig, kp.sigb, msg, 1, NULL, 1), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_verify_prepared(&ppk, sig, kp.sigb + 1, msg, 1, NULL, 0),
                   MLDSA_ERR_LENGTH);
  ck_assert_int_eq(mldsa_verify_prepared(&ppk, sig, kp.sigb, msg, 1, long_ctx, 256),
                   MLDSA_ERR_CONTEXT);
  ck_assert_int_eq(mldsa_verify_prepared(&ppk, sig, kp.sigb, NULL, 0, NULL, 0), MLDSA_ERR_VERIFY);
  ck_assert_int_eq(mldsa_verify_mu_prepared(&ppk, sig, kp.sigb, NULL), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_verify_mu_prepared(NULL, sig, kp.sigb, mu), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_verify_mu_prepared(&ppk, sig, kp.sigb - 1, mu), MLDSA_ERR_LENGTH);
  /* a secret struct is not a public one (and the other way round) */
  ck_assert_int_eq(
      mldsa_verify_mu_prepared((const mldsa_prepared_public_key *)&psk, sig, kp.sigb, mu),
      MLDSA_ERR_KEY);
  ck_assert_int_eq(
      mldsa_sign_mu_prepared((const mldsa_prepared_secret_key *)&ppk, sig, kp.sigb, mu, zero),
      MLDSA_ERR_KEY);

  /* sign: NULL, header, length write nothing; context, later errors zero sig */
  memset(sig, FILL, sizeof sig);
  ck_assert_int_eq(mldsa_sign_prepared(NULL, sig, kp.sigb, msg, 1, NULL, 0, zero), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_sign_prepared(&psk, NULL, kp.sigb, msg, 1, NULL, 0, zero), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_sign_prepared(&psk, sig, kp.sigb, NULL, 1, NULL, 0, zero), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_sign_prepared(&psk, sig, kp.sigb + 1, msg, 1, NULL, 0, zero),
                   MLDSA_ERR_LENGTH);
  ck_assert_int_eq(mldsa_sign_prepared(&psk, sig, kp.sigb - 1, msg, 1, NULL, 0, zero),
                   MLDSA_ERR_LENGTH);
  ck_assert_int_eq(mldsa_sign_mu_prepared(&psk, sig, kp.sigb, NULL, zero), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_sign_mu_prepared(&psk, sig, 0, mu, zero), MLDSA_ERR_LENGTH);
  ck_assert(mldsa_test_all(sig, sizeof sig, FILL));
  ck_assert_int_eq(mldsa_sign_prepared(&psk, sig, kp.sigb, msg, 1, long_ctx, 256, zero),
                   MLDSA_ERR_CONTEXT);
  ck_assert(mldsa_test_all(sig, kp.sigb, 0));
  ck_assert(mldsa_test_all(sig + kp.sigb, sizeof sig - kp.sigb, FILL));

  /* every header byte (magic, check, set, isa) matters; tr is data */
  for (size_t i = 0; i < 24; ++i) {
    memcpy(&ppk2, &ppk, sizeof ppk);
    ((uint8_t *)&ppk2)[i] ^= 0x40;
    ck_assert_msg(mldsa_verify_mu_prepared(&ppk2, sig, kp.sigb, mu) == MLDSA_ERR_KEY,
                  "public header byte %zu", i);
    memcpy(&psk2, &psk, sizeof psk);
    ((uint8_t *)&psk2)[i] ^= 0x40;
    memset(sig, FILL, sizeof sig);
    ck_assert_msg(mldsa_sign_mu_prepared(&psk2, sig, kp.sigb, mu, zero) == MLDSA_ERR_KEY,
                  "secret header byte %zu", i);
    ck_assert(mldsa_test_all(sig, sizeof sig, FILL));
  }
  mldsa_secret_key_unprepare(&psk);
  mldsa_secret_key_unprepare(&psk2);
}
END_TEST

/* ---------------------------------------------------------------- cross-ISA */

/* What the parent hands to its children: prepared keys, a message and the signature the
 * parent made of it under the prepared secret key (deterministic). */
typedef struct {
  mldsa_prepared_public_key pp;
  mldsa_prepared_secret_key ps;
  int32_t set;
  uint8_t msg[32];
  uint8_t sig[SIG_MAX];
} handoff;
static handoff hand;

/* This program's path, for the children (resolved once: under qemu-user the emulator
 * answers readlink, while exec of /proc/self/exe would start the emulator itself). */
static char self_path[4096];

/* The child: prints its ISA, then "ok" when both prepared calls reproduce the parent's
 * results, "refused" when both give MLDSA_ERR_KEY, anything else otherwise. */
static int child_main(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL || fread(&hand, sizeof hand, 1, f) != 1) return 3;
  fclose(f);
  static const uint8_t zero[32];
  size_t sigb = mldsa_signature_bytes((mldsa_param)hand.set);
  uint8_t sig[SIG_MAX];
  int v = mldsa_verify_prepared(&hand.pp, hand.sig, sigb, hand.msg, sizeof hand.msg, NULL, 0);
  int s = mldsa_sign_prepared(&hand.ps, sig, sigb, hand.msg, sizeof hand.msg, NULL, 0, zero);
  const char *verdict = "mixed";
  if (v == MLDSA_OK && s == MLDSA_OK && memcmp(sig, hand.sig, sigb) == 0) verdict = "ok";
  if (v == MLDSA_ERR_KEY && s == MLDSA_ERR_KEY) verdict = "refused";
  printf("%s %s %d %d\n", mldsa_isa(), verdict, v, s);
  mldsa_secret_key_unprepare(&hand.ps);
  return 0;
}

START_TEST(test_cross_isa) {
  keypair kp;
  make_keys(&kp, sets[_i]);
  static const uint8_t zero[32];
  const char *mine = mldsa_isa();
  hand.set = (int32_t)kp.p;
  mldsa_test_randbytes(hand.msg, sizeof hand.msg);
  ck_assert_int_eq(mldsa_public_key_prepare(&hand.pp, kp.p, kp.pk, kp.pkb), MLDSA_OK);
  ck_assert_int_eq(mldsa_secret_key_prepare(&hand.ps, kp.p, kp.sk, kp.skb), MLDSA_OK);
  ck_assert_int_eq(
      mldsa_sign_prepared(&hand.ps, hand.sig, kp.sigb, hand.msg, sizeof hand.msg, NULL, 0, zero),
      MLDSA_OK);
  char path[] = "/tmp/mldsa_cross_isa_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_msg(fd >= 0, "mkstemp");
  ck_assert(write(fd, &hand, sizeof hand) == (ssize_t)sizeof hand);
  close(fd);
  mldsa_secret_key_unprepare(&hand.ps);

#if defined(__aarch64__)
  static const char *const caps[] = {"scalar", "neon"};
#else
  static const char *const caps[] = {"scalar", "sse2", "avx2", "avx512"};
#endif
  unsigned same = 0, other = 0;
  for (size_t c = 0; c < sizeof caps / sizeof caps[0]; ++c) {
    int out[2];
    ck_assert(pipe(out) == 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      close(out[1]);
      setenv("MLDSA_ISA", caps[c], 1);
      /* Under qemu-user (a cross build's tests) the program is run through the emulator
       * that ctest names: the host cannot execute it directly. */
      const char *emulator = getenv("MLDSA_TEST_EMULATOR");
      if (emulator != NULL && *emulator != '\0')
        execlp(emulator, emulator, self_path, "--child", path, (char *)NULL);
      else
        execl(self_path, "test_mu_prepared", "--child", path, (char *)NULL);
      _exit(127);
    }
    close(out[1]);
    char line[200] = {0};
    size_t got = 0;
    ssize_t r;
    while (got < sizeof line - 1 && (r = read(out[0], line + got, sizeof line - 1 - got)) > 0)
      got += (size_t)r;
    close(out[0]);
    int status;
    ck_assert(waitpid(pid, &status, 0) == pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child (cap %s) failed: %d",
                  caps[c], status);
    char isa[32], verdict[32];
    ck_assert_msg(sscanf(line, "%31s %31s", isa, verdict) == 2, "child said \"%s\"", line);
    const char *want = strcmp(isa, mine) == 0 ? "ok" : "refused";
    ck_assert_msg(strcmp(verdict, want) == 0,
                  "key prepared under %s, used under %s (cap %s): %s, expected %s (%s)", mine, isa,
                  caps[c], verdict, want, line);
    if (strcmp(isa, mine) == 0)
      ++same;
    else
      ++other;
  }
  unlink(path);
  ck_assert_uint_ge(same, 1);
  printf(
      "test_cross_isa: set %d prepared under %s: %u children with the same ISA agreed, %u "
      "with another ISA refused it\n",
      kp.p, mine, same, other);
}
END_TEST

static Suite *mu_prepared_suite(void) {
  Suite *s = suite_create("mu_prepared");
  TCase *tc = tcase_create("streaming");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_mu_splits, 0, 3);
  tcase_add_loop_test(tc, test_mu_errors, 0, 3);
  tcase_add_loop_test(tc, test_sign_message_mu, 0, 3);
  suite_add_tcase(s, tc);
  tc = tcase_create("prepared");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_prepared_agree, 0, 3);
  tcase_add_loop_test(tc, test_prepared_errors, 0, 3);
  tcase_add_loop_test(tc, test_cross_isa, 0, 3);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--child") == 0) return child_main(argv[2]);
  ssize_t n = readlink("/proc/self/exe", self_path, sizeof self_path - 1);
  if (n > 0)
    self_path[n] = '\0';
  else
    snprintf(self_path, sizeof self_path, "%s", argv[0]);
  setvbuf(stdout, NULL, _IOLBF, 0);
  mldsa_test_isa_gate("test_mu_prepared");
  mldsa_test_seed_rng("test_mu_prepared");
  SRunner *sr = srunner_create(mu_prepared_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
