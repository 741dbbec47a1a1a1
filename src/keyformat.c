/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Keys in the formats of RFC 9881 (ML-DSA in X.509), DER or PEM: the public API
 * mldsa_public_key_encode/decode, mldsa_private_key_encode/decode, mldsa_generate_seed.
 *
 *   SubjectPublicKeyInfo ::= SEQUENCE {
 *     algorithm         SEQUENCE { id-ml-dsa-xx OBJECT IDENTIFIER }   -- parameters absent
 *     subjectPublicKey  BIT STRING }                                  -- 0 unused bits || pk
 *
 *   OneAsymmetricKey ::= SEQUENCE {                                   -- RFC 5958 (PKCS#8)
 *     version                    INTEGER { v1(0), v2(1) },
 *     privateKeyAlgorithm        SEQUENCE { id-ml-dsa-xx },           -- parameters absent
 *     privateKey                 OCTET STRING,   -- holds the DER of ML-DSA-xx-PrivateKey
 *     attributes             [0] IMPLICIT Attributes OPTIONAL,        -- allowed, ignored
 *     publicKey              [1] IMPLICIT BIT STRING OPTIONAL }       -- v2 only; must match
 *
 *   ML-DSA-xx-PrivateKey ::= CHOICE {
 *     seed         [0] IMPLICIT OCTET STRING (SIZE (32)),
 *     expandedKey  OCTET STRING (SIZE (2560 | 4032 | 4896)),
 *     both         SEQUENCE { seed OCTET STRING (SIZE (32)),
 *                             expandedKey OCTET STRING (SIZE (2560 | 4032 | 4896)) } }
 *
 *   id-ml-dsa-44/65/87 ::= 2.16.840.1.101.3.4.3.17 / .18 / .19
 *
 * Encoders write version v1 (0) without attributes or publicKey, as OpenSSL does.
 *
 * Checks run in the order: parameter set (encoders), format and form (encoders), NULL
 * pointers, lengths and capacities, then the encoding and the key. A failure among the
 * first group writes nothing at all; a later one zeroes every output. */
#include <string.h>

#include "ct.h"
#include "der.h"
#include "api_list.h"
#include "mldsa.h"
#include "pem.h"
#include "selftest.h"
#include "util.h"

#define SEED_BYTES 32
#define MAX_PK_BYTES 2592
#define MAX_SK_BYTES 4896
/* The largest DER we write or accept: ML-DSA-87 in the "both" form is 4,962 bytes. */
#define MAX_DER_BYTES 5120

#define MISSING(ptr, len) ((ptr) == NULL && (len) != 0)

static const char pem_public[] = "PUBLIC KEY", pem_private[] = "PRIVATE KEY";

/* DER of id-ml-dsa-44 without its last arc (17, 18, 19 for 44, 65, 87). */
static const uint8_t oid_prefix[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03};
#define OID_BYTES (sizeof oid_prefix + 1)

static uint8_t oid_last(mldsa_param p) { return p == MLDSA_44 ? 17 : p == MLDSA_65 ? 18 : 19; }

/* A call refused by the self-tests (selftest.h): its outputs zeroed. */
#define REFUSED() MLDSA_SELFTEST_REFUSED()
#define ZERO(ptr, len) mldsa_selftest_zero((ptr), (len))
#define ZERO_FIELD(ptr) mldsa_selftest_zero((ptr), sizeof *(ptr))

int mldsa_generate_seed_impl(uint8_t seed[32]) {
  if (REFUSED()) {
    ZERO(seed, SEED_BYTES);
    return MLDSA_ERR_SELFTEST;
  }
  if (seed == NULL) return MLDSA_ERR_NULL;
  if (mldsa_randombytes(seed, SEED_BYTES) != 0) {
    mldsa_zeroize(seed, SEED_BYTES);
    return MLDSA_ERR_RANDOM;
  }
  return MLDSA_OK;
}

/* ---- reading ---- */

/* AlgorithmIdentifier with one of the three OIDs and no parameters; the set in *p. */
static int get_algorithm(mldsa_der *r, mldsa_param *p) {
  mldsa_der alg, oid;
  if (mldsa_der_get(r, MLDSA_DER_SEQUENCE, &alg) != 0) return -1;
  if (mldsa_der_get(&alg, MLDSA_DER_OID, &oid) != 0 || alg.len != 0) return -1;
  if (oid.len != OID_BYTES || memcmp(oid.p, oid_prefix, sizeof oid_prefix) != 0) return -1;
  switch (oid.p[sizeof oid_prefix]) {
    case 17:
      *p = MLDSA_44;
      return 0;
    case 18:
      *p = MLDSA_65;
      return 0;
    case 19:
      *p = MLDSA_87;
      return 0;
    default:
      return -1;
  }
}

/* BIT STRING contents with no unused bits and exactly len bytes after that count. */
static const uint8_t *bit_string_bytes(const mldsa_der *bits, size_t len) {
  if (bits->len != len + 1 || bits->p[0] != 0) return NULL;
  return bits->p + 1;
}

/* The DER to parse: the input itself, or the decoded bytes (at most cap) of the first PEM
 * block with this label in buf. The input is PEM when it is not one DER element and holds
 * a BEGIN line somewhere (text may precede it); otherwise it is DER, read strictly. 0, or
 * -1 for PEM that fails (mldsa_pem_read says why). */
static int der_of(const uint8_t *in, size_t in_len, const char *label, uint8_t *buf, size_t cap,
                  mldsa_der *der) {
  if (mldsa_pem_detect(in, in_len)) {
    size_t n;
    if (mldsa_pem_read(in, in_len, label, buf, cap, &n) != MLDSA_PEM_OK) return -1;
    der->p = buf;
    der->len = n;
  } else {
    der->p = in;
    der->len = in_len;
  }
  return 0;
}

static int parse_spki(mldsa_der der, mldsa_param *p, const uint8_t **pk) {
  mldsa_der spki, bits;
  if (mldsa_der_get(&der, MLDSA_DER_SEQUENCE, &spki) != 0 || der.len != 0) return -1;
  if (get_algorithm(&spki, p) != 0) return -1;
  if (mldsa_der_get(&spki, MLDSA_DER_BIT_STRING, &bits) != 0 || spki.len != 0) return -1;
  *pk = bit_string_bytes(&bits, mldsa_public_key_bytes_impl(*p));
  return *pk ? 0 : -1;
}

/* The outputs of the public-key decoders: the key found (key, set) or why none was. */
static int public_key_outputs(int ret, mldsa_param set, const uint8_t *key, mldsa_param *p,
                              uint8_t *pk, size_t pk_cap, size_t *pk_len) {
  if (ret == MLDSA_OK && pk_cap < mldsa_public_key_bytes_impl(set))
    ret = MLDSA_ERR_LENGTH; /* nothing written */
  if (ret == MLDSA_OK) {
    /* key may lie in the input, which pk, p or pk_len may overlap: move the key first,
     * with memmove, and write the small outputs after it. */
    size_t n = mldsa_public_key_bytes_impl(set);
    memmove(pk, key, n);
    *pk_len = n;
    *p = set;
  } else if (ret == MLDSA_ERR_ENCODING) {
    memset(pk, 0, pk_cap);
    *pk_len = 0;
    *p = (mldsa_param)0;
  }
  return ret;
}

/* Out of line: its DER buffer is not on the stack while the power-on tests run. */
static __attribute__((noinline)) int public_key_decode(mldsa_param *p, uint8_t *pk,
                                                       size_t pk_cap, size_t *pk_len,
                                                       const uint8_t *in, size_t in_len) {
  if (p == NULL || pk == NULL || pk_len == NULL || MISSING(in, in_len)) return MLDSA_ERR_NULL;
  uint8_t buf[MAX_DER_BYTES];
  mldsa_der der;
  mldsa_param set = MLDSA_44;
  const uint8_t *key = NULL;
  int ret = MLDSA_OK;
  if (der_of(in, in_len, pem_public, buf, sizeof buf, &der) != 0 ||
      parse_spki(der, &set, &key) != 0)
    ret = MLDSA_ERR_ENCODING;
  ret = public_key_outputs(ret, set, key, p, pk, pk_cap, pk_len);
  mldsa_zeroize(buf, sizeof buf);
  return ret;
}

int mldsa_public_key_decode_impl(mldsa_param *p, uint8_t *pk, size_t pk_cap, size_t *pk_len,
                                 const uint8_t *in, size_t in_len) {
  if (REFUSED()) {
    ZERO_FIELD(p);
    ZERO(pk, pk_cap);
    ZERO_FIELD(pk_len);
    return MLDSA_ERR_SELFTEST;
  }
  return public_key_decode(p, pk, pk_cap, pk_len, in, in_len);
}

/* Reads one element with the given tag and hands out its whole encoding (tag and length
 * included) in *whole; 0 or -1 as mldsa_der_get. */
static int get_whole(mldsa_der *r, uint8_t tag, mldsa_der *whole) {
  const uint8_t *start = r->p;
  mldsa_der body;
  if (mldsa_der_get(r, tag, &body) != 0) return -1;
  whole->p = start;
  whole->len = (size_t)(r->p - start);
  return 0;
}

/* RFC 5280 Certificate, read strictly down to the SubjectPublicKeyInfo and no further
 * (names, validity, extensions and the signature are only checked to be well-formed
 * elements with their tags, in their order):
 *   Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm SEQUENCE,
 *                              signatureValue BIT STRING }
 *   TBSCertificate ::= SEQUENCE { version [0] EXPLICIT INTEGER OPTIONAL, serialNumber
 *     INTEGER, signature SEQUENCE, issuer SEQUENCE, validity SEQUENCE, subject SEQUENCE,
 *     subjectPublicKeyInfo SEQUENCE, issuerUniqueID [1] OPTIONAL, subjectUniqueID [2]
 *     OPTIONAL, extensions [3] EXPLICIT SEQUENCE OPTIONAL } */
static int parse_certificate(mldsa_der der, mldsa_param *p, const uint8_t **pk) {
  mldsa_der cert, tbs, body, version, spki;
  if (mldsa_der_get(&der, MLDSA_DER_SEQUENCE, &cert) != 0 || der.len != 0) return -1;
  if (mldsa_der_get(&cert, MLDSA_DER_SEQUENCE, &tbs) != 0) return -1;
  if (mldsa_der_get(&cert, MLDSA_DER_SEQUENCE, &body) != 0) return -1;
  if (mldsa_der_get(&cert, MLDSA_DER_BIT_STRING, &body) != 0 || cert.len != 0) return -1;
  if (mldsa_der_peek(&tbs) == MLDSA_DER_CONTEXT_CONS_0) {
    if (mldsa_der_get(&tbs, MLDSA_DER_CONTEXT_CONS_0, &version) != 0) return -1;
    if (mldsa_der_get(&version, MLDSA_DER_INTEGER, &body) != 0 || version.len != 0) return -1;
  }
  if (mldsa_der_get(&tbs, MLDSA_DER_INTEGER, &body) != 0) return -1;
  for (int i = 0; i < 4; ++i) /* signature, issuer, validity, subject */
    if (mldsa_der_get(&tbs, MLDSA_DER_SEQUENCE, &body) != 0) return -1;
  if (get_whole(&tbs, MLDSA_DER_SEQUENCE, &spki) != 0) return -1;
  if (mldsa_der_peek(&tbs) == 0x81 && mldsa_der_get(&tbs, 0x81, &body) != 0) return -1;
  if (mldsa_der_peek(&tbs) == 0x82 && mldsa_der_get(&tbs, 0x82, &body) != 0) return -1;
  if (mldsa_der_peek(&tbs) == 0xA3) {
    mldsa_der ext;
    if (mldsa_der_get(&tbs, 0xA3, &ext) != 0) return -1;
    if (mldsa_der_get(&ext, MLDSA_DER_SEQUENCE, &body) != 0 || ext.len != 0) return -1;
  }
  if (tbs.len != 0) return -1;
  return parse_spki(spki, p, pk);
}

/* A PEM certificate's DER: an ML-DSA-87 certificate signed with ML-DSA-87 is about 7.6 KB;
 * this leaves room for long names and extensions. DER input has no limit. */
#define MAX_CERT_DER_BYTES 16384

/* Out of line, like public_key_decode. */
static __attribute__((noinline)) int certificate_public_key(mldsa_param *p, uint8_t *pk,
                                                            size_t pk_cap, size_t *pk_len,
                                                            const uint8_t *in, size_t in_len) {
  if (p == NULL || pk == NULL || pk_len == NULL || MISSING(in, in_len)) return MLDSA_ERR_NULL;
  uint8_t buf[MAX_CERT_DER_BYTES];
  mldsa_der der;
  mldsa_param set = MLDSA_44;
  const uint8_t *key = NULL;
  int ret = MLDSA_OK;
  if (der_of(in, in_len, "CERTIFICATE", buf, sizeof buf, &der) != 0 ||
      parse_certificate(der, &set, &key) != 0)
    ret = MLDSA_ERR_ENCODING;
  return public_key_outputs(ret, set, key, p, pk, pk_cap, pk_len);
}

int mldsa_certificate_public_key_impl(mldsa_param *p, uint8_t *pk, size_t pk_cap,
                                      size_t *pk_len, const uint8_t *in, size_t in_len) {
  if (REFUSED()) {
    ZERO_FIELD(p);
    ZERO(pk, pk_cap);
    ZERO_FIELD(pk_len);
    return MLDSA_ERR_SELFTEST;
  }
  return certificate_public_key(p, pk, pk_cap, pk_len, in, in_len);
}

/* What a OneAsymmetricKey holds: views into the DER. */
typedef struct {
  mldsa_param p;
  const uint8_t *seed;     /* SEED_BYTES, or NULL */
  const uint8_t *expanded; /* the set's secret-key size, or NULL */
  const uint8_t *pub;      /* the set's public-key size, or NULL */
} private_key_parts;

/* The ML-DSA-xx-PrivateKey CHOICE, exactly filling the privateKey OCTET STRING; or one
 * of the forms from before RFC 9881 that OpenSSL 3.5 also reads: the bare seed or the bare
 * expanded key as the whole OCTET STRING. The sizes tell them apart: a CHOICE is never
 * exactly 32 or exactly the secret-key size (its own tag and length come on top). */
static int parse_choice(mldsa_der r, private_key_parts *k) {
  size_t sk_bytes = mldsa_secret_key_bytes_impl(k->p);
  mldsa_der seed, expanded, both;
  if (r.len == SEED_BYTES) {
    k->seed = r.p;
    return 0;
  }
  if (r.len == sk_bytes) {
    k->expanded = r.p;
    return 0;
  }
  switch (mldsa_der_peek(&r)) {
    case MLDSA_DER_CONTEXT_0:
      if (mldsa_der_get(&r, MLDSA_DER_CONTEXT_0, &seed) != 0 || seed.len != SEED_BYTES) return -1;
      k->seed = seed.p;
      break;
    case MLDSA_DER_OCTET_STRING:
      if (mldsa_der_get(&r, MLDSA_DER_OCTET_STRING, &expanded) != 0 || expanded.len != sk_bytes)
        return -1;
      k->expanded = expanded.p;
      break;
    case MLDSA_DER_SEQUENCE:
      if (mldsa_der_get(&r, MLDSA_DER_SEQUENCE, &both) != 0) return -1;
      if (mldsa_der_get(&both, MLDSA_DER_OCTET_STRING, &seed) != 0 || seed.len != SEED_BYTES)
        return -1;
      if (mldsa_der_get(&both, MLDSA_DER_OCTET_STRING, &expanded) != 0 ||
          expanded.len != sk_bytes || both.len != 0)
        return -1;
      k->seed = seed.p;
      k->expanded = expanded.p;
      break;
    default:
      return -1;
  }
  return r.len == 0 ? 0 : -1;
}

/* Attributes ::= SET OF Attribute, Attribute ::= SEQUENCE { type OBJECT IDENTIFIER,
 * values SET OF value }: checked to be well-formed DER down to the values' own tags and
 * lengths, otherwise ignored. */
static int check_attributes(mldsa_der attrs) {
  mldsa_der one, type, values, value;
  uint8_t tag;
  while (attrs.len) {
    if (mldsa_der_get(&attrs, MLDSA_DER_SEQUENCE, &one) != 0) return -1;
    if (mldsa_der_get(&one, MLDSA_DER_OID, &type) != 0 || type.len == 0) return -1;
    if (mldsa_der_get(&one, MLDSA_DER_SET, &values) != 0 || one.len != 0) return -1;
    while (values.len)
      if (mldsa_der_get_any(&values, &tag, &value) != 0) return -1;
  }
  return 0;
}

static int parse_one_asymmetric_key(mldsa_der der, private_key_parts *k) {
  mldsa_der oak, version, octets, attrs, bits;
  if (mldsa_der_get(&der, MLDSA_DER_SEQUENCE, &oak) != 0 || der.len != 0) return -1;
  if (mldsa_der_get(&oak, MLDSA_DER_INTEGER, &version) != 0 || version.len != 1 || version.p[0] > 1)
    return -1;
  if (get_algorithm(&oak, &k->p) != 0) return -1;
  if (mldsa_der_get(&oak, MLDSA_DER_OCTET_STRING, &octets) != 0) return -1;
  if (parse_choice(octets, k) != 0) return -1;
  if (mldsa_der_peek(&oak) == MLDSA_DER_CONTEXT_CONS_0) {
    if (mldsa_der_get(&oak, MLDSA_DER_CONTEXT_CONS_0, &attrs) != 0) return -1;
    if (check_attributes(attrs) != 0) return -1;
  }
  if (mldsa_der_peek(&oak) == MLDSA_DER_CONTEXT_1) {
    if (version.p[0] != 1) return -1; /* publicKey needs v2 */
    if (mldsa_der_get(&oak, MLDSA_DER_CONTEXT_1, &bits) != 0) return -1;
    k->pub = bit_string_bytes(&bits, mldsa_public_key_bytes_impl(k->p));
    if (k->pub == NULL) return -1;
  }
  return oak.len == 0 ? 0 : -1;
}

/* The expanded key and public key of the parts, after the checks: seed and expanded key
 * equal (constant time), or the import check of an expanded key alone, and a given
 * public key equal to the derived one. MLDSA_OK or MLDSA_ERR_KEY. */
static int derive_and_check(const private_key_parts *k, uint8_t *sk, uint8_t *pk) {
  size_t sk_bytes = mldsa_secret_key_bytes_impl(k->p), pk_bytes = mldsa_public_key_bytes_impl(k->p);
  if (k->seed != NULL) {
    if (mldsa_keygen_derive(k->p, pk, pk_bytes, sk, sk_bytes, k->seed) != MLDSA_OK)
      return MLDSA_ERR_KEY;
    if (k->expanded != NULL && MLDSA_CT_PUBLIC(mldsa_ct_differ(sk, k->expanded, sk_bytes)))
      return MLDSA_ERR_KEY;
  } else {
    memcpy(sk, k->expanded, sk_bytes);
    if (mldsa_public_key_from_secret_impl(k->p, pk, pk_bytes, sk, sk_bytes) != MLDSA_OK)
      return MLDSA_ERR_KEY;
  }
  MLDSA_CT_DECLASSIFY(pk, pk_bytes); /* a public key */
  if (k->pub != NULL && memcmp(k->pub, pk, pk_bytes) != 0) return MLDSA_ERR_KEY;
  return MLDSA_OK;
}

/* The functions that handle secrets run in a helper whose frame holds the decoded DER and
 * the derived key, below which keygen and the import check run with their own stack
 * wipes; the public function then wipes all of that region, deeper than
 * mldsa_stack_wipe reaches (register spills of the callees included). */
#define DEEP_WIPE_BYTES \
  (MAX_DER_BYTES + MAX_SK_BYTES + MAX_PK_BYTES + MLDSA_STACK_WIPE_BYTES + 8192)
static __attribute__((noinline)) void deep_stack_wipe(void) {
  uint8_t area[DEEP_WIPE_BYTES];
  mldsa_zeroize(area, sizeof area);
}

static __attribute__((noinline)) int private_key_decode(mldsa_param *p, uint8_t *sk, size_t sk_cap,
                                                        size_t *sk_len, uint8_t *seed,
                                                        int *has_seed, const uint8_t *in,
                                                        size_t in_len) {
  if (p == NULL || sk == NULL || sk_len == NULL || MISSING(in, in_len)) return MLDSA_ERR_NULL;
  uint8_t buf[MAX_DER_BYTES], sk_derived[MAX_SK_BYTES], pk_derived[MAX_PK_BYTES];
  mldsa_der der;
  private_key_parts k = {MLDSA_44, NULL, NULL, NULL};
  int ret = MLDSA_OK;
  if (der_of(in, in_len, pem_private, buf, sizeof buf, &der) != 0 ||
      parse_one_asymmetric_key(der, &k) != 0)
    ret = MLDSA_ERR_ENCODING;
  else if (sk_cap < mldsa_secret_key_bytes_impl(k.p))
    ret = MLDSA_ERR_LENGTH; /* nothing written */
  else
    ret = derive_and_check(&k, sk_derived, pk_derived);
  if (ret == MLDSA_OK) {
    /* k.seed may point into the input, which any output may overlap: copy every input
     * still needed before writing the first output. */
    uint8_t seed_copy[SEED_BYTES] = {0};
    int got_seed = k.seed != NULL;
    mldsa_param set = k.p;
    if (got_seed) memcpy(seed_copy, k.seed, SEED_BYTES);
    size_t n = mldsa_secret_key_bytes_impl(set);
    memcpy(sk, sk_derived, n);
    if (seed != NULL) memcpy(seed, seed_copy, SEED_BYTES);
    if (has_seed != NULL) *has_seed = got_seed;
    *sk_len = n;
    *p = set;
    mldsa_zeroize(seed_copy, sizeof seed_copy);
  } else if (ret != MLDSA_ERR_LENGTH) {
    mldsa_zeroize(sk, sk_cap);
    if (seed != NULL) mldsa_zeroize(seed, SEED_BYTES);
    if (has_seed != NULL) *has_seed = 0;
    *sk_len = 0;
    *p = (mldsa_param)0;
  }
  mldsa_zeroize(buf, sizeof buf);
  mldsa_zeroize(sk_derived, sizeof sk_derived);
  mldsa_zeroize(pk_derived, sizeof pk_derived);
  mldsa_zeroize(&k, sizeof k);
  return ret;
}

int mldsa_private_key_decode_impl(mldsa_param *p, uint8_t *sk, size_t sk_cap, size_t *sk_len,
                                       uint8_t *seed, int *has_seed, const uint8_t *in,
                                       size_t in_len) {
  if (REFUSED()) {
    ZERO_FIELD(p);
    ZERO(sk, sk_cap);
    ZERO_FIELD(sk_len);
    ZERO(seed, SEED_BYTES);
    ZERO_FIELD(has_seed);
    return MLDSA_ERR_SELFTEST;
  }
  int ret = private_key_decode(p, sk, sk_cap, sk_len, seed, has_seed, in, in_len);
  deep_stack_wipe();
  return ret;
}

/* ---- writing ---- */

/* AlgorithmIdentifier: SEQUENCE { OID } */
static uint8_t *put_algorithm(uint8_t *out, mldsa_param p) {
  out = mldsa_der_put_header(out, MLDSA_DER_SEQUENCE, 2 + OID_BYTES);
  out = mldsa_der_put_header(out, MLDSA_DER_OID, OID_BYTES);
  memcpy(out, oid_prefix, sizeof oid_prefix);
  out[sizeof oid_prefix] = oid_last(p);
  return out + OID_BYTES;
}
#define ALGORITHM_BYTES (2 + 2 + OID_BYTES)

/* The size of an element with n bytes of contents. */
static size_t tlv(size_t n) { return mldsa_der_header_len(n) + n; }

static size_t spki_len(size_t pk_bytes) { return tlv(ALGORITHM_BYTES + tlv(1 + pk_bytes)); }

static size_t choice_len(mldsa_sk_form form, size_t sk_bytes) {
  switch (form) {
    case MLDSA_SK_SEED:
      return tlv(SEED_BYTES);
    case MLDSA_SK_EXPANDED:
      return tlv(sk_bytes);
    default:
      return tlv(tlv(SEED_BYTES) + tlv(sk_bytes));
  }
}

static size_t pkcs8_len(mldsa_sk_form form, size_t sk_bytes) {
  return tlv(3 + ALGORITHM_BYTES + tlv(choice_len(form, sk_bytes)));
}

/* The DER or PEM of der_len bytes of DER at out (out_cap checked by the caller). */
static size_t finish(mldsa_format f, const char *label, uint8_t *out, const uint8_t *der,
                     size_t der_len) {
  if (f == MLDSA_DER) {
    memcpy(out, der, der_len);
    return der_len;
  }
  mldsa_pem_write(out, label, der, der_len);
  return mldsa_pem_len(label, der_len);
}

static size_t output_len(mldsa_format f, const char *label, size_t der_len) {
  return f == MLDSA_DER ? der_len : mldsa_pem_len(label, der_len);
}

int mldsa_public_key_encode_impl(mldsa_param p, mldsa_format f, uint8_t *out, size_t out_cap,
                                      size_t *out_len, const uint8_t *pk, size_t pk_len) {
  if (REFUSED()) {
    ZERO(out, out_cap);
    ZERO_FIELD(out_len);
    return MLDSA_ERR_SELFTEST;
  }
  size_t pk_bytes = mldsa_public_key_bytes_impl(p);
  if (pk_bytes == 0) return MLDSA_ERR_PARAM;
  if (f != MLDSA_DER && f != MLDSA_PEM) return MLDSA_ERR_ENCODING;
  if (out_len == NULL || pk == NULL || MISSING(out, out_cap)) return MLDSA_ERR_NULL;
  if (pk_len != pk_bytes) return MLDSA_ERR_LENGTH;
  size_t der_len = spki_len(pk_bytes), need = output_len(f, pem_public, der_len);
  if (out == NULL) {
    *out_len = need;
    return MLDSA_OK;
  }
  if (out_cap < need) return MLDSA_ERR_LENGTH;
  uint8_t der[MAX_DER_BYTES], *w = der;
  w = mldsa_der_put_header(w, MLDSA_DER_SEQUENCE, ALGORITHM_BYTES + tlv(1 + pk_bytes));
  w = put_algorithm(w, p);
  w = mldsa_der_put_header(w, MLDSA_DER_BIT_STRING, 1 + pk_bytes);
  *w++ = 0; /* no unused bits */
  memcpy(w, pk, pk_bytes);
  *out_len = finish(f, pem_public, out, der, der_len);
  return MLDSA_OK;
}

/* The ML-DSA-xx-PrivateKey CHOICE in the given form. */
static uint8_t *put_choice(uint8_t *w, mldsa_sk_form form, const uint8_t *seed, const uint8_t *sk,
                           size_t sk_bytes) {
  if (form == MLDSA_SK_SEED) {
    w = mldsa_der_put_header(w, MLDSA_DER_CONTEXT_0, SEED_BYTES);
    memcpy(w, seed, SEED_BYTES);
    return w + SEED_BYTES;
  }
  if (form == MLDSA_SK_BOTH) {
    w = mldsa_der_put_header(w, MLDSA_DER_SEQUENCE, tlv(SEED_BYTES) + tlv(sk_bytes));
    w = mldsa_der_put_header(w, MLDSA_DER_OCTET_STRING, SEED_BYTES);
    memcpy(w, seed, SEED_BYTES);
    w += SEED_BYTES;
  }
  w = mldsa_der_put_header(w, MLDSA_DER_OCTET_STRING, sk_bytes);
  memcpy(w, sk, sk_bytes);
  return w + sk_bytes;
}

static __attribute__((noinline)) int private_key_encode(mldsa_param p, mldsa_format f,
                                                        mldsa_sk_form form, uint8_t *out,
                                                        size_t out_cap, size_t *out_len,
                                                        const uint8_t *seed, const uint8_t *sk,
                                                        size_t sk_len) {
  size_t sk_bytes = mldsa_secret_key_bytes_impl(p);
  if (sk_bytes == 0) return MLDSA_ERR_PARAM;
  if ((f != MLDSA_DER && f != MLDSA_PEM) ||
      (form != MLDSA_SK_SEED && form != MLDSA_SK_EXPANDED && form != MLDSA_SK_BOTH))
    return MLDSA_ERR_ENCODING;
  if (out_len == NULL || MISSING(out, out_cap) || MISSING(sk, sk_len) ||
      (seed == NULL && form != MLDSA_SK_EXPANDED) || (sk == NULL && form != MLDSA_SK_SEED))
    return MLDSA_ERR_NULL;
  if (sk != NULL && sk_len != sk_bytes) return MLDSA_ERR_LENGTH;
  size_t der_len = pkcs8_len(form, sk_bytes), need = output_len(f, pem_private, der_len);
  if (out == NULL) {
    *out_len = need;
    return MLDSA_OK;
  }
  if (out_cap < need) return MLDSA_ERR_LENGTH;

  /* Whatever is given must be one consistent, valid key. */
  uint8_t der[MAX_DER_BYTES], sk_derived[MAX_SK_BYTES], pk_derived[MAX_PK_BYTES];
  private_key_parts k = {p, seed, sk, NULL};
  int ret = derive_and_check(&k, sk_derived, pk_derived);
  if (ret == MLDSA_OK) {
    uint8_t *w = der;
    w = mldsa_der_put_header(w, MLDSA_DER_SEQUENCE,
                             3 + ALGORITHM_BYTES + tlv(choice_len(form, sk_bytes)));
    w = mldsa_der_put_header(w, MLDSA_DER_INTEGER, 1);
    *w++ = 0; /* v1 */
    w = put_algorithm(w, p);
    w = mldsa_der_put_header(w, MLDSA_DER_OCTET_STRING, choice_len(form, sk_bytes));
    put_choice(w, form, seed, sk_derived, sk_bytes);
    *out_len = finish(f, pem_private, out, der, der_len);
  } else {
    mldsa_zeroize(out, out_cap);
    *out_len = 0;
  }
  mldsa_zeroize(der, sizeof der);
  mldsa_zeroize(sk_derived, sizeof sk_derived);
  return ret;
}

int mldsa_private_key_encode_impl(mldsa_param p, mldsa_format f, mldsa_sk_form form,
                                       uint8_t *out, size_t out_cap, size_t *out_len,
                                       const uint8_t *seed, const uint8_t *sk, size_t sk_len) {
  if (REFUSED()) {
    ZERO(out, out_cap);
    ZERO_FIELD(out_len);
    return MLDSA_ERR_SELFTEST;
  }
  int ret = private_key_encode(p, f, form, out, out_cap, out_len, seed, sk, sk_len);
  deep_stack_wipe();
  return ret;
}
