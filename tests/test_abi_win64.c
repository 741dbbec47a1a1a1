/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* ABI conformance of the Windows x64 assembly kernels (asm_out/win64/<isa>/, the
 * Microsoft x64 calling convention); tests/test_abi.c is the System V counterpart and
 * shares the kernel list and their arguments (tests/abi_kernels.h).
 *
 * Every kernel of tests/abi_kernels.h, on the assembly ISA of this ctest entry when the CPU
 * has it, is called through a trampoline (abi_call, below) that passes its arguments in
 * rcx, rdx, r8, r9 as any Windows caller does, with random values in every register the
 * callee must preserve, and records them on return. The Microsoft x64 ABI requires:
 *   - rbx, rbp, rdi, rsi, r12-r15 and xmm6-xmm15 (all 128 bits) as they were, rsp too,
 *   - the direction flag clear, the control bits of MXCSR and the x87 control word kept,
 *   - the caller's stack left alone above the 32-byte shadow space (the home area of the
 *     four register arguments, which the callee may use): the trampoline places a guard
 *     pattern in the 32 bytes just above the shadow space, and it must be intact,
 * and the project's rule (DESIGN.md) is `vzeroupper` before returning from code that
 * touched ymm/zmm registers, checked with XGETBV ECX=1 (XINUSE) as in tests/test_abi.c.
 *
 * The checker is shown to work on planted violations, routines in this file that each
 * break one rule (clobber xmm6, xmm15, rdi, rsi, rbx, rbp, r12-r15; write the guard above
 * the shadow space; return with rsp moved or DF set; change MXCSR or the x87 control
 * word; skip vzeroupper): every one must be reported, and clean routines (one that writes
 * its whole shadow space, one that saves and restores xmm6 and rdi) must not.
 *
 * Registered once per ISA (MLDSA_ISA=<isa>; exit 77 when the library uses another ISA).
 * A build without assembly (MLDSA_ASM=OFF, or no asm_out/win64) has no kernel to check:
 * the planted checks still run (a failure among them fails the test), then the test exits
 * 77, skipped, never passed. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN64) && defined(__x86_64__) && defined(__GNUC__)

#include "abi_x86.h"
#include "test_common.h"

#define NUM_GPR 8
#define NUM_XMM 10
#define NUM_GUARD 4

/* The trampoline's record; offsets are used by the assembly below. */
typedef struct {
  void *fn;                       /* 0 */
  uint64_t arg[4];                /* 8: rcx, rdx, r8, r9 */
  uint64_t in[NUM_GPR];           /* 40: rbx, rbp, rdi, rsi, r12, r13, r14, r15 before */
  uint64_t out[NUM_GPR];          /* 104: the same after */
  uint8_t xin[NUM_XMM][16];       /* 168: xmm6-xmm15 before */
  uint8_t xout[NUM_XMM][16];      /* 328: after */
  uint64_t rsp_before;            /* 488 */
  uint64_t rsp_after;             /* 496 */
  uint64_t rflags;                /* 504: after */
  uint64_t ret;                   /* 512: rax */
  uint32_t mxcsr_before;          /* 520 */
  uint32_t mxcsr_after;           /* 524 */
  uint16_t fpucw_before;          /* 528 */
  uint16_t fpucw_after;           /* 530 */
  uint32_t want_xinuse;           /* 532: 1: read XINUSE after the call (vzeroupper before) */
  uint64_t xinuse;                /* 536: XGETBV(1) after the call */
  uint64_t guard[NUM_GUARD];      /* 544: above the shadow space, before the call */
  uint64_t guard_out[NUM_GUARD];  /* 576: the same words after */
} abi_frame;

