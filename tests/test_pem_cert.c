/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PEM read as RFC 7468's lax grammar (text around and between blocks, whitespace in the
 * base64, the first block with the label), with a reason for each failure; the private-key
 * forms from before RFC 9881 (bare seed, bare expanded key); certificates
 * (mldsa_certificate_public_key). Files made by OpenSSL 3.5 in tests/data/openssl35 (its
 * directory is the argument) and inputs built here. A plain test with the headers of src/.
 * Every input is copied to a heap block of its exact size, so that ASan sees any read
 * past in_len. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"
#include "pem.h"

#define BUF 32768
static int failures;
static const char *dir;

static void check(int ok, const char *what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    ++failures;
  }
}

typedef struct {
  uint8_t d[BUF];
  size_t n;
} text;

static void put(text *t, const void *p, size_t n) {
  if (t->n + n > sizeof t->d) abort();
  memcpy(t->d + t->n, p, n);
  t->n += n;
}
static void puts_(text *t, const char *s) { put(t, s, strlen(s)); }

static void load(text *t, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    printf("cannot open %s\n", path);
    exit(1);
  }
  t->n = fread(t->d, 1, sizeof t->d, f);
  fclose(f);
}

/* The DER file `name` from its hex form, `name`.hex: `#` lines, then hex digits (any
 * whitespace between bytes). Anything else fails the test. */
static void load_der(text *t, const char *name) {
  char hex[64];
  snprintf(hex, sizeof hex, "%s.hex", name);
  text h;
  load(&h, hex);
  t->n = 0;
  for (size_t i = 0; i < h.n;) {
    if (h.d[i] == '#') {
      while (i < h.n && h.d[i] != '\n') ++i;
    } else if (isspace(h.d[i])) {
      ++i;
    } else {
      if (i + 1 >= h.n || !isxdigit(h.d[i]) || !isxdigit(h.d[i + 1]) || t->n >= sizeof t->d) {
        printf("%s: not hex at byte %zu\n", hex, i);
        exit(1);
      }
      char pair[3] = {(char)h.d[i], (char)h.d[i + 1], 0};
      t->d[t->n++] = (uint8_t)strtoul(pair, NULL, 16);
      i += 2;
    }
  }
}

/* Replaces the first `from` in t by `to`; 0 when absent. */
static int replace(text *t, const char *from, const char *to) {
  size_t fl = strlen(from), tl = strlen(to);
  for (size_t i = 0; i + fl <= t->n; ++i)
    if (memcmp(t->d + i, from, fl) == 0) {
      if (t->n - fl + tl > sizeof t->d) abort();
      memmove(t->d + i + tl, t->d + i + fl, t->n - i - fl);
      memcpy(t->d + i, to, tl);
      t->n = t->n - fl + tl;
      return 1;
    }
  return 0;
}

/* Inserts s at t[pos]. */
static void insert_at(text *t, size_t pos, const char *s) {
  size_t n = strlen(s);
  if (t->n + n > sizeof t->d) abort();
  memmove(t->d + pos + n, t->d + pos, t->n - pos);
  memcpy(t->d + pos, s, n);
  t->n += n;
}

/* Replaces every "\n" by `to`. */
static void replace_all_lf(text *t, const char *to) {
  static text out;
  out.n = 0;
  for (size_t i = 0; i < t->n; ++i)
    if (t->d[i] == '\n')
      puts_(&out, to);
    else
      put(&out, t->d + i, 1);
  *t = out;
}

/* The decoders on an exact-size heap copy of t. */
static int priv(const text *t, mldsa_param *p, uint8_t *sk, size_t *sk_len, uint8_t seed[32],
                int *has) {
  uint8_t *in = malloc(t->n ? t->n : 1);
  memcpy(in, t->d, t->n);
  int rc = mldsa_private_key_decode(p, sk, MLDSA_MAX_SECRET_KEY_BYTES, sk_len, seed, has, in, t->n);
  free(in);
  return rc;
}
static int pub(const text *t, int cert, mldsa_param *p, uint8_t *pk, size_t *pk_len) {
  uint8_t *in = malloc(t->n ? t->n : 1);
  memcpy(in, t->d, t->n);
  int rc = cert ? mldsa_certificate_public_key(p, pk, MLDSA_MAX_PUBLIC_KEY_BYTES, pk_len, in, t->n)
                : mldsa_public_key_decode(p, pk, MLDSA_MAX_PUBLIC_KEY_BYTES, pk_len, in, t->n);
  free(in);
  return rc;
}
/* mldsa_pem_read's reason for t under label. */
static int reason(const text *t, const char *label) {
  static uint8_t der[BUF];
  size_t n;
  uint8_t *in = malloc(t->n ? t->n : 1);
  memcpy(in, t->d, t->n);
  int rc = mldsa_pem_read(in, t->n, label, der, sizeof der, &n);
  free(in);
  return rc;
}

