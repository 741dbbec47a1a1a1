/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Shared by the fuzz targets (tests/fuzz/fuzz_*.c).
 *
 * Each target is a libFuzzer entry point (LLVMFuzzerTestOneInput). ci/fuzz builds them
 * with clang -fsanitize=fuzzer,address,undefined; tests/CMakeLists.txt also builds them as
 * plain programs with replay.c, which runs the committed inputs of
 * tests/fuzz/regressions/<target>/ (every crash found becomes one) through ctest.
 *
 * Inputs are structured: a short header chooses the parameter set and the variant, then
 * fixed-length fields (keys, signature) in order, then the variable-length rest. An input
 * shorter than the fixed fields is zero-padded, so every input is exercised. A broken
 * property aborts with a message (a crash for libFuzzer, a failure for the replay). */
#ifndef MLDSA_FUZZ_COMMON_H
#define MLDSA_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"

#define FUZZ_PK_MAX 2592
#define FUZZ_SK_MAX 4896
#define FUZZ_SIG_MAX 4627

#define FUZZ_CHECK(cond, ...)                                        \
  do {                                                               \
    if (!(cond)) {                                                   \
      fprintf(stderr, "fuzz property broken (%s:%d): ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                                  \
      fprintf(stderr, "\n");                                         \
      abort();                                                       \
    }                                                                \
  } while (0)

static const mldsa_param fuzz_params[3] = {MLDSA_44, MLDSA_65, MLDSA_87};

/* A reader over the input: fixed fields are zero-padded past the end. */
typedef struct {
  const uint8_t *data;
  size_t size, pos;
} fuzz_input;

static inline uint8_t fuzz_byte(fuzz_input *in) {
  return in->pos < in->size ? in->data[in->pos++] : 0;
}

static inline void fuzz_bytes(fuzz_input *in, uint8_t *out, size_t len) {
  size_t have = in->pos < in->size ? in->size - in->pos : 0;
  size_t n = have < len ? have : len;
  if (n) memcpy(out, in->data + in->pos, n);
  memset(out + n, 0, len - n);
  in->pos += n;
}

/* The rest of the input (possibly empty). */
static inline const uint8_t *fuzz_rest(fuzz_input *in, size_t *len) {
  *len = in->pos < in->size ? in->size - in->pos : 0;
  const uint8_t *p = in->data + (in->pos < in->size ? in->pos : in->size);
  in->pos = in->size;
  return p;
}

static inline int fuzz_all_zero(const uint8_t *p, size_t len) {
  uint8_t acc = 0;
  for (size_t i = 0; i < len; ++i) acc |= p[i];
  return acc == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
