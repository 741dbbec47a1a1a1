/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Key files for the command-line tool: detection (PEM, DER, or raw by its exact length),
 * checking on load, error messages that say what was expected and what was found, and
 * writing keys in every format and form. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_crypto.h"
#include "cli_os.h"
#include "pem.h" /* mldsa_pem_read and mldsa_pem_error say what in a PEM file is wrong */

/* Key files are small: the largest (ML-DSA-87 "both" in PEM with CRLF) is under 7 KiB. */
#define KEY_FILE_MAX 65536
#define SEED_BYTES 32
#define SK_MAX 4896
#define PK_MAX 2592

static const mldsa_param all_sets[3] = {MLDSA_44, MLDSA_65, MLDSA_87};

/* The set whose size(p) is n, or 0. */
static mldsa_param set_of_size(size_t n, size_t (*size)(mldsa_param)) {
  for (int i = 0; i < 3; ++i)
    if (size(all_sets[i]) == n) return all_sets[i];
  return (mldsa_param)0;
}

static int check_want(const char *what, const char *path, mldsa_param want, mldsa_param have) {
  if (want != 0 && want != have)
    return cli_error("%s %s: an ML-DSA-%d key, but --param %d was given", what, path, have, want);
  return CLI_OK;
}

/* ---- saying why an encoding was refused ---- */

/* The first occurrence of needle in hay, or NULL (memmem, which not every C library has). */
static const char *find(const uint8_t *hay, size_t hay_len, const char *needle, size_t n) {
  for (size_t i = 0; n <= hay_len && i <= hay_len - n; ++i)
    if (memcmp(hay + i, needle, n) == 0) return (const char *)hay + i;
  return NULL;
}

/* The label of the first PEM block in in (after "-----BEGIN ", up to "-----"), or "". */
static void pem_label(const cli_buf *in, char *label, size_t cap) {
  static const char begin[] = "-----BEGIN ";
  const char *at = find(in->p, in->len, begin, sizeof begin - 1);
  size_t n = 0;
  if (at != NULL) {
    const char *start = at + sizeof begin - 1;
    size_t rest = in->len - (size_t)(start - (const char *)in->p);
    while (n < rest && n + 1 < cap && start[n] != '-' && start[n] != '\n') ++n;
    memcpy(label, start, n);
  }
  label[n] = 0;
}

/* Reads a DER header at *pos (within n); the contents length, or -1. */
static long der_header(const uint8_t *d, size_t n, size_t *pos, uint8_t *tag) {
  if (*pos + 2 > n) return -1;
  *tag = d[*pos];
  size_t len = d[*pos + 1], at = *pos + 2;
  if (len & 0x80) {
    size_t k = len & 0x7F;
    if (k == 0 || k > 3 || at + k > n) return -1;
    len = 0;
    for (size_t i = 0; i < k; ++i) len = len << 8 | d[at + i];
    at += k;
  }
  *pos = at;
  return (long)len;
}

/* The dotted form of the first AlgorithmIdentifier's OID in d (PKCS#8 or SPKI), or "". */
static void find_oid(const uint8_t *d, size_t n, char *out, size_t cap) {
  size_t pos = 0;
  uint8_t tag;
  out[0] = 0;
  if (der_header(d, n, &pos, &tag) < 0 || tag != 0x30) return;
  size_t save = pos;
  long len = der_header(d, n, &pos, &tag);
  if (len < 0) return;
  if (tag == 0x02) { /* PKCS#8: skip the version */
    pos += (size_t)len;
    if (der_header(d, n, &pos, &tag) < 0) return;
  } else if (tag != 0x30) {
    (void)save;
    return;
  }
  if (tag != 0x30) return;
  len = der_header(d, n, &pos, &tag);
  if (len <= 0 || tag != 0x06 || pos + (size_t)len > n) return;
  const uint8_t *o = d + pos;
  size_t used = (size_t)snprintf(out, cap, "%u.%u", o[0] / 40 < 2 ? o[0] / 40 : 2,
                                 o[0] < 80 ? o[0] % 40 : o[0] - 80);
  unsigned long arc = 0;
  for (long i = 1; i < len && used < cap; ++i) {
    arc = arc << 7 | (o[i] & 0x7F);
    if (!(o[i] & 0x80)) {
      used += (size_t)snprintf(out + used, cap - used, ".%lu", arc);
      arc = 0;
    }
  }
}

