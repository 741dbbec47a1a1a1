/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* verifyBatch(set, items) -> boolean[]: many signatures, each under its own public key, in
 * one call of mldsa_verify_batch (their hashing shares the lanes of the batched Keccak).
 * items[i] = { publicKey, message, signature, context? }, checked as verify checks them. */
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "ops.h"

/* The four properties of an item, read before any byte pointer is taken: a getter is
 * JavaScript and could detach an array whose pointer was already taken. */
enum { ITEM_PK, ITEM_MSG, ITEM_SIG, ITEM_CTX, ITEM_FIELDS };
static const char *const field_names[ITEM_FIELDS] = {"publicKey", "message", "signature",
                                                     "context"};

/* An upper bound on items that keeps every size computation below far from overflow. */
#define MAX_ITEMS (1u << 24)

typedef struct {
  napi_value *fields;       /* ITEM_FIELDS per item */
  mldsa_verify_item *items; /* the items whose signature has the right length */
  uint32_t *index;          /* items[k] is the caller's item index[k] */
  int *results;
} batch;

static void batch_free(batch *b) {
  free(b->fields);
  free(b->items);
  free(b->index);
  free(b->results);
}

static bool read_fields(napi_env env, napi_value array, uint32_t n, napi_value *fields) {
  char name[64];
  for (uint32_t i = 0; i < n; i++) {
    napi_value item;
    napi_valuetype t;
    if (napi_get_element(env, array, i, &item) != napi_ok ||
        napi_typeof(env, item, &t) != napi_ok) {
      throw_napi_failure(env);
      return false;
    }
    if (t != napi_object) {
      snprintf(name, sizeof name, "mldsa: verifyBatch: items[%u] must be an object", i);
      throw_type(env, name);
      return false;
    }
    for (int f = 0; f < ITEM_FIELDS; f++)
      if (napi_get_named_property(env, item, field_names[f],
                                  &fields[(size_t)i * ITEM_FIELDS + (size_t)f]) != napi_ok) {
        throw_napi_failure(env);
        return false;
      }
  }
  return true;
}

/* Field f of item i as bytes (undefined as 0 bytes for the context); false after
 * throwing an error that names them. The name is only formatted for an error: a batch
 * can be long. */
static bool item_bytes(napi_env env, const napi_value *fields, uint32_t i, int f, bytes_view *out) {
  char msg[96];
  napi_valuetype t;
  int r;
  if (f == ITEM_CTX) {
    if (napi_typeof(env, fields[f], &t) != napi_ok) {
      throw_napi_failure(env);
      return false;
    }
    if (t == napi_undefined) {
      out->data = NULL;
      out->len = 0;
      return true;
    }
  }
  r = read_bytes(env, fields[f], out);
  if (r == READ_NOT_BYTES) {
    snprintf(msg, sizeof msg, "mldsa: items[%u].%s must be a Uint8Array or Buffer", i,
             field_names[f]);
    throw_type(env, msg);
  }
  return r == READ_OK;
}

/* Fills b->items with the items whose signature has the set's length; the others are
 * false without a call. Returns the number filled, or -1 after throwing. */
static long take_items(napi_env env, mldsa_param p, uint32_t n, batch *b) {
  char msg[96];
  long k = 0;
  for (uint32_t i = 0; i < n; i++) {
    const napi_value *f = &b->fields[(size_t)i * ITEM_FIELDS];
    bytes_view v[ITEM_FIELDS];
    for (int j = 0; j < ITEM_FIELDS; j++)
      if (!item_bytes(env, f, i, j, &v[j])) return -1;
    if (v[ITEM_PK].len != mldsa_public_key_bytes(p)) {
      snprintf(msg, sizeof msg, "mldsa: items[%u].publicKey must be %zu bytes, not %zu", i,
               mldsa_public_key_bytes(p), v[ITEM_PK].len);
      throw_range(env, msg);
      return -1;
    }
    if (v[ITEM_CTX].len > MLDSA_CONTEXT_MAX_BYTES) {
      snprintf(msg, sizeof msg, "mldsa: items[%u].context must be at most 255 bytes", i);
      throw_range(env, msg);
      return -1;
    }
    if (v[ITEM_SIG].len != mldsa_signature_bytes(p)) continue;
    b->items[k] =
        (mldsa_verify_item){v[ITEM_PK].data,  v[ITEM_PK].len,  v[ITEM_MSG].data, v[ITEM_MSG].len,
                            v[ITEM_CTX].data, v[ITEM_CTX].len, v[ITEM_SIG].data, v[ITEM_SIG].len};
    b->index[k] = i;
    k++;
  }
  return k;
}

napi_value op_verify_batch(napi_env env, napi_callback_info info) {
  napi_value argv[2], out, v;
  mldsa_param p;
  bool is_array = false;
  uint32_t n = 0;
  long k;
  int rc;
  batch b = {0};
  if (!get_args(env, info, 2, argv) || !get_param(env, argv[0], &p)) return NULL;
  CHECK_NAPI(env, napi_is_array(env, argv[1], &is_array));
  if (!is_array) {
    throw_type(env, "mldsa: verifyBatch: items must be an Array");
    return NULL;
  }
  CHECK_NAPI(env, napi_get_array_length(env, argv[1], &n));
  if (n > MAX_ITEMS) {
    throw_range(env, "mldsa: verifyBatch: too many items");
    return NULL;
  }
  CHECK_NAPI(env, napi_create_array_with_length(env, n, &out));
  if (n == 0) return out;
  b.fields = calloc((size_t)n * ITEM_FIELDS, sizeof *b.fields);
  b.items = calloc(n, sizeof *b.items);
  b.index = calloc(n, sizeof *b.index);
  b.results = calloc(n, sizeof *b.results);
  if (!b.fields || !b.items || !b.index || !b.results) {
    batch_free(&b);
    napi_throw_error(env, "ERR_MLDSA_NO_MEMORY", "mldsa: verifyBatch: out of memory");
    return NULL;
  }
  if (!read_fields(env, argv[1], n, b.fields) || (k = take_items(env, p, n, &b)) < 0) {
    batch_free(&b);
    return NULL;
  }
  rc = mldsa_verify_batch(p, b.items, (size_t)k, b.results);
  if (rc != MLDSA_OK && rc != MLDSA_ERR_VERIFY) {
    batch_free(&b);
    throw_code(env, rc, "verifyBatch");
    return NULL;
  }
  /* every item false first, then the verified ones true */
  for (uint32_t i = 0; i < n; i++)
    if (napi_get_boolean(env, false, &v) != napi_ok || napi_set_element(env, out, i, v) != napi_ok)
      goto fail;
  for (long j = 0; j < k; j++)
    if (b.results[j] == MLDSA_OK && (napi_get_boolean(env, true, &v) != napi_ok ||
                                     napi_set_element(env, out, b.index[j], v) != napi_ok))
      goto fail;
  batch_free(&b);
  return out;
fail:
  batch_free(&b);
  throw_napi_failure(env);
  return NULL;
}
