/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The provider's entry: the parameter sets as OpenSSL names them, the algorithm tables,
 * the TLS capabilities, the OIDs registered with the core (OpenSSL 3.0-3.4 do not know
 * them), errors raised through the core, and the core's BIO calls. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/err.h>
#include <openssl/prov_ssl.h>

#include "prov.h"

/* AlgorithmIdentifier { id-ml-dsa-NN } (RFC 9881 §2: parameters absent):
   30 0b, 06 09 60 86 48 01 65 03 04 03 <11|12|13> for 2.16.840.1.101.3.4.3.<17|18|19>. */
#define MLDSA_PROV_AID(arc) {0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, arc}

const mldsa_prov_alg mldsa_prov_algs[MLDSA_PROV_NALGS] = {
    {MLDSA_44, "ML-DSA-44", "MLDSA44", "id-ml-dsa-44", "2.16.840.1.101.3.4.3.17", "mldsa44",
     0x0904, 128, 2, MLDSA44_PUBLIC_KEY_BYTES, MLDSA44_SECRET_KEY_BYTES,
     MLDSA44_SIGNATURE_BYTES, MLDSA_PROV_AID(17)},
    {MLDSA_65, "ML-DSA-65", "MLDSA65", "id-ml-dsa-65", "2.16.840.1.101.3.4.3.18", "mldsa65",
     0x0905, 192, 3, MLDSA65_PUBLIC_KEY_BYTES, MLDSA65_SECRET_KEY_BYTES,
     MLDSA65_SIGNATURE_BYTES, MLDSA_PROV_AID(18)},
    {MLDSA_87, "ML-DSA-87", "MLDSA87", "id-ml-dsa-87", "2.16.840.1.101.3.4.3.19", "mldsa87",
     0x0906, 256, 5, MLDSA87_PUBLIC_KEY_BYTES, MLDSA87_SECRET_KEY_BYTES,
     MLDSA87_SIGNATURE_BYTES, MLDSA_PROV_AID(19)},
};

/* ---- the core's upcalls -------------------------------------------------------------- */

static OSSL_FUNC_core_get_params_fn *core_get_params;
static OSSL_FUNC_core_new_error_fn *core_new_error;
static OSSL_FUNC_core_set_error_debug_fn *core_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *core_vset_error;
static OSSL_FUNC_core_obj_create_fn *core_obj_create;
static OSSL_FUNC_core_obj_add_sigid_fn *core_obj_add_sigid;
static OSSL_FUNC_BIO_read_ex_fn *core_bio_read_ex;
static OSSL_FUNC_BIO_write_ex_fn *core_bio_write_ex;
void mldsa_prov_raise(const mldsa_prov_ctx *pc, int reason, const char *fmt, ...) {
  if (pc == NULL || core_new_error == NULL || core_vset_error == NULL) return;
  va_list ap;
  va_start(ap, fmt);
  core_new_error(pc->handle);
  if (core_set_error_debug != NULL) core_set_error_debug(pc->handle, NULL, 0, NULL);
  core_vset_error(pc->handle, reason, fmt, ap);
  va_end(ap);
}

int mldsa_prov_lib_error(const mldsa_prov_ctx *pc, int code, const char *what) {
  int reason = code < 0 && code >= -20 ? MLDSA_PROV_R_LIB_BASE - code : MLDSA_PROV_R_BAD_STATE;
  mldsa_prov_raise(pc, reason, "%s", what); /* the reason string is mldsa_strerror(code) */
  return 0;
}

/* The input of a decoder, whole: a key in DER is at most a few KiB, so anything past 1 MiB
   is refused rather than read. */
#define MLDSA_PROV_MAX_INPUT (1u << 20)

