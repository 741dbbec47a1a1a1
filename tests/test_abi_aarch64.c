/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* ABI conformance of the AArch64 assembly kernels (x86-64: tests/test_abi.c).
 *
 * Every kernel of tests/abi_kernels.h on the neon ISA, and each body of the neon Keccak
 * kernels (src/keccak_neon.h; the SHA3 ones where the CPU has SHA3), is called through a
 * trampoline
 * (abi_call, below) that loads random values into the callee-saved registers x19-x29 and
 * d8-d15, calls the kernel and records them, the stack pointer and FPCR on return. The
 * AAPCS64 requires x19-x29, sp and the low 64 bits of v8-v15 as they were, and FPCR's
 * control bits unchanged.
 *
 * The checker is shown to work on planted violations, routines in this file that each
 * break one rule (clobber x19, x28, x29, d8 or d15; return with sp moved; change FPCR's
 * rounding mode): every one must be reported; a clean routine that saves and restores
 * what it uses, and one that writes only the upper half of v8 (caller-saved), must not.
 *
 * Registered once per ISA (MLDSA_ISA=<isa>, tests/test_common.h gate: exit 77 when the
 * library uses another ISA): each entry runs the planted checks, and test_abi.neon also
 * the kernels. A plain program: it prints each result and a closing count. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi_kernels.h"
#include "cpu.h"
#include "keccak_neon.h"
#include "test_common.h"

/* The trampoline's record; offsets are used by the assembly below. */
typedef struct {
  void *fn;              /* 0 */
  uint64_t arg[4];       /* 8: x0-x3 */
  uint64_t in[11];       /* 40: x19-x29 before the call */
  uint64_t out[11];      /* 128: the same after */
  uint64_t din[8];       /* 216: d8-d15 before */
  uint64_t dout[8];      /* 280: after */
  uint64_t sp_before;    /* 344 */
  uint64_t sp_after;     /* 352 */
  uint64_t ret;          /* 360: x0 */
  uint64_t fpcr_before;  /* 368 */
  uint64_t fpcr_after;   /* 376 */
} abi_frame;

_Static_assert(offsetof(abi_frame, in) == 40 && offsetof(abi_frame, out) == 128 &&
                   offsetof(abi_frame, din) == 216 && offsetof(abi_frame, dout) == 280 &&
                   offsetof(abi_frame, sp_before) == 344 && offsetof(abi_frame, ret) == 360 &&
                   offsetof(abi_frame, fpcr_before) == 368,
               "abi_frame offsets used by abi_call");

void abi_call(abi_frame *f);

/* The trampoline and the planted violations: a test tool, not library code. The frame's
 * address and the caller's sp are kept in memory (abi_cur, abi_saved_sp), not in a
 * register the kernel is trusted to keep. */
