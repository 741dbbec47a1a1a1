/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Signatures: one-shot and streaming message signing and verification (the 3.4+ message
 * calls and the digest-sign calls that X.509, CMS and TLS use), with OpenSSL 3.5's context
 * parameters: context-string, deterministic, test-entropy, message-encoding (0: the input
 * is M' itself, FIPS 204's internal interface) and mu (the input is an external mu).
 * A streamed message goes through libmldsa's streaming mu, so no message is ever held;
 * only the raw encodings (M' or mu given in pieces) are collected first. */
#include <stdlib.h>
#include <string.h>


#include "prov.h"

enum { OP_NONE, OP_SIGN, OP_VERIFY };

typedef struct {
  mldsa_prov_ctx *provctx;
  const mldsa_prov_alg *alg;
  mldsa_prov_key *key;
  int operation;
  uint8_t context[MLDSA_CONTEXT_MAX_BYTES];
  size_t context_len;
  int deterministic, message_encoding, external_mu, has_entropy;
  uint8_t entropy[MLDSA_RND_BYTES];
  /* streaming: mu of the pure encoding, or the raw input collected */
  int streaming;
  mldsa_mu_state mu;
  uint8_t *raw;
  size_t raw_len, raw_cap;
  /* the signature verify_message_final checks (the "signature" parameter) */
  uint8_t *sig;
  size_t sig_len;
} sig_ctx;

static void reset_stream(sig_ctx *ctx) {
  mldsa_wipe(&ctx->mu, sizeof ctx->mu);
  if (ctx->raw != NULL) mldsa_wipe(ctx->raw, ctx->raw_len);
  free(ctx->raw);
  ctx->raw = NULL;
  ctx->raw_len = ctx->raw_cap = 0;
  ctx->streaming = 0;
}

static void *sig_newctx(mldsa_prov_ctx *provctx, const mldsa_prov_alg *alg) {
  sig_ctx *ctx = calloc(1, sizeof *ctx);
  if (ctx == NULL) return NULL;
  ctx->provctx = provctx;
  ctx->alg = alg;
  ctx->message_encoding = 1;
  return ctx;
}

static void sig_freectx(void *vctx) {
  sig_ctx *ctx = vctx;
  if (ctx == NULL) return;
  reset_stream(ctx);
  free(ctx->sig);
  mldsa_wipe(ctx, sizeof *ctx);
  free(ctx);
}

static void *sig_dupctx(void *vsrc) {
  const sig_ctx *src = vsrc;
  sig_ctx *ctx = malloc(sizeof *ctx);
  if (ctx == NULL) return NULL;
  *ctx = *src;
  ctx->raw = NULL;
  ctx->sig = NULL;
  if ((src->raw != NULL && (ctx->raw = malloc(src->raw_cap)) == NULL) ||
      (src->sig != NULL && (ctx->sig = malloc(src->sig_len)) == NULL)) {
    ctx->raw_len = 0;
    sig_freectx(ctx);
    return NULL;
  }
  if (src->raw != NULL) memcpy(ctx->raw, src->raw, src->raw_len);
  if (src->sig != NULL) memcpy(ctx->sig, src->sig, src->sig_len);
  return ctx;
}

/* ---- parameters ------------------------------------------------------------------------ */

static const OSSL_PARAM settable_types[] = {
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_CONTEXT_STRING, NULL, 0),
    OSSL_PARAM_int(OSSL_SIGNATURE_PARAM_DETERMINISTIC, NULL),
    OSSL_PARAM_int(OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING, NULL),
    OSSL_PARAM_int(OSSL_SIGNATURE_PARAM_MU, NULL),
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_TEST_ENTROPY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_SIGNATURE, NULL, 0), OSSL_PARAM_END};

static const OSSL_PARAM *sig_settable_ctx_params(void *vctx, void *provctx) {
  (void)vctx, (void)provctx;
  return settable_types;
}

