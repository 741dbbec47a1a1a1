/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Keys in RFC 9881 formats (mldsa_public_key_encode/decode, mldsa_private_key_encode/
 * decode, mldsa_generate_seed): round trips, the exact bytes of the headers, the argument
 * checks (nothing written), and a table of malformed encodings, each with its expected
 * code, whose count is printed.
 *
 * The malformed encodings are built here with a small DER builder of the test's own (not
 * the library's writer): for each parameter set, the v1 PKCS#8 key in each form, a v2 key
 * with its publicKey, and the SubjectPublicKeyInfo are the bases; the table varies them
 * (every length off by one, truncation at every offset, a trailing byte, OIDs, parameters,
 * versions, sizes, flipped bits, publicKey) and adds PEM faults. Every decode starts with
 * its outputs filled with 0xAA: after an error they must be zero (and the output length,
 * set and has_seed zero too). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"

#define PK_MAX 2592
#define SK_MAX 4896
#define BUF_MAX 32768
#define FILL 0xAA

static const mldsa_param params[3] = {MLDSA_44, MLDSA_65, MLDSA_87};

/* ---------------------------------------------------------------- a DER builder */

typedef struct {
  uint8_t d[BUF_MAX];
  size_t n;
} bytes;

static void put(bytes *b, const void *p, size_t n) {
  ck_assert_uint_le(b->n + n, sizeof b->d);
  memcpy(b->d + b->n, p, n);
  b->n += n;
}

static void put_byte(bytes *b, uint8_t v) { put(b, &v, 1); }

/* Appends tag, minimal length and contents. */
static void put_tlv(bytes *b, uint8_t tag, const uint8_t *c, size_t n) {
  put_byte(b, tag);
  if (n < 0x80) {
    put_byte(b, (uint8_t)n);
  } else if (n < 0x100) {
    put_byte(b, 0x81);
    put_byte(b, (uint8_t)n);
  } else {
    put_byte(b, 0x82);
    put_byte(b, (uint8_t)(n >> 8));
    put_byte(b, (uint8_t)n);
  }
  put(b, c, n);
}

static void wrap(bytes *b, uint8_t tag, const bytes *inner) { put_tlv(b, tag, inner->d, inner->n); }

static const uint8_t nist_sig_arc[8] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03};

static uint8_t oid_arc(mldsa_param p) { return p == MLDSA_44 ? 0x11 : p == MLDSA_65 ? 0x12 : 0x13; }

/* How a test key deviates from the canonical encoding. */
typedef struct {
  int version;        /* 0 or 1; other values written as given (one byte) */
  const uint8_t *oid; /* NULL: the set's OID */
  size_t oid_len;
  int params_null;                  /* NULL parameters after the OID */
  int form;                         /* 1 seed, 2 expanded, 3 both */
  size_t seed_len;                  /* bytes of seed written (32 normally) */
  const uint8_t *expanded_override; /* NULL: the key's own */
  size_t expanded_len;
  int attributes;         /* add [0] attributes */
  int public_key;         /* 1: add [1] publicKey (the key's own), 2: a wrong one */
  size_t public_len;      /* bytes of publicKey (the set's size normally) */
  int trailing_in_octets; /* a byte after the CHOICE inside privateKey */
} variant;

typedef struct {
  mldsa_param p;
  uint8_t seed[32], sk[SK_MAX], pk[PK_MAX];
  size_t sk_len, pk_len;
} test_key;

static void make_key(test_key *k, mldsa_param p, uint8_t seed_byte) {
  k->p = p;
  for (int i = 0; i < 32; ++i) k->seed[i] = (uint8_t)(seed_byte + 7 * i);
  k->sk_len = mldsa_secret_key_bytes(p);
  k->pk_len = mldsa_public_key_bytes(p);
  ck_assert_int_eq(mldsa_keygen_from_seed(p, k->pk, k->pk_len, k->sk, k->sk_len, k->seed), 0);
}

static void put_algorithm(bytes *b, const test_key *k, const variant *v) {
  bytes alg = {.n = 0};
  uint8_t oid[9];
  memcpy(oid, nist_sig_arc, 8);
  oid[8] = oid_arc(k->p);
  if (v->oid)
    put_tlv(&alg, 0x06, v->oid, v->oid_len);
  else
    put_tlv(&alg, 0x06, oid, sizeof oid);
  if (v->params_null) put(&alg, "\x05\x00", 2);
  wrap(b, 0x30, &alg);
}

