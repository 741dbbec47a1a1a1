/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Key management: ML-DSA keys as OpenSSL 3.5 exchanges them ("pub", "priv", "seed"), so
 * that keys move between OpenSSL's default provider and this one in both directions; key
 * generation, random or from a given seed; the key's parameters; and the prepared forms
 * that signing and verifying many messages with one key are worth. */
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "prov.h"

mldsa_prov_key *mldsa_prov_key_new(mldsa_prov_ctx *provctx, const mldsa_prov_alg *alg) {
  mldsa_prov_key *key = calloc(1, sizeof *key);
  if (key == NULL) {
    mldsa_prov_raise(provctx, MLDSA_PROV_R_OUT_OF_MEMORY, "a new %s key", alg->name);
    return NULL;
  }
  key->alg = alg;
  key->provctx = provctx;
  return key;
}

static void drop_prepared(mldsa_prov_key *key) {
  key->pub_uses = key->sec_uses = 0;
  free(key->prepared_pub);
  key->prepared_pub = NULL;
  if (key->prepared_sec != NULL) {
    mldsa_secret_key_unprepare(key->prepared_sec);
    free(key->prepared_sec);
    key->prepared_sec = NULL;
  }
}

/* Forgets the secret parts (wiped). */
static void drop_secret(mldsa_prov_key *key) {
  if (key->sk != NULL) {
    mldsa_wipe(key->sk, key->alg->sk_bytes);
    free(key->sk);
    key->sk = NULL;
  }
  mldsa_wipe(key->seed, sizeof key->seed);
  key->has_priv = key->has_seed = 0;
}

void mldsa_prov_key_free(mldsa_prov_key *key) {
  if (key == NULL) return;
  drop_prepared(key);
  drop_secret(key);
  free(key);
}

/* Takes a checked key pair, the secret key in a heap buffer of sk_bytes that it keeps (and
   the seed, or NULL), in place of what the key held. */
static void key_install(mldsa_prov_key *key, uint8_t *sk, const uint8_t *pk,
                        const uint8_t *seed) {
  drop_prepared(key);
  drop_secret(key);
  key->sk = sk;
  key->has_priv = 1;
  memcpy(key->pk, pk, key->alg->pk_bytes);
  key->has_pub = 1;
  /* ml-dsa.retain_seed = no: the seed is used and forgotten, as OpenSSL 3.5 does */
  if (seed != NULL && key->provctx->retain_seed) {
    memcpy(key->seed, seed, MLDSA_SEED_BYTES);
    key->has_seed = 1;
  }
}

static uint8_t *secret_buffer(const mldsa_prov_key *key) {
  uint8_t *sk = malloc(key->alg->sk_bytes);
  if (sk == NULL)
    mldsa_prov_raise(key->provctx, MLDSA_PROV_R_OUT_OF_MEMORY, "a %s secret key", key->alg->name);
  return sk;
}

int mldsa_prov_key_set_secret(mldsa_prov_key *key, const uint8_t *sk, const uint8_t *seed) {
  const mldsa_prov_alg *a = key->alg;
  uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES];
  int rc = mldsa_public_key_from_secret(a->param, pk, a->pk_bytes, sk, a->sk_bytes);
  if (rc != MLDSA_OK) return mldsa_prov_lib_error(key->provctx, rc, "the secret key");
  uint8_t *copy = secret_buffer(key);
  if (copy == NULL) return 0;
  memcpy(copy, sk, a->sk_bytes);
  key_install(key, copy, pk, seed);
  return 1;
}

/* The key pair of a seed (FIPS 204 ML-DSA.KeyGen_internal), generated into the key's own
   buffer: made here, so not checked again. */
int mldsa_prov_key_set_seed(mldsa_prov_key *key, const uint8_t seed[MLDSA_SEED_BYTES]) {
  const mldsa_prov_alg *a = key->alg;
  uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES];
  uint8_t *sk = secret_buffer(key);
  if (sk == NULL) return 0;
  int rc = mldsa_keygen_from_seed(a->param, pk, a->pk_bytes, sk, a->sk_bytes, seed);
  if (rc != MLDSA_OK) {
    mldsa_wipe(sk, a->sk_bytes);
    free(sk);
    return mldsa_prov_lib_error(key->provctx, rc, "key generation");
  }
  key_install(key, sk, pk, seed);
  return 1;
}

