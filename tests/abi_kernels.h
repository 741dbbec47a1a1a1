/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The assembly kernels the ABI tests call (tests/test_abi.c on x86-64,
 * tests/test_abi_aarch64.c on AArch64), each with arguments inside its contract. Every
 * kernel of src/kernels.h, mldsa_keccak_f1600_batch_<isa> (src/fips202x.h) and
 * mldsa_keccak_f1600_x1_<isa> (src/fips202.h) is listed once in ABI_KERNELS;
 * ci/ct_static fails when an assembly function has no ABI_KERNEL(isa, <name>, ...) line
 * here. abi_kernels_<isa>[] is the table of each assembly ISA of the build. */
#ifndef MLDSA_TEST_ABI_KERNELS_H
#define MLDSA_TEST_ABI_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "fips202.h"
#include "fips202x.h"
#include "kernels.h"
#include "test_common.h"

enum abi_shape { ONE_POLY, THREE_POLY, ACC, CHKNORM, KECCAK, REJ, UNPACK, PACK };

typedef struct {
  const char *name;
  enum abi_shape shape;
  void *fn;
} abi_kernel;

#define ABI_KERNELS(ABI_KERNEL, isa)                  \
  ABI_KERNEL(isa, ntt, ONE_POLY)                      \
  ABI_KERNEL(isa, invntt_tomont, ONE_POLY)            \
  ABI_KERNEL(isa, ntt_reorder, ONE_POLY)              \
  ABI_KERNEL(isa, pointwise_montgomery, THREE_POLY)   \
  ABI_KERNEL(isa, pointwise_acc, ACC)                 \
  ABI_KERNEL(isa, add, THREE_POLY)                    \
  ABI_KERNEL(isa, sub, THREE_POLY)                    \
  ABI_KERNEL(isa, reduce32, ONE_POLY)                 \
  ABI_KERNEL(isa, caddq, ONE_POLY)                    \
  ABI_KERNEL(isa, shiftl, ONE_POLY)                   \
  ABI_KERNEL(isa, power2round, THREE_POLY)            \
  ABI_KERNEL(isa, decompose_g88, THREE_POLY)          \
  ABI_KERNEL(isa, decompose_g32, THREE_POLY)          \
  ABI_KERNEL(isa, make_hint_g88, THREE_POLY)          \
  ABI_KERNEL(isa, make_hint_g32, THREE_POLY)          \
  ABI_KERNEL(isa, use_hint_g88, THREE_POLY)           \
  ABI_KERNEL(isa, use_hint_g32, THREE_POLY)           \
  ABI_KERNEL(isa, chknorm, CHKNORM)                   \
  ABI_KERNEL(isa, unpack_z_g17, UNPACK)               \
  ABI_KERNEL(isa, unpack_z_g19, UNPACK)               \
  ABI_KERNEL(isa, pack_w1_g88, PACK)                  \
  ABI_KERNEL(isa, pack_w1_g32, PACK)                  \
  ABI_KERNEL(isa, pack_z_g17, PACK)                   \
  ABI_KERNEL(isa, pack_z_g19, PACK)                   \
  ABI_KERNEL(isa, keccak_f1600_batch, KECCAK)         \
  ABI_KERNEL(isa, keccak_f1600_x1, KECCAK)            \
  ABI_KERNEL(isa, rej_uniform, REJ)                   \
  ABI_KERNEL(isa, rej_eta2, REJ)                      \
  ABI_KERNEL(isa, rej_eta4, REJ)

#define ABI_ENTRY(isa, name, shape) {#name, shape, (void *)mldsa_##name##_##isa},
#define ABI_DEFINE_TABLE(isa) \
  static const abi_kernel abi_kernels_##isa[] = {ABI_KERNELS(ABI_ENTRY, isa)};
MLDSA_FOR_EACH_ASM_ISA(ABI_DEFINE_TABLE)
#define ABI_COUNT(isa, name, shape) +1
#define ABI_NUM_KERNELS (0 ABI_KERNELS(ABI_COUNT, x))

#define ABI_ITERATIONS 16
static _Alignas(64) int32_t abi_buf_c[8 * MLDSA_N], abi_buf_a[8 * MLDSA_N],
    abi_buf_b[8 * MLDSA_N];
static _Alignas(64) uint64_t abi_states[25 * MLDSA_KECCAKX_MAXW];

/* Inputs inside every kernel's contract: coefficients in [0, q), hints 0/1 where read. */
static inline void abi_fill_inputs(void) {
  for (size_t i = 0; i < 8 * MLDSA_N; ++i) {
    abi_buf_a[i] = (int32_t)mldsa_test_randbelow(MLDSA_Q);
    abi_buf_b[i] = (int32_t)mldsa_test_randbelow(2);
    abi_buf_c[i] = (int32_t)mldsa_test_randbelow(MLDSA_Q);
  }
  mldsa_test_randbytes((uint8_t *)abi_states, sizeof abi_states);
}

/* The first four integer arguments of a kernel of this shape. */
static inline void abi_kernel_args(enum abi_shape s, uint64_t args[4], unsigned iteration) {
  uintptr_t c = (uintptr_t)abi_buf_c, a = (uintptr_t)abi_buf_a, b = (uintptr_t)abi_buf_b;
  args[0] = args[1] = args[2] = args[3] = 0;
  switch (s) {
    case ONE_POLY:
      args[0] = c;
      break;
    case THREE_POLY:
      args[0] = c, args[1] = a, args[2] = b;
      break;
    case ACC:
      args[0] = c, args[1] = a, args[2] = b, args[3] = 1 + iteration % 8;
      break;
    case CHKNORM:
      args[0] = a, args[1] = (MLDSA_Q - 1) / 8;
      break;
    case KECCAK:
      args[0] = (uintptr_t)abi_states;
      break;
    case REJ: /* a, n, buf, len: 840 random bytes (rej_uniform: 5 SHAKE128 blocks) */
      args[0] = c, args[1] = (iteration * 37) % 257, args[2] = a, args[3] = 840;
      break;
    case UNPACK: /* a, buf: 640 bytes or fewer of the random words */
      args[0] = c, args[1] = a;
      break;
    case PACK: /* out, a: the hints' 0/1 words are in every encoder's domain */
      args[0] = c, args[1] = b;
      break;
  }
}

#endif
