/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Decoders: DER SubjectPublicKeyInfo and PKCS#8 PrivateKeyInfo of one parameter set,
 * through libmldsa's strict RFC 9881 decoders (every private key checked before it is
 * used). OpenSSL's own decoders do the rest of the chain: PEM to DER, and the decryption
 * of EncryptedPrivateKeyInfo.
 *
 * A decoder is offered every DER input of its structure: one whose AlgorithmIdentifier is
 * not this set's is passed over without a word (the chain tries the next decoder); one
 * that names this set but does not decode is an error with libmldsa's reason. */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_object.h>
#include <openssl/x509.h>

#include "prov.h"

typedef struct {
  mldsa_prov_ctx *provctx;
  const mldsa_prov_alg *alg;
  mldsa_prov_structure structure;
} dec_ctx;

static void *dec_newctx(mldsa_prov_ctx *provctx, const mldsa_prov_alg *alg,
                        mldsa_prov_structure structure) {
  dec_ctx *ctx = calloc(1, sizeof *ctx);
  if (ctx == NULL) return NULL;
  ctx->provctx = provctx;
  ctx->alg = alg;
  ctx->structure = structure;
  return ctx;
}

static void dec_freectx(void *ctx) { free(ctx); }

/* The offset of the outer SEQUENCE's content, or 0 when in does not start with one. */
static size_t sequence_content(const uint8_t *in, size_t len) {
  if (len < 2 || in[0] != 0x30) return 0;
  if (in[1] < 0x80) return 2;
  size_t n = in[1] & 0x7f;
  return n >= 1 && n <= 3 && len > 2 + n ? 2 + n : 0;
}

/* Whether the DER input's AlgorithmIdentifier is this set's: SPKI starts with it,
   PKCS#8 has it after the version (INTEGER 0 or 1). */
static int names_this_set(const dec_ctx *ctx, const uint8_t *in, size_t len) {
  size_t at = sequence_content(in, len);
  if (at == 0) return 0;
  if (ctx->structure == MLDSA_PROV_PKI) {
    if (len < at + 3 || in[at] != 0x02 || in[at + 1] != 0x01) return 0;
    at += 3;
  }
  const size_t aid_len = sizeof ctx->alg->aid_der;
  return len >= at + aid_len && memcmp(in + at, ctx->alg->aid_der, aid_len) == 0;
}

/* The privateKey of a PrivateKeyInfo in one of the forms the configuration enables
   (ml-dsa.input_formats). The three forms of RFC 9881 go through libmldsa's strict decoder,
   which checks a seed against the expanded key beside it; seed-priv under
   ml-dsa.prefer_seed = no is the exception, its expanded key taken alone as OpenSSL 3.5
   takes it. The other forms are taken apart here, their keys checked by libmldsa too. */
