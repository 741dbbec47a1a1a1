/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* aarch64_keccak_insns <body> <n>: n calls of one AArch64 Keccak-f[1600] function on a
 * fixed state, for ci/aarch64-keccak-insns (which counts the instructions qemu executes;
 * the difference between two values of n is the cost of the calls alone). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fips202.h"
#include "keccak_neon.h"

/* The calls and the loop alone, to subtract. */
__attribute__((noinline)) static void none(uint64_t *s) { __asm__ volatile("" : : "r"(s) : "memory"); }

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    void (*fn)(uint64_t *);
  } bodies[] = {{"none", none},
                {"c", mldsa_keccak_f1600},
                {"x1_base", mldsa_keccak_f1600_x1_neon_base},
                {"x1_sha3", mldsa_keccak_f1600_x1_neon_sha3},
                {"batch_base", mldsa_keccak_f1600_batch_neon_base},
                {"batch_sha3", mldsa_keccak_f1600_batch_neon_sha3}};
  static uint64_t s[50];
  if (argc != 3) return 2;
  for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; ++i) {
    if (strcmp(argv[1], bodies[i].name) != 0) continue;
    for (long n = strtol(argv[2], NULL, 0); n > 0; --n) bodies[i].fn(s);
    return (int)(s[0] & 1);
  }
  fprintf(stderr, "aarch64_keccak_insns: unknown body %s\n", argv[1]);
  return 2;
}
