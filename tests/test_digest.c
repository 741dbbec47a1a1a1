/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* test_digest.h: OpenSSL's EVP, or with MLDSA_TEST_DIGEST_GCRYPT libgcrypt. */
#include "test_digest.h"

#include <string.h>

#if defined(MLDSA_TEST_DIGEST_GCRYPT)
#include <gcrypt.h>
#else
#include <openssl/evp.h>
#endif

static const struct {
  const char *name;
  int xof;
  size_t len; /* fixed-length digests */
#if defined(MLDSA_TEST_DIGEST_GCRYPT)
  int algo;
#define ALGO(a) , a
#else
#define ALGO(a)
#endif
} digests[] = {
    {"SHA224", 0, 28 ALGO(GCRY_MD_SHA224)},       {"SHA256", 0, 32 ALGO(GCRY_MD_SHA256)},
    {"SHA384", 0, 48 ALGO(GCRY_MD_SHA384)},       {"SHA512", 0, 64 ALGO(GCRY_MD_SHA512)},
    {"SHA512-224", 0, 28 ALGO(GCRY_MD_SHA512_224)}, {"SHA512-256", 0, 32 ALGO(GCRY_MD_SHA512_256)},
    {"SHA3-224", 0, 28 ALGO(GCRY_MD_SHA3_224)},   {"SHA3-256", 0, 32 ALGO(GCRY_MD_SHA3_256)},
    {"SHA3-384", 0, 48 ALGO(GCRY_MD_SHA3_384)},   {"SHA3-512", 0, 64 ALGO(GCRY_MD_SHA3_512)},
    {"SHAKE128", 1, 0 ALGO(GCRY_MD_SHAKE128)},    {"SHAKE256", 1, 0 ALGO(GCRY_MD_SHAKE256)},
};
#define NUM_DIGESTS (sizeof digests / sizeof digests[0])

static int find(const char *name) {
  for (size_t i = 0; i < NUM_DIGESTS; ++i)
    if (strcmp(name, digests[i].name) == 0) return (int)i;
  return -1;
}

int mldsa_test_digest_info(const char *name, int *xof, size_t *len) {
  int i = find(name);
  if (i < 0) return 0;
  *xof = digests[i].xof;
  *len = digests[i].len;
  return 1;
}

#if defined(MLDSA_TEST_DIGEST_GCRYPT)
const char mldsa_test_digest_backend[] = "libgcrypt";

int mldsa_test_digest(const char *name, uint8_t *out, size_t outlen, size_t n,
                      const uint8_t *const in[], const size_t in_len[]) {
  static int ready; /* the tests that use this run it from one thread */
  int i = find(name);
  if (i < 0 || (!digests[i].xof && outlen != digests[i].len)) return 0;
  if (!ready) {
    if (gcry_check_version(GCRYPT_VERSION) == NULL) return 0;
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    ready = 1;
  }
  gcry_md_hd_t h;
  if (gcry_md_open(&h, digests[i].algo, 0) != 0) return 0;
  for (size_t k = 0; k < n; ++k)
    if (in_len[k]) gcry_md_write(h, in[k], in_len[k]);
  int ok = 1;
  if (digests[i].xof) {
    ok = outlen == 0 || gcry_md_extract(h, digests[i].algo, out, outlen) == 0;
  } else {
    const unsigned char *d = gcry_md_read(h, digests[i].algo);
    ok = d != NULL;
    if (ok) memcpy(out, d, outlen);
  }
  gcry_md_close(h);
  return ok;
}
#else
const char mldsa_test_digest_backend[] = "OpenSSL";

int mldsa_test_digest(const char *name, uint8_t *out, size_t outlen, size_t n,
                      const uint8_t *const in[], const size_t in_len[]) {
  int i = find(name);
  if (i < 0 || (!digests[i].xof && outlen != digests[i].len)) return 0;
  const EVP_MD *md = EVP_get_digestbyname(name);
  EVP_MD_CTX *ctx = md ? EVP_MD_CTX_new() : NULL;
  if (ctx == NULL) return 0;
  int ok = EVP_DigestInit_ex(ctx, md, NULL);
  for (size_t k = 0; ok && k < n; ++k) ok = EVP_DigestUpdate(ctx, in[k], in_len[k]);
  if (ok && digests[i].xof) {
    ok = outlen == 0 || EVP_DigestFinalXOF(ctx, out, outlen);
  } else if (ok) {
    unsigned got = 0;
    ok = EVP_DigestFinal_ex(ctx, out, &got) && got == outlen;
  }
  EVP_MD_CTX_free(ctx);
  return ok;
}
#endif
