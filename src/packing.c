/* Byte encodings of keys and signatures (FIPS 204 section 7.2), compiled once per
 * parameter set. All coefficient packing goes through one little-endian bit packer. */
#include <string.h>

#include "poly.h"

/* Write 256 values of `bits` bits each (each already in [0, 2^bits)), LSB first. */
static void pack_bits(uint8_t *out, const uint32_t v[MLDSA_N], unsigned bits) {
  uint64_t acc = 0;
  unsigned have = 0;
  for (unsigned i = 0; i < MLDSA_N; ++i) {
    acc |= (uint64_t)v[i] << have;
    have += bits;
    while (have >= 8) {
      *out++ = (uint8_t)acc;
      acc >>= 8;
      have -= 8;
    }
  }
}

static void unpack_bits(uint32_t v[MLDSA_N], const uint8_t *in, unsigned bits) {
  uint64_t acc = 0;
  unsigned have = 0;
  const uint32_t mask = (1u << bits) - 1;
  for (unsigned i = 0; i < MLDSA_N; ++i) {
    while (have < bits) {
      acc |= (uint64_t)*in++ << have;
      have += 8;
    }
    v[i] = (uint32_t)acc & mask;
    acc >>= bits;
    have -= bits;
  }
}

/* Coefficients stored as offset - a (the encodings of s, t0 and z). */
static void pack_offset(uint8_t *out, const mldsa_poly *a, int32_t offset, unsigned bits) {
  uint32_t v[MLDSA_N];
  for (unsigned i = 0; i < MLDSA_N; ++i) v[i] = (uint32_t)(offset - a->c[i]);
  pack_bits(out, v, bits);
}

static void unpack_offset(mldsa_poly *a, const uint8_t *in, int32_t offset, unsigned bits) {
  uint32_t v[MLDSA_N];
  unpack_bits(v, in, bits);
  for (unsigned i = 0; i < MLDSA_N; ++i) a->c[i] = offset - (int32_t)v[i];
}

#define ETA_BITS (MLDSA_ETA == 2 ? 3 : 4)
#define Z_BITS (MLDSA_GAMMA1 == (1 << 17) ? 18 : 20)
#define W1_BITS (MLDSA_GAMMA2 == MLDSA_GAMMA2_88 ? 6 : 4)

/* Unpack an eta-encoded polynomial; returns an all-ones mask if any coefficient was
 * outside [-eta, eta] (encoded value > 2 eta), computed without branches. */
static uint32_t unpack_eta(mldsa_poly *a, const uint8_t *in) {
  uint32_t v[MLDSA_N], bad = 0;
  unpack_bits(v, in, ETA_BITS);
  for (unsigned i = 0; i < MLDSA_N; ++i) {
    bad |= (uint32_t)(2 * MLDSA_ETA - (int32_t)v[i]) >> 31;
    a->c[i] = MLDSA_ETA - (int32_t)v[i];
  }
  return -bad;
}

void pack_pk(uint8_t pk[MLDSA_PUBLICKEYBYTES], const uint8_t rho[MLDSA_SEEDBYTES],
             const mldsa_polyveck *t1) {
  memcpy(pk, rho, MLDSA_SEEDBYTES);
  for (unsigned i = 0; i < MLDSA_K; ++i)
    pack_bits(pk + MLDSA_SEEDBYTES + i * MLDSA_POLYT1_PACKEDBYTES,
              (const uint32_t *)t1->v[i].c, 10);
}

void unpack_pk(uint8_t rho[MLDSA_SEEDBYTES], mldsa_polyveck *t1,
               const uint8_t pk[MLDSA_PUBLICKEYBYTES]) {
  memcpy(rho, pk, MLDSA_SEEDBYTES);
  for (unsigned i = 0; i < MLDSA_K; ++i)
    unpack_bits((uint32_t *)t1->v[i].c, pk + MLDSA_SEEDBYTES + i * MLDSA_POLYT1_PACKEDBYTES, 10);
}

void pack_t0(uint8_t out[MLDSA_K * MLDSA_POLYT0_PACKEDBYTES], const mldsa_polyveck *t0) {
  for (unsigned i = 0; i < MLDSA_K; ++i)
    pack_offset(out + i * MLDSA_POLYT0_PACKEDBYTES, &t0->v[i], 1 << (MLDSA_D - 1), MLDSA_D);
}

