/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* mldsa_set_random, the caller's randomness source (include/mldsa.h, "randomness"):
 *
 * - every call that draws randomness takes it from the source, with the source's ctx:
 *   mldsa_keygen makes the key of mldsa_keygen_from_seed with exactly the bytes the
 *   source delivered, mldsa_generate_seed returns them, a hedged signature (mldsa_sign,
 *   mldsa_sign_prepared, mldsa_sign_mu, an item of mldsa_sign_batch) is the one made with
 *   them as rnd; no request is over 32 bytes;
 * - a source that fails (having written some bytes first) gives MLDSA_ERR_RANDOM with
 *   every output zeroed, the other items of a batch still signed; deterministic signing
 *   does not call it;
 * - NULL restores the OS source (the old source is called no more);
 * - threads signing at once all draw from the source (each request counted once).
 *
 * The process-wide source is this program's only state: the checks run in order, in
 * one process. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"
#include "test_common.h"

#define SK_MAX 4896
#define PK_MAX 2592
#define SIG_MAX 4627
#define FILL 0xAA

static int failures;
#define CHECK(cond, ...)                          \
  do {                                            \
    if (!(cond)) {                                \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                        \
      printf("\n");                               \
      ++failures;                                 \
    }                                             \
  } while (0)

/* ---- the sources ---- */

typedef struct {
  pthread_mutex_t lock;
  uint8_t next;     /* the next byte handed out */
  uint8_t last[32]; /* the bytes of the last request */
  unsigned calls, too_long;
  int fail; /* non-zero: write 0x55 over out, then fail */
} source_state;

static source_state state = {PTHREAD_MUTEX_INITIALIZER, 1, {0}, 0, 0, 0};

static int counting_source(void *ctx, uint8_t *out, size_t len) {
  source_state *st = ctx;
  pthread_mutex_lock(&st->lock);
  ++st->calls;
  if (len > 32) ++st->too_long;
  int fail = st->fail;
  for (size_t i = 0; i < len; ++i) out[i] = fail ? 0x55 : st->next++;
  if (!fail && len <= 32) memcpy(st->last, out, len);
  pthread_mutex_unlock(&st->lock);
  return fail ? 1 : 0;
}

static int all_bytes(const uint8_t *p, size_t n, uint8_t v) { return mldsa_test_all(p, n, v); }

/* ---- the checks ---- */

static uint8_t pk[PK_MAX], sk[SK_MAX], pk2[PK_MAX], sk2[SK_MAX], sig[SIG_MAX], sig2[SIG_MAX];
static const uint8_t msg[] = "the message";
static const uint8_t key_seed[32] = {42};

