/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* ABI conformance of the x86-64 assembly kernels (AArch64: tests/test_abi_aarch64.c).
 *
 * Every kernel of tests/abi_kernels.h (all of src/kernels.h and the Keccak permutations),
 * on every assembly ISA the CPU has, is called through a trampoline (abi_call, below) that
 * loads random values into the callee-saved registers rbx, rbp, r12-r15, calls the kernel
 * and records the registers, the stack pointer, RFLAGS, MXCSR and the x87 control word on
 * return. The System V ABI requires:
 *   - rbx, rbp, r12-r15 and rsp as they were,
 *   - the direction flag clear,
 *   - the control bits of MXCSR and the x87 control word as they were (callee-saved),
 * and the project's rule (DESIGN.md) is `vzeroupper` before returning from code that
 * touched ymm/zmm registers: on CPUs that report XGETBV with ECX=1 (XINUSE), the upper
 * halves of ymm0-15 (XINUSE bit 2) and zmm0-15 (bit 6) must be in their initial state on
 * return. The trampoline executes vzeroupper before each call so only the kernel can
 * dirty them. The check is calibrated first (a routine that leaves ymm8 dirty must show,
 * one that executes vzeroupper must not); an emulator that does not track XINUSE turns
 * this one check off, with a note.
 *
 * The checker is shown to work on planted violations, routines in this file that each
 * break one rule (clobber rbx, rbp, r12, r13, r14, r15; return with rsp moved; return with
 * DF set; change MXCSR rounding or the x87 control word; skip vzeroupper): every one
 * must be reported, and a clean routine must not.
 *
 * Registered once per ISA (MLDSA_ISA=<isa>, tests/test_common.h gate: exit 77 when the
 * library uses another ISA): each entry checks the kernels of its ISA; every entry runs
 * the planted-violation checks (test_abi.scalar only those). A plain program: it prints
 * each kernel's result and a closing count. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)

#include "abi_x86.h"
#include "test_common.h"

/* The trampoline's record; offsets are used by the assembly below. */
typedef struct {
  void *fn;                     /* 0 */
  uint64_t arg[4];              /* 8: rdi, rsi, rdx, rcx */
  uint64_t in[6];               /* 40: rbx, rbp, r12, r13, r14, r15 before the call */
  uint64_t out[6];              /* 88: the same after */
  uint64_t rsp_before;          /* 136 */
  uint64_t rsp_after;           /* 144 */
  uint64_t rflags;              /* 152: after */
  uint64_t ret;                 /* 160: rax */
  uint32_t mxcsr_before;        /* 168 */
  uint32_t mxcsr_after;         /* 172 */
  uint16_t fpucw_before;        /* 176 */
  uint16_t fpucw_after;         /* 178 */
  uint32_t want_xinuse;         /* 180: 1: read XINUSE after the call (vzeroupper before) */
  uint64_t xinuse;              /* 184: XGETBV(1) after the call */
} abi_frame;

_Static_assert(offsetof(abi_frame, in) == 40 && offsetof(abi_frame, out) == 88 &&
                   offsetof(abi_frame, rsp_before) == 136 && offsetof(abi_frame, ret) == 160 &&
                   offsetof(abi_frame, mxcsr_before) == 168 &&
                   offsetof(abi_frame, fpucw_before) == 176 &&
                   offsetof(abi_frame, want_xinuse) == 180 && offsetof(abi_frame, xinuse) == 184,
               "abi_frame offsets used by abi_call");

void abi_call(abi_frame *f);

