/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Threads from a cold start: 8 threads, released together by a barrier before the process
 * has made any call into the library (so the first calls race on the one-time ISA choice
 * and the MCDT decision), each running a mix of keygen (from a seed and from the OS), sign
 * (deterministic, given rnd, hedged; pure, pre-hash, internal, mu), verify (good and bad
 * signatures) and key import across all three parameter sets. Every result is checked in
 * the thread (round trips, error codes) and, for the deterministic ones, again afterwards
 * against the same operations run in the main thread alone. Run by ctest once per ISA
 * (MLDSA_ISA) and under ThreadSanitizer by ci/tsan.
 *
 *   test_threads [iterations per thread]      (default 12) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"

#define THREADS 8
#define MAX_ITERS 64

static const struct {
  mldsa_param p;
  size_t pk, sk, sig;
} sets[3] = {{MLDSA_44, 1312, 2560, 2420}, {MLDSA_65, 1952, 4032, 3309}, {MLDSA_87, 2592, 4896, 4627}};

typedef struct {
  int id, iters, failures;
  const char *isa;
  char first_failure[200];
  /* the deterministic results, for the check afterwards */
  uint8_t pk[MAX_ITERS][2592];
  uint8_t sig[MAX_ITERS][4627];
} worker;

static pthread_barrier_t start;
static worker workers[THREADS];

#define EXPECT(w, cond, ...)                                                         \
  do {                                                                               \
    if (!(cond) && (w)->failures++ == 0)                                             \
      snprintf((w)->first_failure, sizeof (w)->first_failure, __VA_ARGS__);          \
  } while (0)

static void seed_of(uint8_t seed[32], int id, int i) {
  memset(seed, 0, 32);
  seed[0] = (uint8_t)id;
  seed[1] = (uint8_t)i;
  seed[2] = 0x5e;
}

static void message_of(uint8_t msg[40], int id, int i) {
  for (int k = 0; k < 40; ++k) msg[k] = (uint8_t)(id * 31 + i * 7 + k);
}

/* The deterministic part of iteration i of thread id: keygen from a seed, sign with rnd =
 * 0 in the interface chosen by i. Returns the return codes or'ed. */
static int deterministic(int id, int i, uint8_t *pk, uint8_t *sk, uint8_t *sig) {
  const int s = (id + i) % 3;
  static const uint8_t zero[32];
  uint8_t seed[32], msg[40], mu[64];
  seed_of(seed, id, i);
  message_of(msg, id, i);
  int rc = mldsa_keygen_from_seed(sets[s].p, pk, sets[s].pk, sk, sets[s].sk, seed);
  switch (i % 4) {
    case 0:
      rc |= mldsa_sign(sets[s].p, sig, sets[s].sig, msg, sizeof msg, msg, 3, zero, sk, sets[s].sk);
      break;
    case 1:
      rc |= mldsa_sign_prehash(sets[s].p, sig, sets[s].sig, msg, 32, MLDSA_SHA3_256, NULL, 0, zero,
                               sk, sets[s].sk);
      break;
    case 2:
      rc |= mldsa_sign_internal(sets[s].p, sig, sets[s].sig, msg, sizeof msg, zero, sk, sets[s].sk);
      break;
    default:
      rc |= mldsa_compute_mu(sets[s].p, mu, pk, sets[s].pk, msg, sizeof msg, NULL, 0);
      rc |= mldsa_sign_mu(sets[s].p, sig, sets[s].sig, mu, zero, sk, sets[s].sk);
  }
  return rc;
}

static int verify_det(int id, int i, const uint8_t *pk, const uint8_t *sig) {
  const int s = (id + i) % 3;
  uint8_t msg[40], mu[64];
  message_of(msg, id, i);
  switch (i % 4) {
    case 0: return mldsa_verify(sets[s].p, sig, sets[s].sig, msg, sizeof msg, msg, 3, pk, sets[s].pk);
    case 1:
      return mldsa_verify_prehash(sets[s].p, sig, sets[s].sig, msg, 32, MLDSA_SHA3_256, NULL, 0, pk,
                                  sets[s].pk);
    case 2: return mldsa_verify_internal(sets[s].p, sig, sets[s].sig, msg, sizeof msg, pk, sets[s].pk);
    default:
      if (mldsa_compute_mu(sets[s].p, mu, pk, sets[s].pk, msg, sizeof msg, NULL, 0) != MLDSA_OK)
        return -100;
      return mldsa_verify_mu(sets[s].p, sig, sets[s].sig, mu, pk, sets[s].pk);
  }
}

