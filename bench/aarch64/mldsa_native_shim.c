/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Adapts an mldsa-native snapshot (built outside this repository by
 * bench/aarch64/build-peer.sh, its mldsa/ directory on the include path, MLDSA_MODE
 * set) to the three calls of bench/peers/peer_shim.c, so that count_ops.c drives it
 * exactly as it drives libmldsa:
 *   peer_keygen(pk, sk, seed)             FIPS 204 KeyGen_internal from the 32-byte seed
 *   peer_sign(sig, msg, mlen, rnd, sk)    pure ML-DSA, empty context, given rnd
 *   peer_verify(sig, msg, mlen, pk)       pure ML-DSA, empty context
 * Its *_internal calls take the seed and rnd directly; pre = {0, 0} is the domain
 * separator of pure ML-DSA with an empty context (FIPS 204 Alg. 2, 3). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sign.h"

int peer_keygen(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]);
int peer_sign(uint8_t *sig, const uint8_t *msg, size_t mlen, const uint8_t rnd[32],
              const uint8_t *sk);
int peer_verify(const uint8_t *sig, const uint8_t *msg, size_t mlen, const uint8_t *pk);
int peer_param(void);
void randombytes(uint8_t *out, size_t outlen);

/* The *_internal calls never draw randomness; the library still references it. */
void randombytes(uint8_t *out, size_t outlen) { memset(out, 0, outlen); }

int peer_keygen(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]) {
  return crypto_sign_keypair_internal(pk, sk, seed);
}

static const uint8_t pure_empty_context[2] = {0, 0};

int peer_sign(uint8_t *sig, const uint8_t *msg, size_t mlen, const uint8_t rnd[32],
              const uint8_t *sk) {
  size_t siglen;
  return crypto_sign_signature_internal(sig, &siglen, msg, mlen, pure_empty_context,
                                        sizeof pure_empty_context, rnd, sk, 0);
}

int peer_verify(const uint8_t *sig, const uint8_t *msg, size_t mlen, const uint8_t *pk) {
  return crypto_sign_verify_internal(sig, CRYPTO_BYTES, msg, mlen, pure_empty_context,
                                     sizeof pure_empty_context, pk, 0);
}

int peer_param(void) { return MLDSA_MODE == 2 ? 44 : MLDSA_MODE == 3 ? 65 : 87; }