/* 1 if d starts like a PKCS#8 key: SEQUENCE { INTEGER ... */
static int looks_pkcs8(const uint8_t *d, size_t n) {
  size_t pos = 0;
  uint8_t tag;
  if (der_header(d, n, &pos, &tag) < 0 || tag != 0x30) return 0;
  return der_header(d, n, &pos, &tag) >= 0 && tag == 0x02;
}

/* 1 if d is one DER SEQUENCE (nothing after it) whose first element is an INTEGER, or an
 * AlgorithmIdentifier of a PKCS#5 or PKCS#12 password-based scheme. */
static int looks_der_private_key(const uint8_t *d, size_t n) {
  static const uint8_t pbe_arc[] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01}; /* 1.2.840.113549.1 */
  size_t pos = 0;
  uint8_t tag;
  long len = der_header(d, n, &pos, &tag);
  if (len < 0 || tag != 0x30 || pos + (size_t)len != n) return 0;
  long first = der_header(d, n, &pos, &tag);
  if (first < 0) return 0;
  if (tag == 0x02) return 1;
  if (tag != 0x30) return 0;
  long oid_len = der_header(d, n, &pos, &tag);
  return oid_len >= 9 && tag == 0x06 && pos + 9 <= n && memcmp(d + pos, pbe_arc, 7) == 0 &&
         (d[pos + 7] == 0x05 || d[pos + 7] == 0x0C); /* pkcs-5, pkcs-12 */
}