int mldsa_prov_bio_read_all(const mldsa_prov_ctx *pc, OSSL_CORE_BIO *in, uint8_t **data,
                            size_t *len) {
  size_t cap = 8192, n = 0;
  uint8_t *buf = malloc(cap);
  if (buf == NULL) return 0;
  for (;;) {
    size_t got = 0;
    if (n == cap) {
      if (cap >= MLDSA_PROV_MAX_INPUT) break;
      uint8_t *grown = realloc(buf, cap * 2);
      if (grown == NULL) break;
      buf = grown;
      cap *= 2;
    }
    if (!core_bio_read_ex(in, buf + n, cap - n, &got) || got == 0) {
      *data = buf;
      *len = n;
      return 1;
    }
    n += got;
  }
  mldsa_wipe(buf, n);
  free(buf);
  mldsa_prov_raise(pc, MLDSA_PROV_R_IO, "input longer than %u bytes, or out of memory",
                   MLDSA_PROV_MAX_INPUT);
  return 0;
}

int mldsa_prov_bio_write(const mldsa_prov_ctx *pc, OSSL_CORE_BIO *out, const void *data,
                         size_t len) {
  size_t written = 0;
  if (!core_bio_write_ex(out, data, len, &written) || written != len) {
    mldsa_prov_raise(pc, MLDSA_PROV_R_IO, "writing %zu bytes failed", len);
    return 0;
  }
  return 1;
}

int mldsa_prov_bio_printf(const mldsa_prov_ctx *pc, OSSL_CORE_BIO *out, const char *fmt, ...) {
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof line) return 0;
  return mldsa_prov_bio_write(pc, out, line, (size_t)n);
}

/* ---- counters ------------------------------------------------------------------------ */

static unsigned long long counts[MLDSA_PROV_NCOUNTS];
static const char *const count_names[MLDSA_PROV_NCOUNTS] = {
    "mldsa-keygens", "mldsa-signs", "mldsa-verifies", "mldsa-decodes", "mldsa-encodes"};

void mldsa_prov_count(int which) { __atomic_fetch_add(&counts[which], 1, __ATOMIC_RELAXED); }

/* ---- provider parameters ------------------------------------------------------------- */

static const OSSL_PARAM provider_param_types[] = {
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN("mldsa-isa", OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN("mldsa-keygens", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN("mldsa-signs", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN("mldsa-verifies", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN("mldsa-decodes", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN("mldsa-encodes", OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *provider_gettable_params(void *provctx) {
  (void)provctx;
  return provider_param_types;
}

static int provider_get_params(void *provctx, OSSL_PARAM params[]) {
  (void)provctx;
  static const char buildinfo[] = "libmldsa " MLDSA_VERSION_STRING;
  OSSL_PARAM *p;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) != NULL &&
      !OSSL_PARAM_set_utf8_ptr(p, "libmldsa ML-DSA provider"))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) != NULL &&
      !OSSL_PARAM_set_utf8_ptr(p, MLDSA_VERSION_STRING))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) != NULL &&
      !OSSL_PARAM_set_utf8_ptr(p, buildinfo))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) != NULL &&
      !OSSL_PARAM_set_int(p, 1))
    return 0;
  if ((p = OSSL_PARAM_locate(params, "mldsa-isa")) != NULL &&
      !OSSL_PARAM_set_utf8_ptr(p, mldsa_isa()))
    return 0;
  for (int i = 0; i < MLDSA_PROV_NCOUNTS; ++i)
    if ((p = OSSL_PARAM_locate(params, count_names[i])) != NULL &&
        !OSSL_PARAM_set_uint64(p, __atomic_load_n(&counts[i], __ATOMIC_RELAXED)))
      return 0;
  return 1;
}

/* ---- TLS capabilities ---------------------------------------------------------------- */