/* A seed and the expanded key written beside it, as OpenSSL 3.5 takes them: with
   ml-dsa.prefer_seed = yes (the default) the key is the seed's, and an expanded key that
   is not the seed's is refused; with = no the key is the expanded key (checked on its
   own), and the seed, not checked, is dropped, so that it can never be written out beside
   a key that is not its own. */
int mldsa_prov_key_set_both(mldsa_prov_key *key, const uint8_t seed[MLDSA_SEED_BYTES],
                            const uint8_t *sk) {
  const mldsa_prov_alg *a = key->alg;
  if (!key->provctx->prefer_seed) return mldsa_prov_key_set_secret(key, sk, NULL);
  if (!mldsa_prov_key_set_seed(key, seed)) return 0;
  if (CRYPTO_memcmp(sk, key->sk, a->sk_bytes) == 0) return 1;
  drop_prepared(key);
  drop_secret(key);
  key->has_pub = 0;
  mldsa_prov_raise(key->provctx, MLDSA_PROV_R_SEED_MISMATCH,
                   "explicit %s private key does not match seed", a->name);
  return 0;
}

const mldsa_prepared_public_key *mldsa_prov_key_prepared_pub(mldsa_prov_key *key) {
  mldsa_prepared_public_key *pp = __atomic_load_n(&key->prepared_pub, __ATOMIC_ACQUIRE);
  if (pp != NULL || !key->provctx->prepare || !key->has_pub) return pp;
  /* the first verification does without: a key verified once (a TLS peer's) gains nothing */
  if (__atomic_fetch_add(&key->pub_uses, 1, __ATOMIC_RELAXED) == 0) return NULL;
  pp = aligned_alloc(64, sizeof *pp);
  if (pp == NULL) return NULL; /* the caller falls back to the unprepared call */
  if (mldsa_public_key_prepare(pp, key->alg->param, key->pk, key->alg->pk_bytes) != MLDSA_OK) {
    free(pp);
    return NULL;
  }
  mldsa_prepared_public_key *seen = NULL;
  if (!__atomic_compare_exchange_n(&key->prepared_pub, &seen, pp, 0, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE)) {
    free(pp); /* another thread published its copy first */
    return seen;
  }
  return pp;
}

const mldsa_prepared_secret_key *mldsa_prov_key_prepared_sec(mldsa_prov_key *key) {
  mldsa_prepared_secret_key *ps = __atomic_load_n(&key->prepared_sec, __ATOMIC_ACQUIRE);
  if (ps != NULL || !key->provctx->prepare || !key->has_priv) return ps;
  if (__atomic_fetch_add(&key->sec_uses, 1, __ATOMIC_RELAXED) == 0) return NULL;
  ps = aligned_alloc(64, sizeof *ps);
  if (ps == NULL) return NULL;
  if (mldsa_secret_key_prepare(ps, key->alg->param, key->sk, key->alg->sk_bytes) != MLDSA_OK) {
    free(ps);
    return NULL;
  }
  mldsa_prepared_secret_key *seen = NULL;
  if (!__atomic_compare_exchange_n(&key->prepared_sec, &seen, ps, 0, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE)) {
    mldsa_secret_key_unprepare(ps);
    free(ps);
    return seen;
  }
  return ps;
}

/* ---- new, free, dup, has, match, validate, load ------------------------------------------ */

static void keymgmt_free(void *key) { mldsa_prov_key_free(key); }

static void *keymgmt_dup(const void *vsrc, int selection) {
  const mldsa_prov_key *src = vsrc;
  mldsa_prov_key *key = mldsa_prov_key_new(src->provctx, src->alg);
  if (key == NULL) return NULL;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && src->has_priv) {
    /* the source's key pair was checked when it was set: copied, not checked again */
    uint8_t *sk = secret_buffer(key);
    if (sk == NULL) {
      mldsa_prov_key_free(key);
      return NULL;
    }
    memcpy(sk, src->sk, src->alg->sk_bytes);
    key_install(key, sk, src->pk, src->has_seed ? src->seed : NULL);
  } else if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && src->has_pub) {
    memcpy(key->pk, src->pk, src->alg->pk_bytes);
    key->has_pub = 1;
  }
  return key;
}

