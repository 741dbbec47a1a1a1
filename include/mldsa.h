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
#define MLDSA_ERR_ENCODING  -9  /* malformed or unsupported DER/PEM, or a wrong OID */

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

/* ---- Keys in standard formats (RFC 9881: ML-DSA in X.509) ----
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
 * Decoders read DER or PEM (detected by the "-----BEGIN " at the start) and never read
 * past in_len. DER is strict: definite minimal lengths, no trailing bytes, the exact sizes
 * of the set the OID names, AlgorithmIdentifier parameters absent. PEM is strict: the
 * expected label, base64 with lines of any length ending in LF or CRLF, canonical
 * padding, nothing before BEGIN or after END. Every secret the decoder held is wiped. */

/* 32 bytes of OS randomness (getrandom): the seed of mldsa_keygen_from_seed, to keep as
 * the private key (the seed form of RFC 9881).
 * Returns MLDSA_OK; MLDSA_ERR_NULL (seed NULL, nothing written); MLDSA_ERR_RANDOM (the OS
 * gave no randomness; seed zeroed). */
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
int mldsa_public_key_encode(mldsa_param p, mldsa_format f, uint8_t *out, size_t out_cap,
                            size_t *out_len, const uint8_t *pk, size_t pk_len);

/* Decodes a SubjectPublicKeyInfo (DER or PEM) of in_len bytes at in: the set its OID
 * names in *p, the public key in pk (capacity pk_cap), its length in *pk_len.
 * Returns MLDSA_OK; MLDSA_ERR_NULL (p, pk or pk_len NULL, or in NULL with in_len != 0;
 * nothing written); MLDSA_ERR_ENCODING (anything malformed, another OID, parameters
 * present, the wrong key length; pk zeroed over pk_cap, *pk_len and *p set to 0);
 * MLDSA_ERR_LENGTH (pk_cap below the set's public-key size; nothing written). */
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
int mldsa_private_key_encode(mldsa_param p, mldsa_format f, mldsa_sk_form form,
                             uint8_t *out, size_t out_cap, size_t *out_len,
                             const uint8_t *seed, const uint8_t *sk, size_t sk_len);

/* Decodes a PKCS#8 OneAsymmetricKey (DER or PEM, version v1 or v2, attributes allowed and
 * ignored) of in_len bytes at in: the set its OID names in *p; the expanded secret key in
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
int mldsa_private_key_decode(mldsa_param *p, uint8_t *sk, size_t sk_cap, size_t *sk_len,
                             uint8_t *seed, int *has_seed, const uint8_t *in, size_t in_len);

/* Which arithmetic the calls above use: "scalar", "sse2", "avx2" or "avx512" */
const char *mldsa_isa(void);

#ifdef __cplusplus
}
#endif

#endif /* MLDSA_H */
