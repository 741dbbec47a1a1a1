/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The private-key forms of PKCS#8 that OpenSSL 3.5 reads and writes for ML-DSA, named as
 * its ml-dsa.input_formats and ml-dsa.output_formats name them: what the privateKey
 * OCTET STRING holds in each, how a list of names in the configuration selects and orders
 * them, and the PrivateKeyInfo around a form that libmldsa's RFC 9881 code does not write
 * (the last three of the table). */
#include <string.h>
#include <strings.h>

#include "prov.h"

/* OpenSSL 3.5's table order, which is also the order of preference when the configuration
   names no list. */
const char *const mldsa_prov_form_names[MLDSA_PROV_NFORMS] = {
    "seed-priv", "priv-only", "oqskeypair", "seed-only", "bare-priv", "bare-seed"};

/* 3.5's parsing, quirks included: names are separated by spaces, tabs or commas and
   compared without case over the length of the word given, so a word that begins a name
   ("seed", "bare") selects the first name of the table it begins that is not selected
   yet; unknown words are passed over; a name given twice keeps its first place. */
void mldsa_prov_forms_parse(const char *list, mldsa_prov_form_list *out) {
  static const char sep[] = " \t,";
  out->n = 0;
  if (list == NULL) {
    for (int f = 0; f < MLDSA_PROV_NFORMS; ++f) out->order[out->n++] = (mldsa_prov_form)f;
    return;
  }
  int taken[MLDSA_PROV_NFORMS] = {0};
  const char *word = list;
  while (out->n < MLDSA_PROV_NFORMS) {
    word += strspn(word, sep);
    if (*word == '\0') break;
    size_t len = strcspn(word, sep);
    for (int f = 0; f < MLDSA_PROV_NFORMS; ++f) {
      const char *name = mldsa_prov_form_names[f];
      if (!taken[f] && len <= strlen(name) && strncasecmp(name, word, len) == 0) {
        taken[f] = 1;
        out->order[out->n++] = (mldsa_prov_form)f;
        break;
      }
    }
    word += len;
  }
}

int mldsa_prov_forms_has(const mldsa_prov_form_list *list, mldsa_prov_form form) {
  for (int i = 0; i < list->n; ++i)
    if (list->order[i] == form) return 1;
  return 0;
}

int mldsa_prov_form_needs_seed(mldsa_prov_form form) {
  return form == MLDSA_PROV_FORM_SEED_PRIV || form == MLDSA_PROV_FORM_SEED_ONLY ||
         form == MLDSA_PROV_FORM_BARE_SEED;
}

/* The privateKey content of each form, for a set with secret keys of sk and public keys of
   pk bytes:
     seed-priv   30 82 <len> 04 20 <seed> 04 82 <sk> <sk bytes>   (RFC 9881 "both")
     priv-only   04 82 <sk> <sk bytes>                             (RFC 9881 "expandedKey")
     oqskeypair  04 82 <sk+pk> <sk bytes> <pk bytes>               (liboqs' provider)
     seed-only   80 20 <seed>                                      (RFC 9881 "seed")
     bare-priv   <sk bytes>
     bare-seed   <seed>
   Each has its own length in every set, so the length says which form it can be. */
static size_t content_bytes(const mldsa_prov_alg *a, mldsa_prov_form form) {
  switch (form) {
  case MLDSA_PROV_FORM_SEED_PRIV: return 4 + 2 + MLDSA_SEED_BYTES + 4 + a->sk_bytes;
  case MLDSA_PROV_FORM_PRIV_ONLY: return 4 + a->sk_bytes;
  case MLDSA_PROV_FORM_OQS_KEYPAIR: return 4 + a->sk_bytes + a->pk_bytes;
  case MLDSA_PROV_FORM_SEED_ONLY: return 2 + MLDSA_SEED_BYTES;
  case MLDSA_PROV_FORM_BARE_PRIV: return a->sk_bytes;
  default: return MLDSA_SEED_BYTES;
  }
}

static uint8_t *put_long_header(uint8_t *at, uint8_t tag, size_t len) {
  at[0] = tag;
  at[1] = 0x82;
  at[2] = (uint8_t)(len >> 8);
  at[3] = (uint8_t)len;
  return at + 4;
}

/* A DER tag and length of any size below 64 KiB. */
static uint8_t *put_header(uint8_t *at, uint8_t tag, size_t len) {
  if (len >= 0x100) return put_long_header(at, tag, len);
  *at++ = tag;
  if (len >= 0x80) *at++ = 0x81;
  *at++ = (uint8_t)len;
  return at;
}

static size_t header_bytes(size_t len) { return len < 0x80 ? 2 : len < 0x100 ? 3 : 4; }

