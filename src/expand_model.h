/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Keccak cost model that places hashes beside ExpandA (expand.c) and splits ExpandA
 * around pk's hash (sign.c's make_public), per parameter set and ISA. Static inline, so
 * that each choice folds to a constant where its lengths are. Costs are in hundredths of
 * a single-state permutation; a batched permutation costs this ISA's MLDSA_KECCAKX_COST.
 * Every choice depends only on lengths, never on data. */
#ifndef MLDSA_EXPAND_MODEL_H
#define MLDSA_EXPAND_MODEL_H

#include <stddef.h>

#include "fips202x.h"
#include "params.h"

#define MLDSA_MODEL_W MLDSA_KECCAKX_W(MLDSA_ISA)
#define MLDSA_MODEL_COST MLDSA_KECCAKX_COST(MLDSA_ISA)
/* Blocks per stream: ExpandA's (840 bytes = 280 candidates for 256 coefficients, p =
 * 0.999), ExpandS's (272 bytes = 544 half-bytes for 256 coefficients). */
#define A_ROUND_BLOCKS 5
#define S_BLOCKS 2

/* A hash beside ExpandA's n_a polynomials takes one lane for their last `stay` rounds.
 * A round in which the hash has a lane leaves one polynomial to a later round, so a stay
 * longer than the free lanes of the last round adds a round. stay_cost() weighs the
 * batched permutations (counting an added round at 1.5 times its cost: the ratio differs
 * from CPU to CPU, and an added round must pay for itself wherever it runs) against the
 * single-state ones the stay saves; of the hash's `blocks` permutations, at most `ready`
 * can ride (those whose input block is final). */
static inline size_t stay_cost(unsigned stay, unsigned n_a, size_t blocks, size_t ready) {
  const unsigned w = MLDSA_MODEL_W;
  const unsigned rounds = (n_a + w - 1) / w;
  const unsigned first = (rounds - stay) * w; /* polynomials in bulk */
  const unsigned sched = (n_a - first + stay + w - 1) / w;
  const unsigned added = sched - stay; /* rounds beyond ExpandA's own */
  const size_t batched = (size_t)A_ROUND_BLOCKS * (2 * rounds + 3 * added) / 2;
  const size_t most = (size_t)A_ROUND_BLOCKS * stay;
  const size_t rides = most < ready ? most : ready;
  return batched * MLDSA_MODEL_COST + (blocks - rides) * 100;
}

/* A SHAKE256 hash's permutations, and how many of them have their input block final
 * when only `ready` of its inlen bytes are (all, padding included, when ready = inlen). */
static inline size_t hash_blocks(size_t inlen) { return inlen / MLDSA_SHAKE256_RATE + 1; }
static inline size_t ready_blocks(size_t inlen, size_t ready) {
  return ready < inlen ? ready / MLDSA_SHAKE256_RATE : hash_blocks(inlen);
}

/* The cheapest stay beside n_a polynomials (0: the hash alone, where nothing is saved,
 * as always on scalar, whose batch is the single-state permutation); its cost in *cost
 * unless cost is NULL. */
static inline unsigned best_stay(unsigned n_a, size_t inlen, size_t ready, size_t *cost) {
  const unsigned rounds = (n_a + MLDSA_MODEL_W - 1) / MLDSA_MODEL_W;
  const size_t blocks = hash_blocks(inlen), rb = ready_blocks(inlen, ready);
  unsigned stay = 0;
  size_t best = stay_cost(0, n_a, blocks, rb);
  for (unsigned s = 1; s <= rounds && (size_t)A_ROUND_BLOCKS * (s - 1) < rb; ++s) {
    const size_t c = stay_cost(s, n_a, blocks, rb);
    if (c < best) stay = s, best = c;
  }
  if (cost != NULL) *cost = best;
  return stay;
}

/* ExpandA's polynomials 0 .. end - 1 with n_s of ExpandS's beside them (expand_a_s; n_s
 * = 0: expand_a): a round whose lanes are not all used costs a whole one. */
static inline size_t expand_a_s_cost(unsigned end, unsigned n_s) {
  const unsigned w = MLDSA_MODEL_W, full = end / w, part = end % w;
  size_t calls = (size_t)full * A_ROUND_BLOCKS;
  if (part == 0) {
    calls += (n_s + w - 1) / w * S_BLOCKS;
  } else {
    const size_t shared = ((size_t)part * A_ROUND_BLOCKS + (size_t)S_BLOCKS * n_s + w - 1) / w;
    calls += shared > A_ROUND_BLOCKS ? shared : A_ROUND_BLOCKS;
  }
  return calls * MLDSA_MODEL_COST;
}

/* Polynomials that run through the lane scheduler, a block at a time, rather than the
 * bulk squeeze: in expand_a_s up to end (with n_s > 0), and beside a hash that stays. */
static inline unsigned scheduled_polys(unsigned end, unsigned n_s) {
  const unsigned part = end % MLDSA_MODEL_W;
  return part != 0 && n_s != 0 ? part + n_s : 0;
}
static inline unsigned scheduled_beside_hash(unsigned n_a, unsigned stay) {
  const unsigned rounds = (n_a + MLDSA_MODEL_W - 1) / MLDSA_MODEL_W;
  return stay == 0 ? 0 : n_a - (rounds - stay) * MLDSA_MODEL_W;
}
/* What each of them costs more than in bulk, in C around the kernels (a block's lane
 * extracted and sampled alone): about half a single-state permutation, measured on AMD
 * Zen 5, where a split that moved eight of ML-DSA-65's polynomials there on avx512
 * gained nothing of the 6% the model without it predicted. */
#define SCHEDULED_POLY_COST 50

/* pk = rho || t1 is hashed into tr as it is made: ExpandA runs in two parts, rows 0 ..
 * split - 1 first (with n_s of ExpandS's polynomials beside them: keygen's), then, once
 * those rows of t1 are in pk, the other rows with pk's bytes so far hashed in a lane of
 * their batches; the single-state permutation absorbs the rest. The split with the
 * least modelled cost wins; K (no split: the hash alone after all of ExpandA) where
 * splitting saves nothing, as on scalar. */
static inline size_t split_cost(unsigned rows, unsigned n_s) {
  const unsigned first = rows * MLDSA_L, n_a = MLDSA_K * MLDSA_L - first;
  const size_t ready = rows == MLDSA_K ? MLDSA_PUBLICKEYBYTES
                                       : MLDSA_SEEDBYTES + rows * MLDSA_POLYT1_PACKEDBYTES;
  size_t hash;
  const unsigned stay = best_stay(n_a, MLDSA_PUBLICKEYBYTES, ready, &hash);
  const unsigned scheduled = scheduled_polys(first, n_s) + scheduled_beside_hash(n_a, stay);
  return expand_a_s_cost(first, n_s) + hash + (size_t)SCHEDULED_POLY_COST * scheduled;
}
static inline unsigned public_split(unsigned n_s) {
  unsigned split = MLDSA_K;
  size_t best = split_cost(MLDSA_K, n_s);
  for (unsigned rows = 1; rows < MLDSA_K; ++rows) {
    const size_t cost = split_cost(rows, n_s);
    if (cost < best) split = rows, best = cost;
  }
  return split;
}

#endif