static void build_private(bytes *out, const test_key *k, const variant *v) {
  static uint8_t long_seed[64];
  memcpy(long_seed, k->seed, 32);
  const uint8_t *expanded = v->expanded_override ? v->expanded_override : k->sk;
  size_t expanded_len = v->expanded_override ? v->expanded_len : k->sk_len;
  bytes choice = {.n = 0}, both = {.n = 0}, oak = {.n = 0};
  if (v->form == 1) {
    put_tlv(&choice, 0x80, long_seed, v->seed_len);
  } else if (v->form == 2) {
    put_tlv(&choice, 0x04, expanded, expanded_len);
  } else {
    put_tlv(&both, 0x04, long_seed, v->seed_len);
    put_tlv(&both, 0x04, expanded, expanded_len);
    wrap(&choice, 0x30, &both);
  }
  if (v->trailing_in_octets) put_byte(&choice, 0);
  uint8_t version = (uint8_t)v->version;
  put_tlv(&oak, 0x02, &version, 1);
  put_algorithm(&oak, k, v);
  wrap(&oak, 0x04, &choice);
  if (v->attributes) {
    /* one Attribute: SEQUENCE { OID 1.2.3, SET { UTF8String "x" } } */
    static const uint8_t attr[] = {0x30, 0x0A, 0x06, 0x02, 0x2A, 0x03,
                                   0x31, 0x04, 0x0C, 0x02, 0x68, 0x69};
    put_tlv(&oak, 0xA0, attr, sizeof attr);
  }
  if (v->public_key) {
    static uint8_t bits[1 + PK_MAX + 1];
    bits[0] = 0;
    memcpy(bits + 1, k->pk, k->pk_len);
    bits[1 + k->pk_len] = 0;
    if (v->public_key == 2) bits[1 + 5] ^= 0x10;
    put_tlv(&oak, 0x81, bits, 1 + v->public_len);
  }
  out->n = 0;
  wrap(out, 0x30, &oak);
}

static variant canonical(int form, mldsa_param p) {
  variant v = {.version = 0, .form = form, .seed_len = 32, .public_len = mldsa_public_key_bytes(p)};
  return v;
}

static void build_spki(bytes *out, const test_key *k, const variant *v, uint8_t unused_bits,
                       size_t pk_len) {
  static uint8_t bits[1 + PK_MAX + 1];
  bytes spki = {.n = 0};
  put_algorithm(&spki, k, v);
  bits[0] = unused_bits;
  memcpy(bits + 1, k->pk, k->pk_len);
  bits[1 + k->pk_len] = 0;
  put_tlv(&spki, 0x03, bits, 1 + pk_len);
  out->n = 0;
  wrap(out, 0x30, &spki);
}

/* ---------------------------------------------------------------- decoding with checks */

static unsigned cases_run, cases_by_code[10];

/* Decodes in as a private key (kind 'S') or public key ('P'); checks the code and, on an
 * error, that every output is zero. */
static void expect(char kind, const uint8_t *in, size_t n, int want, const char *what) {
  static uint8_t out[SK_MAX], seed[32];
  size_t len = 12345;
  int has = 7;
  mldsa_param p = (mldsa_param)99;
  memset(out, FILL, sizeof out);
  memset(seed, FILL, sizeof seed);
  int rc = kind == 'S' ? mldsa_private_key_decode(&p, out, sizeof out, &len, seed, &has, in, n)
                       : mldsa_public_key_decode(&p, out, sizeof out, &len, in, n);
  ck_assert_msg(rc == want, "%s: decode returned %d (%s), want %d", what, rc, mldsa_strerror(rc),
                want);
  if (rc != MLDSA_OK) {
    uint8_t acc = 0;
    for (size_t i = 0; i < sizeof out; ++i) acc |= out[i];
    ck_assert_msg(acc == 0, "%s: output not zeroed", what);
    ck_assert_msg(len == 0 && p == 0, "%s: length or set not zeroed", what);
    if (kind == 'S') {
      ck_assert_msg(has == 0, "%s: has_seed not zeroed", what);
      uint8_t acc_seed = 0;
      for (size_t i = 0; i < sizeof seed; ++i) acc_seed |= seed[i];
      ck_assert_msg(acc_seed == 0, "%s: seed not zeroed", what);
    }
  }
  ++cases_run;
  ++cases_by_code[-want];
}

/* Walks the DER tree and calls f on the offset of the last length byte of every element:
 * constructed elements are entered, and so is the privateKey OCTET STRING (an element
 * directly inside the outer SEQUENCE), which holds the DER of the CHOICE. */
static void each_length_byte(const uint8_t *d, size_t n, void (*f)(size_t off, void *), void *arg,
                             size_t base, int depth) {
  size_t pos = 0;
  while (pos + 2 <= n) {
    uint8_t tag = d[pos];
    size_t len = d[pos + 1], hdr = 2;
    if (len & 0x80) {
      size_t nb = len & 0x7F;
      len = 0;
      for (size_t i = 0; i < nb; ++i) len = len << 8 | d[pos + 2 + i];
      hdr += nb;
    }
    f(base + pos + hdr - 1, arg);
    if ((tag & 0x20) || (tag == 0x04 && depth == 1))
      each_length_byte(d + pos + hdr, len, f, arg, base + pos + hdr, depth + 1);
    pos += hdr + len;
  }
}

typedef struct {
  char kind;
  const bytes *base;
  const char *name;
} length_ctx;

static void length_off_by_one(size_t off, void *arg) {
  const length_ctx *c = arg;
  static bytes b;
  for (int delta = -1; delta <= 1; delta += 2) {
    b = *c->base;
    b.d[off] = (uint8_t)(b.d[off] + delta);
    char what[128];
    snprintf(what, sizeof what, "%s: length byte at %zu %+d", c->name, off, delta);
    expect(c->kind, b.d, b.n, MLDSA_ERR_ENCODING, what);
  }
}

