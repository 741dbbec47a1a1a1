/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The public API (include/mldsa.h) on bad and good input.
 *
 * - Every error code of every function, from a table of faults (unknown parameter set,
 *   NULL pointers, lengths off by one, long contexts, unknown hashes, malformed keys, bad
 *   signatures) applied one at a time and two at a time: with two faults the code must be
 *   that of the first failing check in the order the library promises (DESIGN.md,
 *   src/api.c): PARAM, NULL, LENGTH, CONTEXT, HASH, then what the operation finds (KEY,
 *   VERIFY). Output buffers are pre-filled with 0xAA; after PARAM, NULL or LENGTH they must
 *   be untouched (a stated length may be the wrong one), after any later error zero over
 *   their stated length, and no call may write past its stated length.
 * - sizes, strerror, mldsa_isa;
 * - round trips for every parameter set, with one-bit changes of signature, message,
 *   context and public key; hedged and deterministic signing; the internal, external-mu
 *   and pre-hash interfaces checked against each other through M' built here (with our own
 *   table of hash OIDs); context lengths 0 and 255; empty messages; malformed and
 *   inconsistent secret keys; strict signature decoding (hints, z bound);
 * - outputs into exactly sized heap buffers with lengths of another set or swapped (nothing
 *   written: ASan in ci/sanitizers sees any write); inputs overlapping outputs (in place);
 *   mldsa_sign_internal with rnd = NULL is hedged.
 *
 * Registered once per ISA (MLDSA_ISA=<isa>); an ISA the library does not use is skipped.
 * Random data comes from a seeded PRNG (MLDSA_TEST_SEED, printed). */
#include <check.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"
#include "test_common.h"

/* ---------------------------------------------------------------- parameter sets */

typedef struct {
  mldsa_param p;
  const char *name;
  size_t pk, sk, sig;
  unsigned k, l, eta, omega, ctilde, beta;
  uint32_t gamma1;
  unsigned eta_bits, z_bits, polyeta, polyz;
} set_info;

static const set_info sets[3] = {
    {MLDSA_44, "ML-DSA-44", 1312, 2560, 2420, 4, 4, 2, 80, 32, 78, 1u << 17, 3, 18, 96, 576},
    {MLDSA_65, "ML-DSA-65", 1952, 4032, 3309, 6, 5, 4, 55, 48, 196, 1u << 19, 4, 20, 128, 640},
    {MLDSA_87, "ML-DSA-87", 2592, 4896, 4627, 8, 7, 2, 75, 64, 120, 1u << 19, 3, 20, 96, 640},
};

#define PK_MAX 2592
#define SK_MAX 4896
#define SIG_MAX 4627
#define SLACK 64 /* room past the largest stated length, for off-by-one lengths and canaries */
#define FILL 0xAA

/* Byte offsets in the encodings (FIPS 204 Alg. 24, 26). */
static size_t sk_s1_offset(const set_info *s) { return (void)s, 128; }
static size_t sk_t0_offset(const set_info *s) { return 128 + (s->l + s->k) * s->polyeta; }
static size_t sig_z_offset(const set_info *s) { return s->ctilde; }
static size_t sig_h_offset(const set_info *s) { return s->ctilde + s->l * s->polyz; }

/* Little-endian bit field of an encoding. */
static void set_bits(uint8_t *base, size_t bit, unsigned nbits, uint32_t v) {
  for (unsigned i = 0; i < nbits; ++i, ++bit) {
    uint8_t m = (uint8_t)(1u << (bit % 8));
    if ((v >> i) & 1) base[bit / 8] |= m;
    else base[bit / 8] &= (uint8_t)~m;
  }
}

static uint32_t get_bits(const uint8_t *base, size_t bit, unsigned nbits) {
  uint32_t v = 0;
  for (unsigned i = 0; i < nbits; ++i, ++bit) v |= (uint32_t)((base[bit / 8] >> (bit % 8)) & 1) << i;
  return v;
}

/* Coefficient j of eta-encoded polynomial i of s1 (i < l) or s2 (i >= l) set to encoded
 * value v (the coefficient is eta - v; valid encodings are 0..2 eta). */
static void set_sk_eta(const set_info *s, uint8_t *sk, unsigned i, unsigned j, uint32_t v) {
  set_bits(sk + sk_s1_offset(s) + i * s->polyeta, (size_t)j * s->eta_bits, s->eta_bits, v);
}

/* Coefficient j of z polynomial i set to the value z (encoded as gamma1 - z). */
static void set_sig_z(const set_info *s, uint8_t *sig, unsigned i, unsigned j, int32_t z) {
  set_bits(sig + sig_z_offset(s) + i * s->polyz, (size_t)j * s->z_bits, s->z_bits,
           (uint32_t)((int32_t)s->gamma1 - z));
}

static const char *rc_name(int rc) {
  switch (rc) {
    case MLDSA_OK: return "MLDSA_OK";
    case MLDSA_ERR_VERIFY: return "MLDSA_ERR_VERIFY";
    case MLDSA_ERR_PARAM: return "MLDSA_ERR_PARAM";
    case MLDSA_ERR_LENGTH: return "MLDSA_ERR_LENGTH";
    case MLDSA_ERR_CONTEXT: return "MLDSA_ERR_CONTEXT";
    case MLDSA_ERR_NULL: return "MLDSA_ERR_NULL";
    case MLDSA_ERR_RANDOM: return "MLDSA_ERR_RANDOM";
    case MLDSA_ERR_KEY: return "MLDSA_ERR_KEY";
    case MLDSA_ERR_HASH: return "MLDSA_ERR_HASH";
    default: return "(unknown code)";
  }
}

/* ASSERT_RC(call, want, "who", "what", ...): the strings (one or more) say where. */
static void check_rc(int rc, int want, const char *call, const char *first, ...) {
  if (rc == want) return;
  char where[256];
  size_t n = (size_t)snprintf(where, sizeof where, "%s", first);
  va_list ap;
  va_start(ap, first);
  for (const char *w = va_arg(ap, const char *); w != NULL && n < sizeof where;
       w = va_arg(ap, const char *))
    n += (size_t)snprintf(where + n, sizeof where - n, ", %s", w);
  va_end(ap);
  ck_assert_msg(rc == want, "%s: %s returned %d %s, expected %s", where, call, rc, rc_name(rc),
                rc_name(want));
}
#define ASSERT_RC(call, want, ...) check_rc((call), (want), #call, __VA_ARGS__, (const char *)NULL)

/* ---------------------------------------------------------------- the fixture */

/* Keys, inputs and valid signatures of one parameter set, made through the API. */
typedef struct {
  const set_info *s;
  uint8_t seed[32], rnd[32];
  uint8_t pk[PK_MAX], sk[SK_MAX];
  uint8_t msg[64];
  uint8_t ctx[1024]; /* readable far past any valid context length */
  uint8_t mu[64], digest[64];
  uint8_t sig_pure[SIG_MAX], sig_ph[SIG_MAX], sig_int[SIG_MAX], sig_mu[SIG_MAX];
  uint8_t bad_sk[SK_MAX];    /* s1 coefficient out of range */
  uint8_t bad_tr_sk[SK_MAX]; /* tr altered */
  uint8_t bad_sig[SIG_MAX];  /* the valid signature of the call with one bit of c~ flipped */
} fixture;

#define MSG_LEN 33
#define CTX_LEN 5
#define DEFAULT_HASH MLDSA_SHA2_384
#define DEFAULT_DIGEST_LEN 48

static fixture fx;

