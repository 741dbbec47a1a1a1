/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Adapts an mldsa-native snapshot, built outside this repository, to the three calls of
 * bench/peers/peer_shim.c, so that bench/peers/peers-bench.c (x86-64, one shared object
 * per set, by bench/peers/build-peers.sh) and bench/aarch64/count_ops.c (one static
 * archive per set, by bench/aarch64/build-peer.sh) drive it exactly as they drive
 * libmldsa:
 *   peer_keygen(pk, sk, seed)             FIPS 204 KeyGen_internal from the 32-byte seed
 *   peer_sign(sig, msg, mlen, rnd, sk)    pure ML-DSA, empty context, given rnd
 *   peer_verify(sig, msg, mlen, pk)       pure ML-DSA, empty context
 * Its *_internal calls take the seed and rnd directly, with pre = {0, 0}, the domain
 * separator of pure ML-DSA with an empty context (FIPS 204 Alg. 2, 3), and externalmu = 0
 * (the message is hashed into mu by the call, as every other implementation's is).
 *
 * Two layouts of its API, chosen by the build script:
 *   MLDSA_NATIVE_NAMESPACED  the single-unit layout (mldsa/mldsa_native.h, from early
 *                            2026): the parameter set is MLD_CONFIG_PARAMETER_SET and the
 *                            calls are MLD_API_NAMESPACE(keypair_internal) and so on, e.g.
 *                            PQCP_MLDSA_NATIVE_MLDSA65_keypair_internal. Build it with
 *                            MLD_CONFIG_NO_RANDOMIZED_API: nothing here draws randomness.
 *   otherwise                the 2025 layout (mldsa/sign.h, MLDSA_MODE = 2, 3 or 5):
 *                            crypto_sign_keypair_internal and so on, the same arguments,
 *                            and a randombytes() that the library references. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(MLDSA_NATIVE_NAMESPACED)
#include "mldsa_native.h"
#define MLDN(name) MLD_API_NAMESPACE(name)
#define MLDN_SET MLD_CONFIG_PARAMETER_SET
#define MLDN_SIG_BYTES MLDSA_BYTES(MLD_CONFIG_PARAMETER_SET)
#else
#include "sign.h"
#define MLDN(name) crypto_sign_##name
#define MLDN_SET (MLDSA_MODE == 2 ? 44 : MLDSA_MODE == 3 ? 65 : 87)
#define MLDN_SIG_BYTES CRYPTO_BYTES
#endif

#include "peer_api.h"

/* Its x86_64 assembly returns with the upper halves of the ymm registers still in use (no
 * vzeroupper), and the implementation timed next in a round pays for that state when it
 * runs legacy-SSE code: libmldsa's sse2 path ran ML-DSA-65 keygen 3.5 times slower
 * after it on an AMD Zen 5. Each call leaves them cleared, as compiled code does on leaving a
 * function that used them; one instruction, which costs the peer nothing measurable. */
#if defined(__x86_64__) && defined(__AVX__)
#define LEAVE(rc)                        \
  do {                                   \
    int leave_rc = (rc);                 \
    __asm__ volatile("vzeroupper");      \
    return leave_rc;                     \
  } while (0)
#else
#define LEAVE(rc) return (rc)
#endif

#if !defined(MLDSA_NATIVE_NAMESPACED)
void randombytes(uint8_t *out, size_t outlen);
/* The *_internal calls never draw randomness; the 2025 library still references it. */
void randombytes(uint8_t *out, size_t outlen) { memset(out, 0, outlen); }
#endif

int peer_keygen(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]) {
  LEAVE(MLDN(keypair_internal)(pk, sk, seed));
}

static const uint8_t pure_empty_context[2] = {0, 0};

int peer_sign(uint8_t *sig, const uint8_t *msg, size_t mlen, const uint8_t rnd[32],
              const uint8_t *sk) {
  size_t siglen;
  LEAVE(MLDN(signature_internal)(sig, &siglen, msg, mlen, pure_empty_context,
                                 sizeof pure_empty_context, rnd, sk, 0));
}

int peer_verify(const uint8_t *sig, const uint8_t *msg, size_t mlen, const uint8_t *pk) {
  LEAVE(MLDN(verify_internal)(sig, MLDN_SIG_BYTES, msg, mlen, pure_empty_context,
                              sizeof pure_empty_context, pk, 0));
}

int peer_param(void) { return MLDN_SET; }
