/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* MCDT through the public API, on every ISA (registered per ISA, and once more per ISA with
 * MLDSA_MCDT=force, the knob for CPUs that report MCDT_NO). Linked with the test variant
 * of the library whose kernel probe (src/seams.h) runs before every kernel call:
 *
 * - with the caller's MXCSR set to unusual values (rounding down, flush-to-zero, a sticky
 *   flag; and the default 0x1F80), every kernel call observes MXCSR = 0x1FBF when the
 *   protection is active (no MCDT_NO, or forced), the caller's value otherwise;
 * - after every call of the API, successful or not (bad parameter set, bad length, bad key,
 *   a signature that does not verify, hedged and deterministic signing), the caller's
 *   MXCSR is exactly what it was;
 * - the calls that compute run kernels (the probe fired), so the check above is not
 *   vacuous. */
#include <check.h>
#include <string.h>

#include "mcdt.h"
#include "mldsa.h"
#include "seams.h"
#include "test_common.h"

static uint32_t get_mxcsr(void) {
  uint32_t v;
  __asm__ __volatile__("stmxcsr %0" : "=m"(v));
  return v;
}
static void set_mxcsr(uint32_t v) { __asm__ __volatile__("ldmxcsr %0" : : "m"(v)); }

static uint32_t expected_inside;
static unsigned long probes, wrong;
static uint32_t first_wrong;

static void probe(void) {
  uint32_t v = get_mxcsr();
  probes++;
  if (v != expected_inside && wrong++ == 0) first_wrong = v;
}

static const struct {
  mldsa_param p;
  size_t pk, sk, sig;
} sets[3] = {{MLDSA_44, 1312, 2560, 2420}, {MLDSA_65, 1952, 4032, 3309}, {MLDSA_87, 2592, 4896, 4627}};

/* Caller MXCSR values: default; round down + flush-to-zero + the precision flag; round to
 * zero + the invalid flag + divide-by-zero unmasked (no FP runs, so nothing traps). */
static const uint32_t caller_values[] = {0x1F80, 0x1F80 | 0x2000 | 0x8000 | 0x20,
                                         (0x1F80 & ~0x200u) | 0x6000 | 0x01};

static uint8_t pk[2592], sk[4896], bad_sk[4896], sig[4627], mu[64];
static const uint8_t seed[32] = {5}, msg[] = "mxcsr", rnd[32] = {1}, digest[48] = {2};

/* Runs one call with the caller's MXCSR = caller and checks the rules; kernels: whether
 * the call must have run kernels. */
#define CALL(what, kernels, expr, want)                                                        \
  do {                                                                                         \
    probes = wrong = 0;                                                                        \
    set_mxcsr(caller);                                                                         \
    int rc_ = (int)(expr);                                                                     \
    uint32_t after_ = get_mxcsr();                                                             \
    set_mxcsr(0x1F80);                                                                         \
    ck_assert_msg(after_ == caller, "ML-DSA-%d %s: MXCSR 0x%04x after the call, was 0x%04x", \
                  (int)s->p, what, after_, caller);                                            \
    ck_assert_msg(wrong == 0, "ML-DSA-%d %s: %lu of %lu kernel calls saw MXCSR 0x%04x, "       \
                  "expected 0x%04x",                                                           \
                  (int)s->p, what, wrong, probes, first_wrong, expected_inside);              \
    ck_assert_msg(!(kernels) || probes > 0, "ML-DSA-%d %s: no kernel call observed",          \
                  (int)s->p, what);                                                            \
    ck_assert_msg(rc_ == (want), "ML-DSA-%d %s returned %d, expected %d", (int)s->p, what,    \
                  rc_, (int)(want));                                                           \
  } while (0)