/* The trampoline and the planted violations: a test tool, not library code. */
__asm__(
    "  .text\n"
    "  .globl abi_call\n"
    "  .hidden abi_call\n"
    "  .type abi_call, @function\n"
    "abi_call:\n"
    "  push %rbx\n  push %rbp\n  push %r12\n  push %r13\n  push %r14\n  push %r15\n"
    "  sub $8, %rsp\n" /* 16-byte aligned at the call */
    "  mov %rdi, abi_cur(%rip)\n"
    "  mov %rsp, abi_saved_rsp(%rip)\n"
    "  mov %rsp, 136(%rdi)\n"
    "  stmxcsr 168(%rdi)\n"
    "  fnstcw 176(%rdi)\n"
    "  cmpl $0, 180(%rdi)\n"
    "  je 1f\n"
    "  vzeroupper\n"
    "1:\n"
    "  mov %rdi, %rax\n"
    "  mov 40(%rax), %rbx\n  mov 48(%rax), %rbp\n  mov 56(%rax), %r12\n"
    "  mov 64(%rax), %r13\n  mov 72(%rax), %r14\n  mov 80(%rax), %r15\n"
    "  mov 0(%rax), %r11\n"
    "  mov 8(%rax), %rdi\n  mov 16(%rax), %rsi\n  mov 24(%rax), %rdx\n  mov 32(%rax), %rcx\n"
    "  call *%r11\n"
    "  mov %rax, abi_ret(%rip)\n"
    "  mov abi_cur(%rip), %rax\n"
    "  mov %rsp, 144(%rax)\n"
    "  mov abi_saved_rsp(%rip), %rsp\n"
    "  pushfq\n  pop %r11\n  mov %r11, 152(%rax)\n"
    "  mov %rbx, 88(%rax)\n  mov %rbp, 96(%rax)\n  mov %r12, 104(%rax)\n"
    "  mov %r13, 112(%rax)\n  mov %r14, 120(%rax)\n  mov %r15, 128(%rax)\n"
    "  cmpl $0, 180(%rax)\n"
    "  je 2f\n"
    "  mov %rax, %r8\n  mov $1, %ecx\n  xgetbv\n"
    "  shl $32, %rdx\n  or %rdx, %rax\n  mov %rax, 184(%r8)\n  mov %r8, %rax\n"
    "2:\n"
    "  mov abi_ret(%rip), %r11\n  mov %r11, 160(%rax)\n"
    "  stmxcsr 172(%rax)\n"
    "  fnstcw 178(%rax)\n"
    "  cld\n"
    "  ldmxcsr 168(%rax)\n"
    "  fldcw 176(%rax)\n"
    "  add $8, %rsp\n"
    "  pop %r15\n  pop %r14\n  pop %r13\n  pop %r12\n  pop %rbp\n  pop %rbx\n"
    "  ret\n"
    "  .size abi_call, .-abi_call\n"
    /* planted violations */
    "  .type abi_bad_rbx, @function\n"
    "abi_bad_rbx: mov $0x5555, %ebx\n  ret\n"
    "abi_bad_rbp: mov $0x5555, %ebp\n  ret\n"
    "abi_bad_r12: mov $0x5555, %r12d\n  ret\n"
    "abi_bad_r13: xor %r13, %r13\n  ret\n"
    "abi_bad_r14: not %r14\n  ret\n"
    "abi_bad_r15: inc %r15\n  ret\n"
    "abi_bad_rsp: pop %r11\n  sub $16, %rsp\n  jmp *%r11\n"
    "abi_bad_df: std\n  ret\n"
    "abi_bad_mxcsr: sub $8, %rsp\n  stmxcsr (%rsp)\n  orl $0x6000, (%rsp)\n"
    "  ldmxcsr (%rsp)\n  add $8, %rsp\n  ret\n"
    "abi_bad_fpucw: sub $8, %rsp\n  fnstcw (%rsp)\n  xorw $0x0c00, (%rsp)\n"
    "  fldcw (%rsp)\n  add $8, %rsp\n  ret\n"
    "abi_bad_vzeroupper: vpcmpeqd %ymm8, %ymm8, %ymm8\n  ret\n"
    "abi_good_avx: vpcmpeqd %ymm8, %ymm8, %ymm8\n  vzeroupper\n  ret\n"
    "abi_good: push %rbx\n  mov $7, %ebx\n  pop %rbx\n  ret\n"
    "  .bss\n"
    "  .balign 8\n"
    "abi_cur: .zero 8\n"
    "abi_saved_rsp: .zero 8\n"
    "abi_ret: .zero 8\n"
    "  .text\n");

