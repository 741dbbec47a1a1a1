/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What a provider does when the context string changes after a message was given to a
 * signing operation (OpenSSL 3.4+'s message calls):
 *
 *   context_after_data oneshot|stream KEY.pem
 *
 * oneshot: init (first context), sign the message, set the second context, sign again;
 * stream: init (first context), update with half of the message, set the second context,
 * update with the rest, final. Run under an OPENSSL_CONF that selects the provider, it
 * prints one line: whether setting the context was accepted, whether the (last) signature
 * was made, and under which context it verifies ("first", "second", "neither"), so that a
 * script can compare two providers. Built against OpenSSL 3.0's headers: the 3.4 calls
 * are looked up at run time, and their absence is reported (exit 2), never taken for a
 * result; an operation the provider does not offer is printed as such. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

typedef int message_init_fn(EVP_PKEY_CTX *, EVP_SIGNATURE *, const OSSL_PARAM *);
typedef int message_update_fn(EVP_PKEY_CTX *, const unsigned char *, size_t);
typedef int message_final_fn(EVP_PKEY_CTX *, unsigned char *, size_t *);

static const unsigned char first[] = "first context", second[] = "second context";
static const unsigned char part1[] = "the first half of the message, ",
                           part2[] = "and the second half";

static int verifies(EVP_PKEY *key, const unsigned char *ctx_str, size_t ctx_len,
                    const unsigned char *sig, size_t sig_len) {
  unsigned char msg[sizeof part1 + sizeof part2];
  size_t n1 = sizeof part1 - 1, n2 = sizeof part2 - 1;
  memcpy(msg, part1, n1);
  memcpy(msg + n1, part2, n2);
  OSSL_PARAM params[] = {OSSL_PARAM_octet_string("context-string", (void *)ctx_str, ctx_len),
                         OSSL_PARAM_END};
  EVP_MD_CTX *md = EVP_MD_CTX_new();
  int ok = md != NULL && EVP_DigestVerifyInit_ex(md, NULL, NULL, NULL, NULL, key, params) == 1 &&
           EVP_DigestVerify(md, sig, sig_len, msg, n1 + n2) == 1;
  EVP_MD_CTX_free(md);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "oneshot") != 0 && strcmp(argv[1], "stream") != 0)) {
    fprintf(stderr, "usage: %s oneshot|stream KEY.pem\n", argv[0]);
    return 2;
  }
  const int stream = strcmp(argv[1], "stream") == 0;
  message_init_fn *init = (message_init_fn *)dlsym(RTLD_DEFAULT, "EVP_PKEY_sign_message_init");
  message_update_fn *update =
      (message_update_fn *)dlsym(RTLD_DEFAULT, "EVP_PKEY_sign_message_update");
  message_final_fn *final = (message_final_fn *)dlsym(RTLD_DEFAULT, "EVP_PKEY_sign_message_final");
  if (init == NULL || update == NULL || final == NULL) {
    fprintf(stderr, "context_after_data: this libcrypto has no message-signing calls\n");
    return 2;
  }
  FILE *f = fopen(argv[2], "r");
  EVP_PKEY *key = f != NULL ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
  if (f != NULL) fclose(f);
  if (key == NULL) {
    fprintf(stderr, "context_after_data: cannot read %s\n", argv[2]);
    return 2;
  }
  EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
  EVP_SIGNATURE *alg = EVP_SIGNATURE_fetch(NULL, EVP_PKEY_get0_type_name(key), NULL);
  OSSL_PARAM params1[] = {OSSL_PARAM_octet_string("context-string", (void *)first, sizeof first - 1),
                          OSSL_PARAM_END};
  OSSL_PARAM params2[] = {OSSL_PARAM_octet_string("context-string", (void *)second, sizeof second - 1),
                          OSSL_PARAM_END};
  unsigned char msg[sizeof part1 + sizeof part2], sig[8192];
  const size_t n1 = sizeof part1 - 1, n2 = sizeof part2 - 1;
  memcpy(msg, part1, n1);
  memcpy(msg + n1, part2, n2);
  size_t sig_len = sizeof sig;
  if (pctx == NULL || alg == NULL || init(pctx, alg, params1) != 1) {
    fprintf(stderr, "context_after_data: the signature could not start\n");
    ERR_print_errors_fp(stderr);
    return 2;
  }
  int fed = stream ? update(pctx, part1, n1) == 1 : EVP_PKEY_sign(pctx, sig, &sig_len, msg, n1 + n2) == 1;
  if (!fed) {
    printf("%s: the provider does not take the message this way\n", argv[1]);
    ERR_clear_error();
    return 0;
  }
  int set = EVP_PKEY_CTX_set_params(pctx, params2) == 1;
  sig_len = sizeof sig;
  int made = stream ? update(pctx, part2, n2) == 1 && final(pctx, sig, &sig_len) == 1
                    : EVP_PKEY_sign(pctx, sig, &sig_len, msg, n1 + n2) == 1;
  const char *under = !made ? "-"
                      : verifies(key, first, sizeof first - 1, sig, sig_len)   ? "first"
                      : verifies(key, second, sizeof second - 1, sig, sig_len) ? "second"
                                                                               : "neither";
  printf("%s: set-after-data=%s signed=%s verifies-under=%s\n", argv[1],
         set ? "accepted" : "refused", made ? "yes" : "no", under);
  ERR_clear_error();
  EVP_SIGNATURE_free(alg);
  EVP_PKEY_CTX_free(pctx);
  EVP_PKEY_free(key);
  return 0;
}
