/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The public API (include/mldsa.h): argument checks, the framing of M' (pure, pre-hash),
 * mu = H(tr || M'), hedged randomness, then the backend of the chosen ISA. The functions
 * here are the mldsa_<name>_impl of src/api_list.h; the exported mldsa_<name> (guard.c)
 * runs each inside the MCDT protection (mcdt.h).
 *
 * Checks run in this order, and the first failing one gives the code: parameter set,
 * NULL pointers, lengths, context length, pre-hash algorithm. On MLDSA_ERR_PARAM,
 * MLDSA_ERR_NULL and MLDSA_ERR_LENGTH nothing is written (a stated length may be wrong, so
 * it cannot be trusted); on any later error every output is zeroed over its length, which
 * is then known to be right. The streaming-mu and prepared-key functions start with the
 * state or prepared key, which stands for the parameter set (NULL or misaligned:
 * MLDSA_ERR_NULL; not live: MLDSA_ERR_PARAM for a mu state, MLDSA_ERR_KEY for a prepared
 * key), then the other NULL pointers, lengths, context length.
 *
 * Buffers: an input may overlap an output (in place, or partly): every input is read, or
 * copied, before the first byte of an output is written. Two outputs (pk and sk of keygen)
 * must not overlap.
 *
 * Every public function here is <name>_impl; guard.c exports <name> around it (the MXCSR
 * protection of mcdt.h), from the list in api_list.h. */
#include <stdint.h>
#include <string.h>

#include "api_list.h"
#include "backend.h"
#include "fips202.h"
#include "mldsa.h"
#include "selftest.h"
#include "util.h"

#define TR_BYTES 64
#define MU_BYTES 64
#define RND_BYTES 32
#define SEED_BYTES 32
#define PK_MAX_BYTES 2592 /* ML-DSA-87 */

/* A pointer may be NULL only when its length is 0. */
#define MISSING(ptr, len) ((ptr) == NULL && (len) != 0)

/* Self-tests (selftest.h): in an MLDSA_SELFTEST build, a call made after a self-test
 * failed (or whose power-on tests fail) zeroes its outputs and returns
 * MLDSA_ERR_SELFTEST before anything else; otherwise REFUSED() is 0. */
#define REFUSED() MLDSA_SELFTEST_REFUSED()
#define ZERO(ptr, len) mldsa_selftest_zero((ptr), (len))

/* A leaf that returns a constant: exported as it is (no MXCSR protection needed). */
MLDSA_API const char *mldsa_version(void) { return MLDSA_VERSION_STRING; }

size_t mldsa_public_key_bytes_impl(mldsa_param p) {
  const mldsa_backend *b = mldsa_backend_for(p);
  return b ? b->pk_bytes : 0;
}

size_t mldsa_secret_key_bytes_impl(mldsa_param p) {
  const mldsa_backend *b = mldsa_backend_for(p);
  return b ? b->sk_bytes : 0;
}

size_t mldsa_signature_bytes_impl(mldsa_param p) {
  const mldsa_backend *b = mldsa_backend_for(p);
  return b ? b->sig_bytes : 0;
}

const char *mldsa_strerror_impl(int code) {
  switch (code) {
    case MLDSA_OK:
      return "success";
    case MLDSA_ERR_VERIFY:
      return "the signature does not verify";
    case MLDSA_ERR_PARAM:
      return "unknown parameter set";
    case MLDSA_ERR_LENGTH:
      return "a key, signature, digest or mu has the wrong length";
    case MLDSA_ERR_CONTEXT:
      return "context longer than 255 bytes";
    case MLDSA_ERR_NULL:
      return "NULL pointer with a non-zero length, or a required pointer";
    case MLDSA_ERR_RANDOM:
      return "no randomness (from the OS or the source set with mldsa_set_random)";
    case MLDSA_ERR_KEY:
      /* also the code of a prepared public key that is not one: no "secret" here */
      return "malformed or mismatched key";
    case MLDSA_ERR_HASH:
      return "unknown pre-hash algorithm";
    case MLDSA_ERR_ENCODING:
      return "malformed or unsupported DER/PEM, or a wrong OID";
    case MLDSA_ERR_SELFTEST:
      return "a self-test failed: the library refuses to work";
    default:
      return "unknown error code";
  }
}

/* Zeroes an output after an error, unless the error says the output's length (or the
 * parameter set that gives it, or its pointer) is wrong: then nothing is written. */
static void wipe_output(int err, void *p, size_t len) {
  if (err == MLDSA_ERR_PARAM || err == MLDSA_ERR_NULL || err == MLDSA_ERR_LENGTH) return;
  if (p != NULL) memset(p, 0, len);
}

/* ---- M' framing (FIPS 204 Alg. 2, 4, 5) ---- */

/* The parts of M' = prefix || msg, absorbed one after another without copying. */
typedef struct {
  uint8_t prefix[2 + 255 + 11]; /* domain || len(ctx) || ctx [|| OID] */
  size_t prefix_len;
  const uint8_t *msg;
  size_t msg_len;
} mprime;

static void frame(mprime *m, uint8_t domain, const uint8_t *ctx, size_t ctx_len, const uint8_t *oid,
                  size_t oid_len, const uint8_t *msg, size_t msg_len) {
  m->prefix[0] = domain;
  m->prefix[1] = (uint8_t)ctx_len;
  if (ctx_len) memcpy(m->prefix + 2, ctx, ctx_len);
  if (oid_len) memcpy(m->prefix + 2 + ctx_len, oid, oid_len);
  m->prefix_len = 2 + ctx_len + oid_len;
  m->msg = msg;
  m->msg_len = msg_len;
}

/* mu = SHAKE256(tr || M', 64) */
static void compute_mu(const mldsa_backend *b, uint8_t mu[MU_BYTES],
                       const uint8_t tr[TR_BYTES], const mprime *m) {
  mldsa_keccak st;
  mldsa_shake256_init_with(&st, b->keccak);
  mldsa_shake_absorb(&st, tr, TR_BYTES);
  mldsa_shake_absorb(&st, m->prefix, m->prefix_len);
  mldsa_shake_absorb(&st, m->msg, m->msg_len);
  mldsa_shake_finalize(&st);
  mldsa_shake_squeeze(&st, mu, MU_BYTES);
}

/* tr of a public key is H(pk, 64); a secret key carries it at offset 64. */
static void public_tr(const mldsa_backend *b, uint8_t tr[TR_BYTES], const uint8_t *pk) {
  mldsa_shake256_with(b->keccak, tr, TR_BYTES, pk, b->pk_bytes);
}
#define SECRET_TR(sk) ((sk) + 2 * SEED_BYTES)

/* ---- pre-hash algorithms (FIPS 204 section 5.4) ---- */

typedef struct {
  uint8_t oid_last; /* 2.16.840.1.101.3.4.2.<oid_last> */
  uint8_t digest_len;
} hash_info;

static const hash_info *hash_lookup(mldsa_hash h) {
  static const hash_info table[] = {
      [MLDSA_SHA2_224] = {0x04, 28},     [MLDSA_SHA2_256] = {0x01, 32},
      [MLDSA_SHA2_384] = {0x02, 48},     [MLDSA_SHA2_512] = {0x03, 64},
      [MLDSA_SHA2_512_224] = {0x05, 28}, [MLDSA_SHA2_512_256] = {0x06, 32},
      [MLDSA_SHA3_224] = {0x07, 28},     [MLDSA_SHA3_256] = {0x08, 32},
      [MLDSA_SHA3_384] = {0x09, 48},     [MLDSA_SHA3_512] = {0x0A, 64},
      [MLDSA_SHAKE128] = {0x0B, 32},     [MLDSA_SHAKE256] = {0x0C, 64},
  };
  if ((unsigned)h >= sizeof table / sizeof table[0]) return NULL;
  return &table[h];
}

/* DER of the OID: tag 06, length 09, then 2.16.840.1.101.3.4.2.x */
static void hash_oid(uint8_t oid[11], const hash_info *info) {
  static const uint8_t nist_hash_arc[10] = {0x06, 0x09, 0x60, 0x86, 0x48,
                                            0x01, 0x65, 0x03, 0x04, 0x02};
  memcpy(oid, nist_hash_arc, sizeof nist_hash_arc);
  oid[10] = info->oid_last;
}

/* ---- keygen ---- */

/* Keygen from a seed with the argument checks and without the pairwise test: also the
 * derivation of a key imported as its seed (keyformat.c), which makes no new key pair. */
int mldsa_keygen_derive(mldsa_param p, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len,
                        const uint8_t seed[32]) {
  if (REFUSED()) {
    ZERO(pk, pk_len);
    ZERO(sk, sk_len);
    return MLDSA_ERR_SELFTEST;
  }
  const mldsa_backend *b = mldsa_backend_for(p);
  int ret = MLDSA_OK;
  if (b == NULL)
    ret = MLDSA_ERR_PARAM;
  else if (pk == NULL || sk == NULL || seed == NULL)
    ret = MLDSA_ERR_NULL;
  else if (pk_len != b->pk_bytes || sk_len != b->sk_bytes)
    ret = MLDSA_ERR_LENGTH;
  if (ret != MLDSA_OK) return ret; /* PARAM, NULL or LENGTH: nothing written */
  b->keygen(pk, sk, seed);
  return MLDSA_OK;
}

int mldsa_keygen_from_seed_impl(mldsa_param p, uint8_t *pk, size_t pk_len, uint8_t *sk,
                                     size_t sk_len, const uint8_t seed[32]) {
  int ret = mldsa_keygen_derive(p, pk, pk_len, sk, sk_len, seed);
#ifdef MLDSA_SELFTEST
  /* a new key pair: the pairwise test (which leaves the library refusing when it fails) */
  if (ret == MLDSA_OK && mldsa_selftest_pairwise(mldsa_backend_for(p), pk, sk) != MLDSA_OK) {
    mldsa_zeroize(sk, sk_len);
    memset(pk, 0, pk_len);
    ret = MLDSA_ERR_SELFTEST;
  }
#endif
  return ret;
}

int mldsa_keygen_impl(mldsa_param p, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len) {
  if (REFUSED()) {
    ZERO(pk, pk_len);
    ZERO(sk, sk_len);
    return MLDSA_ERR_SELFTEST;
  }
  uint8_t seed[SEED_BYTES];
  const mldsa_backend *b = mldsa_backend_for(p);
  int ret = MLDSA_OK;
  if (b == NULL)
    ret = MLDSA_ERR_PARAM;
  else if (pk == NULL || sk == NULL)
    ret = MLDSA_ERR_NULL;
  else if (pk_len != b->pk_bytes || sk_len != b->sk_bytes)
    ret = MLDSA_ERR_LENGTH;
  else if (mldsa_randombytes(seed, sizeof seed) != 0)
    ret = MLDSA_ERR_RANDOM;
  else
    ret = mldsa_keygen_from_seed_impl(p, pk, pk_len, sk, sk_len, seed);
  if (ret != MLDSA_OK) {
    wipe_output(ret, pk, pk_len);
    wipe_output(ret, sk, sk_len);
  }
  mldsa_zeroize(seed, sizeof seed);
  return ret;
}

/* ---- signing ---- */

/* The checks every signing and verifying entry point starts with: the parameter set,
 * NULL pointers (other_null: the entry point's own), then the lengths of the signature
 * and of the key (the secret key when signing, the public key when verifying). */
static int check_args(const mldsa_backend *b, const uint8_t *sig, size_t sig_len,
                      const uint8_t *key, size_t key_len, int secret_key, int other_null) {
  if (b == NULL) return MLDSA_ERR_PARAM;
  if (sig == NULL || key == NULL || other_null) return MLDSA_ERR_NULL;
  if (sig_len != b->sig_bytes || key_len != (secret_key ? b->sk_bytes : b->pk_bytes))
    return MLDSA_ERR_LENGTH;
  return MLDSA_OK;
}
#define check_sign_args(b, sig, sig_len, sk, sk_len, other_null) \
  check_args(b, sig, sig_len, sk, sk_len, 1, other_null)
#define check_verify_args(b, sig, sig_len, pk, pk_len, other_null) \
  check_args(b, sig, sig_len, pk, pk_len, 0, other_null)

/* What a signature is over: mu, or (m not NULL, with an expanded secret key) M' = m, whose
 * mu = H(tr || M') the backend hashes beside ExpandA into mu_out. */
typedef struct {
  const uint8_t *mu;
  const mprime *m;
} sign_input;

/* One signature: with the expanded secret key sk, or with the prepared key ps when sk is
 * NULL. mu_out receives the mu signed when in->m is given. */
static int sign_once(const mldsa_backend *b, uint8_t *sig, const sign_input *in,
                     uint8_t mu_out[MU_BYTES], const uint8_t rnd[RND_BYTES], const uint8_t *sk,
                     const mldsa_prepared_secret_key *ps) {
  if (sk == NULL) return b->sign_prepared(sig, ps, in->mu, rnd);
  if (in->m == NULL) return b->sign(sig, in->mu, rnd, sk);
  const mldsa_hash_input mprime_in = {
      {in->m->prefix, in->m->msg}, {in->m->prefix_len, in->m->msg_len}, 2};
  return b->sign_msg(sig, mu_out, &mprime_in, rnd, sk);
}

#ifdef MLDSA_SIGN_CHECK
/* The fault countermeasure of MLDSA_SIGN_CHECK builds: sign, then verify the signature
 * against the public key before returning it. The public key is recomputed from sk (which
 * also runs the import check: MLDSA_ERR_KEY for an inconsistent key) or is the one a
 * prepared key kept from its import check; pk and mu are taken before signing, since sig
 * may overlap sk or mu (a hashed mu comes out of the signing call, which reads the
 * message before it writes sig). A signature that does not verify (a fault in the signing
 * computation) is zeroed and gives MLDSA_ERR_VERIFY. */
static int sign_checked(const mldsa_backend *b, uint8_t *sig, const sign_input *in,
                        const uint8_t rnd[RND_BYTES], const uint8_t *sk,
                        const mldsa_prepared_secret_key *ps) {
  uint8_t pk[PK_MAX_BYTES], mu_copy[MU_BYTES];
  int ret = MLDSA_OK;
  sign_input copy = {mu_copy, in->m};
  if (in->m == NULL) memcpy(mu_copy, in->mu, MU_BYTES);
  if (sk != NULL)
    ret = b->public_from_secret(pk, sk);
  else
    memcpy(pk, b->prepared_secret_public_key(ps), b->pk_bytes);
  if (ret == MLDSA_OK) ret = sign_once(b, sig, &copy, mu_copy, rnd, sk, ps);
  if (ret == MLDSA_OK && b->verify(sig, mu_copy, pk) != MLDSA_OK) {
    memset(sig, 0, b->sig_bytes);
    ret = MLDSA_ERR_VERIFY;
  }
  mldsa_zeroize(mu_copy, sizeof mu_copy);
  return ret;
}
#else
static int sign_unchecked(const mldsa_backend *b, uint8_t *sig, const sign_input *in,
                          const uint8_t rnd[RND_BYTES], const uint8_t *sk,
                          const mldsa_prepared_secret_key *ps) {
  uint8_t mu[MU_BYTES];
  int ret = sign_once(b, sig, in, mu, rnd, sk, ps);
  mldsa_zeroize(mu, sizeof mu);
  return ret;
}
#endif

/* Sign with the given rnd, or fresh rnd from the OS when rnd is NULL: with the expanded
 * secret key sk, or with the prepared key ps when sk is NULL. */
static int sign_input_with(const mldsa_backend *b, uint8_t *sig, const sign_input *in,
                           const uint8_t *rnd, const uint8_t *sk,
                           const mldsa_prepared_secret_key *ps) {
#ifdef MLDSA_SIGN_CHECK
#define SIGN sign_checked
#else
#define SIGN sign_unchecked
#endif
  uint8_t fresh[RND_BYTES];
  int ret;
  if (rnd == NULL) {
    if (mldsa_randombytes(fresh, sizeof fresh) != 0)
      ret = MLDSA_ERR_RANDOM; /* no fallback: nothing weaker than the OS source */
    else
      ret = SIGN(b, sig, in, fresh, sk, ps);
    mldsa_zeroize(fresh, sizeof fresh);
  } else {
    ret = SIGN(b, sig, in, rnd, sk, ps);
  }
  return ret;
#undef SIGN
}

static int sign_mu_with(const mldsa_backend *b, uint8_t *sig, const uint8_t mu[MU_BYTES],
                        const uint8_t *rnd, const uint8_t *sk,
                        const mldsa_prepared_secret_key *ps) {
  const sign_input in = {mu, NULL};
  return sign_input_with(b, sig, &in, rnd, sk, ps);
}

static int sign_mu(const mldsa_backend *b, uint8_t *sig, const uint8_t mu[MU_BYTES],
                   const uint8_t *rnd, const uint8_t *sk) {
  return sign_mu_with(b, sig, mu, rnd, sk, NULL);
}

/* mu = H(tr || M') is hashed by the backend beside ExpandA, then signed. */
static int sign_mprime(const mldsa_backend *b, uint8_t *sig, const mprime *m, const uint8_t *rnd,
                       const uint8_t *sk) {
  const sign_input in = {NULL, m};
  return sign_input_with(b, sig, &in, rnd, sk, NULL);
}

int mldsa_sign_impl(mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t *msg,
                         size_t msg_len, const uint8_t *ctx, size_t ctx_len, const uint8_t *rnd,
                         const uint8_t *sk, size_t sk_len) {
  if (REFUSED()) {
    ZERO(sig, sig_len);
    return MLDSA_ERR_SELFTEST;
  }
  const mldsa_backend *b = mldsa_backend_for(p);
  int ret =
      check_sign_args(b, sig, sig_len, sk, sk_len, MISSING(msg, msg_len) || MISSING(ctx, ctx_len));
  if (ret == MLDSA_OK && ctx_len > 255) ret = MLDSA_ERR_CONTEXT;
  if (ret == MLDSA_OK) {
    mprime m;
    frame(&m, 0, ctx, ctx_len, NULL, 0, msg, msg_len);
    ret = sign_mprime(b, sig, &m, rnd, sk);
  }
  if (ret != MLDSA_OK) wipe_output(ret, sig, sig_len);
  return ret;
}

int mldsa_sign_prehash_impl(mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t *digest,
                                 size_t digest_len, mldsa_hash h, const uint8_t *ctx,
                                 size_t ctx_len, const uint8_t *rnd, const uint8_t *sk,
                                 size_t sk_len) {
  if (REFUSED()) {
    ZERO(sig, sig_len);
    return MLDSA_ERR_SELFTEST;
  }
  const mldsa_backend *b = mldsa_backend_for(p);
  const hash_info *info = hash_lookup(h);
  int ret = check_sign_args(b, sig, sig_len, sk, sk_len, digest == NULL || MISSING(ctx, ctx_len));
  if (ret == MLDSA_OK && info != NULL && digest_len != info->digest_len) ret = MLDSA_ERR_LENGTH;
  if (ret == MLDSA_OK && ctx_len > 255) ret = MLDSA_ERR_CONTEXT;
  if (ret == MLDSA_OK && info == NULL) ret = MLDSA_ERR_HASH;
  if (ret == MLDSA_OK) {
    uint8_t oid[11];
    mprime m;
    hash_oid(oid, info);
    frame(&m, 1, ctx, ctx_len, oid, sizeof oid, digest, digest_len);
    ret = sign_mprime(b, sig, &m, rnd, sk);
  }
  if (ret != MLDSA_OK) wipe_output(ret, sig, sig_len);
  return ret;
}

int mldsa_sign_internal_impl(mldsa_param p, uint8_t *sig, size_t sig_len,
                                  const uint8_t *mprime_bytes, size_t mprime_len,
                                  const uint8_t rnd[32], const uint8_t *sk, size_t sk_len) {
  if (REFUSED()) {
    ZERO(sig, sig_len);
    return MLDSA_ERR_SELFTEST;
  }
  const mldsa_backend *b = mldsa_backend_for(p);
  int ret = check_sign_args(b, sig, sig_len, sk, sk_len, MISSING(mprime_bytes, mprime_len));
  if (ret == MLDSA_OK) {
    mprime m = {.prefix_len = 0, .msg = mprime_bytes, .msg_len = mprime_len};
    ret = sign_mprime(b, sig, &m, rnd, sk);
  }
  if (ret != MLDSA_OK) wipe_output(ret, sig, sig_len);
  return ret;
}

int mldsa_sign_mu_impl(mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                            const uint8_t *rnd, const uint8_t *sk, size_t sk_len) {
  if (REFUSED()) {
    ZERO(sig, sig_len);
    return MLDSA_ERR_SELFTEST;
  }
  const mldsa_backend *b = mldsa_backend_for(p);
  int ret = check_sign_args(b, sig, sig_len, sk, sk_len, mu == NULL);
  if (ret == MLDSA_OK) ret = sign_mu(b, sig, mu, rnd, sk);
  if (ret != MLDSA_OK) wipe_output(ret, sig, sig_len);
  return ret;
}

/* ---- verification ---- */

typedef struct {
  const mldsa_backend *b;
  const mprime *m;
} mu_args;

static void mu_from_tr(uint8_t mu[MU_BYTES], const uint8_t tr[TR_BYTES], const void *arg) {
  const mu_args *a = arg;
  compute_mu(a->b, mu, tr, a->m);
}

/* tr = H(pk) is hashed by the backend beside ExpandA, then mu from it. */
static int verify_mprime(const mldsa_backend *b, const uint8_t *sig, const mprime *m,
                         const uint8_t *pk) {
  mu_args args = {b, m};
  return b->verify_pk(sig, pk, mu_from_tr, &args);
}

int mldsa_verify_impl(mldsa_param p, const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                           size_t msg_len, const uint8_t *ctx, size_t ctx_len, const uint8_t *pk,
                           size_t pk_len) {
  if (REFUSED()) return MLDSA_ERR_SELFTEST;
  const mldsa_backend *b = mldsa_backend_for(p);
  int ret = check_verify_args(b, sig, sig_len, pk, pk_len,
                              MISSING(msg, msg_len) || MISSING(ctx, ctx_len));
  if (ret != MLDSA_OK) return ret;
  if (ctx_len > 255) return MLDSA_ERR_CONTEXT;
  mprime m;
  frame(&m, 0, ctx, ctx_len, NULL, 0, msg, msg_len);
  return verify_mprime(b, sig, &m, pk);
}

int mldsa_verify_prehash_impl(mldsa_param p, const uint8_t *sig, size_t sig_len,
                                   const uint8_t *digest, size_t digest_len, mldsa_hash h,
                                   const uint8_t *ctx, size_t ctx_len, const uint8_t *pk,
                                   size_t pk_len) {
  if (REFUSED()) return MLDSA_ERR_SELFTEST;
  const mldsa_backend *b = mldsa_backend_for(p);
  const hash_info *info = hash_lookup(h);
  int ret = check_verify_args(b, sig, sig_len, pk, pk_len, digest == NULL || MISSING(ctx, ctx_len));
  if (ret != MLDSA_OK) return ret;
  if (info != NULL && digest_len != info->digest_len) return MLDSA_ERR_LENGTH;
  if (ctx_len > 255) return MLDSA_ERR_CONTEXT;
  if (info == NULL) return MLDSA_ERR_HASH;
  uint8_t oid[11];
  mprime m;
  hash_oid(oid, info);
  frame(&m, 1, ctx, ctx_len, oid, sizeof oid, digest, digest_len);
  return verify_mprime(b, sig, &m, pk);
}

int mldsa_verify_internal_impl(mldsa_param p, const uint8_t *sig, size_t sig_len,
                                    const uint8_t *mprime_bytes, size_t mprime_len,
                                    const uint8_t *pk, size_t pk_len) {
  if (REFUSED()) return MLDSA_ERR_SELFTEST;
  const mldsa_backend *b = mldsa_backend_for(p);
  int ret = check_verify_args(b, sig, sig_len, pk, pk_len, MISSING(mprime_bytes, mprime_len));
  if (ret != MLDSA_OK) return ret;
  mprime m = {.prefix_len = 0, .msg = mprime_bytes, .msg_len = mprime_len};
  return verify_mprime(b, sig, &m, pk);
}

int mldsa_verify_mu_impl(mldsa_param p, const uint8_t *sig, size_t sig_len,
                              const uint8_t mu[64], const uint8_t *pk, size_t pk_len) {
  if (REFUSED()) return MLDSA_ERR_SELFTEST;
  const mldsa_backend *b = mldsa_backend_for(p);
  int ret = check_verify_args(b, sig, sig_len, pk, pk_len, mu == NULL);
  if (ret != MLDSA_OK) return ret;
  return b->verify(sig, mu, pk);
}

int mldsa_compute_mu_impl(mldsa_param p, uint8_t mu[64], const uint8_t *pk, size_t pk_len,
                               const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                               size_t ctx_len) {
  if (REFUSED()) {
    ZERO(mu, MU_BYTES);
    return MLDSA_ERR_SELFTEST;
  }
  const mldsa_backend *b = mldsa_backend_for(p);
  int ret = MLDSA_OK;
  if (b == NULL)
    ret = MLDSA_ERR_PARAM;
  else if (mu == NULL || pk == NULL || MISSING(msg, msg_len) || MISSING(ctx, ctx_len))
    ret = MLDSA_ERR_NULL;
  else if (pk_len != b->pk_bytes)
    ret = MLDSA_ERR_LENGTH;
  else if (ctx_len > 255)
    ret = MLDSA_ERR_CONTEXT;
  if (ret != MLDSA_OK) {
    wipe_output(ret, mu, MU_BYTES);
    return ret;
  }
  uint8_t tr[TR_BYTES];
  mprime m;
  public_tr(b, tr, pk);
  frame(&m, 0, ctx, ctx_len, NULL, 0, msg, msg_len);
  compute_mu(b, mu, tr, &m);
  return MLDSA_OK;
}

/* ---- key import ---- */

int mldsa_public_key_from_secret_impl(mldsa_param p, uint8_t *pk, size_t pk_len,
                                           const uint8_t *sk, size_t sk_len) {
  if (REFUSED()) {
    ZERO(pk, pk_len);
    return MLDSA_ERR_SELFTEST;
  }
  const mldsa_backend *b = mldsa_backend_for(p);
  int ret = MLDSA_OK;
  if (b == NULL)
    ret = MLDSA_ERR_PARAM;
  else if (pk == NULL || sk == NULL)
    ret = MLDSA_ERR_NULL;
  else if (pk_len != b->pk_bytes || sk_len != b->sk_bytes)
    ret = MLDSA_ERR_LENGTH;
  else
    ret = b->public_from_secret(pk, sk);
  if (ret != MLDSA_OK) wipe_output(ret, pk, pk_len);
  return ret;
}

/* ---- streaming mu ---- */

/* The layout of mldsa_mu_state. The sponge's permutation pointer is never trusted: it is
 * set from the backend before every use. */
typedef struct {
  uint64_t magic, check;
  uint32_t set, isa;
  mldsa_keccak sponge;
} mu_impl;
_Static_assert(sizeof(mu_impl) <= sizeof(mldsa_mu_state), "MLDSA_MU_STATE_WORDS too small");
_Static_assert(_Alignof(mu_impl) <= _Alignof(mldsa_mu_state), "mldsa_mu_state under-aligned");
#define MU_MAGIC UINT64_C(0x6d6c6473616d7573) /* "mldsamus" */

static int mu_start(mldsa_mu_state *st, mldsa_param p, const uint8_t *key, size_t key_len,
                    int secret, const uint8_t *ctx, size_t ctx_len) {
  const mldsa_backend *b = mldsa_backend_for(p);
  if (b == NULL) return MLDSA_ERR_PARAM;
  if (st == NULL || key == NULL || MISSING(ctx, ctx_len)) return MLDSA_ERR_NULL;
  if (key_len != (secret ? b->sk_bytes : b->pk_bytes)) return MLDSA_ERR_LENGTH;
  if (ctx_len > 255) {
    mldsa_zeroize(st, sizeof *st);
    return MLDSA_ERR_CONTEXT;
  }
  mu_impl *m = (mu_impl *)st;
  uint8_t tr[TR_BYTES], prefix[2] = {0, (uint8_t)ctx_len};
  if (secret)
    memcpy(tr, SECRET_TR(key), TR_BYTES);
  else
    public_tr(b, tr, key);
  memset(st, 0, sizeof *st);
  mldsa_shake256_init_with(&m->sponge, b->keccak);
  mldsa_shake_absorb(&m->sponge, tr, TR_BYTES);
  mldsa_shake_absorb(&m->sponge, prefix, sizeof prefix);
  mldsa_shake_absorb(&m->sponge, ctx, ctx_len);
  m->set = (uint32_t)p;
  m->isa = b->isa_id;
  m->magic = MU_MAGIC;
  m->check = mldsa_prepared_check(MU_MAGIC, MLDSA_PREPARED_LAYOUT, m->set, m->isa);
  return MLDSA_OK;
}

/* The state behind st with its permutation set, or NULL when st is not a live state of
 * this process (never initialised, finalised, header overwritten, another ISA). */
static mu_impl *mu_live(mldsa_mu_state *st) {
  mu_impl *m = (mu_impl *)st;
  if (m->magic != MU_MAGIC ||
      m->check != mldsa_prepared_check(MU_MAGIC, MLDSA_PREPARED_LAYOUT, m->set, m->isa))
    return NULL;
  const mldsa_backend *b = mldsa_backend_for((int)m->set);
  if (b == NULL || m->isa != b->isa_id || m->sponge.rate != MLDSA_SHAKE256_RATE ||
      m->sponge.pos >= MLDSA_SHAKE256_RATE)
    return NULL;
  m->sponge.perm = b->keccak;
  return m;
}

int mldsa_mu_init_impl(mldsa_mu_state *st, mldsa_param p, const uint8_t *pk, size_t pk_len,
                            const uint8_t *ctx, size_t ctx_len) {
  if (REFUSED()) {
    ZERO(st, sizeof *st);
    return MLDSA_ERR_SELFTEST;
  }
  return mu_start(st, p, pk, pk_len, 0, ctx, ctx_len);
}

int mldsa_mu_init_secret_impl(mldsa_mu_state *st, mldsa_param p, const uint8_t *sk,
                                   size_t sk_len, const uint8_t *ctx, size_t ctx_len) {
  if (REFUSED()) {
    ZERO(st, sizeof *st);
    return MLDSA_ERR_SELFTEST;
  }
  return mu_start(st, p, sk, sk_len, 1, ctx, ctx_len);
}

int mldsa_mu_update_impl(mldsa_mu_state *st, const uint8_t *m, size_t m_len) {
  if (REFUSED()) {
    ZERO(st, sizeof *st);
    return MLDSA_ERR_SELFTEST;
  }
  if (st == NULL) return MLDSA_ERR_NULL;
  mu_impl *live = mu_live(st);
  if (live == NULL) return MLDSA_ERR_PARAM;
  if (MISSING(m, m_len)) return MLDSA_ERR_NULL;
  mldsa_shake_absorb(&live->sponge, m, m_len);
  return MLDSA_OK;
}

int mldsa_mu_final_impl(mldsa_mu_state *st, uint8_t mu[64]) {
  if (REFUSED()) {
    ZERO(st, sizeof *st);
    ZERO(mu, MU_BYTES);
    return MLDSA_ERR_SELFTEST;
  }
  if (st == NULL) return MLDSA_ERR_NULL;
  mu_impl *live = mu_live(st);
  if (live == NULL) return MLDSA_ERR_PARAM;
  if (mu == NULL) return MLDSA_ERR_NULL;
  mldsa_shake_finalize(&live->sponge);
  mldsa_shake_squeeze(&live->sponge, mu, MU_BYTES);
  mldsa_zeroize(st, sizeof *st);
  return MLDSA_OK;
}

/* ---- prepared keys ---- */

/* The prepared structs must have the alignment of their type (64 bytes). */
#define MISALIGNED(ptr) (((uintptr_t)(ptr)&63) != 0)

static void write_header(mldsa_prepared_header *h, uint64_t magic, mldsa_param p,
                         const mldsa_backend *b) {
  memset(h->pad, 0, sizeof h->pad);
  h->set = (uint32_t)p;
  h->isa = b->isa_id;
  h->magic = magic;
  h->check = mldsa_prepared_check(magic, MLDSA_PREPARED_LAYOUT, h->set, h->isa);
}

/* The backend of a key prepared in this process (same ISA), or NULL. */
static const mldsa_backend *prepared_backend(const mldsa_prepared_header *h, uint64_t magic) {
  if (h->magic != magic ||
      h->check != mldsa_prepared_check(magic, MLDSA_PREPARED_LAYOUT, h->set, h->isa))
    return NULL;
  const mldsa_backend *b = mldsa_backend_for((int)h->set);
  if (b == NULL || h->isa != b->isa_id) return NULL;
  return b;
}
#define PUBLIC_HEADER(pp) ((const mldsa_prepared_header *)(pp))
#define SECRET_HEADER(ps) ((const mldsa_prepared_header *)(ps))

int mldsa_public_key_prepare_impl(mldsa_prepared_public_key *pp, mldsa_param p,
                                       const uint8_t *pk, size_t pk_len) {
  if (REFUSED()) {
    ZERO(pp, sizeof *pp);
    return MLDSA_ERR_SELFTEST;
  }
  const mldsa_backend *b = mldsa_backend_for(p);
  if (b == NULL) return MLDSA_ERR_PARAM;
  if (pp == NULL || pk == NULL || MISALIGNED(pp)) return MLDSA_ERR_NULL;
  if (pk_len != b->pk_bytes) return MLDSA_ERR_LENGTH;
  b->prepare_public(pp, pk);
  write_header((mldsa_prepared_header *)pp, MLDSA_PREPARED_PUBLIC_MAGIC, p, b);
  return MLDSA_OK;
}

/* The checks of the prepared verify calls, in order; *bp gets the backend. */
static int check_prepared_verify(const mldsa_backend **bp, const mldsa_prepared_public_key *pp,
                                 const uint8_t *sig, size_t sig_len, int other_null) {
  if (pp == NULL || MISALIGNED(pp)) return MLDSA_ERR_NULL;
  *bp = prepared_backend(PUBLIC_HEADER(pp), MLDSA_PREPARED_PUBLIC_MAGIC);
  if (*bp == NULL) return MLDSA_ERR_KEY;
  if (sig == NULL || other_null) return MLDSA_ERR_NULL;
  if (sig_len != (*bp)->sig_bytes) return MLDSA_ERR_LENGTH;
  return MLDSA_OK;
}

int mldsa_verify_prepared_impl(const mldsa_prepared_public_key *pp, const uint8_t *sig,
                                    size_t sig_len, const uint8_t *msg, size_t msg_len,
                                    const uint8_t *ctx, size_t ctx_len) {
  if (REFUSED()) return MLDSA_ERR_SELFTEST;
  const mldsa_backend *b = NULL;
  int ret =
      check_prepared_verify(&b, pp, sig, sig_len, MISSING(msg, msg_len) || MISSING(ctx, ctx_len));
  if (ret != MLDSA_OK) return ret;
  if (ctx_len > 255) return MLDSA_ERR_CONTEXT;
  uint8_t mu[MU_BYTES];
  mprime m;
  frame(&m, 0, ctx, ctx_len, NULL, 0, msg, msg_len);
  compute_mu(b, mu, PUBLIC_HEADER(pp)->tr, &m);
  return b->verify_prepared(pp, sig, mu);
}

int mldsa_verify_mu_prepared_impl(const mldsa_prepared_public_key *pp, const uint8_t *sig,
                                       size_t sig_len, const uint8_t mu[64]) {
  if (REFUSED()) return MLDSA_ERR_SELFTEST;
  const mldsa_backend *b = NULL;
  int ret = check_prepared_verify(&b, pp, sig, sig_len, mu == NULL);
  if (ret != MLDSA_OK) return ret;
  return b->verify_prepared(pp, sig, mu);
}

int mldsa_secret_key_prepare_impl(mldsa_prepared_secret_key *ps, mldsa_param p,
                                       const uint8_t *sk, size_t sk_len) {
  if (REFUSED()) {
    ZERO(ps, sizeof *ps);
    return MLDSA_ERR_SELFTEST;
  }
  const mldsa_backend *b = mldsa_backend_for(p);
  if (b == NULL) return MLDSA_ERR_PARAM;
  if (ps == NULL || sk == NULL || MISALIGNED(ps)) return MLDSA_ERR_NULL;
  if (sk_len != b->sk_bytes) return MLDSA_ERR_LENGTH;
  int ret = b->prepare_secret(ps, sk);
  if (ret != MLDSA_OK) {
    mldsa_zeroize(ps, sizeof *ps);
    return ret;
  }
  write_header((mldsa_prepared_header *)ps, MLDSA_PREPARED_SECRET_MAGIC, p, b);
  return MLDSA_OK;
}

/* The checks of the prepared sign calls, in order; *bp gets the backend. */
static int check_prepared_sign(const mldsa_backend **bp, const mldsa_prepared_secret_key *ps,
                               const uint8_t *sig, size_t sig_len, int other_null) {
  if (ps == NULL || MISALIGNED(ps)) return MLDSA_ERR_NULL;
  *bp = prepared_backend(SECRET_HEADER(ps), MLDSA_PREPARED_SECRET_MAGIC);
  if (*bp == NULL) return MLDSA_ERR_KEY;
  if (sig == NULL || other_null) return MLDSA_ERR_NULL;
  if (sig_len != (*bp)->sig_bytes) return MLDSA_ERR_LENGTH;
  return MLDSA_OK;
}

int mldsa_sign_prepared_impl(const mldsa_prepared_secret_key *ps, uint8_t *sig, size_t sig_len,
                                  const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                                  size_t ctx_len, const uint8_t *rnd) {
  if (REFUSED()) {
    ZERO(sig, sig_len);
    return MLDSA_ERR_SELFTEST;
  }
  const mldsa_backend *b = NULL;
  int ret =
      check_prepared_sign(&b, ps, sig, sig_len, MISSING(msg, msg_len) || MISSING(ctx, ctx_len));
  if (ret != MLDSA_OK) return ret;
  if (ctx_len > 255) {
    memset(sig, 0, sig_len);
    return MLDSA_ERR_CONTEXT;
  }
  uint8_t mu[MU_BYTES];
  mprime m;
  frame(&m, 0, ctx, ctx_len, NULL, 0, msg, msg_len);
  compute_mu(b, mu, SECRET_HEADER(ps)->tr, &m);
  ret = sign_mu_with(b, sig, mu, rnd, NULL, ps);
  mldsa_zeroize(mu, sizeof mu);
  if (ret != MLDSA_OK) memset(sig, 0, sig_len);
  return ret;
}

int mldsa_sign_mu_prepared_impl(const mldsa_prepared_secret_key *ps, uint8_t *sig,
                                     size_t sig_len, const uint8_t mu[64], const uint8_t *rnd) {
  if (REFUSED()) {
    ZERO(sig, sig_len);
    return MLDSA_ERR_SELFTEST;
  }
  const mldsa_backend *b = NULL;
  int ret = check_prepared_sign(&b, ps, sig, sig_len, mu == NULL);
  if (ret != MLDSA_OK) return ret;
  ret = sign_mu_with(b, sig, mu, rnd, NULL, ps);
  if (ret != MLDSA_OK) memset(sig, 0, sig_len);
  return ret;
}

void mldsa_secret_key_unprepare_impl(mldsa_prepared_secret_key *ps) {
  if (ps != NULL) mldsa_zeroize(ps, sizeof *ps);
}

void mldsa_wipe_impl(void *p, size_t n) {
  if (p != NULL) mldsa_zeroize(p, n);
}

/* ---- batches ----
 *
 * Item by item: every item gets in results[i] the code its one-at-a-time call would
 * return, and one malformed item never stops the others. Only what makes the call itself
 * impossible (items or results NULL with n > 0, a NULL or misaligned prepared key) fails
 * it as a whole with nothing written. A failure of the whole call found after that (the
 * self-tests, an unknown set, a prepared key that is not live: every one-at-a-time call
 * would give the same code) is written into every results[i]. The return value is the
 * first failing item's code in item order. */

/* The code of a failure common to every item, written into every result. */
static int fail_all(int *results, size_t n, int code) {
  for (size_t i = 0; i < n; ++i) results[i] = code;
  return code;
}

/* MLDSA_OK, or the first failing result in item order. */
static int first_failure(const int *results, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (results[i] != MLDSA_OK) return results[i];
  return MLDSA_OK;
}

/* The checks of one verify item before any hashing, in the order of the one-at-a-time
 * calls: NULL pointers, lengths (pk: the set's size, or 0 in the prepared form), the
 * context's length. */
static int check_verify_item(const mldsa_backend *b, const mldsa_verify_item *it, int prepared) {
  if (it->sig == NULL || (!prepared && it->pk == NULL) || MISSING(it->msg, it->msg_len) ||
      MISSING(it->ctx, it->ctx_len))
    return MLDSA_ERR_NULL;
  if (it->sig_len != b->sig_bytes || it->pk_len != (prepared ? 0 : b->pk_bytes))
    return MLDSA_ERR_LENGTH;
  if (it->ctx_len > 255) return MLDSA_ERR_CONTEXT;
  return MLDSA_OK;
}

/* An item that fails its checks is answered here; the others go in groups of the
 * backend's batch width. */
static int verify_batch(const mldsa_backend *b, const mldsa_prepared_public_key *pp,
                        const mldsa_verify_item *items, size_t n, int *results) {
  const mldsa_verify_item *group[MLDSA_BATCH_MAX];
  size_t where[MLDSA_BATCH_MAX];
  int res[MLDSA_BATCH_MAX];
  unsigned g = 0, width = b->batch_width < MLDSA_BATCH_MAX ? b->batch_width : MLDSA_BATCH_MAX;
  for (size_t i = 0; i < n; ++i) {
    int ret = check_verify_item(b, &items[i], pp != NULL);
    if (ret != MLDSA_OK) {
      results[i] = ret;
    } else {
      group[g] = &items[i];
      where[g++] = i;
    }
    if (g == width || (i + 1 == n && g > 0)) {
      b->verify_batch(pp, group, g, res);
      for (unsigned t = 0; t < g; ++t) results[where[t]] = res[t];
      g = 0;
    }
  }
  return first_failure(results, n);
}

int mldsa_verify_batch_impl(mldsa_param p, const mldsa_verify_item *items, size_t n,
                            int *results) {
  if (n > 0 && (items == NULL || results == NULL)) return MLDSA_ERR_NULL;
  if (REFUSED()) return fail_all(results, n, MLDSA_ERR_SELFTEST);
  const mldsa_backend *b = mldsa_backend_for(p);
  if (b == NULL) return fail_all(results, n, MLDSA_ERR_PARAM);
  return verify_batch(b, NULL, items, n, results);
}

int mldsa_verify_prepared_batch_impl(const mldsa_prepared_public_key *pp,
                                     const mldsa_verify_item *items, size_t n, int *results) {
  if (pp == NULL || MISALIGNED(pp)) return MLDSA_ERR_NULL;
  if (n > 0 && (items == NULL || results == NULL)) return MLDSA_ERR_NULL;
  if (REFUSED()) return fail_all(results, n, MLDSA_ERR_SELFTEST);
  const mldsa_backend *b = prepared_backend(PUBLIC_HEADER(pp), MLDSA_PREPARED_PUBLIC_MAGIC);
  if (b == NULL) return fail_all(results, n, MLDSA_ERR_KEY);
  return verify_batch(b, pp, items, n, results);
}

#ifdef MLDSA_SIGN_CHECK
/* The countermeasure of MLDSA_SIGN_CHECK builds (sign_checked) for a batch: mu of each
 * item taken before signing, each new signature verified against the key's public key;
 * one that does not verify is zeroed and gives MLDSA_ERR_VERIFY. */
static void sign_group_checked(const mldsa_backend *b, const mldsa_prepared_secret_key *ps,
                               const mldsa_sign_item *const *group, const uint8_t *const *rnd,
                               unsigned g, int *res) {
  uint8_t mu[MLDSA_SIGN_GROUP][MU_BYTES];
  for (unsigned t = 0; t < g; ++t) {
    mprime m;
    frame(&m, 0, group[t]->ctx, group[t]->ctx_len, NULL, 0, group[t]->msg, group[t]->msg_len);
    compute_mu(b, mu[t], SECRET_HEADER(ps)->tr, &m);
  }
  b->sign_batch(ps, group, rnd, g, res);
  for (unsigned t = 0; t < g; ++t) {
    if (res[t] == MLDSA_OK &&
        b->verify(group[t]->sig, mu[t], b->prepared_secret_public_key(ps)) != MLDSA_OK) {
      memset(group[t]->sig, 0, b->sig_bytes);
      res[t] = MLDSA_ERR_VERIFY;
    }
  }
  mldsa_zeroize(mu, sizeof mu);
}
#define SIGN_GROUP(b, ps, group, rnd, g, res) sign_group_checked(b, ps, group, rnd, g, res)
#else
#define SIGN_GROUP(b, ps, group, rnd, g, res) (b)->sign_batch(ps, group, rnd, g, res)
#endif

int mldsa_sign_batch_impl(const mldsa_prepared_secret_key *ps, const mldsa_sign_item *items,
                          size_t n, int *results) {
  if (ps == NULL || MISALIGNED(ps)) return MLDSA_ERR_NULL;
  if (n > 0 && (items == NULL || results == NULL)) return MLDSA_ERR_NULL;
  if (REFUSED()) {
    for (size_t i = 0; i < n; ++i) ZERO(items[i].sig, items[i].sig_len);
    return fail_all(results, n, MLDSA_ERR_SELFTEST);
  }
  const mldsa_backend *b = prepared_backend(SECRET_HEADER(ps), MLDSA_PREPARED_SECRET_MAGIC);
  if (b == NULL) return fail_all(results, n, MLDSA_ERR_KEY);
  /* groups larger than the lanes: a message that needs another attempt leaves its lane
     to the next message of the group */
  const mldsa_sign_item *group[MLDSA_SIGN_GROUP];
  const uint8_t *rnd[MLDSA_SIGN_GROUP];
  uint8_t fresh[MLDSA_SIGN_GROUP][RND_BYTES];
  size_t where[MLDSA_SIGN_GROUP];
  int res[MLDSA_SIGN_GROUP];
  unsigned g = 0, width = MLDSA_SIGN_GROUP;
  for (size_t i = 0; i < n; ++i) {
    const mldsa_sign_item *it = &items[i];
    /* as mldsa_sign_prepared: a NULL pointer or a wrong length leaves sig untouched (its
       length cannot be trusted); then the context and the randomness, in item order */
    int ret = MLDSA_OK;
    if (it->sig == NULL || MISSING(it->msg, it->msg_len) || MISSING(it->ctx, it->ctx_len)) {
      results[i] = MLDSA_ERR_NULL;
      continue;
    }
    if (it->sig_len != b->sig_bytes) {
      results[i] = MLDSA_ERR_LENGTH;
      continue;
    }
    if (it->ctx_len > 255) {
      ret = MLDSA_ERR_CONTEXT;
    } else if (it->rnd == NULL) {
      if (mldsa_randombytes(fresh[g], RND_BYTES) != 0) ret = MLDSA_ERR_RANDOM;
      rnd[g] = fresh[g];
    } else {
      rnd[g] = it->rnd;
    }
    if (ret != MLDSA_OK) {
      memset(it->sig, 0, it->sig_len);
      results[i] = ret;
    } else {
      group[g] = it;
      where[g++] = i;
    }
    if (g == width) {
      SIGN_GROUP(b, ps, group, rnd, g, res);
      for (unsigned t = 0; t < g; ++t) results[where[t]] = res[t];
      g = 0;
    }
  }
  if (g > 0) {
    SIGN_GROUP(b, ps, group, rnd, g, res);
    for (unsigned t = 0; t < g; ++t) results[where[t]] = res[t];
  }
  mldsa_zeroize(fresh, sizeof fresh);
  return first_failure(results, n);
}