static int get_flag(const mldsa_prov_ctx *pc, const OSSL_PARAM params[], const char *name,
                    int *flag) {
  const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, name);
  int v;
  if (p == NULL) return 1;
  if (!OSSL_PARAM_get_int(p, &v) || (v != 0 && v != 1)) {
    mldsa_prov_raise(pc, MLDSA_PROV_R_BAD_PARAMETER, "\"%s\" must be 0 or 1", name);
    return 0;
  }
  *flag = v;
  return 1;
}

static int sig_set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
  sig_ctx *ctx = vctx;
  const OSSL_PARAM *p;
  if (params == NULL || params[0].key == NULL) return 1;
  /* A context set once data came is taken, as OpenSSL takes it: for the next message
     (3.5 signs in one shot only), while a message under way keeps the context it began
     with, its mu having absorbed it (as the releases that stream ML-DSA do). */
  if (ctx->streaming && (OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING) ||
                         OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_MU))) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_BAD_STATE, "the message encoding is fixed once data came");
    return 0;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_CONTEXT_STRING)) != NULL) {
    const void *v = NULL;
    size_t n = 0;
    if (!OSSL_PARAM_get_octet_string_ptr(p, &v, &n)) {
      mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_BAD_PARAMETER, "\"context-string\" is not an octet string");
      return 0;
    }
    if (n > MLDSA_CONTEXT_MAX_BYTES) return mldsa_prov_lib_error(ctx->provctx, MLDSA_ERR_CONTEXT, "the context");
    if (n != 0) memcpy(ctx->context, v, n);
    ctx->context_len = n;
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_TEST_ENTROPY)) != NULL) {
    const void *v = NULL;
    size_t n = 0;
    if (!OSSL_PARAM_get_octet_string_ptr(p, &v, &n) || (n != 0 && n != MLDSA_RND_BYTES)) {
      mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_BAD_PARAMETER, "\"test-entropy\": %zu bytes, expected 32", n);
      return 0;
    }
    ctx->has_entropy = n != 0;
    if (n != 0) memcpy(ctx->entropy, v, n);
  }
  if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_SIGNATURE)) != NULL) {
    const void *v = NULL;
    size_t n = 0;
    if (!OSSL_PARAM_get_octet_string_ptr(p, &v, &n)) {
      mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_BAD_PARAMETER, "\"signature\" is not an octet string");
      return 0;
    }
    uint8_t *copy = malloc(n ? n : 1);
    if (copy == NULL) return 0;
    if (n != 0) memcpy(copy, v, n);
    free(ctx->sig);
    ctx->sig = copy;
    ctx->sig_len = n;
  }
  /* deterministic: any integer, as OpenSSL 3.5 takes it; exactly 1 asks for rnd = 0 and
     every other value for a hedged signature (3.5 compares with 1) */
  if ((p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_DETERMINISTIC)) != NULL &&
      !OSSL_PARAM_get_int(p, &ctx->deterministic)) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_BAD_PARAMETER, "\"deterministic\" is not an integer");
    return 0;
  }
  return get_flag(ctx->provctx, params, OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING, &ctx->message_encoding) &&
         get_flag(ctx->provctx, params, OSSL_SIGNATURE_PARAM_MU, &ctx->external_mu);
}

static const OSSL_PARAM gettable_types[] = {
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, NULL, 0), OSSL_PARAM_END};

static const OSSL_PARAM *sig_gettable_ctx_params(void *vctx, void *provctx) {
  (void)vctx, (void)provctx;
  return gettable_types;
}

static int sig_get_ctx_params(void *vctx, OSSL_PARAM params[]) {
  sig_ctx *ctx = vctx;
  OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID);
  return p == NULL ||
         OSSL_PARAM_set_octet_string(p, ctx->alg->aid_der, sizeof ctx->alg->aid_der);
}

/* ---- init ---------------------------------------------------------------------------- */

