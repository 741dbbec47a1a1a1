/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The message side of sign and verify, and the one place that decides how a message
 * reaches the library: the file is read in chunks of 64 KiB (cli_read_chunks) and every
 * chunk is absorbed into the streaming mu = SHAKE256(tr || 0 || len(ctx) || ctx || M, 64)
 * with mldsa_mu_update; then mldsa_sign_mu, mldsa_verify_mu or mldsa_verify_mu_prepared.
 * Memory is constant whatever the message size: one chunk and the 512-byte state. The
 * signatures are those of the one-shot calls, byte for byte.
 *
 * The state and mu are wiped on every path, errors included: mldsa_mu_final wipes a live
 * state, and an explicit wipe covers a state whose initialisation failed or that a failed
 * read left behind. (Neither holds a secret: tr and mu are public values; the wipe is
 * hygiene, as everywhere in the tool.) */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int absorb(void *st, const uint8_t *p, size_t n) {
  int rc = mldsa_mu_update(st, p, n);
  return rc == MLDSA_OK ? CLI_OK : cli_error("mu: %s", mldsa_strerror(rc));
}

/* Absorbs the file into st (initialised by the caller) and writes mu. why == NULL: read
 * errors are printed (naming what and the path); else they go to why. st is wiped
 * whatever happens, and mu on an error. */
static int message_mu(mldsa_mu_state *st, const char *path, const char *what,
                      char why[CLI_WHY_BYTES], uint8_t mu[64]) {
  int ret = why ? cli_read_chunks_quiet(path, absorb, st, why)
                : cli_read_chunks(path, what, absorb, st);
  int rc = mldsa_mu_final(st, mu);
  mldsa_wipe(st, sizeof *st);
  if (ret == CLI_OK && rc != MLDSA_OK) ret = cli_error("mu: %s", mldsa_strerror(rc));
  if (ret != CLI_OK) mldsa_wipe(mu, 64);
  return ret;
}

int cli_sign_file(const cli_secret_key *k, const char *msg_path, const uint8_t *ctx, size_t ctx_len,
                  const uint8_t *rnd, uint8_t *sig, size_t sig_len) {
  mldsa_mu_state st;
  uint8_t mu[64];
  int rc = mldsa_mu_init_secret(&st, k->p, k->sk, k->sk_len, ctx, ctx_len);
  if (rc != MLDSA_OK) {
    mldsa_wipe(&st, sizeof st);
    return cli_error("sign: %s", mldsa_strerror(rc));
  }
  if (message_mu(&st, msg_path, "--in", NULL, mu) != CLI_OK) return CLI_ERROR;
  rc = mldsa_sign_mu(k->p, sig, sig_len, mu, rnd, k->sk, k->sk_len);
  mldsa_wipe(mu, sizeof mu);
  if (rc != MLDSA_OK) return cli_error("sign: %s", mldsa_strerror(rc));
  return CLI_OK;
}

int cli_verify_file(mldsa_param p, const uint8_t *pk, size_t pk_len, const char *msg_path,
                    const uint8_t *ctx, size_t ctx_len, const uint8_t *sig, size_t sig_len) {
  mldsa_mu_state st;
  uint8_t mu[64];
  int rc = mldsa_mu_init(&st, p, pk, pk_len, ctx, ctx_len);
  if (rc != MLDSA_OK) {
    mldsa_wipe(&st, sizeof st);
    return cli_error("verify: %s", mldsa_strerror(rc));
  }
  if (message_mu(&st, msg_path, "--in", NULL, mu) != CLI_OK) return CLI_ERROR;
  rc = mldsa_verify_mu(p, sig, sig_len, mu, pk, pk_len);
  mldsa_wipe(mu, sizeof mu);
  if (rc == MLDSA_ERR_VERIFY) return CLI_BAD_SIGNATURE;
  if (rc != MLDSA_OK) return cli_error("verify: %s", mldsa_strerror(rc));
  return CLI_OK;
}

int cli_verify_file_prepared(const mldsa_prepared_public_key *pp, mldsa_param p, const uint8_t *pk,
                             size_t pk_len, const char *msg_path, const uint8_t *ctx,
                             size_t ctx_len, const uint8_t *sig, size_t sig_len,
                             char why[CLI_WHY_BYTES]) {
  mldsa_mu_state st;
  uint8_t mu[64];
  why[0] = 0;
  /* tr = H(pk) again for every pair: the documented way to start a state. */
  int rc = mldsa_mu_init(&st, p, pk, pk_len, ctx, ctx_len);
  if (rc != MLDSA_OK) {
    mldsa_wipe(&st, sizeof st);
    snprintf(why, CLI_WHY_BYTES, "mu: %s", mldsa_strerror(rc));
    return CLI_ERROR;
  }
  if (message_mu(&st, msg_path, NULL, why, mu) != CLI_OK) {
    if (why[0] == 0) snprintf(why, CLI_WHY_BYTES, "cannot absorb the message");
    return CLI_ERROR;
  }
  rc = mldsa_verify_mu_prepared(pp, sig, sig_len, mu);
  mldsa_wipe(mu, sizeof mu);
  if (rc == MLDSA_ERR_VERIFY) return CLI_BAD_SIGNATURE;
  if (rc != MLDSA_OK) {
    snprintf(why, CLI_WHY_BYTES, "%s", mldsa_strerror(rc));
    return CLI_ERROR;
  }
  return CLI_OK;
}
