/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Compiled into each peer library (pq-crystals/dilithium ref or avx2, or a snapshot of
 * mldsa-native with the same API) by bench/peers/build-peers.sh, once per parameter set,
 * with the peer's own source directory on the include path and DILITHIUM_MODE set. It
 * exports three calls with one signature for every peer, which bench/peers/peers-bench.c
 * finds with dlsym:
 *   peer_keygen(pk, sk, seed)             FIPS 204 KeyGen from the 32-byte seed
 *   peer_sign(sig, msg, mlen, rnd, sk)    pure ML-DSA, empty context, given rnd
 *   peer_verify(sig, msg, mlen, pk)       pure ML-DSA, empty context
 * The peer's keypair() draws its seed from randombytes(); the one defined here hands it
 * the seed of the current call, so every implementation sees identical inputs. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sign.h"

static const uint8_t *next_seed;

void randombytes(uint8_t *out, size_t outlen);
void randombytes(uint8_t *out, size_t outlen) {
  /* only keypair() asks, for exactly the 32-byte seed */
  if (next_seed != NULL && outlen == 32)
    memcpy(out, next_seed, 32);
  else
    memset(out, 0, outlen);
}

#include "peer_api.h"

int peer_keygen(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]) {
  next_seed = seed;
  int rc = crypto_sign_keypair(pk, sk);
  next_seed = NULL;
  return rc;
}

static const uint8_t pure_empty_context[2] = {0, 0};

int peer_sign(uint8_t *sig, const uint8_t *msg, size_t mlen, const uint8_t rnd[32],
              const uint8_t *sk) {
  size_t siglen;
  return crypto_sign_signature_internal(sig, &siglen, msg, mlen, pure_empty_context,
                                        sizeof pure_empty_context, rnd, sk);
}

int peer_verify(const uint8_t *sig, const uint8_t *msg, size_t mlen, const uint8_t *pk) {
  return crypto_sign_verify_internal(sig, CRYPTO_BYTES, msg, mlen, pure_empty_context,
                                     sizeof pure_empty_context, pk);
}

int peer_param(void) { return DILITHIUM_MODE == 2 ? 44 : DILITHIUM_MODE == 3 ? 65 : 87; }
