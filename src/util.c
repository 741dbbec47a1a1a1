/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#include "util.h"

#include <string.h>

#if defined(_MSC_VER) && !defined(__clang__)
/* MSVC has no GNU inline assembly; SecureZeroMemory is its documented never-elided wipe
 * (volatile stores). clang-cl takes the branch below. */
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

void mldsa_zeroize(void *p, size_t len) {
  if (len == 0) return;
  SecureZeroMemory(p, len);
}
#else
/* GCC and Clang on every target (MinGW-w64 GCC, Apple Clang, clang-cl included). */
void mldsa_zeroize(void *p, size_t len) {
  if (len == 0) return;
  memset(p, 0, len);
  /* The barrier makes the stores observable, so they cannot be removed as dead: the
   * compiler must assume the empty asm reads all memory through p. */
  __asm__ __volatile__("" : : "r"(p) : "memory");
}
#endif

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