static int keymgmt_has(const void *vkey, int selection) {
  const mldsa_prov_key *key = vkey;
  if (key == NULL) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && !key->has_pub) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && !key->has_priv) return 0;
  return 1;
}

/* Keys match when their public keys do (a secret key always carries its public key). */
static int keymgmt_match(const void *va, const void *vb, int selection) {
  const mldsa_prov_key *a = va, *b = vb;
  if (a->alg != b->alg) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return 1;
  if (!a->has_pub || !b->has_pub) return 0;
  return memcmp(a->pk, b->pk, a->alg->pk_bytes) == 0;
}

/* A secret key was checked when it was set (its public key is derived from it and its tr
   and t0 checked); validation checks again, for keys that came in by load. */
static int keymgmt_validate(const void *vkey, int selection, int checktype) {
  const mldsa_prov_key *key = vkey;
  (void)checktype;
  if (!keymgmt_has(key, selection)) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) {
    uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES];
    int rc = mldsa_public_key_from_secret(key->alg->param, pk, key->alg->pk_bytes, key->sk,
                                          key->alg->sk_bytes);
    if (rc != MLDSA_OK) return mldsa_prov_lib_error(key->provctx, rc, "validating the secret key");
    if (memcmp(pk, key->pk, key->alg->pk_bytes) != 0) {
      mldsa_prov_raise(key->provctx, MLDSA_PROV_R_NO_KEY, "the public key is not the secret key's");
      return 0;
    }
  }
  return 1;
}

/* A decoder hands over the key it made (a pointer to it, by reference). */
static void *keymgmt_load(const void *reference, size_t reference_sz) {
  if (reference == NULL || reference_sz != sizeof(mldsa_prov_key *)) return NULL;
  mldsa_prov_key *key = *(mldsa_prov_key **)reference;
  *(mldsa_prov_key **)reference = NULL;
  return key;
}

/* ---- import and export (the same parameters as OpenSSL 3.5) -------------------------- */

static const OSSL_PARAM key_types[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ML_DSA_SEED, NULL, 0), OSSL_PARAM_END};

static const OSSL_PARAM *keymgmt_key_types(int selection) {
  (void)selection;
  return key_types;
}

/* An octet-string parameter of exactly len bytes: 1 found, 0 absent, -1 malformed. */
static int get_octets(const mldsa_prov_ctx *pc, const OSSL_PARAM params[], const char *name,
                      size_t len, const void **value) {
  const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, name);
  size_t got = 0;
  if (p == NULL) return 0;
  if (!OSSL_PARAM_get_octet_string_ptr(p, value, &got) || got != len) {
    mldsa_prov_raise(pc, MLDSA_PROV_R_BAD_PARAMETER, "\"%s\": %zu bytes, expected %zu", name, got,
                     len);
    return -1;
  }
  return 1;
}

/* Seed, expanded key and public key, any of them: what is given must agree (a seed
   with the key pair it generates, a secret key with the public key derived from it). */
int mldsa_prov_key_import(mldsa_prov_key *key, int selection, const OSSL_PARAM params[]) {
  const mldsa_prov_alg *a = key->alg;
  const void *seed = NULL, *priv = NULL, *pub = NULL;
  int has_seed = get_octets(key->provctx, params, OSSL_PKEY_PARAM_ML_DSA_SEED, MLDSA_SEED_BYTES, &seed);
  int has_priv = get_octets(key->provctx, params, OSSL_PKEY_PARAM_PRIV_KEY, a->sk_bytes, &priv);
  int has_pub = get_octets(key->provctx, params, OSSL_PKEY_PARAM_PUB_KEY, a->pk_bytes, &pub);
  if (has_seed < 0 || has_priv < 0 || has_pub < 0) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && (has_seed || has_priv)) {
    int ok = has_seed && has_priv ? mldsa_prov_key_set_both(key, seed, priv)
             : has_seed           ? mldsa_prov_key_set_seed(key, seed)
                                  : mldsa_prov_key_set_secret(key, priv, NULL);
    if (ok && has_pub && memcmp(pub, key->pk, a->pk_bytes) != 0) {
      mldsa_prov_raise(key->provctx, MLDSA_PROV_R_BAD_PARAMETER, "the public key is not the secret key's");
      ok = 0;
    }
    if (!ok) drop_secret(key), key->has_pub = 0;
    return ok;
  }
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && has_pub) {
    drop_prepared(key);
    drop_secret(key);
    memcpy(key->pk, pub, a->pk_bytes);
    key->has_pub = 1;
    return 1;
  }
  mldsa_prov_raise(key->provctx, MLDSA_PROV_R_NO_KEY, "no %s key material to import", a->name);
  return 0;
}

