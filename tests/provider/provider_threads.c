/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Eight threads signing and verifying with one shared EVP_PKEY (a duplicate of the generated
 * one) through the provider (its keys are prepared lazily by whichever thread comes first),
 * with OpenSSL's own libcrypto:
 * every signature must verify, a corrupted one must not, and the provider's counters
 * (gettable parameters) must account for every call. Run under ThreadSanitizer by
 * ci/tsan; an ordinary ctest otherwise.
 *
 *   provider_threads PROVIDER_DIR [ITERATIONS] */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#define THREADS 8

static EVP_PKEY *shared_key;
static int iterations = 8;

static int sign_and_verify(int thread, int i) {
  uint8_t msg[64], sig[4627];
  size_t sig_len = sizeof sig;
  for (size_t k = 0; k < sizeof msg; ++k) msg[k] = (uint8_t)(thread * 31 + i * 7 + k);
  EVP_MD_CTX *sctx = EVP_MD_CTX_new(), *vctx = EVP_MD_CTX_new();
  int ok = sctx != NULL && vctx != NULL &&
           EVP_DigestSignInit_ex(sctx, NULL, NULL, NULL, "provider=mldsa", shared_key, NULL) == 1 &&
           EVP_DigestSign(sctx, sig, &sig_len, msg, sizeof msg) == 1 &&
           EVP_DigestVerifyInit_ex(vctx, NULL, NULL, NULL, "provider=mldsa", shared_key, NULL) == 1 &&
           EVP_DigestVerify(vctx, sig, sig_len, msg, sizeof msg) == 1;
  if (ok) { /* the same signature on another message must fail */
    msg[0] ^= 1;
    EVP_MD_CTX_reset(vctx);
    ok = EVP_DigestVerifyInit_ex(vctx, NULL, NULL, NULL, "provider=mldsa", shared_key, NULL) == 1 &&
         EVP_DigestVerify(vctx, sig, sig_len, msg, sizeof msg) == 0;
    ERR_clear_error();
  }
  EVP_MD_CTX_free(sctx);
  EVP_MD_CTX_free(vctx);
  return ok;
}

static void *run(void *arg) {
  int thread = (int)(intptr_t)arg;
  for (int i = 0; i < iterations; ++i)
    if (!sign_and_verify(thread, i)) return (void *)1;
  return NULL;
}

static uint64_t counter(OSSL_PROVIDER *prov, const char *name) {
  uint64_t v = 0;
  OSSL_PARAM params[] = {OSSL_PARAM_uint64(name, &v), OSSL_PARAM_END};
  return OSSL_PROVIDER_get_params(prov, params) == 1 ? v : UINT64_MAX;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: provider_threads PROVIDER_DIR [ITERATIONS]\n");
    return 2;
  }
  if (argc > 2) iterations = atoi(argv[2]);
  OSSL_PROVIDER_set_default_search_path(NULL, argv[1]);
  OSSL_PROVIDER *prov = OSSL_PROVIDER_load(NULL, "mldsa");
  OSSL_PROVIDER *dflt = OSSL_PROVIDER_load(NULL, "default");
  EVP_PKEY_CTX *gen = EVP_PKEY_CTX_new_from_name(NULL, "ML-DSA-65", "provider=mldsa");
  if (prov == NULL || dflt == NULL || gen == NULL || EVP_PKEY_keygen_init(gen) != 1 ||
      EVP_PKEY_generate(gen, &shared_key) != 1) {
    ERR_print_errors_fp(stderr);
    fprintf(stderr, "provider_threads: no ML-DSA-65 key from the provider\n");
    return 1;
  }
  EVP_PKEY_CTX_free(gen);
  /* the threads share a duplicate (keymgmt dup), which must be the same key */
  EVP_PKEY *generated = shared_key;
  shared_key = EVP_PKEY_dup(generated);
  if (shared_key == NULL || EVP_PKEY_eq(generated, shared_key) != 1) {
    ERR_print_errors_fp(stderr);
    fprintf(stderr, "provider_threads: EVP_PKEY_dup gave no key, or another one\n");
    return 1;
  }
  EVP_PKEY_free(generated);
  const uint64_t signs = counter(prov, "mldsa-signs"), verifies = counter(prov, "mldsa-verifies");

  pthread_t t[THREADS];
  int failed = 0;
  for (int i = 0; i < THREADS; ++i)
    if (pthread_create(&t[i], NULL, run, (void *)(intptr_t)i) != 0) return 1;
  for (int i = 0; i < THREADS; ++i) {
    void *res = NULL;
    pthread_join(t[i], &res);
    failed |= res != NULL;
  }
  const uint64_t n = (uint64_t)THREADS * (uint64_t)iterations;
  const uint64_t signed_here = counter(prov, "mldsa-signs") - signs,
                 verified_here = counter(prov, "mldsa-verifies") - verifies;
  EVP_PKEY_free(shared_key);
  OSSL_PROVIDER_unload(dflt);
  OSSL_PROVIDER_unload(prov);
  if (failed || signed_here != n || verified_here != 2 * n) {
    fprintf(stderr, "provider_threads: %s; the provider counted %llu signatures and %llu "
            "verifications, expected %llu and %llu\n", failed ? "a thread failed" : "all threads passed",
            (unsigned long long)signed_here, (unsigned long long)verified_here,
            (unsigned long long)n, (unsigned long long)(2 * n));
    return 1;
  }
  printf("provider_threads: %d threads x %d sign+verify with one shared EVP_PKEY (%s): all right, "
         "%llu signatures and %llu verifications counted by the provider\n",
         THREADS, iterations, OpenSSL_version(OPENSSL_VERSION), (unsigned long long)signed_here,
         (unsigned long long)verified_here);
  return 0;
}
