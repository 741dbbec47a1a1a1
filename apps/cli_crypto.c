/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The libcrypto side of the command-line tool (cli_crypto.h): digests for HashML-DSA and
 * fingerprints, and PBES2 for encrypted PKCS#8 keys, all by OpenSSL's own functions. */
#include "cli_crypto.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  const char *name;     /* --prehash NAME */
  mldsa_hash h;
  const char *evp;      /* libcrypto's name */
  size_t len;           /* the digest length HashML-DSA signs */
} prehash_name;

static const prehash_name prehashes[] = {
    {"sha224", MLDSA_SHA2_224, "SHA2-224", 28},         {"sha256", MLDSA_SHA2_256, "SHA2-256", 32},
    {"sha384", MLDSA_SHA2_384, "SHA2-384", 48},         {"sha512", MLDSA_SHA2_512, "SHA2-512", 64},
    {"sha512-224", MLDSA_SHA2_512_224, "SHA2-512/224", 28},
    {"sha512-256", MLDSA_SHA2_512_256, "SHA2-512/256", 32},
    {"sha3-224", MLDSA_SHA3_224, "SHA3-224", 28},       {"sha3-256", MLDSA_SHA3_256, "SHA3-256", 32},
    {"sha3-384", MLDSA_SHA3_384, "SHA3-384", 48},       {"sha3-512", MLDSA_SHA3_512, "SHA3-512", 64},
    {"shake128", MLDSA_SHAKE128, "SHAKE-128", 32},      {"shake256", MLDSA_SHAKE256, "SHAKE-256", 64},
};
#define N_PREHASHES (sizeof prehashes / sizeof prehashes[0])

int cli_prehash_by_name(const char *name, mldsa_hash *h) {
  for (size_t i = 0; i < N_PREHASHES; ++i)
    if (strcmp(name, prehashes[i].name) == 0) {
      *h = prehashes[i].h;
      return CLI_OK;
    }
  return cli_error(
      "--prehash: unknown hash \"%s\", expected sha224, sha256, sha384, sha512, sha512-224, "
      "sha512-256, sha3-224, sha3-256, sha3-384, sha3-512, shake128 or shake256",
      name);
}

static const prehash_name *prehash_of(mldsa_hash h) {
  for (size_t i = 0; i < N_PREHASHES; ++i)
    if (prehashes[i].h == h) return &prehashes[i];
  return NULL;
}

int cli_is_encrypted_pkcs8(const uint8_t *d, size_t n) {
  /* SEQUENCE { SEQUENCE { OBJECT IDENTIFIER ... : short or long lengths */
  size_t pos = 0;
  for (int level = 0; level < 2; ++level) {
    if (pos + 2 > n || d[pos] != 0x30) return 0;
    size_t len_bytes = d[pos + 1] & 0x80 ? 1 + (d[pos + 1] & 0x7F) : 1;
    pos += 1 + len_bytes;
  }
  return pos < n && d[pos] == 0x06;
}

#if defined(MLDSA_CLI_LIBCRYPTO)
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pkcs12.h> /* PKCS8_encrypt_ex, PKCS8_decrypt */
#include <openssl/x509.h>

const char *cli_crypto_version(void) { return OpenSSL_version(OPENSSL_VERSION); }

static int absorb(void *ctx, const uint8_t *p, size_t n) {
  return EVP_DigestUpdate(ctx, p, n) == 1 ? CLI_OK : cli_error("digest: libcrypto failed");
}

int cli_digest_file(mldsa_hash h, const char *path, const char *what, uint8_t out[64],
                    size_t *len) {
  const prehash_name *ph = prehash_of(h);
  if (ph == NULL) return cli_error("--prehash: unknown hash");
  EVP_MD *md = EVP_MD_fetch(NULL, ph->evp, NULL);
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  int ret = CLI_OK;
  if (md == NULL || ctx == NULL || EVP_DigestInit_ex(ctx, md, NULL) != 1)
    ret = cli_error("--prehash %s: libcrypto (%s) has no %s", ph->name, cli_crypto_version(),
                    ph->evp);
  if (ret == CLI_OK) ret = cli_read_chunks(path, what, absorb, ctx);
  if (ret == CLI_OK) {
    unsigned int n = 0;
    int ok = EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF ? EVP_DigestFinalXOF(ctx, out, ph->len)
                                                    : EVP_DigestFinal_ex(ctx, out, &n);
    if (ok != 1) ret = cli_error("--prehash %s: libcrypto failed", ph->name);
    *len = ph->len;
  }
  EVP_MD_CTX_free(ctx);
  EVP_MD_free(md);
  return ret;
}

int cli_sha256(const uint8_t *p, size_t n, uint8_t out[32]) {
  unsigned int len = 0;
  if (EVP_Digest(p, n, out, &len, EVP_sha256(), NULL) != 1 || len != 32)
    return cli_error("SHA-256: libcrypto failed");
  return CLI_OK;
}