_Static_assert(offsetof(abi_frame, in) == 40 && offsetof(abi_frame, out) == 104 &&
                   offsetof(abi_frame, xin) == 168 && offsetof(abi_frame, xout) == 328 &&
                   offsetof(abi_frame, rsp_before) == 488 && offsetof(abi_frame, ret) == 512 &&
                   offsetof(abi_frame, mxcsr_before) == 520 &&
                   offsetof(abi_frame, fpucw_before) == 528 &&
                   offsetof(abi_frame, want_xinuse) == 532 && offsetof(abi_frame, xinuse) == 536 &&
                   offsetof(abi_frame, guard) == 544 && offsetof(abi_frame, guard_out) == 576,
               "abi_frame offsets used by abi_call");

void abi_call(abi_frame *f);

/* The trampoline and the planted violations: a test tool, not library code. abi_call is a
 * Windows function itself (f in rcx): it keeps every nonvolatile register of its caller.
 * Its frame at the kernel call, from rsp up: 32 bytes of shadow space (filled with the
 * guard pattern too, not checked: the callee owns it), 32 bytes of guard, xmm6-xmm15 of
 * the caller, 8 bytes of padding, then the 8 pushed registers. */
__asm__(
    "  .text\n"
    "  .globl abi_call\n"
    "abi_call:\n"
    "  push %rbx\n  push %rbp\n  push %rdi\n  push %rsi\n"
    "  push %r12\n  push %r13\n  push %r14\n  push %r15\n"
    "  sub $168, %rsp\n" /* xmm6-15 and padding: rsp is 16-byte aligned */
    "  movdqu %xmm6, 0(%rsp)\n  movdqu %xmm7, 16(%rsp)\n  movdqu %xmm8, 32(%rsp)\n"
    "  movdqu %xmm9, 48(%rsp)\n  movdqu %xmm10, 64(%rsp)\n  movdqu %xmm11, 80(%rsp)\n"
    "  movdqu %xmm12, 96(%rsp)\n  movdqu %xmm13, 112(%rsp)\n  movdqu %xmm14, 128(%rsp)\n"
    "  movdqu %xmm15, 144(%rsp)\n"
    "  sub $64, %rsp\n" /* shadow space and guard; still 16-byte aligned at the call */
    "  mov %rcx, abi_cur(%rip)\n"
    "  mov %rsp, abi_saved_rsp(%rip)\n"
    "  mov %rsp, 488(%rcx)\n"
    "  stmxcsr 520(%rcx)\n"
    "  fnstcw 528(%rcx)\n"
    "  mov 544(%rcx), %rax\n  mov %rax, 32(%rsp)\n  mov %rax, 0(%rsp)\n"
    "  mov 552(%rcx), %rax\n  mov %rax, 40(%rsp)\n  mov %rax, 8(%rsp)\n"
    "  mov 560(%rcx), %rax\n  mov %rax, 48(%rsp)\n  mov %rax, 16(%rsp)\n"
    "  mov 568(%rcx), %rax\n  mov %rax, 56(%rsp)\n  mov %rax, 24(%rsp)\n"
    "  cmpl $0, 532(%rcx)\n"
    "  je 1f\n"
    "  vzeroupper\n"
    "1:\n"
    "  movdqu 168(%rcx), %xmm6\n  movdqu 184(%rcx), %xmm7\n  movdqu 200(%rcx), %xmm8\n"
    "  movdqu 216(%rcx), %xmm9\n  movdqu 232(%rcx), %xmm10\n  movdqu 248(%rcx), %xmm11\n"
    "  movdqu 264(%rcx), %xmm12\n  movdqu 280(%rcx), %xmm13\n  movdqu 296(%rcx), %xmm14\n"
    "  movdqu 312(%rcx), %xmm15\n"
    "  mov %rcx, %rax\n"
    "  mov 40(%rax), %rbx\n  mov 48(%rax), %rbp\n  mov 56(%rax), %rdi\n  mov 64(%rax), %rsi\n"
    "  mov 72(%rax), %r12\n  mov 80(%rax), %r13\n  mov 88(%rax), %r14\n  mov 96(%rax), %r15\n"
    "  mov 0(%rax), %r11\n"
    "  mov 8(%rax), %rcx\n  mov 16(%rax), %rdx\n  mov 24(%rax), %r8\n  mov 32(%rax), %r9\n"
    "  call *%r11\n"
    "  mov %rax, abi_ret(%rip)\n"
    "  mov abi_cur(%rip), %rax\n"
    "  mov %rsp, 496(%rax)\n"
    "  mov abi_saved_rsp(%rip), %rsp\n"
    "  pushfq\n  pop %r11\n  mov %r11, 504(%rax)\n"
    "  mov %rbx, 104(%rax)\n  mov %rbp, 112(%rax)\n  mov %rdi, 120(%rax)\n  mov %rsi, 128(%rax)\n"
    "  mov %r12, 136(%rax)\n  mov %r13, 144(%rax)\n  mov %r14, 152(%rax)\n  mov %r15, 160(%rax)\n"
    "  movdqu %xmm6, 328(%rax)\n  movdqu %xmm7, 344(%rax)\n  movdqu %xmm8, 360(%rax)\n"
    "  movdqu %xmm9, 376(%rax)\n  movdqu %xmm10, 392(%rax)\n  movdqu %xmm11, 408(%rax)\n"
    "  movdqu %xmm12, 424(%rax)\n  movdqu %xmm13, 440(%rax)\n  movdqu %xmm14, 456(%rax)\n"
    "  movdqu %xmm15, 472(%rax)\n"
    "  mov 32(%rsp), %r11\n  mov %r11, 576(%rax)\n"
    "  mov 40(%rsp), %r11\n  mov %r11, 584(%rax)\n"
    "  mov 48(%rsp), %r11\n  mov %r11, 592(%rax)\n"
    "  mov 56(%rsp), %r11\n  mov %r11, 600(%rax)\n"
    "  cmpl $0, 532(%rax)\n"
    "  je 2f\n"
    "  mov %rax, %r8\n  mov $1, %ecx\n  xgetbv\n"
    "  shl $32, %rdx\n  or %rdx, %rax\n  mov %rax, 536(%r8)\n  mov %r8, %rax\n"
    "2:\n"
    "  mov abi_ret(%rip), %r11\n  mov %r11, 512(%rax)\n"
    "  stmxcsr 524(%rax)\n"
    "  fnstcw 530(%rax)\n"
    "  cld\n"
    "  ldmxcsr 520(%rax)\n"
    "  fldcw 528(%rax)\n"
    "  add $64, %rsp\n"
    "  movdqu 0(%rsp), %xmm6\n  movdqu 16(%rsp), %xmm7\n  movdqu 32(%rsp), %xmm8\n"
    "  movdqu 48(%rsp), %xmm9\n  movdqu 64(%rsp), %xmm10\n  movdqu 80(%rsp), %xmm11\n"
    "  movdqu 96(%rsp), %xmm12\n  movdqu 112(%rsp), %xmm13\n  movdqu 128(%rsp), %xmm14\n"
    "  movdqu 144(%rsp), %xmm15\n"
    "  add $168, %rsp\n"
    "  pop %r15\n  pop %r14\n  pop %r13\n  pop %r12\n"
    "  pop %rsi\n  pop %rdi\n  pop %rbp\n  pop %rbx\n"
    "  ret\n"
    /* planted violations */
    "abi_bad_xmm6: pcmpeqd %xmm6, %xmm6\n  ret\n"
    "abi_bad_xmm15: pcmpeqd %xmm0, %xmm0\n  pxor %xmm0, %xmm15\n  ret\n"
    "abi_bad_rdi: mov $0x5555, %edi\n  ret\n"
    "abi_bad_rsi: not %rsi\n  ret\n"
    "abi_bad_rbx: mov $0x5555, %ebx\n  ret\n"
    "abi_bad_rbp: mov $0x5555, %ebp\n  ret\n"
    "abi_bad_r12: mov $0x5555, %r12d\n  ret\n"
    "abi_bad_r13: xor %r13, %r13\n  ret\n"
    "abi_bad_r14: not %r14\n  ret\n"
    "abi_bad_r15: inc %r15\n  ret\n"
    "abi_bad_guard: mov %rcx, 40(%rsp)\n  ret\n" /* first word above the shadow space */
    "abi_bad_rsp: pop %r11\n  sub $16, %rsp\n  jmp *%r11\n"
    "abi_bad_df: std\n  ret\n"
    "abi_bad_mxcsr: sub $8, %rsp\n  stmxcsr (%rsp)\n  orl $0x6000, (%rsp)\n"
    "  ldmxcsr (%rsp)\n  add $8, %rsp\n  ret\n"
    "abi_bad_fpucw: sub $8, %rsp\n  fnstcw (%rsp)\n  xorw $0x0c00, (%rsp)\n"
    "  fldcw (%rsp)\n  add $8, %rsp\n  ret\n"
    "abi_bad_vzeroupper: vpcmpeqd %ymm1, %ymm1, %ymm1\n  ret\n"
    "abi_good_avx: vpcmpeqd %ymm1, %ymm1, %ymm1\n  vzeroupper\n  ret\n"
    /* clean: home the four arguments in the shadow space, save and restore xmm6 and rdi */
    "abi_good: mov %rcx, 8(%rsp)\n  mov %rdx, 16(%rsp)\n  mov %r8, 24(%rsp)\n  mov %r9, 32(%rsp)\n"
    "  sub $24, %rsp\n  movdqu %xmm6, (%rsp)\n  mov %rdi, 16(%rsp)\n"
    "  pcmpeqd %xmm6, %xmm6\n  mov $7, %edi\n"
    "  movdqu (%rsp), %xmm6\n  mov 16(%rsp), %rdi\n  add $24, %rsp\n  ret\n"
    "  .bss\n"
    "  .balign 8\n"
    "abi_cur: .zero 8\n"
    "abi_saved_rsp: .zero 8\n"
    "abi_ret: .zero 8\n"
    "  .text\n");