/* The structural faults common to every base: lengths, truncations, a trailing byte. */
static void structural(char kind, const bytes *base, const char *name) {
  char what[128];
  snprintf(what, sizeof what, "%s: as built", name);
  expect(kind, base->d, base->n, MLDSA_OK, what);
  length_ctx c = {kind, base, name};
  each_length_byte(base->d, base->n, length_off_by_one, &c, 0, 0);
  for (size_t cut = 0; cut < base->n; ++cut) {
    snprintf(what, sizeof what, "%s: truncated to %zu bytes", name, cut);
    expect(kind, base->d, cut, MLDSA_ERR_ENCODING, what);
  }
  static bytes b;
  b = *base;
  put_byte(&b, 0);
  snprintf(what, sizeof what, "%s: trailing byte", name);
  expect(kind, b.d, b.n, MLDSA_ERR_ENCODING, what);
}

static void expect_private(const test_key *k, const variant *v, int want, const char *what) {
  static bytes b;
  build_private(&b, k, v);
  expect('S', b.d, b.n, want, what);
}

/* ---------------------------------------------------------------- the table */

START_TEST(malformed_encodings) {
  static test_key keys[3];
  for (int i = 0; i < 3; ++i) make_key(&keys[i], params[i], (uint8_t)(0x40 + i));
  static bytes b;
  char name[96];
  for (int i = 0; i < 3; ++i) {
    const test_key *k = &keys[i];
    const test_key *other = &keys[(i + 1) % 3];
    mldsa_param p = k->p;
    /* every length off by one, truncation everywhere, trailing byte: each form, v2 with
       publicKey, attributes, and the SubjectPublicKeyInfo */
    for (int form = 1; form <= 3; ++form) {
      variant v = canonical(form, p);
      build_private(&b, k, &v);
      snprintf(name, sizeof name, "ML-DSA-%d form %d", p, form);
      structural('S', &b, name);
    }
    variant v2 = canonical(3, p);
    v2.version = 1;
    v2.public_key = 1;
    v2.attributes = 1;
    build_private(&b, k, &v2);
    snprintf(name, sizeof name, "ML-DSA-%d v2 with attributes and publicKey", p);
    structural('S', &b, name);
    variant vp = canonical(1, p);
    build_spki(&b, k, &vp, 0, k->pk_len);
    snprintf(name, sizeof name, "ML-DSA-%d SubjectPublicKeyInfo", p);
    structural('P', &b, name);

    for (int form = 1; form <= 3; ++form) {
      variant v = canonical(form, p);
      /* OIDs: another set's (the sizes then disagree), unknown arcs, another algorithm */
      static const uint8_t ed25519[] = {0x2B, 0x65, 0x70};
      static const uint8_t mlkem768[] = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x02};
      uint8_t arc16[9], arc20[9], longer[10];
      memcpy(arc16, nist_sig_arc, 8);
      arc16[8] = 0x10;
      memcpy(arc20, nist_sig_arc, 8);
      arc20[8] = 0x14;
      memcpy(longer, nist_sig_arc, 8);
      longer[8] = oid_arc(p);
      longer[9] = 0x01;
      uint8_t other_oid[9];
      memcpy(other_oid, nist_sig_arc, 8);
      other_oid[8] = oid_arc(other->p);
      const struct {
        const uint8_t *oid;
        size_t len;
        const char *what;
      } oids[] = {{ed25519, 3, "Ed25519 OID"},
                  {mlkem768, 9, "ML-KEM-768 OID"},
                  {arc16, 9, "OID arc 16"},
                  {arc20, 9, "OID arc 20"},
                  {longer, 10, "OID with an extra arc"}};
      for (size_t j = 0; j < sizeof oids / sizeof oids[0]; ++j) {
        variant w = v;
        w.oid = oids[j].oid;
        w.oid_len = oids[j].len;
        snprintf(name, sizeof name, "ML-DSA-%d form %d: %s", p, form, oids[j].what);
        expect_private(k, &w, MLDSA_ERR_ENCODING, name);
      }
      variant w = v;
      w.oid = other_oid;
      w.oid_len = 9;
      snprintf(name, sizeof name, "ML-DSA-%d form %d: OID of ML-DSA-%d", p, form, other->p);
      /* the seed form has the same size under every OID: it is another set's key then */
      expect_private(k, &w, form == 1 ? MLDSA_OK : MLDSA_ERR_ENCODING, name);
      w = v;
      w.params_null = 1;
      snprintf(name, sizeof name, "ML-DSA-%d form %d: parameters NULL", p, form);
      expect_private(k, &w, MLDSA_ERR_ENCODING, name);
      static const int versions[] = {2, 3, 0x7F, 0x80, 0xFF};
      for (size_t j = 0; j < sizeof versions / sizeof versions[0]; ++j) {
        w = v;
        w.version = versions[j];
        snprintf(name, sizeof name, "ML-DSA-%d form %d: version byte %d", p, form, versions[j]);
        expect_private(k, &w, MLDSA_ERR_ENCODING, name);
      }
      w = v;
      w.trailing_in_octets = 1;
      snprintf(name, sizeof name, "ML-DSA-%d form %d: byte after the CHOICE", p, form);
      expect_private(k, &w, MLDSA_ERR_ENCODING, name);
      w = v;
      w.public_key = 1;
      snprintf(name, sizeof name, "ML-DSA-%d form %d: v1 with publicKey", p, form);
      expect_private(k, &w, MLDSA_ERR_ENCODING, name);
      w.version = 1;
      snprintf(name, sizeof name, "ML-DSA-%d form %d: v2 with its publicKey", p, form);
      expect_private(k, &w, MLDSA_OK, name);
      w.public_key = 2;
      snprintf(name, sizeof name, "ML-DSA-%d form %d: v2 with a mismatched publicKey", p, form);
      expect_private(k, &w, MLDSA_ERR_KEY, name);
      w.public_key = 1;
      for (int d = -1; d <= 1; d += 2) {
        w.public_len = k->pk_len + (size_t)d;
        snprintf(name, sizeof name, "ML-DSA-%d form %d: publicKey of %zu bytes", p, form,
                 w.public_len);
        expect_private(k, &w, MLDSA_ERR_ENCODING, name);
      }
      w = v;
      w.version = 1;
      w.attributes = 1;
      snprintf(name, sizeof name, "ML-DSA-%d form %d: v2 with attributes", p, form);
      expect_private(k, &w, MLDSA_OK, name);
      if (form != 2) {
        for (size_t len = 31; len <= 33; len += 2) {
          w = v;
          w.seed_len = len;
          snprintf(name, sizeof name, "ML-DSA-%d form %d: seed of %zu bytes", p, form, len);
          expect_private(k, &w, MLDSA_ERR_ENCODING, name);
        }
      }
      if (form != 1) {
        for (int j = 0; j < 3; ++j) {
          if (j == i) continue;
          w = v;
          w.expanded_override = keys[j].sk;
          w.expanded_len = keys[j].sk_len;
          snprintf(name, sizeof name, "ML-DSA-%d form %d: expanded key of ML-DSA-%d", p, form,
                   keys[j].p);
          expect_private(k, &w, MLDSA_ERR_ENCODING, name);
        }
        static uint8_t flipped[SK_MAX + 1];
        for (size_t len = k->sk_len - 1; len <= k->sk_len + 1; len += 2) {
          memset(flipped, 0, sizeof flipped);
          memcpy(flipped, k->sk, k->sk_len < len ? k->sk_len : len);
          w = v;
          w.expanded_override = flipped;
          w.expanded_len = len;
          snprintf(name, sizeof name, "ML-DSA-%d form %d: expanded key of %zu bytes", p, form, len);
          expect_private(k, &w, MLDSA_ERR_ENCODING, name);
        }
        /* one flipped bit in the expanded key: rho, K, tr, s1, s2, t0, the last byte */
        const size_t offsets[] = {0, 31, 32, 63, 64, 127, 128, 200, k->sk_len / 2, k->sk_len - 1};
        for (size_t j = 0; j < sizeof offsets / sizeof offsets[0]; ++j) {
          memcpy(flipped, k->sk, k->sk_len);
          flipped[offsets[j]] ^= (uint8_t)(1u << (j % 8));
          w = v;
          w.expanded_override = flipped;
          w.expanded_len = k->sk_len;
          snprintf(name, sizeof name, "ML-DSA-%d form %d: bit %zu of expanded byte %zu flipped", p,
                   form, j % 8, offsets[j]);
          /* K (bytes 32..63) is not derived from anything the import check can recompute:
             an expanded key alone with another K is a valid (other) key */
          int k_only = form == 2 && offsets[j] >= 32 && offsets[j] < 64;
          expect_private(k, &w, k_only ? MLDSA_OK : MLDSA_ERR_KEY, name);
        }
      }
      if (form == 3) {
        /* one flipped bit in the seed of a "both" key: every byte */
        test_key flipped_seed = *k;
        for (size_t j = 0; j < 32; ++j) {
          memcpy(flipped_seed.seed, k->seed, 32);
          flipped_seed.seed[j] ^= (uint8_t)(1u << (j % 8));
          snprintf(name, sizeof name, "ML-DSA-%d both: bit %zu of seed byte %zu flipped", p, j % 8,
                   j);
          expect_private(&flipped_seed, &v, MLDSA_ERR_KEY, name);
        }
      }
    }
    /* SubjectPublicKeyInfo faults */
    variant v = canonical(1, p);
    build_spki(&b, k, &v, 1, k->pk_len);
    expect('P', b.d, b.n, MLDSA_ERR_ENCODING, "SPKI: unused bits 1");
    for (int d = -1; d <= 1; d += 2) {
      build_spki(&b, k, &v, 0, k->pk_len + (size_t)d);
      expect('P', b.d, b.n, MLDSA_ERR_ENCODING, "SPKI: public key one byte off");
    }
    variant w = v;
    w.params_null = 1;
    build_spki(&b, k, &w, 0, k->pk_len);
    expect('P', b.d, b.n, MLDSA_ERR_ENCODING, "SPKI: parameters NULL");
    uint8_t other_oid[9];
    memcpy(other_oid, nist_sig_arc, 8);
    other_oid[8] = oid_arc(other->p);
    w = v;
    w.oid = other_oid;
    w.oid_len = 9;
    build_spki(&b, k, &w, 0, k->pk_len);
    expect('P', b.d, b.n, MLDSA_ERR_ENCODING, "SPKI: OID of another set");
    /* a private key is not a public key, and the reverse */
    variant pv = canonical(3, p);
    build_private(&b, k, &pv);
    expect('P', b.d, b.n, MLDSA_ERR_ENCODING, "SPKI decoder given a private key");
    build_spki(&b, k, &v, 0, k->pk_len);
    expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "private decoder given an SPKI");
  }
  printf(
      "test_keyformat: %u malformed and valid encodings decoded with the expected code "
      "(%u OK, %u MLDSA_ERR_KEY, %u MLDSA_ERR_ENCODING)\n",
      cases_run, cases_by_code[0], cases_by_code[7], cases_by_code[9]);
}
END_TEST

