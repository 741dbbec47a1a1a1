/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The self-tests (src/selftest.c), through the public API of the seams variant of the
 * library (src/seams.h: mldsa_seam_selftest_fault makes one step fail):
 *
 * - mldsa_selftest passes, repeatedly and from several threads at once;
 * - a fault in each step of the known-answer tests (keygen, deterministic sign, verify of
 *   the good signature, verify that must fail, sign under the prepared key, sign in a
 *   batch) gives MLDSA_ERR_SELFTEST;
 * - a fault in the pairwise test of keygen (MLDSA_SELFTEST builds; without the option
 *   keygen runs none and succeeds); the key decoder, which imports keys, runs none.
 *
 * In an MLDSA_SELFTEST build (the option's definition reaches this program through the
 * variant's compile definitions) a failure must also be sticky: afterwards every function
 * of mldsa.h that returns an int returns MLDSA_ERR_SELFTEST with every output zeroed (a
 * batch call's code in every result)
 * (checked over all of them, outputs pre-filled with 0xAA), mldsa_selftest included, the
 * fault removed. The power-on tests run at the first call, so the faults are tried both
 * before the first call (the power-on run fails, whatever the first call is) and after a
 * first call that passed (an mldsa_selftest call or a keygen fails later). Each test runs
 * in a process of its own (Check's fork mode, forced here): the once-only power-on state
 * starts fresh in each. Without the option, a failure is not sticky: the next
 * mldsa_selftest without the fault passes, and keygen works.
 *
 * Registered once per ISA (MLDSA_ISA=<isa>): the known-answer tests run on that ISA's
 * backends. */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"
#include "seams.h"
#include "test_common.h"

#define FILL 0xAA

typedef struct {
  mldsa_param p;
  size_t pk, sk, sig;
} set_info;
static const set_info sets[3] = {
    {MLDSA_44, 1312, 2560, 2420}, {MLDSA_65, 1952, 4032, 3309}, {MLDSA_87, 2592, 4896, 4627}};

static const struct {
  int step;
  const char *name;
} kat_steps[] = {
    {MLDSA_SEAM_SELFTEST_KEYGEN, "keygen"},
    {MLDSA_SEAM_SELFTEST_SIGN, "sign"},
    {MLDSA_SEAM_SELFTEST_VERIFY, "verify"},
    {MLDSA_SEAM_SELFTEST_VERIFY_BAD, "verify that must fail"},
    {MLDSA_SEAM_SELFTEST_PREPARED, "sign under the prepared key"},
    {MLDSA_SEAM_SELFTEST_BATCH, "sign in a batch"},
};
#define NUM_KAT_STEPS ((int)(sizeof kat_steps / sizeof kat_steps[0]))

static uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES], sk[MLDSA_MAX_SECRET_KEY_BYTES],
    sig[MLDSA_MAX_SIGNATURE_BYTES], seed[32], msg[33], out[16384];

/* ---------------------------------------------------------------- refusal after a failure */

#ifdef MLDSA_SELFTEST
static uint8_t mu[64];
static mldsa_prepared_public_key prepared_pk;
static mldsa_prepared_secret_key prepared_sk;
static mldsa_mu_state mu_state;

static void fill(void *p, size_t n) { memset(p, FILL, n); }

#define EXPECT_REFUSED(call, what)                                                      \
  do {                                                                                  \
    int rc_ = (call);                                                                   \
    ck_assert_msg(rc_ == MLDSA_ERR_SELFTEST, "%s after a failed self-test (%s): %d", what, \
                  why, rc_);                                                            \
  } while (0)
#define EXPECT_ZERO(buf, n, what)                                                          \
  ck_assert_msg(mldsa_test_all((const uint8_t *)(buf), (n), 0), "%s (%s): output not zeroed", \
                what, why)

/* Every int function of mldsa.h refuses with MLDSA_ERR_SELFTEST and zeroes its outputs;
 * the inputs are valid (a key pair and a signature made before the failure) or, where
 * none was made, zero bytes of the right length. */
static void expect_refused(const set_info *s, const char *why) {
  static const uint8_t rnd[32];
  mldsa_param p_out;
  size_t len_out;
  int has_seed;

  fill(pk, s->pk), fill(sk, s->sk);
  EXPECT_REFUSED(mldsa_keygen(s->p, pk, s->pk, sk, s->sk), "mldsa_keygen");
  EXPECT_ZERO(pk, s->pk, "mldsa_keygen pk");
  EXPECT_ZERO(sk, s->sk, "mldsa_keygen sk");
  fill(pk, s->pk), fill(sk, s->sk);
  EXPECT_REFUSED(mldsa_keygen_from_seed(s->p, pk, s->pk, sk, s->sk, seed), "keygen_from_seed");
  EXPECT_ZERO(pk, s->pk, "keygen_from_seed pk");
  EXPECT_ZERO(sk, s->sk, "keygen_from_seed sk");

  fill(sig, s->sig);
  EXPECT_REFUSED(mldsa_sign(s->p, sig, s->sig, msg, sizeof msg, NULL, 0, rnd, sk, s->sk),
                 "mldsa_sign");
  EXPECT_ZERO(sig, s->sig, "mldsa_sign");
  fill(sig, s->sig);
  EXPECT_REFUSED(mldsa_sign_prehash(s->p, sig, s->sig, msg, 32, MLDSA_SHA2_256, NULL, 0, rnd,
                                    sk, s->sk),
                 "mldsa_sign_prehash");
  EXPECT_ZERO(sig, s->sig, "mldsa_sign_prehash");
  fill(sig, s->sig);
  EXPECT_REFUSED(mldsa_sign_internal(s->p, sig, s->sig, msg, sizeof msg, rnd, sk, s->sk),
                 "mldsa_sign_internal");
  EXPECT_ZERO(sig, s->sig, "mldsa_sign_internal");
  fill(sig, s->sig);
  EXPECT_REFUSED(mldsa_sign_mu(s->p, sig, s->sig, mu, NULL, sk, s->sk), "mldsa_sign_mu");
  EXPECT_ZERO(sig, s->sig, "mldsa_sign_mu");

  EXPECT_REFUSED(mldsa_verify(s->p, sig, s->sig, msg, sizeof msg, NULL, 0, pk, s->pk),
                 "mldsa_verify");
  EXPECT_REFUSED(mldsa_verify_prehash(s->p, sig, s->sig, msg, 32, MLDSA_SHA2_256, NULL, 0, pk,
                                      s->pk),
                 "mldsa_verify_prehash");
  EXPECT_REFUSED(mldsa_verify_internal(s->p, sig, s->sig, msg, sizeof msg, pk, s->pk),
                 "mldsa_verify_internal");
  EXPECT_REFUSED(mldsa_verify_mu(s->p, sig, s->sig, mu, pk, s->pk), "mldsa_verify_mu");

  uint8_t mu_out[64];
  fill(mu_out, sizeof mu_out);
  EXPECT_REFUSED(mldsa_compute_mu(s->p, mu_out, pk, s->pk, msg, sizeof msg, NULL, 0),
                 "mldsa_compute_mu");
  EXPECT_ZERO(mu_out, sizeof mu_out, "mldsa_compute_mu");
  fill(pk, s->pk);
  EXPECT_REFUSED(mldsa_public_key_from_secret(s->p, pk, s->pk, sk, s->sk),
                 "mldsa_public_key_from_secret");
  EXPECT_ZERO(pk, s->pk, "mldsa_public_key_from_secret");

  fill(&mu_state, sizeof mu_state);
  EXPECT_REFUSED(mldsa_mu_init(&mu_state, s->p, pk, s->pk, NULL, 0), "mldsa_mu_init");
  EXPECT_ZERO(&mu_state, sizeof mu_state, "mldsa_mu_init");
  fill(&mu_state, sizeof mu_state);
  EXPECT_REFUSED(mldsa_mu_init_secret(&mu_state, s->p, sk, s->sk, NULL, 0),
                 "mldsa_mu_init_secret");
  EXPECT_ZERO(&mu_state, sizeof mu_state, "mldsa_mu_init_secret");
  fill(&mu_state, sizeof mu_state);
  EXPECT_REFUSED(mldsa_mu_update(&mu_state, msg, sizeof msg), "mldsa_mu_update");
  EXPECT_ZERO(&mu_state, sizeof mu_state, "mldsa_mu_update");
  fill(&mu_state, sizeof mu_state), fill(mu_out, sizeof mu_out);
  EXPECT_REFUSED(mldsa_mu_final(&mu_state, mu_out), "mldsa_mu_final");
  EXPECT_ZERO(&mu_state, sizeof mu_state, "mldsa_mu_final state");
  EXPECT_ZERO(mu_out, sizeof mu_out, "mldsa_mu_final mu");

  fill(&prepared_pk, sizeof prepared_pk);
  EXPECT_REFUSED(mldsa_public_key_prepare(&prepared_pk, s->p, pk, s->pk),
                 "mldsa_public_key_prepare");
  EXPECT_ZERO(&prepared_pk, sizeof prepared_pk, "mldsa_public_key_prepare");
  EXPECT_REFUSED(mldsa_verify_prepared(&prepared_pk, sig, s->sig, msg, sizeof msg, NULL, 0),
                 "mldsa_verify_prepared");
  EXPECT_REFUSED(mldsa_verify_mu_prepared(&prepared_pk, sig, s->sig, mu),
                 "mldsa_verify_mu_prepared");
  fill(&prepared_sk, sizeof prepared_sk);
  EXPECT_REFUSED(mldsa_secret_key_prepare(&prepared_sk, s->p, sk, s->sk),
                 "mldsa_secret_key_prepare");
  EXPECT_ZERO(&prepared_sk, sizeof prepared_sk, "mldsa_secret_key_prepare");
  fill(sig, s->sig);
  EXPECT_REFUSED(mldsa_sign_prepared(&prepared_sk, sig, s->sig, msg, sizeof msg, NULL, 0, rnd),
                 "mldsa_sign_prepared");
  EXPECT_ZERO(sig, s->sig, "mldsa_sign_prepared");
  fill(sig, s->sig);
  EXPECT_REFUSED(mldsa_sign_mu_prepared(&prepared_sk, sig, s->sig, mu, rnd),
                 "mldsa_sign_mu_prepared");
  EXPECT_ZERO(sig, s->sig, "mldsa_sign_mu_prepared");

  /* batches: the code in every result (over an old MLDSA_OK), every sig zeroed */
  static uint8_t sigs[3][MLDSA_MAX_SIGNATURE_BYTES];
  int results[3];
  mldsa_verify_item vitems[3];
  mldsa_sign_item sitems[3];
  for (int i = 0; i < 3; ++i) {
    vitems[i] = (mldsa_verify_item){pk, s->pk, msg, sizeof msg, NULL, 0, sig, s->sig};
    sitems[i] = (mldsa_sign_item){msg, sizeof msg, NULL, 0, rnd, sigs[i], s->sig};
    fill(sigs[i], s->sig);
    results[i] = MLDSA_OK;
  }
#define EXPECT_RESULTS(what)                                                               \
  for (int i_ = 0; i_ < 3; ++i_) {                                                         \
    ck_assert_msg(results[i_] == MLDSA_ERR_SELFTEST, "%s (%s): results[%d] = %d", what, why, \
                  i_, results[i_]);                                                        \
    results[i_] = MLDSA_OK;                                                                \
  }
  EXPECT_REFUSED(mldsa_verify_batch(s->p, vitems, 3, results), "mldsa_verify_batch");
  EXPECT_RESULTS("mldsa_verify_batch");
  vitems[1].pk = NULL, vitems[1].pk_len = 0;
  EXPECT_REFUSED(mldsa_verify_prepared_batch(&prepared_pk, vitems + 1, 1, results),
                 "mldsa_verify_prepared_batch");
  results[1] = results[2] = MLDSA_ERR_SELFTEST;
  EXPECT_RESULTS("mldsa_verify_prepared_batch");
  EXPECT_REFUSED(mldsa_sign_batch(&prepared_sk, sitems, 3, results), "mldsa_sign_batch");
  EXPECT_RESULTS("mldsa_sign_batch");
  for (int i = 0; i < 3; ++i) EXPECT_ZERO(sigs[i], s->sig, "mldsa_sign_batch");
#undef EXPECT_RESULTS
  EXPECT_REFUSED(mldsa_set_random(NULL, NULL), "mldsa_set_random");

  uint8_t seed_out[32];
  fill(seed_out, sizeof seed_out);
  EXPECT_REFUSED(mldsa_generate_seed(seed_out), "mldsa_generate_seed");
  EXPECT_ZERO(seed_out, sizeof seed_out, "mldsa_generate_seed");
  fill(out, sizeof out), len_out = 1;
  EXPECT_REFUSED(mldsa_public_key_encode(s->p, MLDSA_PEM, out, sizeof out, &len_out, pk, s->pk),
                 "mldsa_public_key_encode");
  EXPECT_ZERO(out, sizeof out, "mldsa_public_key_encode");
  ck_assert_msg(len_out == 0, "mldsa_public_key_encode (%s): out_len not zeroed", why);
  fill(out, sizeof out), len_out = 1;
  EXPECT_REFUSED(mldsa_private_key_encode(s->p, MLDSA_DER, MLDSA_SK_SEED, out, sizeof out,
                                          &len_out, seed, NULL, 0),
                 "mldsa_private_key_encode");
  EXPECT_ZERO(out, sizeof out, "mldsa_private_key_encode");
  ck_assert_msg(len_out == 0, "mldsa_private_key_encode (%s): out_len not zeroed", why);
  static const uint8_t der[8] = {0x30, 0x06};
  fill(pk, s->pk), len_out = 1, p_out = s->p;
  EXPECT_REFUSED(mldsa_public_key_decode(&p_out, pk, s->pk, &len_out, der, sizeof der),
                 "mldsa_public_key_decode");
  EXPECT_ZERO(pk, s->pk, "mldsa_public_key_decode");
  ck_assert_msg(len_out == 0 && p_out == 0, "mldsa_public_key_decode (%s): *pk_len, *p", why);
  fill(sk, s->sk), fill(seed_out, sizeof seed_out), len_out = 1, p_out = s->p, has_seed = 1;
  EXPECT_REFUSED(mldsa_private_key_decode(&p_out, sk, s->sk, &len_out, seed_out, &has_seed, der,
                                          sizeof der),
                 "mldsa_private_key_decode");
  EXPECT_ZERO(sk, s->sk, "mldsa_private_key_decode sk");
  EXPECT_ZERO(seed_out, sizeof seed_out, "mldsa_private_key_decode seed");
  ck_assert_msg(len_out == 0 && p_out == 0 && has_seed == 0,
                "mldsa_private_key_decode (%s): *sk_len, *p, *has_seed", why);

  EXPECT_REFUSED(mldsa_selftest(), "mldsa_selftest");
}
#endif

/* ---------------------------------------------------------------- the tests */

START_TEST(test_passes) {
  for (int i = 0; i < 3; ++i)
    ck_assert_msg(mldsa_selftest() == MLDSA_OK, "mldsa_selftest failed on %s (run %d)",
                  mldsa_isa(), i + 1);
  /* and the library works on after it */
  const set_info *s = &sets[_i];
  memset(seed, 0x5A, sizeof seed);
  ck_assert_int_eq(mldsa_keygen_from_seed(s->p, pk, s->pk, sk, s->sk, seed), MLDSA_OK);
  ck_assert_int_eq(mldsa_sign(s->p, sig, s->sig, msg, sizeof msg, NULL, 0, NULL, sk, s->sk),
                   MLDSA_OK);
  ck_assert_int_eq(mldsa_verify(s->p, sig, s->sig, msg, sizeof msg, NULL, 0, pk, s->pk),
                   MLDSA_OK);
  ck_assert_int_eq(mldsa_keygen(s->p, pk, s->pk, sk, s->sk), MLDSA_OK);
}
END_TEST

static void *selftest_thread(void *arg) {
  int *rc = arg;
  for (int i = 0; i < 3 && *rc == MLDSA_OK; ++i) *rc = mldsa_selftest();
  return NULL;
}

/* Concurrent calls, the first ones of the process included (the power-on run). */
START_TEST(test_threads) {
  pthread_t t[4];
  int rc[4] = {0};
  for (int i = 0; i < 4; ++i)
    ck_assert_int_eq(pthread_create(&t[i], NULL, selftest_thread, &rc[i]), 0);
  for (int i = 0; i < 4; ++i) {
    ck_assert_int_eq(pthread_join(t[i], NULL), 0);
    ck_assert_msg(rc[i] == MLDSA_OK, "thread %d: mldsa_selftest gave %d", i, rc[i]);
  }
}
END_TEST

/* _i = step * 2 + order: order 0 injects the fault before the first call of the process,
 * order 1 after a first call that passed. */
START_TEST(test_kat_fault) {
  const int step = _i / 2, after_first = _i % 2;
  const char *why = kat_steps[step].name;
  if (after_first) ck_assert_int_eq(mldsa_selftest(), MLDSA_OK);
  mldsa_seam_selftest_fault = kat_steps[step].step;
#ifdef MLDSA_SELFTEST
  if (!after_first) {
    /* the power-on run fails inside whatever the first call is: a signature here */
    const set_info *s = &sets[step % 3];
    fill(sig, s->sig);
    int rc = mldsa_sign(s->p, sig, s->sig, msg, sizeof msg, NULL, 0, NULL, sk, s->sk);
    ck_assert_msg(rc == MLDSA_ERR_SELFTEST, "%s fault: first call (mldsa_sign) gave %d", why, rc);
    EXPECT_ZERO(sig, s->sig, "first call mldsa_sign");
  }
#endif
  int rc = mldsa_selftest();
  ck_assert_msg(rc == MLDSA_ERR_SELFTEST, "fault in the %s step: mldsa_selftest gave %d", why,
                rc);
  mldsa_seam_selftest_fault = MLDSA_SEAM_SELFTEST_NONE;
#ifdef MLDSA_SELFTEST
  for (int i = 0; i < 3; ++i) expect_refused(&sets[i], why);
#else
  ck_assert_msg(mldsa_selftest() == MLDSA_OK, "%s: a failure without MLDSA_SELFTEST stuck", why);
  memset(seed, 1, sizeof seed);
  ck_assert_int_eq(mldsa_keygen_from_seed(MLDSA_44, pk, 1312, sk, 2560, seed), MLDSA_OK);
#endif
}
END_TEST

/* _i = set * 2 + kind: kind 0 mldsa_keygen_from_seed, 1 mldsa_keygen (OS seed). */
START_TEST(test_pairwise_fault) {
  const set_info *s = &sets[_i / 2];
  const int from_seed = _i % 2 == 0;
  const char *why = from_seed ? "pairwise test of keygen_from_seed" : "pairwise test of keygen";
  memset(seed, 0x3C, sizeof seed);
  mldsa_seam_selftest_fault = MLDSA_SEAM_SELFTEST_PAIRWISE;
  ck_assert_msg(mldsa_selftest() == MLDSA_OK, "a pairwise fault made the known-answer tests fail");
  memset(pk, FILL, s->pk), memset(sk, FILL, s->sk);
  int rc = from_seed ? mldsa_keygen_from_seed(s->p, pk, s->pk, sk, s->sk, seed)
                     : mldsa_keygen(s->p, pk, s->pk, sk, s->sk);
  mldsa_seam_selftest_fault = MLDSA_SEAM_SELFTEST_NONE;
#ifdef MLDSA_SELFTEST
  ck_assert_msg(rc == MLDSA_ERR_SELFTEST, "%s: fault gave %d", why, rc);
  EXPECT_ZERO(pk, s->pk, "keygen pk");
  EXPECT_ZERO(sk, s->sk, "keygen sk");
  for (int i = 0; i < 3; ++i) expect_refused(&sets[i], why);
#else
  ck_assert_msg(rc == MLDSA_OK, "%s: keygen without MLDSA_SELFTEST gave %d", why, rc);
  ck_assert_int_eq(mldsa_selftest(), MLDSA_OK);
#endif
}
END_TEST

/* A key imported as its seed (the key decoder derives it) is no new key pair: no
 * pairwise test, in either build. */
START_TEST(test_decode_no_pairwise) {
  const set_info *s = &sets[_i];
  size_t der_len = 0, n = 1;
  mldsa_param p = s->p;
  int has_seed = 0;
  memset(seed, 0x77, sizeof seed);
  ck_assert_int_eq(mldsa_private_key_encode(s->p, MLDSA_DER, MLDSA_SK_SEED, out, sizeof out,
                                            &der_len, seed, NULL, 0),
                   MLDSA_OK);
  mldsa_seam_selftest_fault = MLDSA_SEAM_SELFTEST_PAIRWISE;
  int rc = mldsa_private_key_decode(&p, sk, s->sk, &n, NULL, &has_seed, out, der_len);
  mldsa_seam_selftest_fault = MLDSA_SEAM_SELFTEST_NONE;
  ck_assert_msg(rc == MLDSA_OK && n == s->sk && has_seed == 1, "decode of a seed key gave %d", rc);
  ck_assert_int_eq(mldsa_selftest(), MLDSA_OK);
}
END_TEST

int main(void) {
  mldsa_test_isa_gate("test_selftest");
#ifdef MLDSA_SELFTEST
  printf("test_selftest: MLDSA_SELFTEST build (power-on tests, pairwise tests, sticky)\n");
#else
  printf("test_selftest: build without MLDSA_SELFTEST (mldsa_selftest on demand only)\n");
#endif
  for (size_t i = 0; i < sizeof msg; ++i) msg[i] = (uint8_t)(3 * i + 1);
  Suite *su = suite_create("selftest");
  TCase *tc = tcase_create("selftest");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_passes, 0, 3);
  tcase_add_test(tc, test_threads);
  tcase_add_loop_test(tc, test_kat_fault, 0, 2 * NUM_KAT_STEPS);
  tcase_add_loop_test(tc, test_pairwise_fault, 0, 6);
  tcase_add_loop_test(tc, test_decode_no_pairwise, 0, 3);
  suite_add_tcase(su, tc);
  SRunner *sr = srunner_create(su);
  /* a process per test: the power-on state is once per process */
  srunner_set_fork_status(sr, CK_FORK);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
