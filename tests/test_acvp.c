/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Every NIST ACVP ML-DSA vector of vectors/acvp/ (see vectors/README.md for the format):
 * keyGen, sigGen (FIPS204), sigGen (FIPS204-tr1: seed and expanded keys) and sigVer, through
 * the public API, on the ISA the library chose (capped by MLDSA_ISA).
 *
 * Each sigGen and sigVer vector also runs through the other paths to the same result:
 * - prepared keys: every vector through mldsa_sign_mu_prepared / mldsa_verify_mu_prepared
 *   with mu = SHAKE256(tr || M') computed here with the tests' own digests (test_digest.h:
 *   OpenSSL, or libgcrypt on Windows; M' framed per interface), and the pure ones also
 *   through mldsa_sign_prepared / mldsa_verify_prepared;
 * - streaming mu: the pure ones through mldsa_mu_init / _init_secret, mldsa_mu_update in
 *   pieces whose sizes vary per vector (1 byte, around the SHAKE256 rate, larger), and
 *   mldsa_mu_final, then mldsa_sign_mu / mldsa_verify_mu.
 *
 * Usage: test_acvp [vector-dir]   (default: the source tree's vectors/, set by CMake)
 *
 * The files are read (gzip) and parsed (cJSON) once, before the Check runner starts; each
 * vector is then one iteration of a loop test, so a failing vector is reported with its
 * tcId and does not hide the others. The per-file, per-parameter-set pass counts live in a
 * shared anonymous mapping (so they would survive Check's fork mode too) and are printed at
 * the end from the comparisons that actually ran. A vector the library cannot run (unknown
 * hash, missing field, an error code) is a failure, never a skip.
 *
 * Check runs the tests in this process (CK_NOFORK) unless CK_FORK is set in the
 * environment: a fork per vector of a process holding the parsed files costs 2 ms natively
 * and 70 ms under AddressSanitizer, i.e. more than the vectors themselves. A crash is
 * reported with the vector it happened in (signal handler below) and fails the ctest; a
 * hang is caught by the ctest TIMEOUT. */
#define _DEFAULT_SOURCE
#include <check.h>
#include <cjson/cJSON.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "mldsa.h"
#include "test_common.h"
#include "test_mman.h"
#include "test_digest.h"

/* ---------------------------------------------------------------- vector files */

enum { F_KEYGEN, F_SIGGEN, F_SIGGEN_TR1, F_SIGVER, NUM_FILES };
enum { NUM_SETS = 3 };

static const mldsa_param set_param[NUM_SETS] = {MLDSA_44, MLDSA_65, MLDSA_87};
static const char *const set_name[NUM_SETS] = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"};

typedef struct {
  const cJSON *group;
  const cJSON *test;
  int set; /* index into set_param */
  int tcid;
} vector;

typedef struct {
  const char *label;     /* as printed */
  const char *file;      /* under <vector-dir>/acvp/ */
  const char *mode;      /* the file's "mode" */
  const char *revision;  /* the file's "revision" */
  size_t expected;       /* tests in the file (vectors/README.md) */
  cJSON *root;
  vector *v;
  size_t n;
  char error[1400]; /* why the file did not load, empty if it did */
} vector_file;

#define FILE_ENTRY(lab, name, md, rev, n) \
  {.label = lab, .file = name, .mode = md, .revision = rev, .expected = n}
static vector_file files[NUM_FILES] = {
    [F_KEYGEN] = FILE_ENTRY("keyGen", "ML-DSA-keyGen-FIPS204.json.gz", "keyGen", "FIPS204", 75),
    [F_SIGGEN] = FILE_ENTRY("sigGen", "ML-DSA-sigGen-FIPS204.json.gz", "sigGen", "FIPS204", 360),
    [F_SIGGEN_TR1] = FILE_ENTRY("sigGen-tr1", "ML-DSA-sigGen-FIPS204-tr1.json.gz", "sigGen",
                                "FIPS204-tr1", 720),
    [F_SIGVER] = FILE_ENTRY("sigVer", "ML-DSA-sigVer-FIPS204.json.gz", "sigVer", "FIPS204", 180),
};

/* Counts in a shared mapping: they survive Check's fork mode (CK_FORK=yes). */
typedef struct {
  unsigned total[NUM_FILES][NUM_SETS];  /* vectors in the file (set at load) */
  unsigned passed[NUM_FILES][NUM_SETS]; /* vectors whose every comparison succeeded */
  unsigned sign_verified;               /* sigGen signatures also checked by verify */
  unsigned pk_derived;                  /* expanded keys that gave a pk */
  unsigned prepared_sign;               /* sigGen vectors signed through a prepared key */
  unsigned prepared_verify;             /* vectors verified through a prepared key */
  unsigned streaming_sign;              /* pure sigGen vectors signed from a streamed mu */
  unsigned streaming_verify;            /* pure vectors verified from a streamed mu */
} counters;
static counters *count;

/* The whole decompressed file, NUL-terminated; NULL with err set on failure. */
static char *read_gz(const char *path, char *err, size_t errlen) {
  gzFile gz = gzopen(path, "rb");
  if (gz == NULL) {
    snprintf(err, errlen, "cannot open %s", path);
    return NULL;
  }
  gzbuffer(gz, 1 << 17);
  size_t cap = 1 << 24, len = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (buf == NULL) break;
    if (cap - len < (1 << 20)) {
      char *nb = realloc(buf, cap * 2);
      if (nb == NULL) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
    int r = gzread(gz, buf + len, (unsigned)(cap - len - 1));
    if (r < 0) {
      int errnum;
      snprintf(err, errlen, "%s: gzread: %s", path, gzerror(gz, &errnum));
      free(buf);
      gzclose(gz);
      return NULL;
    }
    if (r == 0) break;
    len += (size_t)r;
  }
  gzclose(gz);
  if (buf == NULL) {
    snprintf(err, errlen, "%s: out of memory", path);
    return NULL;
  }
  buf[len] = '\0';
  return buf;
}

static int set_index(const char *name) {
  for (int i = 0; i < NUM_SETS; ++i)
    if (name != NULL && strcmp(name, set_name[i]) == 0) return i;
  return -1;
}

/* Loads one file into files[id]; on any problem files[id].error says what. */
static void load_file(const char *dir, int id) {
  vector_file *f = &files[id];
  char path[1024];
  snprintf(path, sizeof path, "%s/acvp/%s", dir, f->file);
  char *text = read_gz(path, f->error, sizeof f->error);
  if (text == NULL) return;
  f->root = cJSON_Parse(text);
  free(text);
  if (f->root == NULL) {
    snprintf(f->error, sizeof f->error, "%s: not valid JSON", path);
    return;
  }
  const cJSON *mode = cJSON_GetObjectItemCaseSensitive(f->root, "mode");
  const cJSON *rev = cJSON_GetObjectItemCaseSensitive(f->root, "revision");
  const cJSON *alg = cJSON_GetObjectItemCaseSensitive(f->root, "algorithm");
  if (!cJSON_IsString(alg) || strcmp(alg->valuestring, "ML-DSA") != 0 || !cJSON_IsString(mode) ||
      strcmp(mode->valuestring, f->mode) != 0 || !cJSON_IsString(rev) ||
      strcmp(rev->valuestring, f->revision) != 0) {
    snprintf(f->error, sizeof f->error, "%s: not an ML-DSA %s file of revision %s", path,
             f->mode, f->revision);
    return;
  }
  const cJSON *groups = cJSON_GetObjectItemCaseSensitive(f->root, "testGroups");
  const cJSON *g, *t;
  size_t n = 0;
  cJSON_ArrayForEach(g, groups) n += (size_t)cJSON_GetArraySize(
      cJSON_GetObjectItemCaseSensitive(g, "tests"));
  f->v = calloc(n ? n : 1, sizeof *f->v);
  if (f->v == NULL) {
    snprintf(f->error, sizeof f->error, "%s: out of memory", path);
    return;
  }
  cJSON_ArrayForEach(g, groups) {
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(g, "parameterSet");
    int set = set_index(cJSON_GetStringValue(ps));
    if (set < 0) {
      snprintf(f->error, sizeof f->error, "%s: unknown parameterSet %s", path,
               cJSON_IsString(ps) ? ps->valuestring : "(missing)");
      f->n = 0;
      return;
    }
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests")) {
      const cJSON *tcid = cJSON_GetObjectItemCaseSensitive(t, "tcId");
      f->v[f->n].group = g;
      f->v[f->n].test = t;
      f->v[f->n].set = set;
      f->v[f->n].tcid = cJSON_IsNumber(tcid) ? tcid->valueint : -1;
      f->n++;
      count->total[id][set]++;
    }
  }
}

/* ---------------------------------------------------------------- per-vector helpers */

/* Decoded fields of the current vector live in this arena, reset per vector: nothing to
 * free when an assertion ends the test early. */
static uint8_t arena[1 << 18];
static size_t arena_used;

static char where[200] = "(before the first vector)"; /* "sigGen tcId 17 (ML-DSA-44)" */

/* In the same process as the library: name the vector that crashed it. */
static void on_crash(int sig) {
  static const char pre[] = "test_acvp: fatal signal while running ";
  ssize_t r = write(STDERR_FILENO, pre, sizeof pre - 1);
  r = write(STDERR_FILENO, where, strlen(where));
  r = write(STDERR_FILENO, "\n", 1);
  (void)r;
  signal(sig, SIG_DFL);
  raise(sig);
}

static void begin_vector(int file, const vector *v) {
  arena_used = 0;
  snprintf(where, sizeof where, "%s tcId %d (%s)", files[file].label, v->tcid,
           set_name[v->set]);
}

static const char *get_str(const cJSON *obj, const char *name) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);
  ck_assert_msg(cJSON_IsString(item), "%s: field \"%s\" missing or not a string", where, name);
  return item->valuestring;
}

static int get_bool(const cJSON *obj, const char *name) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);
  ck_assert_msg(cJSON_IsBool(item), "%s: field \"%s\" missing or not a boolean", where, name);
  return cJSON_IsTrue(item);
}