static int is_hex_digit(uint8_t c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int cli_holds_private_key(const uint8_t *p, size_t n) {
  static const char begin[] = "-----BEGIN ", label_end[] = "PRIVATE KEY-----";
  for (const char *at = find(p, n, begin, sizeof begin - 1); at != NULL;) {
    size_t rest = n - (size_t)((const uint8_t *)at - p);
    const char *eol = memchr(at, '\n', rest);
    size_t line = eol ? (size_t)(eol - at) : rest;
    while (line > 0 && (at[line - 1] == '\r' || at[line - 1] == ' ')) --line;
    if (line >= sizeof label_end - 1 &&
        memcmp(at + line - (sizeof label_end - 1), label_end, sizeof label_end - 1) == 0)
      return 1;
    at = find((const uint8_t *)at + 1, rest - 1, begin, sizeof begin - 1);
  }
  if (looks_der_private_key(p, n)) return 1;
  if (n == SEED_BYTES || set_of_size(n, mldsa_secret_key_bytes) != 0) return 1;
  size_t hex = n;
  if (hex >= 1 && p[hex - 1] == '\n') --hex;
  if (hex >= 1 && p[hex - 1] == '\r') --hex;
  if (hex != 2 * SEED_BYTES) return 0;
  for (size_t i = 0; i < hex; ++i)
    if (!is_hex_digit(p[i])) return 0;
  return 1;
}

/* Explains why the decoder said MLDSA_ERR_ENCODING. */
static int explain(const char *what, const char *path, const cli_buf *in, int secret,
                   const char *raw_sizes) {
  const char *want = secret ? "PRIVATE KEY" : "PUBLIC KEY";
  char label[64], oid[96];
  uint8_t *der = NULL;
  size_t n = in->len;
  const uint8_t *d = in->p;
  int pem = mldsa_pem_detect(in->p, in->len);
  if (pem) {
    der = cli_secret_alloc(in->len);
    if (der == NULL) return CLI_ERROR;
    int prc = mldsa_pem_read(in->p, in->len, want, der, in->len, &n);
    if (prc != MLDSA_PEM_OK) {
      cli_secret_free(der, in->len);
      pem_label(in, label, sizeof label);
      if (prc == MLDSA_PEM_NO_BEGIN)
        return cli_error("%s %s: PEM without a \"%s\" block (its first block is \"%s\")", what,
                         path, want, label);
      return cli_error("%s %s: PEM \"%s\" block: %s", what, path, want, mldsa_pem_error(prc));
    }
    d = der;
  } else if (in->len == 0 || in->p[0] != 0x30) {
    return cli_error("%s %s: %zu bytes, neither PEM, DER nor a raw key (raw keys are %s bytes)",
                     what, path, in->len, raw_sizes);
  }
  find_oid(d, n, oid, sizeof oid);
  cli_secret_free(der, in->len);
  const char *form = pem ? "PEM" : "DER";
  if (strncmp(oid, "2.16.840.1.101.3.4.3.1", 22) == 0 && strlen(oid) == 23 && oid[22] >= '7' &&
      oid[22] <= '9') {
    mldsa_param p = oid[22] == '7' ? MLDSA_44 : oid[22] == '8' ? MLDSA_65 : MLDSA_87;
    /* what a well-formed key of this set would measure, as DER (the encoders' size query) */
    static const uint8_t zeros[SK_MAX]; /* size queries read no key */
    size_t sk_bytes = mldsa_secret_key_bytes(p);
    size_t seed_len = 0, expanded_len = 0, both_len = 0, spki_len = 0;
    if (mldsa_private_key_encode(p, MLDSA_DER, MLDSA_SK_SEED, NULL, 0, &seed_len, zeros, NULL,
                                 0) != MLDSA_OK ||
        mldsa_private_key_encode(p, MLDSA_DER, MLDSA_SK_EXPANDED, NULL, 0, &expanded_len, NULL,
                                 zeros, sk_bytes) != MLDSA_OK ||
        mldsa_private_key_encode(p, MLDSA_DER, MLDSA_SK_BOTH, NULL, 0, &both_len, zeros, zeros,
                                 sk_bytes) != MLDSA_OK ||
        mldsa_public_key_encode(p, MLDSA_DER, NULL, 0, &spki_len, zeros,
                                mldsa_public_key_bytes(p)) != MLDSA_OK)
      return cli_error("%s %s: malformed ML-DSA-%d key", what, path, p); /* a set it knows */
    if (secret)
      return cli_error(
          "%s %s: %s of an ML-DSA-%d private key (OID %s) that is malformed: %zu "
          "bytes of DER, where RFC 9881 keys of this set have %zu (seed), %zu "
          "(expanded) or %zu (both); or a length, the version, parameters, "
          "padding or trailing data is wrong",
          what, path, form, p, oid, n, seed_len, expanded_len, both_len);
    return cli_error(
        "%s %s: %s of an ML-DSA-%d public key (OID %s) that is malformed: %zu bytes "
        "of DER, expected %zu; or a length, parameters, padding or trailing data is "
        "wrong",
        what, path, form, p, oid, n, spki_len);
  }
  if (oid[0])
    return cli_error(
        "%s %s: %s key with OID %s, expected an ML-DSA OID "
        "(2.16.840.1.101.3.4.3.17, .18 or .19)",
        what, path, form, oid);
  return cli_error("%s %s: %s that is not a %s (no AlgorithmIdentifier found)", what, path, form,
                   secret ? "PKCS#8 private key" : "SubjectPublicKeyInfo");
}

/* ---- loading ---- */

/* Decodes and checks the secret key held in in (see cli_load_secret_key). */
static int secret_key_from(const cli_buf *in_buf, const char *path, const char *what,
                           mldsa_param want, cli_secret_key *k) {
  const cli_buf in = *in_buf;
  memset(k, 0, sizeof *k);
  int ret = CLI_OK;
  mldsa_param raw = set_of_size(in.len, mldsa_secret_key_bytes);
  k->sk = cli_secret_alloc(SK_MAX);
  if (k->sk == NULL) {
    ret = CLI_ERROR;
  } else if (raw != 0) { /* a raw expanded key: the import check */
    uint8_t pk[PK_MAX];
    k->p = raw;
    k->format = CLI_FORMAT_RAW;
    k->form = MLDSA_SK_EXPANDED;
    k->sk_len = in.len;
    memcpy(k->sk, in.p, in.len);
    if (check_want(what, path, want, raw) != CLI_OK)
      ret = CLI_ERROR;
    else if (mldsa_public_key_from_secret(raw, pk, mldsa_public_key_bytes(raw), k->sk, k->sk_len) !=
             MLDSA_OK)
      ret = cli_error(
          "%s %s: raw ML-DSA-%d secret key that fails the import check "
          "(a coefficient of s1/s2 out of range, or t0/tr do not match rho, s1, s2)",
          what, path, raw);
  } else if (in.len == SEED_BYTES) { /* a raw seed: the set must be given */
    if (want == 0) {
      ret =
          cli_error("%s %s: 32 bytes, a raw seed; say which set with --param 44|65|87", what, path);
    } else {
      uint8_t pk[PK_MAX];
      k->p = want;
      k->format = CLI_FORMAT_RAW;
      k->form = MLDSA_SK_SEED;
      k->sk_len = mldsa_secret_key_bytes(want);
      memcpy(k->seed, in.p, SEED_BYTES);
      k->has_seed = 1;
      if (mldsa_keygen_from_seed(want, pk, mldsa_public_key_bytes(want), k->sk, k->sk_len,
                                 k->seed) != MLDSA_OK)
        ret = cli_error("%s %s: key generation from the seed failed", what, path);
    }
  } else {
    k->format = CLI_FORMAT_DER;
    int rc = mldsa_private_key_decode(&k->p, k->sk, SK_MAX, &k->sk_len, k->seed, &k->has_seed, in.p,
                                      in.len);
    if (rc == MLDSA_ERR_ENCODING)
      ret = explain(what, path, &in, 1, "2560, 4032 or 4896 (expanded) or 32 (seed)");
    else if (rc == MLDSA_ERR_KEY)
      ret = cli_error(
          "%s %s: ML-DSA private key refused: %s (its seed and expanded key "
          "disagree, the expanded key fails the import check, or its publicKey "
          "does not match)",
          what, path, mldsa_strerror(rc));
    else if (rc != MLDSA_OK)
      ret = cli_error("%s %s: %s", what, path, mldsa_strerror(rc));
    else
      ret = check_want(what, path, want, k->p);
  }
  if (ret != CLI_OK) cli_secret_key_free(k);
  return ret;
}

/* What a decoded PKCS#8 key held: the seed alone, the expanded key alone, or both (the
 * seed form's DER has a known size per set). */
static mldsa_sk_form form_of(const cli_secret_key *k, size_t der_len) {
  static const uint8_t zeros[SEED_BYTES]; /* a size query reads no key */
  size_t seed_len = 0;
  if (!k->has_seed) return MLDSA_SK_EXPANDED;
  if (mldsa_private_key_encode(k->p, MLDSA_DER, MLDSA_SK_SEED, NULL, 0, &seed_len, zeros, NULL,
                               0) != MLDSA_OK)
    return MLDSA_SK_BOTH;
  return der_len == seed_len ? MLDSA_SK_SEED : MLDSA_SK_BOTH;
}

/* The DER inside a PEM block with this label, in a secret buffer; CLI_OK or CLI_ERROR
 * (quiet: the caller explains). */
static int pem_to_der(const cli_buf *in, const char *label, cli_buf *der) {
  der->p = cli_secret_alloc(in->len);
  if (der->p == NULL) return CLI_ERROR;
  der->cap = in->len;
  if (mldsa_pem_read(in->p, in->len, label, der->p, der->cap, &der->len) != MLDSA_PEM_OK) {
    cli_buf_free(der);
    return CLI_ERROR;
  }
  return CLI_OK;
}

/* An EncryptedPrivateKeyInfo (DER): decrypted with the passphrase of --passin, then
 * decoded as any PKCS#8 key. */
static int decrypt_and_load(const uint8_t *der, size_t n, const char *path, const char *what,
                            mldsa_param want, cli_secret_key *k) {
  char pass[CLI_PASS_MAX], why[CLI_WHY_BYTES], prompt[512];
  size_t pass_len;
  cli_buf plain;
  memset(k, 0, sizeof *k);
  snprintf(prompt, sizeof prompt, "Passphrase for %s: ", path);
  if (cli_read_passphrase(cli_passin ? cli_passin : "tty", "--passin", prompt, 0, pass,
                          &pass_len) != CLI_OK)
    return cli_error("%s %s: an encrypted private key, and no passphrase", what, path);
  int ret = cli_pkcs8_decrypt(der, n, pass, pass_len, &plain, why);
  mldsa_wipe(pass, sizeof pass);
  if (ret != CLI_OK) return cli_error("%s %s: %s", what, path, why);
  ret = secret_key_from(&plain, path, what, want, k);
  if (ret == CLI_OK) k->form = form_of(k, plain.len);
  cli_buf_free(&plain);
  return ret;
}

/* Warns when a private key file lets group or others read it. */
static void warn_if_readable(const char *path, const char *what) {
  cli_os_file st;
  if (strcmp(path, "-") == 0 || cli_os_stat(path, 1, &st) != 0 || (st.mode & 077) == 0) return;
  cli_warn("%s %s: a private key file of mode %04o, which lets %s read it (chmod 600 %s)", what,
           path, st.mode, (st.mode & 070) && (st.mode & 07) ? "group and others"
                          : (st.mode & 070)                ? "its group"
                                                           : "others",
           path);
}

/* A secret key from the bytes of its file, in any format (see cli_load_secret_key). */
static int load_secret_bytes(const cli_buf *in_buf, const char *path, const char *what,
                             mldsa_param want, cli_secret_key *k) {
  const cli_buf in = *in_buf;
  cli_buf der = {0};
  memset(k, 0, sizeof *k);
  int ret, pem = mldsa_pem_detect(in.p, in.len);
  if (pem && pem_to_der(&in, "ENCRYPTED PRIVATE KEY", &der) == CLI_OK) {
    ret = decrypt_and_load(der.p, der.len, path, what, want, k);
    k->encrypted = 1;
  } else if (!pem && cli_is_encrypted_pkcs8(in.p, in.len)) {
    ret = decrypt_and_load(in.p, in.len, path, what, want, k);
    k->encrypted = 1;
  } else if (pem && pem_to_der(&in, "PRIVATE KEY", &der) == CLI_OK) {
    ret = secret_key_from(&der, path, what, want, k);
    if (ret == CLI_OK) k->form = form_of(k, der.len);
  } else {
    ret = secret_key_from(&in, path, what, want, k); /* DER, raw, or an error explained */
    if (ret == CLI_OK && k->format == CLI_FORMAT_DER) k->form = form_of(k, in.len);
  }
  if (pem) k->format = CLI_FORMAT_PEM;
  if (ret == CLI_OK) warn_if_readable(path, what);
  cli_buf_free(&der);
  return ret;
}

int cli_load_secret_key(const char *path, const char *what, mldsa_param want, cli_secret_key *k) {
  cli_buf in;
  memset(k, 0, sizeof *k);
  if (cli_read_all(path, KEY_FILE_MAX, what, &in) != CLI_OK) return CLI_ERROR;
  int ret = load_secret_bytes(&in, path, what, want, k);
  cli_buf_free(&in);
  return ret;
}

void cli_secret_key_free(cli_secret_key *k) {
  cli_secret_free(k->sk, SK_MAX);
  mldsa_wipe(k, sizeof *k);
}

int cli_load_public_key(const char *path, const char *what, mldsa_param want, mldsa_param *p,
                        uint8_t *pk, size_t *pk_len) {
  cli_buf in;
  if (cli_read_all(path, KEY_FILE_MAX, what, &in) != CLI_OK) return CLI_ERROR;
  int ret = CLI_OK;
  mldsa_param raw = set_of_size(in.len, mldsa_public_key_bytes);
  if (raw != 0) {
    *p = raw;
    *pk_len = in.len;
    memcpy(pk, in.p, in.len);
  } else {
    int rc = mldsa_public_key_decode(p, pk, PK_MAX, pk_len, in.p, in.len);
    /* a certificate will do: its subject's ML-DSA public key (not validated here) */
    if (rc == MLDSA_ERR_ENCODING &&
        mldsa_certificate_public_key(p, pk, PK_MAX, pk_len, in.p, in.len) == MLDSA_OK)
      rc = MLDSA_OK;
    if (rc == MLDSA_ERR_ENCODING) {
      /* a private key will do: its public key is derived */
      cli_secret_key k;
      int is_private = cli_holds_private_key(in.p, in.len) || looks_pkcs8(in.p, in.len) ||
                       cli_is_encrypted_pkcs8(in.p, in.len);
      if (is_private) {
        ret = load_secret_bytes(&in, path, what, want, &k);
        cli_buf_free(&in);
        if (ret != CLI_OK) return CLI_ERROR;
        *p = k.p;
        *pk_len = mldsa_public_key_bytes(k.p);
        /* the key passed its load-time check: its public key follows */
        ret = mldsa_public_key_from_secret(k.p, pk, *pk_len, k.sk, k.sk_len) == MLDSA_OK
                  ? CLI_OK
                  : cli_error("%s %s: the public key cannot be derived", what, path);
        cli_secret_key_free(&k);
        return ret;
      }
      ret = explain(what, path, &in, 0, "1312, 1952 or 2592");
    } else if (rc != MLDSA_OK) {
      ret = cli_error("%s %s: %s", what, path, mldsa_strerror(rc));
    }
  }
  if (ret == CLI_OK) ret = check_want(what, path, want, *p);
  cli_buf_free(&in);
  return ret;
}

/* ---- writing ---- */

int cli_encode_secret_key(const cli_secret_key *k, cli_format f, mldsa_sk_form form, cli_buf *out) {
  out->p = NULL;
  out->len = out->cap = 0;
  if (form != MLDSA_SK_EXPANDED && !k->has_seed)
    return cli_error(
        "--form %s needs the seed, and this key has none: it holds the expanded key only, "
        "from which the seed cannot be recovered (use --form expanded)",
        form == MLDSA_SK_SEED ? "seed" : "both");
  if (f == CLI_FORMAT_RAW) {
    if (form == MLDSA_SK_BOTH)
      return cli_error("--format raw holds one form: use --form seed or --form expanded");
    size_t n = form == MLDSA_SK_SEED ? SEED_BYTES : k->sk_len;
    out->p = cli_secret_alloc(n);
    if (out->p == NULL) return CLI_ERROR;
    memcpy(out->p, form == MLDSA_SK_SEED ? k->seed : k->sk, n);
    out->len = out->cap = n;
    return CLI_OK;
  }
  mldsa_format mf = f == CLI_FORMAT_PEM ? MLDSA_PEM : MLDSA_DER;
  const uint8_t *seed = k->has_seed ? k->seed : NULL;
  size_t need;
  int rc = mldsa_private_key_encode(k->p, mf, form, NULL, 0, &need, seed, k->sk, k->sk_len);
  if (rc != MLDSA_OK) return cli_error("encoding the private key: %s", mldsa_strerror(rc));
  out->p = cli_secret_alloc(need);
  if (out->p == NULL) return CLI_ERROR;
  out->cap = need;
  rc = mldsa_private_key_encode(k->p, mf, form, out->p, need, &out->len, seed, k->sk, k->sk_len);
  if (rc != MLDSA_OK) {
    cli_buf_free(out);
    return cli_error("encoding the private key: %s", mldsa_strerror(rc));
  }
  return CLI_OK;
}

int cli_encode_secret_key_as(const cli_secret_key *k, cli_format f, mldsa_sk_form form,
                             const char *pass, size_t pass_len, cli_buf *out) {
  if (pass == NULL) return cli_encode_secret_key(k, f, form, out);
  out->p = NULL;
  out->len = out->cap = 0;
  if (f == CLI_FORMAT_RAW)
    return cli_error("--passout: a raw key cannot be encrypted; use --format pem or der");
  cli_buf der, enc;
  if (cli_encode_secret_key(k, CLI_FORMAT_DER, form, &der) != CLI_OK) return CLI_ERROR;
  int ret = cli_pkcs8_encrypt(der.p, der.len, pass, pass_len, &enc);
  cli_buf_free(&der);
  if (ret != CLI_OK || f == CLI_FORMAT_DER) {
    *out = enc;
    return ret;
  }
  static const char label[] = "ENCRYPTED PRIVATE KEY";
  size_t n = mldsa_pem_len(label, enc.len);
  out->p = cli_secret_alloc(n);
  if (out->p == NULL) {
    cli_buf_free(&enc);
    return CLI_ERROR;
  }
  mldsa_pem_write(out->p, label, enc.p, enc.len);
  out->len = out->cap = n;
  cli_buf_free(&enc);
  return CLI_OK;
}

int cli_encode_public_key(mldsa_param p, const uint8_t *pk, size_t pk_len, cli_format f,
                          uint8_t out[CLI_PUBLIC_KEY_FILE_MAX], size_t *n) {
  if (f == CLI_FORMAT_RAW) {
    memcpy(out, pk, pk_len);
    *n = pk_len;
    return CLI_OK;
  }
  int rc = mldsa_public_key_encode(p, f == CLI_FORMAT_PEM ? MLDSA_PEM : MLDSA_DER, out,
                                   CLI_PUBLIC_KEY_FILE_MAX, n, pk, pk_len);
  if (rc != MLDSA_OK) return cli_error("encoding the public key: %s", mldsa_strerror(rc));
  return CLI_OK;
}

int cli_save_public_key(const char *path, const char *what, mldsa_param p, const uint8_t *pk,
                        size_t pk_len, cli_format f, int force) {
  uint8_t out[CLI_PUBLIC_KEY_FILE_MAX];
  size_t n;
  if (cli_encode_public_key(p, pk, pk_len, f, out, &n) != CLI_OK) return CLI_ERROR;
  return cli_write_file(path, what, out, n, 0, force);
}
