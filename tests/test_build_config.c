/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What a build compiled in (CMake options MLDSA_PARAMS and MLDSA_ISAS) is what the API
 * offers: a compiled set has the header's sizes and signs and verifies; a set left out
 * reports size 0 and MLDSA_ERR_PARAM from every call; the ISA in use is one of those
 * compiled; the library's version is the header's, and MLDSA_VERSION_NUMBER agrees with
 * MAJOR, MINOR and PATCH (and with mldsa_version()); mldsa_selftest passes (the sets
 * compiled in). Needs only the library.
 *   test_build_config */
#include <stdio.h>
#include <string.h>

#include "isas.h"
#include "mldsa.h"

static int passed, failed;
#define CHECK(cond, ...)            \
  do {                              \
    if (cond) ++passed;             \
    else {                          \
      ++failed;                     \
      printf("FAIL: " __VA_ARGS__); \
    }                               \
  } while (0)

typedef struct {
  mldsa_param p;
  int compiled;
  size_t pk, sk, sig;
} set_info;

#if defined(MLDSA_HAVE_44)
#define HAVE_44 1
#else
#define HAVE_44 0
#endif
#if defined(MLDSA_HAVE_65)
#define HAVE_65 1
#else
#define HAVE_65 0
#endif
#if defined(MLDSA_HAVE_87)
#define HAVE_87 1
#else
#define HAVE_87 0
#endif

static const set_info sets[] = {
    {MLDSA_44, HAVE_44, MLDSA44_PUBLIC_KEY_BYTES, MLDSA44_SECRET_KEY_BYTES,
     MLDSA44_SIGNATURE_BYTES},
    {MLDSA_65, HAVE_65, MLDSA65_PUBLIC_KEY_BYTES, MLDSA65_SECRET_KEY_BYTES,
     MLDSA65_SIGNATURE_BYTES},
    {MLDSA_87, HAVE_87, MLDSA87_PUBLIC_KEY_BYTES, MLDSA87_SECRET_KEY_BYTES,
     MLDSA87_SIGNATURE_BYTES},
};

static uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES], sk[MLDSA_MAX_SECRET_KEY_BYTES];
static uint8_t sig[MLDSA_MAX_SIGNATURE_BYTES];

static void check_set(const set_info *s) {
  static const uint8_t seed[MLDSA_SEED_BYTES] = {7};
  static const uint8_t msg[] = "build configuration";
  int p = (int)s->p;
  if (s->compiled) {
    CHECK(mldsa_public_key_bytes(s->p) == s->pk && mldsa_secret_key_bytes(s->p) == s->sk &&
              mldsa_signature_bytes(s->p) == s->sig,
          "ML-DSA-%d: sizes differ from the header's\n", p);
    int rc = mldsa_keygen_from_seed(s->p, pk, s->pk, sk, s->sk, seed);
    CHECK(rc == MLDSA_OK, "ML-DSA-%d: keygen gave %d\n", p, rc);
    rc = mldsa_sign(s->p, sig, s->sig, msg, sizeof msg, NULL, 0, NULL, sk, s->sk);
    CHECK(rc == MLDSA_OK, "ML-DSA-%d: sign gave %d\n", p, rc);
    rc = mldsa_verify(s->p, sig, s->sig, msg, sizeof msg, NULL, 0, pk, s->pk);
    CHECK(rc == MLDSA_OK, "ML-DSA-%d: verify gave %d\n", p, rc);
    printf("ML-DSA-%d: compiled in, keygen/sign/verify work\n", p);
  } else {
    CHECK(mldsa_public_key_bytes(s->p) == 0 && mldsa_secret_key_bytes(s->p) == 0 &&
              mldsa_signature_bytes(s->p) == 0,
          "ML-DSA-%d (left out): a size is not 0\n", p);
    CHECK(mldsa_keygen_from_seed(s->p, pk, s->pk, sk, s->sk, seed) == MLDSA_ERR_PARAM,
          "ML-DSA-%d (left out): keygen_from_seed\n", p);
    CHECK(mldsa_keygen(s->p, pk, s->pk, sk, s->sk) == MLDSA_ERR_PARAM,
          "ML-DSA-%d (left out): keygen\n", p);
    CHECK(mldsa_sign(s->p, sig, s->sig, msg, sizeof msg, NULL, 0, NULL, sk, s->sk) ==
              MLDSA_ERR_PARAM,
          "ML-DSA-%d (left out): sign\n", p);
    CHECK(mldsa_verify(s->p, sig, s->sig, msg, sizeof msg, NULL, 0, pk, s->pk) ==
              MLDSA_ERR_PARAM,
          "ML-DSA-%d (left out): verify\n", p);
    CHECK(mldsa_public_key_from_secret(s->p, pk, s->pk, sk, s->sk) == MLDSA_ERR_PARAM,
          "ML-DSA-%d (left out): public_key_from_secret\n", p);
    printf("ML-DSA-%d: left out of this build, MLDSA_ERR_PARAM\n", p);
  }
}

