/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The batch calls (include/mldsa.h, "batches") against the one-at-a-time calls.
 *
 * - mldsa_verify_batch and mldsa_verify_prepared_batch give, item by item, the code of
 *   mldsa_verify / mldsa_verify_prepared, and return the first failing item's code,
 *   for n = 0, 1, 2, 3, 7, 8, 9, 17 (below, at and above every ISA's group of 1, 2, 4 or
 *   8): good signatures under several keys, messages of 0 to 700 bytes (across SHAKE256
 *   blocks), contexts of 0 to 255 bytes, mixed with bad ones (a flipped bit in c~, z or
 *   the hint, a wrong context, a changed message, a context of 256 bytes, a malformed
 *   hint, z out of range).
 * - mldsa_sign_batch gives the signatures of mldsa_sign_prepared byte for byte with given
 *   randomness (zero and random rnd), hedged ones that verify, MLDSA_ERR_CONTEXT items
 *   zeroed and the first failing code returned; a signature may overlap its own message.
 * Malformed items and the failures of the whole call: test_batch_items.c.
 *
 * Registered once per ISA (MLDSA_ISA=<isa>). Random data from a seeded PRNG
 * (MLDSA_TEST_SEED, printed). */
#define _DEFAULT_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"
#include "test_common.h"

#define PK_MAX 2592
#define SK_MAX 4896
#define SIG_MAX 4627
#define MSG_MAX 700
#define MAX_ITEMS 17
#define KEYS 3
#define SENTINEL 0x5EED

static const mldsa_param sets[3] = {MLDSA_44, MLDSA_65, MLDSA_87};
static const size_t sizes[] = {0, 1, 2, 3, 7, 8, 9, 17};
#define NSIZES (sizeof sizes / sizeof sizes[0])

typedef struct {
  mldsa_param p;
  size_t pkb, skb, sigb;
  uint8_t pk[PK_MAX], sk[SK_MAX];
} keypair;

/* What one item holds: its buffers, and how it was spoiled. */
typedef struct {
  uint8_t msg[MSG_MAX], ctx[256], sig[SIG_MAX];
  size_t msg_len, ctx_len;
  int key;
} item_data;

static keypair keys[KEYS];
static item_data data[MAX_ITEMS];
static mldsa_prepared_public_key pps[KEYS];
static mldsa_prepared_secret_key pss[KEYS];

static void make_keys(mldsa_param p) {
  for (int k = 0; k < KEYS; ++k) {
    uint8_t seed[32];
    keypair *kp = &keys[k];
    mldsa_test_randbytes(seed, sizeof seed);
    kp->p = p;
    kp->pkb = mldsa_public_key_bytes(p);
    kp->skb = mldsa_secret_key_bytes(p);
    kp->sigb = mldsa_signature_bytes(p);
    ck_assert_int_eq(mldsa_keygen_from_seed(p, kp->pk, kp->pkb, kp->sk, kp->skb, seed),
                     MLDSA_OK);
    ck_assert_int_eq(mldsa_public_key_prepare(&pps[k], p, kp->pk, kp->pkb), MLDSA_OK);
    ck_assert_int_eq(mldsa_secret_key_prepare(&pss[k], p, kp->sk, kp->skb), MLDSA_OK);
  }
}

static size_t rand_len(size_t max) {
  switch (mldsa_test_randbelow(4)) {
    case 0:
      return 0;
    case 1:
      return max;
    default:
      return mldsa_test_randbelow(max + 1);
  }
}

/* Item i: a random message and context signed under a key (key 0 when one_key), then
 * spoiled in one of several ways (or not) when mixed. */
