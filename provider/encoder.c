/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Encoders: a key as SubjectPublicKeyInfo or PKCS#8 PrivateKeyInfo, DER or PEM, written by
 * libmldsa's own RFC 9881 code; the private-key form the provider's configuration chose
 * (OpenSSL 3.5's ml-dsa.output_formats); and encrypted PKCS#8 (EncryptedPrivateKeyInfo)
 * when the application sets a cipher, with the cipher and the PBKDF of OpenSSL's own
 * PKCS8_encrypt_ex, fetched from the application's providers. The text form is text.c's. */
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>

#include "prov.h"

typedef struct {
  mldsa_prov_ctx *provctx;
  const mldsa_prov_alg *alg;
  mldsa_prov_structure structure;
  int pem;
  EVP_CIPHER *cipher; /* set: the private key is written encrypted */
} enc_ctx;

static void *enc_newctx(mldsa_prov_ctx *provctx, const mldsa_prov_alg *alg,
                        mldsa_prov_structure structure, int pem) {
  enc_ctx *ctx = calloc(1, sizeof *ctx);
  if (ctx == NULL) return NULL;
  ctx->provctx = provctx;
  ctx->alg = alg;
  ctx->structure = structure;
  ctx->pem = pem;
  return ctx;
}

static void enc_freectx(void *vctx) {
  enc_ctx *ctx = vctx;
  if (ctx == NULL) return;
  EVP_CIPHER_free(ctx->cipher);
  free(ctx);
}

static const OSSL_PARAM enc_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_CIPHER, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_PROPERTIES, NULL, 0), OSSL_PARAM_END};

static const OSSL_PARAM *enc_settable_ctx_params(void *provctx) {
  (void)provctx;
  return enc_settable;
}

/* The cipher of encrypted private keys, fetched where the application's own are. */
static int enc_set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
  enc_ctx *ctx = vctx;
  const OSSL_PARAM *cipher_p = OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_CIPHER);
  const OSSL_PARAM *props_p = OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_PROPERTIES);
  if (cipher_p == NULL) return 1;
  const char *name = NULL, *props = NULL;
  if (!OSSL_PARAM_get_utf8_string_ptr(cipher_p, &name) ||
      (props_p != NULL && !OSSL_PARAM_get_utf8_string_ptr(props_p, &props))) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_BAD_PARAMETER, "the cipher parameter is not a string");
    return 0;
  }
  EVP_CIPHER_free(ctx->cipher);
  ctx->cipher = NULL;
  if (name == NULL) return 1; /* no cipher: written in the clear */
  ctx->cipher = EVP_CIPHER_fetch(ctx->provctx->libctx, name, props);
  if (ctx->cipher == NULL) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_ENCRYPTION, "no cipher \"%s\" available", name);
    return 0;
  }
  return 1;
}

/* OpenSSL's rule: a selection names its widest part (private over public over
   parameters), and an encoder qualifies when it writes that part. */
static int selection_fits(int selection, int mask) {
  if (selection == 0) return 1;
  static const int levels[] = {OSSL_KEYMGMT_SELECT_PRIVATE_KEY, OSSL_KEYMGMT_SELECT_PUBLIC_KEY,
                               OSSL_KEYMGMT_SELECT_ALL_PARAMETERS};
  for (size_t i = 0; i < sizeof levels / sizeof levels[0]; ++i)
    if ((selection & levels[i]) != 0) return (mask & levels[i]) != 0;
  return 0;
}

static int structure_mask(mldsa_prov_structure s) {
  switch (s) {
  case MLDSA_PROV_SPKI: return OSSL_KEYMGMT_SELECT_PUBLIC_KEY;
  case MLDSA_PROV_PKI:
  case MLDSA_PROV_EPKI: return OSSL_KEYMGMT_SELECT_PRIVATE_KEY;
  default: return OSSL_KEYMGMT_SELECT_KEYPAIR;
  }
}

/* The form written: the first of ml-dsa.output_formats that the key can fill (one without
   a seed passes over the forms that need it), as OpenSSL 3.5 chooses; -1, with 3.5's
   reason raised, when there is none. */
