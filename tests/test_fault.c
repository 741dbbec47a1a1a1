/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Faults and the signing-attempt limit, through the public API of a test variant of the
 * library with the seams of src/seams.h. Built twice: against the variant without
 * MLDSA_SIGN_CHECK (test_fault) and with it (test_fault_check).
 *
 * - A fault (one bit of z flipped after the accepted attempt, before packing) in every
 *   signing call (prepared keys included), deterministic, given rnd and hedged: without MLDSA_SIGN_CHECK the call
 *   returns MLDSA_OK and a signature that does not verify (the fault is real); with it the
 *   call returns MLDSA_ERR_VERIFY and the signature is zeroed over exactly its length.
 * - Without a fault every call signs, and the signature verifies; with MLDSA_SIGN_CHECK a
 *   key whose tr does not match its public key is refused (MLDSA_ERR_KEY).
 * - Every attempt rejected: signing stops after exactly 821 attempts (FIPS 204 Table 3 as
 *   revised by NIST's errata) with MLDSA_ERR_KEY and the signature zeroed (in test_fault
 *   only: the loop is the same with the check). */
#include <check.h>
#include <string.h>

#include "mldsa.h"
#include "seams.h"
#include "test_common.h"

#define FILL 0xAA
#define ATTEMPT_LIMIT 821

static const struct {
  mldsa_param p;
  size_t pk, sk, sig;
} sets[3] = {{MLDSA_44, 1312, 2560, 2420}, {MLDSA_65, 1952, 4032, 3309}, {MLDSA_87, 2592, 4896, 4627}};

static uint8_t pk[2592], sk[4896], sig[4627 + 1];
static const uint8_t msg[] = "fault", ctx[] = "ctx", digest[32] = {3}, rnd_given[32] = {9};
static const uint8_t zero_rnd[32];
static uint8_t mu[64];

static void fixture(int set) {
  uint8_t seed[32] = {(uint8_t)(set + 40)};
  mldsa_seam_fault_z = mldsa_seam_reject_all = 0;
  ck_assert_int_eq(mldsa_keygen_from_seed(sets[set].p, pk, sets[set].pk, sk, sets[set].sk, seed),
                   MLDSA_OK);
  ck_assert_int_eq(mldsa_compute_mu(sets[set].p, mu, pk, sets[set].pk, msg, sizeof msg, ctx,
                                    sizeof ctx),
                   MLDSA_OK);
}

/* The prepared form of the key, for the prepared signing calls: caller memory, static. */
static mldsa_prepared_secret_key prepared;

/* which: 0..3 = sign, prehash, internal, mu; 4, 5 = sign_prepared, sign_mu_prepared (the
 * key prepared first); rnd may be NULL (hedged) */
static int sign_call(int set, int which, const uint8_t *rnd, const uint8_t *key) {
  mldsa_param p = sets[set].p;
  size_t n = sets[set].sig, kn = sets[set].sk;
  if (which >= 4) {
    int rc = mldsa_secret_key_prepare(&prepared, p, key, kn);
    if (rc == MLDSA_OK)
      rc = which == 4 ? mldsa_sign_prepared(&prepared, sig, n, msg, sizeof msg, ctx, sizeof ctx, rnd)
                      : mldsa_sign_mu_prepared(&prepared, sig, n, mu, rnd);
    mldsa_secret_key_unprepare(&prepared);
    return rc;
  }
  switch (which) {
    case 0: return mldsa_sign(p, sig, n, msg, sizeof msg, ctx, sizeof ctx, rnd, key, kn);
    case 1:
      return mldsa_sign_prehash(p, sig, n, digest, 32, MLDSA_SHA2_256, ctx, sizeof ctx, rnd, key, kn);
    case 2: return mldsa_sign_internal(p, sig, n, msg, sizeof msg, rnd, key, kn);
    default: return mldsa_sign_mu(p, sig, n, mu, rnd, key, kn);
  }
}

static int verify_call(int set, int which) {
  mldsa_param p = sets[set].p;
  size_t n = sets[set].sig, kn = sets[set].pk;
  static const int verifier[6] = {0, 1, 2, 3, 0, 3}; /* the prepared calls: pure and mu */
  switch (verifier[which]) {
    case 0: return mldsa_verify(p, sig, n, msg, sizeof msg, ctx, sizeof ctx, pk, kn);
    case 1:
      return mldsa_verify_prehash(p, sig, n, digest, 32, MLDSA_SHA2_256, ctx, sizeof ctx, pk, kn);
    case 2: return mldsa_verify_internal(p, sig, n, msg, sizeof msg, pk, kn);
    default: return mldsa_verify_mu(p, sig, n, mu, pk, kn);
  }
}

static const char *const names[6] = {"mldsa_sign",          "mldsa_sign_prehash",
                                     "mldsa_sign_internal", "mldsa_sign_mu",
                                     "mldsa_sign_prepared", "mldsa_sign_mu_prepared"};