static void make_item(int i, int one_key, int mixed) {
  item_data *d = &data[i];
  d->key = one_key ? 0 : (int)mldsa_test_randbelow(KEYS);
  const keypair *kp = &keys[d->key];
  d->msg_len = rand_len(MSG_MAX);
  d->ctx_len = rand_len(255);
  mldsa_test_randbytes(d->msg, sizeof d->msg);
  mldsa_test_randbytes(d->ctx, sizeof d->ctx);
  uint8_t rnd[32];
  mldsa_test_randbytes(rnd, sizeof rnd);
  ck_assert_int_eq(mldsa_sign(kp->p, d->sig, kp->sigb, d->msg, d->msg_len, d->ctx, d->ctx_len,
                              rnd, kp->sk, kp->skb),
                   MLDSA_OK);
  if (!mixed) return;
  switch (mldsa_test_randbelow(9)) {
    case 0: /* a bit of c~ */
      d->sig[mldsa_test_randbelow(32)] ^= 1;
      break;
    case 1: /* a bit of z or the hint */
      d->sig[32 + mldsa_test_randbelow(kp->sigb - 32)] ^= (uint8_t)(1 << mldsa_test_randbelow(8));
      break;
    case 2: /* another context */
      if (d->ctx_len > 0)
        d->ctx[mldsa_test_randbelow(d->ctx_len)] ^= 0x80;
      else
        d->ctx_len = 1;
      break;
    case 3: /* the message changed */
      if (d->msg_len > 0)
        d->msg[mldsa_test_randbelow(d->msg_len)] ^= 0x01;
      else
        d->msg_len = 1;
      break;
    case 4: /* a context too long: that item's MLDSA_ERR_CONTEXT */
      d->ctx_len = 256;
      break;
    case 5: /* a malformed hint: the last count byte beyond omega */
      d->sig[kp->sigb - 1] = 0xFF;
      break;
    case 6: /* z out of range: the first coefficient's encoding all ones */
      memset(d->sig + 64, 0xFF, 4);
      break;
    default: /* good */
      break;
  }
}

static mldsa_verify_item verify_item(int i, int prepared) {
  const item_data *d = &data[i];
  const keypair *kp = &keys[d->key];
  mldsa_verify_item it = {prepared ? NULL : kp->pk, prepared ? 0 : kp->pkb, d->msg, d->msg_len,
                          d->ctx_len ? d->ctx : NULL, d->ctx_len, d->sig, kp->sigb};
  return it;
}

/* ---------------------------------------------------------------- verify */

static void check_verify(size_t n, int prepared, int mixed) {
  mldsa_verify_item items[MAX_ITEMS];
  int results[MAX_ITEMS + 1], want[MAX_ITEMS];
  int all = MLDSA_OK;
  for (size_t i = 0; i < n; ++i) {
    make_item((int)i, prepared, mixed);
    items[i] = verify_item((int)i, prepared);
    const item_data *d = &data[i];
    const keypair *kp = &keys[d->key];
    if (prepared)
      want[i] = mldsa_verify_prepared(&pps[0], d->sig, kp->sigb, d->msg, d->msg_len,
                                      items[i].ctx, d->ctx_len);
    else
      want[i] = mldsa_verify(kp->p, d->sig, kp->sigb, d->msg, d->msg_len, items[i].ctx,
                             d->ctx_len, kp->pk, kp->pkb);
    if (!mixed) ck_assert_int_eq(want[i], MLDSA_OK);
    if (all == MLDSA_OK) all = want[i];
  }
  for (size_t i = 0; i <= n; ++i) results[i] = SENTINEL;
  int rc = prepared ? mldsa_verify_prepared_batch(&pps[0], items, n, results)
                    : mldsa_verify_batch(keys[0].p, items, n, results);
  ck_assert_int_eq(rc, all);
  for (size_t i = 0; i < n; ++i)
    ck_assert_msg(results[i] == want[i], "ML-DSA-%d n=%zu item %zu: %d, one at a time %d",
                  (int)keys[0].p, n, i, results[i], want[i]);
  ck_assert_int_eq(results[n], SENTINEL); /* nothing past n */
}

START_TEST(test_verify_agree) {
  make_keys(sets[_i]);
  for (size_t s = 0; s < NSIZES; ++s)
    for (int prepared = 0; prepared < 2; ++prepared)
      for (int mixed = 0; mixed < 2; ++mixed) check_verify(sizes[s], prepared, mixed);
  /* many mixed batches of random size */
  for (int r = 0; r < 6; ++r) check_verify(1 + mldsa_test_randbelow(MAX_ITEMS), r & 1, 1);
}
END_TEST

/* ---------------------------------------------------------------- sign */