void abi_bad_xmm6(void), abi_bad_xmm15(void), abi_bad_rdi(void), abi_bad_rsi(void),
    abi_bad_rbx(void), abi_bad_rbp(void), abi_bad_r12(void), abi_bad_r13(void),
    abi_bad_r14(void), abi_bad_r15(void), abi_bad_guard(void), abi_bad_rsp(void),
    abi_bad_df(void), abi_bad_mxcsr(void), abi_bad_fpucw(void), abi_bad_vzeroupper(void),
    abi_good_avx(void), abi_good(void);

static const char *const reg_names[NUM_GPR] = {"rbx", "rbp", "rdi", "rsi",
                                               "r12", "r13", "r14", "r15"};

static int cpu_has_avx, check_upper;

/* Calls fn(args) once with random nonvolatile values and guard; returns a description of
 * the first violation in buf, or NULL. */
static const char *call_checked(void *fn, const uint64_t args[4], char *buf, size_t cap) {
  abi_frame f;
  memset(&f, 0, sizeof f);
  f.fn = fn;
  memcpy(f.arg, args, sizeof f.arg);
  for (int i = 0; i < NUM_GPR; ++i) f.in[i] = mldsa_test_rand64();
  mldsa_test_randbytes(&f.xin[0][0], sizeof f.xin);
  for (int i = 0; i < NUM_GUARD; ++i) f.guard[i] = mldsa_test_rand64();
  f.want_xinuse = (uint32_t)check_upper;
  abi_call(&f);
  for (int i = 0; i < NUM_GPR; ++i)
    if (f.out[i] != f.in[i]) {
      snprintf(buf, cap, "callee-saved %%%s changed (0x%016llx -> 0x%016llx)", reg_names[i],
               (unsigned long long)f.in[i], (unsigned long long)f.out[i]);
      return buf;
    }
  for (int i = 0; i < NUM_XMM; ++i)
    if (memcmp(f.xin[i], f.xout[i], 16) != 0) {
      snprintf(buf, cap, "callee-saved %%xmm%d changed", 6 + i);
      return buf;
    }
  for (int i = 0; i < NUM_GUARD; ++i)
    if (f.guard_out[i] != f.guard[i]) {
      snprintf(buf, cap, "the caller's stack above the shadow space written (word %d)", i);
      return buf;
    }
  return ABI_STATE_CHECK(f, check_upper, buf, cap);
}


