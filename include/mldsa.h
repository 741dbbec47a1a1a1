/* libmldsa: ML-DSA (FIPS 204) signatures.
 *
 * Every function is thread-safe. Every length is checked; a pointer may be NULL only
 * where its length is 0. On any error, output buffers are zeroed. Secrets held on the
 * stack are wiped before return. */
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

/* rnd: NULL = hedged, 32 fresh bytes from the OS; else 32 bytes (all zero = deterministic) */
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

/* FIPS 204 internal interface (Algorithms 7 and 8) on M' as given */
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

/* ---- Streaming mu, for messages of any size ----
 *
 * mu = SHAKE256(tr || 0 || len(ctx) || ctx || M, 64) of the pure interface (FIPS 204
 * Alg. 2 and 3), absorbed piece by piece: init, update any number of times with any
 * split of M, final; then mldsa_sign_mu / mldsa_verify_mu (or the prepared variants).
 * The mu is the one mldsa_compute_mu gives for the whole message, whatever the split.
 *
 * The state is caller memory of a fixed size (no allocation). It records the parameter
 * set, the ISA of this process and a check word; a state that was never initialised,
 * was finalised, or whose header was overwritten is refused with MLDSA_ERR_PARAM ("no
 * parameter set"), never used. A state belongs to the process that made it (it is
 * refused under another ISA choice). Not thread-safe per state: one state, one thread
 * at a time. */
#define MLDSA_MU_STATE_WORDS 64 /* 512 bytes: room for any ISA's Keccak state */
typedef struct {
  uint64_t opaque[MLDSA_MU_STATE_WORDS];
} mldsa_mu_state;

/* Starts st with tr = H(pk). Returns MLDSA_OK; MLDSA_ERR_PARAM (unknown p),
 * MLDSA_ERR_NULL (st or pk NULL, or ctx NULL with ctx_len > 0), MLDSA_ERR_LENGTH
 * (pk_len), with st untouched; MLDSA_ERR_CONTEXT (ctx_len > 255) with st wiped. */
int mldsa_mu_init(mldsa_mu_state *st, mldsa_param p, const uint8_t *pk, size_t pk_len,
                  const uint8_t *ctx, size_t ctx_len);
/* The same with tr read from an expanded secret key (bytes 64..127 of sk; the key is
 * not otherwise checked: signing checks it). Same codes (sk for pk). */
int mldsa_mu_init_secret(mldsa_mu_state *st, mldsa_param p, const uint8_t *sk, size_t sk_len,
                         const uint8_t *ctx, size_t ctx_len);
/* Absorbs m_len bytes of M. Returns MLDSA_OK; MLDSA_ERR_NULL (st NULL, or m NULL with
 * m_len > 0) or MLDSA_ERR_PARAM (st not an initialised state), with st untouched. */
int mldsa_mu_update(mldsa_mu_state *st, const uint8_t *m, size_t m_len);
/* Writes the 64-byte mu and wipes st (it is then uninitialised). Returns MLDSA_OK;
 * MLDSA_ERR_NULL (st or mu NULL) or MLDSA_ERR_PARAM (st not an initialised state), with
 * nothing written to st or mu. */
int mldsa_mu_final(mldsa_mu_state *st, uint8_t mu[64]);

/* ---- Prepared keys, for verifying or signing many messages under one key ----
 *
 * Everything that depends on the key alone is computed once: tr, the matrix A in NTT
 * form and t1*2^d in NTT form (public); s1, s2, t0 in NTT form, K, tr and A (secret).
 * Results are byte-identical to the one-shot calls (same signatures for the same rnd,
 * same verdicts).
 *
 * The structs are caller memory, sized for every parameter set, and must be aligned as
 * their type says (64 bytes: automatic or static storage, or aligned_alloc(64, ...));
 * a pointer that is not is refused with MLDSA_ERR_NULL. The contents are in this
 * process's ISA form: they record the parameter set, the ISA and a check word, and a
 * struct made under another ISA (another MLDSA_ISA cap, say) or with an overwritten
 * header is refused with MLDSA_ERR_KEY. Copying the struct (memcpy) within the process
 * is allowed. A prepared secret key holds the secret key in expanded form: wipe it with
 * mldsa_secret_key_unprepare. The functions taking a prepared key never modify it, so
 * one prepared key may serve many threads at once.
 *
 * Error outputs: when a NULL pointer, the prepared key's header or a length is invalid,
 * nothing is written; on a later error (context length, randomness, a key that gives no
 * signature) the outputs are zeroed.
 *
 * Stack (peak bytes measured with gcc -O2, largest over the ISAs, ML-DSA-44 / 65 / 87):
 * mldsa_public_key_prepare 9.4 KiB; mldsa_secret_key_prepare 34 / 43 / 54 KiB;
 * mldsa_verify_prepared 18 / 23 / 30 KiB; mldsa_sign_prepared 44 / 52 / 63 KiB (the
 * one-shot sign: 73 / 101 / 144 KiB). The secret-key calls include a 12 KiB wipe below
 * their frame. Budgets: tests/stack_budget.txt. */
