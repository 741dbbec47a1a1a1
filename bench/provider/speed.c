/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Operations per second of ML-DSA keygen, sign and verify through OpenSSL's EVP interface,
 * with OpenSSL's default provider and with this project's provider, beside libmldsa's own
 * API (one-shot and prepared keys) in the same process: rounds of each, interleaved, and
 * the median round reported. Keys are generated on one EVP_PKEY_CTX reused (as openssl
 * speed and a key-generating loop do); each signature and verification has an EVP_MD_CTX
 * of its own, initialised with the key (as X.509 and TLS do). The provider's counters are read back, so that a figure
 * under its name is its work.
 *
 *   provider_speed PROVIDER_DIR [SECONDS_PER_ROUND] [ROUNDS]
 *
 * Built against OpenSSL 3.0's headers; run with the libcrypto of the OpenSSL to compare
 * with (OpenSSL 3.5's default provider has ML-DSA; 3.0's has none, and its rows are
 * then left out). MLDSA_ISA caps the ISA of both libmldsa and the provider. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "mldsa.h"

#define MAX_ROUNDS 15
#define MSG_BYTES 64

typedef enum { OP_KEYGEN, OP_SIGN, OP_VERIFY, NOPS } op;
static const char *const op_names[NOPS] = {"keygen", "sign", "verify"};

/* what is measured: OpenSSL with a provider, or libmldsa directly */
typedef enum { WAY_DEFAULT, WAY_PROVIDER, WAY_LIB, WAY_LIB_PREPARED, NWAYS } way;
static const char *const way_names[NWAYS] = {"default provider", "mldsa provider",
                                             "libmldsa API", "libmldsa prepared"};

typedef struct {
  const char *name;
  mldsa_param param;
  EVP_PKEY *key[2];          /* default, mldsa */
  EVP_PKEY_CTX *keygen[2];   /* a key-generation context of each, made once and reused */
  uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES], sk[MLDSA_MAX_SECRET_KEY_BYTES];
  uint8_t sig[MLDSA_MAX_SIGNATURE_BYTES];
  size_t pk_len, sk_len, sig_len;
  MLDSA_ALIGN64 mldsa_prepared_public_key pp;
  MLDSA_ALIGN64 mldsa_prepared_secret_key ps;
} set_state;

static const uint8_t msg[MSG_BYTES] = "provider_speed: a 64-byte message, the same for every call.";

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void die(const char *what) {
  fprintf(stderr, "provider_speed: %s failed\n", what);
  ERR_print_errors_fp(stderr);
  exit(1);
}

static const char *propq(way w) { return w == WAY_DEFAULT ? "provider=default" : "provider=mldsa"; }

static EVP_PKEY *evp_keygen(const char *alg, way w) {
  EVP_PKEY *key = NULL;
  EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, alg, propq(w));
  if (ctx == NULL || EVP_PKEY_keygen_init(ctx) != 1 || EVP_PKEY_generate(ctx, &key) != 1)
    die("EVP keygen");
  EVP_PKEY_CTX_free(ctx);
  return key;
}

static void evp_sign(set_state *s, way w) {
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  size_t len = sizeof s->sig;
  if (ctx == NULL ||
      EVP_DigestSignInit_ex(ctx, NULL, NULL, NULL, propq(w), s->key[w], NULL) != 1 ||
      EVP_DigestSign(ctx, s->sig, &len, msg, sizeof msg) != 1)
    die("EVP sign");
  s->sig_len = len;
  EVP_MD_CTX_free(ctx);
}

static void evp_verify(set_state *s, way w) {
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  if (ctx == NULL ||
      EVP_DigestVerifyInit_ex(ctx, NULL, NULL, NULL, propq(w), s->key[w], NULL) != 1 ||
      EVP_DigestVerify(ctx, s->sig, s->sig_len, msg, sizeof msg) != 1)
    die("EVP verify");
  EVP_MD_CTX_free(ctx);
}