__asm__(
    "  .text\n"
    "  .globl abi_call\n"
    "  .hidden abi_call\n"
    "  .type abi_call, %function\n"
    "abi_call:\n"
    "  stp x29, x30, [sp, #-160]!\n"
    "  stp x19, x20, [sp, #16]\n  stp x21, x22, [sp, #32]\n  stp x23, x24, [sp, #48]\n"
    "  stp x25, x26, [sp, #64]\n  stp x27, x28, [sp, #80]\n"
    "  stp d8, d9, [sp, #96]\n  stp d10, d11, [sp, #112]\n"
    "  stp d12, d13, [sp, #128]\n  stp d14, d15, [sp, #144]\n"
    "  adrp x9, abi_cur\n  str x0, [x9, :lo12:abi_cur]\n"
    "  mov x10, sp\n  adrp x9, abi_saved_sp\n  str x10, [x9, :lo12:abi_saved_sp]\n"
    "  str x10, [x0, #344]\n"
    "  mrs x10, fpcr\n  str x10, [x0, #368]\n"
    "  ldp x19, x20, [x0, #40]\n  ldp x21, x22, [x0, #56]\n  ldp x23, x24, [x0, #72]\n"
    "  ldp x25, x26, [x0, #88]\n  ldp x27, x28, [x0, #104]\n  ldr x29, [x0, #120]\n"
    "  ldp d8, d9, [x0, #216]\n  ldp d10, d11, [x0, #232]\n"
    "  ldp d12, d13, [x0, #248]\n  ldp d14, d15, [x0, #264]\n"
    "  ldr x16, [x0, #0]\n"
    "  ldp x2, x3, [x0, #24]\n  ldp x0, x1, [x0, #8]\n"
    "  blr x16\n"
    "  adrp x9, abi_cur\n  ldr x9, [x9, :lo12:abi_cur]\n"
    "  str x0, [x9, #360]\n"
    "  mov x10, sp\n  str x10, [x9, #352]\n"
    "  stp x19, x20, [x9, #128]\n  stp x21, x22, [x9, #144]\n  stp x23, x24, [x9, #160]\n"
    "  stp x25, x26, [x9, #176]\n  stp x27, x28, [x9, #192]\n  str x29, [x9, #208]\n"
    "  stp d8, d9, [x9, #280]\n  stp d10, d11, [x9, #296]\n"
    "  stp d12, d13, [x9, #312]\n  stp d14, d15, [x9, #328]\n"
    "  mrs x10, fpcr\n  str x10, [x9, #376]\n"
    "  ldr x10, [x9, #368]\n  msr fpcr, x10\n"
    "  adrp x10, abi_saved_sp\n  ldr x10, [x10, :lo12:abi_saved_sp]\n  mov sp, x10\n"
    "  ldp d14, d15, [sp, #144]\n  ldp d12, d13, [sp, #128]\n"
    "  ldp d10, d11, [sp, #112]\n  ldp d8, d9, [sp, #96]\n"
    "  ldp x27, x28, [sp, #80]\n  ldp x25, x26, [sp, #64]\n  ldp x23, x24, [sp, #48]\n"
    "  ldp x21, x22, [sp, #32]\n  ldp x19, x20, [sp, #16]\n"
    "  ldp x29, x30, [sp], #160\n"
    "  ret\n"
    "  .size abi_call, .-abi_call\n"
    /* planted violations: global (hidden) symbols, so that the C code's GOT references
     * name them and not a section and an addend (which a static link drops) */
    "  .globl abi_bad_x19, abi_bad_x28, abi_bad_x29, abi_bad_d8, abi_bad_d15, abi_bad_sp\n"
    "  .globl abi_bad_fpcr, abi_good, abi_good_upper\n"
    "  .hidden abi_bad_x19, abi_bad_x28, abi_bad_x29, abi_bad_d8, abi_bad_d15, abi_bad_sp\n"
    "  .hidden abi_bad_fpcr, abi_good, abi_good_upper\n"
    "abi_bad_x19: mov x19, #0x5555\n  ret\n"
    "abi_bad_x28: mvn x28, x28\n  ret\n"
    "abi_bad_x29: add x29, x29, #16\n  ret\n"
    "abi_bad_d8: movi d8, #0\n  ret\n"
    "abi_bad_d15: fmov d15, x0\n  ret\n"
    "abi_bad_sp: sub sp, sp, #16\n  ret\n"
    "abi_bad_fpcr: mrs x9, fpcr\n  eor x9, x9, #0xc00000\n  msr fpcr, x9\n  ret\n"
    "abi_good: stp x19, x20, [sp, #-32]!\n  str d8, [sp, #16]\n"
    "  mov x19, #7\n  movi d8, #0\n"
    "  ldr d8, [sp, #16]\n  ldp x19, x20, [sp], #32\n  ret\n"
    "abi_good_upper: mov v8.d[1], x0\n  mov v15.d[1], x0\n  ret\n"
    "  .bss\n"
    "  .balign 8\n"
    "abi_cur: .zero 8\n"
    "abi_saved_sp: .zero 8\n"
    "  .text\n");

void abi_bad_x19(void), abi_bad_x28(void), abi_bad_x29(void), abi_bad_d8(void),
    abi_bad_d15(void), abi_bad_sp(void), abi_bad_fpcr(void), abi_good(void),
    abi_good_upper(void);

/* Calls fn(args) once with random callee-saved values; returns a description of the
 * first violation in buf, or NULL. */
static const char *call_checked(void *fn, const uint64_t args[4], char *buf, size_t cap) {
  abi_frame f;
  memset(&f, 0, sizeof f);
  f.fn = fn;
  memcpy(f.arg, args, sizeof f.arg);
  for (int i = 0; i < 11; ++i) f.in[i] = mldsa_test_rand64();
  for (int i = 0; i < 8; ++i) f.din[i] = mldsa_test_rand64();
  abi_call(&f);
  for (int i = 0; i < 11; ++i)
    if (f.out[i] != f.in[i]) {
      snprintf(buf, cap, "callee-saved x%d changed (0x%016llx -> 0x%016llx)", 19 + i,
               (unsigned long long)f.in[i], (unsigned long long)f.out[i]);
      return buf;
    }
  for (int i = 0; i < 8; ++i)
    if (f.dout[i] != f.din[i]) {
      snprintf(buf, cap, "callee-saved d%d changed (0x%016llx -> 0x%016llx)", 8 + i,
               (unsigned long long)f.din[i], (unsigned long long)f.dout[i]);
      return buf;
    }
  if (f.sp_after != f.sp_before) {
    snprintf(buf, cap, "sp not restored (off by %lld)", (long long)(f.sp_after - f.sp_before));
    return buf;
  }
  if (f.fpcr_after != f.fpcr_before) {
    snprintf(buf, cap, "FPCR changed (0x%llx -> 0x%llx)", (unsigned long long)f.fpcr_before,
             (unsigned long long)f.fpcr_after);
    return buf;
  }
  return NULL;
}