static int sig_init(void *vctx, void *vkey, const OSSL_PARAM params[], int operation) {
  sig_ctx *ctx = vctx;
  mldsa_prov_key *key = vkey != NULL ? vkey : ctx->key;
  if (key == NULL) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_NO_KEY, "no key");
    return 0;
  }
  if (key->alg != ctx->alg) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_WRONG_KEY_TYPE, "a %s key for %s", key->alg->name,
                     ctx->alg->name);
    return 0;
  }
  if (operation == OP_SIGN ? !key->has_priv : !key->has_pub) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_NO_KEY, "%s needs a %s key", operation == OP_SIGN ? "signing" : "verification",
                     operation == OP_SIGN ? "private" : "public");
    return 0;
  }
  ctx->key = key;
  ctx->operation = operation;
  reset_stream(ctx);
  return sig_set_ctx_params(ctx, params);
}

static int sig_sign_init(void *ctx, void *key, const OSSL_PARAM params[]) {
  return sig_init(ctx, key, params, OP_SIGN);
}
static int sig_verify_init(void *ctx, void *key, const OSSL_PARAM params[]) {
  return sig_init(ctx, key, params, OP_VERIFY);
}

/* ML-DSA hashes the message itself: a digest named here is an error. */
static int no_digest(const sig_ctx *ctx, const char *mdname) {
  if (mdname == NULL || mdname[0] == '\0') return 1;
  mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_BAD_PARAMETER,
                   "ML-DSA takes no digest (\"%s\" given)", mdname);
  return 0;
}
static int sig_digest_sign_init(void *ctx, const char *mdname, void *key,
                                const OSSL_PARAM params[]) {
  return no_digest(ctx, mdname) && sig_init(ctx, key, params, OP_SIGN);
}
static int sig_digest_verify_init(void *ctx, const char *mdname, void *key,
                                  const OSSL_PARAM params[]) {
  return no_digest(ctx, mdname) && sig_init(ctx, key, params, OP_VERIFY);
}

/* ---- the work -------------------------------------------------------------------------- */

/* rnd as the parameters ask: test entropy, 32 zero bytes (deterministic), or NULL (hedged:
   libmldsa draws 32 fresh bytes from the OS). */
static const uint8_t *signing_rnd(const sig_ctx *ctx) {
  static const uint8_t zeros[MLDSA_RND_BYTES];
  return ctx->has_entropy ? ctx->entropy : ctx->deterministic == 1 ? zeros : NULL;
}

static int sign_mu(sig_ctx *ctx, uint8_t *sig, const uint8_t mu[MLDSA_MU_BYTES]) {
  const mldsa_prepared_secret_key *ps = mldsa_prov_key_prepared_sec(ctx->key);
  const mldsa_prov_alg *a = ctx->alg;
  return ps != NULL ? mldsa_sign_mu_prepared(ps, sig, a->sig_bytes, mu, signing_rnd(ctx))
                    : mldsa_sign_mu(a->param, sig, a->sig_bytes, mu, signing_rnd(ctx),
                                    ctx->key->sk, a->sk_bytes);
}

static int verify_mu(sig_ctx *ctx, const uint8_t *sig, size_t sig_len,
                     const uint8_t mu[MLDSA_MU_BYTES]) {
  const mldsa_prepared_public_key *pp = mldsa_prov_key_prepared_pub(ctx->key);
  return pp != NULL ? mldsa_verify_mu_prepared(pp, sig, sig_len, mu)
                    : mldsa_verify_mu(ctx->alg->param, sig, sig_len, mu, ctx->key->pk,
                                      ctx->alg->pk_bytes);
}