/* Hex field decoded into the arena; *len gets its length. expect != 0 checks the length. */
static const uint8_t *get_hex(const cJSON *obj, const char *name, size_t *len, size_t expect) {
  const char *hex = get_str(obj, name);
  uint8_t *out = arena + arena_used;
  long n = mldsa_test_unhex(out, sizeof arena - arena_used, hex);
  ck_assert_msg(n >= 0, "%s: field \"%s\" is not valid hex (or too long)", where, name);
  ck_assert_msg(expect == 0 || (size_t)n == expect, "%s: field \"%s\" has %ld bytes, expected %zu",
                where, name, n, expect);
  arena_used += (size_t)n;
  if (len != NULL) *len = (size_t)n;
  return out;
}

static void assert_bytes(const uint8_t *got, const uint8_t *want, size_t len, const char *what) {
  long d = mldsa_test_first_diff(got, want, len);
  ck_assert_msg(d < 0, "%s: %s differs from the expected value (first at byte %ld of %zu)", where,
                what, d, len);
}

static void assert_rc(int got, int want, const char *call) {
  ck_assert_msg(got == want, "%s: %s returned %d (%s), expected %d (%s)", where, call, got,
                mldsa_strerror(got), want, mldsa_strerror(want));
}

/* ---------------------------------------------------------------- pre-hash */