/* ---------------------------------------------------------------- PEM */

/* PEM of DER built here: label, line length, line ending, and what follows END. */
static void make_pem(bytes *out, const char *label, const bytes *der, size_t line,
                     const char *eol) {
  static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char text[64];
  out->n = 0;
  snprintf(text, sizeof text, "-----BEGIN %s-----%s", label, eol);
  put(out, text, strlen(text));
  size_t col = 0;
  for (size_t i = 0; i < der->n; i += 3) {
    uint32_t w = (uint32_t)der->d[i] << 16;
    size_t n = der->n - i < 3 ? der->n - i : 3;
    if (n > 1) w |= (uint32_t)der->d[i + 1] << 8;
    if (n > 2) w |= der->d[i + 2];
    for (size_t j = 0; j < 4; ++j) {
      put_byte(out, j <= n ? (uint8_t)digits[(w >> (18 - 6 * j)) & 63] : '=');
      if (++col == line) {
        put(out, eol, strlen(eol));
        col = 0;
      }
    }
  }
  if (col) put(out, eol, strlen(eol));
  snprintf(text, sizeof text, "-----END %s-----%s", label, eol);
  put(out, text, strlen(text));
}

/* Replaces the first occurrence of from (in the text after the BEGIN line) by to. */
static int replace_in(bytes *b, const char *from, const char *to) {
  size_t fl = strlen(from), tl = strlen(to);
  for (size_t i = 12; i + fl <= b->n; ++i) {
    if (memcmp(b->d + i, from, fl) != 0) continue;
    memmove(b->d + i + tl, b->d + i + fl, b->n - i - fl);
    memcpy(b->d + i, to, tl);
    b->n = b->n - fl + tl;
    return 1;
  }
  return 0;
}