/* i2d of a PKCS#8 structure into a buffer of ours (wiped when freed). */
static int pkcs8_to_buf(PKCS8_PRIV_KEY_INFO *p8, cli_buf *out) {
  int n = i2d_PKCS8_PRIV_KEY_INFO(p8, NULL);
  if (n <= 0) return CLI_ERROR;
  out->p = cli_secret_alloc((size_t)n);
  if (out->p == NULL) return CLI_ERROR;
  out->cap = (size_t)n;
  unsigned char *w = out->p;
  if (i2d_PKCS8_PRIV_KEY_INFO(p8, &w) != n) {
    cli_buf_free(out);
    return CLI_ERROR;
  }
  out->len = (size_t)n;
  return CLI_OK;
}

int cli_pkcs8_decrypt(const uint8_t *der, size_t n, const char *pass, size_t pass_len,
                      cli_buf *out, char why[CLI_WHY_BYTES]) {
  memset(out, 0, sizeof *out);
  const unsigned char *r = der;
  X509_SIG *enc = d2i_X509_SIG(NULL, &r, (long)n);
  int ret = CLI_ERROR;
  if (enc == NULL || r != der + n) {
    snprintf(why, CLI_WHY_BYTES, "encrypted private key that is truncated or malformed");
  } else {
    PKCS8_PRIV_KEY_INFO *p8 = PKCS8_decrypt(enc, pass, (int)pass_len);
    if (p8 == NULL)
      snprintf(why, CLI_WHY_BYTES, "wrong passphrase, or a corrupted encrypted private key");
    else if (pkcs8_to_buf(p8, out) != CLI_OK)
      snprintf(why, CLI_WHY_BYTES, "the decrypted private key cannot be encoded");
    else
      ret = CLI_OK;
    PKCS8_PRIV_KEY_INFO_free(p8); /* its key bytes are cleansed by OpenSSL on free */
  }
  X509_SIG_free(enc);
  ERR_clear_error();
  return ret;
}

int cli_pkcs8_encrypt(const uint8_t *der, size_t n, const char *pass, size_t pass_len,
                      cli_buf *out) {
  memset(out, 0, sizeof *out);
  const unsigned char *r = der;
  PKCS8_PRIV_KEY_INFO *p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &r, (long)n);
  X509_SIG *enc = NULL;
  int ret = CLI_ERROR;
  if (p8 != NULL)
    enc = PKCS8_encrypt_ex(-1, EVP_aes_256_cbc(), pass, (int)pass_len, NULL, 16,
                           CLI_PBKDF2_ITERATIONS, p8, NULL, NULL);
  int len = enc ? i2d_X509_SIG(enc, NULL) : -1;
  if (len > 0 && (out->p = cli_secret_alloc((size_t)len)) != NULL) {
    unsigned char *w = out->p;
    out->cap = (size_t)len;
    if (i2d_X509_SIG(enc, &w) == len) {
      out->len = (size_t)len;
      ret = CLI_OK;
    } else {
      cli_buf_free(out);
    }
  }
  X509_SIG_free(enc);
  PKCS8_PRIV_KEY_INFO_free(p8);
  ERR_clear_error();
  if (ret != CLI_OK) cli_error("encrypting the private key (PBES2, libcrypto) failed");
  return ret;
}

#else /* no libcrypto */

#define NO_LIBCRYPTO "this mldsa was built without OpenSSL's libcrypto"

const char *cli_crypto_version(void) { return NULL; }

int cli_digest_file(mldsa_hash h, const char *path, const char *what, uint8_t out[64],
                    size_t *len) {
  (void)path, (void)what, (void)out, (void)len;
  const prehash_name *ph = prehash_of(h);
  return cli_error("--prehash %s: " NO_LIBCRYPTO ", which computes the digest",
                   ph ? ph->name : "?");
}

int cli_sha256(const uint8_t *p, size_t n, uint8_t out[32]) {
  (void)p, (void)n, (void)out;
  return cli_error("SHA-256: " NO_LIBCRYPTO);
}

int cli_pkcs8_decrypt(const uint8_t *der, size_t n, const char *pass, size_t pass_len,
                      cli_buf *out, char why[CLI_WHY_BYTES]) {
  (void)der, (void)n, (void)pass, (void)pass_len;
  memset(out, 0, sizeof *out);
  snprintf(why, CLI_WHY_BYTES, "an encrypted private key, and " NO_LIBCRYPTO " (PBES2)");
  return CLI_ERROR;
}

int cli_pkcs8_encrypt(const uint8_t *der, size_t n, const char *pass, size_t pass_len,
                      cli_buf *out) {
  (void)der, (void)n, (void)pass, (void)pass_len;
  memset(out, 0, sizeof *out);
  return cli_error("--passout: " NO_LIBCRYPTO ", which encrypts keys (PBES2)");
}
#endif