typedef struct {
  const char *acvp;   /* hashAlg in the vectors */
  const char *evp;    /* OpenSSL digest name */
  mldsa_hash id;
  size_t len;         /* digest length (the XOF output length for SHAKE) */
  int xof;
  uint8_t oid_last; /* OID 2.16.840.1.101.3.4.2.<oid_last> (FIPS 204 Alg. 4) */
} hash_alg;

static const hash_alg hash_algs[] = {
    {"SHA2-224", "SHA224", MLDSA_SHA2_224, 28, 0, 0x04},
    {"SHA2-256", "SHA256", MLDSA_SHA2_256, 32, 0, 0x01},
    {"SHA2-384", "SHA384", MLDSA_SHA2_384, 48, 0, 0x02},
    {"SHA2-512", "SHA512", MLDSA_SHA2_512, 64, 0, 0x03},
    {"SHA2-512/224", "SHA512-224", MLDSA_SHA2_512_224, 28, 0, 0x05},
    {"SHA2-512/256", "SHA512-256", MLDSA_SHA2_512_256, 32, 0, 0x06},
    {"SHA3-224", "SHA3-224", MLDSA_SHA3_224, 28, 0, 0x07},
    {"SHA3-256", "SHA3-256", MLDSA_SHA3_256, 32, 0, 0x08},
    {"SHA3-384", "SHA3-384", MLDSA_SHA3_384, 48, 0, 0x09},
    {"SHA3-512", "SHA3-512", MLDSA_SHA3_512, 64, 0, 0x0A},
    {"SHAKE-128", "SHAKE128", MLDSA_SHAKE128, 32, 1, 0x0B},
    {"SHAKE-256", "SHAKE256", MLDSA_SHAKE256, 64, 1, 0x0C},
};

/* PH(message) with the tests' own digests (test_digest.h); the table entry of hashAlg. */
static const hash_alg *prehash(const char *name, const uint8_t *msg, size_t msg_len,
                               uint8_t digest[64]) {
  const hash_alg *h = NULL;
  for (size_t i = 0; i < sizeof hash_algs / sizeof hash_algs[0]; ++i)
    if (strcmp(name, hash_algs[i].acvp) == 0) h = &hash_algs[i];
  ck_assert_msg(h != NULL, "%s: hashAlg \"%s\" is not one the test knows", where, name);
  const uint8_t *in[1] = {msg};
  const size_t in_len[1] = {msg_len};
  ck_assert_msg(mldsa_test_digest(h->evp, digest, h->len, 1, in, in_len), "%s: %s %s failed",
                where, mldsa_test_digest_backend, h->evp);
  return h;
}

/* ---------------------------------------------------------------- other paths */

/* M' of a vector, as FIPS 204 frames it: prefix || body. */
typedef struct {
  uint8_t prefix[2 + 255 + 11];
  size_t prefix_len;
  const uint8_t *body;
  size_t body_len;
} framed;

/* Pure (Alg. 2): 0 || len(ctx) || ctx || msg. */
static void frame_pure(framed *f, const uint8_t *ctx, size_t ctx_len, const uint8_t *msg,
                       size_t msg_len) {
  f->prefix[0] = 0;
  f->prefix[1] = (uint8_t)ctx_len;
  memcpy(f->prefix + 2, ctx, ctx_len);
  f->prefix_len = 2 + ctx_len;
  f->body = msg;
  f->body_len = msg_len;
}

