/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The command-line tool's shared pieces: errors and exit codes, buffers that hold secrets,
 * file input and output without stdio, strict hex, key files, and message input.
 *
 * Secret hygiene: every buffer that may hold key material (a key file's bytes, a decoded
 * key, an encoded key being written, a seed) comes from cli_secret_alloc and goes back
 * through cli_secret_free, which wipes it with mldsa_wipe (never elided) before free.
 * Such buffers are allocated once at their final size (no realloc, which would free an
 * unwiped copy) and are read and written with read(2)/write(2) (no stdio buffer holds a
 * copy). Secrets on the stack are wiped before the function returns. */
#ifndef MLDSA_CLI_H
#define MLDSA_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "mldsa.h"

/* Exit status: the signature does not verify (1), anything else that went wrong (2). */
#define CLI_OK 0
#define CLI_BAD_SIGNATURE 1
#define CLI_ERROR 2

/* The printf format the C runtime's vsnprintf understands: MinGW's headers name theirs
 * (gnu_printf with __USE_MINGW_ANSI_STDIO, CMakeLists.txt), elsewhere printf. */
#if defined(__MINGW_PRINTF_FORMAT)
#define CLI_PRINTF_FORMAT __MINGW_PRINTF_FORMAT
#else
#define CLI_PRINTF_FORMAT printf
#endif

/* Prints "mldsa: <message>" and a newline on stderr; returns CLI_ERROR. */
int cli_error(const char *fmt, ...) __attribute__((format(CLI_PRINTF_FORMAT, 1, 2)));
/* Prints "mldsa: warning: <message>" unless --quiet was given. */
void cli_warn(const char *fmt, ...) __attribute__((format(CLI_PRINTF_FORMAT, 1, 2)));

/* Settings of the whole run, from the command line: --quiet (warnings and verify's
 * "signature OK" line are not printed), and --passin (where the passphrase of an encrypted
 * private key comes from; NULL: the terminal). */
extern int cli_quiet;
extern const char *cli_passin;

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

/* One output of a command: n bytes for path ("-": standard output). what names it in
 * errors ("--out"). secret: a private key (see cli_write_outputs); force: --force. */
typedef struct {
  const char *path, *what;
  const uint8_t *p;
  size_t n;
  int secret, force;
} cli_output;

/* Writes the outputs all or nothing. Every file output (a new path, or an existing regular
 * file) is first written to a temporary file in its target directory (mkostemp, O_EXCL),
 * fsync'd, and renamed into place only when every output is complete; on any failure the
 * temporary files are unlinked, a file this call already renamed into place is removed
 * again, and nothing partial remains. A symbolic link is resolved and its final target is
 * the file checked and replaced (a temporary file in the target's directory; the link
 * stays); on Windows a link is refused. Standard output and an existing device or FIFO
 * (public outputs only) are written through, after the files are complete and before the
 * renames.
 * Replacing: no output replaces an existing file without force; none replaces a file that
 * holds a private key (cli_holds_private_key, or one that cannot be read to tell) unless
 * it is itself a secret and force is given; a secret replaces regular files only.
 * Modes: a new file gets 0600 (secret) or 0644 (public) less the umask; a replaced file's
 * mode is kept, without execute bits, and at most 0600 for a secret.
 * A secret output is never written to a terminal, and written to a regular-file standard
 * output whose mode lets group or others read it only with a warning naming the mode. The
 * caller wipes the buffers. CLI_OK or CLI_ERROR. */
int cli_write_outputs(const cli_output *outs, size_t count);
/* cli_write_outputs of one output. */
int cli_write_file(const char *path, const char *what, const uint8_t *p, size_t n, int secret,
                   int force);

/* A file a command names (path NULL: not given), for cli_distinct_files. */
typedef struct {
  const char *path, *what;
} cli_file;

/* Refuses (CLI_ERROR, naming both) an output that is the same file as an input or as
 * another output: the same device and inode for existing regular files (standard input
 * and output, "-", by what they are open on), the same name in the same directory for
 * files not yet there. Devices, FIFOs and terminals are never "the same file". */
