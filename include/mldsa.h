/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* libmldsa: ML-DSA (FIPS 204) signatures for C and C++.
 *
 * Rules that hold for every function below:
 *
 * - Thread safety: every function may be called from any number of threads at once. The
 *   library's only global state is the choice of arithmetic (ISA), made once, thread-safely,
 *   on the first call that needs it (and, built with MLDSA_SELFTEST=ON, the self-tests'
 *   result: see mldsa_selftest).
 * - Arguments are checked in this order, and the first failure gives the code: parameter
 *   set (MLDSA_ERR_PARAM), NULL pointers (MLDSA_ERR_NULL), lengths (MLDSA_ERR_LENGTH), then
 *   the function's own checks (context length, pre-hash algorithm, key contents). A pointer
 *   may be NULL only where its length is 0 (a message or context of 0 bytes).
 * - Outputs on error: when the parameter set, a pointer or a length is wrong, nothing is
 *   written to any output (the stated length is the one just found wrong). On an error
 *   found after that (bad key, no randomness, signature that does not verify), every output
 *   buffer is zeroed over its length: no partial result is ever left.
 * - Verification: anything but MLDSA_OK from a verify call means "not verified", whatever
 *   the code (MLDSA_ERR_VERIFY for a signature that does not verify, others for bad
 *   arguments).
 * - Secrets: every copy of a secret the library makes on the stack is wiped before return.
 * - Buffers: an input may overlap an output, in place or partly (sign into the buffer that
 *   holds the message, recompute pk over the sk it came from): every input is read before
 *   any output is written. Two outputs (pk and sk of keygen) must not overlap. An output
 *   zeroed after an error overwrites whatever input it overlaps.
 * - MXCSR: on CPUs with MXCSR-configuration-dependent timing (all but those that report
 *   MCDT_NO), every call runs with MXCSR = 0x1FBF and restores the caller's MXCSR on
 *   return, errors included.
 * - Stack: the operations are written for small thread stacks. The peak stack of each
 *   call in KiB (stack painting, gcc 12 -O2, the largest over the ISAs; clang 14 within
 *   1 KiB; checked in CI against tests/stack_budget.txt, which adds 10%):
 *
 *                                        ML-DSA-44  ML-DSA-65  ML-DSA-87
 *       mldsa_keygen, _from_seed              37         54         84
 *         (MLDSA_SELFTEST build, pairwise)    55         76        110
 *       mldsa_sign                            51         72        106
 *       mldsa_verify                          38         59         94
 *       mldsa_public_key_from_secret          39         57         87
 *       mldsa_public_key_prepare              10         10         10
 *       mldsa_secret_key_prepare              24         28         34
 *       mldsa_verify_prepared                 18         23         30
 *       mldsa_sign_prepared                   27         31         34
 *       mldsa_verify_batch                    52         70        105
 *       mldsa_verify_prepared_batch           28         33         41
 *       mldsa_sign_batch                      84         96         95
 *       mldsa_selftest (every set)           106 (with or without the power-on run)
 *
 *   The pre-hash, internal and mu forms of signing and verification run the code of
 *   mldsa_sign and mldsa_verify around another M' (not measured on their own). The batch
 *   figures do not grow with n (items are worked in groups). The key decoders
 *   import what they read (key import, or keygen from a seed); the mu, size, encoder and
 *   randomness calls only hash or copy. Every call stays under 112 KiB and runs on a
 *   thread with a 128 KiB stack (musl's default), which a test checks.
 * - Constant time: the secret inputs (the keygen seed, a secret key's K, s1, s2 and t0, a
 *   prepared secret key, rnd) and every value derived from them reach no branch and no
 *   memory address, on every ISA (checked under valgrind by ci/ct, and in the
 *   disassembly of the kernels); the only things FIPS 204 lets depend on them are the
 *   number of signing attempts (each rejected attempt is discarded) and whether a key is
 *   well-formed (MLDSA_ERR_KEY). A seed and an expanded key read together are compared
 *   in constant time. Public inputs are not treated as secret: messages, contexts, mu,
 *   public keys, signatures, lengths and the parameter set may change the time a call
 *   takes (verification stops at the first malformed part of a signature).
 *
 * The arithmetic (portable C, SSE2, AVX2 or AVX-512) is chosen at run time; the
 * environment variable MLDSA_ISA=scalar|sse2|avx2|avx512 caps the choice. All choices give
 * byte-identical results. */
#ifndef MLDSA_H
#define MLDSA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version ---------------------------------------------------------------------- */

/* The version of this header. The build reads it from here (CMake, pkg-config, SONAME),
 * so these lines are the one place it is written. */
#define MLDSA_VERSION_MAJOR 0
#define MLDSA_VERSION_MINOR 4
#define MLDSA_VERSION_PATCH 0
#define MLDSA_VERSION_STRING "0.4.0"
/* The same version as one number for #if, 0xMMmmpp00: major, minor and patch one byte
 * each from the top, the low byte 0 (reserved: a pre-release would count below it).
 * 0.4.0 is 0x00040000; test "#if MLDSA_VERSION_NUMBER >= 0x00040000" for mldsa_set_random. */
#define MLDSA_VERSION_NUMBER \
  ((MLDSA_VERSION_MAJOR << 24) | (MLDSA_VERSION_MINOR << 16) | (MLDSA_VERSION_PATCH << 8))

/* The version of the library linked at run time ("0.2.0"); compare it with
 * MLDSA_VERSION_STRING to detect a header/library mismatch. Never NULL. */
const char *mldsa_version(void);

/* ---- compiler support ------------------------------------------------------------- */

/* Results that must not be ignored: a dropped verify result is a forged signature
 * accepted. On every function below that returns a code (GCC and Clang warn when a
 * caller drops it; other compilers see nothing: C89 and C++ alike). */
#ifndef MLDSA_WARN_UNUSED_RESULT /* a caller may define it first, empty to silence it */
#if defined(__GNUC__) || defined(__clang__)
#define MLDSA_WARN_UNUSED_RESULT __attribute__((warn_unused_result))
#else
#define MLDSA_WARN_UNUSED_RESULT
#endif
#endif

/* ---- parameter sets, sizes, error codes ------------------------------------------- */

typedef enum { MLDSA_44 = 44, MLDSA_65 = 65, MLDSA_87 = 87 } mldsa_param;

/* Sizes in bytes, for static buffers; equal to what the functions below return. */
#define MLDSA44_PUBLIC_KEY_BYTES 1312
#define MLDSA44_SECRET_KEY_BYTES 2560
#define MLDSA44_SIGNATURE_BYTES 2420
#define MLDSA65_PUBLIC_KEY_BYTES 1952
#define MLDSA65_SECRET_KEY_BYTES 4032
#define MLDSA65_SIGNATURE_BYTES 3309
#define MLDSA87_PUBLIC_KEY_BYTES 2592
#define MLDSA87_SECRET_KEY_BYTES 4896
#define MLDSA87_SIGNATURE_BYTES 4627
#define MLDSA_MAX_PUBLIC_KEY_BYTES MLDSA87_PUBLIC_KEY_BYTES
#define MLDSA_MAX_SECRET_KEY_BYTES MLDSA87_SECRET_KEY_BYTES
#define MLDSA_MAX_SIGNATURE_BYTES MLDSA87_SIGNATURE_BYTES
#define MLDSA_SEED_BYTES 32        /* xi, the seed of a key pair */
#define MLDSA_RND_BYTES 32         /* rnd of a signature */
#define MLDSA_MU_BYTES 64          /* mu = H(tr || M') */
#define MLDSA_TR_BYTES 64          /* tr = H(pk) */
#define MLDSA_CONTEXT_MAX_BYTES 255

#define MLDSA_OK 0
#define MLDSA_ERR_VERIFY (-1) /* the signature does not verify */
#define MLDSA_ERR_PARAM (-2)  /* unknown parameter set (or one left out of this build) */
#define MLDSA_ERR_LENGTH (-3) /* a key, signature, digest or mu has the wrong length */
#define MLDSA_ERR_CONTEXT (-4) /* context longer than 255 bytes */
#define MLDSA_ERR_NULL (-5)   /* NULL pointer with a non-zero length, or a required pointer */
#define MLDSA_ERR_RANDOM (-6) /* no randomness (the OS, or the source set by mldsa_set_random) */
#define MLDSA_ERR_KEY (-7)    /* malformed or mismatched key (secret, or prepared) */
#define MLDSA_ERR_HASH (-8)   /* unknown pre-hash algorithm */
#define MLDSA_ERR_ENCODING (-9) /* malformed or unsupported DER/PEM, or a wrong OID */

/* Sizes of parameter set p in bytes; 0 for an unknown p or one left out of this build
 * (CMake option MLDSA_PARAMS). */
size_t mldsa_public_key_bytes(mldsa_param p);
size_t mldsa_secret_key_bytes(mldsa_param p);
size_t mldsa_signature_bytes(mldsa_param p);

/* A constant English sentence for any code, including unknown ones. Never NULL. */
const char *mldsa_strerror(int code);

/* ---- key generation --------------------------------------------------------------- */

/* ML-DSA.KeyGen (FIPS 204 Alg. 1) with a 32-byte seed from the OS (getrandom).
 * pk: mldsa_public_key_bytes(p) bytes, sk: mldsa_secret_key_bytes(p) bytes (expanded form).
 * Returns MLDSA_OK, MLDSA_ERR_PARAM, MLDSA_ERR_NULL (pk or sk NULL), MLDSA_ERR_LENGTH,
 * MLDSA_ERR_RANDOM (pk and sk zeroed). */
MLDSA_WARN_UNUSED_RESULT
int mldsa_keygen(mldsa_param p, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len);

/* ML-DSA.KeyGen_internal (FIPS 204 Alg. 6) from the 32-byte seed xi: the same seed always
 * gives the same key pair. Returns MLDSA_OK, MLDSA_ERR_PARAM, MLDSA_ERR_NULL (pk, sk or
 * seed NULL), MLDSA_ERR_LENGTH. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_keygen_from_seed(mldsa_param p, uint8_t *pk, size_t pk_len, uint8_t *sk,
                           size_t sk_len, const uint8_t seed[32]);

/* ---- pure ML-DSA ------------------------------------------------------------------ */

/* ML-DSA.Sign (FIPS 204 Alg. 2) of msg under context ctx (0..255 bytes).
 * sig: mldsa_signature_bytes(p) bytes; sk: an expanded secret key of set p.
 * rnd: NULL = hedged (32 fresh bytes from the OS); else 32 bytes (all zero =
 * deterministic signing, the same signature for the same inputs).
 * Returns MLDSA_OK, MLDSA_ERR_PARAM, MLDSA_ERR_NULL (sig or sk NULL, or msg/ctx NULL with a
 * non-zero length), MLDSA_ERR_LENGTH (sig_len or sk_len), MLDSA_ERR_CONTEXT,
 * MLDSA_ERR_RANDOM (hedged only), MLDSA_ERR_KEY (s1 or s2 out of range); sig is zeroed on
 * the last three. In a library built with MLDSA_SIGN_CHECK every signing call verifies
 * its signature before returning it: MLDSA_ERR_VERIFY (sig zeroed) for one that does not
 * verify (a fault during signing), MLDSA_ERR_KEY for a key whose t0 or tr is inconsistent. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_sign(mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t *msg,
               size_t msg_len, const uint8_t *ctx, size_t ctx_len, const uint8_t *rnd,
               const uint8_t *sk, size_t sk_len);

/* ML-DSA.Verify (FIPS 204 Alg. 3), strict: exact signature length, canonical hints,
 * ||z|| < gamma1 - beta. Returns MLDSA_OK only for a valid signature; MLDSA_ERR_VERIFY,
 * MLDSA_ERR_PARAM, MLDSA_ERR_NULL (sig or pk NULL, msg/ctx NULL with a non-zero length),
 * MLDSA_ERR_LENGTH (sig_len or pk_len), MLDSA_ERR_CONTEXT otherwise. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_verify(mldsa_param p, const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                 size_t msg_len, const uint8_t *ctx, size_t ctx_len, const uint8_t *pk,
                 size_t pk_len);

/* ---- HashML-DSA (pre-hash) -------------------------------------------------------- */

typedef enum {
  MLDSA_SHA2_224,
  MLDSA_SHA2_256,
  MLDSA_SHA2_384,
  MLDSA_SHA2_512,
  MLDSA_SHA2_512_224,
  MLDSA_SHA2_512_256,
  MLDSA_SHA3_224,
  MLDSA_SHA3_256,
  MLDSA_SHA3_384,
  MLDSA_SHA3_512,
  MLDSA_SHAKE128, /* 32-byte output */
  MLDSA_SHAKE256  /* 64-byte output */
} mldsa_hash;

/* HashML-DSA.Sign / .Verify (FIPS 204 Alg. 4 and 5): the caller hashes the message with h
 * and passes the digest, whose length must be h's output length (28, 32, 48 or 64).
 * Codes as mldsa_sign / mldsa_verify, plus MLDSA_ERR_LENGTH for a digest of the wrong
 * length and MLDSA_ERR_HASH for an unknown h (checked after the context). */
MLDSA_WARN_UNUSED_RESULT
int mldsa_sign_prehash(mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t *digest,
                       size_t digest_len, mldsa_hash h, const uint8_t *ctx, size_t ctx_len,
                       const uint8_t *rnd, const uint8_t *sk, size_t sk_len);
MLDSA_WARN_UNUSED_RESULT
int mldsa_verify_prehash(mldsa_param p, const uint8_t *sig, size_t sig_len,
                         const uint8_t *digest, size_t digest_len, mldsa_hash h,
                         const uint8_t *ctx, size_t ctx_len, const uint8_t *pk,
                         size_t pk_len);

/* ---- internal interface and external mu ------------------------------------------- */

/* ML-DSA.Sign_internal / Verify_internal (FIPS 204 Alg. 7 and 8) on M' as given (no
 * domain separation added: for testing and protocols that build M' themselves).
 * rnd as in mldsa_sign: NULL = hedged (32 fresh bytes from the OS), else 32 bytes (all
 * zero = deterministic). Codes as mldsa_sign / mldsa_verify, without MLDSA_ERR_CONTEXT. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_sign_internal(mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t *mprime,
                        size_t mprime_len, const uint8_t rnd[32], const uint8_t *sk,
                        size_t sk_len);
MLDSA_WARN_UNUSED_RESULT
int mldsa_verify_internal(mldsa_param p, const uint8_t *sig, size_t sig_len,
                          const uint8_t *mprime, size_t mprime_len, const uint8_t *pk,
                          size_t pk_len);

/* External mu: mu = SHAKE256(tr || M', 64), computed where the message is (an HSM split,
 * say). mldsa_compute_mu builds M' of pure ML-DSA: 0 || len(ctx) || ctx || msg, with
 * tr = H(pk). Returns MLDSA_OK, MLDSA_ERR_PARAM, MLDSA_ERR_NULL, MLDSA_ERR_LENGTH (pk_len),
 * MLDSA_ERR_CONTEXT. mldsa_sign_mu / mldsa_verify_mu: codes as mldsa_sign / mldsa_verify
 * (mu NULL is MLDSA_ERR_NULL). */
MLDSA_WARN_UNUSED_RESULT
int mldsa_compute_mu(mldsa_param p, uint8_t mu[64], const uint8_t *pk, size_t pk_len,
                     const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len);
MLDSA_WARN_UNUSED_RESULT
int mldsa_sign_mu(mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                  const uint8_t *rnd, const uint8_t *sk, size_t sk_len);
MLDSA_WARN_UNUSED_RESULT
int mldsa_verify_mu(mldsa_param p, const uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                    const uint8_t *pk, size_t pk_len);

/* ---- key import ------------------------------------------------------------------- */

/* Recompute pk from an expanded sk: the import check for keys from elsewhere.
 * Returns MLDSA_OK, MLDSA_ERR_PARAM, MLDSA_ERR_NULL, MLDSA_ERR_LENGTH, or MLDSA_ERR_KEY (pk
 * zeroed) when s1 or s2 has a coefficient outside [-eta, eta], tr != H(pk), or t0 is not
 * the one the key implies. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_public_key_from_secret(mldsa_param p, uint8_t *pk, size_t pk_len, const uint8_t *sk,
                                 size_t sk_len);

/* ---- streaming mu: messages of any size ---------------------------------------- */

/* mu = SHAKE256(tr || 0 || len(ctx) || ctx || M, 64) of pure ML-DSA (FIPS 204 Alg. 2, 3),
 * absorbed piece by piece: init, update any number of times with any split of M, final;
 * then mldsa_sign_mu / mldsa_verify_mu (or the prepared variants below). Every split gives
 * the mu of mldsa_compute_mu for the whole message.
 *
 * The state is caller memory of a fixed size (no allocation; 512 bytes, room for any
 * ISA's Keccak state). It records the parameter set, the ISA of this process and a check
 * word, and stands for the parameter set in the order of checks: a state that was never
 * initialised, was finalised, or whose header was overwritten is refused with
 * MLDSA_ERR_PARAM (it names no parameter set), never used. A state belongs to the process
 * that made it (refused under another ISA choice). One state serves one thread at a
 * time. */
#define MLDSA_MU_STATE_WORDS 64
typedef struct {
  uint64_t opaque[MLDSA_MU_STATE_WORDS];
} mldsa_mu_state;

/* Starts st with tr = H(pk) and the context. Returns MLDSA_OK; MLDSA_ERR_PARAM,
 * MLDSA_ERR_NULL (st or pk NULL, or ctx NULL with ctx_len > 0), MLDSA_ERR_LENGTH (pk_len),
 * with st untouched; MLDSA_ERR_CONTEXT (ctx_len > 255), with st wiped. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_mu_init(mldsa_mu_state *st, mldsa_param p, const uint8_t *pk, size_t pk_len,
                  const uint8_t *ctx, size_t ctx_len);
/* The same with tr read from an expanded secret key (its bytes 64..127; the rest of the
 * key is not checked here: signing checks it). Same codes (sk for pk). */
MLDSA_WARN_UNUSED_RESULT
int mldsa_mu_init_secret(mldsa_mu_state *st, mldsa_param p, const uint8_t *sk, size_t sk_len,
                         const uint8_t *ctx, size_t ctx_len);
/* Absorbs the next m_len bytes of M. Returns MLDSA_OK; MLDSA_ERR_NULL (st NULL),
 * MLDSA_ERR_PARAM (st not a live state), MLDSA_ERR_NULL (m NULL with m_len > 0), with st
 * untouched. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_mu_update(mldsa_mu_state *st, const uint8_t *m, size_t m_len);
/* Writes the 64-byte mu and wipes st (it is then refused until initialised again).
 * Returns MLDSA_OK; MLDSA_ERR_NULL (st NULL), MLDSA_ERR_PARAM (st not a live state),
 * MLDSA_ERR_NULL (mu NULL), with nothing written to st or mu. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_mu_final(mldsa_mu_state *st, uint8_t mu[64]);

/* ---- prepared keys: many messages under one key ------------------------------------ */

/* Everything that depends on the key alone is computed once: tr, the matrix A in NTT form
 * and t1*2^d in NTT form (public key); K, tr, A and s1, s2, t0 in NTT form (secret key).
 * Same signatures (for the same rnd) and verdicts as the one-shot calls.
 *
 * The structs are caller memory, sized for every parameter set, and must have the 64-byte
 * alignment of their type (automatic or static storage, or aligned_alloc(64, ...) from
 * the heap; compilers without C11/C++11 alignment get it from __attribute__). The
 * contents are in this process's ISA form: they record the parameter set, the ISA and a
 * check word. A prepared key stands for the parameter set in the order of checks: NULL
 * or misaligned is MLDSA_ERR_NULL; made under another ISA (another MLDSA_ISA cap, another
 * machine, another build: ISAs have fixed numbers), by a release with another layout of
 * these structs, never prepared, unprepared or with a damaged header is MLDSA_ERR_KEY. A copy
 * (memcpy) within the process works. The calls that use a prepared key never modify it:
 * many threads may share one. A prepared secret key holds the secret key: wipe it with
 * mldsa_secret_key_unprepare.
 *
 * Stack: the table at the top of this file. */
#define MLDSA_PREPARED_PUBLIC_KEY_BYTES 67584 /* 66 KiB; ML-DSA-87 uses 65,664 */
#define MLDSA_PREPARED_SECRET_KEY_BYTES 86016 /* 84 KiB; ML-DSA-87 uses 83,712 */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define MLDSA_ALIGN64 alignas(64)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define MLDSA_ALIGN64 _Alignas(64)
#elif defined(__GNUC__) || defined(__clang__)
#define MLDSA_ALIGN64 __attribute__((aligned(64)))
#else
#define MLDSA_ALIGN64 /* allocate with 64-byte alignment yourself */
#endif
typedef struct mldsa_prepared_public_key {
  MLDSA_ALIGN64 uint64_t opaque[MLDSA_PREPARED_PUBLIC_KEY_BYTES / 8];
} mldsa_prepared_public_key;
typedef struct mldsa_prepared_secret_key {
  MLDSA_ALIGN64 uint64_t opaque[MLDSA_PREPARED_SECRET_KEY_BYTES / 8];
} mldsa_prepared_secret_key;

/* Prepares pk for verification. Returns MLDSA_OK; MLDSA_ERR_PARAM, MLDSA_ERR_NULL (pp or
 * pk NULL, pp misaligned), MLDSA_ERR_LENGTH (pk_len), with pp untouched. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_public_key_prepare(mldsa_prepared_public_key *pp, mldsa_param p, const uint8_t *pk,
                             size_t pk_len);
/* mldsa_verify under a prepared key. Returns MLDSA_OK, MLDSA_ERR_VERIFY; MLDSA_ERR_NULL (pp
 * NULL or misaligned), MLDSA_ERR_KEY (pp not a public key prepared in this process),
 * MLDSA_ERR_NULL (sig NULL, msg or ctx NULL with a non-zero length), MLDSA_ERR_LENGTH
 * (sig_len), MLDSA_ERR_CONTEXT (ctx_len > 255). */
MLDSA_WARN_UNUSED_RESULT
int mldsa_verify_prepared(const mldsa_prepared_public_key *pp, const uint8_t *sig,
                          size_t sig_len, const uint8_t *msg, size_t msg_len,
                          const uint8_t *ctx, size_t ctx_len);
/* mldsa_verify_mu under a prepared key; the codes of mldsa_verify_prepared (mu NULL is
 * MLDSA_ERR_NULL). */
MLDSA_WARN_UNUSED_RESULT
int mldsa_verify_mu_prepared(const mldsa_prepared_public_key *pp, const uint8_t *sig,
                             size_t sig_len, const uint8_t mu[64]);
/* Prepares an expanded secret key for signing, after the import check of
 * mldsa_public_key_from_secret (s1, s2 in range, tr = H(pk), t0 the one the key implies).
 * Returns MLDSA_OK; MLDSA_ERR_PARAM, MLDSA_ERR_NULL (ps or sk NULL, ps misaligned),
 * MLDSA_ERR_LENGTH (sk_len), with ps untouched; MLDSA_ERR_KEY (the check failed), with ps
 * wiped. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_secret_key_prepare(mldsa_prepared_secret_key *ps, mldsa_param p, const uint8_t *sk,
                             size_t sk_len);
/* mldsa_sign under a prepared key; rnd as for mldsa_sign (NULL = hedged). Returns
 * MLDSA_OK; MLDSA_ERR_NULL (ps NULL or misaligned), MLDSA_ERR_KEY (ps not a secret key
 * prepared in this process), MLDSA_ERR_NULL (sig NULL, msg or ctx NULL with a non-zero
 * length), MLDSA_ERR_LENGTH (sig_len), with sig untouched; MLDSA_ERR_CONTEXT (ctx_len >
 * 255), MLDSA_ERR_RANDOM, MLDSA_ERR_KEY (no signature within the attempt limit), with sig
 * zeroed. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_sign_prepared(const mldsa_prepared_secret_key *ps, uint8_t *sig, size_t sig_len,
                        const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                        size_t ctx_len, const uint8_t *rnd);
/* mldsa_sign_mu under a prepared key; the codes of mldsa_sign_prepared (mu NULL is
 * MLDSA_ERR_NULL). */
MLDSA_WARN_UNUSED_RESULT
int mldsa_sign_mu_prepared(const mldsa_prepared_secret_key *ps, uint8_t *sig, size_t sig_len,
                           const uint8_t mu[64], const uint8_t *rnd);
/* Wipes the whole struct (it is then refused with MLDSA_ERR_KEY). ps may be NULL. */
void mldsa_secret_key_unprepare(mldsa_prepared_secret_key *ps);

/* ---- keys in standard formats (RFC 9881: ML-DSA in X.509) -------------------------
 *
 * Public keys as SubjectPublicKeyInfo, private keys as PKCS#8 OneAsymmetricKey whose
 * privateKey holds the ML-DSA-xx-PrivateKey CHOICE: the 32-byte seed (the form RFC 9881
 * recommends), the expanded key of FIPS 204, or both. The OIDs id-ml-dsa-44/65/87
 * (2.16.840.1.101.3.4.3.17/18/19) name the parameter set. DER, or PEM (RFC 7468, labels
 * "PUBLIC KEY" and "PRIVATE KEY", 64-character lines, LF endings, no NUL terminator).
 *
 * Argument checks run in the order: parameter set, format and form, NULL pointers,
 * lengths and capacities, then the encoding and the key. When one of the argument checks
 * fails (MLDSA_ERR_PARAM, MLDSA_ERR_NULL, MLDSA_ERR_LENGTH, or MLDSA_ERR_ENCODING for an
 * unknown format or form) nothing at all is written. An error found later (a malformed
 * encoding, an inconsistent key) zeroes every output: the buffer over its whole capacity,
 * the length, the parameter set and the seed outputs.
 *
 * Decoders read DER or PEM and never read past in_len. The input is DER when it is one
 * DER element filling it exactly, or when it holds no "-----BEGIN " at all; otherwise
 * PEM. DER is strict: definite minimal lengths, no trailing bytes, the exact sizes of the
 * set the OID names, AlgorithmIdentifier parameters absent. PEM is read as RFC 7468's lax
 * grammar and as OpenSSL reads it: text before BEGIN and after END is ignored (a pkcs12
 * "Bag Attributes" header, a certificate in the same file), the first block with the
 * expected label is used, whitespace anywhere in the base64 text is skipped; the END
 * label must match, and the padding must be canonical (zero dropped bits). Encrypted PEM
 * (RFC 1421 headers) is not read. Every secret the decoder held is wiped. */

/* 32 bytes of OS randomness (getrandom): the seed of mldsa_keygen_from_seed, to keep as
 * the private key (the seed form of RFC 9881).
 * Returns MLDSA_OK; MLDSA_ERR_NULL (seed NULL, nothing written); MLDSA_ERR_RANDOM (the OS
 * gave no randomness; seed zeroed). */
MLDSA_WARN_UNUSED_RESULT
int mldsa_generate_seed(uint8_t seed[32]);

typedef enum { MLDSA_DER = 0, MLDSA_PEM = 1 } mldsa_format;
typedef enum { MLDSA_SK_SEED = 1, MLDSA_SK_EXPANDED = 2, MLDSA_SK_BOTH = 3 } mldsa_sk_form;

/* Encodes the public key pk (pk_len bytes of set p) as a SubjectPublicKeyInfo in format f,
 * writing *out_len bytes at out (capacity out_cap). out == NULL (with out_cap 0) asks the
 * size: *out_len is set and nothing else is done.
 * Returns MLDSA_OK; MLDSA_ERR_PARAM (unknown p); MLDSA_ERR_ENCODING (f neither MLDSA_DER
 * nor MLDSA_PEM); MLDSA_ERR_NULL (out_len or pk NULL, out NULL with out_cap != 0);
 * MLDSA_ERR_LENGTH (pk_len not the set's public-key size, or out_cap < the size).
 * Nothing is written on any error. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_public_key_encode(mldsa_param p, mldsa_format f, uint8_t *out, size_t out_cap,
                            size_t *out_len, const uint8_t *pk, size_t pk_len);

/* Decodes a SubjectPublicKeyInfo (DER or PEM) of in_len bytes at in: the set its OID
 * names in *p, the public key in pk (capacity pk_cap), its length in *pk_len.
 * Returns MLDSA_OK; MLDSA_ERR_NULL (p, pk or pk_len NULL, or in NULL with in_len != 0;
 * nothing written); MLDSA_ERR_ENCODING (anything malformed, another OID, parameters
 * present, the wrong key length; pk zeroed over pk_cap, *pk_len and *p set to 0);
 * MLDSA_ERR_LENGTH (pk_cap below the set's public-key size; nothing written). */
MLDSA_WARN_UNUSED_RESULT
int mldsa_public_key_decode(mldsa_param *p, uint8_t *pk, size_t pk_cap, size_t *pk_len,
                            const uint8_t *in, size_t in_len);

/* Encodes a private key of set p as PKCS#8 (version v1, no attributes, no publicKey) in
 * format f and form: MLDSA_SK_SEED writes the seed, MLDSA_SK_EXPANDED the expanded key sk,
 * MLDSA_SK_BOTH both. seed: 32 bytes, or NULL for MLDSA_SK_EXPANDED; sk (sk_len bytes,
 * the set's secret-key size) may be NULL with sk_len 0 for MLDSA_SK_SEED. Whatever is
 * given is checked first: a seed and sk given together must agree (compared in constant
 * time), and an sk given alone must pass the import check (mldsa_public_key_from_secret).
 * out == NULL (with out_cap 0) asks the size in *out_len.
 * Returns MLDSA_OK; MLDSA_ERR_PARAM (unknown p); MLDSA_ERR_ENCODING (unknown f or form);
 * MLDSA_ERR_NULL (out_len NULL, out NULL with out_cap != 0, sk NULL with sk_len != 0, or a
 * seed or sk the form needs is NULL); MLDSA_ERR_LENGTH (sk_len wrong, out_cap too small);
 * none of these writes anything. MLDSA_ERR_KEY (seed and sk disagree, or sk fails the
 * import check): out zeroed over out_cap, *out_len set to 0. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_private_key_encode(mldsa_param p, mldsa_format f, mldsa_sk_form form,
                             uint8_t *out, size_t out_cap, size_t *out_len,
                             const uint8_t *seed, const uint8_t *sk, size_t sk_len);

/* Decodes a PKCS#8 OneAsymmetricKey (DER or PEM, version v1 or v2, attributes allowed and
 * ignored) of in_len bytes at in. Besides the three forms of RFC 9881 it reads the forms
 * from before it that OpenSSL 3.5 also reads (never written): the bare 32-byte seed, or
 * the bare expanded key, as the privateKey OCTET STRING's whole content (reported as the
 * seed or the expanded form). Its outputs: the set its OID names in *p; the expanded secret key in
 * sk (capacity sk_cap; derived from the seed when only the seed was encoded) and its
 * length in *sk_len; the seed in seed (32 bytes; may be NULL when not wanted) with
 * *has_seed = 1 when one was encoded, else seed zeroed and *has_seed = 0 (has_seed may be
 * NULL). Every key is checked before it is returned.
 * Returns MLDSA_OK; MLDSA_ERR_NULL (p, sk or sk_len NULL, or in NULL with in_len != 0;
 * nothing written); MLDSA_ERR_LENGTH (sk_cap below the set's secret-key size; nothing
 * written); MLDSA_ERR_ENCODING (anything malformed: DER, PEM, an unknown OID, parameters
 * present, a version other than 0 and 1, a publicKey in a v1 key, a seed or expanded key
 * of the wrong size); MLDSA_ERR_KEY (the seed and the expanded key of a "both" key
 * disagree, compared in constant time, as RFC 9881 requires; an expanded key that fails
 * the import check; a v2 publicKey that is not the key's public key). On MLDSA_ERR_ENCODING
 * and MLDSA_ERR_KEY, sk is zeroed over sk_cap, seed over 32 bytes, and *sk_len, *has_seed
 * and *p are set to 0. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_private_key_decode(mldsa_param *p, uint8_t *sk, size_t sk_cap, size_t *sk_len,
                             uint8_t *seed, int *has_seed, const uint8_t *in, size_t in_len);

/* The ML-DSA public key of an X.509 certificate (RFC 5280; DER, or PEM labelled
 * "CERTIFICATE": the first such block) of in_len bytes at in: the set its
 * SubjectPublicKeyInfo's OID names in *p, the raw key in pk (capacity pk_cap), its length
 * in *pk_len. The DER is read strictly down to the SubjectPublicKeyInfo, and the rest of
 * the certificate is checked to be well-formed elements in their order; nothing is read
 * past in_len. It does not check the certificate's signature, dates, names, extensions or
 * chain: that is a certificate library's work. A PEM certificate may hold up to 16 KiB
 * of DER.
 * Returns MLDSA_OK; MLDSA_ERR_NULL (p, pk or pk_len NULL, or in NULL with in_len != 0;
 * nothing written); MLDSA_ERR_ENCODING (not a certificate, malformed, or a key that is not
 * ML-DSA; pk zeroed over pk_cap, *pk_len and *p set to 0); MLDSA_ERR_LENGTH (pk_cap below
 * the set's public-key size; nothing written). pk may overlap in. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_certificate_public_key(mldsa_param *p, uint8_t *pk, size_t pk_cap, size_t *pk_len,
                                 const uint8_t *in, size_t in_len);

/* ---- batches ---------------------------------------------------------------------- */

/* Many independent operations of one parameter set in one call, so that their hashing
 * (mu, c~ = H(mu || w1), SampleInBall, rho'') shares the lanes of the batched Keccak
 * (4 on AVX2, 8 on AVX-512): the results equal those of the one-at-a-time calls exactly,
 * for any n (0 included), and the stack stays bounded whatever n (items are worked in
 * groups). Pure ML-DSA (FIPS 204 Alg. 2 and 3) with a context per item.
 *
 * Item by item: results[i] gets the code that item's one-at-a-time call would return (a
 * NULL pointer, a wrong signature or key length, a key of another set, a context over 255
 * bytes, a signature that does not verify, a malformed hint), and every other item is
 * still checked or signed: one malformed item never fails the batch. Only what makes the
 * call itself impossible fails it as a whole, writing nothing: items or results NULL with
 * n > 0, or a prepared key that is NULL or misaligned (MLDSA_ERR_NULL). A failure common
 * to every item found after that (MLDSA_ERR_SELFTEST, an unknown set's MLDSA_ERR_PARAM, a
 * prepared key that is not live's MLDSA_ERR_KEY) writes its code into every results[i],
 * so a reused array never keeps an old MLDSA_OK. The return value is MLDSA_OK when every
 * item succeeded, else the first failing item's code in item order (any code but MLDSA_OK
 * means "not every item verified"). Items may share read-only buffers (one public key or
 * message for many items); an output (sig, results) must not overlap another item's
 * buffers. */

/* One signature to check: pk is NULL and pk_len 0 in the prepared form. */
typedef struct {
  const uint8_t *pk;
  size_t pk_len;
  const uint8_t *msg;
  size_t msg_len;
  const uint8_t *ctx;
  size_t ctx_len;
  const uint8_t *sig;
  size_t sig_len;
} mldsa_verify_item;

/* n signatures of set p, each under its own public key (as n calls of mldsa_verify).
 * results[i] says which item failed and why. */
MLDSA_WARN_UNUSED_RESULT
int mldsa_verify_batch(mldsa_param p, const mldsa_verify_item *items, size_t n, int *results);

/* n signatures under one prepared public key (as n calls of mldsa_verify_prepared); an
 * item whose pk_len is not 0 is that item's MLDSA_ERR_LENGTH (its pk is not read). */
MLDSA_WARN_UNUSED_RESULT
int mldsa_verify_prepared_batch(const mldsa_prepared_public_key *pp,
                                const mldsa_verify_item *items, size_t n, int *results);

/* One message to sign, its signature written into sig (sig_len bytes). */
typedef struct {
  const uint8_t *msg;
  size_t msg_len;
  const uint8_t *ctx;
  size_t ctx_len;
  const uint8_t *rnd; /* as mldsa_sign: NULL = hedged (32 fresh bytes from the OS) */
  uint8_t *sig;
  size_t sig_len;
} mldsa_sign_item;

/* n messages signed with one prepared secret key: the same signatures as n calls of
 * mldsa_sign_prepared (hedged items draw their randomness in item order, as those calls
 * would). A failed item's sig is zeroed, except where mldsa_sign_prepared leaves it
 * untouched: sig NULL, msg or ctx NULL with a length, a wrong sig_len (a length found
 * wrong is not trusted for writing). A sig may overlap its own item's msg or ctx (read
 * before it is written). */
MLDSA_WARN_UNUSED_RESULT
int mldsa_sign_batch(const mldsa_prepared_secret_key *ps, const mldsa_sign_item *items,
                     size_t n, int *results);

/* ---- randomness ------------------------------------------------------------------- */

/* A source of randomness: fills len bytes at out and returns 0, or returns non-zero when
 * it cannot (what it wrote is then wiped and never used). */
typedef int (*mldsa_random_source)(void *ctx, uint8_t *out, size_t len);

/* Makes fill (called with ctx) the randomness of every later call that draws any
 * (mldsa_keygen, mldsa_generate_seed, hedged signing), for the whole process, instead of
 * the OS source; fill NULL restores the OS source (ctx is then ignored). For a FIPS
 * module's DRBG, say. A failing fill gives those calls MLDSA_ERR_RANDOM with their
 * outputs zeroed. Set it once, before other threads use the library: it is thread-safe
 * (a draw sees an old or a new (fill, ctx) pair, never half of each), but a call already
 * drawing may still be running with the old pair, so ctx must stay valid while any
 * call may still use it. fill may be called from any thread, by concurrent calls at
 * once, for up to 32 bytes at a time. Returns MLDSA_OK (or, in an MLDSA_SELFTEST build
 * whose self-tests failed, MLDSA_ERR_SELFTEST, and the source is unchanged). */
MLDSA_WARN_UNUSED_RESULT
int mldsa_set_random(mldsa_random_source fill, void *ctx);

/* ---- wiping ------------------------------------------------------------------------ */

/* Zeroes n bytes at p in a way the compiler may not remove (as a dead store before free
 * or return), for the caller's own copies of seeds and secret keys. p may be NULL when n
 * is 0 (a NULL p is ignored). */
void mldsa_wipe(void *p, size_t n);

/* ---- self-tests ------------------------------------------------------------------- */

#define MLDSA_ERR_SELFTEST (-10) /* a self-test failed: the library refuses to work */

/* Known-answer tests (ACVP vectors; SHA3-256 of the expected keys and signatures) of
 * keygen from a seed, deterministic signing and verification, and a verification that
 * must fail (one signature bit flipped), each once more through the prepared keys and
 * through the batch calls' signing and verification, for every parameter set of this
 * build on the ISA in use. Returns MLDSA_OK or MLDSA_ERR_SELFTEST. Concurrent calls run
 * one after another.
 *
 * Built with the CMake option MLDSA_SELFTEST=ON: the first call of any function that
 * returns an int runs these tests once per process; mldsa_keygen and
 * mldsa_keygen_from_seed run a pairwise consistency test (a signature made with the new
 * key and verified with it; the key decoders import keys and run none); and a failure of
 * either is sticky: from then on every such call, mldsa_selftest included, returns
 * MLDSA_ERR_SELFTEST with every output buffer that is not NULL zeroed over its stated
 * length or capacity (a batch call also writes the code into every results[i]). */
MLDSA_WARN_UNUSED_RESULT
int mldsa_selftest(void);

/* ---- introspection ---------------------------------------------------------------- */

/* The arithmetic the calls above use: "scalar", "sse2", "avx2" or "avx512" (x86-64),
 * "scalar" or "neon" (AArch64). Never NULL. */
const char *mldsa_isa(void);

#ifdef __cplusplus
}
#endif

#endif /* MLDSA_H */
