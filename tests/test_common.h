/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Helpers shared by the test programs (header only: each test is one executable).
 *
 * - mldsa_test_isa_gate(): the per-ISA registration of a test (tests/CMakeLists.txt,
 *   mldsa_add_isa_test) runs it with MLDSA_ISA=<isa>. MLDSA_ISA only caps the library's
 *   choice, so when the library picked something else (the CPU lacks the ISA, or the build
 *   has no assembly) the test exits with MLDSA_TEST_SKIP, which ctest shows as skipped
 *   (SKIP_RETURN_CODE), never as passed.
 * - hex decoding, a seeded PRNG (SplitMix64; seed from MLDSA_TEST_SEED or fixed, printed so
 *   a failure can be replayed), and a byte comparison that reports the first difference. */
#ifndef MLDSA_TEST_COMMON_H
#define MLDSA_TEST_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"

#define MLDSA_TEST_SKIP 77

#ifndef MLDSA_TEST_VECTOR_DIR
#define MLDSA_TEST_VECTOR_DIR "vectors"
#endif

/* Exits with MLDSA_TEST_SKIP when MLDSA_ISA names an ISA that the library does not use.
 * Returns the name of the ISA in use. */
static inline const char *mldsa_test_isa_gate(const char *program) {
  const char *want = getenv("MLDSA_ISA");
  const char *have = mldsa_isa();
  if (have == NULL) {
    fprintf(stderr, "%s: mldsa_isa() returned NULL\n", program);
    exit(EXIT_FAILURE);
  }
  if (want != NULL && *want != '\0' && strcmp(want, have) != 0) {
    printf("%s: ISA %s not available on this CPU/build (library uses %s): skipped\n", program,
           want, have);
    fflush(stdout);
    exit(MLDSA_TEST_SKIP);
  }
  printf("%s: isa %s\n", program, have);
  fflush(stdout);
  return have;
}

static inline int mldsa_test_hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Decodes hex (even length, no prefix) into out[cap]; the byte count, or -1 on bad input
 * or overflow. */
static inline long mldsa_test_unhex(uint8_t *out, size_t cap, const char *hex) {
  size_t n = strlen(hex);
  if (n % 2 != 0 || n / 2 > cap) return -1;
  for (size_t i = 0; i < n / 2; ++i) {
    int hi = mldsa_test_hexval((unsigned char)hex[2 * i]);
    int lo = mldsa_test_hexval((unsigned char)hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return -1;
    out[i] = (uint8_t)(hi << 4 | lo);
  }
  return (long)(n / 2);
}

/* Index of the first differing byte, or -1 when equal. */
static inline long mldsa_test_first_diff(const uint8_t *a, const uint8_t *b, size_t len) {
  for (size_t i = 0; i < len; ++i)
    if (a[i] != b[i]) return (long)i;
  return -1;
}

/* 1 when every byte of p[0..len) equals v. */
static inline int mldsa_test_all(const uint8_t *p, size_t len, uint8_t v) {
  for (size_t i = 0; i < len; ++i)
    if (p[i] != v) return 0;
  return 1;
}

/* SplitMix64: deterministic test data, reproducible from the printed seed. */
static uint64_t mldsa_test_rng_state;

static inline uint64_t mldsa_test_seed_rng(const char *program) {
  const char *env = getenv("MLDSA_TEST_SEED");
  uint64_t seed = 0x6d6c64736174u; /* fixed default: runs are reproducible */
  if (env != NULL && *env != '\0') seed = strtoull(env, NULL, 0);
  mldsa_test_rng_state = seed;
  printf("%s: MLDSA_TEST_SEED=0x%llx\n", program, (unsigned long long)seed);
  fflush(stdout);
  return seed;
}

static inline uint64_t mldsa_test_rand64(void) {
  uint64_t z = (mldsa_test_rng_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Uniform-enough in [0, n) for test purposes (n > 0). */
static inline size_t mldsa_test_randbelow(size_t n) { return (size_t)(mldsa_test_rand64() % n); }

static inline void mldsa_test_randbytes(uint8_t *out, size_t len) {
  for (size_t i = 0; i < len; ++i) out[i] = (uint8_t)mldsa_test_rand64();
}

#endif