static int decode_private(const dec_ctx *ctx, mldsa_prov_key *key, const uint8_t *in,
                          size_t len) {
  const mldsa_prov_alg *a = ctx->alg;
  const mldsa_prov_ctx *pc = ctx->provctx;
  const unsigned char *p8_in = in;
  PKCS8_PRIV_KEY_INFO *p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p8_in, (long)len);
  const unsigned char *content = NULL;
  int content_len = 0, ptype = V_ASN1_UNDEF, ok = 0;
  const X509_ALGOR *aid = NULL;
  mldsa_prov_form form;
  mldsa_prov_form_parts parts;
  if (p8 == NULL || p8_in != in + len ||
      !PKCS8_pkey_get0(NULL, &content, &content_len, &aid, p8)) {
    PKCS8_PRIV_KEY_INFO_free(p8);
    return mldsa_prov_lib_error(pc, MLDSA_ERR_ENCODING, "the private key");
  }
  X509_ALGOR_get0(NULL, &ptype, NULL, aid);
  if (ptype != V_ASN1_UNDEF) {
    mldsa_prov_raise(pc, MLDSA_PROV_R_BAD_PARAMETER,
                     "unexpected parameters with a PKCS#8 %s private key", a->name);
  } else if (pc->input_forms.n == 0) {
    mldsa_prov_raise(pc, MLDSA_PROV_R_NO_FORMAT, "no %s private key input formats are enabled",
                     a->name);
  } else if (!mldsa_prov_form_parse(a, content, (size_t)content_len, &form, &parts) ||
             !mldsa_prov_forms_has(&pc->input_forms, form)) {
    mldsa_prov_raise(pc, MLDSA_PROV_R_NO_FORMAT,
                     "no matching enabled %s private key input formats", a->name);
  } else if (form == MLDSA_PROV_FORM_SEED_PRIV && !pc->prefer_seed) {
    ok = mldsa_prov_key_set_both(key, parts.seed, parts.sk); /* the expanded key alone */
  } else if (form == MLDSA_PROV_FORM_SEED_PRIV || form == MLDSA_PROV_FORM_PRIV_ONLY ||
             form == MLDSA_PROV_FORM_SEED_ONLY) {
    uint8_t sk[MLDSA_MAX_SECRET_KEY_BYTES], seed[MLDSA_SEED_BYTES], pk[MLDSA_MAX_PUBLIC_KEY_BYTES];
    size_t sk_len = 0;
    int has_seed = 0;
    mldsa_param param = 0;
    int rc = mldsa_private_key_decode(&param, sk, sizeof sk, &sk_len, seed, &has_seed, in, len);
    if (rc == MLDSA_OK && param == a->param) {
      ok = mldsa_prov_key_set_secret(key, sk, has_seed ? seed : NULL);
    } else if (rc == MLDSA_OK) {
      mldsa_prov_raise(pc, MLDSA_PROV_R_WRONG_KEY_TYPE, "not an %s key", a->name);
    } else if (rc == MLDSA_ERR_KEY && form == MLDSA_PROV_FORM_SEED_PRIV &&
               mldsa_public_key_from_secret(a->param, pk, a->pk_bytes, parts.sk,
                                            a->sk_bytes) == MLDSA_OK) {
      /* the expanded key alone is sound: it is the seed it disagrees with (3.5's words) */
      mldsa_prov_raise(pc, MLDSA_PROV_R_SEED_MISMATCH,
                       "explicit %s private key does not match seed", a->name);
    } else {
      mldsa_prov_lib_error(pc, rc, "the private key");
    }
    mldsa_wipe(sk, sizeof sk);
    mldsa_wipe(seed, sizeof seed);
  } else if (form == MLDSA_PROV_FORM_BARE_SEED) {
    ok = mldsa_prov_key_set_seed(key, parts.seed);
  } else {
    ok = mldsa_prov_key_set_secret(key, parts.sk, NULL);
    /* oqskeypair: the public key written after the secret one must be its own */
    if (ok && parts.pk != NULL && memcmp(parts.pk, key->pk, a->pk_bytes) != 0) {
      mldsa_prov_raise(pc, MLDSA_PROV_R_NO_KEY, "the %s public key is not the private key's",
                       a->name);
      ok = 0;
    }
  }
  PKCS8_PRIV_KEY_INFO_free(p8); /* frees its copy of the key with a cleanse */
  return ok;
}

static mldsa_prov_key *decode_key(const dec_ctx *ctx, const uint8_t *in, size_t len) {
  const mldsa_prov_alg *a = ctx->alg;
  mldsa_prov_key *key = mldsa_prov_key_new(ctx->provctx, a);
  if (key == NULL) return NULL;
  int ok;
  if (ctx->structure == MLDSA_PROV_SPKI) {
    mldsa_param p = 0;
    size_t pk_len = 0;
    int rc = mldsa_public_key_decode(&p, key->pk, sizeof key->pk, &pk_len, in, len);
    ok = rc == MLDSA_OK ? (key->has_pub = 1) : mldsa_prov_lib_error(ctx->provctx, rc, "the public key");
    if (ok && p != a->param) { /* cannot happen after names_this_set; checked all the same */
      mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_WRONG_KEY_TYPE, "not an %s key", a->name);
      ok = 0;
    }
  } else {
    ok = decode_private(ctx, key, in, len);
  }
  if (!ok) {
    mldsa_prov_key_free(key);
    return NULL;
  }
  return key;
}

