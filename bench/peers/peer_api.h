/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The three calls (and the set) every peer library exports for peers-bench.c and
 * bench/aarch64/count_ops.c, found with dlsym or linked: each shim (peer_shim.c,
 * mldsa_native_shim.c, libmldsa_shim.c) defines them over its implementation.
 *   peer_keygen(pk, sk, seed)             FIPS 204 KeyGen from the 32-byte seed
 *   peer_sign(sig, msg, mlen, rnd, sk)    pure ML-DSA, empty context, given rnd
 *   peer_verify(sig, msg, mlen, pk)       pure ML-DSA, empty context
 * The build scripts hide every other symbol of a peer's shared object. */
#ifndef PEER_API_H
#define PEER_API_H

#include <stddef.h>
#include <stdint.h>

#define PEER_EXPORT __attribute__((visibility("default")))

PEER_EXPORT int peer_keygen(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]);
PEER_EXPORT int peer_sign(uint8_t *sig, const uint8_t *msg, size_t mlen,
                          const uint8_t rnd[32], const uint8_t *sk);
PEER_EXPORT int peer_verify(const uint8_t *sig, const uint8_t *msg, size_t mlen,
                            const uint8_t *pk);
PEER_EXPORT int peer_param(void);

#endif
