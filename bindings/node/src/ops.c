/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The ML-DSA operations as Node-API functions: key generation, signing and verification
 * in the pure, pre-hash, internal and external-mu forms, mu, the public key of a secret
 * key. Every output is a new Buffer the library writes into directly, so no secret is
 * ever copied on the C side; the library wipes its own stack copies. */
#include "ops.h"

#include "args.h"

/* The message forms of sign and verify (the JavaScript side names them). */
enum { FORM_PURE = 0, FORM_PREHASH = 1, FORM_INTERNAL = 2, FORM_MU = 3, FORM_COUNT };

/* keygen(set, seed | undefined) -> [publicKey, secretKey] */
napi_value op_keygen(napi_env env, napi_callback_info info) {
  napi_value argv[2], pk_v, sk_v, pair;
  mldsa_param p;
  bytes_view seed;
  bool has_seed;
  uint8_t *pk, *sk;
  int rc;
  if (!get_args(env, info, 2, argv) || !get_param(env, argv[0], &p) ||
      !get_optional_bytes(env, argv[1], "seed", &seed, &has_seed) ||
      (has_seed && !need_length(env, &seed, MLDSA_SEED_BYTES, "seed")))
    return NULL;
  if (!new_buffer(env, mldsa_public_key_bytes(p), &pk, &pk_v) ||
      !new_buffer(env, mldsa_secret_key_bytes(p), &sk, &sk_v))
    return NULL;
  rc = has_seed ? mldsa_keygen_from_seed(p, pk, mldsa_public_key_bytes(p), sk,
                                         mldsa_secret_key_bytes(p), seed.data)
                : mldsa_keygen(p, pk, mldsa_public_key_bytes(p), sk, mldsa_secret_key_bytes(p));
  if (rc != MLDSA_OK) {
    throw_code(env, rc, "keygen");
    return NULL;
  }
  CHECK_NAPI(env, napi_create_array_with_length(env, 2, &pair));
  CHECK_NAPI(env, napi_set_element(env, pair, 0, pk_v));
  CHECK_NAPI(env, napi_set_element(env, pair, 1, sk_v));
  return pair;
}

/* publicKeyFromSecret(set, secretKey) -> publicKey, after the library's import check */
napi_value op_public_key(napi_env env, napi_callback_info info) {
  napi_value argv[2], pk_v;
  mldsa_param p;
  bytes_view sk;
  uint8_t *pk;
  int rc;
  if (!get_args(env, info, 2, argv) || !get_param(env, argv[0], &p) ||
      !get_bytes(env, argv[1], "secretKey", &sk) ||
      !need_length(env, &sk, mldsa_secret_key_bytes(p), "secretKey") ||
      !new_buffer(env, mldsa_public_key_bytes(p), &pk, &pk_v))
    return NULL;
  rc = mldsa_public_key_from_secret(p, pk, mldsa_public_key_bytes(p), sk.data, sk.len);
  if (rc != MLDSA_OK) {
    throw_code(env, rc, "getPublicKey");
    return NULL;
  }
  return pk_v;
}

/* The message-side arguments shared by sign and verify: form, data, context, hash. */
typedef struct {
  uint32_t form;
  bytes_view data; /* message, digest, M' or mu */
  bytes_view ctx;
  uint32_t hash;
} message_args;

static bool get_message_args(napi_env env, napi_value *argv, message_args *m) {
  if (!get_index(env, argv[0], "form", FORM_COUNT, &m->form) ||
      !get_bytes(env, argv[1], m->form == FORM_MU ? "mu" : "message", &m->data) ||
      !get_bytes(env, argv[2], "context", &m->ctx) ||
      !get_index(env, argv[3], "hash", MLDSA_SHAKE256 + 1, &m->hash))
    return false;
  if (m->form == FORM_MU && !need_length(env, &m->data, MLDSA_MU_BYTES, "mu")) return false;
  if (m->ctx.len > MLDSA_CONTEXT_MAX_BYTES) {
    throw_range(env, "mldsa: context must be at most 255 bytes");
    return false;
  }
  return true;
}

/* sign(set, form, message, context, hash, secretKey, rnd | undefined) -> signature;
 * rnd undefined = hedged (fresh OS randomness), else 32 bytes (zeros = deterministic). */
