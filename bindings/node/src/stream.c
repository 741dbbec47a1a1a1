/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Streaming mu for messages of any size: muInit(set, key, context, isSecretKey) -> state,
 * muUpdate(state, bytes), muFinal(state) -> mu (64 bytes). The state is an external
 * value tagged as this addon's (another addon's external is refused, never read as
 * one), its memory wiped and freed by the garbage collector. */
#include <stdlib.h>

#include "args.h"
#include "ops.h"

static const napi_type_tag mu_state_tag = {0x6d6c6473612d6d75ull, 0x2d73746174652d31ull};

/* A state used after muFinal (the library refuses it as naming no parameter set). */
static void throw_finalized(napi_env env, int rc, const char *what) {
  if (rc == MLDSA_ERR_PARAM)
    napi_throw_error(env, "ERR_MLDSA_FINALIZED", "mldsa: the stream was finalized");
  else
    throw_code(env, rc, what);
}

static void free_state(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  mldsa_wipe(data, sizeof(mldsa_mu_state));
  free(data);
}

static bool get_state(napi_env env, napi_value v, mldsa_mu_state **st) {
  napi_valuetype t;
  bool tagged = false;
  void *data = NULL;
  if (napi_typeof(env, v, &t) != napi_ok) {
    throw_napi_failure(env);
    return false;
  }
  if (t != napi_external || napi_check_object_type_tag(env, v, &mu_state_tag, &tagged) != napi_ok ||
      !tagged) {
    throw_type(env, "mldsa: not a streaming state of this addon");
    return false;
  }
  if (napi_get_value_external(env, v, &data) != napi_ok) {
    throw_napi_failure(env);
    return false;
  }
  *st = data;
  return true;
}

napi_value op_mu_init(napi_env env, napi_callback_info info) {
  napi_value argv[4], ext;
  mldsa_param p;
  bytes_view key, ctx;
  bool secret = false;
  mldsa_mu_state *st;
  int rc;
  if (!get_args(env, info, 4, argv) || !get_param(env, argv[0], &p)) return NULL;
  if (napi_get_value_bool(env, argv[3], &secret) != napi_ok) {
    throw_type(env, "mldsa: muInit: isSecretKey must be a boolean");
    return NULL;
  }
  if (!get_bytes(env, argv[1], secret ? "secretKey" : "publicKey", &key) ||
      !need_length(env, &key, secret ? mldsa_secret_key_bytes(p) : mldsa_public_key_bytes(p),
                   secret ? "secretKey" : "publicKey") ||
      !get_bytes(env, argv[2], "context", &ctx))
    return NULL;
  if (ctx.len > MLDSA_CONTEXT_MAX_BYTES) {
    throw_range(env, "mldsa: context must be at most 255 bytes");
    return NULL;
  }
  /* the state's words are 64-bit: malloc's alignment suffices */
  st = malloc(sizeof *st);
  if (st == NULL) {
    napi_throw_error(env, "ERR_MLDSA_NO_MEMORY", "mldsa: out of memory");
    return NULL;
  }
  rc = secret ? mldsa_mu_init_secret(st, p, key.data, key.len, ctx.data, ctx.len)
              : mldsa_mu_init(st, p, key.data, key.len, ctx.data, ctx.len);
  if (rc != MLDSA_OK) {
    free_state(env, st, NULL);
    throw_code(env, rc, "muInit");
    return NULL;
  }
  if (napi_create_external(env, st, free_state, NULL, &ext) != napi_ok) {
    free_state(env, st, NULL);
    throw_napi_failure(env);
    return NULL;
  }
  CHECK_NAPI(env, napi_type_tag_object(env, ext, &mu_state_tag));
  return ext;
}

napi_value op_mu_update(napi_env env, napi_callback_info info) {
  napi_value argv[2], undefined;
  mldsa_mu_state *st;
  bytes_view m;
  int rc;
  if (!get_args(env, info, 2, argv) || !get_state(env, argv[0], &st) ||
      !get_bytes(env, argv[1], "data", &m))
    return NULL;
  rc = mldsa_mu_update(st, m.data, m.len);
  if (rc != MLDSA_OK) {
    throw_finalized(env, rc, "update");
    return NULL;
  }
  CHECK_NAPI(env, napi_get_undefined(env, &undefined));
  return undefined;
}

napi_value op_mu_final(napi_env env, napi_callback_info info) {
  napi_value argv[1], mu_v;
  mldsa_mu_state *st;
  uint8_t *mu;
  int rc;
  if (!get_args(env, info, 1, argv) || !get_state(env, argv[0], &st) ||
      !new_buffer(env, MLDSA_MU_BYTES, &mu, &mu_v))
    return NULL;
  rc = mldsa_mu_final(st, mu);
  if (rc != MLDSA_OK) {
    throw_finalized(env, rc, "finalize");
    return NULL;
  }
  return mu_v;
}