static void *run(void *arg) {
  worker *w = arg;
  static __thread uint8_t sk[4896], pk2[2592], sk2[4896], sig2[4627];
  pthread_barrier_wait(&start);
  w->isa = mldsa_isa();
  for (int i = 0; i < w->iters; ++i) {
    const int s = (w->id + i) % 3;
    uint8_t *pk = w->pk[i], *sig = w->sig[i];
    EXPECT(w, deterministic(w->id, i, pk, sk, sig) == MLDSA_OK, "thread %d iteration %d: signing failed", w->id, i);
    EXPECT(w, verify_det(w->id, i, pk, sig) == MLDSA_OK, "thread %d iteration %d: verify failed", w->id, i);
    sig[7] ^= 1;
    EXPECT(w, verify_det(w->id, i, pk, sig) == MLDSA_ERR_VERIFY,
           "thread %d iteration %d: a changed signature verified", w->id, i);
    sig[7] ^= 1;
    EXPECT(w, mldsa_public_key_from_secret(sets[s].p, pk2, sets[s].pk, sk, sets[s].sk) == MLDSA_OK &&
                  memcmp(pk2, pk, sets[s].pk) == 0,
           "thread %d iteration %d: key import failed", w->id, i);
    /* randomness from the OS: a fresh key and a hedged signature with it */
    uint8_t msg[16] = {(uint8_t)i};
    EXPECT(w, mldsa_keygen(sets[s].p, pk2, sets[s].pk, sk2, sets[s].sk) == MLDSA_OK,
           "thread %d: mldsa_keygen failed", w->id);
    EXPECT(w, mldsa_sign(sets[s].p, sig2, sets[s].sig, msg, sizeof msg, NULL, 0, NULL, sk2,
                         sets[s].sk) == MLDSA_OK &&
                  mldsa_verify(sets[s].p, sig2, sets[s].sig, msg, sizeof msg, NULL, 0, pk2,
                               sets[s].pk) == MLDSA_OK,
           "thread %d: hedged round trip failed", w->id);
    EXPECT(w, mldsa_verify(sets[s].p, sig2, sets[s].sig, msg, sizeof msg, NULL, 0, pk,
                           sets[s].pk) == MLDSA_ERR_VERIFY,
           "thread %d: a signature verified under another key", w->id);
    EXPECT(w, mldsa_signature_bytes(sets[s].p) == sets[s].sig, "thread %d: sizes", w->id);
  }
  return NULL;
}

int main(int argc, char **argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 12;
  if (iters < 1 || iters > MAX_ITERS) iters = 12;
  pthread_t t[THREADS];
  pthread_barrier_init(&start, NULL, THREADS);
  for (int i = 0; i < THREADS; ++i) {
    workers[i].id = i;
    workers[i].iters = iters;
    if (pthread_create(&t[i], NULL, run, &workers[i]) != 0) {
      fprintf(stderr, "test_threads: pthread_create failed\n");
      return 1;
    }
  }
  for (int i = 0; i < THREADS; ++i) pthread_join(t[i], NULL);
  pthread_barrier_destroy(&start);

  int failures = 0;
  const char *isa = mldsa_isa();
  for (int i = 0; i < THREADS; ++i) {
    worker *w = &workers[i];
    if (w->failures) fprintf(stderr, "test_threads: %d failures, first: %s\n", w->failures, w->first_failure);
    failures += w->failures;
    if (w->isa == NULL || strcmp(w->isa, isa) != 0) {
      fprintf(stderr, "test_threads: thread %d saw ISA %s, the process %s\n", i, w->isa ? w->isa : "?", isa);
      failures++;
    }
    /* the same deterministic operations, alone in the main thread */
    static uint8_t pk[2592], sk[4896], sig[4627];
    for (int k = 0; k < w->iters; ++k) {
      const int s = (w->id + k) % 3;
      if (deterministic(w->id, k, pk, sk, sig) != MLDSA_OK || memcmp(pk, w->pk[k], sets[s].pk) != 0 ||
          memcmp(sig, w->sig[k], sets[s].sig) != 0) {
        fprintf(stderr, "test_threads: thread %d iteration %d differs from the same work done alone\n", i, k);
        failures++;
      }
    }
  }
  printf("test_threads: %d threads x %d iterations from a cold start, isa %s: %s\n", THREADS, iters,
         isa, failures ? "FAILED" : "all results right");
  const char *want = getenv("MLDSA_ISA");
  if (!failures && want && *want && strcmp(want, isa) != 0) {
    printf("test_threads: ISA %s not available (library uses %s): skipped\n", want, isa);
    return 77;
  }
  return failures ? 1 : 0;
}
