/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The MCDT prologue and epilogue of Intel's guidance ("MXCSR Configuration Dependent
 * Timing"): save MXCSR, load 0x1FBF, LFENCE; then, after the operation, LFENCE and load
 * the saved value. Whether to do it is decided once per process (a benign race: every
 * thread computes the same answer) and cached.
 *
 * ci/check_mcdt checks in the disassembly that these functions contain no instruction
 * gen/mcdt.py calls affected: they run partly outside the protected region. */
#include "mcdt.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

#if defined(__x86_64__)
#include "isa_gates.h" /* MLDSA_MXCSR_PROTECTED */

enum { UNKNOWN = 0, PROTECT = 1, SKIP = 2 };
static atomic_int mode = UNKNOWN;

static int decide(void) {
  const char *env = getenv("MLDSA_MCDT");
  if (env != NULL && strcmp(env, "force") == 0) return PROTECT;
  return mldsa_cpu_has_mcdt_no() ? SKIP : PROTECT;
}

int mldsa_mcdt_active(void) {
  int m = atomic_load_explicit(&mode, memory_order_relaxed);
  if (m == UNKNOWN) {
    m = decide();
    atomic_store_explicit(&mode, m, memory_order_relaxed);
  }
  return m == PROTECT;
}

__attribute__((noinline)) void mldsa_mcdt_enter(mldsa_mcdt_state *s) {
  s->set = mldsa_mcdt_active();
  if (!s->set) return;
  uint32_t protected_mxcsr = MLDSA_MXCSR_PROTECTED;
  __asm__ __volatile__("stmxcsr %0\n\tldmxcsr %1\n\tlfence"
                       : "=m"(s->mxcsr)
                       : "m"(protected_mxcsr)
                       : "memory");
}

__attribute__((noinline)) void mldsa_mcdt_leave(const mldsa_mcdt_state *s) {
  if (!s->set) return;
  __asm__ __volatile__("lfence\n\tldmxcsr %0" : : "m"(s->mxcsr) : "memory");
}
#else
int mldsa_mcdt_active(void) { return 0; }
void mldsa_mcdt_enter(mldsa_mcdt_state *s) { s->set = 0; }
void mldsa_mcdt_leave(const mldsa_mcdt_state *s) { (void)s; }
#endif
