/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Every operation of every parameter set on a thread with a 128 KiB stack, musl's default
 * thread stack size (pthread_attr_setstacksize): keygen (from a seed and random), sign
 * (pure, pre-hash, internal, external mu; deterministic and hedged), verify (the same
 * variants), key import (mldsa_public_key_from_secret), the streaming mu (init from pk
 * and from sk, update, final), the prepared keys (prepare, sign, sign from mu, verify,
 * verify from mu, unprepare), and key files (RFC 9881 PEM: private key in the form "both",
 * encoded and decoded; public key encoded and decoded), the batch calls (verify_batch,
 * verify_prepared_batch, sign_batch on 9 items), the self-tests (mldsa_selftest,
 * also as the first call of the process: the power-on run of an MLDSA_SELFTEST build).
 * Each call runs on its own thread, and its result is compared with
 * the same call made on the main thread (whose stack is the process's, 8 MiB): the same
 * bytes and return codes. An operation that needs more stack dies with SIGSEGV on its
 * guard page; the name of the operation is printed before it starts.
 *
 * Prepared keys are caller memory (static here). Registered once per ISA
 * (MLDSA_ISA=<isa>; exit 77 when not in use, and in an AddressSanitizer build, whose
 * redzones multiply the stack). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"
#include "test_common.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define SMALL_STACK_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SMALL_STACK_SANITIZED 1
#endif

#define THREAD_STACK (128u * 1024u)

enum op {
  KEYGEN_SEED,
  KEYGEN_RANDOM,
  SIGN_DET,
  SIGN_HEDGED,
  SIGN_PREHASH,
  SIGN_INTERNAL,
  COMPUTE_MU,
  SIGN_MU,
  VERIFY,
  VERIFY_PREHASH,
  VERIFY_INTERNAL,
  VERIFY_MU,
  IMPORT,
  MU_STREAM_PK,
  MU_STREAM_SK,
  PREPARE_PUBLIC,
  VERIFY_PREPARED,
  VERIFY_MU_PREPARED,
  PREPARE_SECRET,
  SIGN_PREPARED,
  SIGN_MU_PREPARED,
  UNPREPARE,
  PRIVATE_KEY_FILE,
  PUBLIC_KEY_FILE,
  VERIFY_BATCH,
  VERIFY_PREPARED_BATCH,
  SIGN_BATCH,
  SELFTEST,
  NUM_OPS
};
static const char *const op_names[NUM_OPS] = {
    "keygen_from_seed", "keygen",          "sign",           "sign (hedged)",
    "sign_prehash",     "sign_internal",   "compute_mu",     "sign_mu",
    "verify",           "verify_prehash",  "verify_internal", "verify_mu",
    "public_key_from_secret", "mu_init/update/final", "mu_init_secret/update/final",
    "public_key_prepare", "verify_prepared", "verify_mu_prepared", "secret_key_prepare",
    "sign_prepared",    "sign_mu_prepared", "secret_key_unprepare",
    "private_key_encode/decode (both, PEM)", "public_key_encode/decode (PEM)",
    "verify_batch",     "verify_prepared_batch", "sign_batch", "selftest"};

/* Items of the batch calls: more than any group. */
#define BATCH_N 9

/* Inputs shared by both runs, and one set of outputs per run. */
static uint8_t seed[32], rnd[32], msg[1000], ctx[17], digest[64];
static uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES], sk[MLDSA_MAX_SECRET_KEY_BYTES];
static uint8_t sig[MLDSA_MAX_SIGNATURE_BYTES], mu[64];
static mldsa_prepared_public_key prepared_pk;
static mldsa_prepared_secret_key prepared_sk;

typedef struct {
  uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES], sk[MLDSA_MAX_SECRET_KEY_BYTES];
  uint8_t sig[MLDSA_MAX_SIGNATURE_BYTES], mu[64];
  uint8_t file[8192], seed[32];
  uint8_t batch_sig[BATCH_N][MLDSA_MAX_SIGNATURE_BYTES];
  int batch_rc[BATCH_N];
  size_t file_len, len;
  int rc, rc2, has_seed;
  mldsa_param p;
} result;

typedef struct {
  enum op op;
  mldsa_param p;
  result *r;
} job;

