/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* FIPS 202: Keccak-f[1600], SHAKE128/256 (incremental) and SHA3-224/256/384/512. */
#ifndef MLDSA_FIPS202_H
#define MLDSA_FIPS202_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "isas.h"

#define MLDSA_SHAKE128_RATE 168
#define MLDSA_SHAKE256_RATE 136

/* Keccak lanes are little-endian 64-bit words: a plain copy where the CPU is, bytewise
 * elsewhere (s390x: ci/cross), and bytewise too where the compiler does not say its byte
 * order (without defined(), a compiler with neither macro would compare 0 == 0 and take
 * the copy). */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MLDSA_HOST_LE 1
#else
#define MLDSA_HOST_LE 0
#endif

static inline uint64_t mldsa_load64_le(const uint8_t *p) {
  uint64_t v = 0;
#if MLDSA_HOST_LE
  memcpy(&v, p, 8);
#else
  for (unsigned i = 0; i < 8; ++i) v |= (uint64_t)p[i] << (8 * i);
#endif
  return v;
}

static inline void mldsa_store64_le(uint8_t *p, uint64_t v) {
#if MLDSA_HOST_LE
  memcpy(p, &v, 8);
#else
  for (unsigned i = 0; i < 8; ++i) p[i] = (uint8_t)(v >> (8 * i));
#endif
}

/* An incremental sponge: init, absorb any number of times, finalize, squeeze any number
 * of times. */
typedef void (*mldsa_permutation)(uint64_t s[25]);

typedef struct {
  uint64_t s[25];
  unsigned pos;            /* byte position in the current block */
  unsigned rate;           /* bytes per block */
  mldsa_permutation perm;  /* Keccak-f[1600]: the portable one or an ISA's */
} mldsa_keccak;

void mldsa_keccak_f1600(uint64_t s[25]);

/* mldsa_keccak_f1600_x1_<isa>(s): the same permutation, one per ISA of MLDSA_FOR_EACH_ISA:
 * the generated assembly for sse2, avx2, avx512, neon (asm_out/<isa>/keccak_f1600_x1.S; neon:
 * src/keccak_neon.c picks its SHA3 or base body), the C
 * permutation above for scalar. s is 8-byte aligned; no branch or address depends on it. */
#define MLDSA_DECLARE_KECCAK_X1(isa) void mldsa_keccak_f1600_x1_##isa(uint64_t s[25]);
MLDSA_FOR_EACH_ISA(MLDSA_DECLARE_KECCAK_X1)

/* The sponges use the portable permutation, or the given one (an ISA's
 * mldsa_keccak_f1600_x1_<isa>, from code compiled for that ISA): same bytes either way. */
void mldsa_shake128_init(mldsa_keccak *st);
void mldsa_shake256_init(mldsa_keccak *st);
void mldsa_shake256_init_with(mldsa_keccak *st, mldsa_permutation perm);
void mldsa_shake_absorb(mldsa_keccak *st, const uint8_t *in, size_t len);
void mldsa_shake_finalize(mldsa_keccak *st);
void mldsa_shake_squeeze(mldsa_keccak *st, uint8_t *out, size_t len);

/* A sponge input in pieces, absorbed one after another (mu's tr || M': tr, the domain
 * and context length bytes, the context, the message). */
typedef struct {
  const uint8_t *p[4];
  size_t len[4];
  unsigned n;
} mldsa_hash_input;

/* One-shot helpers. */
void mldsa_shake128(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);
void mldsa_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);
void mldsa_shake256_with(mldsa_permutation perm, uint8_t *out, size_t outlen,
                         const uint8_t *in, size_t inlen);
void mldsa_sha3_224(uint8_t out[28], const uint8_t *in, size_t inlen);
void mldsa_sha3_256(uint8_t out[32], const uint8_t *in, size_t inlen);
void mldsa_sha3_384(uint8_t out[48], const uint8_t *in, size_t inlen);
void mldsa_sha3_512(uint8_t out[64], const uint8_t *in, size_t inlen);

#endif