/* One TLS-SIGALG answer per set (RFC 8446 SignatureScheme 0x0904-0x0906, TLS 1.3 only). */
static int sigalg_capability(const mldsa_prov_alg *a, OSSL_CALLBACK *cb, void *arg) {
  unsigned int code = a->tls_code, bits = (unsigned)a->security_bits;
  int min_tls = TLS1_3_VERSION, max_tls = 0, no_dtls = -1;
  OSSL_PARAM params[] = {
      OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_SIGALG_IANA_NAME, (char *)a->tls_name, strlen(a->tls_name)),
      OSSL_PARAM_uint(OSSL_CAPABILITY_TLS_SIGALG_CODE_POINT, &code),
      OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_SIGALG_NAME, (char *)a->name, strlen(a->name)),
      OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_SIGALG_OID, (char *)a->oid, strlen(a->oid)),
      OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_SIGALG_KEYTYPE, (char *)a->name, strlen(a->name)),
      OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_SIGALG_KEYTYPE_OID, (char *)a->oid, strlen(a->oid)),
      OSSL_PARAM_uint(OSSL_CAPABILITY_TLS_SIGALG_SECURITY_BITS, &bits),
      OSSL_PARAM_int(OSSL_CAPABILITY_TLS_SIGALG_MIN_TLS, &min_tls),
      OSSL_PARAM_int(OSSL_CAPABILITY_TLS_SIGALG_MAX_TLS, &max_tls),
      OSSL_PARAM_int(OSSL_CAPABILITY_TLS_SIGALG_MIN_DTLS, &no_dtls),
      OSSL_PARAM_int(OSSL_CAPABILITY_TLS_SIGALG_MAX_DTLS, &no_dtls),
      OSSL_PARAM_END};
  return cb(params, arg);
}

static int provider_get_capabilities(void *provctx, const char *capability, OSSL_CALLBACK *cb,
                                     void *arg) {
  (void)provctx;
  if (strcasecmp(capability, "TLS-SIGALG") == 0) {
    for (int i = 0; i < MLDSA_PROV_NALGS; ++i)
      if (!sigalg_capability(MLDSA_PROV_ALG(i), cb, arg)) return 0;
    return 1;
  }
  /* No key-exchange groups here, but libssl refuses a provider that fails this query. */
  if (strcasecmp(capability, "TLS-GROUP") == 0) return 1;
  return 0;
}

/* ---- algorithms, errors, lifetime ---------------------------------------------------- */

static const OSSL_ALGORITHM *provider_query(void *provctx, int operation_id, int *no_cache) {
  (void)provctx;
  *no_cache = 0;
  switch (operation_id) {
  case OSSL_OP_KEYMGMT: return mldsa_prov_keymgmt;
  case OSSL_OP_SIGNATURE: return mldsa_prov_signature;
  case OSSL_OP_ENCODER: return mldsa_prov_encoder;
  case OSSL_OP_DECODER: return mldsa_prov_decoder;
  default: return NULL;
  }
}

/* Reasons: the provider's own, then one per libmldsa code (mldsa_strerror's text). */
static ERR_STRING_DATA reason_strings[] = {
    {ERR_PACK(0, 0, MLDSA_PROV_R_NO_KEY), "no key, or the key lacks the part needed"},
    {ERR_PACK(0, 0, MLDSA_PROV_R_WRONG_KEY_TYPE), "key of another parameter set"},
    {ERR_PACK(0, 0, MLDSA_PROV_R_BAD_PARAMETER), "invalid parameter"},
    {ERR_PACK(0, 0, MLDSA_PROV_R_NOT_SUPPORTED), "not supported"},
    {ERR_PACK(0, 0, MLDSA_PROV_R_BUFFER_TOO_SMALL), "output buffer too small"},
    {ERR_PACK(0, 0, MLDSA_PROV_R_OUT_OF_MEMORY), "out of memory"},
    {ERR_PACK(0, 0, MLDSA_PROV_R_BAD_STATE), "operation not initialised for this call"},
    {ERR_PACK(0, 0, MLDSA_PROV_R_IO), "input or output failed"},
    {ERR_PACK(0, 0, MLDSA_PROV_R_ENCRYPTION), "private key encryption failed"},
    {ERR_PACK(0, 0, MLDSA_PROV_R_NO_FORMAT), "no enabled private key format"},
    {ERR_PACK(0, 0, MLDSA_PROV_R_SEED_MISMATCH), "private key does not match its seed"},
    /* libmldsa codes -1 .. -10, filled in at init */
    {0, NULL}, {0, NULL}, {0, NULL}, {0, NULL}, {0, NULL},
    {0, NULL}, {0, NULL}, {0, NULL}, {0, NULL}, {0, NULL},
    {0, NULL}};
