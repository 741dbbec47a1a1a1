/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The OpenSSL 3 provider "mldsa": what its operation files share. One file per operation
 * kind (keymgmt.c, signature.c, encoder.c, decoder.c), each ending in its dispatch tables;
 * provider.c lists the algorithms and capabilities and holds the core's upcalls.
 *
 * Built against OpenSSL 3.0's headers, it runs in every OpenSSL 3: the dispatch numbers and
 * parameter names that 3.0 lacks (the 3.4 message-signing calls, ML-DSA's context
 * parameters) are defined in compat.h with the values later releases give them. */
#ifndef MLDSA_PROV_H
#define MLDSA_PROV_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include "compat.h"
#include "mldsa.h"

/* One parameter set as OpenSSL names it. */
typedef struct {
  mldsa_param param;
  const char *name;      /* "ML-DSA-65": OpenSSL's primary name, and the OID's long name */
  const char *alt_name;  /* "MLDSA65" */
  const char *sn;        /* "id-ml-dsa-65": the OID's short name */
  const char *oid;       /* "2.16.840.1.101.3.4.3.18" */
  const char *tls_name;  /* "mldsa65": the TLS 1.3 SignatureScheme's IANA name */
  unsigned tls_code;     /* 0x0905 */
  int security_bits;     /* 128, 192, 256 */
  int category;          /* NIST security category: 2, 3, 5 */
  size_t pk_bytes, sk_bytes, sig_bytes;
  uint8_t aid_der[13];   /* AlgorithmIdentifier: SEQUENCE { OID }, no parameters */
} mldsa_prov_alg;

#define MLDSA_PROV_NALGS 3
extern const mldsa_prov_alg mldsa_prov_algs[MLDSA_PROV_NALGS];
#define MLDSA_PROV_ALG(i) (&mldsa_prov_algs[i])

/* key_forms.c: the private-key forms of PKCS#8 that OpenSSL 3.5 names in its
   ml-dsa.input_formats and ml-dsa.output_formats, in 3.5's table order. */
typedef enum {
  MLDSA_PROV_FORM_SEED_PRIV,   /* "seed-priv": seed and expanded key */
  MLDSA_PROV_FORM_PRIV_ONLY,   /* "priv-only": the expanded key */
  MLDSA_PROV_FORM_OQS_KEYPAIR, /* "oqskeypair": expanded key and public key */
  MLDSA_PROV_FORM_SEED_ONLY,   /* "seed-only": the seed */
  MLDSA_PROV_FORM_BARE_PRIV,   /* "bare-priv": the expanded key, no DER inside */
  MLDSA_PROV_FORM_BARE_SEED,   /* "bare-seed": the seed, no DER inside */
  MLDSA_PROV_NFORMS
} mldsa_prov_form;
extern const char *const mldsa_prov_form_names[MLDSA_PROV_NFORMS];

/* Forms in order of preference (n == 0: the configuration enabled none). */
typedef struct {
  int n;
  mldsa_prov_form order[MLDSA_PROV_NFORMS];
} mldsa_prov_form_list;

/* The list a configuration value names (NULL: every form, in table order). */
void mldsa_prov_forms_parse(const char *list, mldsa_prov_form_list *out);
int mldsa_prov_forms_has(const mldsa_prov_form_list *list, mldsa_prov_form form);
int mldsa_prov_form_needs_seed(mldsa_prov_form form);

/* Where the parts of a privateKey content are (NULL: not in this form). */
typedef struct {
  const uint8_t *seed, *sk, *pk;
} mldsa_prov_form_parts;

/* The form of a privateKey OCTET STRING's content (len bytes): 1 with its parts, or 0
   when it is none of them. */
int mldsa_prov_form_parse(const mldsa_prov_alg *a, const uint8_t *in, size_t len,
                          mldsa_prov_form *form, mldsa_prov_form_parts *parts);
/* The PrivateKeyInfo DER of a key in one form (the parts the form needs given), into
   out of MLDSA_PROV_MAX_PKCS8 bytes; returns its length. */
#define MLDSA_PROV_MAX_PKCS8 8192
size_t mldsa_prov_form_pkcs8(const mldsa_prov_alg *a, mldsa_prov_form form,
                             const uint8_t *seed, const uint8_t *sk, const uint8_t *pk,
                             uint8_t *out);

typedef struct {
  const OSSL_CORE_HANDLE *handle;
  OSSL_LIB_CTX *libctx; /* a child of the application's library context */
  /* OpenSSL 3.5's ml-dsa.* options of this provider's configuration section */
  int retain_seed, prefer_seed;
  mldsa_prov_form_list input_forms, output_forms;
  int prepare; /* prepare keys at their first signature or verification (default 1) */
  char *counters_file; /* mldsa.counters_file: the counters are appended there at the end */
} mldsa_prov_ctx;

/* A key: public part, expanded secret key and seed, each present or not. The prepared
 * forms are made by the second signature or verification (a key used once gains nothing
 * from them) and published once with a compare-and-swap, so threads that share an
 * EVP_PKEY never lock. */
typedef struct {
  const mldsa_prov_alg *alg;
  mldsa_prov_ctx *provctx;
  int has_pub, has_priv, has_seed;
  uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES];
  uint8_t *sk; /* sk_bytes, heap, wiped on free */
  uint8_t seed[MLDSA_SEED_BYTES];
  mldsa_prepared_public_key *prepared_pub;
  mldsa_prepared_secret_key *prepared_sec;
  unsigned pub_uses, sec_uses; /* verifications and signatures so far (atomic) */
} mldsa_prov_key;

