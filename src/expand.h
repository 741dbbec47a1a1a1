/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* ExpandA, ExpandS and ExpandMask (FIPS 204 Alg. 32-34) on the batched SHAKE of one ISA,
 * compiled once per parameter set and ISA (expand.c): mldsa<set>_expand_a_<isa> ... */
#ifndef MLDSA_EXPAND_H
#define MLDSA_EXPAND_H

#include "fips202x.h"
#include "isa_names.h"
#include "poly.h"

#define expand_a ENTRY(expand_a)
#define expand_a_hash ENTRY(expand_a_hash)
#define expand_a_hash_begin ENTRY(expand_a_hash_begin)
#define expand_a_s ENTRY(expand_a_s)
#define hash_finish ENTRY(hash_finish)
#define expand_mask ENTRY(expand_mask)
#define hash_beside_mask ENTRY(hash_beside_mask)

/* Where a hash's input stands: the piece being read and the bytes left in all. */
typedef struct {
  mldsa_hash_input in;
  unsigned piece;
  size_t off, left;
} input_cursor;

/* A hash that left the batch (or never rode in one): its sponge and the input it has not
 * absorbed yet; left = 0 when it was finished in the batch. */
typedef struct {
  mldsa_keccak sponge;
  input_cursor rest;
  int left;
} hash_rest;

/* ExpandA's polynomials first .. end - 1 (in row order, K L in all), in NTT domain and
 * standard order (the caller reorders for its ISA). */
void expand_a(mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES], unsigned first,
              unsigned end);
/* ExpandA and, in the same batched permutations, an independent stream: a SHAKE256 hash
 * of outlen <= 136 bytes (tr = H(pk) in verify and prepare_public, mu = H(tr || M') in
 * sign). Same results as each alone. */
void expand_a_hash(mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES], uint8_t *out,
                   size_t outlen, const mldsa_hash_input *in);
/* ExpandA's polynomials first .. K L - 1 and the start of such a hash, of which only the
 * first `ready` bytes of input are final yet (pk while t is computed a row at a time);
 * hash_finish(h, out, outlen) finishes it once all its input is. The bytes after `ready`
 * are read there, not before; ready = all of them makes the two expand_a_hash. */
void expand_a_hash_begin(mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES], unsigned first,
                         uint8_t *out, size_t outlen, const mldsa_hash_input *in, size_t ready,
                         hash_rest *h);
void hash_finish(hash_rest *h, uint8_t *out, size_t outlen);
/* ExpandA's polynomials 0 .. end - 1 and ExpandS in the same batched permutations. */
void expand_a_s(mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES], unsigned end,
                mldsa_polyvecl *s1, mldsa_polyveck *s2, const uint8_t rhoprime[MLDSA_CRHBYTES]);
/* ExpandMask's polynomials y_kappa, y_kappa+1, ... are one sequence (nonce kappa + r for
 * attempt kappa / L): the stream computes them W at a time, one Keccak batch each, so no
 * lane of a batch is wasted at the end of an attempt's L. Holds secrets: the caller wipes
 * it. */
#define MLDSA_MASK_BLOCKS \
  ((MLDSA_POLYZ_PACKEDBYTES + MLDSA_SHAKE256_RATE - 1) / MLDSA_SHAKE256_RATE)
/* Room for a refill of W and for an attempt's L; the polynomials that c~'s hash computes
 * beside it wait there for the next attempt. With W = L, W - 1 more slots: else a refill
 * leaves W - 1 behind and the next hash finds room for one. */
#define MLDSA_MASK_W MLDSA_KECCAKX_W(MLDSA_ISA)
#define MLDSA_MASK_SLOTS \
  (MLDSA_MASK_W > MLDSA_L ? MLDSA_MASK_W : MLDSA_MASK_W == MLDSA_L ? 2 * MLDSA_L - 1 : MLDSA_L)
typedef struct {
  /* the SHAKE256 output of each polynomial (its first MLDSA_POLYZ_PACKEDBYTES bytes are
   * the encoding of y), squeezed in place: smaller than the polynomials themselves; a
   * ring of MLDSA_MASK_SLOTS */
  uint8_t buf[MLDSA_MASK_SLOTS][MLDSA_MASK_BLOCKS * MLDSA_SHAKE256_RATE];
  unsigned head;  /* the slot of the next unused polynomial */
  unsigned count; /* how many are computed and unused */
  uint16_t nonce; /* the nonce of the polynomial after the last computed one */
} mask_stream;

#define mask_stream_init ENTRY(mask_stream_init)
/* An empty stream whose first polynomial will be y with nonce 0 (FIPS 204's kappa = 0). */
void mask_stream_init(mask_stream *ms);
/* y = the next L polynomials of the sequence: attempt k gets nonces k L .. k L + L - 1. */
void expand_mask(mldsa_polyvecl *y, mask_stream *ms, const uint8_t rhoprime[MLDSA_CRHBYTES]);
/* A SHAKE256 hash of inlen >= MLDSA_MASK_BLOCKS * 136 bytes (c~ = H(mu || w1) of an
 * attempt) with the next polynomials of the sequence (up to W - 1, as many as the stream
 * has room for) in the other lanes of the batched permutations that absorb its first
 * MLDSA_MASK_BLOCKS blocks; the rest on the single-state permutation. The same hash as
 * alone, and the same stream. */
void hash_beside_mask(mask_stream *ms, const uint8_t rhoprime[MLDSA_CRHBYTES], uint8_t *out,
                      size_t outlen, const uint8_t *in, size_t inlen);

#endif