START_TEST(pem_encodings) {
  static test_key k;
  static bytes der, pem, b;
  unsigned before = cases_run;
  make_key(&k, params[_i], 0x33);
  variant v = canonical(3, k.p);
  build_private(&der, &k, &v);
  /* accepted: 64-character lines, 76, one line, 1-character lines (4 for a group), CRLF */
  const size_t lines[] = {64, 76, 100000, 1, 4};
  for (size_t j = 0; j < 5; ++j) {
    make_pem(&pem, "PRIVATE KEY", &der, lines[j], "\n");
    expect('S', pem.d, pem.n, MLDSA_OK, "PEM, lines of varied length");
    make_pem(&pem, "PRIVATE KEY", &der, lines[j], "\r\n");
    expect('S', pem.d, pem.n, MLDSA_OK, "PEM with CRLF");
  }
  make_pem(&pem, "PRIVATE KEY", &der, 64, "\n");
  b = pem;
  b.n--;
  expect('S', b.d, b.n, MLDSA_OK, "PEM without the last line ending");
  /* refused */
  const char *labels[] = {"PUBLIC KEY",   "RSA PRIVATE KEY", "ML-DSA PRIVATE KEY",
                          "PRIVATE  KEY", "private key",     "ENCRYPTED PRIVATE KEY"};
  for (size_t j = 0; j < sizeof labels / sizeof labels[0]; ++j) {
    make_pem(&b, labels[j], &der, 64, "\n");
    expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "PEM with a wrong label");
  }
  b = pem;
  ck_assert(replace_in(&b, "-----END PRIVATE KEY-----", "-----END PUBLIC KEY-----"));
  expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "PEM with another label at END");
  b = pem;
  ck_assert(replace_in(&b, "-----END PRIVATE KEY-----\n", ""));
  expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "PEM without END line");
  b = pem;
  ck_assert(replace_in(&b, "-----END PRIVATE KEY-----\n", "-----END PRIVATE KEY----"));
  expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "PEM with a cut END line");
  const char *bad_digits[] = {"*", "-", ".", "\x80", "\0", "_"};
  for (size_t j = 0; j < sizeof bad_digits / sizeof bad_digits[0]; ++j) {
    b = pem;
    b.d[100] = (uint8_t)bad_digits[j][0];
    expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "PEM with a bad base64 character");
  }
  /* RFC 7468's lax grammar (test_pem_cert has the rest): whitespace is skipped, text
   * around the block ignored */
  const char *spaces[] = {" ", "\t", "\r", "\n"};
  for (size_t j = 0; j < sizeof spaces / sizeof spaces[0]; ++j) {
    b = pem;
    b.d[100] = (uint8_t)spaces[j][0];
    expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "PEM with a digit replaced by whitespace");
  }
  b = pem;
  ck_assert(replace_in(&b, "\n", "\n\n"));
  expect('S', b.d, b.n, MLDSA_OK, "PEM with an empty line");
  b = pem;
  ck_assert(replace_in(&b, "\n", " \n"));
  expect('S', b.d, b.n, MLDSA_OK, "PEM with a space at a line end");
  b = pem;
  ck_assert(replace_in(&b, "\n", "\r"));
  expect('S', b.d, b.n, MLDSA_OK, "PEM with a lone CR");
  b = pem;
  put(&b, "x", 1);
  expect('S', b.d, b.n, MLDSA_OK, "PEM with text after END");
  b = pem;
  put(&b, "\n", 1);
  expect('S', b.d, b.n, MLDSA_OK, "PEM with two line endings after END");
  b.n = 0;
  put(&b, " ", 1);
  put(&b, pem.d, pem.n);
  expect('S', b.d, b.n, MLDSA_OK, "PEM after a space");
  b.n = 0;
  put(&b, "x", 1);
  put(&b, pem.d, pem.n);
  expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "PEM with text before BEGIN on its line");
  b = pem;
  b.d[12] ^= 0x20; /* "-----BEGIN PrIVATE" */
  expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "PEM with a changed BEGIN label");
  /* a missing base64 digit, one too many, padding in the middle, non-canonical padding */
  b = pem;
  ck_assert(replace_in(&b, "\n-----END", "A\n-----END"));
  expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "PEM with a digit too many");
  b = pem;
  memmove(b.d + 100, b.d + 101, b.n - 101);
  b.n--;
  expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "PEM with a digit missing");
  b = pem;
  b.d[100] = '=';
  expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "PEM with padding in the middle");
  /* the ML-DSA-xx both DER lengths are 2626 / 4098 / 4962 bytes: 1, 0, 0 mod 3; find a
     text with padding and make its dropped bits non-zero */
  size_t pad = 0;
  char *eq = memchr(pem.d, '=', pem.n);
  if (eq != NULL) {
    pad = 1;
    b = pem;
    size_t at = (size_t)((uint8_t *)eq - pem.d) - 1;
    b.d[at] = b.d[at] == 'A' ? 'B' : 'A'; /* low bits of the last digit now non-zero, or */
    if (b.d[at] == 'A') b.d[at] = 'B';
    expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "PEM with non-canonical padding bits");
    b = pem;
    ck_assert(replace_in(&b, "=", "=="));
    expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "PEM with padding too long");
  }
  /* the public decoder wants PUBLIC KEY */
  variant vp = canonical(1, k.p);
  build_spki(&der, &k, &vp, 0, k.pk_len);
  make_pem(&b, "PUBLIC KEY", &der, 64, "\n");
  expect('P', b.d, b.n, MLDSA_OK, "SPKI PEM");
  make_pem(&b, "PRIVATE KEY", &der, 64, "\n");
  expect('P', b.d, b.n, MLDSA_ERR_ENCODING, "SPKI PEM labelled PRIVATE KEY");
  make_pem(&b, "CERTIFICATE", &der, 64, "\n");
  expect('P', b.d, b.n, MLDSA_ERR_ENCODING, "SPKI PEM labelled CERTIFICATE");
  b = pem;
  expect('P', b.d, b.n, MLDSA_ERR_ENCODING, "private key PEM to the public decoder");
  /* the empty input, garbage, BER indefinite length, non-minimal lengths */
  expect('S', (const uint8_t *)"", 0, MLDSA_ERR_ENCODING, "empty input");
  expect('P', NULL, 0, MLDSA_ERR_ENCODING, "empty input (NULL)");
  expect('S', (const uint8_t *)"-----BEGIN ", 11, MLDSA_ERR_ENCODING, "only BEGIN");
  const uint8_t indefinite[] = {0x30, 0x80, 0x02, 0x01, 0x00, 0x00, 0x00};
  expect('S', indefinite, sizeof indefinite, MLDSA_ERR_ENCODING, "indefinite length");
  variant vs = canonical(1, k.p);
  build_private(&der, &k, &vs); /* 30 34 ...: re-encode the outer length as 81 34, 82 00 34 */
  b.n = 0;
  put(&b, "\x30\x81", 2);
  put(&b, der.d + 1, der.n - 1);
  expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "long-form length below 128");
  b.n = 0;
  put(&b, "\x30\x82\x00", 3);
  put(&b, der.d + 1, der.n - 1);
  expect('S', b.d, b.n, MLDSA_ERR_ENCODING, "length with a leading zero byte");
  printf("test_keyformat: ML-DSA-%d: %u PEM and framing cases (padding case %s)\n", k.p,
         cases_run - before, pad ? "run" : "not applicable");
}
END_TEST

