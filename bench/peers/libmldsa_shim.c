/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* peer_shim.c's three calls for another build of libmldsa itself (an earlier revision,
 * say), so that bench/peers/peers-bench.c can time it beside this tree's code in one run:
 * before/after figures from the same interleaved rounds. build-peers.sh --libmldsa
 * compiles this file against that tree's src/ and asm_out/ with SHIM_SET (44, 65, 87)
 * and SHIM_ISA (scalar, sse2, avx2, avx512), and links it with that tree's libmldsa.a;
 * everything but the peer_* calls stays hidden, so the two builds' symbols never meet.
 * The calls do what that revision's API does: mu hashed by the backend beside ExpandA
 * (SHIM_SIGN_MSG: its backend has sign_msg) or from tr with the backend's Keccak, then
 * sign; tr = H(pk) hashed by the backend beside ExpandA (SHIM_VERIFY_PK: verify_pk) or
 * here, then mu and verify. build-peers.sh defines the two from that tree's backend.h. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "backend.h"
#include "fips202.h"

#define CAT_(a, b, c, d) a##b##c##d
#define CAT(a, b, c, d) CAT_(a, b, c, d)
#define BACKEND CAT(mldsa, SHIM_SET, _backend_, SHIM_ISA)

#include "peer_api.h"

#if !defined(SHIM_SIGN_MSG) || !defined(SHIM_VERIFY_PK)
static void message_mu(uint8_t mu[64], const uint8_t *key, int key_is_pk,
                       const uint8_t *msg, size_t mlen) {
  const mldsa_backend *b = &BACKEND;
  uint8_t tr[64];
  static const uint8_t prefix[2] = {0, 0};
  mldsa_keccak st;
  if (key_is_pk)
    mldsa_shake256_with(b->keccak, tr, 64, key, b->pk_bytes);
  else
    memcpy(tr, key + 64, 64);
  mldsa_shake256_init_with(&st, b->keccak);
  mldsa_shake_absorb(&st, tr, 64);
  mldsa_shake_absorb(&st, prefix, 2);
  mldsa_shake_absorb(&st, msg, mlen);
  mldsa_shake_finalize(&st);
  mldsa_shake_squeeze(&st, mu, 64);
}
#endif

int peer_keygen(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]) {
  BACKEND.keygen(pk, sk, seed);
  return 0;
}

int peer_sign(uint8_t *sig, const uint8_t *msg, size_t mlen, const uint8_t rnd[32],
              const uint8_t *sk) {
  uint8_t mu[64];
#ifdef SHIM_SIGN_MSG
  static const uint8_t prefix[2] = {0, 0};
  const mldsa_hash_input mprime = {{prefix, msg}, {sizeof prefix, mlen}, 2};
  return BACKEND.sign_msg(sig, mu, &mprime, rnd, sk);
#else
  message_mu(mu, sk, 0, msg, mlen);
  return BACKEND.sign(sig, mu, rnd, sk);
#endif
}

#ifdef SHIM_VERIFY_PK
typedef struct {
  const uint8_t *msg;
  size_t mlen;
} shim_msg;

static void mu_from_tr(uint8_t mu[64], const uint8_t tr[64], const void *arg) {
  const shim_msg *m = arg;
  static const uint8_t prefix[2] = {0, 0};
  mldsa_keccak st;
  mldsa_shake256_init_with(&st, BACKEND.keccak);
  mldsa_shake_absorb(&st, tr, 64);
  mldsa_shake_absorb(&st, prefix, 2);
  mldsa_shake_absorb(&st, m->msg, m->mlen);
  mldsa_shake_finalize(&st);
  mldsa_shake_squeeze(&st, mu, 64);
}
#endif

int peer_verify(const uint8_t *sig, const uint8_t *msg, size_t mlen, const uint8_t *pk) {
#ifdef SHIM_VERIFY_PK
  const shim_msg m = {msg, mlen};
  return BACKEND.verify_pk(sig, pk, mu_from_tr, &m);
#else
  uint8_t mu[64];
  message_mu(mu, pk, 1, msg, mlen);
  return BACKEND.verify(sig, mu, pk);
#endif
}

int peer_param(void) { return SHIM_SET; }
