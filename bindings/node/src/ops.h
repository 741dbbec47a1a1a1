/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The functions the addon exports (addon.c lists them; index.js gives them their shape). */
#ifndef MLDSA_NODE_OPS_H
#define MLDSA_NODE_OPS_H

#include <node_api.h>

napi_value op_keygen(napi_env env, napi_callback_info info);
napi_value op_public_key(napi_env env, napi_callback_info info);
napi_value op_sign(napi_env env, napi_callback_info info);
napi_value op_verify(napi_env env, napi_callback_info info);
napi_value op_compute_mu(napi_env env, napi_callback_info info);
napi_value op_verify_batch(napi_env env, napi_callback_info info);
napi_value op_public_key_encode(napi_env env, napi_callback_info info);
napi_value op_public_key_decode(napi_env env, napi_callback_info info);
napi_value op_certificate_public_key(napi_env env, napi_callback_info info);
napi_value op_private_key_encode(napi_env env, napi_callback_info info);
napi_value op_private_key_decode(napi_env env, napi_callback_info info);
napi_value op_mu_init(napi_env env, napi_callback_info info);
napi_value op_mu_update(napi_env env, napi_callback_info info);
napi_value op_mu_final(napi_env env, napi_callback_info info);

#endif
