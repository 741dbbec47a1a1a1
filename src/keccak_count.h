/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Keccak permutation counters, for mldsa-bench --keccak only.
 *
 * The shipped library has none: the macros below are empty unless MLDSA_KECCAK_COUNTING
 * is defined, and only the benchmark's own copy of the sponges (fips202.c and fips202x.c
 * compiled again with it, the object library mldsa_keccak_counting in CMakeLists.txt) is
 * built that way. The benchmark links that copy ahead of the static library, so the
 * library's own sponge objects are never pulled in (a duplicate would fail the link).
 * Chosen over a hook pointer in the library: no writable function pointer, no branch and
 * no global state in what ships. Not thread-safe: the benchmark is single-threaded.
 *
 * Counted where the sponges call a permutation: every single-state Keccak-f[1600]
 * (mu, tr, c~, rho'', SampleInBall, ...), and every call of the batched permutation with
 * the number of its lanes that carry a stream (the others are permuted along idle). The
 * scalar ISA's batched SHAKE is one lane wide (W = 1). */
#ifndef MLDSA_KECCAK_COUNT_H
#define MLDSA_KECCAK_COUNT_H

#include <stdint.h>

#if defined(MLDSA_KECCAK_COUNTING)
typedef struct {
  uint64_t x1;       /* single-state permutations */
  uint64_t batch[9]; /* batched calls by lanes used, 1..8 (MLDSA_KECCAKX_MAXW) */
} mldsa_keccak_counts;
extern mldsa_keccak_counts mldsa_keccak_counter;
#define MLDSA_COUNT_X1() (++mldsa_keccak_counter.x1)
#define MLDSA_COUNT_BATCH(lanes) (++mldsa_keccak_counter.batch[(lanes)])
#else
#define MLDSA_COUNT_X1() ((void)0)
#define MLDSA_COUNT_BATCH(lanes) ((void)(lanes))
#endif

#endif