static const uint8_t *const rnds[3] = {zero_rnd, rnd_given, NULL};
static const char *const rnd_names[3] = {"deterministic", "given rnd", "hedged"};

START_TEST(test_injected_fault) {
  const int set = _i;
  fixture(set);
  for (int which = 0; which < 6; ++which)
    for (int r = 0; r < 3; ++r) {
      /* no fault: signs and verifies */
      mldsa_seam_fault_z = 0;
      memset(sig, FILL, sizeof sig);
      ck_assert_int_eq(sign_call(set, which, rnds[r], sk), MLDSA_OK);
      ck_assert_int_eq(verify_call(set, which), MLDSA_OK);
      /* one bit of z flipped */
      mldsa_seam_fault_z = 1;
      memset(sig, FILL, sizeof sig);
      int rc = sign_call(set, which, rnds[r], sk);
      mldsa_seam_fault_z = 0;
#ifdef MLDSA_SIGN_CHECK
      ck_assert_msg(rc == MLDSA_ERR_VERIFY, "%d: %s, %s: the fault gave %d, not MLDSA_ERR_VERIFY",
                    (int)sets[set].p, names[which], rnd_names[r], rc);
      ck_assert_msg(mldsa_test_all(sig, sets[set].sig, 0) && sig[sets[set].sig] == FILL,
                    "%s, %s: the faulty signature is not zeroed over exactly its length",
                    names[which], rnd_names[r]);
#else
      ck_assert_msg(rc == MLDSA_OK, "%s: %d", names[which], rc);
      ck_assert_msg(verify_call(set, which) == MLDSA_ERR_VERIFY,
                    "%s, %s: the injected fault did not break the signature", names[which],
                    rnd_names[r]);
#endif
    }
}
END_TEST

/* A key whose tr is not H(pk): its signatures cannot verify under pk. */
START_TEST(test_inconsistent_key) {
  const int set = _i;
  fixture(set);
  static uint8_t bad[4896];
  memcpy(bad, sk, sets[set].sk);
  bad[64] ^= 1;
  for (int which = 0; which < 4; ++which) {
    memset(sig, FILL, sizeof sig);
    int rc = sign_call(set, which, zero_rnd, bad);
#ifdef MLDSA_SIGN_CHECK
    ck_assert_msg(rc == MLDSA_ERR_KEY && mldsa_test_all(sig, sets[set].sig, 0),
                  "%s with tr altered: %d", names[which], rc);
#else
    ck_assert_msg(rc == MLDSA_OK, "%s with tr altered: %d", names[which], rc);
    if (which != 3) /* mu was computed from pk, so that signature still verifies */
      ck_assert_int_eq(verify_call(set, which), MLDSA_ERR_VERIFY);
#endif
  }
}
END_TEST

#ifndef MLDSA_SIGN_CHECK /* the same loop with the check: tested once, here */
/* The limit is in the rejection loop every signing call shares: checked through the pure
 * call (deterministic) and the mu call (hedged), to keep the test short under emulators. */
START_TEST(test_attempt_limit) {
  const int set = _i;
  fixture(set);
  for (int which = 0; which < 4; which += 3)
    for (int r = 0; r < 3; r += 2) {
      if ((which == 0) != (r == 0)) continue;
      mldsa_seam_reject_all = 1;
      mldsa_seam_sign_attempts = 0;
      memset(sig, FILL, sizeof sig);
      int rc = sign_call(set, which, rnds[r], sk);
      unsigned long attempts = mldsa_seam_sign_attempts;
      mldsa_seam_reject_all = 0;
      ck_assert_msg(rc == MLDSA_ERR_KEY, "%s: every attempt rejected gave %d", names[which], rc);
      ck_assert_msg(attempts == ATTEMPT_LIMIT, "%s, %s: %lu attempts, expected %d", names[which],
                    rnd_names[r], attempts, ATTEMPT_LIMIT);
      ck_assert_msg(mldsa_test_all(sig, sets[set].sig, 0) && sig[sets[set].sig] == FILL,
                    "%s: signature not zeroed over exactly its length", names[which]);
    }
  /* and a normal signature takes a few attempts, counted */
  mldsa_seam_sign_attempts = 0;
  ck_assert_int_eq(sign_call(set, 0, zero_rnd, sk), MLDSA_OK);
  ck_assert_msg(mldsa_seam_sign_attempts >= 1 && mldsa_seam_sign_attempts < 100,
                "a normal signature took %lu attempts", mldsa_seam_sign_attempts);
}
END_TEST
#endif

int main(void) {
#ifdef MLDSA_SIGN_CHECK
  const char *name = "test_fault_check";
#else
  const char *name = "test_fault";
#endif
  mldsa_test_isa_gate(name);
  Suite *s = suite_create("fault");
  TCase *tc = tcase_create("fault");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_injected_fault, 0, 3);
  tcase_add_loop_test(tc, test_inconsistent_key, 0, 3);
#ifndef MLDSA_SIGN_CHECK
  tcase_add_loop_test(tc, test_attempt_limit, 0, 3);
#endif
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