static unsigned passed, failed;

#if defined(MLDSA_HAVE_NEON)
/* The bodies the neon Keccak entries choose between (src/keccak_neon.h): each is checked
 * on its own, the SHA3 ones where the CPU has SHA3. */
static const struct {
  abi_kernel k;
  int needs_sha3;
} keccak_bodies[] = {
    {{"keccak_f1600_x1_neon_base", KECCAK, (void *)mldsa_keccak_f1600_x1_neon_base}, 0},
    {{"keccak_f1600_batch_neon_base", KECCAK, (void *)mldsa_keccak_f1600_batch_neon_base}, 0},
    {{"keccak_f1600_x1_neon_sha3", KECCAK, (void *)mldsa_keccak_f1600_x1_neon_sha3}, 1},
    {{"keccak_f1600_batch_neon_sha3", KECCAK, (void *)mldsa_keccak_f1600_batch_neon_sha3}, 1},
};
#endif

static void result(int ok, const char *label, const char *detail) {
  printf("test_abi: %s %s%s%s\n", ok ? "ok  " : "FAIL", label, detail ? ": " : "",
         detail ? detail : "");
  if (ok) ++passed;
  else ++failed;
}

static void planted_checks(void) {
  static const struct {
    const char *what;
    void (*fn)(void);
  } bad[] = {
      {"clobbers x19", abi_bad_x19},           {"clobbers x28", abi_bad_x28},
      {"clobbers x29", abi_bad_x29},           {"clobbers d8", abi_bad_d8},
      {"clobbers d15", abi_bad_d15},           {"returns with sp moved", abi_bad_sp},
      {"changes FPCR's rounding mode", abi_bad_fpcr},
  };
  const uint64_t noargs[4] = {0x1234, 0, 0, 0};
  char buf[200], label[120];
  const char *why = call_checked((void *)abi_good, noargs, buf, sizeof buf);
  result(why == NULL, "planted: a routine that saves what it uses passes", why);
  why = call_checked((void *)abi_good_upper, noargs, buf, sizeof buf);
  result(why == NULL, "planted: a routine that writes only the upper halves of v8, v15 passes",
         why);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    why = call_checked((void *)bad[i].fn, noargs, buf, sizeof buf);
    snprintf(label, sizeof label, "planted: a routine that %s is reported", bad[i].what);
    result(why != NULL, label, why);
  }
}

int main(void) {
  const char *chosen = mldsa_test_isa_gate("test_abi");
  mldsa_test_seed_rng("test_abi");
  planted_checks();
  unsigned skipped = 0;
#if defined(MLDSA_HAVE_NEON)
  if (strcmp(chosen, "neon") == 0) {
    if (!mldsa_cpu_has_neon()) {
      printf("test_abi: neon: the CPU lacks it: %u kernels skipped\n", (unsigned)ABI_NUM_KERNELS);
      skipped += ABI_NUM_KERNELS;
    } else {
      const size_t nbodies = sizeof keccak_bodies / sizeof keccak_bodies[0];
      for (size_t k = 0; k < ABI_NUM_KERNELS + nbodies; ++k) {
        const abi_kernel *kern;
        char label[120];
        if (k < ABI_NUM_KERNELS) {
          kern = &abi_kernels_neon[k];
          snprintf(label, sizeof label, "mldsa_%s_neon", kern->name);
        } else {
          kern = &keccak_bodies[k - ABI_NUM_KERNELS].k;
          snprintf(label, sizeof label, "mldsa_%s", kern->name);
          if (keccak_bodies[k - ABI_NUM_KERNELS].needs_sha3 && !mldsa_cpu_has_neon_sha3()) {
            printf("test_abi: %s: skipped (the CPU lacks SHA3)\n", label);
            ++skipped;
            continue;
          }
        }
        char buf[200];
        const char *why = NULL;
        for (unsigned it = 0; it < ABI_ITERATIONS && why == NULL; ++it) {
          uint64_t args[4];
          abi_fill_inputs();
          abi_kernel_args(kern->shape, args, it);
          why = call_checked(kern->fn, args, buf, sizeof buf);
        }
        result(why == NULL, label, why);
      }
    }
  }
#else
  (void)chosen;
#endif
  printf("test_abi: %u passed, %u failed, %u skipped\n", passed, failed, skipped);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