static int output_form(const enc_ctx *ctx, const mldsa_prov_key *key) {
  const mldsa_prov_form_list *list = &ctx->provctx->output_forms;
  if (list->n == 0) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_NO_FORMAT,
                     "no %s private key output formats are enabled", ctx->alg->name);
    return -1;
  }
  for (int i = 0; i < list->n; ++i)
    if (key->has_seed || !mldsa_prov_form_needs_seed(list->order[i])) return (int)list->order[i];
  mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_NO_FORMAT,
                   "no matching enabled %s private key output formats", ctx->alg->name);
  return -1;
}

/* The PEM of a DER private key the provider built itself (the forms libmldsa does not
   write), as libcrypto writes it. */
static int pem_of(const enc_ctx *ctx, const uint8_t *der, size_t der_len, uint8_t **out,
                  size_t *out_len) {
  BIO *mem = BIO_new(BIO_s_mem());
  char *data = NULL;
  long n = 0;
  int ok = mem != NULL && PEM_write_bio(mem, "PRIVATE KEY", "", der, (long)der_len) > 0 &&
           (n = BIO_get_mem_data(mem, &data)) > 0 && (*out = malloc((size_t)n)) != NULL;
  if (ok) {
    memcpy(*out, data, (size_t)n);
    *out_len = (size_t)n;
  } else {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_OUT_OF_MEMORY, "the PEM of the private key");
  }
  if (data != NULL && n > 0) OPENSSL_cleanse(data, (size_t)n);
  BIO_free(mem);
  return ok;
}

/* A private key in one of the forms libmldsa does not write (oqskeypair, bare-priv,
   bare-seed), into a heap buffer (wiped by the caller). */
static int encode_other_form(const enc_ctx *ctx, const mldsa_prov_key *key,
                             mldsa_prov_form form, mldsa_format f, uint8_t **out,
                             size_t *out_len) {
  uint8_t *der = malloc(MLDSA_PROV_MAX_PKCS8);
  if (der == NULL) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_OUT_OF_MEMORY, "a private key encoding");
    return 0;
  }
  size_t len = mldsa_prov_form_pkcs8(ctx->alg, form, key->seed, key->sk, key->pk, der);
  if (f == MLDSA_DER) {
    *out = der;
    *out_len = len;
    return 1;
  }
  int ok = pem_of(ctx, der, len, out, out_len);
  mldsa_wipe(der, MLDSA_PROV_MAX_PKCS8);
  free(der);
  return ok;
}

/* The key's encoding into a heap buffer (wiped by the caller): libmldsa's for the public
   key and the private-key forms of RFC 9881, the provider's own for the others. */
static int encode_key(const enc_ctx *ctx, const mldsa_prov_key *key, mldsa_format f,
                      uint8_t **out, size_t *out_len) {
  const mldsa_prov_alg *a = ctx->alg;
  const int private = ctx->structure != MLDSA_PROV_SPKI;
  mldsa_sk_form form = MLDSA_SK_SEED;
  if (private) {
    int chosen = output_form(ctx, key);
    if (chosen < 0) return 0;
    switch ((mldsa_prov_form)chosen) {
    case MLDSA_PROV_FORM_SEED_PRIV: form = MLDSA_SK_BOTH; break;
    case MLDSA_PROV_FORM_PRIV_ONLY: form = MLDSA_SK_EXPANDED; break;
    case MLDSA_PROV_FORM_SEED_ONLY: form = MLDSA_SK_SEED; break;
    default: return encode_other_form(ctx, key, (mldsa_prov_form)chosen, f, out, out_len);
    }
  }
  const uint8_t *seed = key->has_seed ? key->seed : NULL;
  size_t need = 0;
  int rc = private ? mldsa_private_key_encode(a->param, f, form, NULL, 0, &need, seed, key->sk,
                                              a->sk_bytes)
                   : mldsa_public_key_encode(a->param, f, NULL, 0, &need, key->pk, a->pk_bytes);
  if (rc != MLDSA_OK) return mldsa_prov_lib_error(ctx->provctx, rc, "encoding the key");
  uint8_t *buf = malloc(need);
  if (buf == NULL) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_OUT_OF_MEMORY, "a %zu-byte encoding", need);
    return 0;
  }
  rc = private ? mldsa_private_key_encode(a->param, f, form, buf, need, out_len, seed, key->sk,
                                          a->sk_bytes)
               : mldsa_public_key_encode(a->param, f, buf, need, out_len, key->pk, a->pk_bytes);
  if (rc != MLDSA_OK) {
    mldsa_wipe(buf, need);
    free(buf);
    return mldsa_prov_lib_error(ctx->provctx, rc, "encoding the key");
  }
  *out = buf;
  return 1;
}

