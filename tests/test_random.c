/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Randomness failures, through the public API of a test variant of the library whose OS
 * source (getrandom on Linux, MLDSA_OS_GETRANDOM) is replaced by the seam of src/seams.h:
 *
 * - the source fails (EIO, ENOSYS, EAGAIN; at once or after a partial read), or returns 0
 *   bytes: mldsa_keygen and every hedged signing call return MLDSA_ERR_RANDOM with every
 *   output zeroed, and make no further attempt (no fallback: the only calls are to the
 *   source, always with flags 0, never GRND_NONBLOCK or GRND_INSECURE);
 * - EINTR and short reads (1 byte at a time, uneven pieces) are retried: the key is the one
 *   mldsa_keygen_from_seed makes from exactly the bytes delivered, the hedged signature
 *   the one made with exactly those bytes as rnd;
 * - deterministic signing (rnd given) needs no randomness and still works while the
 *   source fails.
 *
 * Registered once per ISA; the seams are compiled into the variant only. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "mldsa.h"
#include "seams.h"
#include "test_common.h"

#define FILL 0xAA

/* ---- the fake source: a script of answers ---- */

typedef struct {
  ssize_t ret; /* bytes to deliver (<= asked), or -1 */
  int err;     /* errno when ret is -1 */
} answer;

static answer script[16];
static size_t script_len, script_pos;
static uint8_t delivered[64]; /* every byte handed out, in order */
static size_t delivered_len;
static unsigned calls, bad_flags;
static uint8_t next_byte;

static ssize_t fake_getrandom(void *buf, size_t len, unsigned int flags) {
  calls++;
  if (flags != 0) bad_flags++;
  answer a = script_pos < script_len ? script[script_pos++] : (answer){(ssize_t)len, 0};
  if (a.ret < 0) {
    errno = a.err;
    return -1;
  }
  size_t n = (size_t)a.ret < len ? (size_t)a.ret : len;
  for (size_t i = 0; i < n; ++i) {
    ((uint8_t *)buf)[i] = next_byte;
    if (delivered_len < sizeof delivered) delivered[delivered_len++] = next_byte;
    next_byte = (uint8_t)(next_byte * 29 + 17);
  }
  return (ssize_t)n;
}

static void use_script(const answer *a, size_t n) {
  memcpy(script, a, n * sizeof *a);
  script_len = n;
  script_pos = delivered_len = calls = bad_flags = 0;
  mldsa_seam_getrandom = fake_getrandom;
}

/* ---- keys and inputs ---- */

static const struct {
  mldsa_param p;
  size_t pk, sk, sig;
} sets[3] = {{MLDSA_44, 1312, 2560, 2420}, {MLDSA_65, 1952, 4032, 3309}, {MLDSA_87, 2592, 4896, 4627}};

static uint8_t pk[2592], sk[4896], sig[4627 + 1], sig2[4627], pk2[2592 + 1], sk2[4896 + 1];
static const uint8_t msg[] = "randomness", ctx[] = "ctx", mu[64] = {1}, digest[32] = {2};

static void fixture(int set, uint8_t *pk_out, uint8_t *sk_out) {
  uint8_t seed[32] = {(uint8_t)set, 7};
  mldsa_seam_getrandom = MLDSA_OS_GETRANDOM;
  ck_assert_int_eq(mldsa_keygen_from_seed(sets[set].p, pk_out, sets[set].pk, sk_out, sets[set].sk,
                                          seed),
                   MLDSA_OK);
}

/* Every hedged signing call (NULL rnd); which = 0..3 */
static int sign_hedged(int set, int which, uint8_t *out) {
  mldsa_param p = sets[set].p;
  size_t n = sets[set].sig;
  switch (which) {
    case 0: return mldsa_sign(p, out, n, msg, sizeof msg, ctx, sizeof ctx, NULL, sk, sets[set].sk);
    case 1:
      return mldsa_sign_prehash(p, out, n, digest, 32, MLDSA_SHA2_256, ctx, sizeof ctx, NULL, sk,
                                sets[set].sk);
    case 2: return mldsa_sign_internal(p, out, n, msg, sizeof msg, NULL, sk, sets[set].sk);
    default: return mldsa_sign_mu(p, out, n, mu, NULL, sk, sets[set].sk);
  }
}

/* The same call with rnd given. */
static int sign_with(int set, int which, uint8_t *out, const uint8_t rnd[32]) {
  mldsa_param p = sets[set].p;
  size_t n = sets[set].sig;
  switch (which) {
    case 0: return mldsa_sign(p, out, n, msg, sizeof msg, ctx, sizeof ctx, rnd, sk, sets[set].sk);
    case 1:
      return mldsa_sign_prehash(p, out, n, digest, 32, MLDSA_SHA2_256, ctx, sizeof ctx, rnd, sk,
                                sets[set].sk);
    case 2: return mldsa_sign_internal(p, out, n, msg, sizeof msg, rnd, sk, sets[set].sk);
    default: return mldsa_sign_mu(p, out, n, mu, rnd, sk, sets[set].sk);
  }
}

static const char *const sign_names[4] = {"mldsa_sign", "mldsa_sign_prehash", "mldsa_sign_internal",
                                          "mldsa_sign_mu"};

/* ---- failures ---- */

static const struct {
  const char *what;
  answer a[3];
  size_t n;
  unsigned calls; /* the source is asked exactly this often, then never again */
} failures[] = {
    {"EIO", {{-1, EIO}}, 1, 1},
    {"ENOSYS", {{-1, ENOSYS}}, 1, 1},
    {"EAGAIN", {{-1, EAGAIN}}, 1, 1},
    {"EINTR, then EIO", {{-1, EINTR}, {-1, EIO}}, 2, 2},
    {"10 bytes, then EIO", {{10, 0}, {-1, EIO}}, 2, 2},
    {"0 bytes", {{0, 0}}, 1, 1},
};
#define NUM_FAILURES (sizeof failures / sizeof failures[0])

