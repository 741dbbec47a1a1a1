/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* CPU feature predicates, one per ISA of MLDSA_FOR_EACH_ISA, and MCDT_NO. The gates are
 * generated (asm_out/isa_gates.h) from the features gen/isa.py declares for each ISA:
 * x86-64, every CPUID bit set and the OS has enabled the register state in XCR0; AArch64,
 * every bit set in the kernel's AT_HWCAP. */
#include "cpu.h"

int mldsa_cpu_has_scalar(void) { return 1; }

#if defined(__x86_64__)
#include <cpuid.h>
#include <stddef.h>

#include "isa_gates.h"

static int cpuid_has(const mldsa_cpuid_bits *b) {
  uint32_t r[4];
  if ((uint32_t)__get_cpuid_max(0, NULL) < b->leaf) return 0;
  if (b->subleaf != 0) { /* leaf's subleaf 0 gives the highest subleaf in eax */
    __cpuid_count(b->leaf, 0, r[0], r[1], r[2], r[3]);
    if (r[0] < b->subleaf) return 0;
  }
  __cpuid_count(b->leaf, b->subleaf, r[0], r[1], r[2], r[3]);
  return (r[b->reg] & b->mask) == b->mask;
}

/* gen/mcdt.py: CPUID.(EAX=7,ECX=2):EDX[5], the CPU does not show MXCSR Configuration
 * Dependent Timing. */
int mldsa_cpu_has_mcdt_no(void) { return cpuid_has(&mldsa_mcdt_no); }
#else
int mldsa_cpu_has_mcdt_no(void) { return 1; } /* no MXCSR: nothing to protect */
#endif

#if defined(MLDSA_HAVE_ASM) && defined(__x86_64__)
/* XCR0, read only once CPUID said OSXSAVE (the gates require it wherever xcr0 != 0). */
static uint64_t xcr0(void) {
  uint32_t lo, hi;
  __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((uint64_t)hi << 32) | lo;
}

static int gate_open(const mldsa_cpuid_bits *bits, size_t n, uint64_t xcr0_mask) {
  for (size_t i = 0; i < n; ++i)
    if (!cpuid_has(&bits[i])) return 0;
  return xcr0_mask == 0 || (xcr0() & xcr0_mask) == xcr0_mask;
}

#define GATE(isa, ISA)                                                              \
  gate_open(mldsa_gate_##isa, sizeof mldsa_gate_##isa / sizeof mldsa_gate_##isa[0], \
            MLDSA_GATE_##ISA##_XCR0)

int mldsa_cpu_has_sse2(void) { return GATE(sse2, SSE2); }
int mldsa_cpu_has_avx2(void) { return GATE(avx2, AVX2); }
int mldsa_cpu_has_avx512(void) { return GATE(avx512, AVX512); }
#endif

#if defined(MLDSA_HAVE_NEON)
#include <sys/auxv.h>

#include "isa_gates.h"

int mldsa_cpu_has_neon(void) {
  unsigned long need = MLDSA_GATE_NEON_HWCAP;
  return (getauxval(AT_HWCAP) & need) == need;
}
#endif