static uint8_t key_sk[MLDSA_MAX_SECRET_KEY_BYTES], key_pk[MLDSA_MAX_PUBLIC_KEY_BYTES];
static size_t key_sk_len, key_pk_len;

/* PEM text of our own encoder, then changed: accepted (the same key) or refused with the
 * stated reason. */
static void pem_lax(void) {
  static text base, t;
  static uint8_t sk[MLDSA_MAX_SECRET_KEY_BYTES], seed[32], seed0[32];
  uint8_t s0[32];
  for (int i = 0; i < 32; ++i) s0[i] = (uint8_t)(7 * i + 1);
  static uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES], sk0[MLDSA_MAX_SECRET_KEY_BYTES];
  const mldsa_param set = MLDSA_65;
  size_t pkl = mldsa_public_key_bytes(set), skl = mldsa_secret_key_bytes(set), n, sk_len;
  mldsa_param p;
  int has;
  check(mldsa_keygen_from_seed(set, pk, pkl, sk0, skl, s0) == MLDSA_OK, "keygen");
  check(mldsa_private_key_encode(set, MLDSA_PEM, MLDSA_SK_SEED, base.d, sizeof base.d, &n, s0, NULL,
                                 0) == MLDSA_OK,
        "encode");
  base.n = n;
  memcpy(seed0, s0, 32);

  /* each accepted variant: built from base by a small change */
#define ACCEPT(what, ...)                                                                    \
  do {                                                                                       \
    t = base;                                                                                \
    __VA_ARGS__;                                                                             \
    int rc = priv(&t, &p, sk, &sk_len, seed, &has);                                          \
    check(rc == MLDSA_OK && p == set && sk_len == skl && memcmp(sk, sk0, skl) == 0 && has && \
              memcmp(seed, seed0, 32) == 0,                                                  \
          "accepted: " what);                                                                \
    check(reason(&t, "PRIVATE KEY") == MLDSA_PEM_OK, "reason OK: " what);                    \
  } while (0)
  ACCEPT("as written");
  ACCEPT("text before BEGIN (pkcs12 Bag Attributes)", {
    static text u;
    u.n = 0;
    puts_(&u, "Bag Attributes\n    localKeyID: 01 02 03 \nKey Attributes: <No Attributes>\n");
    put(&u, t.d, t.n);
    t = u;
  });
  ACCEPT("a blank line in the base64", replace(&t, "-----\n", "-----\n\n"));
  ACCEPT("blank lines and spaces before END", replace(&t, "\n-----END", "\n  \n\t\n-----END"));
  ACCEPT("trailing spaces on a base64 line", replace_all_lf(&t, "  \n"));
  ACCEPT("CRLF line endings", replace_all_lf(&t, "\r\n"));
  ACCEPT("CR line endings", replace_all_lf(&t, "\r"));
  ACCEPT("spaces and tabs inside the base64", {
    insert_at(&t, 28 + 3, " \t ");
    insert_at(&t, 28 + 30, "\v\f");
  });
  ACCEPT("trailing newlines after END", puts_(&t, "\n\n\n"));
  ACCEPT("text after END", puts_(&t, "some text\n-----BEGIN GARBAGE\n"));
  ACCEPT("no line ending after END", t.n--);
  ACCEPT("spaces before BEGIN and after its dashes",
         { replace(&t, "-----BEGIN PRIVATE KEY-----\n", "  -----BEGIN PRIVATE KEY-----  \n"); });
  ACCEPT("a certificate block before the key", {
    static text u, c;
    load(&c, "mldsa44-cert.pem");
    u = c;
    put(&u, t.d, t.n);
    t = u;
  });
  ACCEPT("another key after the first", {
    static text u;
    size_t m;
    u = t;
    uint8_t other[32] = {9};
    check(mldsa_private_key_encode(MLDSA_44, MLDSA_PEM, MLDSA_SK_SEED, u.d + u.n, sizeof u.d - u.n,
                                   &m, other, NULL, 0) == MLDSA_OK,
          "encode other");
    u.n += m;
    t = u;
  });

  /* refused, with the reason */