int cli_distinct_files(const cli_file *inputs, size_t n_in, const cli_file *outputs, size_t n_out);

/* Strict hex: an even number of [0-9a-fA-F] and nothing else, at most cap bytes decoded.
 * Returns the byte count, or -1 with a message naming what and the offending position. */
long cli_parse_hex(const char *hex, size_t hex_len, uint8_t *out, size_t cap, const char *what);

/* ---- keys (cli_keys.c) ---- */

typedef enum { CLI_FORMAT_PEM, CLI_FORMAT_DER, CLI_FORMAT_RAW } cli_format;

/* A secret key as loaded: the set, the expanded key (checked), the seed when known, and
 * what the file held (for info and convert). */
typedef struct {
  mldsa_param p;
  uint8_t *sk; /* cli_secret_alloc, mldsa_secret_key_bytes(p) bytes */
  size_t sk_len;
  uint8_t seed[32];
  int has_seed;
  mldsa_sk_form form; /* what the file held: the seed, the expanded key, or both */
  cli_format format;  /* how: PEM, DER or raw */
  int encrypted;      /* an EncryptedPrivateKeyInfo (PBES2) around it */
} cli_secret_key;

/* Loads a secret key file: PEM or DER (PKCS#8, RFC 9881: any form; or encrypted PKCS#8,
 * "ENCRYPTED PRIVATE KEY", decrypted with the passphrase of --passin) or raw (an expanded key,
 * detected by its length; or a 32-byte seed, which needs the set from want). want is
 * the set of --param, or 0. The key is checked before it is returned: the decoder's checks,
 * or the import check for a raw expanded key. CLI_OK or CLI_ERROR (message printed). */
int cli_load_secret_key(const char *path, const char *what, mldsa_param want, cli_secret_key *k);
void cli_secret_key_free(cli_secret_key *k);

/* 1 when the n bytes at p may be a private key of any kind, so that no public output
 * replaces them: a PEM block whose label ends in "PRIVATE KEY" (PKCS#8, encrypted PKCS#8,
 * RSA, EC, OpenSSH), DER that is one SEQUENCE starting with an INTEGER (PKCS#8, PKCS#1,
 * SEC 1) or with a password-based encryption AlgorithmIdentifier (EncryptedPrivateKeyInfo),
 * or what this tool reads as a raw key: 32 bytes or 64 hex digits (a seed) or a raw
 * expanded key of any set's length. */
int cli_holds_private_key(const uint8_t *p, size_t n);

/* Loads a public key: PEM or DER SubjectPublicKeyInfo, or raw by its length; a private key
 * file is accepted too (its public key is derived). pk must hold 2592 bytes. */
int cli_load_public_key(const char *path, const char *what, mldsa_param want, mldsa_param *p,
                        uint8_t *pk, size_t *pk_len);

/* Encodes a secret key in the given format and form (raw: the seed or the expanded key)
 * into out, a buffer from cli_secret_alloc that the caller frees with cli_buf_free. */
int cli_encode_secret_key(const cli_secret_key *k, cli_format f, mldsa_sk_form form, cli_buf *out);
/* The same, encrypted under pass (PBES2, cli_pkcs8_encrypt) when pass is not NULL: an
 * EncryptedPrivateKeyInfo, as PEM "ENCRYPTED PRIVATE KEY" or DER (raw is an error). */
int cli_encode_secret_key_as(const cli_secret_key *k, cli_format f, mldsa_sk_form form,
                             const char *pass, size_t pass_len, cli_buf *out);
/* Encodes a public key (raw: the key itself) into out; *n its length. */
#define CLI_PUBLIC_KEY_FILE_MAX 4096
int cli_encode_public_key(mldsa_param p, const uint8_t *pk, size_t pk_len, cli_format f,
                          uint8_t out[CLI_PUBLIC_KEY_FILE_MAX], size_t *n);
/* Encodes and writes a public key (cli_write_file). */
int cli_save_public_key(const char *path, const char *what, mldsa_param p, const uint8_t *pk,
                        size_t pk_len, cli_format f, int force);

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