/* Pre-hash (Alg. 4): 1 || len(ctx) || ctx || OID || PH(msg). */
static void frame_prehash(framed *f, const uint8_t *ctx, size_t ctx_len, const hash_alg *h,
                          const uint8_t *digest) {
  static const uint8_t arc[10] = {0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02};
  f->prefix[0] = 1;
  f->prefix[1] = (uint8_t)ctx_len;
  memcpy(f->prefix + 2, ctx, ctx_len);
  memcpy(f->prefix + 2 + ctx_len, arc, sizeof arc);
  f->prefix[2 + ctx_len + sizeof arc] = h->oid_last;
  f->prefix_len = 2 + ctx_len + sizeof arc + 1;
  f->body = digest;
  f->body_len = h->len;
}

/* SHAKE256(a || b || c, outlen) with the tests' own digests: the test's own mu and tr. */
static void oracle_shake256(uint8_t *out, size_t outlen, const uint8_t *a, size_t alen,
                             const uint8_t *b, size_t blen, const uint8_t *c, size_t clen) {
  const uint8_t *in[3] = {a, b, c};
  const size_t in_len[3] = {alen, blen, clen};
  ck_assert_msg(mldsa_test_digest("SHAKE256", out, outlen, 3, in, in_len), "%s: %s SHAKE256 failed",
                where, mldsa_test_digest_backend);
}

static void reference_mu(uint8_t mu[64], const uint8_t tr[64], const framed *f) {
  oracle_shake256(mu, 64, tr, 64, f->prefix, f->prefix_len, f->body, f->body_len);
}

/* mu of the pure interface through the streaming API, msg fed in pieces whose sizes
 * cycle through a list (1 byte, around the SHAKE256 rate of 136, larger) from a start
 * that depends on the vector. key is pk, or sk when secret. */
static void streaming_mu(uint8_t mu[64], mldsa_param p, int secret, const uint8_t *key,
                         size_t key_len, const uint8_t *ctx, size_t ctx_len, const uint8_t *msg,
                         size_t msg_len, unsigned start) {
  static const size_t pieces[] = {1, 135, 136, 137, 7, 0, 271, 272, 273, 64, 1000};
  const size_t npieces = sizeof pieces / sizeof pieces[0];
  mldsa_mu_state st;
  memset(&st, 0x5A, sizeof st); /* not zero: init must not rely on a clean state */
  if (secret)
    assert_rc(mldsa_mu_init_secret(&st, p, key, key_len, ctx, ctx_len), MLDSA_OK,
              "mldsa_mu_init_secret");
  else
    assert_rc(mldsa_mu_init(&st, p, key, key_len, ctx, ctx_len), MLDSA_OK, "mldsa_mu_init");
  size_t done = 0;
  for (unsigned i = start; done < msg_len; ++i) {
    size_t n = pieces[i % npieces];
    if (n > msg_len - done) n = msg_len - done;
    assert_rc(mldsa_mu_update(&st, msg + done, n), MLDSA_OK, "mldsa_mu_update");
    done += n;
  }
  assert_rc(mldsa_mu_final(&st, mu), MLDSA_OK, "mldsa_mu_final");
}

/* Caller memory of the prepared keys: large, so static. */
static mldsa_prepared_secret_key prepared_sk;
static mldsa_prepared_public_key prepared_pk;

/* sigGen through the other paths: prepared keys for every vector (mu from the oracle),
 * streaming mu and the prepared message-level calls for the pure ones (msg != NULL). */
static void siggen_other_paths(mldsa_param p, const uint8_t *sk, size_t skb, const uint8_t *pk,
                               size_t pkb, const framed *f, const uint8_t *rnd,
                               const uint8_t *sig_want, size_t sigb, const uint8_t *ctx,
                               size_t ctx_len, const uint8_t *msg, size_t msg_len, unsigned tcid) {
  uint8_t mu[64], mu2[64], sig[8192];
  reference_mu(mu, sk + 64, f); /* tr is bytes 64..127 of sk */

  assert_rc(mldsa_secret_key_prepare(&prepared_sk, p, sk, skb), MLDSA_OK,
            "mldsa_secret_key_prepare");
  assert_rc(mldsa_public_key_prepare(&prepared_pk, p, pk, pkb), MLDSA_OK,
            "mldsa_public_key_prepare");
  memset(sig, 0xAA, sigb);
  assert_rc(mldsa_sign_mu_prepared(&prepared_sk, sig, sigb, mu, rnd), MLDSA_OK,
            "mldsa_sign_mu_prepared");
  assert_bytes(sig, sig_want, sigb, "signature of mldsa_sign_mu_prepared");
  assert_rc(mldsa_verify_mu_prepared(&prepared_pk, sig_want, sigb, mu), MLDSA_OK,
            "mldsa_verify_mu_prepared");
  if (msg != NULL) {
    memset(sig, 0xAA, sigb);
    assert_rc(mldsa_sign_prepared(&prepared_sk, sig, sigb, msg, msg_len, ctx, ctx_len, rnd),
              MLDSA_OK, "mldsa_sign_prepared");
    assert_bytes(sig, sig_want, sigb, "signature of mldsa_sign_prepared");
    assert_rc(mldsa_verify_prepared(&prepared_pk, sig_want, sigb, msg, msg_len, ctx, ctx_len),
              MLDSA_OK, "mldsa_verify_prepared");

    streaming_mu(mu2, p, 1, sk, skb, ctx, ctx_len, msg, msg_len, tcid);
    assert_bytes(mu2, mu, 64, "streamed mu (tr from sk)");
    memset(sig, 0xAA, sigb);
    assert_rc(mldsa_sign_mu(p, sig, sigb, mu2, rnd, sk, skb), MLDSA_OK,
              "mldsa_sign_mu of a streamed mu");
    assert_bytes(sig, sig_want, sigb, "signature from a streamed mu");
    streaming_mu(mu2, p, 0, pk, pkb, ctx, ctx_len, msg, msg_len, tcid + 3);
    assert_bytes(mu2, mu, 64, "streamed mu (tr from pk)");
    assert_rc(mldsa_verify_mu(p, sig_want, sigb, mu2, pk, pkb), MLDSA_OK,
              "mldsa_verify_mu of a streamed mu");
    count->streaming_sign++;
    count->streaming_verify++;
  }
  mldsa_secret_key_unprepare(&prepared_sk);
  count->prepared_sign++;
  count->prepared_verify++;
}