int main(void) {
  char want[32];
  snprintf(want, sizeof want, "%d.%d.%d", MLDSA_VERSION_MAJOR, MLDSA_VERSION_MINOR,
           MLDSA_VERSION_PATCH);
  CHECK(strcmp(mldsa_version(), MLDSA_VERSION_STRING) == 0 &&
            strcmp(MLDSA_VERSION_STRING, want) == 0,
        "version: library %s, header %s, parts %s\n", mldsa_version(), MLDSA_VERSION_STRING,
        want);
  /* the numeric version: 0xMMmmpp00, usable in #if, the parts each in its own byte */
#if !defined(MLDSA_VERSION_NUMBER) || MLDSA_VERSION_NUMBER < 0x00040000
#error "MLDSA_VERSION_NUMBER missing from #if, or below 0.4.0 (the first release with it)"
#endif
  const unsigned long number = MLDSA_VERSION_NUMBER;
  CHECK(MLDSA_VERSION_MAJOR < 256 && MLDSA_VERSION_MINOR < 256 && MLDSA_VERSION_PATCH < 256 &&
            number >> 24 == MLDSA_VERSION_MAJOR && (number >> 16 & 0xFF) == MLDSA_VERSION_MINOR &&
            (number >> 8 & 0xFF) == MLDSA_VERSION_PATCH && (number & 0xFF) == 0,
        "MLDSA_VERSION_NUMBER 0x%08lx disagrees with %s\n", number, want);
  unsigned long parsed = 0;
  for (const char *c = mldsa_version(); *c != '\0'; ++c) { /* the run-time version's */
    unsigned long part = parsed & 0xFF;
    parsed = *c == '.' ? parsed << 8 : (parsed - part) | (part * 10 + (unsigned long)(*c - '0'));
  }
  CHECK(parsed << 8 == number, "mldsa_version() %s is 0x%08lx, MLDSA_VERSION_NUMBER 0x%08lx\n",
        mldsa_version(), parsed << 8, number);
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; ++i) check_set(&sets[i]);
  /* the known-answer tests of the sets compiled in */
  int st = mldsa_selftest();
  CHECK(st == MLDSA_OK, "mldsa_selftest: %d\n", st);

#define ISA_NAME(isa) #isa,
  static const char *const compiled[] = {MLDSA_FOR_EACH_ISA(ISA_NAME)};
  int known = 0;
  for (size_t i = 0; i < sizeof compiled / sizeof compiled[0]; ++i)
    known |= strcmp(mldsa_isa(), compiled[i]) == 0;
  CHECK(known, "mldsa_isa() = %s is not a compiled ISA\n", mldsa_isa());
  printf("ISA in use: %s (compiled:", mldsa_isa());
  for (size_t i = 0; i < sizeof compiled / sizeof compiled[0]; ++i) printf(" %s", compiled[i]);
  printf(")\n%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
