/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* mldsa verify --batch LIST: many (signature, message) pairs under one public key. The key
 * is prepared once (mldsa_public_key_prepare: tr, the matrix A and t1 in NTT form); every
 * message is streamed through mu (cli_message.c) and checked with
 * mldsa_verify_mu_prepared, in constant memory whatever the messages' sizes.
 *
 * The list, strictly (the same words are in --help, man/mldsa.1 and docs/cli.md):
 *   - a text file of lines ending in LF (the last one may lack it); no NUL byte;
 *   - an empty line, or a line whose first byte is '#', is skipped;
 *   - every other line is one pair: SIGNATURE-FILE, one space, MESSAGE-FILE. The signature
 *     file is everything before the first space (its name holds no space), the message
 *     file the rest of the line (its name may hold spaces but neither begins nor ends with
 *     one, which catches doubled and trailing blanks);
 *   - no control character (0x00-0x1f, 0x7f: tab, CR, ...) in a pair's line;
 *   - neither file is "-": standard input cannot serve a batch;
 *   - relative names are relative to the current directory (as --in and --sig are);
 *   - at least one pair.
 * The whole list is checked before anything is verified: a malformed line is an error
 * (exit 2) naming the list file and the line number, and no result is printed.
 *
 * Results, one line per pair in the list's order, on standard output:
 *   OK MESSAGE-FILE
 *   FAIL MESSAGE-FILE: the signature does not verify
 *   ERROR MESSAGE-FILE: WHY          (unreadable file, signature of the wrong length)
 * An ERROR does not stop the batch. Exit status: 0 when every pair verifies; 1 when every
 * pair was checked and at least one signature does not verify; 2 for any ERROR, and for a
 * bad list, key or option (then one line on standard error says why; when not all pairs
 * verify, a summary line there counts them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_os.h"

enum { LIST_MAX = 64 << 20 }; /* bytes of a list file */

typedef struct {
  char *p;
  size_t len, cap;
  const char *path;
} list_buf;

static const char *shown(const char *path) {
  return strcmp(path, "-") == 0 ? "(standard input)" : path;
}

/* Collects the list's bytes (file names: not secret, so realloc is fine). */
static int list_append(void *ctx, const uint8_t *p, size_t n) {
  list_buf *b = ctx;
  if (n > LIST_MAX - b->len)
    return cli_error("--batch %s: larger than %d bytes, too large for a list", shown(b->path),
                     LIST_MAX);
  if (b->cap - b->len <= n) { /* keep one byte for the final NUL */
    size_t cap = b->cap ? b->cap : 1 << 12;
    while (cap - b->len <= n) cap *= 2;
    char *bigger = realloc(b->p, cap);
    if (bigger == NULL) return cli_error("--batch: out of memory (%zu bytes)", cap);
    b->p = bigger;
    b->cap = cap;
  }
  memcpy(b->p + b->len, p, n);
  b->len += n;
  return CLI_OK;
}

/* Checks one pair line (NUL-terminated, without its LF) and splits it at the first space.
 * *sig and *msg point into the line. CLI_OK or CLI_ERROR (message printed). */
static int parse_pair(const char *list, size_t lineno, char *line, const char **sig,
                      const char **msg) {
  for (size_t i = 0; line[i]; ++i) {
    unsigned char c = (unsigned char)line[i];
    if (c == '\r')
      return cli_error("--batch %s line %zu: a carriage return at byte %zu; lines end with LF "
                       "alone",
                       list, lineno, i + 1);
    if (c < 0x20 || c == 0x7f)
      return cli_error("--batch %s line %zu: control character 0x%02x at byte %zu; expected "
                       "SIGNATURE-FILE MESSAGE-FILE",
                       list, lineno, c, i + 1);
  }
  char *space = strchr(line, ' ');
  size_t len = strlen(line);
  if (space == NULL)
    return cli_error("--batch %s line %zu: no space; expected SIGNATURE-FILE MESSAGE-FILE", list,
                     lineno);
  if (space == line)
    return cli_error("--batch %s line %zu: begins with a space; expected SIGNATURE-FILE "
                     "MESSAGE-FILE",
                     list, lineno);
  if (space[1] == 0)
    return cli_error("--batch %s line %zu: no message file after the signature file", list,
                     lineno);
  if (space[1] == ' ')
    return cli_error("--batch %s line %zu: more than one space after the signature file (a "
                     "message file name does not begin with a space)",
                     list, lineno);
  if (line[len - 1] == ' ')
    return cli_error("--batch %s line %zu: ends with a space (a message file name does not end "
                     "with one)",
                     list, lineno);
  *space = 0;
  *sig = line;
  *msg = space + 1;
  if (strcmp(*sig, "-") == 0 || strcmp(*msg, "-") == 0)
    return cli_error("--batch %s line %zu: \"-\" (standard input) cannot be a file of a batch",
                     list, lineno);
  return CLI_OK;
}

/* Pass 1 over the list (b->p NUL-terminated): every line checked, every LF made a NUL and
 * every pair split. The number of pairs, or -1 (message printed). */
static long check_list(list_buf *b) {
  const char *list = shown(b->path);
  if (memchr(b->p, 0, b->len) != NULL) {
    size_t at = (size_t)((char *)memchr(b->p, 0, b->len) - b->p), lineno = 1;
    for (size_t i = 0; i < at; ++i) lineno += b->p[i] == '\n';
    cli_error("--batch %s line %zu: a NUL byte; the list is a text file", list, lineno);
    return -1;
  }
  long pairs = 0;
  size_t lineno = 0;
  for (char *line = b->p; line < b->p + b->len;) {
    char *end = memchr(line, '\n', (size_t)(b->p + b->len - line));
    if (end == NULL) end = b->p + b->len;
    *end = 0;
    ++lineno;
    const char *sig, *msg;
    if (line[0] != 0 && line[0] != '#') {
      if (parse_pair(list, lineno, line, &sig, &msg) != CLI_OK) return -1;
      ++pairs;
    }
    line = end + 1;
  }
  if (pairs == 0) cli_error("--batch %s: no pairs (only empty lines and comments)", list);
  return pairs ? pairs : -1;
}

/* One result line on standard output. */
static void result(const char *status, const char *msg, const char *why) {
  if (why)
    printf("%s %s: %s\n", status, msg, why);
  else
    printf("%s %s\n", status, msg);
}

/* Verifies one pair: CLI_OK, CLI_BAD_SIGNATURE or CLI_ERROR, with its result line. */
static int verify_pair(const mldsa_prepared_public_key *pp, mldsa_param p, const uint8_t *pk,
                       size_t pk_len, const char *sig_path, const char *msg_path,
                       const uint8_t *ctx, size_t ctx_len) {
  char why[CLI_WHY_BYTES], line[2 * CLI_WHY_BYTES];
  cli_buf sig;
  if (cli_read_all_quiet(sig_path, 8192, &sig, why) != CLI_OK) {
    snprintf(line, sizeof line, "signature %s: %s", sig_path, why);
    result("ERROR", msg_path, line);
    return CLI_ERROR;
  }
  int ret;
  if (sig.len != mldsa_signature_bytes(p)) {
    snprintf(line, sizeof line, "signature %s: %zu bytes, expected %zu for an ML-DSA-%d signature",
             sig_path, sig.len, mldsa_signature_bytes(p), (int)p);
    ret = CLI_ERROR;
  } else {
    ret = cli_verify_file_prepared(pp, p, pk, pk_len, msg_path, ctx, ctx_len, sig.p, sig.len,
                                   why);
    snprintf(line, sizeof line, "%s", why);
  }
  cli_buf_free(&sig);
  if (ret == CLI_OK)
    result("OK", msg_path, NULL);
  else if (ret == CLI_BAD_SIGNATURE)
    result("FAIL", msg_path, "the signature does not verify");
  else
    result("ERROR", msg_path, line);
  return ret;
}

int cli_verify_batch(mldsa_param p, const uint8_t *pk, size_t pk_len, const char *list_path,
                     const uint8_t *ctx, size_t ctx_len) {
  list_buf b = {.path = list_path};
  int ret = cli_read_chunks(list_path, "--batch", list_append, &b);
  long pairs = -1;
  if (ret == CLI_OK && b.p == NULL) { /* an empty file */
    b.p = malloc(1);
    b.cap = 1;
    if (b.p == NULL) ret = cli_error("--batch: out of memory");
  }
  if (ret == CLI_OK) {
    b.p[b.len] = 0;
    pairs = check_list(&b);
    if (pairs < 0) ret = CLI_ERROR;
  }
  /* The prepared key is 66 KiB: from the heap, with the 64-byte alignment of its type. It
   * holds only public values (no wipe needed). */
  mldsa_prepared_public_key *pp = NULL;
  if (ret == CLI_OK) {
    pp = cli_os_aligned_alloc(sizeof *pp);
    if (pp == NULL) ret = cli_error("--pub: out of memory for the prepared key");
  }
  if (ret == CLI_OK) {
    int rc = mldsa_public_key_prepare(pp, p, pk, pk_len);
    if (rc != MLDSA_OK) ret = cli_error("--pub: cannot prepare the key: %s", mldsa_strerror(rc));
  }
  long ok = 0, bad = 0, errors = 0;
  if (ret == CLI_OK) {
    const char *line = b.p;
    for (long done = 0; done < pairs; line += strlen(line) + 1) {
      if (line[0] == 0 || line[0] == '#') continue;
      const char *sig = line, *msg = line + strlen(line) + 1;
      int r = verify_pair(pp, p, pk, pk_len, sig, msg, ctx, ctx_len);
      ok += r == CLI_OK;
      bad += r == CLI_BAD_SIGNATURE;
      errors += r == CLI_ERROR;
      line = msg; /* the pair's line ends after the message file name */
      ++done;
    }
    if (fflush(stdout) != 0 || ferror(stdout))
      ret = cli_error("verify --batch: cannot write to standard output");
    else if (errors || bad)
      ret = errors ? CLI_ERROR : CLI_BAD_SIGNATURE;
    if (errors || bad)
      cli_error(
          "verify --batch %s: %ld pair%s: %ld OK, %ld FAIL (the signature does not "
          "verify), %ld ERROR",
          shown(list_path), pairs, pairs == 1 ? "" : "s", ok, bad, errors);
  }
  cli_os_aligned_free(pp);
  free(b.p);
  return ret;
}