void pack_sk(uint8_t sk[MLDSA_SECRETKEYBYTES], const uint8_t rho[MLDSA_SEEDBYTES],
             const uint8_t key[MLDSA_SEEDBYTES], const uint8_t tr[MLDSA_TRBYTES],
             const mldsa_polyvecl *s1, const mldsa_polyveck *s2, const mldsa_polyveck *t0) {
  memcpy(sk, rho, MLDSA_SEEDBYTES);
  sk += MLDSA_SEEDBYTES;
  memcpy(sk, key, MLDSA_SEEDBYTES);
  sk += MLDSA_SEEDBYTES;
  memcpy(sk, tr, MLDSA_TRBYTES);
  sk += MLDSA_TRBYTES;
  for (unsigned i = 0; i < MLDSA_L; ++i, sk += MLDSA_POLYETA_PACKEDBYTES)
    pack_offset(sk, &s1->v[i], MLDSA_ETA, ETA_BITS);
  for (unsigned i = 0; i < MLDSA_K; ++i, sk += MLDSA_POLYETA_PACKEDBYTES)
    pack_offset(sk, &s2->v[i], MLDSA_ETA, ETA_BITS);
  pack_t0(sk, t0);
}

int unpack_sk(uint8_t rho[MLDSA_SEEDBYTES], uint8_t key[MLDSA_SEEDBYTES],
              uint8_t tr[MLDSA_TRBYTES], mldsa_polyvecl *s1, mldsa_polyveck *s2,
              mldsa_polyveck *t0, const uint8_t sk[MLDSA_SECRETKEYBYTES]) {
  uint32_t bad = 0;
  memcpy(rho, sk, MLDSA_SEEDBYTES);
  sk += MLDSA_SEEDBYTES;
  memcpy(key, sk, MLDSA_SEEDBYTES);
  sk += MLDSA_SEEDBYTES;
  memcpy(tr, sk, MLDSA_TRBYTES);
  sk += MLDSA_TRBYTES;
  for (unsigned i = 0; i < MLDSA_L; ++i, sk += MLDSA_POLYETA_PACKEDBYTES)
    bad |= unpack_eta(&s1->v[i], sk);
  for (unsigned i = 0; i < MLDSA_K; ++i, sk += MLDSA_POLYETA_PACKEDBYTES)
    bad |= unpack_eta(&s2->v[i], sk);
  for (unsigned i = 0; i < MLDSA_K; ++i, sk += MLDSA_POLYT0_PACKEDBYTES)
    unpack_offset(&t0->v[i], sk, 1 << (MLDSA_D - 1), MLDSA_D);
  /* Only the validity of the key as a whole is revealed, which the caller returns. */
  return bad ? -1 : 0;
}

void pack_sig(uint8_t sig[MLDSA_SIGBYTES], const uint8_t ctilde[MLDSA_CTILDEBYTES],
              const mldsa_polyvecl *z, const mldsa_polyveck *h) {
  memcpy(sig, ctilde, MLDSA_CTILDEBYTES);
  sig += MLDSA_CTILDEBYTES;
  for (unsigned i = 0; i < MLDSA_L; ++i, sig += MLDSA_POLYZ_PACKEDBYTES)
    pack_offset(sig, &z->v[i], MLDSA_GAMMA1, Z_BITS);
  /* Hints (Alg. 20): the positions of ones, then the running count per polynomial. */
  memset(sig, 0, MLDSA_OMEGA + MLDSA_K);
  unsigned k = 0;
  for (unsigned i = 0; i < MLDSA_K; ++i) {
    for (unsigned j = 0; j < MLDSA_N; ++j)
      if (h->v[i].c[j] != 0) sig[k++] = (uint8_t)j;
    sig[MLDSA_OMEGA + i] = (uint8_t)k;
  }
}

int unpack_sig(uint8_t ctilde[MLDSA_CTILDEBYTES], mldsa_polyvecl *z, mldsa_polyveck *h,
               const uint8_t sig[MLDSA_SIGBYTES]) {
  memcpy(ctilde, sig, MLDSA_CTILDEBYTES);
  sig += MLDSA_CTILDEBYTES;
  for (unsigned i = 0; i < MLDSA_L; ++i, sig += MLDSA_POLYZ_PACKEDBYTES)
    unpack_offset(&z->v[i], sig, MLDSA_GAMMA1, Z_BITS);
  /* Hints (Alg. 21), strictly: anything but the one canonical encoding is rejected. */
  unsigned k = 0;
  for (unsigned i = 0; i < MLDSA_K; ++i) {
    memset(h->v[i].c, 0, sizeof h->v[i].c);
    unsigned end = sig[MLDSA_OMEGA + i];
    if (end < k || end > MLDSA_OMEGA) return -1;
    for (unsigned j = k; j < end; ++j) {
      if (j > k && sig[j] <= sig[j - 1]) return -1;
      h->v[i].c[sig[j]] = 1;
    }
    k = end;
  }
  for (unsigned j = k; j < MLDSA_OMEGA; ++j)
    if (sig[j] != 0) return -1;
  return 0;
}

void pack_w1(uint8_t out[MLDSA_K * MLDSA_POLYW1_PACKEDBYTES], const mldsa_polyveck *w1) {
  for (unsigned i = 0; i < MLDSA_K; ++i)
    pack_bits(out + i * MLDSA_POLYW1_PACKEDBYTES, (const uint32_t *)w1->v[i].c, W1_BITS);
}