/* sigVer through the other paths; want is the expected verdict. */
static void sigver_other_paths(mldsa_param p, const uint8_t *pk, size_t pkb, const framed *f,
                               const uint8_t *sig, size_t sigb, int want, const uint8_t *ctx,
                               size_t ctx_len, const uint8_t *msg, size_t msg_len, unsigned tcid) {
  uint8_t tr[64], mu[64], mu2[64];
  oracle_shake256(tr, 64, pk, pkb, NULL, 0, NULL, 0);
  reference_mu(mu, tr, f);
  assert_rc(mldsa_public_key_prepare(&prepared_pk, p, pk, pkb), MLDSA_OK,
            "mldsa_public_key_prepare");
  assert_rc(mldsa_verify_mu_prepared(&prepared_pk, sig, sigb, mu), want,
            "mldsa_verify_mu_prepared");
  if (msg != NULL) {
    assert_rc(mldsa_verify_prepared(&prepared_pk, sig, sigb, msg, msg_len, ctx, ctx_len), want,
              "mldsa_verify_prepared");
    streaming_mu(mu2, p, 0, pk, pkb, ctx, ctx_len, msg, msg_len, tcid);
    assert_bytes(mu2, mu, 64, "streamed mu");
    assert_rc(mldsa_verify_mu(p, sig, sigb, mu2, pk, pkb), want,
              "mldsa_verify_mu of a streamed mu");
    count->streaming_verify++;
  }
  count->prepared_verify++;
}

/* ---------------------------------------------------------------- keyGen */

START_TEST(test_keygen) {
  const vector *v = &files[F_KEYGEN].v[_i];
  begin_vector(F_KEYGEN, v);
  mldsa_param p = set_param[v->set];
  size_t pkb = mldsa_public_key_bytes(p), skb = mldsa_secret_key_bytes(p);
  const uint8_t *seed = get_hex(v->test, "seed", NULL, 32);
  const uint8_t *pk_want = get_hex(v->test, "pk", NULL, pkb);
  const uint8_t *sk_want = get_hex(v->test, "sk", NULL, skb);
  uint8_t pk[4096], sk[8192], pk2[4096];

  assert_rc(mldsa_keygen_from_seed(p, pk, pkb, sk, skb, seed), MLDSA_OK,
            "mldsa_keygen_from_seed");
  assert_bytes(pk, pk_want, pkb, "pk");
  assert_bytes(sk, sk_want, skb, "sk");
  /* The import path must give the same pk back. */
  assert_rc(mldsa_public_key_from_secret(p, pk2, pkb, sk_want, skb), MLDSA_OK,
            "mldsa_public_key_from_secret");
  assert_bytes(pk2, pk_want, pkb, "pk from mldsa_public_key_from_secret");
  count->passed[F_KEYGEN][v->set]++;
}
END_TEST

/* ---------------------------------------------------------------- sigGen (both files) */

