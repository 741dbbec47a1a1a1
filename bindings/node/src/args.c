/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Argument reading and error reporting (args.h). */
#include "args.h"

#include <stdio.h>

static void throw_with(napi_env env,
                       napi_status (*make)(napi_env, napi_value, napi_value, napi_value *),
                       const char *code, const char *msg) {
  napi_value c, m, err;
  if (napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &c) != napi_ok ||
      napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &m) != napi_ok ||
      make(env, c, m, &err) != napi_ok || napi_throw(env, err) != napi_ok)
    napi_throw_error(env, code, msg);
}

void throw_type(napi_env env, const char *msg) {
  throw_with(env, napi_create_type_error, "ERR_INVALID_ARG_TYPE", msg);
}

void throw_range(napi_env env, const char *msg) {
  throw_with(env, napi_create_range_error, "ERR_OUT_OF_RANGE", msg);
}

void throw_napi_failure(napi_env env) {
  bool pending = false;
  /* the failed call may have left its own exception (a getter that threw, say) */
  if (napi_is_exception_pending(env, &pending) == napi_ok && pending) return;
  napi_throw_error(env, "ERR_MLDSA_INTERNAL", "mldsa: a Node-API call failed");
}

/* The name of code rc, as the .code of the error thrown for it. */
static const char *code_name(int rc) {
#define CODE_NAME(c) \
  case c:            \
    return #c
  switch (rc) {
    CODE_NAME(MLDSA_ERR_VERIFY);
    CODE_NAME(MLDSA_ERR_PARAM);
    CODE_NAME(MLDSA_ERR_LENGTH);
    CODE_NAME(MLDSA_ERR_CONTEXT);
    CODE_NAME(MLDSA_ERR_NULL);
    CODE_NAME(MLDSA_ERR_RANDOM);
    CODE_NAME(MLDSA_ERR_KEY);
    CODE_NAME(MLDSA_ERR_HASH);
    CODE_NAME(MLDSA_ERR_ENCODING);
    CODE_NAME(MLDSA_ERR_SELFTEST);
    default:
      return "MLDSA_ERR_UNKNOWN";
  }
#undef CODE_NAME
}

void throw_code(napi_env env, int rc, const char *what) {
  char msg[256];
  snprintf(msg, sizeof msg, "mldsa: %s: %s", what, mldsa_strerror(rc));
  switch (rc) {
    /* the caller's argument was wrong: the kinds of error JavaScript uses for that */
    case MLDSA_ERR_PARAM:
    case MLDSA_ERR_LENGTH:
    case MLDSA_ERR_CONTEXT:
    case MLDSA_ERR_HASH:
      throw_with(env, napi_create_range_error, code_name(rc), msg);
      break;
    case MLDSA_ERR_NULL:
      throw_with(env, napi_create_type_error, code_name(rc), msg);
      break;
    /* a key that is not one, no randomness, a failed self-test: not an argument's type */
    default:
      throw_with(env, napi_create_error, code_name(rc), msg);
  }
}

bool get_args(napi_env env, napi_callback_info info, size_t n, napi_value *argv) {
  size_t argc = n;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) {
    throw_napi_failure(env);
    return false;
  }
  /* napi_get_cb_info fills the missing ones with undefined */
  return true;
}

int read_bytes(napi_env env, napi_value v, bytes_view *out) {
  bool is_typed = false;
  napi_typedarray_type type;
  size_t len = 0;
  void *data = NULL;
  if (napi_is_typedarray(env, v, &is_typed) != napi_ok ||
      (is_typed && napi_get_typedarray_info(env, v, &type, &len, &data, NULL, NULL) != napi_ok)) {
    throw_napi_failure(env);
    return READ_FAILED;
  }
  if (!is_typed || type != napi_uint8_array) return READ_NOT_BYTES;
  /* a detached array reads as 0 bytes; the library never dereferences a 0-byte input */
  out->data = len ? data : NULL;
  out->len = len;
  return READ_OK;
}

bool get_bytes(napi_env env, napi_value v, const char *name, bytes_view *out) {
  char msg[128];
  int r = read_bytes(env, v, out);
  if (r == READ_NOT_BYTES) {
    snprintf(msg, sizeof msg, "mldsa: %s must be a Uint8Array or Buffer", name);
    throw_type(env, msg);
  }
  return r == READ_OK;
}

bool get_optional_bytes(napi_env env, napi_value v, const char *name, bytes_view *out,
                        bool *present) {
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok) {
    throw_napi_failure(env);
    return false;
  }
  *present = t != napi_undefined;
  if (!*present) {
    out->data = NULL;
    out->len = 0;
    return true;
  }
  return get_bytes(env, v, name, out);
}

bool need_length(napi_env env, const bytes_view *b, size_t want, const char *name) {
  char msg[128];
  if (b->len == want) return true;
  snprintf(msg, sizeof msg, "mldsa: %s must be %zu bytes, not %zu", name, want, b->len);
  throw_range(env, msg);
  return false;
}

bool get_index(napi_env env, napi_value v, const char *name, uint32_t limit, uint32_t *out) {
  napi_valuetype t;
  double d;
  char msg[128];
  if (napi_typeof(env, v, &t) != napi_ok) {
    throw_napi_failure(env);
    return false;
  }
  if (t != napi_number) {
    snprintf(msg, sizeof msg, "mldsa: %s must be a number", name);
    throw_type(env, msg);
    return false;
  }
  if (napi_get_value_double(env, v, &d) != napi_ok) {
    throw_napi_failure(env);
    return false;
  }
  if (!(d >= 0 && d < (double)limit) || d != (double)(uint32_t)d) {
    snprintf(msg, sizeof msg, "mldsa: %s out of range", name);
    throw_range(env, msg);
    return false;
  }
  *out = (uint32_t)d;
  return true;
}

bool get_param(napi_env env, napi_value v, mldsa_param *out) {
  uint32_t n;
  if (!get_index(env, v, "parameter set", 100, &n)) return false;
  if (n != MLDSA_44 && n != MLDSA_65 && n != MLDSA_87) {
    throw_range(env, "mldsa: the parameter set must be 44, 65 or 87");
    return false;
  }
  *out = (mldsa_param)n;
  return true;
}

bool new_buffer(napi_env env, size_t len, uint8_t **data, napi_value *out) {
  void *p = NULL;
  if (napi_create_buffer(env, len, &p, out) != napi_ok) {
    throw_napi_failure(env);
    return false;
  }
  *data = p;
  return true;
}