static void check_served(mldsa_param p) {
  const size_t pkb = mldsa_public_key_bytes(p), skb = mldsa_secret_key_bytes(p),
               sigb = mldsa_signature_bytes(p);
  uint8_t seed[32];
  unsigned before = state.calls;
  CHECK(mldsa_keygen(p, pk, pkb, sk, skb) == MLDSA_OK, "keygen with the source");
  CHECK(state.calls == before + 1, "keygen: %u requests", state.calls - before);
  CHECK(mldsa_keygen_from_seed(p, pk2, pkb, sk2, skb, state.last) == MLDSA_OK, "from seed");
  CHECK(memcmp(pk, pk2, pkb) == 0 && memcmp(sk, sk2, skb) == 0,
        "ML-DSA-%d: keygen's key is not the one of the source's bytes", (int)p);

  CHECK(mldsa_generate_seed(seed) == MLDSA_OK, "generate_seed");
  CHECK(memcmp(seed, state.last, 32) == 0, "generate_seed: not the source's bytes");

  CHECK(mldsa_sign(p, sig, sigb, msg, sizeof msg, NULL, 0, NULL, sk, skb) == MLDSA_OK, "sign");
  CHECK(mldsa_sign(p, sig2, sigb, msg, sizeof msg, NULL, 0, state.last, sk, skb) == MLDSA_OK,
        "sign with rnd");
  CHECK(memcmp(sig, sig2, sigb) == 0, "ML-DSA-%d: hedged sign did not use the source's bytes",
        (int)p);

  static mldsa_prepared_secret_key ps;
  CHECK(mldsa_secret_key_prepare(&ps, p, sk, skb) == MLDSA_OK, "prepare");
  CHECK(mldsa_sign_prepared(&ps, sig, sigb, msg, sizeof msg, NULL, 0, NULL) == MLDSA_OK,
        "sign_prepared");
  CHECK(mldsa_sign_prepared(&ps, sig2, sigb, msg, sizeof msg, NULL, 0, state.last) == MLDSA_OK,
        "sign_prepared with rnd");
  CHECK(memcmp(sig, sig2, sigb) == 0, "sign_prepared did not use the source's bytes");

  uint8_t mu[64] = {1, 2, 3};
  CHECK(mldsa_sign_mu(p, sig, sigb, mu, NULL, sk, skb) == MLDSA_OK, "sign_mu");
  CHECK(mldsa_sign_mu(p, sig2, sigb, mu, state.last, sk, skb) == MLDSA_OK, "sign_mu rnd");
  CHECK(memcmp(sig, sig2, sigb) == 0, "sign_mu did not use the source's bytes");

  mldsa_sign_item item = {msg, sizeof msg, NULL, 0, NULL, sig, sigb};
  int result = -100;
  CHECK(mldsa_sign_batch(&ps, &item, 1, &result) == MLDSA_OK && result == MLDSA_OK, "batch");
  CHECK(mldsa_sign_prepared(&ps, sig2, sigb, msg, sizeof msg, NULL, 0, state.last) == MLDSA_OK,
        "sign_prepared with rnd");
  CHECK(memcmp(sig, sig2, sigb) == 0, "sign_batch did not use the source's bytes");
  mldsa_secret_key_unprepare(&ps);
  CHECK(state.too_long == 0, "%u requests over 32 bytes", state.too_long);
}

static void check_failing(mldsa_param p) {
  const size_t pkb = mldsa_public_key_bytes(p), skb = mldsa_secret_key_bytes(p),
               sigb = mldsa_signature_bytes(p);
  uint8_t seed[32], good_sk[SK_MAX];
  CHECK(mldsa_keygen_from_seed(p, pk2, pkb, good_sk, skb, key_seed) == MLDSA_OK, "a key");
  state.fail = 1;
  memset(pk, FILL, pkb), memset(sk, FILL, skb);
  CHECK(mldsa_keygen(p, pk, pkb, sk, skb) == MLDSA_ERR_RANDOM, "keygen: not MLDSA_ERR_RANDOM");
  CHECK(all_bytes(pk, pkb, 0) && all_bytes(sk, skb, 0), "keygen: outputs not zeroed");
  memset(seed, FILL, sizeof seed);
  CHECK(mldsa_generate_seed(seed) == MLDSA_ERR_RANDOM, "generate_seed");
  CHECK(all_bytes(seed, sizeof seed, 0), "generate_seed: the source's bytes left");
  memset(sig, FILL, sigb);
  CHECK(mldsa_sign(p, sig, sigb, msg, sizeof msg, NULL, 0, NULL, good_sk, skb) == MLDSA_ERR_RANDOM,
        "sign");
  CHECK(all_bytes(sig, sigb, 0), "sign: sig not zeroed");

  static mldsa_prepared_secret_key ps;
  CHECK(mldsa_secret_key_prepare(&ps, p, good_sk, skb) == MLDSA_OK, "prepare");
  memset(sig, FILL, sigb);
  CHECK(mldsa_sign_prepared(&ps, sig, sigb, msg, sizeof msg, NULL, 0, NULL) == MLDSA_ERR_RANDOM,
        "sign_prepared");
  CHECK(all_bytes(sig, sigb, 0), "sign_prepared: sig not zeroed");
  /* a batch: the hedged item fails, the item with rnd is signed */
  static const uint8_t rnd[32];
  mldsa_sign_item items[2] = {{msg, sizeof msg, NULL, 0, NULL, sig, sigb},
                              {msg, sizeof msg, NULL, 0, rnd, sig2, sigb}};
  int results[2] = {MLDSA_OK, -100};
  memset(sig, FILL, sigb), memset(sig2, FILL, sigb);
  CHECK(mldsa_sign_batch(&ps, items, 2, results) == MLDSA_ERR_RANDOM, "sign_batch");
  CHECK(results[0] == MLDSA_ERR_RANDOM && results[1] == MLDSA_OK, "sign_batch: %d %d", results[0],
        results[1]);
  CHECK(all_bytes(sig, sigb, 0), "sign_batch: the failed item's sig not zeroed");
  CHECK(mldsa_verify(p, sig2, sigb, msg, sizeof msg, NULL, 0, pk2, pkb) == MLDSA_OK,
        "sign_batch: the other item not signed");
  /* deterministic signing never asks */
  unsigned before = state.calls;
  CHECK(mldsa_sign_prepared(&ps, sig, sigb, msg, sizeof msg, NULL, 0, rnd) == MLDSA_OK,
        "deterministic sign with a failing source");
  CHECK(state.calls == before, "deterministic signing called the source");
  mldsa_secret_key_unprepare(&ps);
  state.fail = 0;
}