/* PKCS#8 DER -> EncryptedPrivateKeyInfo (DER or PEM) on out, with the passphrase the
   application's callback gives. */
static int write_encrypted(const enc_ctx *ctx, OSSL_CORE_BIO *out, const uint8_t *der,
                           size_t der_len, OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg) {
  char pass[1024];
  size_t pass_len = 0;
  OSSL_PARAM no_params[] = {OSSL_PARAM_END};
  const unsigned char *p = der;
  PKCS8_PRIV_KEY_INFO *p8 = NULL;
  X509_SIG *enc = NULL;
  BIO *mem = NULL;
  int ok = 0;
  if (cb == NULL || !cb(pass, sizeof pass, &pass_len, no_params, cbarg)) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_ENCRYPTION, "no passphrase for the private key");
    goto done;
  }
  if ((p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)der_len)) == NULL ||
      (enc = PKCS8_encrypt_ex(-1, ctx->cipher, pass, (int)pass_len, NULL, 0, 0, p8,
                              ctx->provctx->libctx, NULL)) == NULL ||
      (mem = BIO_new(BIO_s_mem())) == NULL) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_ENCRYPTION, "encrypting the %s private key", ctx->alg->name);
    goto done;
  }
  if (!(ctx->pem ? PEM_write_bio_PKCS8(mem, enc) : i2d_PKCS8_bio(mem, enc))) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_ENCRYPTION, "writing the encrypted private key");
    goto done;
  }
  char *data = NULL;
  long n = BIO_get_mem_data(mem, &data);
  ok = n > 0 && mldsa_prov_bio_write(ctx->provctx, out, data, (size_t)n);
done:
  mldsa_wipe(pass, sizeof pass);
  BIO_free(mem);
  X509_SIG_free(enc);
  PKCS8_PRIV_KEY_INFO_free(p8); /* frees its key bytes with a cleanse */
  return ok;
}

static int enc_encode(void *vctx, OSSL_CORE_BIO *out, const void *obj_raw,
                      const OSSL_PARAM obj_abstract[], int selection,
                      OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg) {
  enc_ctx *ctx = vctx;
  const mldsa_prov_key *key = obj_raw;
  if (obj_abstract != NULL || key == NULL) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_NO_KEY, "nothing to encode");
    return 0;
  }
  if (!selection_fits(selection, structure_mask(ctx->structure))) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_BAD_PARAMETER, "this encoder writes another part of the key");
    return 0;
  }
  if (key->alg != ctx->alg) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_WRONG_KEY_TYPE, "a %s key for the %s encoder", key->alg->name,
                     ctx->alg->name);
    return 0;
  }
  if (ctx->structure == MLDSA_PROV_TEXT) return mldsa_prov_key_to_text(out, key, selection);
  const int private = ctx->structure != MLDSA_PROV_SPKI;
  if (private ? !key->has_priv : !key->has_pub) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_NO_KEY, "the %s key has no %s part", key->alg->name,
                     private ? "private" : "public");
    return 0;
  }
  const int encrypt = private && (ctx->cipher != NULL || ctx->structure == MLDSA_PROV_EPKI);
  if (encrypt && ctx->cipher == NULL) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_ENCRYPTION, "EncryptedPrivateKeyInfo needs a cipher");
    return 0;
  }
  uint8_t *buf = NULL;
  size_t len = 0;
  if (!encode_key(ctx, key, encrypt || !ctx->pem ? MLDSA_DER : MLDSA_PEM, &buf, &len)) return 0;
  int ok = encrypt ? write_encrypted(ctx, out, buf, len, cb, cbarg)
                   : mldsa_prov_bio_write(ctx->provctx, out, buf, len);
  mldsa_wipe(buf, len);
  free(buf);
  if (ok) mldsa_prov_count(MLDSA_PROV_COUNT_ENCODE);
  return ok;
}

/* A key of another provider (OpenSSL's default one, say) comes in through import. */
static void *enc_import_object(void *vctx, int selection, const OSSL_PARAM params[]) {
  enc_ctx *ctx = vctx;
  mldsa_prov_key *key = mldsa_prov_key_new(ctx->provctx, ctx->alg);
  if (key != NULL && !mldsa_prov_key_import(key, selection, params)) {
    mldsa_prov_key_free(key);
    key = NULL;
  }
  return key;
}

