/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The command-line tool's shared pieces: errors and exit codes, buffers that hold secrets,
 * file input and output without stdio, strict hex, key files, and message input.
 *
 * Secret hygiene: every buffer that may hold key material (a key file's bytes, a decoded
 * key, an encoded key being written, a seed) comes from cli_secret_alloc and goes back
 * through cli_secret_free, which wipes it with mldsa_zeroize (never elided) before free.
 * Such buffers are allocated once at their final size (no realloc, which would free an
 * unwiped copy) and are read and written with read(2)/write(2) (no stdio buffer holds a
 * copy). Secrets on the stack are wiped before the function returns. */
#ifndef MLDSA_CLI_H
#define MLDSA_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "mldsa.h"
#include "util.h" /* mldsa_zeroize: the library's wipe, which the compiler cannot elide */

/* Exit status: the signature does not verify (1), anything else that went wrong (2). */
#define CLI_OK 0
#define CLI_BAD_SIGNATURE 1
#define CLI_ERROR 2

/* Prints "mldsa: <message>" and a newline on stderr; returns CLI_ERROR. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- buffers (cli_io.c) ---- */

typedef struct {
  uint8_t *p;
  size_t len, cap;
} cli_buf;

/* cap bytes, zeroed; NULL (with a message) when memory is short. */
uint8_t *cli_secret_alloc(size_t cap);
/* Wipes cap bytes at p, then frees it; NULL is fine. */
void cli_secret_free(uint8_t *p, size_t cap);
void cli_buf_free(cli_buf *b); /* cli_secret_free of its cap; then empty */

/* ---- files (cli_io.c); the path "-" is stdin or stdout ---- */

/* Reads the whole file (at most max bytes, else an error naming it) into a buffer
 * allocated once (max + 1 bytes) from cli_secret_alloc. what names the input in errors
 * (e.g. "--key"). CLI_OK or CLI_ERROR (message printed). */
int cli_read_all(const char *path, size_t max, const char *what, cli_buf *out);

/* Reads the file in chunks of at most 64 KiB, calling consume on each; constant memory.
 * CLI_OK, CLI_ERROR (message printed), or what consume returned if not CLI_OK. */
int cli_read_chunks(const char *path, const char *what,
                    int (*consume)(void *ctx, const uint8_t *p, size_t n), void *ctx);

/* The same two without a message: on a failure of their own they return CLI_ERROR with the
 * reason in why ("cannot open: No such file or directory"; the path is not repeated).
 * When consume fails, why is empty and consume reports its own error. */
#define CLI_WHY_BYTES 256
int cli_read_all_quiet(const char *path, size_t max, cli_buf *out, char why[CLI_WHY_BYTES]);
int cli_read_chunks_quiet(const char *path, int (*consume)(void *ctx, const uint8_t *p, size_t n),
                          void *ctx, char why[CLI_WHY_BYTES]);

/* Writes n bytes to path. secret: the file is created with mode 0600 and an existing file
 * is never replaced unless force (then it is removed first and created anew, 0600). A
 * public output is created 0644 (before umask) or truncated. CLI_OK or CLI_ERROR. */
int cli_write_file(const char *path, const char *what, const uint8_t *p, size_t n, int secret,
                   int force);

/* Strict hex: an even number of [0-9a-fA-F] and nothing else, at most cap bytes decoded.
 * Returns the byte count, or -1 with a message naming what and the offending position. */
long cli_parse_hex(const char *hex, size_t hex_len, uint8_t *out, size_t cap, const char *what);

/* ---- keys (cli_keys.c) ---- */

typedef enum { CLI_FORMAT_PEM, CLI_FORMAT_DER, CLI_FORMAT_RAW } cli_format;

/* A secret key as loaded: the set, the expanded key (checked), the seed when known. */
typedef struct {
  mldsa_param p;
  uint8_t *sk; /* cli_secret_alloc, mldsa_secret_key_bytes(p) bytes */
  size_t sk_len;
  uint8_t seed[32];
  int has_seed;
} cli_secret_key;

/* Loads a secret key file: PEM or DER (PKCS#8, RFC 9881: any form) or raw (an expanded key,
 * detected by its length; or a 32-byte seed, which needs the set from want). want is
 * the set of --param, or 0. The key is checked before it is returned: the decoder's checks,
 * or the import check for a raw expanded key. CLI_OK or CLI_ERROR (message printed). */
int cli_load_secret_key(const char *path, const char *what, mldsa_param want, cli_secret_key *k);
void cli_secret_key_free(cli_secret_key *k);

/* Loads a public key: PEM or DER SubjectPublicKeyInfo, or raw by its length; a private key
 * file is accepted too (its public key is derived). pk must hold 2592 bytes. */
int cli_load_public_key(const char *path, const char *what, mldsa_param want, mldsa_param *p,
                        uint8_t *pk, size_t *pk_len);

/* Writes a secret key in the given format and form (raw: the seed or the expanded key). */
int cli_save_secret_key(const char *path, const char *what, const cli_secret_key *k, cli_format f,
                        mldsa_sk_form form, int force);
int cli_save_public_key(const char *path, const char *what, mldsa_param p, const uint8_t *pk,
                        size_t pk_len, cli_format f);

/* ---- messages (cli_message.c) ---- */

/* Sign or verify the contents of the file msg_path, streamed in chunks through the mu
 * interface (constant memory whatever the message size). */
int cli_sign_file(const cli_secret_key *k, const char *msg_path, const uint8_t *ctx, size_t ctx_len,
                  const uint8_t *rnd, uint8_t *sig, size_t sig_len);
/* CLI_OK, CLI_BAD_SIGNATURE or CLI_ERROR. */
int cli_verify_file(mldsa_param p, const uint8_t *pk, size_t pk_len, const char *msg_path,
                    const uint8_t *ctx, size_t ctx_len, const uint8_t *sig, size_t sig_len);
/* The same under a prepared public key, for one pair of a batch; prints nothing: CLI_OK,
 * CLI_BAD_SIGNATURE, or CLI_ERROR with the reason in why. pk is the key pp was made from
 * (mu needs tr = H(pk)). */
int cli_verify_file_prepared(const mldsa_prepared_public_key *pp, mldsa_param p, const uint8_t *pk,
                             size_t pk_len, const char *msg_path, const uint8_t *ctx,
                             size_t ctx_len, const uint8_t *sig, size_t sig_len,
                             char why[CLI_WHY_BYTES]);

/* ---- batches (cli_batch.c) ---- */

/* mldsa verify --batch: every pair of the list file under one prepared public key, one
 * result line per pair on standard output. CLI_OK when all verify, CLI_BAD_SIGNATURE when
 * all were checked and at least one does not verify, CLI_ERROR otherwise. */
int cli_verify_batch(mldsa_param p, const uint8_t *pk, size_t pk_len, const char *list_path,
                     const uint8_t *ctx, size_t ctx_len);

#endif