/* ---- threads ---- */

#define THREADS 4
#define PER_THREAD 3

static mldsa_prepared_secret_key shared_ps;
static int thread_failures[THREADS];

static void *signer(void *arg) {
  int t = (int)(intptr_t)arg;
  uint8_t s[MLDSA44_SIGNATURE_BYTES];
  for (int i = 0; i < PER_THREAD; ++i)
    if (mldsa_sign_prepared(&shared_ps, s, sizeof s, msg, sizeof msg, NULL, 0, NULL) != MLDSA_OK)
      ++thread_failures[t];
  return NULL;
}

static void check_threads(void) {
  CHECK(mldsa_keygen_from_seed(MLDSA_44, pk, MLDSA44_PUBLIC_KEY_BYTES, sk, MLDSA44_SECRET_KEY_BYTES,
                               key_seed) == MLDSA_OK,
        "key");
  CHECK(mldsa_secret_key_prepare(&shared_ps, MLDSA_44, sk, MLDSA44_SECRET_KEY_BYTES) == MLDSA_OK,
        "prepare");
  unsigned before = state.calls;
  pthread_t th[THREADS];
  for (int t = 0; t < THREADS; ++t)
    CHECK(pthread_create(&th[t], NULL, signer, (void *)(intptr_t)t) == 0, "pthread_create");
  for (int t = 0; t < THREADS; ++t) {
    pthread_join(th[t], NULL);
    CHECK(thread_failures[t] == 0, "thread %d: %d failures", t, thread_failures[t]);
  }
  CHECK(state.calls == before + THREADS * PER_THREAD, "threads: %u requests for %d signatures",
        state.calls - before, THREADS * PER_THREAD);
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  static const mldsa_param sets[3] = {MLDSA_44, MLDSA_65, MLDSA_87};
  CHECK(mldsa_set_random(counting_source, &state) == MLDSA_OK, "set_random");
  for (int s = 0; s < 3; ++s) {
    check_served(sets[s]);
    check_failing(sets[s]);
  }
  check_threads();
  CHECK(state.calls > 0, "the source was never called");

  /* NULL: back to the OS, the old source called no more */
  CHECK(mldsa_set_random(NULL, &state) == MLDSA_OK, "set_random(NULL)");
  unsigned before = state.calls;
  uint8_t seed[32] = {0}, zero[32] = {0};
  CHECK(mldsa_generate_seed(seed) == MLDSA_OK, "generate_seed from the OS");
  CHECK(memcmp(seed, zero, 32) != 0, "the OS gave 32 zero bytes");
  CHECK(mldsa_keygen(MLDSA_44, pk, MLDSA44_PUBLIC_KEY_BYTES, sk, MLDSA44_SECRET_KEY_BYTES) ==
            MLDSA_OK,
        "keygen from the OS");
  CHECK(state.calls == before, "the old source was called after set_random(NULL)");
  printf("test_set_random: %u requests served, %d failures\n", state.calls, failures);
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