static void enc_free_object(void *key) { mldsa_prov_key_free(key); }

/* ---- dispatch: one table per set, structure and output -------------------------------- */

#define MLDSA_PROV_ENCODER_KIND(i, n, kind, structure, pem)                                \
  static void *enc_newctx_##kind##_##n(void *provctx) {                                    \
    return enc_newctx(provctx, MLDSA_PROV_ALG(i), structure, pem);                         \
  }                                                                                         \
  static int enc_does_selection_##kind##_##n(void *provctx, int selection) {               \
    (void)provctx;                                                                          \
    return selection_fits(selection, structure_mask(structure));                           \
  }                                                                                         \
  static const OSSL_DISPATCH encoder_##kind##_##n[] = {                                     \
      {OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))enc_newctx_##kind##_##n},                 \
      {OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))enc_freectx},                            \
      {OSSL_FUNC_ENCODER_SET_CTX_PARAMS, (void (*)(void))enc_set_ctx_params},              \
      {OSSL_FUNC_ENCODER_SETTABLE_CTX_PARAMS, (void (*)(void))enc_settable_ctx_params},    \
      {OSSL_FUNC_ENCODER_DOES_SELECTION, (void (*)(void))enc_does_selection_##kind##_##n}, \
      {OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))enc_encode},                              \
      {OSSL_FUNC_ENCODER_IMPORT_OBJECT, (void (*)(void))enc_import_object},                \
      {OSSL_FUNC_ENCODER_FREE_OBJECT, (void (*)(void))enc_free_object},                    \
      {0, NULL}};

#define MLDSA_PROV_ENCODERS(i, n)                                                            \
  MLDSA_PROV_ENCODER_KIND(i, n, spki_der, MLDSA_PROV_SPKI, 0)                               \
  MLDSA_PROV_ENCODER_KIND(i, n, spki_pem, MLDSA_PROV_SPKI, 1)                               \
  MLDSA_PROV_ENCODER_KIND(i, n, pki_der, MLDSA_PROV_PKI, 0)                                 \
  MLDSA_PROV_ENCODER_KIND(i, n, pki_pem, MLDSA_PROV_PKI, 1)                                 \
  MLDSA_PROV_ENCODER_KIND(i, n, epki_der, MLDSA_PROV_EPKI, 0)                               \
  MLDSA_PROV_ENCODER_KIND(i, n, epki_pem, MLDSA_PROV_EPKI, 1)                               \
  MLDSA_PROV_ENCODER_KIND(i, n, text, MLDSA_PROV_TEXT, 0)
MLDSA_PROV_FOR_EACH_SET(MLDSA_PROV_ENCODERS)

#define MLDSA_PROV_ENCODER_ENTRIES(i, n)                                                      \
  {MLDSA_PROV_NAMES_##n, "provider=mldsa,output=der,structure=SubjectPublicKeyInfo",         \
   encoder_spki_der_##n, NULL},                                                               \
  {MLDSA_PROV_NAMES_##n, "provider=mldsa,output=pem,structure=SubjectPublicKeyInfo",         \
   encoder_spki_pem_##n, NULL},                                                               \
  {MLDSA_PROV_NAMES_##n, "provider=mldsa,output=der,structure=PrivateKeyInfo",               \
   encoder_pki_der_##n, NULL},                                                                \
  {MLDSA_PROV_NAMES_##n, "provider=mldsa,output=pem,structure=PrivateKeyInfo",               \
   encoder_pki_pem_##n, NULL},                                                                \
  {MLDSA_PROV_NAMES_##n, "provider=mldsa,output=der,structure=EncryptedPrivateKeyInfo",      \
   encoder_epki_der_##n, NULL},                                                               \
  {MLDSA_PROV_NAMES_##n, "provider=mldsa,output=pem,structure=EncryptedPrivateKeyInfo",      \
   encoder_epki_pem_##n, NULL},                                                               \
  {MLDSA_PROV_NAMES_##n, "provider=mldsa,output=text", encoder_text_##n, NULL},

const OSSL_ALGORITHM mldsa_prov_encoder[] = {
    MLDSA_PROV_FOR_EACH_SET(MLDSA_PROV_ENCODER_ENTRIES){NULL, NULL, NULL, NULL}};