/* ---------------------------------------------------------------- round trips */

START_TEST(round_trips) {
  static test_key k;
  static uint8_t out[BUF_MAX], sk[SK_MAX], pk[PK_MAX], seed[32];
  make_key(&k, params[_i], 0x11);
  for (int f = MLDSA_DER; f <= MLDSA_PEM; ++f) {
    size_t n, want;
    ck_assert_int_eq(mldsa_public_key_encode(k.p, f, NULL, 0, &want, k.pk, k.pk_len), 0);
    ck_assert_int_eq(mldsa_public_key_encode(k.p, f, out, sizeof out, &n, k.pk, k.pk_len), 0);
    ck_assert_uint_eq(n, want);
    mldsa_param p;
    size_t len;
    ck_assert_int_eq(mldsa_public_key_decode(&p, pk, sizeof pk, &len, out, n), 0);
    ck_assert_int_eq(p, k.p);
    ck_assert_uint_eq(len, k.pk_len);
    ck_assert_mem_eq(pk, k.pk, len);
    for (int form = MLDSA_SK_SEED; form <= MLDSA_SK_BOTH; ++form) {
      const uint8_t *s = form == MLDSA_SK_EXPANDED ? NULL : k.seed;
      const uint8_t *e = form == MLDSA_SK_SEED ? NULL : k.sk;
      size_t e_len = e ? k.sk_len : 0;
      ck_assert_int_eq(mldsa_private_key_encode(k.p, f, form, NULL, 0, &want, s, e, e_len), 0);
      ck_assert_int_eq(mldsa_private_key_encode(k.p, f, form, out, sizeof out, &n, s, e, e_len), 0);
      ck_assert_uint_eq(n, want);
      int has;
      ck_assert_int_eq(mldsa_private_key_decode(&p, sk, sizeof sk, &len, seed, &has, out, n), 0);
      ck_assert_int_eq(p, k.p);
      ck_assert_uint_eq(len, k.sk_len);
      ck_assert_mem_eq(sk, k.sk, len);
      ck_assert_int_eq(has, form != MLDSA_SK_EXPANDED);
      if (has) ck_assert_mem_eq(seed, k.seed, 32);
      /* exactly the capacity needed is enough; the seed and has_seed outputs are optional */
      ck_assert_int_eq(mldsa_private_key_decode(&p, sk, k.sk_len, &len, NULL, NULL, out, n), 0);
      /* the DER's first bytes: SEQUENCE, version 0, the set's OID */
      if (f == MLDSA_DER) {
        static const uint8_t head[] = {0x02, 0x01, 0x00, 0x30, 0x0B, 0x06, 0x09, 0x60,
                                       0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03};
        size_t h = out[1] < 0x80 ? 2 : 2 + (out[1] & 0x7F);
        ck_assert_mem_eq(out + h, head, sizeof head);
        ck_assert_uint_eq(out[h + sizeof head], oid_arc(k.p));
        const uint8_t *c = out + h + sizeof head + 1;
        ck_assert_uint_eq(c[0], 0x04);
        size_t ch = c[1] < 0x80 ? 2 : 2 + (c[1] & 0x7F);
        ck_assert_uint_eq(c[ch], form == MLDSA_SK_SEED       ? 0x80
                                 : form == MLDSA_SK_EXPANDED ? 0x04
                                                             : 0x30);
        if (form == MLDSA_SK_SEED) ck_assert_uint_eq(n, 54);
      } else {
        ck_assert(memcmp(out, "-----BEGIN PRIVATE KEY-----\n", 28) == 0);
        ck_assert(memcmp(out + n - 26, "-----END PRIVATE KEY-----\n", 26) == 0);
      }
    }
  }
}
END_TEST

