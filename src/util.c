/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "util.h"

#include <string.h>

void mldsa_zeroize(void *p, size_t len) {
  if (len == 0) return;
  memset(p, 0, len);
  /* The barrier makes the stores observable, so they cannot be removed as dead. */
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

__attribute__((noinline)) void mldsa_stack_wipe(void) {
  uint8_t area[MLDSA_STACK_WIPE_BYTES];
  mldsa_zeroize(area, sizeof area);
}

__attribute__((noinline)) void mldsa_stack_wipe_sign(void) {
  uint8_t area[MLDSA_STACK_WIPE_SIGN_BYTES];
  mldsa_zeroize(area, sizeof area);
}

int mldsa_ct_differ(const uint8_t *a, const uint8_t *b, size_t len) {
  uint8_t acc = 0;
  for (size_t i = 0; i < len; ++i) acc |= (uint8_t)(a[i] ^ b[i]);
  return (int)((-(uint32_t)acc) >> 31);
}
