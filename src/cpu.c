/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* CPU feature predicates, one per ISA of MLDSA_FOR_EACH_ISA, MCDT_NO, and the SHA3 body of
 * the neon Keccak. The gates are generated (asm_out/isa_gates.h) from the features
 * gen/isa.py declares for each ISA: on x86-64, every CPUID bit set and the OS has enabled
 * the register state; on AArch64, every bit of the ISA in the OS's hardware capabilities.
 *
 * Each question the OS answers differently has one small function below:
 *   cpuid(), cpuid_max()   <cpuid.h> (GCC, Clang, MinGW, Apple Clang) or MSVC's __cpuidex
 *   xcr0()                 xgetbv, or MSVC's _xgetbv
 *   os_saves(mask)         the register state of mask is the OS's to save: XCR0 everywhere,
 *                          but on macOS the AVX-512 state is enabled lazily (a thread's
 *                          XCR0 shows opmask/ZMM only after its first AVX-512 instruction
 *                          traps), so there the kernel's sysctl hw.optional.avx512f answers
 *                          for those bits
 *   kernel_agrees(gate)    macOS only: every feature of the gate that the kernel names in
 *                          hw.optional (avx1_0, avx2_0, avx512f, avx512bw, avx512vl) is 1
 *   hwcap()                AArch64 Linux getauxval(AT_HWCAP), FreeBSD elf_aux_info; macOS
 *                          arm64 has no HWCAP: NEON is part of its ABI, FEAT_SHA3 is
 *                          sysctl hw.optional.arm.FEAT_SHA3 */
#include "cpu.h"

#include <stddef.h>
#include <stdint.h>

#include "keccak_neon.h"

#if defined(__x86_64__) || defined(_M_X64)
#define MLDSA_CPU_X86_64 1
#endif

int mldsa_cpu_has_scalar(void) { return 1; }

/* macOS answers in sysctls where a build has something to ask (an assembly ISA's gate). */
#if defined(__APPLE__) && \
    ((defined(MLDSA_HAVE_ASM) && defined(MLDSA_CPU_X86_64)) || defined(MLDSA_HAVE_NEON))
#include <sys/sysctl.h>
#include <sys/types.h>

/* 1 when the sysctl exists and is 1 (absent: an older kernel, or a feature the CPU lacks). */
static int sysctl_flag(const char *name) {
  int v = 0;
  size_t n = sizeof v;
  return sysctlbyname(name, &v, &n, NULL, 0) == 0 && n == sizeof v && v == 1;
}
#endif

#if defined(MLDSA_CPU_X86_64)
#include "isa_gates.h"

#if defined(_MSC_VER)
#include <intrin.h>
#include <string.h>

static void cpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4]) {
  int v[4];
  __cpuidex(v, (int)leaf, (int)subleaf);
  memcpy(r, v, sizeof v);
}
static uint32_t cpuid_max(void) {
  uint32_t r[4];
  cpuid(0, 0, r);
  return r[0];
}
#else
#include <cpuid.h>

static void cpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4]) {
  __cpuid_count(leaf, subleaf, r[0], r[1], r[2], r[3]);
}
static uint32_t cpuid_max(void) { return (uint32_t)__get_cpuid_max(0, NULL); }
#endif

static int cpuid_has(const mldsa_cpuid_bits *b) {
  uint32_t r[4];
  if (cpuid_max() < b->leaf) return 0;
  if (b->subleaf != 0) { /* leaf's subleaf 0 gives the highest subleaf in eax */
    cpuid(b->leaf, 0, r);
    if (r[0] < b->subleaf) return 0;
  }
  cpuid(b->leaf, b->subleaf, r);
  return (r[b->reg] & b->mask) == b->mask;
}

/* gen/mcdt.py: CPUID.(EAX=7,ECX=2):EDX[5], the CPU does not show MXCSR Configuration
 * Dependent Timing. */
int mldsa_cpu_has_mcdt_no(void) { return cpuid_has(&mldsa_mcdt_no); }
#else
int mldsa_cpu_has_mcdt_no(void) { return 1; } /* no MXCSR: nothing to protect */
#endif