/* ---------------------------------------------------------------- argument checks */

static int all_fill(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (p[i] != FILL) return 0;
  return 1;
}

START_TEST(argument_checks) {
  static test_key k, k2;
  static uint8_t out[BUF_MAX], sk[SK_MAX], seed[32], der[BUF_MAX];
  make_key(&k, MLDSA_65, 0x21);
  make_key(&k2, MLDSA_65, 0x22);
  size_t n = 777, der_len;
  mldsa_param p = (mldsa_param)99;
  int has = 5;
  ck_assert_int_eq(mldsa_private_key_encode(k.p, MLDSA_DER, MLDSA_SK_SEED, der, sizeof der,
                                            &der_len, k.seed, NULL, 0),
                   0);
#define UNTOUCHED() \
  ck_assert(all_fill(out, sizeof out) && n == 777 && p == (mldsa_param)99 && has == 5)
#define RESET() (memset(out, FILL, sizeof out), n = 777, p = (mldsa_param)99, has = 5)
  RESET();
  /* encoders: parameter set, format, form, NULLs, lengths: nothing written */
  ck_assert_int_eq(
      mldsa_public_key_encode((mldsa_param)66, MLDSA_DER, out, sizeof out, &n, k.pk, k.pk_len),
      MLDSA_ERR_PARAM);
  ck_assert_int_eq(
      mldsa_public_key_encode(k.p, (mldsa_format)2, out, sizeof out, &n, k.pk, k.pk_len),
      MLDSA_ERR_ENCODING);
  ck_assert_int_eq(mldsa_public_key_encode(k.p, MLDSA_DER, out, sizeof out, NULL, k.pk, k.pk_len),
                   MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_public_key_encode(k.p, MLDSA_DER, out, sizeof out, &n, NULL, k.pk_len),
                   MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_public_key_encode(k.p, MLDSA_DER, NULL, 10, &n, k.pk, k.pk_len),
                   MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_public_key_encode(k.p, MLDSA_DER, out, sizeof out, &n, k.pk, k.pk_len - 1),
                   MLDSA_ERR_LENGTH);
  ck_assert_int_eq(mldsa_public_key_encode(k.p, MLDSA_DER, out, 1973, &n, k.pk, k.pk_len),
                   MLDSA_ERR_LENGTH);
  UNTOUCHED();
  ck_assert_int_eq(mldsa_public_key_encode(k.p, MLDSA_DER, out, 1974, &n, k.pk, k.pk_len), 0);
  ck_assert_uint_eq(n, 1974);
  RESET();
  ck_assert_int_eq(mldsa_private_key_encode((mldsa_param)0, MLDSA_DER, MLDSA_SK_SEED, out,
                                            sizeof out, &n, k.seed, NULL, 0),
                   MLDSA_ERR_PARAM);
  ck_assert_int_eq(mldsa_private_key_encode(k.p, MLDSA_DER, (mldsa_sk_form)0, out, sizeof out, &n,
                                            k.seed, NULL, 0),
                   MLDSA_ERR_ENCODING);
  ck_assert_int_eq(mldsa_private_key_encode(k.p, MLDSA_DER, (mldsa_sk_form)4, out, sizeof out, &n,
                                            k.seed, NULL, 0),
                   MLDSA_ERR_ENCODING);
  ck_assert_int_eq(
      mldsa_private_key_encode(k.p, MLDSA_DER, MLDSA_SK_SEED, out, sizeof out, &n, NULL, NULL, 0),
      MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_private_key_encode(k.p, MLDSA_DER, MLDSA_SK_EXPANDED, out, sizeof out, &n,
                                            k.seed, NULL, 0),
                   MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_private_key_encode(k.p, MLDSA_DER, MLDSA_SK_BOTH, out, sizeof out, &n,
                                            NULL, k.sk, k.sk_len),
                   MLDSA_ERR_NULL);
  ck_assert_int_eq(
      mldsa_private_key_encode(k.p, MLDSA_DER, MLDSA_SK_SEED, out, sizeof out, &n, k.seed, NULL, 5),
      MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_private_key_encode(k.p, MLDSA_DER, MLDSA_SK_BOTH, out, sizeof out, &n,
                                            k.seed, k.sk, k.sk_len + 1),
                   MLDSA_ERR_LENGTH);
  ck_assert_int_eq(
      mldsa_private_key_encode(k.p, MLDSA_PEM, MLDSA_SK_SEED, out, 10, &n, k.seed, NULL, 0),
      MLDSA_ERR_LENGTH);
  UNTOUCHED();
  /* errors found after the lengths: outputs zeroed */
  ck_assert_int_eq(mldsa_private_key_encode(k.p, MLDSA_DER, MLDSA_SK_BOTH, out, sizeof out, &n,
                                            k.seed, k2.sk, k2.sk_len),
                   MLDSA_ERR_KEY);
  ck_assert(n == 0 && out[0] == 0 && out[sizeof out - 1] == 0);
  RESET();
  static uint8_t bad_sk[SK_MAX];
  memcpy(bad_sk, k.sk, k.sk_len);
  bad_sk[64] ^= 1; /* tr */
  ck_assert_int_eq(mldsa_private_key_encode(k.p, MLDSA_DER, MLDSA_SK_EXPANDED, out, sizeof out, &n,
                                            NULL, bad_sk, k.sk_len),
                   MLDSA_ERR_KEY);
  ck_assert(n == 0 && out[0] == 0);
  ck_assert_int_eq(mldsa_private_key_encode(k.p, MLDSA_DER, MLDSA_SK_SEED, out, sizeof out, &n,
                                            k.seed, k2.sk, k2.sk_len),
                   MLDSA_ERR_KEY);
  /* decoders: NULLs and capacity write nothing */
  RESET();
  ck_assert_int_eq(mldsa_private_key_decode(NULL, out, sizeof out, &n, seed, &has, der, der_len),
                   MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_private_key_decode(&p, NULL, sizeof out, &n, seed, &has, der, der_len),
                   MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_private_key_decode(&p, out, sizeof out, NULL, seed, &has, der, der_len),
                   MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_private_key_decode(&p, out, sizeof out, &n, seed, &has, NULL, der_len),
                   MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_private_key_decode(&p, out, k.sk_len - 1, &n, seed, &has, der, der_len),
                   MLDSA_ERR_LENGTH);
  UNTOUCHED();
  ck_assert_int_eq(mldsa_public_key_decode(&p, out, k.pk_len - 1, &n, out, 0), MLDSA_ERR_ENCODING);
  RESET();
  ck_assert_int_eq(
      mldsa_public_key_encode(k.p, MLDSA_DER, der, sizeof der, &der_len, k.pk, k.pk_len), 0);
  ck_assert_int_eq(mldsa_public_key_decode(&p, out, k.pk_len - 1, &n, der, der_len),
                   MLDSA_ERR_LENGTH);
  ck_assert_int_eq(mldsa_public_key_decode(NULL, out, sizeof out, &n, der, der_len),
                   MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_public_key_decode(&p, NULL, sizeof out, &n, der, der_len), MLDSA_ERR_NULL);
  ck_assert_int_eq(mldsa_public_key_decode(&p, out, sizeof out, NULL, der, der_len),
                   MLDSA_ERR_NULL);
  UNTOUCHED();
  /* generate_seed */
  ck_assert_int_eq(mldsa_generate_seed(NULL), MLDSA_ERR_NULL);
  memset(seed, 0, sizeof seed);
  ck_assert_int_eq(mldsa_generate_seed(seed), 0);
  memset(sk, 0, 32);
  ck_assert(memcmp(seed, sk, 32) != 0);
  ck_assert_str_eq(mldsa_strerror(MLDSA_ERR_ENCODING),
                   "malformed or unsupported DER/PEM, or a wrong OID");
}
END_TEST

int main(void) {
  Suite *s = suite_create("keyformat");
  TCase *tc = tcase_create("keyformat");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, malformed_encodings);
  tcase_add_loop_test(tc, pem_encodings, 0, 3);
  tcase_add_loop_test(tc, round_trips, 0, 3);
  tcase_add_test(tc, argument_checks);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
