/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The batch calls item by item (include/mldsa.h, "batches"), against the one-at-a-time
 * calls: every kind of malformed item (a NULL pointer with a length, a signature or key of
 * the wrong length or of another set, a context over 255 bytes, a bad signature, a
 * malformed hint, z out of range, a pk in the prepared form; for signing also a failing
 * randomness source) is put at the start, in the middle and at the end of batches of
 * 1 to 17 items (below, at and above every ISA's group of 1, 2, 4 or 8), on either side
 * of the signing group's end in a batch of 66, and all of them at once in a shuffled
 * batch. For each item, results[i]
 * must be the one-at-a-time call's code and its sig buffer (pre-filled, with a margin)
 * must hold exactly what that call leaves: the same signature, zeros, or untouched bytes;
 * the other items are still checked or signed; the return value is the first failing
 * item's code in item order.
 *
 * Then the failures of the whole call: NULL items or results, a NULL or misaligned
 * prepared key write nothing; an unknown set or a prepared key that is not live write
 * their code into every result (pre-filled with MLDSA_OK, as a reused array would be);
 * and a signing failure found late (every attempt rejected: MLDSA_ERR_KEY) comes before
 * a later item's MLDSA_ERR_CONTEXT in the return value.
 *
 * Linked with the seams variant (src/seams.h: the rejected attempts). Registered once
 * per ISA (MLDSA_ISA=<isa>). Random data from a seeded PRNG (MLDSA_TEST_SEED, printed). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"
#include "seams.h"
#include "test_common.h"

#define PK_MAX 2592
#define SK_MAX 4896
#define SIG_MAX 4627
#define SIG_BUF (SIG_MAX + 16) /* a margin: nothing may be written past sig_len */
#define MSG_LEN 100
#define N_MAX 17      /* the largest batch to verify, and every size but the last to sign */
#define N_SIGN_MAX 66 /* past the signing group of 64 messages */
#define FILL 0xAA
#define SENTINEL 0x5EED

static const mldsa_param sets[3] = {MLDSA_44, MLDSA_65, MLDSA_87};
static const size_t sizes[] = {1, 2, 3, 4, 5, 8, 9, 17};
#define NSIZES (sizeof sizes / sizeof sizes[0])

typedef struct {
  mldsa_param p;
  size_t pkb, skb, sigb;
  uint8_t pk[PK_MAX], sk[SK_MAX];
} keypair;

static keypair key, other; /* other: a key of another set */
static mldsa_prepared_public_key pp;
static mldsa_prepared_secret_key ps;
/* item i's message, context and good signature under key */
static uint8_t rnds[N_SIGN_MAX][32]; /* item i's rnd, fixed per fixture */
/* the signature of item i with rnds[i] made alone (S_GIVEN), once per fixture */
static uint8_t alone_given[N_SIGN_MAX][SIG_BUF];
static int alone_given_done[N_SIGN_MAX];
static uint8_t msgs[N_SIGN_MAX][MSG_LEN], ctxs[N_SIGN_MAX][256], good[N_MAX][SIG_BUF];
static size_t ctx_lens[N_SIGN_MAX];
/* the signatures the items use (a spoiled copy of good), one per item */
static uint8_t sigs[N_MAX][SIG_BUF];
/* where item i's c~ or z bit is flipped (random, fixed per fixture: the cache below) */
static size_t flip_at[N_MAX];

static void make_key(keypair *kp, mldsa_param p) {
  uint8_t seed[32];
  mldsa_test_randbytes(seed, sizeof seed);
  kp->p = p;
  kp->pkb = mldsa_public_key_bytes(p);
  kp->skb = mldsa_secret_key_bytes(p);
  kp->sigb = mldsa_signature_bytes(p);
  ck_assert_int_eq(mldsa_keygen_from_seed(p, kp->pk, kp->pkb, kp->sk, kp->skb, seed), MLDSA_OK);
}

static void forget_alone_results(void);

static void fixture(int set) {
  make_key(&key, sets[set]);
  make_key(&other, sets[(set + 1) % 3]);
  ck_assert_int_eq(mldsa_public_key_prepare(&pp, key.p, key.pk, key.pkb), MLDSA_OK);
  ck_assert_int_eq(mldsa_secret_key_prepare(&ps, key.p, key.sk, key.skb), MLDSA_OK);
  forget_alone_results();
  for (int i = 0; i < N_SIGN_MAX; ++i) {
    uint8_t rnd[32];
    mldsa_test_randbytes(msgs[i], MSG_LEN);
    mldsa_test_randbytes(ctxs[i], sizeof ctxs[i]);
    mldsa_test_randbytes(rnd, sizeof rnd);
    ctx_lens[i] = mldsa_test_randbelow(256);
    mldsa_test_randbytes(rnds[i], 32);
    if (i >= N_MAX) continue; /* only signed into a batch */
    flip_at[i] = mldsa_test_randbelow(SIZE_MAX);
    ck_assert_int_eq(mldsa_sign(key.p, good[i], key.sigb, msgs[i], MSG_LEN, ctxs[i], ctx_lens[i],
                                rnd, key.sk, key.skb),
                     MLDSA_OK);
  }
}

/* ---------------------------------------------------------------- verify */

enum {
  V_GOOD,
  V_SIG_NULL,
  V_PK_NULL,
  V_MSG_NULL,
  V_CTX_NULL,
  V_SIG_SHORT,
  V_SIG_LONG,
  V_SIG_EMPTY,
  V_SIG_OTHER_SET,
  V_PK_SHORT,
  V_PK_OTHER_SET,
  V_PK_IN_PREPARED,  /* a pk with its length: wrong in the prepared form only */
  V_PK_POINTER_ONLY, /* a pk pointer with length 0: right in the prepared form only */
  V_CTX_LONG,
  V_CTX_HUGE,
  V_FLIP_C,
  V_FLIP_Z,
  V_HINT_COUNT,
  V_HINT_ORDER,
  V_HINT_PADDING,
  V_Z_RANGE,
  V_OTHER_MSG,
  V_OTHER_CTX,
  V_KINDS
};
static const char *const v_names[V_KINDS] = {"good",
                                             "sig NULL",
                                             "pk NULL",
                                             "msg NULL",
                                             "ctx NULL",
                                             "sig short",
                                             "sig long",
                                             "sig empty",
                                             "sig of another set",
                                             "pk short",
                                             "pk of another set",
                                             "pk in the prepared form",
                                             "pk pointer with length 0",
                                             "ctx 256",
                                             "ctx SIZE_MAX",
                                             "c~ bit",
                                             "z bit",
                                             "hint count",
                                             "hint order",
                                             "hint padding",
                                             "z out of range",
                                             "another message",
                                             "another context"};

/* Item i of kind k; its signature copied into sigs[i] and spoiled as the kind says. */
static mldsa_verify_item verify_item(int i, int kind, int prepared) {
  const size_t sigb = key.sigb;
  memcpy(sigs[i], good[i], SIG_BUF);
  mldsa_verify_item it = {prepared ? NULL : key.pk,
                          prepared ? 0 : key.pkb,
                          msgs[i],
                          MSG_LEN,
                          ctx_lens[i] ? ctxs[i] : NULL,
                          ctx_lens[i],
                          sigs[i],
                          sigb};
  /* the hint: omega index bytes, then k cumulative counts (the signature's last bytes) */
  const size_t k = key.p == MLDSA_44 ? 4 : key.p == MLDSA_65 ? 6 : 8;
  uint8_t *counts = sigs[i] + sigb - k;
  switch (kind) {
    case V_SIG_NULL:
      it.sig = NULL;
      break;
    case V_PK_NULL:
      it.pk = NULL;
      break;
    case V_MSG_NULL:
      it.msg = NULL;
      break;
    case V_CTX_NULL:
      it.ctx = NULL, it.ctx_len = 1 + ctx_lens[i];
      break;
    case V_SIG_SHORT:
      it.sig_len = sigb - 1;
      break;
    case V_SIG_LONG:
      it.sig_len = sigb + 1;
      break;
    case V_SIG_EMPTY:
      it.sig_len = 0;
      break;
    case V_SIG_OTHER_SET:
      it.sig_len = other.sigb;
      break;
    case V_PK_SHORT:
      it.pk_len = key.pkb - 1;
      break;
    case V_PK_OTHER_SET:
      it.pk = other.pk, it.pk_len = other.pkb;
      break;
    case V_PK_IN_PREPARED:
      it.pk = key.pk, it.pk_len = key.pkb;
      break;
    case V_PK_POINTER_ONLY:
      it.pk = key.pk, it.pk_len = 0;
      break;
    case V_CTX_LONG:
      it.ctx = ctxs[i], it.ctx_len = 256;
      break;
    case V_CTX_HUGE:
      it.ctx = ctxs[i], it.ctx_len = SIZE_MAX;
      break;
    case V_FLIP_C:
      sigs[i][flip_at[i] % 32] ^= 0x10;
      break;
    case V_FLIP_Z:
      sigs[i][32 + flip_at[i] % (sigb - 32 - 90)] ^= 0x01;
      break;
    case V_HINT_COUNT:
      counts[k - 1] = 0xFF;
      break;
    case V_HINT_ORDER:
      counts[0] = (uint8_t)(counts[k - 1] + 1);
      break;
    case V_HINT_PADDING:
      counts[-1] ^= 0x01;
      break; /* the last index byte (unused) */
    case V_Z_RANGE:
      memset(sigs[i] + 32, 0xFF, 4);
      break;
    case V_OTHER_MSG:
      it.msg = msgs[(i + 1) % N_MAX];
      break;
    case V_OTHER_CTX:
      it.ctx = ctxs[i], it.ctx_len = ctx_lens[i] ^ 1;
      break;
    default:
      break;
  }
  return it;
}

/* What the one-at-a-time call returns for the item. In the prepared form an item's pk
 * has no counterpart in mldsa_verify_prepared: a pk_len other than 0 is a wrong length,
 * after the NULL pointers (the order of every call's checks). */
static int verify_alone(const mldsa_verify_item *it, int prepared) {
  if (!prepared)
    return mldsa_verify(key.p, it->sig, it->sig_len, it->msg, it->msg_len, it->ctx, it->ctx_len,
                        it->pk, it->pk_len);
  int rc =
      mldsa_verify_prepared(&pp, it->sig, it->sig_len, it->msg, it->msg_len, it->ctx, it->ctx_len);
  if (rc != MLDSA_ERR_NULL && it->pk_len != 0) return MLDSA_ERR_LENGTH;
  return rc;
}

/* The calls alone depend only on the item, its kind and the form: each is made once per
 * fixture (a batch of 17 repeats 16 good items). */
static int alone_cache[2][V_KINDS][N_MAX];
#define NOT_YET 1000

static void forget_alone_results(void) {
  for (int f = 0; f < 2; ++f)
    for (int k = 0; k < V_KINDS; ++k)
      for (int i = 0; i < N_MAX; ++i) alone_cache[f][k][i] = NOT_YET;
  memset(alone_given_done, 0, sizeof alone_given_done);
}

static int verify_alone_cached(const mldsa_verify_item *it, int i, int kind, int prepared) {
  int *c = &alone_cache[prepared][kind][i];
  if (*c == NOT_YET) *c = verify_alone(it, prepared);
  return *c;
}

/* Runs one batch of n items of the given kinds and compares it with the calls alone. */
static void check_verify(size_t n, const int *kinds, int prepared) {
  mldsa_verify_item items[N_MAX];
  int results[N_MAX + 1], want[N_MAX], first = MLDSA_OK;
  for (size_t i = 0; i < n; ++i) {
    items[i] = verify_item((int)i, kinds[i], prepared);
    want[i] = verify_alone_cached(&items[i], (int)i, kinds[i], prepared);
    if (kinds[i] == V_GOOD || (!prepared && kinds[i] == V_PK_IN_PREPARED) ||
        (prepared && (kinds[i] == V_PK_NULL || kinds[i] == V_PK_POINTER_ONLY)))
      ck_assert_msg(want[i] == MLDSA_OK, "%s alone: %d", v_names[kinds[i]], want[i]);
    else
      ck_assert_msg(want[i] != MLDSA_OK, "%s alone verified", v_names[kinds[i]]);
    if (first == MLDSA_OK) first = want[i];
  }
  for (size_t i = 0; i <= n; ++i) results[i] = SENTINEL;
  int rc = prepared ? mldsa_verify_prepared_batch(&pp, items, n, results)
                    : mldsa_verify_batch(key.p, items, n, results);
  for (size_t i = 0; i < n; ++i)
    ck_assert_msg(results[i] == want[i], "ML-DSA-%d %s n=%zu item %zu (%s): %d, one at a time %d",
                  (int)key.p, prepared ? "prepared" : "public key", n, i, v_names[kinds[i]],
                  results[i], want[i]);
  ck_assert_msg(rc == first, "ML-DSA-%d n=%zu: returned %d, first failing item %d", (int)key.p, n,
                rc, first);
  ck_assert_int_eq(results[n], SENTINEL);
}

/* Each kind alone among good items, at the start, in the middle and at the end. */
START_TEST(test_verify_each_kind) {
  fixture(_i);
  int kinds[N_MAX];
  for (int prepared = 0; prepared < 2; ++prepared)
    for (size_t s = 0; s < NSIZES; ++s) {
      const size_t n = sizes[s], where[3] = {0, n / 2, n - 1};
      for (int kind = 0; kind < V_KINDS; ++kind)
        for (int w = 0; w < 3; ++w) {
          if (w > 0 && where[w] == where[w - 1]) continue;
          for (size_t i = 0; i < n; ++i) kinds[i] = V_GOOD;
          kinds[where[w]] = kind;
          check_verify(n, kinds, prepared);
        }
    }
}
END_TEST

/* Every kind at once (a batch of 17 holds them all with room for good items), shuffled. */
START_TEST(test_verify_all_kinds) {
  fixture(_i);
  int kinds[N_MAX];
  for (int round = 0; round < 8; ++round) {
    for (int i = 0; i < N_MAX; ++i) kinds[i] = i < V_KINDS ? i : V_GOOD;
    for (int i = N_MAX - 1; i > 0; --i) {
      int j = (int)mldsa_test_randbelow((size_t)i + 1), t = kinds[i];
      kinds[i] = kinds[j], kinds[j] = t;
    }
    check_verify(N_MAX, kinds, round & 1);
  }
}
END_TEST

/* ---------------------------------------------------------------- sign */

enum {
  S_GIVEN,  /* rnd given: the signature is mldsa_sign_prepared's, byte for byte */
  S_HEDGED, /* rnd NULL: a signature that verifies */
  S_SIG_NULL,
  S_MSG_NULL,
  S_CTX_NULL,
  S_SIG_SHORT,
  S_SIG_LONG,
  S_SIG_OTHER_SET,
  S_CTX_LONG,
  S_CTX_HUGE,
  S_NO_RANDOM, /* rnd NULL while the randomness source fails */
  S_KINDS
};
static const char *const s_names[S_KINDS] = {
    "rnd given", "hedged",       "sig NULL",     "msg NULL",
    "ctx NULL",  "sig short",    "sig long",     "sig of another set",
    "ctx 256",   "ctx SIZE_MAX", "no randomness"};

/* A randomness source that always fails, for S_NO_RANDOM. */
static int failing_source(void *ctx, uint8_t *out, size_t len) {
  (void)ctx;
  memset(out, 0x55, len); /* what it left must not be used */
  return -1;
}

static mldsa_sign_item sign_item(int i, int kind, uint8_t *sig) {
  mldsa_sign_item it = {msgs[i], MSG_LEN, ctx_lens[i] ? ctxs[i] : NULL, ctx_lens[i], rnds[i],
                        sig,     key.sigb};
  switch (kind) {
    case S_HEDGED:
      it.rnd = NULL;
      break;
    case S_SIG_NULL:
      it.sig = NULL;
      break;
    case S_MSG_NULL:
      it.msg = NULL;
      break;
    case S_CTX_NULL:
      it.ctx = NULL, it.ctx_len = 1 + ctx_lens[i];
      break;
    case S_SIG_SHORT:
      it.sig_len = key.sigb - 1;
      break;
    case S_SIG_LONG:
      it.sig_len = key.sigb + 1;
      break;
    case S_SIG_OTHER_SET:
      it.sig_len = other.sigb;
      break;
    case S_CTX_LONG:
      it.ctx = ctxs[i], it.ctx_len = 256;
      break;
    case S_CTX_HUGE:
      it.ctx = ctxs[i], it.ctx_len = SIZE_MAX;
      break;
    case S_NO_RANDOM:
      it.rnd = NULL;
      break;
    default:
      break;
  }
  return it;
}

/* The batch's items, and their sig buffers written by the batch and by the calls alone. */
static uint8_t batch_sigs[N_SIGN_MAX][SIG_BUF], alone_sigs[N_SIGN_MAX][SIG_BUF];

static void check_sign(size_t n, const int *kinds) {
  mldsa_sign_item items[N_SIGN_MAX];
  int results[N_SIGN_MAX + 1], want[N_SIGN_MAX], first = MLDSA_OK, no_random = 0;
  for (size_t i = 0; i < n; ++i) {
    no_random |= kinds[i] == S_NO_RANDOM;
    memset(batch_sigs[i], FILL, SIG_BUF);
    memset(alone_sigs[i], FILL, SIG_BUF);
  }
  /* a source that fails serves every hedged item: only the S_NO_RANDOM ones are hedged */
  if (no_random) ck_assert_int_eq(mldsa_set_random(failing_source, NULL), MLDSA_OK);
  for (size_t i = 0; i < n; ++i) {
    mldsa_sign_item alone = sign_item((int)i, kinds[i], alone_sigs[i]);
    if (kinds[i] == S_GIVEN && alone_given_done[i]) {
      memcpy(alone_sigs[i], alone_given[i], SIG_BUF);
      want[i] = MLDSA_OK;
    } else {
      want[i] = mldsa_sign_prepared(&ps, alone.sig, alone.sig_len, alone.msg, alone.msg_len,
                                    alone.ctx, alone.ctx_len, alone.rnd);
      if (kinds[i] == S_GIVEN && want[i] == MLDSA_OK) {
        memcpy(alone_given[i], alone_sigs[i], SIG_BUF);
        alone_given_done[i] = 1;
      }
    }
    ck_assert_msg((want[i] == MLDSA_OK) == (kinds[i] <= S_HEDGED), "%s alone: %d",
                  s_names[kinds[i]], want[i]);
    if (first == MLDSA_OK) first = want[i];
    items[i] = sign_item((int)i, kinds[i], batch_sigs[i]);
  }
  for (size_t i = 0; i <= n; ++i) results[i] = SENTINEL;
  int rc = mldsa_sign_batch(&ps, items, n, results);
  if (no_random) ck_assert_int_eq(mldsa_set_random(NULL, NULL), MLDSA_OK);
  for (size_t i = 0; i < n; ++i) {
    ck_assert_msg(results[i] == want[i], "ML-DSA-%d n=%zu item %zu (%s): %d, one at a time %d",
                  (int)key.p, n, i, s_names[kinds[i]], results[i], want[i]);
    if (kinds[i] == S_HEDGED) { /* a fresh signature each time: it must verify */
      ck_assert_int_eq(mldsa_verify(key.p, batch_sigs[i], key.sigb, items[i].msg, MSG_LEN,
                                    items[i].ctx, items[i].ctx_len, key.pk, key.pkb),
                       MLDSA_OK);
      ck_assert(mldsa_test_all(batch_sigs[i] + key.sigb, SIG_BUF - key.sigb, FILL));
      continue;
    }
    long at = mldsa_test_first_diff(batch_sigs[i], alone_sigs[i], SIG_BUF);
    ck_assert_msg(at < 0,
                  "ML-DSA-%d n=%zu item %zu (%s): sig byte %ld differs from the call "
                  "alone's (%02x, %02x)",
                  (int)key.p, n, i, s_names[kinds[i]], at, at < 0 ? 0 : batch_sigs[i][at],
                  at < 0 ? 0 : alone_sigs[i][at]);
  }
  ck_assert_msg(rc == first, "ML-DSA-%d n=%zu: returned %d, first failing item %d", (int)key.p, n,
                rc, first);
  ck_assert_int_eq(results[n], SENTINEL);
}

START_TEST(test_sign_each_kind) {
  fixture(_i);
  int kinds[N_MAX];
  for (size_t s = 0; s < NSIZES; ++s) {
    const size_t n = sizes[s], where[3] = {0, n / 2, n - 1};
    for (int kind = 0; kind < S_KINDS; ++kind)
      for (int w = 0; w < 3; ++w) {
        if (w > 0 && where[w] == where[w - 1]) continue;
        for (size_t i = 0; i < n; ++i) kinds[i] = S_GIVEN;
        kinds[where[w]] = kind;
        check_sign(n, kinds);
      }
  }
}
END_TEST

/* Across the signing group of 64: a malformed item on either side of the boundary. */
START_TEST(test_sign_past_group) {
  fixture(_i);
  static const int bad[] = {S_SIG_SHORT, S_CTX_LONG, S_NO_RANDOM};
  static const size_t where[] = {0, 63, 64, N_SIGN_MAX - 1};
  int kinds[N_SIGN_MAX];
  for (size_t b = 0; b < sizeof bad / sizeof bad[0]; ++b)
    for (size_t w = 0; w < sizeof where / sizeof where[0]; ++w) {
      for (int i = 0; i < N_SIGN_MAX; ++i) kinds[i] = S_GIVEN;
      kinds[where[w]] = bad[b];
      check_sign(N_SIGN_MAX, kinds);
    }
}
END_TEST

START_TEST(test_sign_all_kinds) {
  fixture(_i);
  int kinds[N_MAX];
  for (int round = 0; round < 4; ++round) {
    /* every kind but S_HEDGED, which would meet the failing source of S_NO_RANDOM */
    for (int i = 0; i < N_MAX; ++i) kinds[i] = i < S_KINDS && i != S_HEDGED ? i : S_GIVEN;
    for (int i = N_MAX - 1; i > 0; --i) {
      int j = (int)mldsa_test_randbelow((size_t)i + 1), t = kinds[i];
      kinds[i] = kinds[j], kinds[j] = t;
    }
    check_sign(N_MAX, kinds);
  }
}
END_TEST

/* ---------------------------------------------------------------- the whole call */

static int all_equal(const int *results, size_t n, int v) {
  for (size_t i = 0; i < n; ++i)
    if (results[i] != v) return 0;
  return 1;
}

START_TEST(test_whole_call) {
  fixture(_i);
  const size_t n = 9;
  mldsa_verify_item vi[9], vp[9];
  mldsa_sign_item si[9];
  int results[9];
  for (size_t i = 0; i < n; ++i) {
    vi[i] = verify_item((int)i, V_GOOD, 0);
    vp[i] = verify_item((int)i, V_GOOD, 1);
    memset(batch_sigs[i], FILL, SIG_BUF);
    si[i] = sign_item((int)i, S_GIVEN, batch_sigs[i]);
  }
#define SET(v) \
  for (size_t i_ = 0; i_ < n; ++i_) results[i_] = (v)
#define SIGS_UNTOUCHED() \
  for (size_t i_ = 0; i_ < n; ++i_) ck_assert(mldsa_test_all(batch_sigs[i_], SIG_BUF, FILL))
  /* impossible calls: nothing written */
  SET(SENTINEL);
  ck_assert_int_eq(mldsa_verify_batch(key.p, NULL, n, results), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_verify_batch((mldsa_param)42, NULL, n, results), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_verify_batch(key.p, vi, n, NULL), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_verify_prepared_batch(NULL, vp, n, results), MLDSA_ERR_NULL);
  ck_assert_int_eq(
      mldsa_verify_prepared_batch((const mldsa_prepared_public_key *)((const uint8_t *)&pp + 8), vp,
                                  n, results),
      MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_verify_prepared_batch(&pp, NULL, n, results), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_sign_batch(NULL, si, n, results), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_sign_batch((const mldsa_prepared_secret_key *)((const uint8_t *)&ps + 8),
                                    si, n, results),
                   MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_sign_batch(&ps, NULL, n, results), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_sign_batch(&ps, si, n, NULL), MLDSA_ERR_NULL);
  ck_assert(all_equal(results, n, SENTINEL));
  SIGS_UNTOUCHED();
  /* n = 0: nothing to do (the set or key still checked) */
  ck_assert_int_eq(mldsa_verify_batch(key.p, NULL, 0, NULL), MLDSA_OK);
  ck_assert_int_eq(mldsa_verify_prepared_batch(&pp, NULL, 0, NULL), MLDSA_OK);
  ck_assert_int_eq(mldsa_sign_batch(&ps, NULL, 0, NULL), MLDSA_OK);
  ck_assert_int_eq(mldsa_verify_batch((mldsa_param)42, NULL, 0, NULL), MLDSA_ERR_PARAM);

  /* common to every item: the code in every result, over an old MLDSA_OK */
  static mldsa_prepared_public_key dead_p;
  static mldsa_prepared_secret_key dead_s;
  memset(&dead_p, 0, sizeof dead_p);
  memset(&dead_s, 0, sizeof dead_s);
  SET(MLDSA_OK);
  ck_assert_int_eq(mldsa_verify_batch((mldsa_param)42, vi, n, results), MLDSA_ERR_PARAM);
  ck_assert(all_equal(results, n, MLDSA_ERR_PARAM));
  SET(MLDSA_OK);
  ck_assert_int_eq(mldsa_verify_prepared_batch(&dead_p, vp, n, results), MLDSA_ERR_KEY);
  ck_assert(all_equal(results, n, MLDSA_ERR_KEY));
  SET(MLDSA_OK);
  ck_assert_int_eq(
      mldsa_verify_prepared_batch((const mldsa_prepared_public_key *)&ps, vp, n, results),
      MLDSA_ERR_KEY);
  ck_assert(all_equal(results, n, MLDSA_ERR_KEY));
  SET(MLDSA_OK);
  ck_assert_int_eq(mldsa_sign_batch(&dead_s, si, n, results), MLDSA_ERR_KEY);
  ck_assert(all_equal(results, n, MLDSA_ERR_KEY));
  SET(MLDSA_OK);
  ck_assert_int_eq(mldsa_sign_batch((const mldsa_prepared_secret_key *)&pp, si, n, results),
                   MLDSA_ERR_KEY);
  ck_assert(all_equal(results, n, MLDSA_ERR_KEY));
  SIGS_UNTOUCHED(); /* as mldsa_sign_prepared with a key that is not one */
#undef SET
#undef SIGS_UNTOUCHED
}
END_TEST

/* The return value is the first failing item's code in item order, whatever stage found
 * it: item 0 fails while it is signed (every attempt rejected: MLDSA_ERR_KEY), item 1
 * fails its checks before any signing (MLDSA_ERR_CONTEXT). */
START_TEST(test_sign_order_of_stages) {
  fixture(_i);
  int kinds[2] = {S_GIVEN, S_CTX_LONG}, results[2];
  mldsa_sign_item items[2];
  for (int i = 0; i < 2; ++i) {
    memset(batch_sigs[i], FILL, SIG_BUF);
    items[i] = sign_item(i, kinds[i], batch_sigs[i]);
  }
  mldsa_seam_reject_all = 1;
  int rc = mldsa_sign_batch(&ps, items, 2, results);
  mldsa_seam_reject_all = 0;
  ck_assert_int_eq(results[0], MLDSA_ERR_KEY);
  ck_assert_int_eq(results[1], MLDSA_ERR_CONTEXT);
  ck_assert_msg(rc == MLDSA_ERR_KEY, "returned %d, item 0's code is %d", rc, results[0]);
  for (int i = 0; i < 2; ++i) {
    ck_assert(mldsa_test_all(batch_sigs[i], key.sigb, 0));
    ck_assert(mldsa_test_all(batch_sigs[i] + key.sigb, SIG_BUF - key.sigb, FILL));
  }
}
END_TEST

static Suite *batch_items_suite(void) {
  Suite *s = suite_create("batch_items");
  TCase *tc = tcase_create("batch_items");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, test_verify_each_kind, 0, 3);
  tcase_add_loop_test(tc, test_verify_all_kinds, 0, 3);
  tcase_add_loop_test(tc, test_sign_each_kind, 0, 3);
  tcase_add_loop_test(tc, test_sign_all_kinds, 0, 3);
  tcase_add_loop_test(tc, test_sign_past_group, 0, 3);
  tcase_add_loop_test(tc, test_whole_call, 0, 3);
  tcase_add_loop_test(tc, test_sign_order_of_stages, 0, 3);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  mldsa_test_isa_gate("test_batch_items");
  mldsa_test_seed_rng("test_batch_items");
  SRunner *sr = srunner_create(batch_items_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