#if defined(MLDSA_HAVE_ASM) && defined(MLDSA_CPU_X86_64)
/* XCR0, read only once CPUID said OSXSAVE (the gates require it wherever xcr0 != 0). */
static uint64_t xcr0(void) {
#if defined(_MSC_VER)
  return _xgetbv(0);
#else
  uint32_t lo, hi;
  __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((uint64_t)hi << 32) | lo;
#endif
}

#if defined(__APPLE__)
#define XCR0_AVX512_STATE 0xE0u /* opmask, ZMM_Hi256, Hi16_ZMM: enabled on first use */

static int os_saves(uint64_t mask) {
  uint64_t eager = mask & ~(uint64_t)XCR0_AVX512_STATE;
  if ((mask & XCR0_AVX512_STATE) && !sysctl_flag("hw.optional.avx512f")) return 0;
  return eager == 0 || (xcr0() & eager) == eager;
}

/* The features macOS reports in hw.optional, by their CPUID location. */
static const struct {
  uint32_t leaf, reg, bit;
  const char *sysctl;
} kernel_names[] = {
    {1, 2, 1u << 28, "hw.optional.avx1_0"},     {7, 1, 1u << 5, "hw.optional.avx2_0"},
    {7, 1, 1u << 16, "hw.optional.avx512f"},    {7, 1, 1u << 30, "hw.optional.avx512bw"},
    {7, 1, 1u << 31, "hw.optional.avx512vl"},
};

static int kernel_agrees(const mldsa_cpuid_bits *bits, size_t n) {
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < sizeof kernel_names / sizeof kernel_names[0]; ++k)
      if (bits[i].leaf == kernel_names[k].leaf && bits[i].subleaf == 0 &&
          bits[i].reg == kernel_names[k].reg && (bits[i].mask & kernel_names[k].bit) &&
          !sysctl_flag(kernel_names[k].sysctl))
        return 0;
  return 1;
}
#else
static int os_saves(uint64_t mask) { return mask == 0 || (xcr0() & mask) == mask; }
static int kernel_agrees(const mldsa_cpuid_bits *bits, size_t n) {
  (void)bits;
  (void)n;
  return 1;
}
#endif

static int gate_open(const mldsa_cpuid_bits *bits, size_t n, uint64_t xcr0_mask) {
  for (size_t i = 0; i < n; ++i)
    if (!cpuid_has(&bits[i])) return 0;
  return os_saves(xcr0_mask) && kernel_agrees(bits, n);
}

#define GATE(isa, ISA)                                                              \
  gate_open(mldsa_gate_##isa, sizeof mldsa_gate_##isa / sizeof mldsa_gate_##isa[0], \
            MLDSA_GATE_##ISA##_XCR0)

int mldsa_cpu_has_sse2(void) { return GATE(sse2, SSE2); }
int mldsa_cpu_has_avx2(void) { return GATE(avx2, AVX2); }
int mldsa_cpu_has_avx512(void) { return GATE(avx512, AVX512); }
#endif

#if defined(MLDSA_HAVE_NEON)
#include "isa_gates.h"

#if defined(__APPLE__)
int mldsa_cpu_has_neon(void) { return 1; } /* Advanced SIMD is part of the arm64 macOS ABI */
int mldsa_cpu_has_neon_sha3(void) { return sysctl_flag("hw.optional.arm.FEAT_SHA3"); }
#else
#include <sys/auxv.h>

static unsigned long hwcap(void) {
#if defined(__FreeBSD__)
  unsigned long v = 0;
  return elf_aux_info(AT_HWCAP, &v, sizeof v) == 0 ? v : 0;
#else
  return getauxval(AT_HWCAP);
#endif
}

int mldsa_cpu_has_neon(void) {
  unsigned long need = MLDSA_GATE_NEON_HWCAP;
  return (hwcap() & need) == need;
}

int mldsa_cpu_has_neon_sha3(void) {
  unsigned long need = MLDSA_HWCAP_SHA3;
  return (hwcap() & need) == need;
}
#endif
#endif
