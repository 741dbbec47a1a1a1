/* libmldsa: ML-DSA (FIPS 204) signatures.
 *
 * Every function is thread-safe. Every length is checked; a pointer may be NULL only
 * where its length is 0. Secrets held on the stack are wiped before return.
 *
 * Outputs after an error: on MLDSA_ERR_PARAM, MLDSA_ERR_NULL and MLDSA_ERR_LENGTH nothing
 * is written to any output (its stated length may be the wrong one). On any other error
 * (found once the lengths are known to be right) every output is zeroed over its length:
 * it never holds a partial result.
 *
 * Overlapping buffers: an input may overlap an output, in place or partly (sign into the
 * buffer that holds the message, recompute pk over the sk it came from): every input is
 * read before any output is written. Two outputs (pk and sk of keygen) must not overlap.
 * An output zeroed after an error overwrites whatever input it overlaps.
 *
 * Verification: anything but MLDSA_OK from a verify call means "not verified", whatever
 * the code (MLDSA_ERR_VERIFY for a signature that does not verify, others for bad
 * arguments). */
#ifndef MLDSA_H
#define MLDSA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { MLDSA_44 = 44, MLDSA_65 = 65, MLDSA_87 = 87 } mldsa_param;

#define MLDSA_OK             0
#define MLDSA_ERR_VERIFY    -1  /* the signature does not verify */
#define MLDSA_ERR_PARAM     -2  /* unknown parameter set */
#define MLDSA_ERR_LENGTH    -3  /* a key, signature, digest or mu has the wrong length */
#define MLDSA_ERR_CONTEXT   -4  /* context longer than 255 bytes */
#define MLDSA_ERR_NULL      -5  /* NULL pointer with a non-zero length, or a required pointer */
#define MLDSA_ERR_RANDOM    -6  /* the OS gave no randomness */
#define MLDSA_ERR_KEY       -7  /* malformed secret key (coefficient out of range) */
#define MLDSA_ERR_HASH      -8  /* unknown pre-hash algorithm */

/* Sizes in bytes; 0 for an unknown parameter set. */
size_t mldsa_public_key_bytes(mldsa_param p);
size_t mldsa_secret_key_bytes(mldsa_param p);
size_t mldsa_signature_bytes(mldsa_param p);

/* A constant English sentence for any code (including unknown ones). */
const char *mldsa_strerror(int code);

/* KeyGen with a 32-byte seed from the OS (getrandom). */
int mldsa_keygen(mldsa_param p, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len);
/* KeyGen_internal (FIPS 204 Alg. 6) from the given 32-byte seed xi. */
int mldsa_keygen_from_seed(mldsa_param p, uint8_t *pk, size_t pk_len,
                           uint8_t *sk, size_t sk_len, const uint8_t seed[32]);

/* rnd: NULL = hedged, 32 fresh bytes from the OS; else 32 bytes (all zero = deterministic).
 * In a library built with MLDSA_SIGN_CHECK every signing call verifies its signature
 * before returning it, and returns MLDSA_ERR_VERIFY (signature zeroed) if it does not
 * verify: a fault during signing. */
int mldsa_sign(mldsa_param p, uint8_t *sig, size_t sig_len,
               const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len,
               const uint8_t *rnd, const uint8_t *sk, size_t sk_len);
int mldsa_verify(mldsa_param p, const uint8_t *sig, size_t sig_len,
                 const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                 const uint8_t *pk, size_t pk_len);

typedef enum {
  MLDSA_SHA2_224, MLDSA_SHA2_256, MLDSA_SHA2_384, MLDSA_SHA2_512,
  MLDSA_SHA2_512_224, MLDSA_SHA2_512_256,
  MLDSA_SHA3_224, MLDSA_SHA3_256, MLDSA_SHA3_384, MLDSA_SHA3_512,
  MLDSA_SHAKE128, MLDSA_SHAKE256            /* 32- and 64-byte outputs */
} mldsa_hash;

/* HashML-DSA: the caller hashes the message and passes the digest, whose length must be
 * the output length of h. */
int mldsa_sign_prehash(mldsa_param p, uint8_t *sig, size_t sig_len,
                       const uint8_t *digest, size_t digest_len, mldsa_hash h,
                       const uint8_t *ctx, size_t ctx_len,
                       const uint8_t *rnd, const uint8_t *sk, size_t sk_len);
int mldsa_verify_prehash(mldsa_param p, const uint8_t *sig, size_t sig_len,
                         const uint8_t *digest, size_t digest_len, mldsa_hash h,
                         const uint8_t *ctx, size_t ctx_len,
                         const uint8_t *pk, size_t pk_len);

/* FIPS 204 internal interface (Algorithms 7 and 8) on M' as given. rnd as for mldsa_sign:
 * NULL = hedged (32 fresh bytes from the OS), else 32 bytes (all zero = deterministic). */
int mldsa_sign_internal(mldsa_param p, uint8_t *sig, size_t sig_len,
                        const uint8_t *mprime, size_t mprime_len,
                        const uint8_t rnd[32], const uint8_t *sk, size_t sk_len);
int mldsa_verify_internal(mldsa_param p, const uint8_t *sig, size_t sig_len,
                          const uint8_t *mprime, size_t mprime_len,
                          const uint8_t *pk, size_t pk_len);

/* External mu: mu = SHAKE256(tr || M', 64) computed elsewhere (an HSM split, say).
 * mldsa_compute_mu builds M' of the pure interface: 0 || len(ctx) || ctx || msg. */
int mldsa_compute_mu(mldsa_param p, uint8_t mu[64], const uint8_t *pk, size_t pk_len,
                     const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len);
int mldsa_sign_mu(mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                  const uint8_t *rnd, const uint8_t *sk, size_t sk_len);
int mldsa_verify_mu(mldsa_param p, const uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                    const uint8_t *pk, size_t pk_len);

/* Recompute pk from an expanded sk; MLDSA_ERR_KEY if sk is malformed or its tr does not
   match H(pk) — the import check for keys from elsewhere */
int mldsa_public_key_from_secret(mldsa_param p, uint8_t *pk, size_t pk_len,
                                 const uint8_t *sk, size_t sk_len);

/* Which arithmetic the calls above use: "scalar", "sse2", "avx2" or "avx512" */
const char *mldsa_isa(void);

#ifdef __cplusplus
}
#endif

#endif /* MLDSA_H */