/* _i = set * 3 + caller value */
START_TEST(test_mxcsr_around_every_call) {
  const __typeof__(sets[0]) *s = &sets[_i / 3];
  const uint32_t caller = caller_values[_i % 3];
  const int active = mldsa_mcdt_active();
  expected_inside = active ? 0x1FBF : caller;
  mldsa_seam_kernel_probe = probe;

  CALL("keygen_from_seed", 1, mldsa_keygen_from_seed(s->p, pk, s->pk, sk, s->sk, seed), MLDSA_OK);
  CALL("keygen", 1, mldsa_keygen(s->p, pk, s->pk, sk, s->sk), MLDSA_OK);
  CALL("keygen_from_seed", 1, mldsa_keygen_from_seed(s->p, pk, s->pk, sk, s->sk, seed), MLDSA_OK);
  memcpy(bad_sk, sk, s->sk);
  bad_sk[64] ^= 1; /* tr */
  CALL("public_key_from_secret", 1, mldsa_public_key_from_secret(s->p, pk, s->pk, sk, s->sk),
       MLDSA_OK);
  CALL("public_key_from_secret, bad key", 1,
       mldsa_public_key_from_secret(s->p, sig, s->pk, bad_sk, s->sk), MLDSA_ERR_KEY);
  CALL("sign", 1, mldsa_sign(s->p, sig, s->sig, msg, sizeof msg, NULL, 0, rnd, sk, s->sk),
       MLDSA_OK);
  CALL("verify", 1, mldsa_verify(s->p, sig, s->sig, msg, sizeof msg, NULL, 0, pk, s->pk), MLDSA_OK);
  CALL("verify, other message", 1,
       mldsa_verify(s->p, sig, s->sig, msg, sizeof msg - 1, NULL, 0, pk, s->pk), MLDSA_ERR_VERIFY);
  CALL("sign, hedged", 1, mldsa_sign(s->p, sig, s->sig, msg, sizeof msg, NULL, 0, NULL, sk, s->sk),
       MLDSA_OK);
  CALL("sign_prehash", 1,
       mldsa_sign_prehash(s->p, sig, s->sig, digest, 48, MLDSA_SHA3_384, NULL, 0, rnd, sk, s->sk),
       MLDSA_OK);
  CALL("verify_prehash", 1,
       mldsa_verify_prehash(s->p, sig, s->sig, digest, 48, MLDSA_SHA3_384, NULL, 0, pk, s->pk),
       MLDSA_OK);
  CALL("sign_internal", 1,
       mldsa_sign_internal(s->p, sig, s->sig, msg, sizeof msg, NULL, sk, s->sk), MLDSA_OK);
  CALL("verify_internal", 1,
       mldsa_verify_internal(s->p, sig, s->sig, msg, sizeof msg, pk, s->pk), MLDSA_OK);
  CALL("compute_mu", 1, mldsa_compute_mu(s->p, mu, pk, s->pk, msg, sizeof msg, NULL, 0), MLDSA_OK);
  CALL("sign_mu", 1, mldsa_sign_mu(s->p, sig, s->sig, mu, rnd, sk, s->sk), MLDSA_OK);
  CALL("verify_mu", 1, mldsa_verify_mu(s->p, sig, s->sig, mu, pk, s->pk), MLDSA_OK);
  CALL("sign, bad key", 1,
       mldsa_sign(s->p, sig, s->sig, msg, sizeof msg, NULL, 0, rnd, bad_sk, s->sk),
       mldsa_sign(s->p, sig, s->sig, msg, sizeof msg, NULL, 0, rnd, bad_sk, s->sk));
  /* errors found before any kernel runs */
  CALL("sign, bad length", 0,
       mldsa_sign(s->p, sig, s->sig - 1, msg, sizeof msg, NULL, 0, rnd, sk, s->sk), MLDSA_ERR_LENGTH);
  CALL("verify, unknown set", 0,
       mldsa_verify((mldsa_param)1, sig, s->sig, msg, sizeof msg, NULL, 0, pk, s->pk),
       MLDSA_ERR_PARAM);
  CALL("sign, long context", 0,
       mldsa_sign(s->p, sig, s->sig, msg, sizeof msg, msg, 256, rnd, sk, s->sk), MLDSA_ERR_CONTEXT);
  CALL("public_key_bytes", 0, mldsa_public_key_bytes(s->p) == s->pk, 1);
  CALL("strerror", 0, mldsa_strerror(MLDSA_ERR_KEY) != NULL, 1);
  CALL("isa", 0, mldsa_isa() != NULL, 1);
  mldsa_seam_kernel_probe = NULL;
}
END_TEST

int main(void) {
  const char *isa = mldsa_test_isa_gate("test_mcdt");
  const char *force = getenv("MLDSA_MCDT");
  printf("test_mcdt: isa %s, protection %s (MLDSA_MCDT=%s)\n", isa,
         mldsa_mcdt_active() ? "active: kernels must see 0x1FBF"
                             : "off: the CPU reports MCDT_NO; kernels see the caller's MXCSR",
         force ? force : "");
  if (force != NULL && strcmp(force, "force") == 0 && !mldsa_mcdt_active()) {
    printf("test_mcdt: MLDSA_MCDT=force did not activate the protection\n");
    return EXIT_FAILURE;
  }
  /* For the placement measurement in docs/assurance.md (kernel-level would pay the guard per call):
   * kernel calls per operation, as the probe counts them. */
  mldsa_seam_kernel_probe = probe;
  expected_inside = get_mxcsr();
  for (int i = 0; i < 3; ++i) {
    unsigned long k, g, v;
    probes = 0;
    if (mldsa_keygen_from_seed(sets[i].p, pk, sets[i].pk, sk, sets[i].sk, seed) != MLDSA_OK)
      return EXIT_FAILURE;
    k = probes;
    probes = 0;
    if (mldsa_sign(sets[i].p, sig, sets[i].sig, msg, sizeof msg, NULL, 0, rnd, sk, sets[i].sk) !=
        MLDSA_OK)
      return EXIT_FAILURE;
    g = probes;
    probes = 0;
    if (mldsa_verify(sets[i].p, sig, sets[i].sig, msg, sizeof msg, NULL, 0, pk, sets[i].pk) !=
        MLDSA_OK)
      return EXIT_FAILURE;
    v = probes;
    printf("test_mcdt: ML-DSA-%d %s: kernel calls per keygen %lu, sign %lu, verify %lu\n",
           (int)sets[i].p, isa, k, g, v);
  }
  mldsa_seam_kernel_probe = NULL;
  Suite *s = suite_create("mcdt");
  TCase *tc = tcase_create("mxcsr");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_mxcsr_around_every_call, 0, 9);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