static void check_sign(size_t n, int kind) {
  static uint8_t sigs[MAX_ITEMS][SIG_MAX + 1], want[SIG_MAX], rnds[MAX_ITEMS][32];
  mldsa_sign_item items[MAX_ITEMS];
  int results[MAX_ITEMS + 1], first = MLDSA_OK;
  const keypair *kp = &keys[0];
  for (size_t i = 0; i < n; ++i) {
    item_data *d = &data[i];
    d->msg_len = rand_len(MSG_MAX);
    d->ctx_len = rand_len(255);
    mldsa_test_randbytes(d->msg, sizeof d->msg);
    mldsa_test_randbytes(d->ctx, sizeof d->ctx);
    /* kind 0: zero rnd; 1: random rnd; 2: a mix of hedged, given, and long contexts */
    const uint8_t *rnd = rnds[i];
    memset(rnds[i], 0, 32);
    if (kind >= 1) mldsa_test_randbytes(rnds[i], 32);
    if (kind == 2 && mldsa_test_randbelow(3) == 0) rnd = NULL;
    if (kind == 2 && mldsa_test_randbelow(5) == 0) d->ctx_len = 256;
    memset(sigs[i], 0xAA, sizeof sigs[i]);
    items[i] = (mldsa_sign_item){d->msg, d->msg_len, d->ctx_len ? d->ctx : NULL, d->ctx_len,
                                 rnd, sigs[i], kp->sigb};
  }
  for (size_t i = 0; i <= n; ++i) results[i] = SENTINEL;
  int rc = mldsa_sign_batch(&pss[0], items, n, results);
  for (size_t i = 0; i < n; ++i) {
    const item_data *d = &data[i];
    if (d->ctx_len > 255) {
      ck_assert_int_eq(results[i], MLDSA_ERR_CONTEXT);
      ck_assert(mldsa_test_all(sigs[i], kp->sigb, 0));
      if (first == MLDSA_OK) first = MLDSA_ERR_CONTEXT;
      continue;
    }
    ck_assert_int_eq(results[i], MLDSA_OK);
    if (items[i].rnd != NULL) {
      ck_assert_int_eq(mldsa_sign_prepared(&pss[0], want, kp->sigb, d->msg, d->msg_len,
                                           items[i].ctx, d->ctx_len, items[i].rnd),
                       MLDSA_OK);
      long at = mldsa_test_first_diff(sigs[i], want, kp->sigb);
      ck_assert_msg(at < 0, "ML-DSA-%d n=%zu item %zu: byte %ld differs", (int)kp->p, n, i, at);
    }
    ck_assert_int_eq(mldsa_verify(kp->p, sigs[i], kp->sigb, d->msg, d->msg_len, items[i].ctx,
                                  d->ctx_len, kp->pk, kp->pkb),
                     MLDSA_OK);
    ck_assert_int_eq(sigs[i][kp->sigb], 0xAA); /* nothing past sig_len */
  }
  ck_assert_int_eq(rc, first);
  ck_assert_int_eq(results[n], SENTINEL);
}

START_TEST(test_sign_agree) {
  make_keys(sets[_i]);
  for (size_t s = 0; s < NSIZES; ++s)
    for (int kind = 0; kind < 3; ++kind) check_sign(sizes[s], kind);
}
END_TEST

/* A signature written over its own message (and context): the message is read first. */
START_TEST(test_sign_overlap) {
  make_keys(sets[_i]);
  const keypair *kp = &keys[0];
  static uint8_t buf[3][SIG_MAX], want[3][SIG_MAX];
  uint8_t rnd[32] = {0};
  mldsa_sign_item items[3];
  int results[3];
  for (int i = 0; i < 3; ++i) {
    mldsa_test_randbytes(buf[i], sizeof buf[i]);
    ck_assert_int_eq(mldsa_sign_prepared(&pss[0], want[i], kp->sigb, buf[i], 100 + 50 * i,
                                         buf[i] + 400, 10, rnd),
                     MLDSA_OK);
    items[i] = (mldsa_sign_item){buf[i], 100 + 50 * (size_t)i, buf[i] + 400, 10, rnd, buf[i],
                                 kp->sigb};
  }
  ck_assert_int_eq(mldsa_sign_batch(&pss[0], items, 3, results), MLDSA_OK);
  for (int i = 0; i < 3; ++i) ck_assert_int_lt(mldsa_test_first_diff(buf[i], want[i], kp->sigb), 0);
}
END_TEST

static Suite *batch_suite(void) {
  Suite *s = suite_create("batch");
  TCase *tc = tcase_create("batch");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, test_verify_agree, 0, 3);
  tcase_add_loop_test(tc, test_sign_agree, 0, 3);
  tcase_add_loop_test(tc, test_sign_overlap, 0, 3);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  mldsa_test_isa_gate("test_batch");
  mldsa_test_seed_rng("test_batch");
  SRunner *sr = srunner_create(batch_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
