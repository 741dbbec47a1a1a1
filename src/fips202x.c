/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Batched SHAKE128 / SHAKE256 over W streams (fips202x.h), compiled once: the generic
 * sponge below is instantiated for every ISA of MLDSA_FOR_EACH_ISA with that ISA's W and
 * permutation. Lanes are read and written as little-endian words (mldsa_load64_le, mldsa_store64_le), so
 * the code is endian-neutral; none of it depends on the data (constant time). */
#include "fips202x.h"

#include <string.h>

#include "keccak_count.h"
#include "seams.h"
#include "util.h"

/* The permutation kernel, after the kernel probe of the test seams (seams.h). */
#define PERMUTE(perm, state) (MLDSA_SEAM_PROBE(), (perm)(state))

/* W = 1 on the portable backend: the single-state permutation. */
void mldsa_keccak_f1600_batch_scalar(uint64_t *states) { mldsa_keccak_f1600(states); }


/* Absorb n streams of inlen bytes into a zeroed state, pad each (SHAKE domain bits 1111,
 * then pad10*1); squeezing then starts with a permutation. */
static inline void absorb(uint64_t *s, unsigned w, void (*perm)(uint64_t *), unsigned rate,
                          const uint8_t *const *in, size_t inlen, unsigned n) {
  size_t off = 0;
  if (n > w) n = w;
  memset(s, 0, 25 * w * sizeof *s);
  for (; inlen - off >= rate; off += rate) {
    for (unsigned j = 0; j < n; ++j)
      for (unsigned i = 0; i < rate / 8; ++i) s[i * w + j] ^= mldsa_load64_le(in[j] + off + 8 * i);
    MLDSA_COUNT_BATCH(n);
    PERMUTE(perm, s);
  }
  size_t rem = inlen - off;
  for (unsigned j = 0; j < n; ++j) {
    const uint8_t *p = in[j] + off;
    size_t i = 0;
    for (; i + 8 <= rem; i += 8) s[i / 8 * w + j] ^= mldsa_load64_le(p + i);
    for (; i < rem; ++i) s[i / 8 * w + j] ^= (uint64_t)p[i] << (8 * (i % 8));
    s[rem / 8 * w + j] ^= (uint64_t)0x1F << (8 * (rem % 8));
    s[(rate - 1) / 8 * w + j] ^= (uint64_t)0x80 << (8 * ((rate - 1) % 8));
  }
}

static inline void squeezeblocks(uint8_t *const *out, size_t nblocks, uint64_t *s, unsigned w,
                                 void (*perm)(uint64_t *), unsigned rate, unsigned n) {
  if (n > w) n = w;
  for (size_t off = 0; nblocks > 0; --nblocks, off += rate) {
    MLDSA_COUNT_BATCH(n);
    PERMUTE(perm, s);
    for (unsigned j = 0; j < n; ++j)
      for (unsigned i = 0; i < rate / 8; ++i) mldsa_store64_le(out[j] + off + 8 * i, s[i * w + j]);
  }
}

/* The bytes [off, off + len) of the concatenation of in's pieces into buf. */
static void gather(uint8_t *buf, const mldsa_hash_input *in, size_t off, size_t len) {
  for (unsigned k = 0; k < in->n && len > 0; ++k) {
    if (off >= in->len[k]) {
      off -= in->len[k];
      continue;
    }
    size_t take = in->len[k] - off < len ? in->len[k] - off : len;
    memcpy(buf, in->p[k] + off, take);
    buf += take;
    len -= take;
    off = 0;
  }
}

/* n SHAKE256 hashes of inputs of different lengths on one w-way state: block b of every
 * lane that still has input (or its padding) goes in before permutation b; a lane is
 * read right after the permutation of its padded block. Everything that steers the loop
 * is a length. */