static void run_siggen(int file, const vector *v) {
  begin_vector(file, v);
  const cJSON *g = v->group, *t = v->test;
  mldsa_param p = set_param[v->set];
  size_t pkb = mldsa_public_key_bytes(p), skb = mldsa_secret_key_bytes(p);
  size_t sigb = mldsa_signature_bytes(p);
  static const uint8_t zero_rnd[32];
  uint8_t pk[4096], sk_buf[8192], sig[8192];
  const uint8_t *sk;

  /* The key: a seed to expand (tr1 "seed"), or an expanded sk. */
  const cJSON *kf = cJSON_GetObjectItemCaseSensitive(g, "keyFormat");
  if (file == F_SIGGEN_TR1) {
    ck_assert_msg(cJSON_IsString(kf), "%s: group has no keyFormat", where);
  } else {
    ck_assert_msg(kf == NULL, "%s: unexpected keyFormat in a FIPS204 sigGen group", where);
  }
  if (kf != NULL && strcmp(kf->valuestring, "seed") == 0) {
    const uint8_t *seed = get_hex(t, "seed", NULL, 32);
    assert_rc(mldsa_keygen_from_seed(p, pk, pkb, sk_buf, skb, seed), MLDSA_OK,
              "mldsa_keygen_from_seed");
    sk = sk_buf;
  } else {
    ck_assert_msg(kf == NULL || strcmp(kf->valuestring, "expanded") == 0,
                  "%s: unknown keyFormat \"%s\"", where, kf ? kf->valuestring : "");
    sk = get_hex(t, "sk", NULL, skb);
    memset(pk, 0xAA, pkb);
    assert_rc(mldsa_public_key_from_secret(p, pk, pkb, sk, skb), MLDSA_OK,
              "mldsa_public_key_from_secret");
    count->pk_derived++;
  }

  const uint8_t *rnd = zero_rnd; /* deterministic: 32 zero bytes (NULL would be hedged) */
  if (!get_bool(g, "deterministic")) rnd = get_hex(t, "rnd", NULL, 32);
  const uint8_t *sig_want = get_hex(t, "signature", NULL, sigb);

  const char *iface = get_str(g, "signatureInterface");
  memset(sig, 0xAA, sigb);
  if (strcmp(iface, "external") == 0) {
    const char *ph = get_str(g, "preHash");
    size_t msg_len, ctx_len;
    const uint8_t *msg = get_hex(t, "message", &msg_len, 0);
    const uint8_t *ctx = get_hex(t, "context", &ctx_len, 0);
    if (strcmp(ph, "pure") == 0) {
      assert_rc(mldsa_sign(p, sig, sigb, msg, msg_len, ctx, ctx_len, rnd, sk, skb), MLDSA_OK,
                "mldsa_sign");
      assert_bytes(sig, sig_want, sigb, "signature");
      assert_rc(mldsa_verify(p, sig, sigb, msg, msg_len, ctx, ctx_len, pk, pkb), MLDSA_OK,
                "mldsa_verify of the produced signature");
      framed f;
      frame_pure(&f, ctx, ctx_len, msg, msg_len);
      siggen_other_paths(p, sk, skb, pk, pkb, &f, rnd, sig_want, sigb, ctx, ctx_len, msg, msg_len,
                         (unsigned)v->tcid);
    } else {
      ck_assert_msg(strcmp(ph, "preHash") == 0, "%s: unknown preHash \"%s\"", where, ph);
      uint8_t digest[64];
      const hash_alg *h = prehash(get_str(t, "hashAlg"), msg, msg_len, digest);
      assert_rc(mldsa_sign_prehash(p, sig, sigb, digest, h->len, h->id, ctx, ctx_len, rnd, sk,
                                   skb),
                MLDSA_OK, "mldsa_sign_prehash");
      assert_bytes(sig, sig_want, sigb, "signature");
      assert_rc(mldsa_verify_prehash(p, sig, sigb, digest, h->len, h->id, ctx, ctx_len, pk, pkb),
                MLDSA_OK, "mldsa_verify_prehash of the produced signature");
      framed f;
      frame_prehash(&f, ctx, ctx_len, h, digest);
      siggen_other_paths(p, sk, skb, pk, pkb, &f, rnd, sig_want, sigb, NULL, 0, NULL, 0,
                         (unsigned)v->tcid);
    }
  } else {
    ck_assert_msg(strcmp(iface, "internal") == 0, "%s: unknown signatureInterface \"%s\"", where,
                  iface);
    if (get_bool(g, "externalMu")) {
      const uint8_t *mu = get_hex(t, "mu", NULL, 64);
      assert_rc(mldsa_sign_mu(p, sig, sigb, mu, rnd, sk, skb), MLDSA_OK, "mldsa_sign_mu");
      assert_bytes(sig, sig_want, sigb, "signature");
      assert_rc(mldsa_verify_mu(p, sig, sigb, mu, pk, pkb), MLDSA_OK,
                "mldsa_verify_mu of the produced signature");
      uint8_t sig2[8192];
      assert_rc(mldsa_secret_key_prepare(&prepared_sk, p, sk, skb), MLDSA_OK,
                "mldsa_secret_key_prepare");
      assert_rc(mldsa_public_key_prepare(&prepared_pk, p, pk, pkb), MLDSA_OK,
                "mldsa_public_key_prepare");
      memset(sig2, 0xAA, sigb);
      assert_rc(mldsa_sign_mu_prepared(&prepared_sk, sig2, sigb, mu, rnd), MLDSA_OK,
                "mldsa_sign_mu_prepared");
      assert_bytes(sig2, sig_want, sigb, "signature of mldsa_sign_mu_prepared");
      assert_rc(mldsa_verify_mu_prepared(&prepared_pk, sig_want, sigb, mu), MLDSA_OK,
                "mldsa_verify_mu_prepared");
      mldsa_secret_key_unprepare(&prepared_sk);
      count->prepared_sign++;
      count->prepared_verify++;
    } else {
      size_t mlen;
      const uint8_t *mprime = get_hex(t, "message", &mlen, 0);
      assert_rc(mldsa_sign_internal(p, sig, sigb, mprime, mlen, rnd, sk, skb), MLDSA_OK,
                "mldsa_sign_internal");
      assert_bytes(sig, sig_want, sigb, "signature");
      assert_rc(mldsa_verify_internal(p, sig, sigb, mprime, mlen, pk, pkb), MLDSA_OK,
                "mldsa_verify_internal of the produced signature");
      framed f = {.prefix_len = 0, .body = mprime, .body_len = mlen};
      siggen_other_paths(p, sk, skb, pk, pkb, &f, rnd, sig_want, sigb, NULL, 0, NULL, 0,
                         (unsigned)v->tcid);
    }
  }
  count->sign_verified++;
  count->passed[file][v->set]++;
}