#define MLDSA_PROV_OWN_REASONS 11

static const OSSL_ITEM *provider_reason_strings(void *provctx) {
  (void)provctx;
  return (const OSSL_ITEM *)reason_strings;
}

/* The counters, appended as one line to the file the configuration names
   (mldsa.counters_file), so that a script driving the openssl command can see which
   provider did the work. */
static void write_counters(const char *path) {
  FILE *f = fopen(path, "a");
  if (f == NULL) return;
  for (int i = 0; i < MLDSA_PROV_NCOUNTS; ++i)
    fprintf(f, "%s=%llu ", count_names[i], __atomic_load_n(&counts[i], __ATOMIC_RELAXED));
  fprintf(f, "isa=%s\n", mldsa_isa());
  fclose(f);
}

static void provider_teardown(void *vctx) {
  mldsa_prov_ctx *ctx = vctx;
  if (ctx->counters_file != NULL) write_counters(ctx->counters_file);
  free(ctx->counters_file);
  OSSL_LIB_CTX_free(ctx->libctx);
  free(ctx);
}

static const OSSL_DISPATCH provider_functions[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))provider_teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))provider_gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))provider_get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))provider_query},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))provider_reason_strings},
    {OSSL_FUNC_PROVIDER_GET_CAPABILITIES, (void (*)(void))provider_get_capabilities},
    {0, NULL}};

/* A boolean as OpenSSL 3.5 reads its provider options: 1, yes, true, on or 0, no, false,
   off (the words without case); anything else, or nothing, is the default. */
static int config_bool(const char *value, int dflt) {
  static const char *const yes[] = {"1", "yes", "true", "on"}, *const no[] = {"0", "no", "false", "off"};
  if (value == NULL) return dflt;
  for (size_t i = 0; i < sizeof yes / sizeof yes[0]; ++i) {
    if (strcasecmp(value, yes[i]) == 0) return 1;
    if (strcasecmp(value, no[i]) == 0) return 0;
  }
  return dflt;
}

/* The configuration of this provider's section in openssl.cnf, read once: OpenSSL 3.5's
   ml-dsa.retain_seed, ml-dsa.prefer_seed, ml-dsa.input_formats and ml-dsa.output_formats
   (3.5 reads the same names from its own provider's section, through the same core call);
   whether keys are prepared; where the counters go at the end. A list that names no form
   is not an error here: as in 3.5, each key read or written then fails with the reason. */
static int read_config(const OSSL_CORE_HANDLE *handle, mldsa_prov_ctx *ctx) {
  char *retain = NULL, *prefer = NULL, *input = NULL, *output = NULL, *prepare = NULL,
       *counters_file = NULL;
  OSSL_PARAM params[] = {
      OSSL_PARAM_utf8_ptr(OSSL_PKEY_PARAM_ML_DSA_RETAIN_SEED, &retain, 0),
      OSSL_PARAM_utf8_ptr(OSSL_PKEY_PARAM_ML_DSA_PREFER_SEED, &prefer, 0),
      OSSL_PARAM_utf8_ptr(OSSL_PKEY_PARAM_ML_DSA_INPUT_FORMATS, &input, 0),
      OSSL_PARAM_utf8_ptr(OSSL_PKEY_PARAM_ML_DSA_OUTPUT_FORMATS, &output, 0),
      OSSL_PARAM_utf8_ptr("mldsa.prepare_keys", &prepare, 0),
      OSSL_PARAM_utf8_ptr("mldsa.counters_file", &counters_file, 0), OSSL_PARAM_END};
  if (core_get_params != NULL && !core_get_params(handle, params)) return 0;
  if (counters_file != NULL && (ctx->counters_file = strdup(counters_file)) == NULL) return 0;
  ctx->retain_seed = config_bool(retain, 1);
  ctx->prefer_seed = config_bool(prefer, 1);
  mldsa_prov_forms_parse(input, &ctx->input_forms);
  mldsa_prov_forms_parse(output, &ctx->output_forms);
  ctx->prepare = prepare == NULL || strcmp(prepare, "no") != 0;
  return 1;
}