/* Signs a whole input: the message, M' (message-encoding 0) or mu (mu 1). */
static int sign_input(sig_ctx *ctx, uint8_t *sig, const uint8_t *in, size_t in_len) {
  const mldsa_prov_alg *a = ctx->alg;
  if (ctx->external_mu) {
    if (in_len != MLDSA_MU_BYTES) return MLDSA_ERR_LENGTH;
    return sign_mu(ctx, sig, in);
  }
  if (!ctx->message_encoding) {
    uint8_t rnd[MLDSA_RND_BYTES];
    const uint8_t *given = signing_rnd(ctx);
    int rc = given != NULL ? (memcpy(rnd, given, sizeof rnd), MLDSA_OK) : mldsa_generate_seed(rnd);
    if (rc == MLDSA_OK)
      rc = mldsa_sign_internal(a->param, sig, a->sig_bytes, in, in_len, rnd, ctx->key->sk,
                               a->sk_bytes);
    mldsa_wipe(rnd, sizeof rnd);
    return rc;
  }
  const mldsa_prepared_secret_key *ps = mldsa_prov_key_prepared_sec(ctx->key);
  if (ps != NULL)
    return mldsa_sign_prepared(ps, sig, a->sig_bytes, in, in_len, ctx->context,
                               ctx->context_len, signing_rnd(ctx));
  return mldsa_sign(a->param, sig, a->sig_bytes, in, in_len, ctx->context, ctx->context_len,
                    signing_rnd(ctx), ctx->key->sk, a->sk_bytes);
}

static int verify_input(sig_ctx *ctx, const uint8_t *sig, size_t sig_len, const uint8_t *in,
                        size_t in_len) {
  const mldsa_prov_alg *a = ctx->alg;
  if (ctx->external_mu) {
    if (in_len != MLDSA_MU_BYTES) return MLDSA_ERR_LENGTH;
    return verify_mu(ctx, sig, sig_len, in);
  }
  if (!ctx->message_encoding)
    return mldsa_verify_internal(a->param, sig, sig_len, in, in_len, ctx->key->pk, a->pk_bytes);
  const mldsa_prepared_public_key *pp = mldsa_prov_key_prepared_pub(ctx->key);
  if (pp != NULL)
    return mldsa_verify_prepared(pp, sig, sig_len, in, in_len, ctx->context, ctx->context_len);
  return mldsa_verify(a->param, sig, sig_len, in, in_len, ctx->context, ctx->context_len,
                      ctx->key->pk, a->pk_bytes);
}

static int check_operation(const sig_ctx *ctx, int operation) {
  if (ctx->operation == operation && ctx->key != NULL) return 1;
  mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_BAD_STATE, "not initialised for %s",
                   operation == OP_SIGN ? "signing" : "verification");
  return 0;
}

/* The size query (sig NULL), the capacity check, then the signature. */
static int sign_out(sig_ctx *ctx, uint8_t *sig, size_t *sig_len, size_t sig_size,
                    const uint8_t *in, size_t in_len) {
  const size_t need = ctx->alg->sig_bytes;
  if (!check_operation(ctx, OP_SIGN)) return 0;
  if (sig == NULL) {
    *sig_len = need;
    return 1;
  }
  if (sig_size < need) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_BUFFER_TOO_SMALL, "%zu bytes for a %zu-byte %s signature",
                     sig_size, need, ctx->alg->name);
    return 0;
  }
  int rc = sign_input(ctx, sig, in, in_len);
  if (rc != MLDSA_OK) return mldsa_prov_lib_error(ctx->provctx, rc, "signing");
  *sig_len = need;
  mldsa_prov_count(MLDSA_PROV_COUNT_SIGN);
  return 1;
}

static int verify_out(sig_ctx *ctx, const uint8_t *sig, size_t sig_len, const uint8_t *in,
                      size_t in_len) {
  if (!check_operation(ctx, OP_VERIFY)) return 0;
  int rc = verify_input(ctx, sig, sig_len, in, in_len);
  mldsa_prov_count(MLDSA_PROV_COUNT_VERIFY);
  if (rc != MLDSA_OK) return mldsa_prov_lib_error(ctx->provctx, rc, "verification");
  return 1;
}

static int sig_sign(void *ctx, unsigned char *sig, size_t *sig_len, size_t sig_size,
                    const unsigned char *tbs, size_t tbs_len) {
  return sign_out(ctx, sig, sig_len, sig_size, tbs, tbs_len);
}

static int sig_verify(void *ctx, const unsigned char *sig, size_t sig_len,
                      const unsigned char *tbs, size_t tbs_len) {
  return verify_out(ctx, sig, sig_len, tbs, tbs_len);
}

/* ---- streaming ------------------------------------------------------------------------- */