#define REFUSE(what, want, ...)                                                           \
  do {                                                                                    \
    t = base;                                                                             \
    __VA_ARGS__;                                                                          \
    int got = reason(&t, "PRIVATE KEY");                                                  \
    check(priv(&t, &p, sk, &sk_len, seed, &has) == MLDSA_ERR_ENCODING, "refused: " what); \
    if (got != (want)) printf("  %s: got \"%s\"\n", what, mldsa_pem_error(got));          \
    check(got == (want), "reason: " what);                                                \
  } while (0)
  REFUSE("another label", MLDSA_PEM_NO_BEGIN, replace(&t, "BEGIN PRIVATE", "BEGIN PUBLIC"));
  REFUSE("BEGIN not at a line start", MLDSA_PEM_NO_BEGIN, replace(&t, "-----BEGIN", "x-----BEGIN"));
  REFUSE("BEGIN line with text after it", MLDSA_PEM_NO_BEGIN,
         replace(&t, "PRIVATE KEY-----\n", "PRIVATE KEY----- x\n"));
  REFUSE("END label differs", MLDSA_PEM_END_LABEL, replace(&t, "END PRIVATE", "END PUBLIC"));
  REFUSE("no END line", MLDSA_PEM_NO_END, replace(&t, "-----END PRIVATE KEY-----\n", ""));
  REFUSE("a BEGIN where END should be", MLDSA_PEM_NO_END,
         replace(&t, "-----END PRIVATE KEY-----", "-----BEGIN PRIVATE KEY-----"));
  REFUSE("a character not base64", MLDSA_PEM_BAD_BASE64, t.d[40] = '*');
  REFUSE("a lone '-' in the base64", MLDSA_PEM_BAD_BASE64, t.d[40] = '-');
  REFUSE("a NUL in the base64", MLDSA_PEM_BAD_BASE64, t.d[40] = 0);
  REFUSE("a digit after padding", MLDSA_PEM_BAD_BASE64, replace(&t, "\n-----END", "=A\n-----END"));
  REFUSE("a digit missing", MLDSA_PEM_BAD_LENGTH, {
    memmove(t.d + 40, t.d + 41, t.n - 41);
    t.n--;
  });
  REFUSE("nothing between BEGIN and END", MLDSA_PEM_EMPTY, {
    t.n = 0;
    puts_(&t, "-----BEGIN PRIVATE KEY-----\n\n-----END PRIVATE KEY-----\n");
  });
  REFUSE("non-zero bits under the padding", MLDSA_PEM_BAD_PADDING, {
    /* "AB==" decodes to one byte with non-zero dropped bits */
    t.n = 0;
    puts_(&t, "-----BEGIN PRIVATE KEY-----\nAB==\n-----END PRIVATE KEY-----\n");
  });
  REFUSE("only text", MLDSA_PEM_NO_BEGIN, {
    t.n = 0;
    puts_(&t, "just some text, no block\n");
  });

  /* DER stays strict: a trailing byte or newline is not PEM's business */
  size_t dn;
  check(mldsa_private_key_encode(set, MLDSA_DER, MLDSA_SK_SEED, t.d, sizeof t.d, &dn, s0, NULL,
                                 0) == MLDSA_OK,
        "encode DER");
  t.n = dn;
  check(priv(&t, &p, sk, &sk_len, seed, &has) == MLDSA_OK, "DER as written");
  puts_(&t, "\n");
  check(priv(&t, &p, sk, &sk_len, seed, &has) == MLDSA_ERR_ENCODING, "DER with a newline after");
  t.n = dn;
  t.d[1] ^= 1;
  check(priv(&t, &p, sk, &sk_len, seed, &has) == MLDSA_ERR_ENCODING, "DER with a wrong length");

  /* what is read as PEM: the CLI explains a failure by the same rule */
  t.n = dn;
  check(mldsa_pem_detect(t.d, t.n) == 0, "DER is not PEM");
  puts_(&t, "-----BEGIN PRIVATE KEY-----\n");
  check(mldsa_pem_detect(t.d, t.n) == 1, "not one DER element, with a BEGIN: PEM");
  t = base;
  check(mldsa_pem_detect(t.d, t.n) == 1, "PEM");
  insert_at(&t, 0, "Bag Attributes\n");
  check(mldsa_pem_detect(t.d, t.n) == 1, "PEM after text");

  /* the public decoder: a PRIVATE KEY block before the PUBLIC KEY block */
  check(mldsa_public_key_encode(set, MLDSA_PEM, t.d, sizeof t.d, &n, pk, pkl) == MLDSA_OK,
        "encode public");
  t.n = n;
  static text u;
  u = base;
  put(&u, t.d, t.n);
  static uint8_t pk2[MLDSA_MAX_PUBLIC_KEY_BYTES];
  size_t pk2_len;
  check(pub(&u, 0, &p, pk2, &pk2_len) == MLDSA_OK && pk2_len == pkl && memcmp(pk2, pk, pkl) == 0,
        "public key block after a private key block");
}