napi_value op_sign(napi_env env, napi_callback_info info) {
  napi_value argv[7], sig_v;
  mldsa_param p;
  message_args m;
  bytes_view sk, rnd;
  bool has_rnd;
  uint8_t *sig;
  size_t sig_len;
  int rc = MLDSA_ERR_PARAM;
  if (!get_args(env, info, 7, argv) || !get_param(env, argv[0], &p) ||
      !get_message_args(env, argv + 1, &m) || !get_bytes(env, argv[5], "secretKey", &sk) ||
      !need_length(env, &sk, mldsa_secret_key_bytes(p), "secretKey") ||
      !get_optional_bytes(env, argv[6], "extraEntropy", &rnd, &has_rnd) ||
      (has_rnd && !need_length(env, &rnd, MLDSA_RND_BYTES, "extraEntropy")))
    return NULL;
  sig_len = mldsa_signature_bytes(p);
  if (!new_buffer(env, sig_len, &sig, &sig_v)) return NULL;
  switch (m.form) {
    case FORM_PURE:
      rc = mldsa_sign(p, sig, sig_len, m.data.data, m.data.len, m.ctx.data, m.ctx.len, rnd.data,
                      sk.data, sk.len);
      break;
    case FORM_PREHASH:
      rc = mldsa_sign_prehash(p, sig, sig_len, m.data.data, m.data.len, (mldsa_hash)m.hash,
                              m.ctx.data, m.ctx.len, rnd.data, sk.data, sk.len);
      break;
    case FORM_INTERNAL:
      rc = mldsa_sign_internal(p, sig, sig_len, m.data.data, m.data.len, rnd.data, sk.data, sk.len);
      break;
    case FORM_MU:
      rc = mldsa_sign_mu(p, sig, sig_len, m.data.data, rnd.data, sk.data, sk.len);
      break;
  }
  if (rc != MLDSA_OK) {
    throw_code(env, rc, "sign");
    return NULL;
  }
  return sig_v;
}

/* verify(set, form, message, context, hash, publicKey, signature) -> boolean. A signature
 * of the wrong length is a signature that does not verify (false), as in noble: it comes
 * from whoever sent it, not from the caller's code. */
napi_value op_verify(napi_env env, napi_callback_info info) {
  napi_value argv[7], result;
  mldsa_param p;
  message_args m;
  bytes_view pk, sig;
  int rc = MLDSA_ERR_PARAM;
  if (!get_args(env, info, 7, argv) || !get_param(env, argv[0], &p) ||
      !get_message_args(env, argv + 1, &m) || !get_bytes(env, argv[5], "publicKey", &pk) ||
      !need_length(env, &pk, mldsa_public_key_bytes(p), "publicKey") ||
      !get_bytes(env, argv[6], "signature", &sig))
    return NULL;
  if (sig.len != mldsa_signature_bytes(p)) {
    rc = MLDSA_ERR_VERIFY;
  } else {
    switch (m.form) {
      case FORM_PURE:
        rc = mldsa_verify(p, sig.data, sig.len, m.data.data, m.data.len, m.ctx.data, m.ctx.len,
                          pk.data, pk.len);
        break;
      case FORM_PREHASH:
        rc = mldsa_verify_prehash(p, sig.data, sig.len, m.data.data, m.data.len, (mldsa_hash)m.hash,
                                  m.ctx.data, m.ctx.len, pk.data, pk.len);
        break;
      case FORM_INTERNAL:
        rc = mldsa_verify_internal(p, sig.data, sig.len, m.data.data, m.data.len, pk.data, pk.len);
        break;
      case FORM_MU:
        rc = mldsa_verify_mu(p, sig.data, sig.len, m.data.data, pk.data, pk.len);
        break;
    }
  }
  if (rc != MLDSA_OK && rc != MLDSA_ERR_VERIFY) {
    throw_code(env, rc, "verify");
    return NULL;
  }
  CHECK_NAPI(env, napi_get_boolean(env, rc == MLDSA_OK, &result));
  return result;
}

/* computeMu(set, publicKey, message, context) -> mu (64 bytes) */
napi_value op_compute_mu(napi_env env, napi_callback_info info) {
  napi_value argv[4], mu_v;
  mldsa_param p;
  bytes_view pk, msg, ctx;
  uint8_t *mu;
  int rc;
  if (!get_args(env, info, 4, argv) || !get_param(env, argv[0], &p) ||
      !get_bytes(env, argv[1], "publicKey", &pk) ||
      !need_length(env, &pk, mldsa_public_key_bytes(p), "publicKey") ||
      !get_bytes(env, argv[2], "message", &msg) || !get_bytes(env, argv[3], "context", &ctx) ||
      !new_buffer(env, MLDSA_MU_BYTES, &mu, &mu_v))
    return NULL;
  rc = mldsa_compute_mu(p, mu, pk.data, pk.len, msg.data, msg.len, ctx.data, ctx.len);
  if (rc != MLDSA_OK) {
    throw_code(env, rc, "computeMu");
    return NULL;
  }
  return mu_v;
}