int mldsa_prov_key_export(const mldsa_prov_key *key, int selection, OSSL_CALLBACK *cb,
                          void *cbarg) {
  OSSL_PARAM params[4];
  int n = 0;
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && key->has_pub)
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)key->pk,
                                                    key->alg->pk_bytes);
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && key->has_priv) {
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, key->sk,
                                                    key->alg->sk_bytes);
    if (key->has_seed)
      params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_ML_DSA_SEED, (void *)key->seed,
                                                      MLDSA_SEED_BYTES);
  }
  if (n == 0) {
    mldsa_prov_raise(key->provctx, MLDSA_PROV_R_NO_KEY, "the %s key has no part to export", key->alg->name);
    return 0;
  }
  params[n] = OSSL_PARAM_construct_end();
  return cb(params, cbarg);
}

/* ---- parameters -------------------------------------------------------------------------- */

static const OSSL_PARAM key_param_types[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_CATEGORY, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_MANDATORY_DIGEST, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ML_DSA_SEED, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *keymgmt_gettable_params(void *provctx) {
  (void)provctx;
  return key_param_types;
}

static int set_octets(OSSL_PARAM params[], const char *name, int present, const void *v,
                      size_t len) {
  OSSL_PARAM *p = OSSL_PARAM_locate(params, name);
  return p == NULL || !present || OSSL_PARAM_set_octet_string(p, v, len);
}

static int keymgmt_get_params(void *vkey, OSSL_PARAM params[]) {
  mldsa_prov_key *key = vkey;
  const mldsa_prov_alg *a = key->alg;
  OSSL_PARAM *p;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != NULL &&
      !OSSL_PARAM_set_int(p, (int)(8 * a->pk_bytes)))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != NULL &&
      !OSSL_PARAM_set_int(p, a->security_bits))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_CATEGORY)) != NULL &&
      !OSSL_PARAM_set_int(p, a->category))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != NULL &&
      !OSSL_PARAM_set_int(p, (int)a->sig_bytes))
    return 0;
  /* Pure ML-DSA signs the message itself: no digest, and none may be set (an empty
     mandatory digest is how OpenSSL 3.0 learns this). */
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MANDATORY_DIGEST)) != NULL &&
      !OSSL_PARAM_set_utf8_string(p, ""))
    return 0;
  return set_octets(params, OSSL_PKEY_PARAM_PUB_KEY, key->has_pub, key->pk, a->pk_bytes) &&
         set_octets(params, OSSL_PKEY_PARAM_PRIV_KEY, key->has_priv, key->sk, a->sk_bytes) &&
         set_octets(params, OSSL_PKEY_PARAM_ML_DSA_SEED, key->has_seed, key->seed,
                    MLDSA_SEED_BYTES);
}

/* ---- generation -------------------------------------------------------------------------- */

typedef struct {
  mldsa_prov_ctx *provctx;
  const mldsa_prov_alg *alg;
  int has_seed;
  uint8_t seed[MLDSA_SEED_BYTES];
} gen_ctx;

static const OSSL_PARAM gen_param_types[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ML_DSA_SEED, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_PROPERTIES, NULL, 0), OSSL_PARAM_END};

static const OSSL_PARAM *keymgmt_gen_settable_params(void *genctx, void *provctx) {
  (void)genctx, (void)provctx;
  return gen_param_types;
}