static int stream_update(void *vctx, const unsigned char *data, size_t len) {
  sig_ctx *ctx = vctx;
  if (ctx->operation == OP_NONE || ctx->key == NULL) return check_operation(ctx, OP_SIGN);
  if (ctx->message_encoding && !ctx->external_mu) {
    if (!ctx->streaming) {
      const mldsa_prov_alg *a = ctx->alg;
      int rc = ctx->operation == OP_SIGN
                   ? mldsa_mu_init_secret(&ctx->mu, a->param, ctx->key->sk, a->sk_bytes,
                                          ctx->context, ctx->context_len)
                   : mldsa_mu_init(&ctx->mu, a->param, ctx->key->pk, a->pk_bytes, ctx->context,
                                   ctx->context_len);
      if (rc != MLDSA_OK) return mldsa_prov_lib_error(ctx->provctx, rc, "hashing the message");
      ctx->streaming = 1;
    }
    int rc = mldsa_mu_update(&ctx->mu, data, len);
    return rc == MLDSA_OK || mldsa_prov_lib_error(ctx->provctx, rc, "hashing the message");
  }
  /* M' or mu in pieces: collected (mu is 64 bytes; M' as long as the caller makes it) */
  if (len > SIZE_MAX / 2 - ctx->raw_len) return 0;
  if (ctx->raw_len + len > ctx->raw_cap) {
    size_t cap = ctx->raw_cap ? ctx->raw_cap : 256;
    while (cap < ctx->raw_len + len) cap *= 2;
    uint8_t *grown = malloc(cap);
    if (grown == NULL) {
      mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_OUT_OF_MEMORY, "a %zu-byte message", ctx->raw_len + len);
      return 0;
    }
    if (ctx->raw_len != 0) memcpy(grown, ctx->raw, ctx->raw_len);
    if (ctx->raw != NULL) mldsa_wipe(ctx->raw, ctx->raw_len);
    free(ctx->raw);
    ctx->raw = grown;
    ctx->raw_cap = cap;
  }
  if (len != 0) memcpy(ctx->raw + ctx->raw_len, data, len);
  ctx->raw_len += len;
  ctx->streaming = 1;
  return 1;
}

/* The mu of what was streamed; the stream starts again after it. */
static int stream_mu(sig_ctx *ctx, uint8_t mu[MLDSA_MU_BYTES]) {
  if (!ctx->streaming && !stream_update(ctx, NULL, 0)) return 0;
  int rc = mldsa_mu_final(&ctx->mu, mu);
  ctx->streaming = 0;
  return rc == MLDSA_OK || mldsa_prov_lib_error(ctx->provctx, rc, "hashing the message");
}

static int stream_sign_final(void *vctx, unsigned char *sig, size_t *sig_len, size_t sig_size) {
  sig_ctx *ctx = vctx;
  if (!check_operation(ctx, OP_SIGN)) return 0;
  if (sig == NULL) {
    *sig_len = ctx->alg->sig_bytes;
    return 1;
  }
  if (ctx->message_encoding && !ctx->external_mu) {
    if (sig_size < ctx->alg->sig_bytes)
      return sign_out(ctx, sig, sig_len, sig_size, NULL, 0); /* raises the size error */
    uint8_t mu[MLDSA_MU_BYTES];
    int ok = stream_mu(ctx, mu);
    if (ok) {
      int rc = sign_mu(ctx, sig, mu);
      ok = rc == MLDSA_OK || mldsa_prov_lib_error(ctx->provctx, rc, "signing");
      if (ok) *sig_len = ctx->alg->sig_bytes, mldsa_prov_count(MLDSA_PROV_COUNT_SIGN);
    }
    mldsa_wipe(mu, sizeof mu);
    return ok;
  }
  int ok = sign_out(ctx, sig, sig_len, sig_size, ctx->raw, ctx->raw_len);
  reset_stream(ctx);
  return ok;
}