START_TEST(test_siggen) { run_siggen(F_SIGGEN, &files[F_SIGGEN].v[_i]); }
END_TEST

START_TEST(test_siggen_tr1) { run_siggen(F_SIGGEN_TR1, &files[F_SIGGEN_TR1].v[_i]); }
END_TEST

/* ---------------------------------------------------------------- sigVer */

START_TEST(test_sigver) {
  const vector *v = &files[F_SIGVER].v[_i];
  begin_vector(F_SIGVER, v);
  const cJSON *g = v->group, *t = v->test;
  mldsa_param p = set_param[v->set];
  size_t pkb = mldsa_public_key_bytes(p), sigb = mldsa_signature_bytes(p);
  const uint8_t *pk = get_hex(t, "pk", NULL, pkb);
  const uint8_t *sig = get_hex(t, "signature", NULL, sigb);
  int want = get_bool(t, "testPassed") ? MLDSA_OK : MLDSA_ERR_VERIFY;
  const char *iface = get_str(g, "signatureInterface");
  int rc;
  const char *call;

  if (strcmp(iface, "external") == 0) {
    const char *ph = get_str(g, "preHash");
    size_t msg_len, ctx_len;
    const uint8_t *msg = get_hex(t, "message", &msg_len, 0);
    const uint8_t *ctx = get_hex(t, "context", &ctx_len, 0);
    if (strcmp(ph, "pure") == 0) {
      rc = mldsa_verify(p, sig, sigb, msg, msg_len, ctx, ctx_len, pk, pkb);
      call = "mldsa_verify";
      framed f;
      frame_pure(&f, ctx, ctx_len, msg, msg_len);
      sigver_other_paths(p, pk, pkb, &f, sig, sigb, want, ctx, ctx_len, msg, msg_len,
                         (unsigned)v->tcid);
    } else {
      ck_assert_msg(strcmp(ph, "preHash") == 0, "%s: unknown preHash \"%s\"", where, ph);
      uint8_t digest[64];
      const hash_alg *h = prehash(get_str(t, "hashAlg"), msg, msg_len, digest);
      rc = mldsa_verify_prehash(p, sig, sigb, digest, h->len, h->id, ctx, ctx_len, pk, pkb);
      call = "mldsa_verify_prehash";
      framed f;
      frame_prehash(&f, ctx, ctx_len, h, digest);
      sigver_other_paths(p, pk, pkb, &f, sig, sigb, want, NULL, 0, NULL, 0, (unsigned)v->tcid);
    }
  } else {
    ck_assert_msg(strcmp(iface, "internal") == 0, "%s: unknown signatureInterface \"%s\"", where,
                  iface);
    if (get_bool(g, "externalMu")) {
      const uint8_t *mu = get_hex(t, "mu", NULL, 64);
      rc = mldsa_verify_mu(p, sig, sigb, mu, pk, pkb);
      call = "mldsa_verify_mu";
      assert_rc(mldsa_public_key_prepare(&prepared_pk, p, pk, pkb), MLDSA_OK,
                "mldsa_public_key_prepare");
      assert_rc(mldsa_verify_mu_prepared(&prepared_pk, sig, sigb, mu), want,
                "mldsa_verify_mu_prepared");
      count->prepared_verify++;
    } else {
      size_t mlen;
      const uint8_t *mprime = get_hex(t, "message", &mlen, 0);
      rc = mldsa_verify_internal(p, sig, sigb, mprime, mlen, pk, pkb);
      call = "mldsa_verify_internal";
      framed f = {.prefix_len = 0, .body = mprime, .body_len = mlen};
      sigver_other_paths(p, pk, pkb, &f, sig, sigb, want, NULL, 0, NULL, 0, (unsigned)v->tcid);
    }
  }
  const cJSON *reason = cJSON_GetObjectItemCaseSensitive(t, "reason");
  ck_assert_msg(rc == want, "%s: %s returned %d (%s), expected %d (%s); vector: %s", where, call,
                rc, mldsa_strerror(rc), want, mldsa_strerror(want),
                cJSON_IsString(reason) ? reason->valuestring : "");
  count->passed[F_SIGVER][v->set]++;
}
END_TEST