static void run(enum op op, mldsa_param p, result *r) {
  size_t pkl = mldsa_public_key_bytes(p), skl = mldsa_secret_key_bytes(p),
         sigl = mldsa_signature_bytes(p);
  memset(r, 0, sizeof *r);
  switch (op) {
    case KEYGEN_SEED:
      r->rc = mldsa_keygen_from_seed(p, r->pk, pkl, r->sk, skl, seed);
      break;
    case KEYGEN_RANDOM: /* random keys differ: the result is checked by signing with it */
      r->rc = mldsa_keygen(p, r->pk, pkl, r->sk, skl);
      if (r->rc == MLDSA_OK)
        r->rc = mldsa_sign(p, r->sig, sigl, msg, sizeof msg, NULL, 0, rnd, r->sk, skl);
      if (r->rc == MLDSA_OK)
        r->rc = mldsa_verify(p, r->sig, sigl, msg, sizeof msg, NULL, 0, r->pk, pkl);
      memset(r->pk, 0, sizeof r->pk);
      memset(r->sk, 0, sizeof r->sk);
      memset(r->sig, 0, sizeof r->sig);
      break;
    case SIGN_DET:
      r->rc = mldsa_sign(p, r->sig, sigl, msg, sizeof msg, ctx, sizeof ctx, rnd, sk, skl);
      break;
    case SIGN_HEDGED: /* random: checked by verifying it */
      r->rc = mldsa_sign(p, r->sig, sigl, msg, sizeof msg, ctx, sizeof ctx, NULL, sk, skl);
      if (r->rc == MLDSA_OK)
        r->rc = mldsa_verify(p, r->sig, sigl, msg, sizeof msg, ctx, sizeof ctx, pk, pkl);
      memset(r->sig, 0, sizeof r->sig);
      break;
    case SIGN_PREHASH:
      r->rc = mldsa_sign_prehash(p, r->sig, sigl, digest, 64, MLDSA_SHA2_512, ctx, sizeof ctx,
                                 rnd, sk, skl);
      break;
    case SIGN_INTERNAL:
      r->rc = mldsa_sign_internal(p, r->sig, sigl, msg, sizeof msg, rnd, sk, skl);
      break;
    case COMPUTE_MU:
      r->rc = mldsa_compute_mu(p, r->mu, pk, pkl, msg, sizeof msg, ctx, sizeof ctx);
      break;
    case SIGN_MU:
      r->rc = mldsa_sign_mu(p, r->sig, sigl, mu, rnd, sk, skl);
      break;
    case VERIFY:
      r->rc = mldsa_verify(p, sig, sigl, msg, sizeof msg, ctx, sizeof ctx, pk, pkl);
      sig[7] ^= 1;
      r->rc2 = mldsa_verify(p, sig, sigl, msg, sizeof msg, ctx, sizeof ctx, pk, pkl);
      sig[7] ^= 1;
      break;
    case VERIFY_PREHASH:
      r->rc = mldsa_sign_prehash(p, r->sig, sigl, digest, 64, MLDSA_SHA2_512, ctx, sizeof ctx,
                                 rnd, sk, skl);
      r->rc2 = mldsa_verify_prehash(p, r->sig, sigl, digest, 64, MLDSA_SHA2_512, ctx,
                                    sizeof ctx, pk, pkl);
      break;
    case VERIFY_INTERNAL:
      r->rc = mldsa_sign_internal(p, r->sig, sigl, msg, sizeof msg, rnd, sk, skl);
      r->rc2 = mldsa_verify_internal(p, r->sig, sigl, msg, sizeof msg, pk, pkl);
      break;
    case VERIFY_MU:
      r->rc = mldsa_verify_mu(p, sig, sigl, mu, pk, pkl);
      break;
    case IMPORT:
      r->rc = mldsa_public_key_from_secret(p, r->pk, pkl, sk, skl);
      break;
    case MU_STREAM_PK:
    case MU_STREAM_SK: {
      mldsa_mu_state st;
      r->rc = op == MU_STREAM_PK ? mldsa_mu_init(&st, p, pk, pkl, ctx, sizeof ctx)
                                 : mldsa_mu_init_secret(&st, p, sk, skl, ctx, sizeof ctx);
      if (r->rc == MLDSA_OK) r->rc = mldsa_mu_update(&st, msg, 333);
      if (r->rc == MLDSA_OK) r->rc = mldsa_mu_update(&st, msg + 333, sizeof msg - 333);
      if (r->rc == MLDSA_OK) r->rc = mldsa_mu_final(&st, r->mu);
      break;
    }
    case PREPARE_PUBLIC:
      r->rc = mldsa_public_key_prepare(&prepared_pk, p, pk, pkl);
      break;
    case VERIFY_PREPARED: /* after PREPARE_PUBLIC */
      r->rc = mldsa_verify_prepared(&prepared_pk, sig, sigl, msg, sizeof msg, ctx, sizeof ctx);
      break;
    case VERIFY_MU_PREPARED:
      r->rc = mldsa_verify_mu_prepared(&prepared_pk, sig, sigl, mu);
      break;
    case PREPARE_SECRET:
      r->rc = mldsa_secret_key_prepare(&prepared_sk, p, sk, skl);
      break;
    case SIGN_PREPARED: /* after PREPARE_SECRET */
      r->rc = mldsa_sign_prepared(&prepared_sk, r->sig, sigl, msg, sizeof msg, ctx, sizeof ctx,
                                  rnd);
      break;
    case SIGN_MU_PREPARED:
      r->rc = mldsa_sign_mu_prepared(&prepared_sk, r->sig, sigl, mu, rnd);
      break;
    case PRIVATE_KEY_FILE: /* encode (checks the seed against sk), then decode (derives sk) */
      r->rc = mldsa_private_key_encode(p, MLDSA_PEM, MLDSA_SK_BOTH, r->file, sizeof r->file,
                                       &r->file_len, seed, sk, skl);
      if (r->rc == MLDSA_OK)
        r->rc2 = mldsa_private_key_decode(&r->p, r->sk, sizeof r->sk, &r->len, r->seed,
                                          &r->has_seed, r->file, r->file_len);
      break;
    case PUBLIC_KEY_FILE:
      r->rc = mldsa_public_key_encode(p, MLDSA_PEM, r->file, sizeof r->file, &r->file_len, pk,
                                      pkl);
      if (r->rc == MLDSA_OK)
        r->rc2 = mldsa_public_key_decode(&r->p, r->pk, sizeof r->pk, &r->len, r->file,
                                         r->file_len);
      break;
    case VERIFY_BATCH: /* the signature, and the same with a bit flipped */
    case VERIFY_PREPARED_BATCH: {
      static uint8_t bad[MLDSA_MAX_SIGNATURE_BYTES];
      mldsa_verify_item items[BATCH_N];
      int prepared = op == VERIFY_PREPARED_BATCH;
      memcpy(bad, sig, sigl);
      bad[7] ^= 1;
      for (int i = 0; i < BATCH_N; ++i)
        items[i] = (mldsa_verify_item){prepared ? NULL : pk, prepared ? 0 : pkl, msg, sizeof msg,
                                       ctx, sizeof ctx, i == 4 ? bad : sig, sigl};
      r->rc = prepared ? mldsa_verify_prepared_batch(&prepared_pk, items, BATCH_N, r->batch_rc)
                       : mldsa_verify_batch(p, items, BATCH_N, r->batch_rc);
      r->rc = r->rc == MLDSA_ERR_VERIFY && r->batch_rc[4] == MLDSA_ERR_VERIFY ? MLDSA_OK : -100;
      break;
    }
    case SIGN_BATCH: { /* after PREPARE_SECRET */
      mldsa_sign_item items[BATCH_N];
      for (int i = 0; i < BATCH_N; ++i)
        items[i] = (mldsa_sign_item){msg, sizeof msg - (size_t)i, ctx, sizeof ctx, rnd,
                                     r->batch_sig[i], sigl};
      r->rc = mldsa_sign_batch(&prepared_sk, items, BATCH_N, r->batch_rc);
      break;
    }
    case SELFTEST:
      r->rc = mldsa_selftest();
      break;
    default: /* UNPREPARE, then prepare again for the next run */
      mldsa_secret_key_unprepare(&prepared_sk);
      r->rc = mldsa_secret_key_prepare(&prepared_sk, p, sk, skl);
      break;
  }
}

