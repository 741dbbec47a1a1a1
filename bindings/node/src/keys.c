/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Keys in standard formats (RFC 9881): SubjectPublicKeyInfo and PKCS#8, DER or PEM, and
 * the public key of an X.509 certificate. An encoding is written straight into a Buffer
 * of the size the library asks for; a decoded secret key and seed pass through a buffer
 * on this stack (the set, and so the size, is known only after decoding), wiped before
 * return. */
#include "args.h"
#include "ops.h"

/* A decoded key as [set, key]: the key copied into a new Buffer of its own length. */
static napi_value set_and_key(napi_env env, mldsa_param p, const uint8_t *key, size_t len) {
  napi_value pair, v;
  uint8_t *out;
  CHECK_NAPI(env, napi_create_array_with_length(env, 2, &pair));
  CHECK_NAPI(env, napi_create_uint32(env, (uint32_t)p, &v));
  CHECK_NAPI(env, napi_set_element(env, pair, 0, v));
  if (!new_buffer(env, len, &out, &v)) return NULL;
  for (size_t i = 0; i < len; i++) out[i] = key[i];
  CHECK_NAPI(env, napi_set_element(env, pair, 1, v));
  return pair;
}

/* publicKeyEncode(set, format, publicKey) -> Buffer (format 0 DER, 1 PEM) */
napi_value op_public_key_encode(napi_env env, napi_callback_info info) {
  napi_value argv[3], out_v;
  mldsa_param p;
  uint32_t format;
  bytes_view pk;
  size_t len = 0;
  uint8_t *out;
  int rc;
  if (!get_args(env, info, 3, argv) || !get_param(env, argv[0], &p) ||
      !get_index(env, argv[1], "format", MLDSA_PEM + 1, &format) ||
      !get_bytes(env, argv[2], "publicKey", &pk) ||
      !need_length(env, &pk, mldsa_public_key_bytes(p), "publicKey"))
    return NULL;
  rc = mldsa_public_key_encode(p, (mldsa_format)format, NULL, 0, &len, pk.data, pk.len);
  if (rc == MLDSA_OK && !new_buffer(env, len, &out, &out_v)) return NULL;
  if (rc == MLDSA_OK)
    rc = mldsa_public_key_encode(p, (mldsa_format)format, out, len, &len, pk.data, pk.len);
  if (rc != MLDSA_OK) {
    throw_code(env, rc, "publicKeyEncode");
    return NULL;
  }
  return out_v;
}

/* publicKeyDecode(input) -> [set, publicKey]; certificatePublicKey(input) likewise. */
static napi_value decode_public(napi_env env, napi_callback_info info, bool certificate) {
  napi_value argv[1];
  bytes_view in;
  mldsa_param p;
  uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES];
  size_t len = 0;
  int rc;
  if (!get_args(env, info, 1, argv) || !get_bytes(env, argv[0], "input", &in)) return NULL;
  rc = certificate ? mldsa_certificate_public_key(&p, pk, sizeof pk, &len, in.data, in.len)
                   : mldsa_public_key_decode(&p, pk, sizeof pk, &len, in.data, in.len);
  if (rc != MLDSA_OK) {
    throw_code(env, rc, certificate ? "certificatePublicKey" : "publicKeyDecode");
    return NULL;
  }
  return set_and_key(env, p, pk, len);
}

napi_value op_public_key_decode(napi_env env, napi_callback_info info) {
  return decode_public(env, info, false);
}

napi_value op_certificate_public_key(napi_env env, napi_callback_info info) {
  return decode_public(env, info, true);
}

/* privateKeyEncode(set, format, form, seed | undefined, secretKey | undefined) -> Buffer
 * (form 1 seed, 2 expanded, 3 both); the library checks that what is given agrees. */
napi_value op_private_key_encode(napi_env env, napi_callback_info info) {
  napi_value argv[5], out_v;
  mldsa_param p;
  uint32_t format, form;
  bytes_view seed, sk;
  bool has_seed, has_sk;
  size_t len = 0;
  uint8_t *out;
  int rc;
  if (!get_args(env, info, 5, argv) || !get_param(env, argv[0], &p) ||
      !get_index(env, argv[1], "format", MLDSA_PEM + 1, &format) ||
      !get_index(env, argv[2], "form", MLDSA_SK_BOTH + 1, &form) ||
      !get_optional_bytes(env, argv[3], "seed", &seed, &has_seed) ||
      (has_seed && !need_length(env, &seed, MLDSA_SEED_BYTES, "seed")) ||
      !get_optional_bytes(env, argv[4], "secretKey", &sk, &has_sk) ||
      (has_sk && !need_length(env, &sk, mldsa_secret_key_bytes(p), "secretKey")))
    return NULL;
  if ((form != MLDSA_SK_EXPANDED && !has_seed) || (form != MLDSA_SK_SEED && !has_sk)) {
    throw_type(env, form == MLDSA_SK_SEED ? "mldsa: the seed form needs the seed"
                    : form == MLDSA_SK_EXPANDED
                        ? "mldsa: the expanded form needs the secret key"
                        : "mldsa: the both form needs the seed and the secret key");
    return NULL;
  }
  rc = mldsa_private_key_encode(p, (mldsa_format)format, (mldsa_sk_form)form, NULL, 0, &len,
                                seed.data, sk.data, sk.len);
  if (rc == MLDSA_OK && !new_buffer(env, len, &out, &out_v)) return NULL;
  if (rc == MLDSA_OK)
    rc = mldsa_private_key_encode(p, (mldsa_format)format, (mldsa_sk_form)form, out, len, &len,
                                  seed.data, sk.data, sk.len);
  if (rc != MLDSA_OK) {
    throw_code(env, rc, "privateKeyEncode");
    return NULL;
  }
  return out_v;
}

/* privateKeyDecode(input) -> [set, secretKey, seed | undefined] */
napi_value op_private_key_decode(napi_env env, napi_callback_info info) {
  napi_value argv[1], result = NULL, seed_v;
  bytes_view in;
  mldsa_param p;
  uint8_t sk[MLDSA_MAX_SECRET_KEY_BYTES], seed[MLDSA_SEED_BYTES], *out;
  size_t len = 0;
  int has_seed = 0, rc;
  if (!get_args(env, info, 1, argv) || !get_bytes(env, argv[0], "input", &in)) return NULL;
  rc = mldsa_private_key_decode(&p, sk, sizeof sk, &len, seed, &has_seed, in.data, in.len);
  if (rc != MLDSA_OK) {
    throw_code(env, rc, "privateKeyDecode");
    goto wipe;
  }
  result = set_and_key(env, p, sk, len);
  if (result == NULL) goto wipe;
  if (has_seed) {
    if (!new_buffer(env, sizeof seed, &out, &seed_v)) {
      result = NULL;
      goto wipe;
    }
    for (size_t i = 0; i < sizeof seed; i++) out[i] = seed[i];
  } else if (napi_get_undefined(env, &seed_v) != napi_ok) {
    throw_napi_failure(env);
    result = NULL;
    goto wipe;
  }
  if (napi_set_element(env, result, 2, seed_v) != napi_ok) {
    throw_napi_failure(env);
    result = NULL;
  }
wipe:
  mldsa_wipe(sk, sizeof sk);
  mldsa_wipe(seed, sizeof seed);
  return result;
}