/* One call of op the way w; the signature verified is the one last made the same way. */
static void once(set_state *s, way w, op o) {
  switch (w) {
  case WAY_DEFAULT:
  case WAY_PROVIDER:
    if (o == OP_KEYGEN) {
      EVP_PKEY *key = NULL;
      if (EVP_PKEY_generate(s->keygen[w], &key) != 1) die("EVP keygen");
      EVP_PKEY_free(key);
    }
    else if (o == OP_SIGN) evp_sign(s, w);
    else evp_verify(s, w);
    return;
  case WAY_LIB:
    if (o == OP_KEYGEN) {
      uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES], sk[MLDSA_MAX_SECRET_KEY_BYTES];
      if (mldsa_keygen(s->param, pk, s->pk_len, sk, s->sk_len) != MLDSA_OK) die("mldsa_keygen");
      OPENSSL_cleanse(sk, sizeof sk);
    } else if (o == OP_SIGN) {
      if (mldsa_sign(s->param, s->sig, s->sig_len, msg, sizeof msg, NULL, 0, NULL, s->sk,
                     s->sk_len) != MLDSA_OK)
        die("mldsa_sign");
    } else if (mldsa_verify(s->param, s->sig, s->sig_len, msg, sizeof msg, NULL, 0, s->pk,
                            s->pk_len) != MLDSA_OK) {
      die("mldsa_verify");
    }
    return;
  default:
    if (o == OP_SIGN) {
      if (mldsa_sign_prepared(&s->ps, s->sig, s->sig_len, msg, sizeof msg, NULL, 0, NULL) != MLDSA_OK)
        die("mldsa_sign_prepared");
    } else if (o == OP_VERIFY &&
               mldsa_verify_prepared(&s->pp, s->sig, s->sig_len, msg, sizeof msg, NULL, 0) != MLDSA_OK) {
      die("mldsa_verify_prepared");
    }
    return;
  }
}