/* ---------------------------------------------------------------- file-level checks */

/* Each file loaded and holds exactly the tests vectors/README.md lists: a truncated or
 * swapped file must not shrink the coverage quietly. */
START_TEST(test_file_loaded) {
  const vector_file *f = &files[_i];
  snprintf(where, sizeof where, "the checks of the file %s", f->file);
  ck_assert_msg(f->error[0] == '\0', "acvp %s: %s", f->label, f->error);
  ck_assert_msg(f->n == f->expected, "acvp %s: %zu tests in the file, expected %zu", f->label,
                f->n, f->expected);
  for (int s = 0; s < NUM_SETS; ++s)
    ck_assert_msg(count->total[_i][s] == f->expected / NUM_SETS,
                  "acvp %s: %u tests for %s, expected %zu", f->label, count->total[_i][s],
                  set_name[s], f->expected / NUM_SETS);
  for (size_t i = 0; i < f->n; ++i)
    for (size_t j = 0; j < i; ++j)
      ck_assert_msg(f->v[i].tcid != f->v[j].tcid || f->v[i].tcid < 0,
                    "acvp %s: tcId %d appears twice", f->label, f->v[i].tcid);
}
END_TEST

static Suite *acvp_suite(void) {
  Suite *s = suite_create("acvp");
  TCase *tc = tcase_create("files");
  tcase_add_loop_test(tc, test_file_loaded, 0, NUM_FILES);
  suite_add_tcase(s, tc);

  const TTest *fns[NUM_FILES] = {test_keygen, test_siggen, test_siggen_tr1, test_sigver};
  for (int f = 0; f < NUM_FILES; ++f) {
    tc = tcase_create(files[f].label);
    /* Per vector, in fork mode only (CK_FORK=yes): one takes milliseconds natively; the
     * margin is for emulators and sanitizers (CK_TIMEOUT_MULTIPLIER scales it further). */
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, fns[f], 0, (int)files[f].n);
    suite_add_tcase(s, tc);
  }
  return s;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : MLDSA_TEST_VECTOR_DIR;
  setvbuf(stdout, NULL, _IOLBF, 0);
  const char *isa = mldsa_test_isa_gate("test_acvp");

  count = mmap(NULL, sizeof *count, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (count == MAP_FAILED) {
    perror("mmap");
    return EXIT_FAILURE;
  }
  memset(count, 0, sizeof *count);

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < NUM_FILES; ++i) load_file(dir, i);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("test_acvp: vectors from %s/acvp loaded in %.2f s\n", dir,
         (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
  fflush(stdout);

  static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
  for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; ++i) signal(fatal[i], on_crash);

  SRunner *sr = srunner_create(acvp_suite());
  if (getenv("CK_FORK") == NULL) srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);

  clock_gettime(CLOCK_MONOTONIC, &t0);
  unsigned passed = 0, total = 0, expected = 0;
  for (int f = 0; f < NUM_FILES; ++f) {
    expected += (unsigned)files[f].expected;
    for (int s = 0; s < NUM_SETS; ++s) {
      printf("acvp %s %s: %u/%u passed (isa %s)\n", files[f].label, set_name[s],
             count->passed[f][s], count->total[f][s], isa);
      passed += count->passed[f][s];
      total += count->total[f][s];
    }
  }
  printf("acvp total: %u/%u passed (isa %s); %u produced signatures verified, %u pk derived "
         "from expanded keys; %.2f s\n",
         passed, expected, isa, count->sign_verified, count->pk_derived,
         (double)(t0.tv_sec - t1.tv_sec) + (double)(t0.tv_nsec - t1.tv_nsec) / 1e9);
  printf(
      "acvp other paths (isa %s): prepared keys: %u sigGen signed, %u sigGen+sigVer "
      "verified; streaming mu: %u pure sigGen signed, %u pure sigGen+sigVer verified\n",
      isa, count->prepared_sign, count->prepared_verify, count->streaming_sign,
      count->streaming_verify);

  for (int i = 0; i < NUM_FILES; ++i) {
    cJSON_Delete(files[i].root);
    free(files[i].v);
  }
  /* Every listed vector must have run and passed, whatever Check counted; every sigGen
   * and sigVer vector also through a prepared key. */
  unsigned siggen = 0;
  for (int s = 0; s < NUM_SETS; ++s)
    siggen += count->passed[F_SIGGEN][s] + count->passed[F_SIGGEN_TR1][s];
  if (count->prepared_sign != siggen ||
      count->prepared_verify != siggen + (unsigned)files[F_SIGVER].expected) {
    printf("acvp: FAIL: not every sigGen/sigVer vector ran through a prepared key\n");
    return EXIT_FAILURE;
  }
  if (failed != 0 || passed != expected || total != expected) return EXIT_FAILURE;
  return EXIT_SUCCESS;
}