static int keymgmt_gen_set_params(void *vgen, const OSSL_PARAM params[]) {
  gen_ctx *gen = vgen;
  const void *seed = NULL;
  switch (get_octets(gen->provctx, params, OSSL_PKEY_PARAM_ML_DSA_SEED, MLDSA_SEED_BYTES, &seed)) {
  case 1:
    memcpy(gen->seed, seed, MLDSA_SEED_BYTES);
    gen->has_seed = 1;
    return 1;
  case 0: return 1;
  default: return 0;
  }
}

static void *gen_init(mldsa_prov_ctx *provctx, const mldsa_prov_alg *alg, int selection,
                      const OSSL_PARAM params[]) {
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return NULL;
  gen_ctx *gen = calloc(1, sizeof *gen);
  if (gen == NULL) return NULL;
  gen->provctx = provctx;
  gen->alg = alg;
  if (!keymgmt_gen_set_params(gen, params)) {
    free(gen);
    return NULL;
  }
  return gen;
}

/* A random key is generated from a fresh seed (the OS's, like every libmldsa key), and
   keeps it, so that it can be written in the seed form. */
static void *keymgmt_gen(void *vgen, OSSL_CALLBACK *cb, void *cbarg) {
  gen_ctx *gen = vgen;
  (void)cb, (void)cbarg;
  if (!gen->has_seed) {
    int rc = mldsa_generate_seed(gen->seed);
    if (rc != MLDSA_OK) return mldsa_prov_lib_error(gen->provctx, rc, "a key's seed"), NULL;
  }
  mldsa_prov_key *key = mldsa_prov_key_new(gen->provctx, gen->alg);
  if (key != NULL && !mldsa_prov_key_set_seed(key, gen->seed)) {
    mldsa_prov_key_free(key);
    key = NULL;
  }
  if (!gen->has_seed) mldsa_wipe(gen->seed, sizeof gen->seed);
  if (key != NULL) mldsa_prov_count(MLDSA_PROV_COUNT_KEYGEN);
  return key;
}

static void keymgmt_gen_cleanup(void *vgen) {
  gen_ctx *gen = vgen;
  if (gen == NULL) return;
  mldsa_wipe(gen, sizeof *gen);
  free(gen);
}

/* ---- dispatch: one table per set ------------------------------------------------------ */

#define MLDSA_PROV_KEYMGMT(i, n)                                                            \
  static void *keymgmt_new_##n(void *provctx) {                                            \
    return mldsa_prov_key_new(provctx, MLDSA_PROV_ALG(i));                                 \
  }                                                                                         \
  static void *keymgmt_gen_init_##n(void *provctx, int selection, const OSSL_PARAM p[]) {  \
    return gen_init(provctx, MLDSA_PROV_ALG(i), selection, p);                             \
  }                                                                                         \
  static const OSSL_DISPATCH keymgmt_functions_##n[] = {                                    \
      {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))keymgmt_new_##n},                            \
      {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))keymgmt_free},                              \
      {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))keymgmt_dup},                                \
      {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))keymgmt_has},                                \
      {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))keymgmt_match},                            \
      {OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))keymgmt_validate},                      \
      {OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))keymgmt_load},                              \
      {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))mldsa_prov_key_import},                          \
      {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))keymgmt_key_types},                 \
      {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))mldsa_prov_key_export},                          \
      {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))keymgmt_key_types},                 \
      {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))keymgmt_get_params},                  \
      {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))keymgmt_gettable_params},        \
      {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))keymgmt_gen_init_##n},                  \
      {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))keymgmt_gen_set_params},          \
      {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))keymgmt_gen_settable_params},\
      {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))keymgmt_gen},                                \
      {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))keymgmt_gen_cleanup},                \
      {0, NULL}};
MLDSA_PROV_FOR_EACH_SET(MLDSA_PROV_KEYMGMT)

const OSSL_ALGORITHM mldsa_prov_keymgmt[] = {
    {MLDSA_PROV_NAMES_44, "provider=mldsa", keymgmt_functions_44, "ML-DSA-44 (libmldsa)"},
    {MLDSA_PROV_NAMES_65, "provider=mldsa", keymgmt_functions_65, "ML-DSA-65 (libmldsa)"},
    {MLDSA_PROV_NAMES_87, "provider=mldsa", keymgmt_functions_87, "ML-DSA-87 (libmldsa)"},
    {NULL, NULL, NULL, NULL}};