/* Operations per second of one round: as many calls as fit in `seconds`. */
static double round_rate(set_state *s, way w, op o, double seconds) {
  if (o == OP_VERIFY) once(s, w, OP_SIGN); /* a signature made this way */
  long n = 0;
  double start = now(), t;
  do {
    for (int i = 0; i < 4; ++i) once(s, w, o);
    n += 4;
    t = now() - start;
  } while (t < seconds);
  return (double)n / t;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static uint64_t counter(OSSL_PROVIDER *prov, const char *name) {
  uint64_t v = 0;
  OSSL_PARAM params[] = {OSSL_PARAM_uint64(name, &v), OSSL_PARAM_END};
  if (OSSL_PROVIDER_get_params(prov, params) != 1) die("reading the provider's counters");
  return v;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: provider_speed PROVIDER_DIR [SECONDS_PER_ROUND] [ROUNDS]\n");
    return 2;
  }
  const double seconds = argc > 2 ? atof(argv[2]) : 0.2;
  int rounds = argc > 3 ? atoi(argv[3]) : 5;
  if (rounds < 1 || rounds > MAX_ROUNDS) rounds = 5;
  OSSL_PROVIDER_set_default_search_path(NULL, argv[1]);
  OSSL_PROVIDER *prov = OSSL_PROVIDER_load(NULL, "mldsa");
  if (prov == NULL || OSSL_PROVIDER_load(NULL, "default") == NULL) die("loading the providers");

  /* the default provider takes part where it has ML-DSA (OpenSSL 3.5 and later) */
  EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(NULL, "ML-DSA-65", "provider=default");
  const int with_default = km != NULL;
  EVP_KEYMGMT_free(km);
  ERR_clear_error();

  printf("# %s; libmldsa %s on %s; %d rounds of %.2f s, interleaved; median operations/s\n",
         OpenSSL_version(OPENSSL_VERSION), MLDSA_VERSION_STRING, mldsa_isa(), rounds, seconds);
  printf("%-10s %-7s %18s %18s %14s %14s %9s %9s\n", "set", "op", way_names[0], way_names[1],
         way_names[2], way_names[3], "prov/def", "prov/lib");
  static set_state sets[3];
  const char *const names[3] = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"};
  const mldsa_param params[3] = {MLDSA_44, MLDSA_65, MLDSA_87};
  const uint64_t before[3] = {counter(prov, "mldsa-keygens"), counter(prov, "mldsa-signs"),
                              counter(prov, "mldsa-verifies")};
  uint64_t expected[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    set_state *s = &sets[i];
    s->name = names[i];
    s->param = params[i];
    s->pk_len = mldsa_public_key_bytes(s->param);
    s->sk_len = mldsa_secret_key_bytes(s->param);
    s->sig_len = mldsa_signature_bytes(s->param);
    if (mldsa_keygen(s->param, s->pk, s->pk_len, s->sk, s->sk_len) != MLDSA_OK ||
        mldsa_public_key_prepare(&s->pp, s->param, s->pk, s->pk_len) != MLDSA_OK ||
        mldsa_secret_key_prepare(&s->ps, s->param, s->sk, s->sk_len) != MLDSA_OK)
      die("libmldsa keys");
    for (way w = WAY_DEFAULT; w <= WAY_PROVIDER; ++w) {
      if (w == WAY_DEFAULT && !with_default) continue;
      s->key[w] = evp_keygen(s->name, w);
      expected[OP_KEYGEN] += w == WAY_PROVIDER;
      s->keygen[w] = EVP_PKEY_CTX_new_from_name(NULL, s->name, propq(w));
      if (s->keygen[w] == NULL || EVP_PKEY_keygen_init(s->keygen[w]) != 1) die("EVP keygen init");
    }
    for (op o = 0; o < NOPS; ++o) {
      double rate[NWAYS][MAX_ROUNDS], median[NWAYS] = {0};
      for (int r = 0; r < rounds; ++r)
        for (way w = 0; w < NWAYS; ++w) {
          if ((w == WAY_DEFAULT && !with_default) || (w == WAY_LIB_PREPARED && o == OP_KEYGEN))
            continue;
          const uint64_t k0 = counter(prov, "mldsa-keygens"), s0 = counter(prov, "mldsa-signs"),
                         v0 = counter(prov, "mldsa-verifies");
          rate[w][r] = round_rate(s, w, o, seconds);
          if (w == WAY_PROVIDER) { /* what the provider counted is what was measured */
            expected[OP_KEYGEN] += counter(prov, "mldsa-keygens") - k0;
            expected[OP_SIGN] += counter(prov, "mldsa-signs") - s0;
            expected[OP_VERIFY] += counter(prov, "mldsa-verifies") - v0;
          } else if (counter(prov, "mldsa-keygens") != k0 || counter(prov, "mldsa-signs") != s0 ||
                     counter(prov, "mldsa-verifies") != v0) {
            fprintf(stderr, "provider_speed: the mldsa provider did work meant for %s\n", way_names[w]);
            return 1;
          }
        }
      for (way w = 0; w < NWAYS; ++w) {
        if ((w == WAY_DEFAULT && !with_default) || (w == WAY_LIB_PREPARED && o == OP_KEYGEN)) continue;
        qsort(rate[w], (size_t)rounds, sizeof rate[w][0], cmp_double);
        median[w] = rate[w][rounds / 2];
      }
      char def[32] = "-", prep[32] = "-", vs_def[16] = "-";
      if (with_default) {
        snprintf(def, sizeof def, "%.0f", median[WAY_DEFAULT]);
        snprintf(vs_def, sizeof vs_def, "%.1fx", median[WAY_PROVIDER] / median[WAY_DEFAULT]);
      }
      if (o != OP_KEYGEN) snprintf(prep, sizeof prep, "%.0f", median[WAY_LIB_PREPARED]);
      printf("%-10s %-7s %18s %18.0f %14.0f %14s %9s %8.2fx\n", s->name, op_names[o], def,
             median[WAY_PROVIDER], median[WAY_LIB], prep, vs_def,
             median[WAY_PROVIDER] / median[WAY_LIB]);
      fflush(stdout);
    }
  }
  const uint64_t counted[3] = {counter(prov, "mldsa-keygens") - before[0],
                               counter(prov, "mldsa-signs") - before[1],
                               counter(prov, "mldsa-verifies") - before[2]};
  printf("# the mldsa provider counted %llu keygens, %llu signatures, %llu verifications: %s\n",
         (unsigned long long)counted[0], (unsigned long long)counted[1],
         (unsigned long long)counted[2],
         counted[0] == expected[0] && counted[1] == expected[1] && counted[2] == expected[2]
             ? "all of its rows"
             : "MISMATCH");
  return 0;
}
