/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The functions of include/mldsa.h that run inside the MCDT protection (mcdt.h), once:
 * X(return type, name, (parameters), (arguments)). api.c and dispatch.c define
 * <name>_impl; guard.c defines the exported <name> around it. All of them are here, even
 * those that need no protection (mldsa_strerror): a public function not listed is
 * exported as it is, and ci/check_mcdt then fails unless it is a leaf that calls nothing,
 * jumps nowhere indirectly and runs no affected instruction. */
#ifndef MLDSA_API_LIST_H
#define MLDSA_API_LIST_H

#include "mldsa.h"

#define MLDSA_GUARDED_API(X)                                                                      \
  X(size_t, mldsa_public_key_bytes, (mldsa_param p), (p))                                         \
  X(size_t, mldsa_secret_key_bytes, (mldsa_param p), (p))                                         \
  X(size_t, mldsa_signature_bytes, (mldsa_param p), (p))                                          \
  X(const char *, mldsa_strerror, (int code), (code))                                             \
  X(int, mldsa_keygen, (mldsa_param p, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len),   \
    (p, pk, pk_len, sk, sk_len))                                                                  \
  X(int, mldsa_keygen_from_seed,                                                                  \
    (mldsa_param p, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len,                       \
     const uint8_t seed[32]),                                                                     \
    (p, pk, pk_len, sk, sk_len, seed))                                                            \
  X(int, mldsa_sign,                                                                              \
    (mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t *msg, size_t msg_len,             \
     const uint8_t *ctx, size_t ctx_len, const uint8_t *rnd, const uint8_t *sk, size_t sk_len),   \
    (p, sig, sig_len, msg, msg_len, ctx, ctx_len, rnd, sk, sk_len))                               \
  X(int, mldsa_verify,                                                                            \
    (mldsa_param p, const uint8_t *sig, size_t sig_len, const uint8_t *msg, size_t msg_len,       \
     const uint8_t *ctx, size_t ctx_len, const uint8_t *pk, size_t pk_len),                       \
    (p, sig, sig_len, msg, msg_len, ctx, ctx_len, pk, pk_len))                                    \
  X(int, mldsa_sign_prehash,                                                                      \
    (mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t *digest, size_t digest_len,       \
     mldsa_hash h, const uint8_t *ctx, size_t ctx_len, const uint8_t *rnd, const uint8_t *sk,     \
     size_t sk_len),                                                                              \
    (p, sig, sig_len, digest, digest_len, h, ctx, ctx_len, rnd, sk, sk_len))                      \
  X(int, mldsa_verify_prehash,                                                                    \
    (mldsa_param p, const uint8_t *sig, size_t sig_len, const uint8_t *digest, size_t digest_len, \
     mldsa_hash h, const uint8_t *ctx, size_t ctx_len, const uint8_t *pk, size_t pk_len),         \
    (p, sig, sig_len, digest, digest_len, h, ctx, ctx_len, pk, pk_len))                           \
  X(int, mldsa_sign_internal,                                                                     \
    (mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t *mprime, size_t mprime_len,       \
     const uint8_t rnd[32], const uint8_t *sk, size_t sk_len),                                    \
    (p, sig, sig_len, mprime, mprime_len, rnd, sk, sk_len))                                       \
  X(int, mldsa_verify_internal,                                                                   \
    (mldsa_param p, const uint8_t *sig, size_t sig_len, const uint8_t *mprime,                    \
     size_t mprime_len, const uint8_t *pk, size_t pk_len),                                        \
    (p, sig, sig_len, mprime, mprime_len, pk, pk_len))                                            \
  X(int, mldsa_compute_mu,                                                                        \
    (mldsa_param p, uint8_t mu[64], const uint8_t *pk, size_t pk_len, const uint8_t *msg,         \
     size_t msg_len, const uint8_t *ctx, size_t ctx_len),                                         \
    (p, mu, pk, pk_len, msg, msg_len, ctx, ctx_len))                                              \
  X(int, mldsa_sign_mu,                                                                           \
    (mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t mu[64], const uint8_t *rnd,       \
     const uint8_t *sk, size_t sk_len),                                                           \
    (p, sig, sig_len, mu, rnd, sk, sk_len))                                                       \
  X(int, mldsa_verify_mu,                                                                         \
    (mldsa_param p, const uint8_t *sig, size_t sig_len, const uint8_t mu[64], const uint8_t *pk,  \
     size_t pk_len),                                                                              \
    (p, sig, sig_len, mu, pk, pk_len))                                                            \
  X(int, mldsa_public_key_from_secret,                                                            \
    (mldsa_param p, uint8_t *pk, size_t pk_len, const uint8_t *sk, size_t sk_len),                \
    (p, pk, pk_len, sk, sk_len))                                                                  \
  X(const char *, mldsa_isa, (void), ())

#define MLDSA_DECLARE_IMPL(ret, name, params, args) ret name##_impl params;
MLDSA_GUARDED_API(MLDSA_DECLARE_IMPL)

#endif
