/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* `openssl pkey -text`: the key in OpenSSL 3.5's own layout (a heading, then each part as
 * colon-separated hex, 15 bytes to a line indented by four spaces), so that scripts that
 * read 3.5's output read this provider's too. */
#include <string.h>

#include "prov.h"

#define BYTES_PER_LINE 15

static int print_bytes(const mldsa_prov_ctx *pc, OSSL_CORE_BIO *out, const char *label,
                       const uint8_t *b, size_t n) {
  /* one line at a time: "    " and 15 * "xx:" fit in 64 bytes */
  char line[4 + 3 * BYTES_PER_LINE + 2];
  static const char hex[] = "0123456789abcdef";
  if (!mldsa_prov_bio_printf(pc, out, "%s\n", label)) return 0;
  for (size_t at = 0; at < n; at += BYTES_PER_LINE) {
    size_t len = 0, end = at + BYTES_PER_LINE < n ? at + BYTES_PER_LINE : n;
    memset(line, ' ', 4);
    len = 4;
    for (size_t i = at; i < end; ++i) {
      line[len++] = hex[b[i] >> 4];
      line[len++] = hex[b[i] & 15];
      if (i + 1 < n) line[len++] = ':';
    }
    line[len++] = '\n';
    if (!mldsa_prov_bio_write(pc, out, line, len)) return 0;
  }
  return 1;
}

int mldsa_prov_key_to_text(OSSL_CORE_BIO *out, const mldsa_prov_key *key, int selection) {
  const mldsa_prov_alg *a = key->alg;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) {
    if (!key->has_priv) {
      mldsa_prov_raise(key->provctx, MLDSA_PROV_R_NO_KEY, "the %s key has no private part", a->name);
      return 0;
    }
    if (!mldsa_prov_bio_printf(key->provctx, out, "%s Private-Key:\n", a->name) ||
        (key->has_seed && !print_bytes(key->provctx, out, "seed:", key->seed, MLDSA_SEED_BYTES)) ||
        !print_bytes(key->provctx, out, "priv:", key->sk, a->sk_bytes))
      return 0;
  } else if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0) {
    if (!mldsa_prov_bio_printf(key->provctx, out, "%s Public-Key:\n", a->name)) return 0;
  }
  if (!key->has_pub) {
    mldsa_prov_raise(key->provctx, MLDSA_PROV_R_NO_KEY, "the %s key has no public part", a->name);
    return 0;
  }
  return print_bytes(key->provctx, out, "pub:", key->pk, a->pk_bytes);
}