static inline void shake256_pieces(uint64_t *s, unsigned w, void (*perm)(uint64_t *),
                                   uint8_t *const *out, size_t outlen,
                                   const mldsa_hash_input *in, unsigned n) {
  enum { RATE = MLDSA_SHAKE256_RATE };
  size_t total[MLDSA_KECCAKX_MAXW], blocks = 0;
  uint8_t buf[RATE];
  if (n > w) n = w;
  for (unsigned j = 0; j < n; ++j) {
    total[j] = 0;
    for (unsigned k = 0; k < in[j].n; ++k) total[j] += in[j].len[k];
    if (total[j] / RATE + 1 > blocks) blocks = total[j] / RATE + 1;
  }
  memset(s, 0, 25 * w * sizeof *s);
  for (size_t b = 0; b < blocks; ++b) {
    unsigned lanes = 0;
    for (unsigned j = 0; j < n; ++j) {
      if (total[j] / RATE < b) continue; /* read already */
      ++lanes;
      size_t off = b * RATE, len = total[j] - off < RATE ? total[j] - off : RATE;
      memset(buf, 0, RATE);
      gather(buf, &in[j], off, len);
      if (len < RATE) { /* the last block: pad */
        buf[len] ^= 0x1F;
        buf[RATE - 1] ^= 0x80;
      }
      for (unsigned i = 0; i < RATE / 8; ++i) s[i * w + j] ^= mldsa_load64_le(buf + 8 * i);
    }
    MLDSA_COUNT_BATCH(lanes);
    PERMUTE(perm, s);
    for (unsigned j = 0; j < n; ++j) {
      if (total[j] / RATE != b) continue;
      for (size_t i = 0; i < outlen; ++i) out[j][i] = (uint8_t)(s[i / 8 * w + j] >> (8 * (i % 8)));
    }
  }
  mldsa_zeroize(buf, sizeof buf);
}

#define MLDSA_DEFINE_KECCAKX(isa)                                                                  \
  void mldsa_keccakx_permute_##isa(mldsa_keccakx *st, unsigned lanes) {                            \
    MLDSA_COUNT_BATCH(lanes);                                                                      \
    mldsa_keccak_f1600_batch_##isa(st->s);                                                         \
  }                                                                                                \
  void mldsa_shake128x_absorb_##isa(mldsa_keccakx *st, const uint8_t *const *in, size_t inlen,     \
                                    unsigned n) {                                                  \
    absorb(st->s, MLDSA_KECCAKX_W_##isa, mldsa_keccak_f1600_batch_##isa, MLDSA_SHAKE128_RATE, in,  \
           inlen, n);                                                                              \
  }                                                                                                \
  void mldsa_shake256x_absorb_##isa(mldsa_keccakx *st, const uint8_t *const *in, size_t inlen,     \
                                    unsigned n) {                                                  \
    absorb(st->s, MLDSA_KECCAKX_W_##isa, mldsa_keccak_f1600_batch_##isa, MLDSA_SHAKE256_RATE, in,  \
           inlen, n);                                                                              \
  }                                                                                                \
  void mldsa_shake128x_squeezeblocks_##isa(uint8_t *const *out, size_t nblocks, mldsa_keccakx *st, \
                                           unsigned n) {                                           \
    squeezeblocks(out, nblocks, st->s, MLDSA_KECCAKX_W_##isa, mldsa_keccak_f1600_batch_##isa,      \
                  MLDSA_SHAKE128_RATE, n);                                                         \
  }                                                                                                \
  void mldsa_shake256x_squeezeblocks_##isa(uint8_t *const *out, size_t nblocks, mldsa_keccakx *st, \
                                           unsigned n) {                                           \
    squeezeblocks(out, nblocks, st->s, MLDSA_KECCAKX_W_##isa, mldsa_keccak_f1600_batch_##isa,      \
                  MLDSA_SHAKE256_RATE, n);                                                         \
  }                                                                                                \
  void mldsa_shake256x_pieces_##isa(mldsa_keccakx *st, uint8_t *const *out, size_t outlen,         \
                                    const mldsa_hash_input *in, unsigned n) {                      \
    shake256_pieces(st->s, MLDSA_KECCAKX_W_##isa, mldsa_keccak_f1600_batch_##isa, out, outlen, in, \
                    n);                                                                            \
  }

MLDSA_FOR_EACH_ISA(MLDSA_DEFINE_KECCAKX)