static void make_fixture(const set_info *s) {
  memset(&fx, 0, sizeof fx);
  fx.s = s;
  mldsa_test_randbytes(fx.seed, sizeof fx.seed);
  mldsa_test_randbytes(fx.rnd, sizeof fx.rnd);
  mldsa_test_randbytes(fx.msg, sizeof fx.msg);
  mldsa_test_randbytes(fx.ctx, sizeof fx.ctx);
  mldsa_test_randbytes(fx.digest, sizeof fx.digest);
  ASSERT_RC(mldsa_keygen_from_seed(s->p, fx.pk, s->pk, fx.sk, s->sk, fx.seed), MLDSA_OK, s->name);
  ASSERT_RC(mldsa_compute_mu(s->p, fx.mu, fx.pk, s->pk, fx.msg, MSG_LEN, fx.ctx, CTX_LEN),
            MLDSA_OK, s->name);
  ASSERT_RC(mldsa_sign(s->p, fx.sig_pure, s->sig, fx.msg, MSG_LEN, fx.ctx, CTX_LEN, fx.rnd, fx.sk,
                       s->sk),
            MLDSA_OK, s->name);
  ASSERT_RC(mldsa_sign_prehash(s->p, fx.sig_ph, s->sig, fx.digest, DEFAULT_DIGEST_LEN,
                               DEFAULT_HASH, fx.ctx, CTX_LEN, fx.rnd, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ASSERT_RC(mldsa_sign_internal(s->p, fx.sig_int, s->sig, fx.msg, MSG_LEN, fx.rnd, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ASSERT_RC(mldsa_sign_mu(s->p, fx.sig_mu, s->sig, fx.mu, fx.rnd, fx.sk, s->sk), MLDSA_OK,
            s->name);
  memcpy(fx.bad_sk, fx.sk, s->sk);
  set_sk_eta(s, fx.bad_sk, 0, 0, 2 * s->eta + 1);
  memcpy(fx.bad_tr_sk, fx.sk, s->sk);
  fx.bad_tr_sk[64] ^= 0x01;
}

/* ---------------------------------------------------------------- the fault table */

enum {
  FN_KEYGEN, FN_KEYGEN_SEED, FN_SIGN, FN_SIGN_PREHASH, FN_SIGN_INTERNAL, FN_SIGN_MU,
  FN_VERIFY, FN_VERIFY_PREHASH, FN_VERIFY_INTERNAL, FN_VERIFY_MU, FN_COMPUTE_MU,
  FN_PK_FROM_SK, NUM_FNS
};

/* What a function takes. */
enum {
  U_PK_OUT = 1 << 0, U_PK_IN = 1 << 1, U_SK_OUT = 1 << 2, U_SK_IN = 1 << 3,
  U_SIG_OUT = 1 << 4, U_SIG_IN = 1 << 5, U_MSG = 1 << 6, U_CTX = 1 << 7,
  U_SEED = 1 << 9, U_MU_OUT = 1 << 10, U_MU_IN = 1 << 11,
  U_DIGEST = 1 << 12, U_SK_IMPORT = 1 << 13, U_ALL = (1 << 14) - 1
};

static const struct {
  const char *name;
  unsigned uses;
} fns[NUM_FNS] = {
    [FN_KEYGEN] = {"mldsa_keygen", U_PK_OUT | U_SK_OUT},
    [FN_KEYGEN_SEED] = {"mldsa_keygen_from_seed", U_PK_OUT | U_SK_OUT | U_SEED},
    [FN_SIGN] = {"mldsa_sign", U_SIG_OUT | U_MSG | U_CTX | U_SK_IN},
    [FN_SIGN_PREHASH] = {"mldsa_sign_prehash", U_SIG_OUT | U_DIGEST | U_CTX | U_SK_IN},
    /* rnd = NULL is hedged here too, as in every signing call */
    [FN_SIGN_INTERNAL] = {"mldsa_sign_internal", U_SIG_OUT | U_MSG | U_SK_IN},
    [FN_SIGN_MU] = {"mldsa_sign_mu", U_SIG_OUT | U_MU_IN | U_SK_IN},
    [FN_VERIFY] = {"mldsa_verify", U_SIG_IN | U_MSG | U_CTX | U_PK_IN},
    [FN_VERIFY_PREHASH] = {"mldsa_verify_prehash", U_SIG_IN | U_DIGEST | U_CTX | U_PK_IN},
    [FN_VERIFY_INTERNAL] = {"mldsa_verify_internal", U_SIG_IN | U_MSG | U_PK_IN},
    [FN_VERIFY_MU] = {"mldsa_verify_mu", U_SIG_IN | U_MU_IN | U_PK_IN},
    [FN_COMPUTE_MU] = {"mldsa_compute_mu", U_MU_OUT | U_PK_IN | U_MSG | U_CTX},
    [FN_PK_FROM_SK] = {"mldsa_public_key_from_secret", U_PK_OUT | U_SK_IN | U_SK_IMPORT},
};

/* All arguments of all functions; a call uses its own. */
typedef struct {
  mldsa_param p;
  uint8_t *out_pk;
  const uint8_t *pk;
  size_t pk_len;
  uint8_t *out_sk;
  const uint8_t *sk;
  size_t sk_len;
  uint8_t *out_sig;
  const uint8_t *sig;
  size_t sig_len;
  const uint8_t *msg;
  size_t msg_len;
  const uint8_t *ctx;
  size_t ctx_len;
  const uint8_t *rnd;
  const uint8_t *seed;
  uint8_t *out_mu;
  const uint8_t *mu;
  const uint8_t *digest;
  size_t digest_len;
  mldsa_hash h;
} args;

static uint8_t out_pk[PK_MAX + SLACK], out_sk[SK_MAX + SLACK], out_sig[SIG_MAX + SLACK],
    out_mu[64 + SLACK];

static args default_args(int fn) {
  const set_info *s = fx.s;
  args a = {
      .p = s->p, .out_pk = out_pk, .pk = fx.pk, .pk_len = s->pk, .out_sk = out_sk,
      .sk = fx.sk, .sk_len = s->sk, .out_sig = out_sig, .sig = NULL, .sig_len = s->sig,
      .msg = fx.msg, .msg_len = MSG_LEN, .ctx = fx.ctx, .ctx_len = CTX_LEN, .rnd = fx.rnd,
      .seed = fx.seed, .out_mu = out_mu, .mu = fx.mu, .digest = fx.digest,
      .digest_len = DEFAULT_DIGEST_LEN, .h = DEFAULT_HASH,
  };
  switch (fn) {
    case FN_VERIFY: a.sig = fx.sig_pure; break;
    case FN_VERIFY_PREHASH: a.sig = fx.sig_ph; break;
    case FN_VERIFY_INTERNAL: a.sig = fx.sig_int; break;
    case FN_VERIFY_MU: a.sig = fx.sig_mu; break;
    default: break;
  }
  return a;
}

static int call(int fn, const args *a) {
  switch (fn) {
    case FN_KEYGEN: return mldsa_keygen(a->p, a->out_pk, a->pk_len, a->out_sk, a->sk_len);
    case FN_KEYGEN_SEED:
      return mldsa_keygen_from_seed(a->p, a->out_pk, a->pk_len, a->out_sk, a->sk_len, a->seed);
    case FN_SIGN:
      return mldsa_sign(a->p, a->out_sig, a->sig_len, a->msg, a->msg_len, a->ctx, a->ctx_len,
                        a->rnd, a->sk, a->sk_len);
    case FN_SIGN_PREHASH:
      return mldsa_sign_prehash(a->p, a->out_sig, a->sig_len, a->digest, a->digest_len, a->h,
                                a->ctx, a->ctx_len, a->rnd, a->sk, a->sk_len);
    case FN_SIGN_INTERNAL:
      return mldsa_sign_internal(a->p, a->out_sig, a->sig_len, a->msg, a->msg_len, a->rnd, a->sk,
                                 a->sk_len);
    case FN_SIGN_MU:
      return mldsa_sign_mu(a->p, a->out_sig, a->sig_len, a->mu, a->rnd, a->sk, a->sk_len);
    case FN_VERIFY:
      return mldsa_verify(a->p, a->sig, a->sig_len, a->msg, a->msg_len, a->ctx, a->ctx_len, a->pk,
                          a->pk_len);
    case FN_VERIFY_PREHASH:
      return mldsa_verify_prehash(a->p, a->sig, a->sig_len, a->digest, a->digest_len, a->h,
                                  a->ctx, a->ctx_len, a->pk, a->pk_len);
    case FN_VERIFY_INTERNAL:
      return mldsa_verify_internal(a->p, a->sig, a->sig_len, a->msg, a->msg_len, a->pk,
                                   a->pk_len);
    case FN_VERIFY_MU: return mldsa_verify_mu(a->p, a->sig, a->sig_len, a->mu, a->pk, a->pk_len);
    case FN_COMPUTE_MU:
      return mldsa_compute_mu(a->p, a->out_mu, a->pk, a->pk_len, a->msg, a->msg_len, a->ctx,
                              a->ctx_len);
    case FN_PK_FROM_SK:
      return mldsa_public_key_from_secret(a->p, a->out_pk, a->pk_len, a->sk, a->sk_len);
    default: return 12345;
  }
}

/* Argument groups: two faults of one group are never combined. */
enum { G_P, G_SIG, G_SIGLEN, G_SK, G_SKLEN, G_PK, G_PKLEN, G_MSG, G_CTX, G_CTXLEN, G_SEED, G_MU, G_DIGEST, G_DIGSPEC, G_SKDATA, G_SIGDATA };

typedef enum {
  F_P0, F_P45, F_PNEG, F_P88, F_P43,
  F_NULL_SIG, F_NULL_SK, F_NULL_PK, F_NULL_MSG, F_NULL_CTX, F_NULL_SEED, F_NULL_MU,
  F_NULL_DIGEST,
  F_SIGLEN_P1, F_SIGLEN_M1, F_SIGLEN_0, F_SKLEN_P1, F_SKLEN_M1, F_SKLEN_0, F_PKLEN_P1,
  F_PKLEN_M1, F_PKLEN_0, F_DIGLEN_P1, F_DIGLEN_M1, F_DIGLEN_OTHER, F_DIGLEN_0,
  F_CTX_256, F_CTX_1000, F_CTX_MAX,
  F_HASH_12, F_HASH_NEG, F_HASH_255,
  F_KEY_S1, F_KEY_TR,
  F_BAD_SIG,
  NUM_FAULTS
} fault_id;

static const struct {
  int code;      /* the code this fault alone gives */
  int group;
  unsigned uses; /* the functions it applies to: those taking any of these */
  int single;    /* only on its own (a variant of a fault that is paired) */
  const char *what;
} faults[NUM_FAULTS] = {
    [F_P0] = {MLDSA_ERR_PARAM, G_P, U_ALL, 0, "p=0"},
    [F_P45] = {MLDSA_ERR_PARAM, G_P, U_ALL, 1, "p=45"},
    [F_PNEG] = {MLDSA_ERR_PARAM, G_P, U_ALL, 1, "p=-1"},
    [F_P88] = {MLDSA_ERR_PARAM, G_P, U_ALL, 1, "p=88"},
    [F_P43] = {MLDSA_ERR_PARAM, G_P, U_ALL, 1, "p=43"},
    [F_NULL_SIG] = {MLDSA_ERR_NULL, G_SIG, U_SIG_OUT | U_SIG_IN, 0, "sig=NULL"},
    [F_NULL_SK] = {MLDSA_ERR_NULL, G_SK, U_SK_OUT | U_SK_IN, 0, "sk=NULL"},
    [F_NULL_PK] = {MLDSA_ERR_NULL, G_PK, U_PK_OUT | U_PK_IN, 0, "pk=NULL"},
    [F_NULL_MSG] = {MLDSA_ERR_NULL, G_MSG, U_MSG, 0, "msg=NULL with msg_len=33"},
    [F_NULL_CTX] = {MLDSA_ERR_NULL, G_CTX, U_CTX, 0, "ctx=NULL with ctx_len=5"},
    [F_NULL_SEED] = {MLDSA_ERR_NULL, G_SEED, U_SEED, 0, "seed=NULL"},
    [F_NULL_MU] = {MLDSA_ERR_NULL, G_MU, U_MU_IN | U_MU_OUT, 0, "mu=NULL"},
    [F_NULL_DIGEST] = {MLDSA_ERR_NULL, G_DIGEST, U_DIGEST, 0, "digest=NULL"},
    [F_SIGLEN_P1] = {MLDSA_ERR_LENGTH, G_SIGLEN, U_SIG_OUT | U_SIG_IN, 0, "sig_len+1"},
    [F_SIGLEN_M1] = {MLDSA_ERR_LENGTH, G_SIGLEN, U_SIG_OUT | U_SIG_IN, 1, "sig_len-1"},
    [F_SIGLEN_0] = {MLDSA_ERR_LENGTH, G_SIGLEN, U_SIG_OUT | U_SIG_IN, 1, "sig_len=0"},
    [F_SKLEN_P1] = {MLDSA_ERR_LENGTH, G_SKLEN, U_SK_OUT | U_SK_IN, 0, "sk_len+1"},
    [F_SKLEN_M1] = {MLDSA_ERR_LENGTH, G_SKLEN, U_SK_OUT | U_SK_IN, 1, "sk_len-1"},
    [F_SKLEN_0] = {MLDSA_ERR_LENGTH, G_SKLEN, U_SK_OUT | U_SK_IN, 1, "sk_len=0"},
    [F_PKLEN_P1] = {MLDSA_ERR_LENGTH, G_PKLEN, U_PK_OUT | U_PK_IN, 0, "pk_len+1"},
    [F_PKLEN_M1] = {MLDSA_ERR_LENGTH, G_PKLEN, U_PK_OUT | U_PK_IN, 1, "pk_len-1"},
    [F_PKLEN_0] = {MLDSA_ERR_LENGTH, G_PKLEN, U_PK_OUT | U_PK_IN, 1, "pk_len=0"},
    /* digest length and hash id together say what is wrong: never combined */
    [F_DIGLEN_P1] = {MLDSA_ERR_LENGTH, G_DIGSPEC, U_DIGEST, 0, "digest_len+1"},
    [F_DIGLEN_M1] = {MLDSA_ERR_LENGTH, G_DIGSPEC, U_DIGEST, 1, "digest_len-1"},
    [F_DIGLEN_OTHER] = {MLDSA_ERR_LENGTH, G_DIGSPEC, U_DIGEST, 1, "digest_len=64 for SHA2-384"},
    [F_DIGLEN_0] = {MLDSA_ERR_LENGTH, G_DIGSPEC, U_DIGEST, 1, "digest_len=0"},
    [F_CTX_256] = {MLDSA_ERR_CONTEXT, G_CTXLEN, U_CTX, 0, "ctx_len=256"},
    [F_CTX_1000] = {MLDSA_ERR_CONTEXT, G_CTXLEN, U_CTX, 1, "ctx_len=1000"},
    [F_CTX_MAX] = {MLDSA_ERR_CONTEXT, G_CTXLEN, U_CTX, 1, "ctx_len=SIZE_MAX"},
    [F_HASH_12] = {MLDSA_ERR_HASH, G_DIGSPEC, U_DIGEST, 0, "hash=12"},
    [F_HASH_NEG] = {MLDSA_ERR_HASH, G_DIGSPEC, U_DIGEST, 1, "hash=-1"},
    [F_HASH_255] = {MLDSA_ERR_HASH, G_DIGSPEC, U_DIGEST, 1, "hash=255"},
    [F_KEY_S1] = {MLDSA_ERR_KEY, G_SKDATA, U_SK_IN, 0, "sk with an s1 coefficient out of range"},
    [F_KEY_TR] = {MLDSA_ERR_KEY, G_SKDATA, U_SK_IMPORT, 1, "sk with tr altered"},
    [F_BAD_SIG] = {MLDSA_ERR_VERIFY, G_SIGDATA, U_SIG_IN, 0, "signature with c~ altered"},
};

/* The order of the checks: a smaller rank is reported first. */
static int rank(int code) {
  switch (code) {
    case MLDSA_ERR_PARAM: return 0;
    case MLDSA_ERR_NULL: return 1;
    case MLDSA_ERR_LENGTH: return 2;
    case MLDSA_ERR_CONTEXT: return 3;
    case MLDSA_ERR_HASH: return 4;
    default: return 5; /* found by the operation itself: KEY, VERIFY */
  }
}

static void apply(args *a, fault_id f, int fn) {
  switch (f) {
    case F_P0: a->p = (mldsa_param)0; break;
    case F_P45: a->p = (mldsa_param)45; break;
    case F_PNEG: a->p = (mldsa_param)-1; break;
    case F_P88: a->p = (mldsa_param)88; break;
    case F_P43: a->p = (mldsa_param)43; break;
    case F_NULL_SIG: a->sig = NULL; a->out_sig = NULL; break;
    case F_NULL_SK: a->sk = NULL; a->out_sk = NULL; break;
    case F_NULL_PK: a->pk = NULL; a->out_pk = NULL; break;
    case F_NULL_MSG: a->msg = NULL; break;
    case F_NULL_CTX: a->ctx = NULL; break;
    case F_NULL_SEED: a->seed = NULL; break;
    case F_NULL_MU: a->mu = NULL; a->out_mu = NULL; break;
    case F_NULL_DIGEST: a->digest = NULL; break;
    case F_SIGLEN_P1: a->sig_len += 1; break;
    case F_SIGLEN_M1: a->sig_len -= 1; break;
    case F_SIGLEN_0: a->sig_len = 0; break;
    case F_SKLEN_P1: a->sk_len += 1; break;
    case F_SKLEN_M1: a->sk_len -= 1; break;
    case F_SKLEN_0: a->sk_len = 0; break;
    case F_PKLEN_P1: a->pk_len += 1; break;
    case F_PKLEN_M1: a->pk_len -= 1; break;
    case F_PKLEN_0: a->pk_len = 0; break;
    case F_DIGLEN_P1: a->digest_len += 1; break;
    case F_DIGLEN_M1: a->digest_len -= 1; break;
    case F_DIGLEN_OTHER: a->digest_len = 64; break;
    case F_DIGLEN_0: a->digest_len = 0; break;
    case F_CTX_256: a->ctx_len = 256; break;
    case F_CTX_1000: a->ctx_len = 1000; break;
    case F_CTX_MAX: a->ctx_len = SIZE_MAX; break;
    case F_HASH_12: a->h = (mldsa_hash)12; break;
    case F_HASH_NEG: a->h = (mldsa_hash)-1; break;
    case F_HASH_255: a->h = (mldsa_hash)255; break;
    /* content faults keep a NULL pointer NULL (when paired with a NULL fault) */
    case F_KEY_S1: if (a->sk) a->sk = fx.bad_sk; break;
    case F_KEY_TR: if (a->sk) a->sk = fx.bad_tr_sk; break;
    case F_BAD_SIG:
      if (a->sig == NULL) break;
      memcpy(fx.bad_sig, a->sig, fx.s->sig);
      fx.bad_sig[0] ^= 0x01;
      a->sig = fx.bad_sig;
      break;
    default: break;
  }
  (void)fn;
}

static int applies(fault_id f, int fn) { return (faults[f].uses & fns[fn].uses) != 0; }

/* Checks an output after a call that returned rc: untouched after PARAM, NULL or LENGTH
 * (found before the lengths are known to be right), zero over its stated length after any
 * other error, and nothing written past it either way. Returns a description of the
 * problem or NULL. */
static const char *check_output(const uint8_t *buf, size_t len, int rc) {
  if (buf == NULL) return NULL;
  if (rc == MLDSA_ERR_PARAM || rc == MLDSA_ERR_NULL || rc == MLDSA_ERR_LENGTH) {
    if (!mldsa_test_all(buf, len, FILL)) return "an output was written after a PARAM/NULL/LENGTH error";
  } else if (rc != MLDSA_OK && !mldsa_test_all(buf, len, 0)) {
    return "an output is not zeroed after the error";
  }
  if (buf[len] != FILL) return "a byte past an output's stated length was written";
  return NULL;
}

static void prefill_outputs(void) {
  memset(out_pk, FILL, sizeof out_pk);
  memset(out_sk, FILL, sizeof out_sk);
  memset(out_sig, FILL, sizeof out_sig);
  memset(out_mu, FILL, sizeof out_mu);
}

/* Runs fn with the given faults (NUM_FAULTS = none); appends a line to report on any
 * mismatch and returns 1, else 0. */
static int run_case(int fn, fault_id f1, fault_id f2, char *report, size_t cap, size_t *used) {
  args a = default_args(fn);
  int want = MLDSA_OK;
  char what[160] = "no fault";
  if (f1 != NUM_FAULTS) {
    apply(&a, f1, fn);
    want = faults[f1].code;
    snprintf(what, sizeof what, "%s", faults[f1].what);
  }
  if (f2 != NUM_FAULTS) {
    apply(&a, f2, fn);
    if (rank(faults[f2].code) < rank(want)) want = faults[f2].code;
    size_t n = strlen(what);
    snprintf(what + n, sizeof what - n, " + %s", faults[f2].what);
  }
  prefill_outputs();
  int rc = call(fn, &a);
  const char *problem = NULL;
  unsigned u = fns[fn].uses;
  if (u & U_PK_OUT) problem = check_output(a.out_pk, a.pk_len, rc);
  if (!problem && (u & U_SK_OUT)) problem = check_output(a.out_sk, a.sk_len, rc);
  if (!problem && (u & U_SIG_OUT)) problem = check_output(a.out_sig, a.sig_len, rc);
  if (!problem && (u & U_MU_OUT)) problem = check_output(a.out_mu, 64, rc);
  if (rc == want && problem == NULL) return 0;
  if (*used < cap) {
    int n = snprintf(report + *used, cap - *used, "\n  %s %s [%s]: returned %s, expected %s%s%s",
                     fx.s->name, fns[fn].name, what, rc_name(rc), rc_name(want),
                     problem ? "; " : "", problem ? problem : "");
    if (n > 0) *used += (size_t)n;
    if (*used >= cap) *used = cap;
  }
  return 1;
}

/* _i = fn * 3 + set: every single fault and every pair of faults of different groups. */
START_TEST(test_error_codes) {
  const int fn = _i / 3;
  make_fixture(&sets[_i % 3]);
  char report[3000];
  size_t used = 0;
  int bad = 0, cases = 0;
  report[0] = '\0';

  bad += run_case(fn, NUM_FAULTS, NUM_FAULTS, report, sizeof report, &used);
  cases++;
  for (int f1 = 0; f1 < NUM_FAULTS; ++f1) {
    if (!applies((fault_id)f1, fn)) continue;
    bad += run_case(fn, (fault_id)f1, NUM_FAULTS, report, sizeof report, &used);
    cases++;
    if (faults[f1].single) continue;
    for (int f2 = f1 + 1; f2 < NUM_FAULTS; ++f2) {
      if (!applies((fault_id)f2, fn) || faults[f2].single || faults[f1].group == faults[f2].group)
        continue;
      bad += run_case(fn, (fault_id)f1, (fault_id)f2, report, sizeof report, &used);
      cases++;
    }
  }
  ck_assert_msg(bad == 0, "%s %s: %d of %d cases wrong:%s", fx.s->name, fns[fn].name, bad, cases,
                report);
}
END_TEST

/* NULL is allowed with length 0 for msg, ctx and M'. */
START_TEST(test_null_with_zero_length) {
  make_fixture(&sets[_i]);
  const set_info *s = fx.s;
  static const uint8_t zero_rnd[32];
  uint8_t sig_null[SIG_MAX], sig_empty[SIG_MAX], mu1[64], mu2[64];
  const uint8_t *empty = fx.msg; /* non-NULL, length 0 */

  ASSERT_RC(mldsa_sign(s->p, sig_null, s->sig, NULL, 0, NULL, 0, zero_rnd, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ASSERT_RC(mldsa_sign(s->p, sig_empty, s->sig, empty, 0, empty, 0, zero_rnd, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ck_assert_msg(memcmp(sig_null, sig_empty, s->sig) == 0,
                "%s: mldsa_sign of an empty message and context differs for NULL and non-NULL",
                s->name);
  ASSERT_RC(mldsa_verify(s->p, sig_null, s->sig, NULL, 0, NULL, 0, fx.pk, s->pk), MLDSA_OK,
            s->name);
  ASSERT_RC(mldsa_verify(s->p, sig_null, s->sig, empty, 0, empty, 0, fx.pk, s->pk), MLDSA_OK,
            s->name);
  ASSERT_RC(mldsa_compute_mu(s->p, mu1, fx.pk, s->pk, NULL, 0, NULL, 0), MLDSA_OK, s->name);
  ASSERT_RC(mldsa_compute_mu(s->p, mu2, fx.pk, s->pk, empty, 0, empty, 0), MLDSA_OK, s->name);
  ck_assert_msg(memcmp(mu1, mu2, 64) == 0, "%s: mldsa_compute_mu differs for NULL and empty",
                s->name);

  ASSERT_RC(mldsa_sign_internal(s->p, sig_null, s->sig, NULL, 0, zero_rnd, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ASSERT_RC(mldsa_sign_internal(s->p, sig_empty, s->sig, empty, 0, zero_rnd, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ck_assert_msg(memcmp(sig_null, sig_empty, s->sig) == 0,
                "%s: mldsa_sign_internal of an empty M' differs for NULL and non-NULL", s->name);
  ASSERT_RC(mldsa_verify_internal(s->p, sig_null, s->sig, NULL, 0, fx.pk, s->pk), MLDSA_OK,
            s->name);

  ASSERT_RC(mldsa_sign_prehash(s->p, sig_null, s->sig, fx.digest, 32, MLDSA_SHA2_256, NULL, 0,
                               zero_rnd, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ASSERT_RC(mldsa_sign_prehash(s->p, sig_empty, s->sig, fx.digest, 32, MLDSA_SHA2_256, empty, 0,
                               zero_rnd, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ck_assert_msg(memcmp(sig_null, sig_empty, s->sig) == 0,
                "%s: mldsa_sign_prehash with an empty context differs for NULL and non-NULL",
                s->name);
  ASSERT_RC(mldsa_verify_prehash(s->p, sig_null, s->sig, fx.digest, 32, MLDSA_SHA2_256, NULL, 0,
                                 fx.pk, s->pk),
            MLDSA_OK, s->name);
}
END_TEST

/* ---------------------------------------------------------------- small functions */

START_TEST(test_sizes) {
  for (int i = 0; i < 3; ++i) {
    ck_assert_msg(mldsa_public_key_bytes(sets[i].p) == sets[i].pk, "%s: pk bytes %zu, expected %zu",
                  sets[i].name, mldsa_public_key_bytes(sets[i].p), sets[i].pk);
    ck_assert_msg(mldsa_secret_key_bytes(sets[i].p) == sets[i].sk, "%s: sk bytes %zu, expected %zu",
                  sets[i].name, mldsa_secret_key_bytes(sets[i].p), sets[i].sk);
    ck_assert_msg(mldsa_signature_bytes(sets[i].p) == sets[i].sig,
                  "%s: signature bytes %zu, expected %zu", sets[i].name,
                  mldsa_signature_bytes(sets[i].p), sets[i].sig);
  }
  const int unknown[] = {0, 1, 43, 45, 64, 66, 86, 88, 128, -1, -44, INT_MAX, INT_MIN};
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; ++i) {
    mldsa_param p = (mldsa_param)unknown[i];
    ck_assert_msg(mldsa_public_key_bytes(p) == 0 && mldsa_secret_key_bytes(p) == 0 &&
                      mldsa_signature_bytes(p) == 0,
                  "sizes of unknown parameter set %d are not 0", unknown[i]);
  }
}
END_TEST

START_TEST(test_strerror) {
  const int known[] = {MLDSA_OK,          MLDSA_ERR_VERIFY, MLDSA_ERR_PARAM,
                       MLDSA_ERR_LENGTH,  MLDSA_ERR_CONTEXT, MLDSA_ERR_NULL,
                       MLDSA_ERR_RANDOM,  MLDSA_ERR_KEY,    MLDSA_ERR_HASH,   MLDSA_ERR_SELFTEST};
  const int unknown[] = {1, -9, 2, 100, -100, INT_MAX, INT_MIN};
  const size_t nk = sizeof known / sizeof known[0];
  for (size_t i = 0; i < nk; ++i) {
    const char *m = mldsa_strerror(known[i]);
    ck_assert_msg(m != NULL && m[0] != '\0', "mldsa_strerror(%d) is NULL or empty", known[i]);
    for (size_t j = 0; j < i; ++j)
      ck_assert_msg(strcmp(m, mldsa_strerror(known[j])) != 0,
                    "mldsa_strerror gives the same text for %d and %d", known[i], known[j]);
  }
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; ++i) {
    const char *m = mldsa_strerror(unknown[i]);
    ck_assert_msg(m != NULL && m[0] != '\0', "mldsa_strerror(%d) is NULL or empty", unknown[i]);
    for (size_t j = 0; j < nk; ++j)
      ck_assert_msg(strcmp(m, mldsa_strerror(known[j])) != 0,
                    "mldsa_strerror(%d) (unknown) reads like the text of code %d: \"%s\"",
                    unknown[i], known[j], m);
  }
}
END_TEST

START_TEST(test_isa) {
  const char *isa = mldsa_isa();
  ck_assert_ptr_nonnull(isa);
#if defined(__aarch64__)
  ck_assert_msg(strcmp(isa, "scalar") == 0 || strcmp(isa, "neon") == 0,
                "mldsa_isa() = \"%s\" is none of scalar, neon", isa);
#else
  ck_assert_msg(strcmp(isa, "scalar") == 0 || strcmp(isa, "sse2") == 0 ||
                    strcmp(isa, "avx2") == 0 || strcmp(isa, "avx512") == 0,
                "mldsa_isa() = \"%s\" is none of scalar, sse2, avx2, avx512", isa);
#endif
  ck_assert_msg(strcmp(isa, mldsa_isa()) == 0, "mldsa_isa() changed between calls");
  const char *cap = getenv("MLDSA_ISA");
  if (cap != NULL && *cap != '\0')
    ck_assert_msg(strcmp(cap, isa) == 0, "MLDSA_ISA=%s but mldsa_isa() = %s", cap, isa);
}
END_TEST

/* ---------------------------------------------------------------- keys */

START_TEST(test_keygen) {
  const set_info *s = &sets[_i];
  uint8_t pk1[PK_MAX], sk1[SK_MAX], pk2[PK_MAX], sk2[SK_MAX], pk3[PK_MAX], seed[32];
  mldsa_test_randbytes(seed, sizeof seed);
  ASSERT_RC(mldsa_keygen_from_seed(s->p, pk1, s->pk, sk1, s->sk, seed), MLDSA_OK, s->name);
  ASSERT_RC(mldsa_keygen_from_seed(s->p, pk2, s->pk, sk2, s->sk, seed), MLDSA_OK, s->name);
  ck_assert_msg(memcmp(pk1, pk2, s->pk) == 0 && memcmp(sk1, sk2, s->sk) == 0,
                "%s: mldsa_keygen_from_seed is not deterministic", s->name);
  ck_assert_msg(memcmp(pk1, sk1, 32) == 0, "%s: rho of pk and sk differ", s->name);
  ASSERT_RC(mldsa_public_key_from_secret(s->p, pk3, s->pk, sk1, s->sk), MLDSA_OK, s->name);
  ck_assert_msg(memcmp(pk1, pk3, s->pk) == 0,
                "%s: mldsa_public_key_from_secret of a fresh key is not its pk", s->name);

  ASSERT_RC(mldsa_keygen(s->p, pk1, s->pk, sk1, s->sk), MLDSA_OK, s->name);
  ASSERT_RC(mldsa_keygen(s->p, pk2, s->pk, sk2, s->sk), MLDSA_OK, s->name);
  ck_assert_msg(memcmp(pk1, pk2, s->pk) != 0 && memcmp(sk1, sk2, s->sk) != 0,
                "%s: two mldsa_keygen calls gave the same key", s->name);
  ASSERT_RC(mldsa_public_key_from_secret(s->p, pk3, s->pk, sk2, s->sk), MLDSA_OK, s->name);
  ck_assert_msg(memcmp(pk2, pk3, s->pk) == 0,
                "%s: mldsa_public_key_from_secret of an mldsa_keygen key is not its pk", s->name);
}
END_TEST

/* An eta-encoded field of s1 or s2 above 2 eta: MLDSA_ERR_KEY from every signing call and
 * from the import check; at 2 eta (coefficient -eta) the key still signs. */
START_TEST(test_malformed_secret_key) {
  make_fixture(&sets[_i]);
  const set_info *s = fx.s;
  uint8_t sk[SK_MAX], sig[SIG_MAX + 1], pk[PK_MAX + 1];
  const unsigned polys = s->l + s->k;
  /* (polynomial, coefficient): first of s1, one straddling a byte, the last of s1, the
   * first and last of s2 */
  const unsigned where[][2] = {{0, 0}, {0, 2}, {s->l - 1, 255}, {s->l, 0}, {polys - 1, 255}};
  const uint32_t max = (1u << s->eta_bits) - 1;

  for (size_t w = 0; w < sizeof where / sizeof where[0]; ++w)
    for (uint32_t v = 2 * s->eta; v <= max; ++v) {
      memcpy(sk, fx.sk, s->sk);
      set_sk_eta(s, sk, where[w][0], where[w][1], v);
      int want = v > 2 * s->eta ? MLDSA_ERR_KEY : MLDSA_OK;
#ifdef MLDSA_SIGN_CHECK
      /* signing recomputes pk from sk first: a changed s1/s2 no longer matches t0 and tr */
      if (want == MLDSA_OK && memcmp(sk, fx.sk, s->sk) != 0) want = MLDSA_ERR_KEY;
#endif
      char ctx[120];
      snprintf(ctx, sizeof ctx, "%s: %s polynomial %u coefficient %u encoded as %u", s->name,
               where[w][0] < s->l ? "s1" : "s2",
               where[w][0] < s->l ? where[w][0] : where[w][0] - s->l, where[w][1], v);
      memset(sig, FILL, sizeof sig);
      ASSERT_RC(mldsa_sign(s->p, sig, s->sig, fx.msg, MSG_LEN, fx.ctx, CTX_LEN, fx.rnd, sk, s->sk),
                want, ctx);
      if (want != MLDSA_OK)
        ck_assert_msg(mldsa_test_all(sig, s->sig, 0), "%s: signature not zeroed", ctx);
      ck_assert_msg(sig[s->sig] == FILL, "%s: wrote past the signature", ctx);
      if (want == MLDSA_OK) continue;
      ASSERT_RC(mldsa_sign(s->p, sig, s->sig, fx.msg, MSG_LEN, NULL, 0, NULL, sk, s->sk), want,
                ctx);
      ASSERT_RC(mldsa_sign_prehash(s->p, sig, s->sig, fx.digest, 64, MLDSA_SHA3_512, NULL, 0,
                                   fx.rnd, sk, s->sk),
                want, ctx);
      ASSERT_RC(mldsa_sign_internal(s->p, sig, s->sig, fx.msg, MSG_LEN, fx.rnd, sk, s->sk), want,
                ctx);
      ASSERT_RC(mldsa_sign_mu(s->p, sig, s->sig, fx.mu, fx.rnd, sk, s->sk), want, ctx);
      memset(pk, FILL, sizeof pk);
      ASSERT_RC(mldsa_public_key_from_secret(s->p, pk, s->pk, sk, s->sk), MLDSA_ERR_KEY, ctx);
      ck_assert_msg(mldsa_test_all(pk, s->pk, 0) && pk[s->pk] == FILL,
                    "%s: mldsa_public_key_from_secret: pk not zeroed over exactly its length", ctx);
    }
}
END_TEST

/* The import check: a key whose parts do not belong together. */
START_TEST(test_inconsistent_secret_key) {
  make_fixture(&sets[_i]);
  const set_info *s = fx.s;
  uint8_t sk[SK_MAX], pk[PK_MAX];
  const struct {
    size_t off;
    const char *what;
  } parts[] = {
      {64, "tr (first byte)"},
      {127, "tr (last byte)"},
      {0, "rho"},
      {sk_t0_offset(s), "t0 (first byte)"},
      {s->sk - 1, "t0 (last byte)"},
  };
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; ++i) {
    memcpy(sk, fx.sk, s->sk);
    sk[parts[i].off] ^= 0x04;
    memset(pk, FILL, sizeof pk);
    ASSERT_RC(mldsa_public_key_from_secret(s->p, pk, s->pk, sk, s->sk), MLDSA_ERR_KEY, s->name,
              parts[i].what);
    ck_assert_msg(mldsa_test_all(pk, s->pk, 0), "%s: altered %s: pk not zeroed", s->name,
                  parts[i].what);
  }
  /* s1 changed but still in range: t no longer matches t0/tr */
  memcpy(sk, fx.sk, s->sk);
  uint32_t v = get_bits(sk + sk_s1_offset(s), 0, s->eta_bits);
  set_sk_eta(s, sk, 0, 0, v == 0 ? 1 : v - 1);
  ASSERT_RC(mldsa_public_key_from_secret(s->p, pk, s->pk, sk, s->sk), MLDSA_ERR_KEY, s->name,
            "s1 changed within range");
  /* K (bytes 32..63) is random and bound to nothing else: it cannot be checked */
  memcpy(sk, fx.sk, s->sk);
  sk[40] ^= 0x10;
  ASSERT_RC(mldsa_public_key_from_secret(s->p, pk, s->pk, sk, s->sk), MLDSA_OK, s->name,
            "K altered");
  ck_assert_msg(memcmp(pk, fx.pk, s->pk) == 0, "%s: K altered: pk changed", s->name);
}
END_TEST

/* ---------------------------------------------------------------- round trips */

START_TEST(test_roundtrip_bitflips) {
  make_fixture(&sets[_i]);
  const set_info *s = fx.s;
  uint8_t msg[201], ctx[40], sig[SIG_MAX], bad[SIG_MAX], pk[PK_MAX];
  const size_t msg_len = 1 + mldsa_test_randbelow(sizeof msg - 1); /* msg_len + 1 readable */
  const size_t ctx_len = 1 + mldsa_test_randbelow(sizeof ctx);
  mldsa_test_randbytes(msg, sizeof msg);
  mldsa_test_randbytes(ctx, sizeof ctx);

  ASSERT_RC(mldsa_sign(s->p, sig, s->sig, msg, msg_len, ctx, ctx_len, NULL, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ASSERT_RC(mldsa_verify(s->p, sig, s->sig, msg, msg_len, ctx, ctx_len, fx.pk, s->pk), MLDSA_OK,
            s->name);

  /* signature: every byte of c~ and of the hints, and every 13th byte of z */
  const size_t h = sig_h_offset(s);
  for (size_t i = 0; i < s->sig; ++i) {
    if (i >= s->ctilde && i < h && (i - s->ctilde) % 13 != 0) continue;
    memcpy(bad, sig, s->sig);
    bad[i] ^= (uint8_t)(1u << (i % 8));
    int rc = mldsa_verify(s->p, bad, s->sig, msg, msg_len, ctx, ctx_len, fx.pk, s->pk);
    ck_assert_msg(rc == MLDSA_ERR_VERIFY,
                  "%s: signature with bit %zu of byte %zu (%s) flipped: mldsa_verify returned %s",
                  s->name, i % 8, i, i < s->ctilde ? "c~" : i < h ? "z" : "h", rc_name(rc));
  }
  for (size_t i = 0; i < msg_len; i += (i < 8 || i + 8 > msg_len) ? 1 : 7) {
    msg[i] ^= 0x80;
    int rc = mldsa_verify(s->p, sig, s->sig, msg, msg_len, ctx, ctx_len, fx.pk, s->pk);
    msg[i] ^= 0x80;
    ck_assert_msg(rc == MLDSA_ERR_VERIFY, "%s: message byte %zu of %zu flipped: returned %s",
                  s->name, i, msg_len, rc_name(rc));
  }
  ASSERT_RC(mldsa_verify(s->p, sig, s->sig, msg, msg_len - 1, ctx, ctx_len, fx.pk, s->pk),
            MLDSA_ERR_VERIFY, s->name, "message shortened");
  ASSERT_RC(mldsa_verify(s->p, sig, s->sig, msg, msg_len + 1, ctx, ctx_len, fx.pk, s->pk),
            MLDSA_ERR_VERIFY, s->name, "message lengthened");
  for (size_t i = 0; i < ctx_len; ++i) {
    ctx[i] ^= 0x01;
    int rc = mldsa_verify(s->p, sig, s->sig, msg, msg_len, ctx, ctx_len, fx.pk, s->pk);
    ctx[i] ^= 0x01;
    ck_assert_msg(rc == MLDSA_ERR_VERIFY, "%s: context byte %zu of %zu flipped: returned %s",
                  s->name, i, ctx_len, rc_name(rc));
  }
  ASSERT_RC(mldsa_verify(s->p, sig, s->sig, msg, msg_len, NULL, 0, fx.pk, s->pk),
            MLDSA_ERR_VERIFY, s->name, "context dropped");
  ASSERT_RC(mldsa_verify(s->p, sig, s->sig, msg, msg_len, ctx, ctx_len - 1, fx.pk, s->pk),
            MLDSA_ERR_VERIFY, s->name, "context shortened");
  for (size_t i = 0; i < s->pk; i += (i < 40 || i + 40 > s->pk) ? 1 : 31) {
    memcpy(pk, fx.pk, s->pk);
    pk[i] ^= (uint8_t)(1u << (i % 8));
    int rc = mldsa_verify(s->p, sig, s->sig, msg, msg_len, ctx, ctx_len, pk, s->pk);
    ck_assert_msg(rc == MLDSA_ERR_VERIFY, "%s: public key byte %zu flipped: returned %s", s->name,
                  i, rc_name(rc));
  }
  /* another key */
  uint8_t pk2[PK_MAX], sk2[SK_MAX];
  ASSERT_RC(mldsa_keygen(s->p, pk2, s->pk, sk2, s->sk), MLDSA_OK, s->name);
  ASSERT_RC(mldsa_verify(s->p, sig, s->sig, msg, msg_len, ctx, ctx_len, pk2, s->pk),
            MLDSA_ERR_VERIFY, s->name, "another key");
  /* degenerate signatures */
  memset(bad, 0, s->sig);
  ASSERT_RC(mldsa_verify(s->p, bad, s->sig, msg, msg_len, ctx, ctx_len, fx.pk, s->pk),
            MLDSA_ERR_VERIFY, s->name, "all-zero signature");
  memset(bad, 0xFF, s->sig);
  ASSERT_RC(mldsa_verify(s->p, bad, s->sig, msg, msg_len, ctx, ctx_len, fx.pk, s->pk),
            MLDSA_ERR_VERIFY, s->name, "all-0xFF signature");
}
END_TEST

START_TEST(test_hedged_and_deterministic) {
  make_fixture(&sets[_i]);
  const set_info *s = fx.s;
  static const uint8_t zero_rnd[32];
  uint8_t a[SIG_MAX], b[SIG_MAX];

  /* hedged: rnd = NULL */
  ASSERT_RC(mldsa_sign(s->p, a, s->sig, fx.msg, MSG_LEN, fx.ctx, CTX_LEN, NULL, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ASSERT_RC(mldsa_sign(s->p, b, s->sig, fx.msg, MSG_LEN, fx.ctx, CTX_LEN, NULL, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ck_assert_msg(memcmp(a, b, s->sig) != 0, "%s: two hedged signatures are equal", s->name);
  ASSERT_RC(mldsa_verify(s->p, a, s->sig, fx.msg, MSG_LEN, fx.ctx, CTX_LEN, fx.pk, s->pk),
            MLDSA_OK, s->name, "first hedged signature");
  ASSERT_RC(mldsa_verify(s->p, b, s->sig, fx.msg, MSG_LEN, fx.ctx, CTX_LEN, fx.pk, s->pk),
            MLDSA_OK, s->name, "second hedged signature");

  ASSERT_RC(mldsa_sign_mu(s->p, a, s->sig, fx.mu, NULL, fx.sk, s->sk), MLDSA_OK, s->name);
  ASSERT_RC(mldsa_sign_mu(s->p, b, s->sig, fx.mu, NULL, fx.sk, s->sk), MLDSA_OK, s->name);
  ck_assert_msg(memcmp(a, b, s->sig) != 0, "%s: two hedged mu signatures are equal", s->name);
  ASSERT_RC(mldsa_verify_mu(s->p, a, s->sig, fx.mu, fx.pk, s->pk), MLDSA_OK, s->name);
  ASSERT_RC(mldsa_verify_mu(s->p, b, s->sig, fx.mu, fx.pk, s->pk), MLDSA_OK, s->name);

  ASSERT_RC(mldsa_sign_prehash(s->p, a, s->sig, fx.digest, 32, MLDSA_SHA3_256, fx.ctx, CTX_LEN,
                               NULL, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ASSERT_RC(mldsa_sign_prehash(s->p, b, s->sig, fx.digest, 32, MLDSA_SHA3_256, fx.ctx, CTX_LEN,
                               NULL, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ck_assert_msg(memcmp(a, b, s->sig) != 0, "%s: two hedged pre-hash signatures are equal",
                s->name);
  ASSERT_RC(mldsa_verify_prehash(s->p, a, s->sig, fx.digest, 32, MLDSA_SHA3_256, fx.ctx, CTX_LEN,
                                 fx.pk, s->pk),
            MLDSA_OK, s->name);

  /* deterministic: rnd = 32 zero bytes */
  ASSERT_RC(mldsa_sign(s->p, a, s->sig, fx.msg, MSG_LEN, fx.ctx, CTX_LEN, zero_rnd, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ASSERT_RC(mldsa_sign(s->p, b, s->sig, fx.msg, MSG_LEN, fx.ctx, CTX_LEN, zero_rnd, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ck_assert_msg(memcmp(a, b, s->sig) == 0, "%s: two deterministic signatures differ", s->name);
  ASSERT_RC(mldsa_verify(s->p, a, s->sig, fx.msg, MSG_LEN, fx.ctx, CTX_LEN, fx.pk, s->pk),
            MLDSA_OK, s->name);
  /* a given rnd: the same twice, and different from the deterministic one */
  ASSERT_RC(mldsa_sign(s->p, b, s->sig, fx.msg, MSG_LEN, fx.ctx, CTX_LEN, fx.rnd, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ck_assert_msg(memcmp(b, fx.sig_pure, s->sig) == 0, "%s: the same rnd gave another signature",
                s->name);
  ck_assert_msg(memcmp(a, b, s->sig) != 0, "%s: rnd is ignored", s->name);
}
END_TEST

/* M' as FIPS 204 Alg. 2 and 4 build it. */
static size_t build_mprime(uint8_t *out, uint8_t domain, const uint8_t *ctx, size_t ctx_len,
                           const uint8_t *oid, size_t oid_len, const uint8_t *m, size_t m_len) {
  size_t n = 0;
  out[n++] = domain;
  out[n++] = (uint8_t)ctx_len;
  memcpy(out + n, ctx, ctx_len);
  n += ctx_len;
  if (oid_len) memcpy(out + n, oid, oid_len);
  n += oid_len;
  memcpy(out + n, m, m_len);
  return n + m_len;
}

/* The pure, internal and external-mu interfaces agree. */
START_TEST(test_interfaces_agree) {
  make_fixture(&sets[_i]);
  const set_info *s = fx.s;
  uint8_t mprime[2 + 255 + 64], sig[SIG_MAX], mu[64];
  const size_t ctx_lens[] = {0, 1, CTX_LEN, 255};

  for (size_t c = 0; c < sizeof ctx_lens / sizeof ctx_lens[0]; ++c) {
    const size_t cl = ctx_lens[c];
    char what[64];
    snprintf(what, sizeof what, "%s, context of %zu bytes", s->name, cl);
    uint8_t pure[SIG_MAX];
    ASSERT_RC(mldsa_sign(s->p, pure, s->sig, fx.msg, MSG_LEN, fx.ctx, cl, fx.rnd, fx.sk, s->sk),
              MLDSA_OK, what);
    ASSERT_RC(mldsa_verify(s->p, pure, s->sig, fx.msg, MSG_LEN, fx.ctx, cl, fx.pk, s->pk),
              MLDSA_OK, what);

    size_t n = build_mprime(mprime, 0, fx.ctx, cl, NULL, 0, fx.msg, MSG_LEN);
    ASSERT_RC(mldsa_sign_internal(s->p, sig, s->sig, mprime, n, fx.rnd, fx.sk, s->sk), MLDSA_OK,
              what);
    ck_assert_msg(memcmp(sig, pure, s->sig) == 0,
                  "%s: mldsa_sign_internal(0 || len || ctx || msg) differs from mldsa_sign", what);
    ASSERT_RC(mldsa_verify_internal(s->p, pure, s->sig, mprime, n, fx.pk, s->pk), MLDSA_OK, what);
    ASSERT_RC(mldsa_verify_internal(s->p, pure, s->sig, fx.msg, MSG_LEN, fx.pk, s->pk),
              MLDSA_ERR_VERIFY, what, "verify_internal on the bare message");

    ASSERT_RC(mldsa_compute_mu(s->p, mu, fx.pk, s->pk, fx.msg, MSG_LEN, fx.ctx, cl), MLDSA_OK,
              what);
    ASSERT_RC(mldsa_sign_mu(s->p, sig, s->sig, mu, fx.rnd, fx.sk, s->sk), MLDSA_OK, what);
    ck_assert_msg(memcmp(sig, pure, s->sig) == 0,
                  "%s: mldsa_sign_mu(mldsa_compute_mu(...)) differs from mldsa_sign", what);
    ASSERT_RC(mldsa_verify_mu(s->p, pure, s->sig, mu, fx.pk, s->pk), MLDSA_OK, what);
    mu[63] ^= 1;
    ASSERT_RC(mldsa_verify_mu(s->p, pure, s->sig, mu, fx.pk, s->pk), MLDSA_ERR_VERIFY, what,
              "mu altered");
  }
  /* context 255 differs from its 254-byte prefix */
  ASSERT_RC(mldsa_sign(s->p, sig, s->sig, fx.msg, MSG_LEN, fx.ctx, 255, fx.rnd, fx.sk, s->sk),
            MLDSA_OK, s->name);
  ASSERT_RC(mldsa_verify(s->p, sig, s->sig, fx.msg, MSG_LEN, fx.ctx, 254, fx.pk, s->pk),
            MLDSA_ERR_VERIFY, s->name, "context 255 vs 254");
  ASSERT_RC(mldsa_verify(s->p, sig, s->sig, fx.msg, MSG_LEN, fx.ctx, 256, fx.pk, s->pk),
            MLDSA_ERR_CONTEXT, s->name, "context 256");
}
END_TEST

/* HashML-DSA: M' = 1 || len(ctx) || ctx || OID || digest, with the OIDs of FIPS 204 5.4
 * (NIST hash arc 2.16.840.1.101.3.4.2.x) written out here independently. */
START_TEST(test_prehash) {
  make_fixture(&sets[_i]);
  const set_info *s = fx.s;
  static const struct {
    mldsa_hash h;
    const char *name;
    size_t len;
    uint8_t arc;
  } hs[] = {
      {MLDSA_SHA2_224, "SHA2-224", 28, 4},       {MLDSA_SHA2_256, "SHA2-256", 32, 1},
      {MLDSA_SHA2_384, "SHA2-384", 48, 2},       {MLDSA_SHA2_512, "SHA2-512", 64, 3},
      {MLDSA_SHA2_512_224, "SHA2-512/224", 28, 5}, {MLDSA_SHA2_512_256, "SHA2-512/256", 32, 6},
      {MLDSA_SHA3_224, "SHA3-224", 28, 7},       {MLDSA_SHA3_256, "SHA3-256", 32, 8},
      {MLDSA_SHA3_384, "SHA3-384", 48, 9},       {MLDSA_SHA3_512, "SHA3-512", 64, 10},
      {MLDSA_SHAKE128, "SHAKE-128", 32, 11},     {MLDSA_SHAKE256, "SHAKE-256", 64, 12},
  };
  const size_t nh = sizeof hs / sizeof hs[0];
  uint8_t sig[SIG_MAX], ref[SIG_MAX], mprime[2 + CTX_LEN + 11 + 64];
  for (size_t i = 0; i < nh; ++i) {
    const uint8_t oid[11] = {0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, hs[i].arc};
    char what[64];
    snprintf(what, sizeof what, "%s, %s", s->name, hs[i].name);
    ASSERT_RC(mldsa_sign_prehash(s->p, sig, s->sig, fx.digest, hs[i].len, hs[i].h, fx.ctx,
                                 CTX_LEN, fx.rnd, fx.sk, s->sk),
              MLDSA_OK, what);
    size_t n = build_mprime(mprime, 1, fx.ctx, CTX_LEN, oid, sizeof oid, fx.digest, hs[i].len);
    ASSERT_RC(mldsa_sign_internal(s->p, ref, s->sig, mprime, n, fx.rnd, fx.sk, s->sk), MLDSA_OK,
              what);
    ck_assert_msg(memcmp(sig, ref, s->sig) == 0,
                  "%s: mldsa_sign_prehash differs from Sign_internal(1 || len || ctx || OID || "
                  "digest) (wrong OID or framing?)",
                  what);
    ASSERT_RC(mldsa_verify_prehash(s->p, sig, s->sig, fx.digest, hs[i].len, hs[i].h, fx.ctx,
                                   CTX_LEN, fx.pk, s->pk),
              MLDSA_OK, what);
    /* another hash with a digest of the same length */
    for (size_t j = 0; j < nh; ++j) {
      if (j == i || hs[j].len != hs[i].len) continue;
      int rc = mldsa_verify_prehash(s->p, sig, s->sig, fx.digest, hs[j].len, hs[j].h, fx.ctx,
                                    CTX_LEN, fx.pk, s->pk);
      ck_assert_msg(rc == MLDSA_ERR_VERIFY, "%s: signature verified as %s: returned %s", what,
                    hs[j].name, rc_name(rc));
    }
    /* the pure interface on the digest, and the digest altered */
    ASSERT_RC(mldsa_verify(s->p, sig, s->sig, fx.digest, hs[i].len, fx.ctx, CTX_LEN, fx.pk, s->pk),
              MLDSA_ERR_VERIFY, what, "pure verify of the digest");
    uint8_t d2[64];
    memcpy(d2, fx.digest, sizeof d2);
    d2[hs[i].len - 1] ^= 0x01;
    ASSERT_RC(mldsa_verify_prehash(s->p, sig, s->sig, d2, hs[i].len, hs[i].h, fx.ctx, CTX_LEN,
                                   fx.pk, s->pk),
              MLDSA_ERR_VERIFY, what, "digest altered");
  }
}
END_TEST

/* ---------------------------------------------------------------- strict signature decoding */

/* A valid signature (deterministic over varying messages) whose hints include a
 * polynomial with at least two hints, hints in polynomial 0, and fewer than omega hints. */
static void find_signature(uint8_t *sig, uint8_t *msg) {
  const set_info *s = fx.s;
  for (int tries = 0; tries < 200; ++tries) {
    mldsa_test_randbytes(msg, MSG_LEN);
    ASSERT_RC(mldsa_sign(s->p, sig, s->sig, msg, MSG_LEN, NULL, 0, fx.rnd, fx.sk, s->sk),
              MLDSA_OK, s->name);
    const uint8_t *cnt = sig + sig_h_offset(s) + s->omega;
    int two = 0;
    for (unsigned i = 0; i < s->k; ++i)
      if (cnt[i] - (i ? cnt[i - 1] : 0) >= 2) two = 1;
    if (two && cnt[0] > 0 && cnt[s->k - 1] < s->omega) return;
  }
  ck_abort_msg("%s: no signature with the wanted hint pattern in 200 tries", s->name);
}

START_TEST(test_strict_signature) {
  make_fixture(&sets[_i]);
  const set_info *s = fx.s;
  uint8_t sig[SIG_MAX], bad[SIG_MAX], msg[MSG_LEN];
  find_signature(sig, msg);
  ASSERT_RC(mldsa_verify(s->p, sig, s->sig, msg, MSG_LEN, NULL, 0, fx.pk, s->pk), MLDSA_OK,
            s->name);
  const size_t h = sig_h_offset(s);
  const uint8_t *cnt = sig + h + s->omega;
  const unsigned total = cnt[s->k - 1];

#define EXPECT_REJECT(what)                                                                   \
  do {                                                                                        \
    int rc_ = mldsa_verify(s->p, bad, s->sig, msg, MSG_LEN, NULL, 0, fx.pk, s->pk);          \
    ck_assert_msg(rc_ == MLDSA_ERR_VERIFY, "%s: %s: mldsa_verify returned %s", s->name, what, \
                  rc_name(rc_));                                                              \
  } while (0)

  /* a hint count above omega */
  memcpy(bad, sig, s->sig);
  bad[h + s->omega + s->k - 1] = (uint8_t)(s->omega + 1);
  EXPECT_REJECT("last hint count omega + 1");
  memcpy(bad, sig, s->sig);
  bad[h + s->omega + s->k - 1] = 0xFF;
  EXPECT_REJECT("last hint count 255");
  memcpy(bad, sig, s->sig);
  for (unsigned i = 0; i < s->k; ++i) bad[h + s->omega + i] = (uint8_t)(s->omega + 1);
  EXPECT_REJECT("every hint count omega + 1");
  /* counts going down */
  memcpy(bad, sig, s->sig);
  bad[h + s->omega + 1] = (uint8_t)(cnt[0] - 1);
  EXPECT_REJECT("hint count of polynomial 1 below that of polynomial 0");
  /* indices within a polynomial not strictly increasing */
  for (unsigned i = 0; i < s->k; ++i) {
    unsigned start = i ? cnt[i - 1] : 0;
    if (cnt[i] - start < 2) continue;
    memcpy(bad, sig, s->sig);
    bad[h + start] = sig[h + start + 1];
    bad[h + start + 1] = sig[h + start];
    EXPECT_REJECT("two hint indices of a polynomial swapped");
    memcpy(bad, sig, s->sig);
    bad[h + start + 1] = sig[h + start];
    EXPECT_REJECT("a hint index repeated");
    break;
  }
  /* a nonzero byte in the unused hint positions */
  memcpy(bad, sig, s->sig);
  bad[h + total] = 1;
  EXPECT_REJECT("first unused hint byte nonzero");
  memcpy(bad, sig, s->sig);
  bad[h + s->omega - 1] = 0x80;
  EXPECT_REJECT("last unused hint byte nonzero");
  /* the hints of polynomial 0 given to polynomial 1 */
  if (cnt[0] > 0 && s->k > 1) {
    memcpy(bad, sig, s->sig);
    bad[h + s->omega] = 0;
    EXPECT_REJECT("hints of polynomial 0 moved to polynomial 1");
  }

  /* z at the bound: |z| >= gamma1 - beta is rejected, whatever else */
  const int32_t bound = (int32_t)s->gamma1 - (int32_t)s->beta;
  const int32_t zs[] = {bound, -bound, bound + 1, (int32_t)s->gamma1, -(int32_t)s->gamma1 + 1};
  const unsigned where[][2] = {{0, 0}, {0, 255}, {s->l - 1, 128}, {s->l - 1, 255}};
  for (size_t w = 0; w < sizeof where / sizeof where[0]; ++w)
    for (size_t z = 0; z < sizeof zs / sizeof zs[0]; ++z) {
      memcpy(bad, sig, s->sig);
      set_sig_z(s, bad, where[w][0], where[w][1], zs[z]);
      char what[100];
      snprintf(what, sizeof what, "z polynomial %u coefficient %u set to %d (gamma1 - beta = %d)",
               where[w][0], where[w][1], zs[z], bound);
      EXPECT_REJECT(what);
    }
#undef EXPECT_REJECT
}
END_TEST

/* ---------------------------------------------------------------- buffers */

/* A heap buffer of exactly len bytes (ASan, in ci/sanitizers, reports any byte written past
 * it), filled with FILL. */
static uint8_t *exact(size_t len) {
  uint8_t *p = malloc(len);
  ck_assert_ptr_nonnull(p);
  memset(p, FILL, len);
  return p;
}

/* Lengths of another set, or swapped: MLDSA_ERR_LENGTH (or PARAM) and not a byte written,
 * into outputs of exactly the size of this set. */
START_TEST(test_wrong_lengths_write_nothing) {
  make_fixture(&sets[_i]);
  const set_info *s = fx.s;
  uint8_t *pk = exact(s->pk), *sk = exact(s->sk), *sig = exact(s->sig), *mu = exact(64);

  /* pk and sk lengths swapped */
  ASSERT_RC(mldsa_keygen(s->p, pk, s->sk, sk, s->pk), MLDSA_ERR_LENGTH, s->name, "swapped");
  ASSERT_RC(mldsa_keygen_from_seed(s->p, pk, s->sk, sk, s->pk, fx.seed), MLDSA_ERR_LENGTH,
            s->name, "swapped");
  ASSERT_RC(mldsa_public_key_from_secret(s->p, pk, s->sk, fx.sk, s->pk), MLDSA_ERR_LENGTH,
            s->name, "swapped");
  ck_assert_msg(mldsa_test_all(pk, s->pk, FILL) && mldsa_test_all(sk, s->sk, FILL),
                "%s: keygen with swapped lengths wrote to an output", s->name);

  /* the lengths of every other set */
  for (int o = 0; o < 3; ++o) {
    const set_info *t = &sets[o];
    if (t == s) continue;
    ASSERT_RC(mldsa_keygen(s->p, pk, t->pk, sk, t->sk), MLDSA_ERR_LENGTH, s->name, t->name);
    ASSERT_RC(mldsa_public_key_from_secret(s->p, pk, t->pk, fx.sk, s->sk), MLDSA_ERR_LENGTH,
              s->name, t->name);
    ASSERT_RC(mldsa_sign(s->p, sig, t->sig, fx.msg, MSG_LEN, fx.ctx, CTX_LEN, NULL, fx.sk, s->sk),
              MLDSA_ERR_LENGTH, s->name, t->name);
    ASSERT_RC(mldsa_sign_prehash(s->p, sig, t->sig, fx.digest, 32, MLDSA_SHA2_256, NULL, 0,
                                 fx.rnd, fx.sk, s->sk),
              MLDSA_ERR_LENGTH, s->name, t->name);
    ASSERT_RC(mldsa_sign_internal(s->p, sig, t->sig, fx.msg, MSG_LEN, fx.rnd, fx.sk, s->sk),
              MLDSA_ERR_LENGTH, s->name, t->name);
    ASSERT_RC(mldsa_sign_mu(s->p, sig, t->sig, fx.mu, fx.rnd, fx.sk, s->sk), MLDSA_ERR_LENGTH,
              s->name, t->name);
    /* the set of the lengths, but an unknown parameter set */
    ASSERT_RC(mldsa_sign((mldsa_param)(t->p + 1), sig, t->sig, fx.msg, MSG_LEN, NULL, 0, NULL,
                         fx.sk, t->sk),
              MLDSA_ERR_PARAM, s->name, t->name);
    ASSERT_RC(mldsa_keygen((mldsa_param)0, pk, t->pk, sk, t->sk), MLDSA_ERR_PARAM, s->name,
              t->name);
  }
  ASSERT_RC(mldsa_compute_mu(s->p, mu, fx.pk, s->pk + 1, fx.msg, MSG_LEN, NULL, 0),
            MLDSA_ERR_LENGTH, s->name);
  ASSERT_RC(mldsa_compute_mu(s->p, mu, NULL, s->pk, fx.msg, MSG_LEN, NULL, 0), MLDSA_ERR_NULL,
            s->name);
  ASSERT_RC(mldsa_keygen(s->p, pk, s->pk, NULL, s->sk), MLDSA_ERR_NULL, s->name);
  ck_assert_msg(mldsa_test_all(pk, s->pk, FILL) && mldsa_test_all(sk, s->sk, FILL) &&
                    mldsa_test_all(sig, s->sig, FILL) && mldsa_test_all(mu, 64, FILL),
                "%s: an output was written after PARAM, NULL or LENGTH", s->name);

  /* a later error (context too long) zeroes, over the length that is now known right */
  ASSERT_RC(mldsa_sign(s->p, sig, s->sig, fx.msg, MSG_LEN, fx.ctx, 256, NULL, fx.sk, s->sk),
            MLDSA_ERR_CONTEXT, s->name);
  ASSERT_RC(mldsa_compute_mu(s->p, mu, fx.pk, s->pk, fx.msg, MSG_LEN, fx.ctx, 256),
            MLDSA_ERR_CONTEXT, s->name);
  ck_assert_msg(mldsa_test_all(sig, s->sig, 0) && mldsa_test_all(mu, 64, 0),
                "%s: an output is not zeroed after MLDSA_ERR_CONTEXT", s->name);
  free(pk);
  free(sk);
  free(sig);
  free(mu);
}
END_TEST

/* Inputs overlapping outputs: the results are those of separate buffers. */
START_TEST(test_overlapping_buffers) {
  make_fixture(&sets[_i]);
  const set_info *s = fx.s;
  static uint8_t buf[SK_MAX + SIG_MAX + 256];
  uint8_t pk[PK_MAX], sk[SK_MAX];

  /* pk over the sk it is recomputed from: in place, and shifted either way */
  const size_t shifts[] = {0, 1, 100, 2 * PK_MAX};
  for (size_t i = 0; i < sizeof shifts / sizeof shifts[0]; ++i) {
    memcpy(buf + 200, fx.sk, s->sk);
    uint8_t *out = buf + 200 + shifts[i];
    ASSERT_RC(mldsa_public_key_from_secret(s->p, out, s->pk, buf + 200, s->sk), MLDSA_OK,
              s->name, "pk after sk");
    ck_assert_msg(memcmp(out, fx.pk, s->pk) == 0, "%s: pk over sk (+%zu) is wrong", s->name,
                  shifts[i]);
    memcpy(buf + 200, fx.sk, s->sk);
    out = buf + 200 - 1 - shifts[i] % 199;
    ASSERT_RC(mldsa_public_key_from_secret(s->p, out, s->pk, buf + 200, s->sk), MLDSA_OK,
              s->name, "pk before sk");
    ck_assert_msg(memcmp(out, fx.pk, s->pk) == 0, "%s: pk over sk (-) is wrong", s->name);
  }

  /* the signature over the message and context, over the secret key, over mu, the digest */
  memcpy(buf, fx.msg, MSG_LEN);
  memcpy(buf + MSG_LEN, fx.ctx, CTX_LEN);
  ASSERT_RC(mldsa_sign(s->p, buf, s->sig, buf, MSG_LEN, buf + MSG_LEN, CTX_LEN, fx.rnd, fx.sk,
                       s->sk),
            MLDSA_OK, s->name, "sig over msg");
  ck_assert_msg(memcmp(buf, fx.sig_pure, s->sig) == 0, "%s: sig over msg is wrong", s->name);
  memcpy(buf + 7, fx.sk, s->sk);
  ASSERT_RC(mldsa_sign(s->p, buf, s->sig, fx.msg, MSG_LEN, fx.ctx, CTX_LEN, fx.rnd, buf + 7,
                       s->sk),
            MLDSA_OK, s->name, "sig over sk");
  ck_assert_msg(memcmp(buf, fx.sig_pure, s->sig) == 0, "%s: sig over sk is wrong", s->name);
  memcpy(buf + 1000, fx.mu, 64);
  memcpy(buf + 1100, fx.rnd, 32);
  ASSERT_RC(mldsa_sign_mu(s->p, buf + 999, s->sig, buf + 1000, buf + 1100, fx.sk, s->sk),
            MLDSA_OK, s->name, "sig over mu");
  ck_assert_msg(memcmp(buf + 999, fx.sig_mu, s->sig) == 0, "%s: sig over mu is wrong", s->name);
  memcpy(buf + 5, fx.digest, DEFAULT_DIGEST_LEN);
  ASSERT_RC(mldsa_sign_prehash(s->p, buf, s->sig, buf + 5, DEFAULT_DIGEST_LEN, DEFAULT_HASH,
                               fx.ctx, CTX_LEN, fx.rnd, fx.sk, s->sk),
            MLDSA_OK, s->name, "sig over digest");
  ck_assert_msg(memcmp(buf, fx.sig_ph, s->sig) == 0, "%s: sig over digest is wrong", s->name);
  memcpy(buf + 3, fx.msg, MSG_LEN);
  ASSERT_RC(mldsa_sign_internal(s->p, buf, s->sig, buf + 3, MSG_LEN, fx.rnd, fx.sk, s->sk),
            MLDSA_OK, s->name, "sig over M'");
  ck_assert_msg(memcmp(buf, fx.sig_int, s->sig) == 0, "%s: sig over M' is wrong", s->name);

  /* mu over the message, over the public key */
  memcpy(buf, fx.msg, MSG_LEN);
  ASSERT_RC(mldsa_compute_mu(s->p, buf, fx.pk, s->pk, buf, MSG_LEN, fx.ctx, CTX_LEN), MLDSA_OK,
            s->name, "mu over msg");
  ck_assert_msg(memcmp(buf, fx.mu, 64) == 0, "%s: mu over msg is wrong", s->name);
  memcpy(buf, fx.pk, s->pk);
  ASSERT_RC(mldsa_compute_mu(s->p, buf + 10, buf, s->pk, fx.msg, MSG_LEN, fx.ctx, CTX_LEN),
            MLDSA_OK, s->name, "mu over pk");
  ck_assert_msg(memcmp(buf + 10, fx.mu, 64) == 0, "%s: mu over pk is wrong", s->name);

  /* the seed inside the pk or the sk it makes */
  memcpy(buf, fx.seed, 32);
  ASSERT_RC(mldsa_keygen_from_seed(s->p, buf, s->pk, sk, s->sk, buf + 0), MLDSA_OK, s->name,
            "seed in pk");
  ck_assert_msg(memcmp(buf, fx.pk, s->pk) == 0 && memcmp(sk, fx.sk, s->sk) == 0,
                "%s: keygen with the seed in pk is wrong", s->name);
  memcpy(buf + 40, fx.seed, 32);
  ASSERT_RC(mldsa_keygen_from_seed(s->p, pk, s->pk, buf, s->sk, buf + 40), MLDSA_OK, s->name,
            "seed in sk");
  ck_assert_msg(memcmp(pk, fx.pk, s->pk) == 0 && memcmp(buf, fx.sk, s->sk) == 0,
                "%s: keygen with the seed in sk is wrong", s->name);
}
END_TEST

/* mldsa_sign_internal with rnd = NULL is hedged, as every other signing call. */
START_TEST(test_sign_internal_hedged) {
  make_fixture(&sets[_i]);
  const set_info *s = fx.s;
  uint8_t a[SIG_MAX], b[SIG_MAX];
  ASSERT_RC(mldsa_sign_internal(s->p, a, s->sig, fx.msg, MSG_LEN, NULL, fx.sk, s->sk), MLDSA_OK,
            s->name);
  ASSERT_RC(mldsa_sign_internal(s->p, b, s->sig, fx.msg, MSG_LEN, NULL, fx.sk, s->sk), MLDSA_OK,
            s->name);
  ck_assert_msg(memcmp(a, b, s->sig) != 0, "%s: two hedged internal signatures are equal",
                s->name);
  ASSERT_RC(mldsa_verify_internal(s->p, a, s->sig, fx.msg, MSG_LEN, fx.pk, s->pk), MLDSA_OK,
            s->name);
  ASSERT_RC(mldsa_verify_internal(s->p, b, s->sig, fx.msg, MSG_LEN, fx.pk, s->pk), MLDSA_OK,
            s->name);
}
END_TEST

/* ---------------------------------------------------------------- suite */

static Suite *api_suite(void) {
  Suite *s = suite_create("api");
  TCase *tc = tcase_create("basics");
  tcase_add_test(tc, test_sizes);
  tcase_add_test(tc, test_strerror);
  tcase_add_test(tc, test_isa);
  suite_add_tcase(s, tc);

  tc = tcase_create("errors");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_error_codes, 0, NUM_FNS * 3);
  tcase_add_loop_test(tc, test_null_with_zero_length, 0, 3);
  tcase_add_loop_test(tc, test_malformed_secret_key, 0, 3);
  tcase_add_loop_test(tc, test_inconsistent_secret_key, 0, 3);
  tcase_add_loop_test(tc, test_wrong_lengths_write_nothing, 0, 3);
  suite_add_tcase(s, tc);

  tc = tcase_create("roundtrip");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_keygen, 0, 3);
  tcase_add_loop_test(tc, test_roundtrip_bitflips, 0, 3);
  tcase_add_loop_test(tc, test_hedged_and_deterministic, 0, 3);
  tcase_add_loop_test(tc, test_interfaces_agree, 0, 3);
  tcase_add_loop_test(tc, test_prehash, 0, 3);
  tcase_add_loop_test(tc, test_strict_signature, 0, 3);
  tcase_add_loop_test(tc, test_overlapping_buffers, 0, 3);
  tcase_add_loop_test(tc, test_sign_internal_hedged, 0, 3);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  mldsa_test_isa_gate("test_api");
  mldsa_test_seed_rng("test_api");
  SRunner *sr = srunner_create(api_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
