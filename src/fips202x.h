/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Batched SHAKE128 / SHAKE256: W independent streams through one W-way Keccak-f[1600],
 * for the samplers of ML-DSA (ExpandA, ExpandS, ExpandMask), which hash many seeds of
 * the same length at once.
 *
 * W depends on the ISA (MLDSA_KECCAKX_W(isa)): 1 on scalar (the single-state
 * mldsa_keccak_f1600), 2 on sse2, 4 on avx2, 8 on avx512, 2 on neon (asm_out/<isa>/
 * keccak_f1600_batch.S). Every function exists for every ISA of MLDSA_FOR_EACH_ISA, as
 * mldsa_<function>_<isa>, so code compiled per ISA calls the same API everywhere:
 *
 *   mldsa_keccakx st;
 *   mldsa_shake128x_absorb_avx2(&st, in, 34, n);          in[0..n-1], 34 bytes each
 *   mldsa_shake128x_squeezeblocks_avx2(out, 5, &st, n);  out[0..n-1], 5 * 168 bytes each
 *   mldsa_zeroize(&st, sizeof st);                      when the inputs were secret
 *
 * Streams: n in 1..W streams are in use (n > W counts as W); in[j], out[j] for j < n
 * only, the other lanes of the state are permuted along and never read. Stream j's
 * output is exactly mldsa_shake128/256(in[j], inlen)'s, block after block.
 *
 * The state: lane i (0..24) of stream j is s[i * W + j] (the kernel's layout), aligned
 * for every ISA's vectors. It holds secrets when the inputs are secret; the caller wipes
 * it. Not thread-safe per state (no shared state otherwise). */
#ifndef MLDSA_FIPS202X_H
#define MLDSA_FIPS202X_H

#include <stddef.h>
#include <stdint.h>

#include "fips202.h"
#include "isas.h"

#define MLDSA_KECCAKX_MAXW 8

/* Lanes (streams) per ISA; MLDSA_KECCAKX_W(MLDSA_ISA) works where MLDSA_ISA is a macro. */
#define MLDSA_KECCAKX_W_scalar 1
#define MLDSA_KECCAKX_W_sse2 2
#define MLDSA_KECCAKX_W_avx2 4
#define MLDSA_KECCAKX_W_avx512 8
/* neon: two states per .2d vector. Counted in executed instructions per call
 * (bench/aarch64/counts.txt, kernel table; the C permutation mldsa_keccak_f1600 is
 * 3,683): the base bodies (Armv8.0) x1 2,552 (lazy rotation: rho costs nothing in the
 * general registers), batch 3,900 (1,950 per state) = 76% of two x1 calls, although each
 * NEON rotation is shl + sri; the SHA3 bodies x1 1,667, batch 1,668 = 50%. So the 2-way
 * batch is still worth it with SHA3 and without, and W stays 2. */
#define MLDSA_KECCAKX_W_neon 2
#define MLDSA_KECCAKX_W_(isa) MLDSA_KECCAKX_W_##isa
#define MLDSA_KECCAKX_W(isa) MLDSA_KECCAKX_W_(isa)

/* The time of one batched permutation in hundredths of a single-state one, per ISA: the
 * larger of two measurements (mldsa-bench, median ticks of one call; AMD Zen 4: sse2
 * 962 / 702, avx2 936 / 702, avx512 1,196 / 546; Intel Xeon model 167: 1,020 / 548,
 * 990 / 550, 794 / 552). For choosing how long a hash rides in a batch. */
#define MLDSA_KECCAKX_COST_scalar 100
#define MLDSA_KECCAKX_COST_sse2 186
#define MLDSA_KECCAKX_COST_avx2 180
#define MLDSA_KECCAKX_COST_avx512 219
/* neon, from executed-instruction counts (no AArch64 timing yet). The base bodies' ratio
 * is now 3,900 / 2,552 (SHA3: 1,668 / 1,667), but COST 153 was counted (bench/aarch64)
 * and made verify dearer on both CPU models (neoverse-n1: +0.9% to +1.6%; max, with
 * SHA3: +2.1% to +3.7%; keygen and sign unchanged): the longer stay of verify's hash
 * beside ExpandA that 120 picks pays for itself on the base bodies too, which the ratio
 * alone does not predict. So COST stays 120. */
#define MLDSA_KECCAKX_COST_neon 120
#define MLDSA_KECCAKX_COST_(isa) MLDSA_KECCAKX_COST_##isa
#define MLDSA_KECCAKX_COST(isa) MLDSA_KECCAKX_COST_(isa)

typedef struct {
  _Alignas(64) uint64_t s[25 * MLDSA_KECCAKX_MAXW];
} mldsa_keccakx;

/* mldsa_keccak_f1600_batch_<isa>(states): Keccak-f[1600] on W states, lane i of state j
 *   at states[i * W + j]; states 8-byte aligned (64 is best). The generated assembly for
 *   sse2, avx2, avx512 and neon (neon: src/keccak_neon.c picks its SHA3 or base body);
 *   mldsa_keccak_f1600 for scalar (W = 1).
 * mldsa_shake{128,256}x_absorb_<isa>(st, in, inlen, n): st = the SHAKE sponge of each
 *   in[j] (inlen bytes, any length, the same for every stream), padded and ready to
 *   squeeze. Absorb once: this also initialises st.
 * mldsa_shake{128,256}x_squeezeblocks_<isa>(out, nblocks, st, n): the next nblocks whole
 *   blocks (168 bytes for SHAKE128, 136 for SHAKE256) of each stream into out[j]; may be
 *   called again for more.
 * mldsa_shake256x_pieces_<isa>(st, out, outlen, in, n): n <= W independent SHAKE256
 *   hashes whose inputs (each in pieces) may differ in length, outlen <= 136 bytes of
 *   each into out[j]: the lanes run together until the longest input is absorbed, and a
 *   lane whose input ended sooner is read after its own last block and then idles. The
 *   number of permutations depends on the lengths only (public); st holds the inputs
 *   afterwards and is the caller's to wipe.
 * mldsa_keccakx_permute_<isa>(st, lanes): the batched permutation on st, for callers that
 *   run the sponges of each lane themselves (expand.c's lane scheduler); lanes is how
 *   many lanes carry a stream (only counted, by mldsa-bench --keccak). */
#define MLDSA_DECLARE_KECCAKX(isa)                                                                 \
  void mldsa_keccak_f1600_batch_##isa(uint64_t *states);                                           \
  void mldsa_keccakx_permute_##isa(mldsa_keccakx *st, unsigned lanes);                             \
  void mldsa_shake128x_absorb_##isa(mldsa_keccakx *st, const uint8_t *const *in, size_t inlen,     \
                                    unsigned n);                                                   \
  void mldsa_shake256x_absorb_##isa(mldsa_keccakx *st, const uint8_t *const *in, size_t inlen,     \
                                    unsigned n);                                                   \
  void mldsa_shake128x_squeezeblocks_##isa(uint8_t *const *out, size_t nblocks, mldsa_keccakx *st, \
                                           unsigned n);                                            \
  void mldsa_shake256x_squeezeblocks_##isa(uint8_t *const *out, size_t nblocks, mldsa_keccakx *st, \
                                           unsigned n);                                            \
  void mldsa_shake256x_pieces_##isa(mldsa_keccakx *st, uint8_t *const *out, size_t outlen,         \
                                    const mldsa_hash_input *in, unsigned n);

MLDSA_FOR_EACH_ISA(MLDSA_DECLARE_KECCAKX)

#endif