static int dec_decode(void *vctx, OSSL_CORE_BIO *in, int selection, OSSL_CALLBACK *data_cb,
                      void *data_cbarg, OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg) {
  dec_ctx *ctx = vctx;
  (void)pw_cb, (void)pw_cbarg; /* encrypted keys are decrypted by OpenSSL's epki2pki */
  const int mask = ctx->structure == MLDSA_PROV_SPKI ? OSSL_KEYMGMT_SELECT_PUBLIC_KEY
                                                     : OSSL_KEYMGMT_SELECT_KEYPAIR;
  if (selection != 0 && (selection & mask) == 0) return 1; /* not what is asked for */
  uint8_t *der = NULL;
  size_t len = 0;
  if (!mldsa_prov_bio_read_all(ctx->provctx, in, &der, &len)) return 0;
  int ok = 1;
  if (names_this_set(ctx, der, len)) {
    /* A key refused is still handed on, as no key: the object is then the one that failed,
       and the reason raised stays on the error stack, where a decoder that returns nothing
       would leave only the store's "unsupported" (OpenSSL 3.5's own decoder leaves its
       reason the same way, from its key manager's load). */
    mldsa_prov_key *key = decode_key(ctx, der, len);
    if (key != NULL) mldsa_prov_count(MLDSA_PROV_COUNT_DECODE);
    int type = OSSL_OBJECT_PKEY;
    OSSL_PARAM params[] = {
        OSSL_PARAM_int(OSSL_OBJECT_PARAM_TYPE, &type),
        OSSL_PARAM_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE, (char *)ctx->alg->name, strlen(ctx->alg->name)),
        OSSL_PARAM_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &key, sizeof key),
        OSSL_PARAM_END};
    ok = data_cb(params, data_cbarg) && key != NULL;
    mldsa_prov_key_free(key); /* NULL when the key manager took it (keymgmt load) */
  }
  mldsa_wipe(der, len);
  free(der);
  return ok;
}

/* The key of a reference, exported to a key manager of another provider. */
static int dec_export_object(void *vctx, const void *reference, size_t reference_sz,
                             OSSL_CALLBACK *export_cb, void *export_cbarg) {
  (void)vctx;
  if (reference == NULL || reference_sz != sizeof(mldsa_prov_key *)) return 0;
  mldsa_prov_key *key = *(mldsa_prov_key *const *)reference;
  if (key == NULL) return 0; /* a key that was refused */
  return mldsa_prov_key_export(key, OSSL_KEYMGMT_SELECT_ALL, export_cb, export_cbarg);
}

/* ---- dispatch: one table per set and structure --------------------------------------- */

#define MLDSA_PROV_DECODER_KIND(i, n, kind, structure, mask)                                \
  static void *dec_newctx_##kind##_##n(void *provctx) {                                    \
    return dec_newctx(provctx, MLDSA_PROV_ALG(i), structure);                              \
  }                                                                                         \
  static int dec_does_selection_##kind##_##n(void *provctx, int selection) {               \
    (void)provctx;                                                                          \
    return selection == 0 || (selection & (mask)) != 0;                                    \
  }                                                                                         \
  static const OSSL_DISPATCH decoder_##kind##_##n[] = {                                     \
      {OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))dec_newctx_##kind##_##n},                 \
      {OSSL_FUNC_DECODER_FREECTX, (void (*)(void))dec_freectx},                            \
      {OSSL_FUNC_DECODER_DOES_SELECTION, (void (*)(void))dec_does_selection_##kind##_##n}, \
      {OSSL_FUNC_DECODER_DECODE, (void (*)(void))dec_decode},                              \
      {OSSL_FUNC_DECODER_EXPORT_OBJECT, (void (*)(void))dec_export_object},                \
      {0, NULL}};

#define MLDSA_PROV_DECODERS(i, n)                                                            \
  MLDSA_PROV_DECODER_KIND(i, n, spki, MLDSA_PROV_SPKI, OSSL_KEYMGMT_SELECT_PUBLIC_KEY)      \
  MLDSA_PROV_DECODER_KIND(i, n, pki, MLDSA_PROV_PKI, OSSL_KEYMGMT_SELECT_KEYPAIR)
MLDSA_PROV_FOR_EACH_SET(MLDSA_PROV_DECODERS)

#define MLDSA_PROV_DECODER_ENTRIES(i, n)                                                      \
  {MLDSA_PROV_NAMES_##n, "provider=mldsa,input=der,structure=SubjectPublicKeyInfo",          \
   decoder_spki_##n, NULL},                                                                   \
  {MLDSA_PROV_NAMES_##n, "provider=mldsa,input=der,structure=PrivateKeyInfo",                \
   decoder_pki_##n, NULL},

const OSSL_ALGORITHM mldsa_prov_decoder[] = {
    MLDSA_PROV_FOR_EACH_SET(MLDSA_PROV_DECODER_ENTRIES){NULL, NULL, NULL, NULL}};