void abi_bad_rbx(void), abi_bad_rbp(void), abi_bad_r12(void), abi_bad_r13(void),
    abi_bad_r14(void), abi_bad_r15(void), abi_bad_rsp(void), abi_bad_df(void),
    abi_bad_mxcsr(void), abi_bad_fpucw(void), abi_bad_vzeroupper(void), abi_good_avx(void),
    abi_good(void);

static const char *const reg_names[6] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};

static int cpu_has_avx, check_upper;

/* Calls fn(args) once with random callee-saved values; returns a description of the
 * first violation in buf, or NULL. */
static const char *call_checked(void *fn, const uint64_t args[4], char *buf, size_t cap) {
  abi_frame f;
  memset(&f, 0, sizeof f);
  f.fn = fn;
  memcpy(f.arg, args, sizeof f.arg);
  for (int i = 0; i < 6; ++i) f.in[i] = mldsa_test_rand64();
  f.want_xinuse = (uint32_t)check_upper;
  abi_call(&f);
  for (int i = 0; i < 6; ++i)
    if (f.out[i] != f.in[i]) {
      snprintf(buf, cap, "callee-saved %%%s changed (0x%016llx -> 0x%016llx)", reg_names[i],
               (unsigned long long)f.in[i], (unsigned long long)f.out[i]);
      return buf;
    }
  return ABI_STATE_CHECK(f, check_upper, buf, cap);
}

/* ---------------------------------------------------------------- the kernels */


/* ---------------------------------------------------------------- planted violations */

typedef struct {
  const char *what;
  void (*fn)(void);
  int needs_upper_check;
} planted;

static void planted_checks(void) {
  static const planted plants[] = {
      {"clobbers rbx", abi_bad_rbx, 0},       {"clobbers rbp", abi_bad_rbp, 0},
      {"clobbers r12", abi_bad_r12, 0},       {"clobbers r13", abi_bad_r13, 0},
      {"clobbers r14", abi_bad_r14, 0},       {"clobbers r15", abi_bad_r15, 0},
      {"returns with rsp moved", abi_bad_rsp, 0},
      {"returns with DF set", abi_bad_df, 0},
      {"changes MXCSR rounding", abi_bad_mxcsr, 0},
      {"changes the x87 control word", abi_bad_fpucw, 0},
      {"returns without vzeroupper", abi_bad_vzeroupper, 1},
  };
  const uint64_t noargs[4] = {0, 0, 0, 0};
  char buf[200];
  const char *why;

  /* Calibrate the vzeroupper check on this CPU (or emulator). */
  if (check_upper) {
    const char *dirty = call_checked((void *)abi_bad_vzeroupper, noargs, buf, sizeof buf);
    int saw_dirty = dirty != NULL;
    const char *clean = call_checked((void *)abi_good_avx, noargs, buf, sizeof buf);
    if (!saw_dirty || clean != NULL) {
      printf("test_abi: note: XINUSE does not track the upper ymm state here (emulator?): "
             "the vzeroupper check is off\n");
      check_upper = 0;
    }
  } else {
    printf("test_abi: note: no XGETBV ECX=1 on this CPU: the vzeroupper check is off\n");
  }

  char label[120];
  why = call_checked((void *)abi_good, noargs, buf, sizeof buf);
  result(why == NULL, "planted: a clean routine passes", why);
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
  unsigned skipped = 0;
#if defined(MLDSA_HAVE_ASM)
  skipped = abi_check_kernels(chosen, call_checked);
#else
  (void)chosen;
#endif
  printf("test_abi: %u passed, %u failed, %u skipped\n", passed, failed, skipped);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#else /* not x86-64 */
int main(void) {
  printf("test_abi: not x86-64: tests/test_abi_aarch64.c is the ABI test of AArch64; "
         "no generated assembly elsewhere\n");
  return 77;
}
#endif