static int stream_verify_final_sig(sig_ctx *ctx, const uint8_t *sig, size_t sig_len) {
  if (!check_operation(ctx, OP_VERIFY)) return 0;
  if (ctx->message_encoding && !ctx->external_mu) {
    uint8_t mu[MLDSA_MU_BYTES];
    if (!stream_mu(ctx, mu)) return 0;
    int rc = verify_mu(ctx, sig, sig_len, mu);
    mldsa_prov_count(MLDSA_PROV_COUNT_VERIFY);
    return rc == MLDSA_OK || mldsa_prov_lib_error(ctx->provctx, rc, "verification");
  }
  int ok = verify_out(ctx, sig, sig_len, ctx->raw, ctx->raw_len);
  reset_stream(ctx);
  return ok;
}

static int stream_verify_final(void *vctx) {
  sig_ctx *ctx = vctx;
  if (ctx->sig == NULL) {
    mldsa_prov_raise(ctx->provctx, MLDSA_PROV_R_BAD_STATE, "no signature was set to verify");
    return 0;
  }
  return stream_verify_final_sig(ctx, ctx->sig, ctx->sig_len);
}

static int sig_digest_verify_final(void *ctx, const unsigned char *sig, size_t sig_len) {
  return stream_verify_final_sig(ctx, sig, sig_len);
}


/* ---- dispatch: one table per set ------------------------------------------------------ */

#define MLDSA_PROV_SIGNATURE(i, n)                                                          \
  static void *sig_newctx_##n(void *provctx, const char *propq) {                          \
    (void)propq;                                                                            \
    return sig_newctx(provctx, MLDSA_PROV_ALG(i));                                         \
  }                                                                                         \
  static const char **sig_query_key_types_##n(void) {                                      \
    static const char *names[] = {"ML-DSA-" #n, NULL};                                     \
    return names;                                                                           \
  }                                                                                         \
  static const OSSL_DISPATCH signature_functions_##n[] = {                                  \
      {OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))sig_newctx_##n},                        \
      {OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))sig_freectx},                          \
      {OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))sig_dupctx},                            \
      {OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))sig_sign_init},                      \
      {OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))sig_sign},                                \
      {OSSL_FUNC_SIGNATURE_VERIFY_INIT, (void (*)(void))sig_verify_init},                  \
      {OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))sig_verify},                            \
      {OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT, (void (*)(void))sig_sign_init},              \
      {OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_UPDATE, (void (*)(void))stream_update},            \
      {OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_FINAL, (void (*)(void))stream_sign_final},         \
      {OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_INIT, (void (*)(void))sig_verify_init},          \
      {OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_UPDATE, (void (*)(void))stream_update},          \
      {OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_FINAL, (void (*)(void))stream_verify_final},     \
      {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))sig_digest_sign_init},        \
      {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))stream_update},             \
      {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))stream_sign_final},          \
      {OSSL_FUNC_SIGNATURE_DIGEST_SIGN, (void (*)(void))sig_sign},                         \
      {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, (void (*)(void))sig_digest_verify_init},    \
      {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, (void (*)(void))stream_update},           \
      {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, (void (*)(void))sig_digest_verify_final},  \
      {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, (void (*)(void))sig_verify},                     \
      {OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))sig_set_ctx_params},            \
      {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, (void (*)(void))sig_settable_ctx_params},  \
      {OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))sig_get_ctx_params},            \
      {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, (void (*)(void))sig_gettable_ctx_params},  \
      {OSSL_FUNC_SIGNATURE_QUERY_KEY_TYPES, (void (*)(void))sig_query_key_types_##n},      \
      {0, NULL}};
MLDSA_PROV_FOR_EACH_SET(MLDSA_PROV_SIGNATURE)

const OSSL_ALGORITHM mldsa_prov_signature[] = {
    {MLDSA_PROV_NAMES_44, "provider=mldsa", signature_functions_44, "ML-DSA-44 (libmldsa)"},
    {MLDSA_PROV_NAMES_65, "provider=mldsa", signature_functions_65, "ML-DSA-65 (libmldsa)"},
    {MLDSA_PROV_NAMES_87, "provider=mldsa", signature_functions_87, "ML-DSA-87 (libmldsa)"},
    {NULL, NULL, NULL, NULL}};
