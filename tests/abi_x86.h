/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What the two x86-64 ABI tests share (tests/test_abi.c, System V; tests/test_abi_win64.c,
 * Microsoft x64): the CPU probe for the upper-state check, the checks of the state every
 * x86-64 ABI asks a function to return as it found it (%rsp, the direction flag, MXCSR,
 * the x87 control word, no dirty upper ymm/zmm state), the ISA tables and the result
 * line. Each test's own record (callee-saved registers, its trampoline) stays in it. */
#ifndef MLDSA_TEST_ABI_X86_H
#define MLDSA_TEST_ABI_X86_H

#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "abi_kernels.h"
#include "cpu.h"

#define XINUSE_UPPER ((1u << 2) | (1u << 6)) /* YMM_Hi128, ZMM_Hi256 */

/* AVX with OS support (*has_avx) and XGETBV with ECX = 1, which reads XINUSE
 * (*check_upper). */
static inline void abi_probe_cpu(int *has_avx, int *check_upper) {
  unsigned a, b, c, d;
  *has_avx = *check_upper = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return;
  if (!((c >> 27) & 1) || !((c >> 28) & 1)) return; /* OSXSAVE, AVX */
  uint32_t lo, hi;
  __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 6) != 6) return;
  *has_avx = 1;
  if (__get_cpuid_max(0, NULL) >= 0xD) {
    __cpuid_count(0xD, 1, a, b, c, d);
    *check_upper = (a >> 2) & 1;
  }
}

/* The first violation of the state after a call, described in buf, or NULL. f is a
 * trampoline record with the fields rsp_before/after, rflags, mxcsr_before/after,
 * fpucw_before/after and xinuse. */
#define ABI_STATE_CHECK(f, check_upper, buf, cap)                                          \
  abi_state_check((f).rsp_before, (f).rsp_after, (f).rflags, (f).mxcsr_before,            \
                  (f).mxcsr_after, (f).fpucw_before, (f).fpucw_after, (f).xinuse,          \
                  check_upper, buf, cap)
static inline const char *abi_state_check(uint64_t rsp_before, uint64_t rsp_after,
                                          uint64_t rflags, uint32_t mxcsr_before,
                                          uint32_t mxcsr_after, uint16_t fpucw_before,
                                          uint16_t fpucw_after, uint64_t xinuse,
                                          int check_upper, char *buf, size_t cap) {
  if (rsp_after != rsp_before) {
    snprintf(buf, cap, "%%rsp not restored (off by %lld)", (long long)(rsp_after - rsp_before));
    return buf;
  }
  if (rflags & (1u << 10)) return snprintf(buf, cap, "direction flag set on return"), buf;
  if (mxcsr_after != mxcsr_before) {
    snprintf(buf, cap, "MXCSR changed (0x%04x -> 0x%04x)", mxcsr_before, mxcsr_after);
    return buf;
  }
  if (fpucw_after != fpucw_before) {
    snprintf(buf, cap, "x87 control word changed (0x%04x -> 0x%04x)", fpucw_before,
             fpucw_after);
    return buf;
  }
  if (check_upper && (xinuse & XINUSE_UPPER)) {
    snprintf(buf, cap, "upper ymm/zmm state dirty on return (XINUSE 0x%llx): no vzeroupper",
             (unsigned long long)xinuse);
    return buf;
  }
  return NULL;
}

#if defined(MLDSA_HAVE_ASM)
#define ABI_ISA_NAME(isa) #isa,
static const char *const isa_names[] = {MLDSA_FOR_EACH_ASM_ISA(ABI_ISA_NAME)};
#define ABI_ISA_HAS(isa) mldsa_cpu_has_##isa,
static int (*const isa_has[])(void) = {MLDSA_FOR_EACH_ASM_ISA(ABI_ISA_HAS)};
#define NUM_ASM_ISAS (sizeof isa_names / sizeof isa_names[0])
#define ABI_TABLE(isa) abi_kernels_##isa,
static const abi_kernel *const kernel_tables[] = {MLDSA_FOR_EACH_ASM_ISA(ABI_TABLE)};
#endif

static unsigned passed, failed;

static void result(int ok, const char *label, const char *detail) {
  printf("test_abi: %s %s%s%s\n", ok ? "ok  " : "FAIL", label, detail ? ": " : "",
         detail ? detail : "");
  if (ok) ++passed;
  else ++failed;
}

#if defined(MLDSA_HAVE_ASM)
/* Every kernel of the ISA this ctest entry is for (chosen), ABI_ITERATIONS calls each
 * through call (the test's trampoline with its checks), one result line per kernel.
 * Returns the number of kernels skipped because the CPU lacks the ISA. */
typedef const char *(*abi_caller)(void *fn, const uint64_t args[4], char *buf, size_t cap);
static unsigned abi_check_kernels(const char *chosen, abi_caller call) {
  unsigned skipped = 0;
  for (size_t isa = 0; isa < NUM_ASM_ISAS; ++isa) {
    if (strcmp(chosen, isa_names[isa]) != 0) continue; /* another ctest entry's */
    if (!isa_has[isa]()) {
      printf("test_abi: %s: the CPU lacks it: %u kernels skipped\n", isa_names[isa],
             (unsigned)ABI_NUM_KERNELS);
      skipped += ABI_NUM_KERNELS;
      continue;
    }
    for (size_t k = 0; k < ABI_NUM_KERNELS; ++k) {
      const abi_kernel *kern = &kernel_tables[isa][k];
      char buf[200], label[120];
      const char *why = NULL;
      for (unsigned it = 0; it < ABI_ITERATIONS && why == NULL; ++it) {
        uint64_t args[4];
        abi_fill_inputs();
        abi_kernel_args(kern->shape, args, it);
        why = call(kern->fn, args, buf, sizeof buf);
      }
      snprintf(label, sizeof label, "mldsa_%s_%s", kern->name, isa_names[isa]);
      result(why == NULL, label, why);
    }
  }
  return skipped;
}
#endif

#endif