#define MLDSA_PREPARED_PUBLIC_KEY_BYTES 67584 /* 66 KiB: ML-DSA-87 needs 65,664 */
#define MLDSA_PREPARED_SECRET_KEY_BYTES 81920 /* 80 KiB: ML-DSA-87 needs 81,088 */
#if defined(__cplusplus)
#define MLDSA_ALIGN64 alignas(64)
#else
#define MLDSA_ALIGN64 _Alignas(64)
#endif
typedef struct mldsa_prepared_public_key {
  MLDSA_ALIGN64 uint64_t opaque[MLDSA_PREPARED_PUBLIC_KEY_BYTES / 8];
} mldsa_prepared_public_key;
typedef struct mldsa_prepared_secret_key {
  MLDSA_ALIGN64 uint64_t opaque[MLDSA_PREPARED_SECRET_KEY_BYTES / 8];
} mldsa_prepared_secret_key;

/* Prepares pk for verification. Returns MLDSA_OK; MLDSA_ERR_PARAM, MLDSA_ERR_NULL (pp or
 * pk NULL, or pp misaligned), MLDSA_ERR_LENGTH (pk_len), with pp untouched. */
int mldsa_public_key_prepare(mldsa_prepared_public_key *pp, mldsa_param p,
                             const uint8_t *pk, size_t pk_len);
/* mldsa_verify under a prepared key. Returns MLDSA_OK or MLDSA_ERR_VERIFY; MLDSA_ERR_NULL
 * (pp or sig NULL, pp misaligned, msg or ctx NULL with a non-zero length), MLDSA_ERR_KEY
 * (pp not a prepared public key of this process), MLDSA_ERR_LENGTH (sig_len),
 * MLDSA_ERR_CONTEXT (ctx_len > 255). */
int mldsa_verify_prepared(const mldsa_prepared_public_key *pp, const uint8_t *sig,
                          size_t sig_len, const uint8_t *msg, size_t msg_len,
                          const uint8_t *ctx, size_t ctx_len);
/* mldsa_verify_mu under a prepared key; the codes of mldsa_verify_prepared (mu NULL is
 * MLDSA_ERR_NULL). */
int mldsa_verify_mu_prepared(const mldsa_prepared_public_key *pp, const uint8_t *sig,
                             size_t sig_len, const uint8_t mu[64]);
/* Prepares an expanded secret key for signing, after the import check of
 * mldsa_public_key_from_secret (s1, s2 in range, tr = H(pk), t0 the recomputed t0).
 * Returns MLDSA_OK; MLDSA_ERR_PARAM, MLDSA_ERR_NULL (ps or sk NULL, or ps misaligned),
 * MLDSA_ERR_LENGTH (sk_len), with ps untouched; MLDSA_ERR_KEY (the check failed), with ps
 * wiped. */
int mldsa_secret_key_prepare(mldsa_prepared_secret_key *ps, mldsa_param p,
                             const uint8_t *sk, size_t sk_len);
/* mldsa_sign under a prepared key; rnd as for mldsa_sign (NULL = hedged). Returns
 * MLDSA_OK; MLDSA_ERR_NULL (ps or sig NULL, ps misaligned, msg or ctx NULL with a non-zero
 * length), MLDSA_ERR_KEY (ps not a prepared secret key of this process),
 * MLDSA_ERR_LENGTH (sig_len), with sig untouched; MLDSA_ERR_CONTEXT (ctx_len > 255),
 * MLDSA_ERR_RANDOM, MLDSA_ERR_KEY (no signature within the attempt limit), with sig
 * zeroed. */
int mldsa_sign_prepared(const mldsa_prepared_secret_key *ps, uint8_t *sig, size_t sig_len,
                        const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                        size_t ctx_len, const uint8_t *rnd);
/* mldsa_sign_mu under a prepared key; the codes of mldsa_sign_prepared (mu NULL is
 * MLDSA_ERR_NULL). */
int mldsa_sign_mu_prepared(const mldsa_prepared_secret_key *ps, uint8_t *sig,
                           size_t sig_len, const uint8_t mu[64], const uint8_t *rnd);
/* Wipes the whole struct (it is then refused with MLDSA_ERR_KEY). ps may be NULL. */
void mldsa_secret_key_unprepare(mldsa_prepared_secret_key *ps);

/* Which arithmetic the calls above use: "scalar", "sse2", "avx2" or "avx512" */
const char *mldsa_isa(void);

#ifdef __cplusplus
}
#endif

#endif /* MLDSA_H */
