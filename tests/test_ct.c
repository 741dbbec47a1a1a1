/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Constant time, dynamically: run under valgrind memcheck by ci/ct, on a library built
 * with -DMLDSA_CT_TESTING (src/ct.h).
 *
 * Every secret input is marked undefined with valgrind's client requests: the keygen seed,
 * the secret parts of sk (K, s1, s2, t0; rho and tr are public, as parts or hashes of pk)
 * and rnd. memcheck then reports every conditional branch and every memory address that
 * depends on them ("Conditional jump or move depends on uninitialised value(s)", "Use of
 * uninitialised value of size N"). The library declassifies only what FIPS 204 lets be
 * public (src/ct.h: rejection decisions, key validity, the outputs); this program
 * declassifies the outputs it receives (pk, sig) before using them.
 *
 * For each parameter set: keygen from a seed, the import check (public_key_from_secret),
 * the same on a malformed key (ERR_KEY path), the key-file encoder and decoder
 * (run_key_files), secret-key preparation (and its ERR_KEY path), then signing with pure,
 * pre-hash, internal, external-mu, hedged, prepared-key (pure and mu, from a mu streamed
 * with mldsa_mu_init_secret) interfaces and the batch signing (mldsa_sign_batch, ten
 * messages under the prepared key) (rnd secret; `signs` signatures each, argv[1],
 * default 1), each signature verified. The number of new memcheck errors is printed after
 * each operation, and the program fails when there is any. It also checks that the taint
 * really flows (pk and sig come back undefined before they are declassified), so that a
 * harness that marks nothing cannot pass.
 *
 * MLDSA_ISA=<isa> selects the ISA (tests/test_common.h gate: exit 77 when not in use).
 * Outside valgrind the client requests do nothing: the run is then only functional. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "mldsa.h"
#include "test_common.h"

#define PK_MAX 2592
#define SK_MAX 4896
#define SIG_MAX 4627

typedef struct {
  mldsa_param p;
  const char *name;
  size_t s1_offset, t0_offset; /* of the secret key encoding */
} set_info;

/* sk = rho (32) || K (32) || tr (64) || s1, s2 (eta-packed) || t0 */
static const set_info sets[3] = {
    {MLDSA_44, "ML-DSA-44", 128, 128 + 8 * 96},
    {MLDSA_65, "ML-DSA-65", 128, 128 + 11 * 128},
    {MLDSA_87, "ML-DSA-87", 128, 128 + 15 * 96},
};

static int on_valgrind;
static unsigned failures;

#define SECRET(p, len) VALGRIND_MAKE_MEM_UNDEFINED((p), (len))
#define PUBLIC(p, len) VALGRIND_MAKE_MEM_DEFINED((p), (len))

/* Bytes of p[0..len) with any undefined bit (0 outside valgrind). */
static size_t undefined_bytes(const void *p, size_t len) {
  static unsigned char vbits[SIG_MAX + SK_MAX];
  if (!on_valgrind || len > sizeof vbits) return 0;
  if (VALGRIND_GET_VBITS(p, vbits, len) != 1) return 0;
  size_t n = 0;
  for (size_t i = 0; i < len; ++i) n += vbits[i] != 0;
  return n;
}

static void fail(const char *what) {
  printf("test_ct: FAIL: %s\n", what);
  ++failures;
}

/* Prints the memcheck errors the operation added. */
static unsigned errors_before;
static void op_start(void) { errors_before = VALGRIND_COUNT_ERRORS; }
static void op_done(const set_info *s, const char *op) {
  unsigned now = VALGRIND_COUNT_ERRORS, added = now - errors_before;
  printf("test_ct: %s %-24s %u memcheck errors\n", s->name, op, added);
  if (added) ++failures;
}

static void mark_sk_secret(const set_info *s, uint8_t *sk, size_t sk_len) {
  PUBLIC(sk, sk_len);
  SECRET(sk + 32, 32);                          /* K */
  SECRET(sk + s->s1_offset, sk_len - s->s1_offset); /* s1, s2, t0 */
}

/* rc must be OK and sig must carry taint (the secrets reached it); then it is public. */
static void check_signature(const set_info *s, const char *op, int rc, uint8_t *sig,
                            size_t sig_len) {
  op_done(s, op);
  if (rc != MLDSA_OK) {
    printf("test_ct: %s %s returned %d (%s)\n", s->name, op, rc, mldsa_strerror(rc));
    fail("signing failed");
    return;
  }
  if (on_valgrind && undefined_bytes(sig, sig_len) == 0) fail("signature carries no taint");
  PUBLIC(sig, sig_len);
}

static void verify_ok(const set_info *s, const char *op, int rc) {
  if (rc != MLDSA_OK) {
    printf("test_ct: %s %s: signature does not verify (%d)\n", s->name, op, rc);
    fail("verification");
  }
}

/* A prepared secret key: caller memory, large, so static. */
static mldsa_prepared_secret_key prepared;

/* The key-file encoder and decoder (RFC 9881 PKCS#8) in each form, with the seed and the
 * secret parts of sk undefined: encoding (DER and PEM: the base64 digits are computed
 * without branches or tables), decoding DER (the seed-derived key compared with the
 * given expanded key in constant time, the import check of an expanded key), and the
 * refusal of a "both" key whose halves disagree and of an expanded key with a coefficient
 * out of range (MLDSA_ERR_KEY: only the verdict is public). The PEM decoder is not run
 * here: base64 packs the public DER header and the secret bytes into shared characters,
 * so the header it decodes would carry taint. */
static void run_key_files(const set_info *s, const uint8_t *seed, const uint8_t *sk, size_t sk_len,
                          const uint8_t *pk) {
  static uint8_t der[8192], pem[12288], sk_out[SK_MAX], seed_out[32], pk_out[PK_MAX];
  static const char *const form_names[] = {"", "seed", "expanded", "both"};
  char op[64];
  size_t pk_len = mldsa_public_key_bytes(s->p);
  for (int form = MLDSA_SK_SEED; form <= MLDSA_SK_BOTH; ++form) {
    size_t der_len, pem_len, n;
    mldsa_param p;
    int has, rc;
    const uint8_t *sd = form == MLDSA_SK_EXPANDED ? NULL : seed;
    snprintf(op, sizeof op, "private_key_encode (%s)", form_names[form]);
    op_start();
    rc = mldsa_private_key_encode(s->p, MLDSA_DER, (mldsa_sk_form)form, der, sizeof der,
                                  &der_len, sd, sk, sk_len);
    op_done(s, op);
    if (rc != MLDSA_OK) fail("private_key_encode");
    if (on_valgrind && undefined_bytes(der, der_len) == 0) fail("the encoded key carries no taint");
    snprintf(op, sizeof op, "private_key_encode PEM (%s)", form_names[form]);
    op_start();
    rc = mldsa_private_key_encode(s->p, MLDSA_PEM, (mldsa_sk_form)form, pem, sizeof pem,
                                  &pem_len, sd, sk, sk_len);
    op_done(s, op);
    if (rc != MLDSA_OK) fail("private_key_encode (PEM)");
    snprintf(op, sizeof op, "private_key_decode (%s)", form_names[form]);
    op_start();
    rc = mldsa_private_key_decode(&p, sk_out, sizeof sk_out, &n, seed_out, &has, der, der_len);
    op_done(s, op);
    if (rc != MLDSA_OK || p != s->p || n != sk_len) fail("private_key_decode");
    /* the decoded key is the key: its public key (declassified) is pk */
    if (mldsa_public_key_from_secret(s->p, pk_out, pk_len, sk_out, n) != MLDSA_OK) fail("decoded key");
    PUBLIC(pk_out, pk_len);
    if (memcmp(pk_out, pk, pk_len) != 0) fail("decoded key differs");
    if (form == MLDSA_SK_SEED) continue;
    /* one flipped bit of t0 (the last byte of the expanded key, at the end of the DER) */
    der[der_len - 1] ^= 1;
    snprintf(op, sizeof op, "decode, bad %s key", form_names[form]);
    op_start();
    rc = mldsa_private_key_decode(&p, sk_out, sizeof sk_out, &n, seed_out, &has, der, der_len);
    op_done(s, op);
    if (rc != MLDSA_ERR_KEY) fail("an inconsistent key was not refused by private_key_decode");
  }
}

/* mldsa_sign_batch under the prepared key: BATCH_ITEMS messages (more than the slots
 * of any set and ISA, so that messages wait for a slot and slots take new messages after
 * accepted attempts), each with its own secret rnd but one hedged; every signature
 * verified. */
#define BATCH_ITEMS 10
static void run_sign_batch(const set_info *s, const uint8_t *pk, const uint8_t *msg,
                           size_t msg_len, const uint8_t *ctx, size_t ctx_len) {
  static uint8_t sigs[BATCH_ITEMS][SIG_MAX], rnds[BATCH_ITEMS][32];
  mldsa_sign_item items[BATCH_ITEMS];
  int results[BATCH_ITEMS];
  size_t pk_len = mldsa_public_key_bytes(s->p), sig_len = mldsa_signature_bytes(s->p);
  for (int i = 0; i < BATCH_ITEMS; ++i) {
    mldsa_test_randbytes(rnds[i], 32);
    SECRET(rnds[i], 32);
    /* message i: a prefix of msg, so that each differs */
    items[i] = (mldsa_sign_item){msg, msg_len - (size_t)i, ctx, ctx_len, i == 3 ? NULL : rnds[i],
                                 sigs[i], sig_len};
  }
  op_start();
  int rc = mldsa_sign_batch(&prepared, items, BATCH_ITEMS, results);
  op_done(s, "sign_batch");
  if (rc != MLDSA_OK) fail("sign_batch");
  for (int i = 0; i < BATCH_ITEMS; ++i) {
    if (results[i] != MLDSA_OK) fail("sign_batch item");
    if (on_valgrind && undefined_bytes(sigs[i], sig_len) == 0)
      fail("a batch signature carries no taint");
    PUBLIC(sigs[i], sig_len);
    verify_ok(s, "sign_batch",
              mldsa_verify(s->p, sigs[i], sig_len, msg, msg_len - (size_t)i, ctx, ctx_len, pk,
                           pk_len));
  }
}

static void run_set(const set_info *s, unsigned signs) {
  static uint8_t pk[PK_MAX], pk2[PK_MAX], sk[SK_MAX], bad_sk[SK_MAX], sig[SIG_MAX];
  uint8_t seed[32], rnd[32], msg[64], ctx[16], digest[32], mu[64];
  size_t pk_len = mldsa_public_key_bytes(s->p), sk_len = mldsa_secret_key_bytes(s->p),
         sig_len = mldsa_signature_bytes(s->p);
  int rc;

  mldsa_test_randbytes(msg, sizeof msg);
  /* KeyGen from a secret seed */
  mldsa_test_randbytes(seed, sizeof seed);
  SECRET(seed, sizeof seed);
  if (on_valgrind && undefined_bytes(seed, sizeof seed) != sizeof seed)
    fail("harness: the seed is not marked undefined");
  op_start();
  rc = mldsa_keygen_from_seed(s->p, pk, pk_len, sk, sk_len, seed);
  op_done(s, "keygen");
  if (rc != MLDSA_OK) fail("keygen");
  if (on_valgrind && undefined_bytes(pk, pk_len) == 0) fail("pk carries no taint");
  PUBLIC(pk, pk_len);
  mark_sk_secret(s, sk, sk_len);

  /* The import check, on the key and on a malformed copy (s1 coefficient out of range) */
  op_start();
  rc = mldsa_public_key_from_secret(s->p, pk2, pk_len, sk, sk_len);
  op_done(s, "public_key_from_secret");
  PUBLIC(pk2, pk_len);
  if (rc != MLDSA_OK || memcmp(pk, pk2, pk_len) != 0) fail("public_key_from_secret");
  PUBLIC(sk, sk_len);
  memcpy(bad_sk, sk, sk_len);
  bad_sk[s->s1_offset] = 0xFF; /* encoded 7 (eta 2) or 15 (eta 4): out of range */
  mark_sk_secret(s, sk, sk_len);
  mark_sk_secret(s, bad_sk, sk_len);
  op_start();
  rc = mldsa_public_key_from_secret(s->p, pk2, pk_len, bad_sk, sk_len);
  op_done(s, "import of a malformed key");
  if (rc != MLDSA_ERR_KEY) fail("malformed key accepted by public_key_from_secret");
  mldsa_test_randbytes(rnd, sizeof rnd);
  SECRET(rnd, sizeof rnd);
  op_start();
  rc = mldsa_sign(s->p, sig, sig_len, msg, sizeof msg, NULL, 0, rnd, bad_sk, sk_len);
  op_done(s, "sign with a malformed key");
  if (rc != MLDSA_ERR_KEY) fail("malformed key accepted by sign");
  op_start();
  rc = mldsa_secret_key_prepare(&prepared, s->p, bad_sk, sk_len);
  op_done(s, "prepare a malformed key");
  if (rc != MLDSA_ERR_KEY) fail("malformed key accepted by secret_key_prepare");
  op_start();
  rc = mldsa_secret_key_prepare(&prepared, s->p, sk, sk_len);
  op_done(s, "secret_key_prepare");
  if (rc != MLDSA_OK) fail("secret_key_prepare");

  run_key_files(s, seed, sk, sk_len, pk);

  for (unsigned i = 0; i < signs; ++i) {
    mldsa_test_randbytes(msg, sizeof msg);
    mldsa_test_randbytes(ctx, sizeof ctx);
    mldsa_test_randbytes(digest, sizeof digest);

    mldsa_test_randbytes(rnd, sizeof rnd);
    SECRET(rnd, sizeof rnd);
    op_start();
    rc = mldsa_sign(s->p, sig, sig_len, msg, sizeof msg, ctx, sizeof ctx, rnd, sk, sk_len);
    check_signature(s, "sign (pure)", rc, sig, sig_len);
    verify_ok(s, "pure",
              mldsa_verify(s->p, sig, sig_len, msg, sizeof msg, ctx, sizeof ctx, pk, pk_len));

    mldsa_test_randbytes(rnd, sizeof rnd);
    SECRET(rnd, sizeof rnd);
    op_start();
    rc = mldsa_sign_prehash(s->p, sig, sig_len, digest, sizeof digest, MLDSA_SHA2_256, ctx,
                            sizeof ctx, rnd, sk, sk_len);
    check_signature(s, "sign (pre-hash)", rc, sig, sig_len);
    verify_ok(s, "pre-hash",
              mldsa_verify_prehash(s->p, sig, sig_len, digest, sizeof digest, MLDSA_SHA2_256,
                                   ctx, sizeof ctx, pk, pk_len));

    mldsa_test_randbytes(rnd, sizeof rnd);
    SECRET(rnd, sizeof rnd);
    op_start();
    rc = mldsa_sign_internal(s->p, sig, sig_len, msg, sizeof msg, rnd, sk, sk_len);
    check_signature(s, "sign (internal)", rc, sig, sig_len);
    verify_ok(s, "internal", mldsa_verify_internal(s->p, sig, sig_len, msg, sizeof msg, pk, pk_len));

    if (mldsa_compute_mu(s->p, mu, pk, pk_len, msg, sizeof msg, ctx, sizeof ctx) != MLDSA_OK)
      fail("compute_mu");
    mldsa_test_randbytes(rnd, sizeof rnd);
    SECRET(rnd, sizeof rnd);
    op_start();
    rc = mldsa_sign_mu(s->p, sig, sig_len, mu, rnd, sk, sk_len);
    check_signature(s, "sign (external mu)", rc, sig, sig_len);
    verify_ok(s, "external mu", mldsa_verify_mu(s->p, sig, sig_len, mu, pk, pk_len));

    memset(rnd, 0, sizeof rnd); /* deterministic: rnd public, K still secret */
    op_start();
    rc = mldsa_sign(s->p, sig, sig_len, msg, sizeof msg, NULL, 0, rnd, sk, sk_len);
    check_signature(s, "sign (deterministic)", rc, sig, sig_len);
    verify_ok(s, "deterministic",
              mldsa_verify(s->p, sig, sig_len, msg, sizeof msg, NULL, 0, pk, pk_len));

    op_start();
    rc = mldsa_sign(s->p, sig, sig_len, msg, sizeof msg, NULL, 0, NULL, sk, sk_len);
    check_signature(s, "sign (hedged, OS rnd)", rc, sig, sig_len);
    verify_ok(s, "hedged", mldsa_verify(s->p, sig, sig_len, msg, sizeof msg, NULL, 0, pk, pk_len));

    mldsa_test_randbytes(rnd, sizeof rnd);
    SECRET(rnd, sizeof rnd);
    op_start();
    rc = mldsa_sign_prepared(&prepared, sig, sig_len, msg, sizeof msg, ctx, sizeof ctx, rnd);
    check_signature(s, "sign (prepared key)", rc, sig, sig_len);
    verify_ok(s, "prepared key",
              mldsa_verify(s->p, sig, sig_len, msg, sizeof msg, ctx, sizeof ctx, pk, pk_len));

    mldsa_mu_state st;
    op_start();
    rc = mldsa_mu_init_secret(&st, s->p, sk, sk_len, ctx, sizeof ctx);
    if (rc == MLDSA_OK) rc = mldsa_mu_update(&st, msg, sizeof msg);
    if (rc == MLDSA_OK) rc = mldsa_mu_final(&st, mu);
    op_done(s, "streaming mu (tr of sk)");
    if (rc != MLDSA_OK) fail("streaming mu");
    mldsa_test_randbytes(rnd, sizeof rnd);
    SECRET(rnd, sizeof rnd);
    op_start();
    rc = mldsa_sign_mu_prepared(&prepared, sig, sig_len, mu, rnd);
    check_signature(s, "sign (prepared key, mu)", rc, sig, sig_len);
    verify_ok(s, "prepared key, mu",
              mldsa_verify(s->p, sig, sig_len, msg, sizeof msg, ctx, sizeof ctx, pk, pk_len));

    run_sign_batch(s, pk, msg, sizeof msg, ctx, sizeof ctx);
  }
  mldsa_secret_key_unprepare(&prepared);
}

int main(int argc, char **argv) {
  unsigned signs = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1;
  const char *isa = mldsa_test_isa_gate("test_ct");
  mldsa_test_seed_rng("test_ct");
  on_valgrind = RUNNING_ON_VALGRIND != 0;
  printf("test_ct: %s (isa %s, %u signature(s) per interface and set)\n",
         on_valgrind ? "under valgrind memcheck" : "NOT under valgrind: functional run only", isa,
         signs);
  for (unsigned i = 0; i < 3; ++i) run_set(&sets[i], signs);
  unsigned errors = VALGRIND_COUNT_ERRORS;
  printf("test_ct: isa %s: %u memcheck errors, %u failures\n", isa, errors, failures);
  return failures || errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
