/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The message side of sign and verify: the file is read in chunks (cli_read_chunks) and
 * every chunk goes to message_update. This is the one place that decides how a message
 * reaches the library: today the chunks are collected in memory and signed or verified
 * with the one-shot calls; with a streaming interface (mu = H(tr || M') absorbed chunk by
 * chunk, then sign or verify mu) message_begin/update/sign/verify become those calls and
 * memory stays constant. The message is not secret: its buffer may grow with realloc. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct {
  uint8_t *p;
  size_t len, cap;
} message;

static int message_update(void *ctx, const uint8_t *p, size_t n) {
  message *m = ctx;
  if (m->cap - m->len < n) {
    size_t cap = m->cap ? m->cap : 1 << 16;
    while (cap - m->len < n) {
      if (cap > ((size_t)-1) / 2) return cli_error("--in: message too large");
      cap *= 2;
    }
    uint8_t *bigger = realloc(m->p, cap);
    if (bigger == NULL) return cli_error("--in: out of memory for a %zu-byte message", cap);
    m->p = bigger;
    m->cap = cap;
  }
  memcpy(m->p + m->len, p, n);
  m->len += n;
  return CLI_OK;
}

static int message_read(const char *path, message *m) {
  memset(m, 0, sizeof *m);
  int ret = cli_read_chunks(path, "--in", message_update, m);
  if (ret != CLI_OK) free(m->p);
  return ret;
}

int cli_sign_file(const cli_secret_key *k, const char *msg_path, const uint8_t *ctx, size_t ctx_len,
                  const uint8_t *rnd, uint8_t *sig, size_t sig_len) {
  message m;
  if (message_read(msg_path, &m) != CLI_OK) return CLI_ERROR;
  int rc = mldsa_sign(k->p, sig, sig_len, m.p, m.len, ctx, ctx_len, rnd, k->sk, k->sk_len);
  free(m.p);
  if (rc != MLDSA_OK) return cli_error("sign: %s", mldsa_strerror(rc));
  return CLI_OK;
}

int cli_verify_file(mldsa_param p, const uint8_t *pk, size_t pk_len, const char *msg_path,
                    const uint8_t *ctx, size_t ctx_len, const uint8_t *sig, size_t sig_len) {
  message m;
  if (message_read(msg_path, &m) != CLI_OK) return CLI_ERROR;
  int rc = mldsa_verify(p, sig, sig_len, m.p, m.len, ctx, ctx_len, pk, pk_len);
  free(m.p);
  if (rc == MLDSA_ERR_VERIFY) return CLI_BAD_SIGNATURE;
  if (rc != MLDSA_OK) return cli_error("verify: %s", mldsa_strerror(rc));
  return CLI_OK;
}
