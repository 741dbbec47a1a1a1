/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* FIPS 202 Keccak-f[1600] and the sponges ML-DSA needs. Lanes are little-endian 64-bit
 * words; the state is read and written bytewise so the code is endian-neutral. */
#include "fips202.h"

#include <string.h>

#include "keccak_count.h"
#include "seams.h"
#include "util.h"

#if defined(MLDSA_KECCAK_COUNTING)
mldsa_keccak_counts mldsa_keccak_counter;
#endif

#define ROL(x, n) (((x) << (n)) | ((x) >> (64 - (n))))
#include "scalar/keccak_f1600.h"

/* The permutation kernel, after the kernel probe of the test seams (seams.h). */
#define PERMUTE(perm, state) (MLDSA_SEAM_PROBE(), (perm)(state))

void mldsa_keccak_f1600(uint64_t s[25]) { mldsa_keccak_f1600_body(s); }
void mldsa_keccak_f1600_x1_scalar(uint64_t s[25]) { mldsa_keccak_f1600_body(s); }

static void xor_byte(uint64_t s[25], unsigned pos, uint8_t v) {
  s[pos / 8] ^= (uint64_t)v << (8 * (pos % 8));
}

static uint8_t get_byte(const uint64_t s[25], unsigned pos) {
  return (uint8_t)(s[pos / 8] >> (8 * (pos % 8)));
}

static void sponge_init(mldsa_keccak *st, unsigned rate, mldsa_permutation perm) {
  memset(st->s, 0, sizeof st->s);
  st->pos = 0;
  st->rate = rate;
  st->perm = perm;
}

void mldsa_shake128_init(mldsa_keccak *st) {
  sponge_init(st, MLDSA_SHAKE128_RATE, mldsa_keccak_f1600);
}
void mldsa_shake256_init(mldsa_keccak *st) {
  sponge_init(st, MLDSA_SHAKE256_RATE, mldsa_keccak_f1600);
}
void mldsa_shake256_init_with(mldsa_keccak *st, mldsa_permutation perm) {
  sponge_init(st, MLDSA_SHAKE256_RATE, perm);
}

void mldsa_shake_absorb(mldsa_keccak *st, const uint8_t *in, size_t len) {
  while (len > 0) {
    /* whole blocks at a block boundary: the lanes, then the permutation (every rate is
     * a multiple of 8 bytes) */
    if (st->pos == 0 && len >= st->rate) {
      const size_t rate = st->rate;
      const mldsa_permutation perm = st->perm;
      uint64_t *s = st->s;
      do {
        for (size_t i = 0; i < rate / 8; ++i) s[i] ^= mldsa_load64_le(in + 8 * i);
        MLDSA_COUNT_X1();
        PERMUTE(perm, s);
        in += rate;
        len -= rate;
      } while (len >= rate);
      continue;
    }
    /* whole lanes at a time when aligned to a lane boundary */
    if (st->pos % 8 == 0 && len >= 8 && st->pos + 8 <= st->rate) {
      st->s[st->pos / 8] ^= mldsa_load64_le(in);
      st->pos += 8;
      in += 8;
      len -= 8;
    } else {
      xor_byte(st->s, st->pos++, *in++);
      --len;
    }
    if (st->pos == st->rate) {
      MLDSA_COUNT_X1();
      PERMUTE(st->perm, st->s);
      st->pos = 0;
    }
  }
}

/* Pad with the SHAKE domain bits 1111, then pad10*1; squeezing starts at a full block. */
static void finalize_with(mldsa_keccak *st, uint8_t domain) {
  xor_byte(st->s, st->pos, domain);
  xor_byte(st->s, st->rate - 1, 0x80);
  MLDSA_COUNT_X1();
  PERMUTE(st->perm, st->s);
  st->pos = 0;
}

void mldsa_shake_finalize(mldsa_keccak *st) { finalize_with(st, 0x1F); }

void mldsa_shake_squeeze(mldsa_keccak *st, uint8_t *out, size_t len) {
  while (len > 0) {
    if (st->pos == st->rate) {
      MLDSA_COUNT_X1();
      PERMUTE(st->perm, st->s);
      st->pos = 0;
    }
    if (st->pos % 8 == 0 && len >= 8 && st->pos + 8 <= st->rate) {
      mldsa_store64_le(out, st->s[st->pos / 8]);
      st->pos += 8;
      out += 8;
      len -= 8;
    } else {
      *out++ = get_byte(st->s, st->pos++);
      --len;
    }
  }
}

static void xof(unsigned rate, mldsa_permutation perm, uint8_t *out, size_t outlen,
                const uint8_t *in, size_t inlen) {
  mldsa_keccak st;
  sponge_init(&st, rate, perm);
  mldsa_shake_absorb(&st, in, inlen);
  mldsa_shake_finalize(&st);
  mldsa_shake_squeeze(&st, out, outlen);
  mldsa_zeroize(&st, sizeof st);
}

void mldsa_shake128(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen) {
  xof(MLDSA_SHAKE128_RATE, mldsa_keccak_f1600, out, outlen, in, inlen);
}

void mldsa_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen) {
  xof(MLDSA_SHAKE256_RATE, mldsa_keccak_f1600, out, outlen, in, inlen);
}

void mldsa_shake256_with(mldsa_permutation perm, uint8_t *out, size_t outlen,
                         const uint8_t *in, size_t inlen) {
  xof(MLDSA_SHAKE256_RATE, perm, out, outlen, in, inlen);
}

/* SHA3-n: rate 200 - 2n/8 bytes, domain bits 01. */
static void sha3(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen) {
  mldsa_keccak st;
  sponge_init(&st, 200 - 2 * (unsigned)outlen, mldsa_keccak_f1600);
  mldsa_shake_absorb(&st, in, inlen);
  finalize_with(&st, 0x06);
  mldsa_shake_squeeze(&st, out, outlen);
  mldsa_zeroize(&st, sizeof st);
}

void mldsa_sha3_224(uint8_t out[28], const uint8_t *in, size_t inlen) { sha3(out, 28, in, inlen); }
void mldsa_sha3_256(uint8_t out[32], const uint8_t *in, size_t inlen) { sha3(out, 32, in, inlen); }
void mldsa_sha3_384(uint8_t out[48], const uint8_t *in, size_t inlen) { sha3(out, 48, in, inlen); }
void mldsa_sha3_512(uint8_t out[64], const uint8_t *in, size_t inlen) { sha3(out, 64, in, inlen); }
