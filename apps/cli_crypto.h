/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What the command-line tool takes from OpenSSL's libcrypto, when it was there at build
 * time (MLDSA_CLI_LIBCRYPTO): the message digests of HashML-DSA (--prehash), the SHA-256
 * fingerprint of `mldsa info`, and the PBES2 layer of encrypted PKCS#8 keys (PBKDF2 with
 * HMAC-SHA-256, AES-256-CBC). libmldsa itself has none of these; nothing here is a
 * cipher or hash of this project's own. Without libcrypto every call fails with a message
 * that says so. And passphrases: from a file descriptor, a file, or the terminal with its
 * echo off (cli_pass.c). */
#ifndef MLDSA_CLI_CRYPTO_H
#define MLDSA_CLI_CRYPTO_H

#include "cli.h"

/* "OpenSSL 3.0.x ..." (the libcrypto in use), or NULL when built without it. */
const char *cli_crypto_version(void);

/* The HashML-DSA hash of a --prehash name (sha224, sha256, sha384, sha512, sha512-224,
 * sha512-256, sha3-224, sha3-256, sha3-384, sha3-512, shake128, shake256): CLI_OK, or
 * CLI_ERROR naming the option and listing the names. */
int cli_prehash_by_name(const char *name, mldsa_hash *h);

/* The digest of the file at path under h (streamed; shake128: 32 bytes, shake256: 64),
 * into out[64], its length in *len. CLI_OK or CLI_ERROR (message printed). */
int cli_digest_file(mldsa_hash h, const char *path, const char *what, uint8_t out[64],
                    size_t *len);

/* SHA-256 of n bytes. CLI_OK or CLI_ERROR (message printed). */
int cli_sha256(const uint8_t *p, size_t n, uint8_t out[32]);

/* 1 when the DER at d is an EncryptedPrivateKeyInfo (a SEQUENCE whose first element is a
 * SEQUENCE starting with an OID). */
int cli_is_encrypted_pkcs8(const uint8_t *d, size_t n);

/* Decrypts an EncryptedPrivateKeyInfo (DER) into the PKCS#8 DER it holds (out: from
 * cli_secret_alloc). CLI_OK, or CLI_ERROR with the reason in why ("wrong passphrase or
 * corrupted key", "truncated or malformed"). */
int cli_pkcs8_decrypt(const uint8_t *der, size_t n, const char *pass, size_t pass_len,
                      cli_buf *out, char why[CLI_WHY_BYTES]);

/* Encrypts PKCS#8 DER as an EncryptedPrivateKeyInfo: PBES2, PBKDF2-HMAC-SHA-256 with a
 * 16-byte random salt and CLI_PBKDF2_ITERATIONS, AES-256-CBC with a random IV. out: from
 * cli_secret_alloc. CLI_OK or CLI_ERROR (message printed). */
#define CLI_PBKDF2_ITERATIONS 600000
int cli_pkcs8_encrypt(const uint8_t *der, size_t n, const char *pass, size_t pass_len,
                      cli_buf *out);

/* ---- passphrases (cli_pass.c) ---- */

#define CLI_PASS_MAX 1024
/* Reads a passphrase from src: "fd:N" (the first line read from descriptor N), "file:PATH"
 * (the first line of the file), or "tty" (typed at the terminal, /dev/tty, echo off; asked
 * twice when confirm). The line ending (LF or CR LF) is not part of it. what names the
 * option in errors. pass holds CLI_PASS_MAX bytes; the caller wipes it. An empty passphrase
 * is an error when confirm (one is being set). CLI_OK or CLI_ERROR (message printed). */
int cli_read_passphrase(const char *src, const char *what, const char *prompt, int confirm,
                        char pass[CLI_PASS_MAX], size_t *len);

#endif