/* Objects OpenSSL 3.0-3.4 do not know: the OIDs and the signature algorithms (the same
   OID names the key type and the signature, with no digest). Where they exist (3.5) the
   core leaves them as they are. */
static int register_objects(const OSSL_CORE_HANDLE *handle) {
  if (core_obj_create == NULL || core_obj_add_sigid == NULL) return 1;
  for (int i = 0; i < MLDSA_PROV_NALGS; ++i) {
    const mldsa_prov_alg *a = MLDSA_PROV_ALG(i);
    if (!core_obj_create(handle, a->oid, a->sn, a->name) ||
        !core_obj_add_sigid(handle, a->name, "", a->name))
      return 0;
  }
  return 1;
}

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx)
    __attribute__((visibility("default")));

/* The module is initialised once per library context that activates it, maybe from two
   threads at once: the core's functions (the same for every instance) and the reason
   strings are set under a lock. */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

static int take_core_functions(const OSSL_DISPATCH *in) {
  static int taken;
  pthread_mutex_lock(&init_lock);
  /* the first instance's: later ones (the same functions) write nothing that others read */
  for (const OSSL_DISPATCH *f = in; !taken && f->function_id != 0; ++f) {
    switch (f->function_id) {
    case OSSL_FUNC_CORE_GET_PARAMS: core_get_params = OSSL_FUNC_core_get_params(f); break;
    case OSSL_FUNC_CORE_NEW_ERROR: core_new_error = OSSL_FUNC_core_new_error(f); break;
    case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
      core_set_error_debug = OSSL_FUNC_core_set_error_debug(f);
      break;
    case OSSL_FUNC_CORE_VSET_ERROR: core_vset_error = OSSL_FUNC_core_vset_error(f); break;
    case OSSL_FUNC_CORE_OBJ_CREATE: core_obj_create = OSSL_FUNC_core_obj_create(f); break;
    case OSSL_FUNC_CORE_OBJ_ADD_SIGID:
      core_obj_add_sigid = OSSL_FUNC_core_obj_add_sigid(f);
      break;
    case OSSL_FUNC_BIO_READ_EX: core_bio_read_ex = OSSL_FUNC_BIO_read_ex(f); break;
    case OSSL_FUNC_BIO_WRITE_EX: core_bio_write_ex = OSSL_FUNC_BIO_write_ex(f); break;
    default: break;
    }
  }
  for (int code = -1; !taken && code >= -10; --code) {
    ERR_STRING_DATA *r = &reason_strings[MLDSA_PROV_OWN_REASONS - 1 - code];
    r->error = ERR_PACK(0, 0, MLDSA_PROV_R_LIB_BASE - code);
    r->string = mldsa_strerror(code);
  }
  taken = core_bio_read_ex != NULL && core_bio_write_ex != NULL;
  int ok = taken;
  pthread_mutex_unlock(&init_lock);
  return ok;
}

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx) {
  if (!take_core_functions(in)) return 0;
  mldsa_prov_ctx *ctx = calloc(1, sizeof *ctx);
  if (ctx == NULL) return 0;
  ctx->handle = handle;
  /* The library context of this provider's own calls into libcrypto (the ciphers of
     encrypted private keys): a child that sees the application's providers. */
  ctx->libctx = OSSL_LIB_CTX_new_child(handle, in);
  if (ctx->libctx == NULL || !read_config(handle, ctx) || !register_objects(handle)) {
    provider_teardown(ctx);
    return 0;
  }
  *provctx = ctx;
  *out = provider_functions;
  return 1;
}