static void *thread_main(void *arg) {
  job *j = arg;
  run(j->op, j->p, j->r);
  return NULL;
}

/* op on a thread with a THREAD_STACK stack; 0 when the thread ran. */
static int run_small(enum op op, mldsa_param p, result *r) {
  pthread_attr_t attr;
  pthread_t t;
  job j = {op, p, r};
  if (pthread_attr_init(&attr) != 0) return -1;
  if (pthread_attr_setstacksize(&attr, THREAD_STACK) != 0) return -1;
  if (pthread_create(&t, &attr, thread_main, &j) != 0) return -1;
  pthread_join(t, NULL);
  pthread_attr_destroy(&attr);
  return 0;
}

int main(void) {
  const char *isa = mldsa_test_isa_gate("test_small_stack");
  (void)isa;
#if defined(SMALL_STACK_SANITIZED)
  printf("test_small_stack: sanitizer build (redzones multiply the stack): skipped\n");
  return MLDSA_TEST_SKIP;
#endif
  static result big, small;
  static const mldsa_param sets[3] = {MLDSA_44, MLDSA_65, MLDSA_87};
  unsigned passed = 0, failed = 0;
  mldsa_test_seed_rng("test_small_stack");
  mldsa_test_randbytes(seed, sizeof seed);
  mldsa_test_randbytes(rnd, sizeof rnd);
  mldsa_test_randbytes(msg, sizeof msg);
  mldsa_test_randbytes(ctx, sizeof ctx);
  mldsa_test_randbytes(digest, sizeof digest);
  /* The first call of the process, on a small stack: in an MLDSA_SELFTEST build it runs
   * the power-on self-tests there. */
  printf("test_small_stack: first call (mldsa_selftest)           ");
  fflush(stdout);
  if (run_small(SELFTEST, MLDSA_44, &small) != 0 || small.rc != MLDSA_OK) {
    printf(" FAIL: rc %d\n", small.rc);
    return EXIT_FAILURE;
  }
  printf(" ok\n");
  for (int s = 0; s < 3; ++s) {
    mldsa_param p = sets[s];
    size_t pkl = mldsa_public_key_bytes(p), skl = mldsa_secret_key_bytes(p),
           sigl = mldsa_signature_bytes(p);
    /* the key, a signature and mu the operations work on, made on the main thread */
    if (mldsa_keygen_from_seed(p, pk, pkl, sk, skl, seed) != MLDSA_OK ||
        mldsa_sign(p, sig, sigl, msg, sizeof msg, ctx, sizeof ctx, rnd, sk, skl) != MLDSA_OK ||
        mldsa_compute_mu(p, mu, pk, pkl, msg, sizeof msg, ctx, sizeof ctx) != MLDSA_OK) {
      printf("test_small_stack: FAIL: setup of ML-DSA-%d\n", (int)p);
      return EXIT_FAILURE;
    }
    for (int op = 0; op < NUM_OPS; ++op) {
      printf("test_small_stack: ML-DSA-%d %-34s", (int)p, op_names[op]);
      fflush(stdout);
      run((enum op)op, p, &big); /* main thread: the reference */
      /* the thread prepares again: the main thread's prepared key must not be what it
       * finds */
      if (op == PREPARE_PUBLIC) memset(&prepared_pk, 0, sizeof prepared_pk);
      if (op == PREPARE_SECRET || op == UNPREPARE) mldsa_secret_key_unprepare(&prepared_sk);
      if (run_small((enum op)op, p, &small) != 0) {
        printf(" FAIL: cannot create a thread with a %u-byte stack\n", THREAD_STACK);
        return EXIT_FAILURE;
      }
      int expect_ok = big.rc == MLDSA_OK &&
                      (op == VERIFY ? big.rc2 == MLDSA_ERR_VERIFY
                       : (op == VERIFY_PREHASH || op == VERIFY_INTERNAL ||
                          op == PRIVATE_KEY_FILE || op == PUBLIC_KEY_FILE)
                           ? big.rc2 == MLDSA_OK
                           : 1);
      int same = memcmp(&big, &small, sizeof big) == 0;
      if (expect_ok && same) {
        printf(" ok\n");
        ++passed;
      } else {
        printf(" FAIL: %s (rc %d/%d on 128 KiB, %d/%d on the main thread)\n",
               same ? "unexpected result" : "differs from the main thread's", small.rc, small.rc2,
               big.rc, big.rc2);
        ++failed;
      }
    }
  }
  printf("test_small_stack: %u passed, %u failed (each on a %u KiB thread stack)\n", passed,
         failed, THREAD_STACK / 1024);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