/* keymgmt.c */
mldsa_prov_key *mldsa_prov_key_new(mldsa_prov_ctx *provctx, const mldsa_prov_alg *alg);
void mldsa_prov_key_free(mldsa_prov_key *key);
/* Sets the key from an expanded secret key (and the seed it came from, or NULL), deriving
 * and checking the public key. Returns 1, or 0 with an error raised. */
int mldsa_prov_key_set_secret(mldsa_prov_key *key, const uint8_t *sk, const uint8_t *seed);
/* Sets the key pair a seed generates. Returns 1, or 0 with an error raised. */
int mldsa_prov_key_set_seed(mldsa_prov_key *key, const uint8_t seed[MLDSA_SEED_BYTES]);
/* Sets the key from a seed and the expanded key given with it, which must agree (the one
   ml-dsa.prefer_seed prefers is the key, the other is checked). Returns 1, or 0 with an
   error raised. */
int mldsa_prov_key_set_both(mldsa_prov_key *key, const uint8_t seed[MLDSA_SEED_BYTES],
                            const uint8_t *sk);
/* Imports OpenSSL's key parameters ("pub", "priv", "seed") of the selected parts. */
int mldsa_prov_key_import(mldsa_prov_key *key, int selection, const OSSL_PARAM params[]);
/* Hands the selected parts to cb as OpenSSL's key parameters. */
int mldsa_prov_key_export(const mldsa_prov_key *key, int selection, OSSL_CALLBACK *cb,
                          void *cbarg);
/* The prepared forms (NULL, with an error raised, when they cannot be made). */
const mldsa_prepared_public_key *mldsa_prov_key_prepared_pub(mldsa_prov_key *key);
const mldsa_prepared_secret_key *mldsa_prov_key_prepared_sec(mldsa_prov_key *key);

/* The key structures of the encoders and decoders. */
typedef enum {
  MLDSA_PROV_SPKI, /* SubjectPublicKeyInfo */
  MLDSA_PROV_PKI,  /* PrivateKeyInfo (PKCS#8) */
  MLDSA_PROV_EPKI, /* EncryptedPrivateKeyInfo */
  MLDSA_PROV_TEXT  /* openssl pkey -text */
} mldsa_prov_structure;

/* text.c: the key as OpenSSL 3.5 prints it. */
int mldsa_prov_key_to_text(OSSL_CORE_BIO *out, const mldsa_prov_key *key, int selection);

/* provider.c: errors through the core, with a reason per libmldsa code */
#define MLDSA_PROV_R_LIB_BASE 100 /* reason = BASE - mldsa code, for codes -1..-20 */
#define MLDSA_PROV_R_NO_KEY 1
#define MLDSA_PROV_R_WRONG_KEY_TYPE 2
#define MLDSA_PROV_R_BAD_PARAMETER 3
#define MLDSA_PROV_R_NOT_SUPPORTED 4
#define MLDSA_PROV_R_BUFFER_TOO_SMALL 5
#define MLDSA_PROV_R_OUT_OF_MEMORY 6
#define MLDSA_PROV_R_BAD_STATE 7
#define MLDSA_PROV_R_IO 8
#define MLDSA_PROV_R_ENCRYPTION 9
#define MLDSA_PROV_R_NO_FORMAT 10
#define MLDSA_PROV_R_SEED_MISMATCH 11
/* Errors are raised with the handle of the provider instance that meets them (the module
   is loaded once per library context that activates it, its own child included). */
void mldsa_prov_raise(const mldsa_prov_ctx *pc, int reason, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Raises libmldsa's code (with what was being done) and returns 0. */
int mldsa_prov_lib_error(const mldsa_prov_ctx *pc, int code, const char *what);

/* The core's BIO upcalls, for encoders and decoders. */
int mldsa_prov_bio_read_all(const mldsa_prov_ctx *pc, OSSL_CORE_BIO *in, uint8_t **data,
                            size_t *len);
int mldsa_prov_bio_write(const mldsa_prov_ctx *pc, OSSL_CORE_BIO *out, const void *data,
                         size_t len);
int mldsa_prov_bio_printf(const mldsa_prov_ctx *pc, OSSL_CORE_BIO *out, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Counters of the work done here, gettable from the provider ("mldsa-keygens", ...), so
 * that tests can prove this provider, not another, did it. */
void mldsa_prov_count(int which);
enum { MLDSA_PROV_COUNT_KEYGEN, MLDSA_PROV_COUNT_SIGN, MLDSA_PROV_COUNT_VERIFY,
       MLDSA_PROV_COUNT_DECODE, MLDSA_PROV_COUNT_ENCODE, MLDSA_PROV_NCOUNTS };

/* The algorithm tables of each operation (a macro gives one entry per set). */
extern const OSSL_ALGORITHM mldsa_prov_keymgmt[];
extern const OSSL_ALGORITHM mldsa_prov_signature[];
extern const OSSL_ALGORITHM mldsa_prov_encoder[];
extern const OSSL_ALGORITHM mldsa_prov_decoder[];

/* "ML-DSA-65:MLDSA65:2.16.840.1.101.3.4.3.18:id-ml-dsa-65", OpenSSL 3.5's names */
#define MLDSA_PROV_NAMES(n, oid) "ML-DSA-" #n ":MLDSA" #n ":" oid ":id-ml-dsa-" #n
#define MLDSA_PROV_NAMES_44 MLDSA_PROV_NAMES(44, "2.16.840.1.101.3.4.3.17")
#define MLDSA_PROV_NAMES_65 MLDSA_PROV_NAMES(65, "2.16.840.1.101.3.4.3.18")
#define MLDSA_PROV_NAMES_87 MLDSA_PROV_NAMES(87, "2.16.840.1.101.3.4.3.19")

/* Calls X(index, set number) once per set. */
#define MLDSA_PROV_FOR_EACH_SET(X) X(0, 44) X(1, 65) X(2, 87)

#endif