static void planted_checks(void) {
  static const struct {
    const char *what;
    void (*fn)(void);
    int needs_upper_check;
  } plants[] = {
      {"clobbers xmm6", abi_bad_xmm6, 0},
      {"clobbers xmm15", abi_bad_xmm15, 0},
      {"clobbers rdi", abi_bad_rdi, 0},
      {"clobbers rsi", abi_bad_rsi, 0},
      {"clobbers rbx", abi_bad_rbx, 0},
      {"clobbers rbp", abi_bad_rbp, 0},
      {"clobbers r12", abi_bad_r12, 0},
      {"clobbers r13", abi_bad_r13, 0},
      {"clobbers r14", abi_bad_r14, 0},
      {"clobbers r15", abi_bad_r15, 0},
      {"writes above its shadow space", abi_bad_guard, 0},
      {"returns with rsp moved", abi_bad_rsp, 0},
      {"returns with DF set", abi_bad_df, 0},
      {"changes MXCSR rounding", abi_bad_mxcsr, 0},
      {"changes the x87 control word", abi_bad_fpucw, 0},
      {"returns without vzeroupper", abi_bad_vzeroupper, 1},
  };
  const uint64_t noargs[4] = {1, 2, 3, 4};
  char buf[200], label[120];
  const char *why;

  if (check_upper) { /* calibrate the vzeroupper check on this CPU (or emulator) */
    int saw_dirty = call_checked((void *)abi_bad_vzeroupper, noargs, buf, sizeof buf) != NULL;
    int clean = call_checked((void *)abi_good_avx, noargs, buf, sizeof buf) == NULL;
    if (!saw_dirty || !clean) {
      printf("test_abi: note: XINUSE does not track the upper ymm state here (emulator?): "
             "the vzeroupper check is off\n");
      check_upper = 0;
    }
  } else {
    printf("test_abi: note: no XGETBV ECX=1 on this CPU: the vzeroupper check is off\n");
  }
  why = call_checked((void *)abi_good, noargs, buf, sizeof buf);
  result(why == NULL, "planted: a clean routine (shadow space, xmm6 and rdi saved) passes", why);
  for (size_t i = 0; i < sizeof plants / sizeof plants[0]; ++i) {
    if (plants[i].needs_upper_check && !check_upper) continue;
    why = call_checked((void *)plants[i].fn, noargs, buf, sizeof buf);
    snprintf(label, sizeof label, "planted: a routine that %s is reported", plants[i].what);
    result(why != NULL, label, why);
  }
}

int main(void) {
  const char *chosen = mldsa_test_isa_gate("test_abi");
  mldsa_test_seed_rng("test_abi");
  abi_probe_cpu(&cpu_has_avx, &check_upper);
  planted_checks();
#if defined(MLDSA_HAVE_ASM)
  unsigned skipped = abi_check_kernels(chosen, call_checked);
  printf("test_abi: %u passed, %u failed, %u skipped\n", passed, failed, skipped);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
#else
  (void)chosen;
  printf("test_abi: %u passed, %u failed (the planted violations)\n", passed, failed);
  if (failed) return EXIT_FAILURE;
  printf("test_abi: this build has no assembly ISA (MLDSA_ASM=OFF): no kernel checked: "
         "skipped\n");
  return MLDSA_TEST_SKIP;
#endif
}

#else /* not Windows x64 with a GNU-compatible compiler */
int main(void) {
  printf("test_abi_win64: the Microsoft x64 ABI test needs Windows x64 (MinGW-w64 GCC or "
         "Clang): skipped\n");
  return 77;
}
#endif
