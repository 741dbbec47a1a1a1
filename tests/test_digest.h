/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The tests' own message digests, an oracle independent of the library's Keccak: OpenSSL's
 * libcrypto (EVP) on POSIX, libgcrypt on Windows (MinGW-w64: Debian ships no MinGW
 * OpenSSL, but libgcrypt-mingw-w64-dev). Test code only (test_acvp, test_fips202).
 *
 * Names are OpenSSL's: SHA224, SHA256, SHA384, SHA512, SHA512-224, SHA512-256, SHA3-224,
 * SHA3-256, SHA3-384, SHA3-512, SHAKE128, SHAKE256. */
#ifndef MLDSA_TEST_DIGEST_H
#define MLDSA_TEST_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/* "OpenSSL" or "libgcrypt": the backend, for messages. */
extern const char mldsa_test_digest_backend[];

/* 1 when name is a known digest, with *xof = 1 for SHAKE (any output length) and 0 for a
 * fixed-length digest of *len bytes; 0 when the backend does not know it. */
int mldsa_test_digest_info(const char *name, int *xof, size_t *len);

/* out = the digest of in[0] || in[1] || ... || in[n-1] (in[i] may be NULL when
 * in_len[i] is 0): outlen bytes of an XOF, or of a fixed-length digest (outlen must be its
 * length). 1 on success, 0 on any failure (unknown name, wrong length, backend error). */
int mldsa_test_digest(const char *name, uint8_t *out, size_t outlen, size_t n,
                      const uint8_t *const in[], const size_t in_len[]);

#endif
