/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The two bodies of each AArch64 Keccak-f[1600] kernel (asm_out/neon/keccak_f1600_x1.S,
 * keccak_f1600_batch.S) and the choice between them. mldsa_keccak_f1600_x1_neon and
 * mldsa_keccak_f1600_batch_neon (fips202.h, fips202x.h) call the SHA3 body where
 * getauxval(AT_HWCAP) has HWCAP_SHA3, the base (Armv8.0) body elsewhere; the choice is
 * made here, in C, once per process, never in the assembly. */
#ifndef MLDSA_KECCAK_NEON_H
#define MLDSA_KECCAK_NEON_H

#include <stdint.h>

#if defined(MLDSA_HAVE_NEON)
void mldsa_keccak_f1600_x1_neon_base(uint64_t s[25]);
void mldsa_keccak_f1600_x1_neon_sha3(uint64_t s[25]); /* needs FEAT_SHA3 */
void mldsa_keccak_f1600_batch_neon_base(uint64_t *states);
void mldsa_keccak_f1600_batch_neon_sha3(uint64_t *states); /* needs FEAT_SHA3 */

/* 1 when the CPU has the Armv8.2 SHA3 instructions (src/cpu.c: AT_HWCAP & MLDSA_HWCAP_SHA3
 * on Linux and FreeBSD, sysctl hw.optional.arm.FEAT_SHA3 on macOS). */
int mldsa_cpu_has_neon_sha3(void);

/* "sha3" or "base": the body the neon entries call on this CPU. */
const char *mldsa_keccak_neon_body(void);
#endif

#endif