/* The files of OpenSSL 3.5: the pkcs12 bag (text, certificate, key), the bare forms and
 * the certificates. */
static void openssl_files(void) {
  static text bag, t, c;
  static uint8_t sk[MLDSA_MAX_SECRET_KEY_BYTES], pk[MLDSA_MAX_PUBLIC_KEY_BYTES];
  static uint8_t pk_cert[MLDSA_MAX_PUBLIC_KEY_BYTES], pk_spki[MLDSA_MAX_PUBLIC_KEY_BYTES];
  uint8_t seed[32], seed_bag[32];
  size_t sk_len, pk_len, n;
  mldsa_param p;
  int has;
  load(&bag, "mldsa44-pkcs12-bag.pem");
  check(priv(&bag, &p, key_sk, &key_sk_len, seed_bag, &has) == MLDSA_OK && p == MLDSA_44,
        "private key from the pkcs12 bag (text, certificate, key)");
  check(mldsa_public_key_from_secret(MLDSA_44, key_pk, 1312, key_sk, key_sk_len) == MLDSA_OK,
        "its public key");
  key_pk_len = 1312;
  check(pub(&bag, 1, &p, pk_cert, &pk_len) == MLDSA_OK && p == MLDSA_44 && pk_len == 1312 &&
            memcmp(pk_cert, key_pk, 1312) == 0,
        "certificate of the pkcs12 bag holds the key's public key");

  load_der(&t, "mldsa44-bare-seed.der");
  check(priv(&t, &p, sk, &sk_len, seed, &has) == MLDSA_OK && p == MLDSA_44 && has == 1 &&
            memcmp(seed, seed_bag, 32) == 0 && sk_len == key_sk_len &&
            memcmp(sk, key_sk, sk_len) == 0,
        "bare seed (OpenSSL 3.5 bare-seed): the seed form");
  load_der(&t, "mldsa44-bare-priv.der");
  check(priv(&t, &p, sk, &sk_len, seed, &has) == MLDSA_OK && p == MLDSA_44 && has == 0 &&
            sk_len == key_sk_len && memcmp(sk, key_sk, sk_len) == 0,
        "bare expanded key (OpenSSL 3.5 bare-priv): the expanded form");
  /* a bare value of another size is no form at all */
  load_der(&t, "mldsa44-bare-seed.der");
  static text cut;
  cut.n = 0;
  const uint8_t head[] = {0x30, 0x31};
  put(&cut, head, 2);
  put(&cut, t.d + 2, 15); /* version, algorithm */
  const uint8_t octets[] = {0x04, 0x1F};
  put(&cut, octets, 2);
  put(&cut, t.d + 20, 31);
  check(priv(&cut, &p, sk, &sk_len, seed, &has) == MLDSA_ERR_ENCODING, "bare 31-byte seed");
  /* the encoder never writes a bare form: the seed form is [0]-tagged */
  check(mldsa_private_key_encode(MLDSA_44, MLDSA_DER, MLDSA_SK_SEED, t.d, sizeof t.d, &n, seed,
                                 NULL, 0) == MLDSA_OK &&
            n == 54 && t.d[20] == 0x80,
        "the seed form written is RFC 9881's");

  load_der(&c, "mldsa44-cert.der");
  load_der(&t, "mldsa44-pub.der");
  check(pub(&t, 0, &p, pk_spki, &pk_len) == MLDSA_OK, "SPKI of OpenSSL");
  check(pub(&c, 1, &p, pk, &pk_len) == MLDSA_OK && p == MLDSA_44 && pk_len == 1312 &&
            memcmp(pk, pk_spki, 1312) == 0,
        "certificate (DER)");
  load(&t, "mldsa44-cert.pem");
  check(pub(&t, 1, &p, pk, &pk_len) == MLDSA_OK && memcmp(pk, pk_spki, 1312) == 0,
        "certificate (PEM)");
  check(pub(&t, 0, &p, pk, &pk_len) == MLDSA_ERR_ENCODING, "certificate to the SPKI decoder");
  check(pub(&bag, 0, &p, pk, &pk_len) == MLDSA_ERR_ENCODING, "bag to the SPKI decoder");
  load_der(&t, "mldsa44-pub.der");
  check(pub(&t, 1, &p, pk, &pk_len) == MLDSA_ERR_ENCODING && p == 0 && pk_len == 0,
        "SPKI to the certificate reader");
  load_der(&t, "ed25519-cert.der");
  check(pub(&t, 1, &p, pk, &pk_len) == MLDSA_ERR_ENCODING, "Ed25519 certificate");

  /* every truncation, a trailing byte, a changed outer length: refused, never overread */
  t = c;
  for (size_t len = 0; len < c.n; len += len < 64 ? 1 : 97) {
    t.n = len;
    check(pub(&t, 1, &p, pk, &pk_len) == MLDSA_ERR_ENCODING, "truncated certificate");
  }
  t = c;
  puts_(&t, "\0");
  t.n = c.n + 1;
  check(pub(&t, 1, &p, pk, &pk_len) == MLDSA_ERR_ENCODING, "certificate and a byte");
  t = c;
  t.d[3] ^= 1;
  check(pub(&t, 1, &p, pk, &pk_len) == MLDSA_ERR_ENCODING, "certificate with a wrong length");
  /* every single byte of the header part changed: refused or the same key, never a crash */
  for (size_t i = 0; i < 64; ++i) {
    t = c;
    t.d[i] ^= 0x40;
    int rc = pub(&t, 1, &p, pk, &pk_len);
    check(rc == MLDSA_ERR_ENCODING || (rc == MLDSA_OK && memcmp(pk, pk_spki, 1312) == 0),
          "certificate with a changed byte");
  }

  /* arguments */
  check(mldsa_certificate_public_key(&p, pk, 1311, &pk_len, c.d, c.n) == MLDSA_ERR_LENGTH,
        "pk_cap too small");
  check(mldsa_certificate_public_key(NULL, pk, 1312, &pk_len, c.d, c.n) == MLDSA_ERR_NULL,
        "p NULL");
  check(mldsa_certificate_public_key(&p, pk, 1312, &pk_len, NULL, 5) == MLDSA_ERR_NULL, "in NULL");
  check(mldsa_certificate_public_key(&p, pk, 1312, &pk_len, NULL, 0) == MLDSA_ERR_ENCODING,
        "empty input");

  /* pk over the certificate, at several offsets */
  static uint8_t arena[3 * BUF];
  const long offs[] = {0, 1, -1, 100, -100, 2000, -1311, (long)c.n - 1};
  for (size_t i = 0; i < sizeof offs / sizeof offs[0]; ++i) {
    uint8_t *in = arena + BUF, *out = in + offs[i];
    memcpy(in, c.d, c.n);
    int rc = mldsa_certificate_public_key(&p, out, 1312, &pk_len, in, c.n);
    check(rc == MLDSA_OK && memcmp(out, pk_spki, 1312) == 0, "certificate in place");
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_pem_cert tests/data/openssl35\n");
    return 2;
  }
  dir = argv[1];
  pem_lax();
  openssl_files();
  /* the strings */
  check(strstr(mldsa_strerror(MLDSA_ERR_KEY), "secret") == NULL,
        "MLDSA_ERR_KEY's text does not say \"secret\" (also prepared public keys)");
  uint8_t w[16];
  memset(w, 0xAA, sizeof w);
  mldsa_wipe(w + 1, 14);
  check(w[0] == 0xAA && w[15] == 0xAA && w[1] == 0 && w[14] == 0, "mldsa_wipe");
  mldsa_wipe(NULL, 0);
  if (failures) {
    printf("test_pem_cert: %d failures\n", failures);
    return 1;
  }
  printf("test_pem_cert: lax PEM, pre-RFC key forms and certificates as expected\n");
  return 0;
}
