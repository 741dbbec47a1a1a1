/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The addon's entry: the native functions and facts index.js builds its API from. */
#include "args.h"
#include "ops.h"

static napi_value op_isa(napi_env env, napi_callback_info info) {
  napi_value s;
  (void)info;
  CHECK_NAPI(env, napi_create_string_utf8(env, mldsa_isa(), NAPI_AUTO_LENGTH, &s));
  return s;
}

static napi_value op_version(napi_env env, napi_callback_info info) {
  napi_value s;
  (void)info;
  CHECK_NAPI(env, napi_create_string_utf8(env, mldsa_version(), NAPI_AUTO_LENGTH, &s));
  return s;
}

/* sizes(set) -> { publicKey, secretKey, signature } in bytes */
static napi_value op_sizes(napi_env env, napi_callback_info info) {
  napi_value argv[1], obj, v;
  mldsa_param p;
  if (!get_args(env, info, 1, argv) || !get_param(env, argv[0], &p)) return NULL;
  CHECK_NAPI(env, napi_create_object(env, &obj));
  CHECK_NAPI(env, napi_create_uint32(env, (uint32_t)mldsa_public_key_bytes(p), &v));
  CHECK_NAPI(env, napi_set_named_property(env, obj, "publicKey", v));
  CHECK_NAPI(env, napi_create_uint32(env, (uint32_t)mldsa_secret_key_bytes(p), &v));
  CHECK_NAPI(env, napi_set_named_property(env, obj, "secretKey", v));
  CHECK_NAPI(env, napi_create_uint32(env, (uint32_t)mldsa_signature_bytes(p), &v));
  CHECK_NAPI(env, napi_set_named_property(env, obj, "signature", v));
  return obj;
}

NAPI_MODULE_INIT() {
  static const napi_property_descriptor functions[] = {
      {"keygen", NULL, op_keygen, NULL, NULL, NULL, napi_enumerable, NULL},
      {"publicKeyFromSecret", NULL, op_public_key, NULL, NULL, NULL, napi_enumerable, NULL},
      {"sign", NULL, op_sign, NULL, NULL, NULL, napi_enumerable, NULL},
      {"verify", NULL, op_verify, NULL, NULL, NULL, napi_enumerable, NULL},
      {"computeMu", NULL, op_compute_mu, NULL, NULL, NULL, napi_enumerable, NULL},
      {"verifyBatch", NULL, op_verify_batch, NULL, NULL, NULL, napi_enumerable, NULL},
      {"publicKeyEncode", NULL, op_public_key_encode, NULL, NULL, NULL, napi_enumerable, NULL},
      {"publicKeyDecode", NULL, op_public_key_decode, NULL, NULL, NULL, napi_enumerable, NULL},
      {"certificatePublicKey", NULL, op_certificate_public_key, NULL, NULL, NULL, napi_enumerable,
       NULL},
      {"privateKeyEncode", NULL, op_private_key_encode, NULL, NULL, NULL, napi_enumerable, NULL},
      {"privateKeyDecode", NULL, op_private_key_decode, NULL, NULL, NULL, napi_enumerable, NULL},
      {"muInit", NULL, op_mu_init, NULL, NULL, NULL, napi_enumerable, NULL},
      {"muUpdate", NULL, op_mu_update, NULL, NULL, NULL, napi_enumerable, NULL},
      {"muFinal", NULL, op_mu_final, NULL, NULL, NULL, napi_enumerable, NULL},
      {"sizes", NULL, op_sizes, NULL, NULL, NULL, napi_enumerable, NULL},
      {"isa", NULL, op_isa, NULL, NULL, NULL, napi_enumerable, NULL},
      {"version", NULL, op_version, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions) !=
      napi_ok)
    return NULL;
  return exports;
}