/* _i = set * NUM_FAILURES + failure */
START_TEST(test_source_fails) {
  const int set = _i / (int)NUM_FAILURES;
  const size_t f = (size_t)_i % NUM_FAILURES;
  fixture(set, pk, sk);

  use_script(failures[f].a, failures[f].n);
  memset(pk2, FILL, sizeof pk2);
  memset(sk2, FILL, sizeof sk2);
  ck_assert_int_eq(mldsa_keygen(sets[set].p, pk2, sets[set].pk, sk2, sets[set].sk),
                   MLDSA_ERR_RANDOM);
  ck_assert_msg(mldsa_test_all(pk2, sets[set].pk, 0) && mldsa_test_all(sk2, sets[set].sk, 0),
                "%s: mldsa_keygen: outputs not zeroed", failures[f].what);
  ck_assert_msg(pk2[sets[set].pk] == FILL && sk2[sets[set].sk] == FILL,
                "%s: mldsa_keygen wrote past an output", failures[f].what);
  ck_assert_msg(calls == failures[f].calls && bad_flags == 0,
                "%s: mldsa_keygen asked the source %u times (expected %u), %u with flags",
                failures[f].what, calls, failures[f].calls, bad_flags);

  for (int which = 0; which < 4; ++which) {
    use_script(failures[f].a, failures[f].n);
    memset(sig, FILL, sizeof sig);
    ck_assert_int_eq(sign_hedged(set, which, sig), MLDSA_ERR_RANDOM);
    ck_assert_msg(mldsa_test_all(sig, sets[set].sig, 0) && sig[sets[set].sig] == FILL,
                  "%s: %s: signature not zeroed over exactly its length", failures[f].what,
                  sign_names[which]);
    ck_assert_msg(calls == failures[f].calls && bad_flags == 0,
                  "%s: %s asked the source %u times (expected %u), %u with flags",
                  failures[f].what, sign_names[which], calls, failures[f].calls, bad_flags);
    /* with rnd given, the failing source is not needed */
    static const uint8_t zero[32];
    use_script(failures[f].a, failures[f].n);
    ck_assert_int_eq(sign_with(set, which, sig, zero), MLDSA_OK);
    ck_assert_msg(calls == 0, "%s: deterministic signing asked the OS", sign_names[which]);
  }
  mldsa_seam_getrandom = MLDSA_OS_GETRANDOM;
}
END_TEST

/* ---- retries ---- */

static const struct {
  const char *what;
  answer a[12];
  size_t n;
} retries[] = {
    {"EINTR three times", {{-1, EINTR}, {-1, EINTR}, {-1, EINTR}}, 3},
    {"one byte at a time",
     {{1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}},
     12},
    {"uneven pieces with EINTR between", {{5, 0}, {-1, EINTR}, {13, 0}, {-1, EINTR}, {1, 0}}, 5},
    {"31 bytes, then the last", {{31, 0}}, 1},
};
#define NUM_RETRIES (sizeof retries / sizeof retries[0])

START_TEST(test_source_retried) {
  const int set = _i / (int)NUM_RETRIES;
  const size_t r = (size_t)_i % NUM_RETRIES;
  fixture(set, pk, sk);

  /* keygen: the key of exactly the 32 bytes delivered */
  use_script(retries[r].a, retries[r].n);
  ck_assert_int_eq(mldsa_keygen(sets[set].p, pk2, sets[set].pk, sk2, sets[set].sk), MLDSA_OK);
  ck_assert_msg(delivered_len == 32 && bad_flags == 0, "%s: keygen took %zu bytes", retries[r].what,
                delivered_len);
  uint8_t seed[32], pk3[2592], sk3[4896];
  memcpy(seed, delivered, 32);
  mldsa_seam_getrandom = MLDSA_OS_GETRANDOM;
  ck_assert_int_eq(mldsa_keygen_from_seed(sets[set].p, pk3, sets[set].pk, sk3, sets[set].sk, seed),
                   MLDSA_OK);
  ck_assert_msg(memcmp(pk2, pk3, sets[set].pk) == 0 && memcmp(sk2, sk3, sets[set].sk) == 0,
                "%s: mldsa_keygen is not the key of the bytes delivered", retries[r].what);

  /* hedged signing: the signature with exactly the 32 bytes delivered as rnd */
  for (int which = 0; which < 4; ++which) {
    use_script(retries[r].a, retries[r].n);
    ck_assert_int_eq(sign_hedged(set, which, sig), MLDSA_OK);
    ck_assert_msg(delivered_len == 32 && bad_flags == 0, "%s: %s took %zu bytes", retries[r].what,
                  sign_names[which], delivered_len);
    uint8_t rnd[32];
    memcpy(rnd, delivered, 32);
    mldsa_seam_getrandom = MLDSA_OS_GETRANDOM;
    ck_assert_int_eq(sign_with(set, which, sig2, rnd), MLDSA_OK);
    ck_assert_msg(memcmp(sig, sig2, sets[set].sig) == 0,
                  "%s: %s: not the signature of the bytes delivered", retries[r].what,
                  sign_names[which]);
  }
  mldsa_seam_getrandom = MLDSA_OS_GETRANDOM;
}
END_TEST

int main(void) {
  mldsa_test_isa_gate("test_random");
  Suite *s = suite_create("random");
  TCase *tc = tcase_create("source");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_source_fails, 0, 3 * (int)NUM_FAILURES);
  tcase_add_loop_test(tc, test_source_retried, 0, 3 * (int)NUM_RETRIES);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
