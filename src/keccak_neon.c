/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The neon Keccak entries: one body or the other (keccak_neon.h), chosen at the first
 * call. The choice depends on mldsa_cpu_has_neon_sha3 alone (src/cpu.c: AT_HWCAP, or a
 * sysctl on macOS), so threads racing on the first call all compute the same pointer; the atomics make the race well-defined, relaxed order
 * suffices (the pointer is the only shared datum and the code it points to is static). */
#include "keccak_neon.h"

#if defined(MLDSA_HAVE_NEON)
#include <stdatomic.h>
#include <stddef.h>

#include "fips202.h"
#include "fips202x.h"

typedef void (*keccak_fn)(uint64_t *);

const char *mldsa_keccak_neon_body(void) { return mldsa_cpu_has_neon_sha3() ? "sha3" : "base"; }

static _Atomic(keccak_fn) x1_fn, batch_fn;

static keccak_fn resolve(_Atomic(keccak_fn) *slot, keccak_fn sha3, keccak_fn base) {
  keccak_fn f = atomic_load_explicit(slot, memory_order_relaxed);
  if (f == NULL) {
    f = mldsa_cpu_has_neon_sha3() ? sha3 : base;
    atomic_store_explicit(slot, f, memory_order_relaxed);
  }
  return f;
}

void mldsa_keccak_f1600_x1_neon(uint64_t s[25]) {
  resolve(&x1_fn, mldsa_keccak_f1600_x1_neon_sha3, mldsa_keccak_f1600_x1_neon_base)(s);
}

void mldsa_keccak_f1600_batch_neon(uint64_t *states) {
  resolve(&batch_fn, mldsa_keccak_f1600_batch_neon_sha3, mldsa_keccak_f1600_batch_neon_base)(
      states);
}
#else
typedef int mldsa_keccak_neon_empty; /* ISO C: a translation unit is never empty */
#endif
