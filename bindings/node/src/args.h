/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Reading JavaScript arguments and reporting errors for the addon: every argument check
 * throws a TypeError (not bytes, not a parameter set) or a RangeError (a wrong length),
 * and a library error becomes a JavaScript error whose .code names the MLDSA_ERR_* code. */
#ifndef MLDSA_NODE_ARGS_H
#define MLDSA_NODE_ARGS_H

#include <node_api.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mldsa.h"

/* Bytes borrowed from a Uint8Array (a Buffer included) for the length of one call. */
typedef struct {
  const uint8_t *data;
  size_t len;
} bytes_view;

/* The n arguments of this call, missing ones read as undefined; false after throwing. */
bool get_args(napi_env env, napi_callback_info info, size_t n, napi_value *argv);

/* Borrows the bytes of v when it is a Uint8Array: READ_OK; READ_NOT_BYTES (nothing
 * thrown: the caller names the argument) or READ_FAILED (thrown). */
enum { READ_OK, READ_NOT_BYTES, READ_FAILED };
int read_bytes(napi_env env, napi_value v, bytes_view *out);
/* v must be a Uint8Array (TypeError otherwise). */
bool get_bytes(napi_env env, napi_value v, const char *name, bytes_view *out);
/* As get_bytes, with undefined read as absent (data NULL, len 0; *present = false). */
bool get_optional_bytes(napi_env env, napi_value v, const char *name, bytes_view *out,
                        bool *present);
/* A RangeError unless b has exactly want bytes. */
bool need_length(napi_env env, const bytes_view *b, size_t want, const char *name);

/* The parameter set 44, 65 or 87 (TypeError for a non-number, RangeError otherwise). */
bool get_param(napi_env env, napi_value v, mldsa_param *out);
/* A non-negative integer below limit (TypeError / RangeError). */
bool get_index(napi_env env, napi_value v, const char *name, uint32_t limit, uint32_t *out);

/* A new Buffer of len bytes, its memory in *data (written by the library directly: no
 * copy of a secret is made on the C side). */
bool new_buffer(napi_env env, size_t len, uint8_t **data, napi_value *out);

/* Throws the error for library code rc (not MLDSA_OK), saying what failed. */
void throw_code(napi_env env, int rc, const char *what);
/* Throws a TypeError or RangeError with .code "ERR_INVALID_ARG_TYPE" / "ERR_OUT_OF_RANGE". */
void throw_type(napi_env env, const char *msg);
void throw_range(napi_env env, const char *msg);

/* Returns NULL after a failed N-API call (an exception is then pending). */
#define CHECK_NAPI(env, call)  \
  do {                         \
    if ((call) != napi_ok) {   \
      throw_napi_failure(env); \
      return NULL;             \
    }                          \
  } while (0)
void throw_napi_failure(napi_env env);

#endif