static int has_long_header(const uint8_t *at, uint8_t tag, size_t len) {
  return at[0] == tag && at[1] == 0x82 && at[2] == (uint8_t)(len >> 8) && at[3] == (uint8_t)len;
}

int mldsa_prov_form_parse(const mldsa_prov_alg *a, const uint8_t *in, size_t len,
                          mldsa_prov_form *form, mldsa_prov_form_parts *parts) {
  memset(parts, 0, sizeof *parts);
  for (int f = 0; f < MLDSA_PROV_NFORMS; ++f) {
    if (len != content_bytes(a, (mldsa_prov_form)f)) continue;
    switch ((mldsa_prov_form)f) {
    case MLDSA_PROV_FORM_SEED_PRIV:
      if (!has_long_header(in, 0x30, len - 4) || in[4] != 0x04 || in[5] != MLDSA_SEED_BYTES ||
          !has_long_header(in + 6 + MLDSA_SEED_BYTES, 0x04, a->sk_bytes))
        return 0;
      parts->seed = in + 6;
      parts->sk = in + 6 + MLDSA_SEED_BYTES + 4;
      break;
    case MLDSA_PROV_FORM_PRIV_ONLY:
      if (!has_long_header(in, 0x04, a->sk_bytes)) return 0;
      parts->sk = in + 4;
      break;
    case MLDSA_PROV_FORM_OQS_KEYPAIR:
      if (!has_long_header(in, 0x04, a->sk_bytes + a->pk_bytes)) return 0;
      parts->sk = in + 4;
      parts->pk = in + 4 + a->sk_bytes;
      break;
    case MLDSA_PROV_FORM_SEED_ONLY:
      if (in[0] != 0x80 || in[1] != MLDSA_SEED_BYTES) return 0;
      parts->seed = in + 2;
      break;
    case MLDSA_PROV_FORM_BARE_PRIV: parts->sk = in; break;
    default: parts->seed = in; break;
    }
    *form = (mldsa_prov_form)f;
    return 1;
  }
  return 0;
}

/* The largest: oqskeypair of ML-DSA-87, with its four headers, the version and the
   AlgorithmIdentifier. */
_Static_assert(MLDSA_PROV_MAX_PKCS8 >= 4 + 3 + 13 + 4 + 4 + MLDSA87_SECRET_KEY_BYTES +
                                           MLDSA87_PUBLIC_KEY_BYTES,
               "MLDSA_PROV_MAX_PKCS8 holds every form");

/* PrivateKeyInfo { version 0, AlgorithmIdentifier, privateKey OCTET STRING }: the DER of
   one form, into out (MLDSA_PROV_MAX_PKCS8 bytes at most). Returns its length. */
size_t mldsa_prov_form_pkcs8(const mldsa_prov_alg *a, mldsa_prov_form form,
                             const uint8_t *seed, const uint8_t *sk, const uint8_t *pk,
                             uint8_t *out) {
  const size_t content = content_bytes(a, form);
  const size_t body = 3 + sizeof a->aid_der + header_bytes(content) + content;
  uint8_t *at = put_header(out, 0x30, body);
  memcpy(at, "\x02\x01\x00", 3);
  at += 3;
  memcpy(at, a->aid_der, sizeof a->aid_der);
  at += sizeof a->aid_der;
  at = put_header(at, 0x04, content);
  switch (form) {
  case MLDSA_PROV_FORM_SEED_PRIV:
    at = put_long_header(at, 0x30, content - 4);
    *at++ = 0x04;
    *at++ = MLDSA_SEED_BYTES;
    memcpy(at, seed, MLDSA_SEED_BYTES);
    at = put_long_header(at + MLDSA_SEED_BYTES, 0x04, a->sk_bytes);
    memcpy(at, sk, a->sk_bytes);
    at += a->sk_bytes;
    break;
  case MLDSA_PROV_FORM_PRIV_ONLY:
  case MLDSA_PROV_FORM_OQS_KEYPAIR:
    at = put_long_header(at, 0x04, content - 4);
    memcpy(at, sk, a->sk_bytes);
    at += a->sk_bytes;
    if (form == MLDSA_PROV_FORM_OQS_KEYPAIR) {
      memcpy(at, pk, a->pk_bytes);
      at += a->pk_bytes;
    }
    break;
  case MLDSA_PROV_FORM_SEED_ONLY:
    *at++ = 0x80;
    *at++ = MLDSA_SEED_BYTES;
    memcpy(at, seed, MLDSA_SEED_BYTES);
    at += MLDSA_SEED_BYTES;
    break;
  case MLDSA_PROV_FORM_BARE_PRIV:
    memcpy(at, sk, a->sk_bytes);
    at += a->sk_bytes;
    break;
  default:
    memcpy(at, seed, MLDSA_SEED_BYTES);
    at += MLDSA_SEED_BYTES;
    break;
  }
  return (size_t)(at - out);
}
