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
  X(const char *, mldsa_isa, (void), ())                                                           \
  X(int, mldsa_mu_init,                                                                           \
    (mldsa_mu_state * st, mldsa_param p, const uint8_t *pk, size_t pk_len, const uint8_t *ctx,    \
     size_t ctx_len),                                                                             \
    (st, p, pk, pk_len, ctx, ctx_len))                                                            \
  X(int, mldsa_mu_init_secret,                                                                    \
    (mldsa_mu_state * st, mldsa_param p, const uint8_t *sk, size_t sk_len, const uint8_t *ctx,    \
     size_t ctx_len),                                                                             \
    (st, p, sk, sk_len, ctx, ctx_len))                                                            \
  X(int, mldsa_mu_update, (mldsa_mu_state * st, const uint8_t *m, size_t m_len), (st, m, m_len))  \
  X(int, mldsa_mu_final, (mldsa_mu_state * st, uint8_t mu[64]), (st, mu))                         \
  X(int, mldsa_public_key_prepare,                                                                \
    (mldsa_prepared_public_key * pp, mldsa_param p, const uint8_t *pk, size_t pk_len),            \
    (pp, p, pk, pk_len))                                                                          \
  X(int, mldsa_verify_prepared,                                                                   \
    (const mldsa_prepared_public_key *pp, const uint8_t *sig, size_t sig_len, const uint8_t *msg, \
     size_t msg_len, const uint8_t *ctx, size_t ctx_len),                                         \
    (pp, sig, sig_len, msg, msg_len, ctx, ctx_len))                                               \
  X(int, mldsa_verify_mu_prepared,                                                                \
    (const mldsa_prepared_public_key *pp, const uint8_t *sig, size_t sig_len,                     \
     const uint8_t mu[64]),                                                                       \
    (pp, sig, sig_len, mu))                                                                       \
  X(int, mldsa_secret_key_prepare,                                                                \
    (mldsa_prepared_secret_key * ps, mldsa_param p, const uint8_t *sk, size_t sk_len),            \
    (ps, p, sk, sk_len))                                                                          \
  X(int, mldsa_sign_prepared,                                                                     \
    (const mldsa_prepared_secret_key *ps, uint8_t *sig, size_t sig_len, const uint8_t *msg,       \
     size_t msg_len, const uint8_t *ctx, size_t ctx_len, const uint8_t *rnd),                     \
    (ps, sig, sig_len, msg, msg_len, ctx, ctx_len, rnd))                                          \
  X(int, mldsa_sign_mu_prepared,                                                                  \
    (const mldsa_prepared_secret_key *ps, uint8_t *sig, size_t sig_len, const uint8_t mu[64],     \
     const uint8_t *rnd),                                                                         \
    (ps, sig, sig_len, mu, rnd))                                                                  \
  X(int, mldsa_generate_seed, (uint8_t seed[32]), (seed))                                         \
  X(int, mldsa_public_key_encode,                                                                 \
    (mldsa_param p, mldsa_format f, uint8_t *out, size_t out_cap, size_t *out_len,                \
     const uint8_t *pk, size_t pk_len),                                                           \
    (p, f, out, out_cap, out_len, pk, pk_len))                                                    \
  X(int, mldsa_public_key_decode,                                                                 \
    (mldsa_param * p, uint8_t *pk, size_t pk_cap, size_t *pk_len, const uint8_t *in,              \
     size_t in_len),                                                                              \
    (p, pk, pk_cap, pk_len, in, in_len))                                                          \
  X(int, mldsa_private_key_encode,                                                                \
    (mldsa_param p, mldsa_format f, mldsa_sk_form form, uint8_t *out, size_t out_cap,             \
     size_t *out_len, const uint8_t *seed, const uint8_t *sk, size_t sk_len),                     \
    (p, f, form, out, out_cap, out_len, seed, sk, sk_len))                                        \
  X(int, mldsa_private_key_decode,                                                                \
    (mldsa_param * p, uint8_t *sk, size_t sk_cap, size_t *sk_len, uint8_t *seed, int *has_seed,   \
     const uint8_t *in, size_t in_len),                                                           \
    (p, sk, sk_cap, sk_len, seed, has_seed, in, in_len))                                          \
  X(int, mldsa_certificate_public_key,                                                            \
    (mldsa_param * p, uint8_t *pk, size_t pk_cap, size_t *pk_len, const uint8_t *in,              \
     size_t in_len),                                                                              \
    (p, pk, pk_cap, pk_len, in, in_len))                                                          \
  X(int, mldsa_selftest, (void), ())                                                             \
  X(int, mldsa_verify_batch,                                                                      \
    (mldsa_param p, const mldsa_verify_item *items, size_t n, int *results),                      \
    (p, items, n, results))                                                                       \
  X(int, mldsa_verify_prepared_batch,                                                             \
    (const mldsa_prepared_public_key *pp, const mldsa_verify_item *items, size_t n,               \
     int *results),                                                                               \
    (pp, items, n, results))                                                                      \
  X(int, mldsa_sign_batch,                                                                        \
    (const mldsa_prepared_secret_key *ps, const mldsa_sign_item *items, size_t n, int *results),  \
    (ps, items, n, results))                                                                      \
  X(int, mldsa_set_random, (mldsa_random_source fill, void *ctx), (fill, ctx))

/* The same for the functions that return nothing: X(name, (parameters), (arguments)). */
#define MLDSA_GUARDED_VOID_API(X)                                     \
  X(mldsa_secret_key_unprepare, (mldsa_prepared_secret_key * ps), (ps)) \
  X(mldsa_wipe, (void *p, size_t n), (p, n))

#define MLDSA_DECLARE_IMPL(ret, name, params, args) ret name##_impl params;
MLDSA_GUARDED_API(MLDSA_DECLARE_IMPL)
#define MLDSA_DECLARE_VOID_IMPL(name, params, args) void name##_impl params;
MLDSA_GUARDED_VOID_API(MLDSA_DECLARE_VOID_IMPL)

#endif
