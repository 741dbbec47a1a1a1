/* The public API (include/mldsa.h): argument checks, the framing of M' (pure, pre-hash),
 * mu = H(tr || M'), hedged randomness, then the backend of the chosen ISA. The functions
 * here are the mldsa_<name>_impl of src/api_list.h; the exported mldsa_<name> (guard.c)
 * runs each inside the MCDT protection (mcdt.h).
 *
 * Checks run in this order, and the first failing one gives the code: parameter set,
 * NULL pointers, lengths, context length, pre-hash algorithm. On MLDSA_ERR_PARAM,
 * MLDSA_ERR_NULL and MLDSA_ERR_LENGTH nothing is written (a stated length may be wrong, so
 * it cannot be trusted); on any later error every output is zeroed over its length, which
 * is then known to be right.
 *
 * Buffers: an input may overlap an output (in place, or partly): every input is read, or
 * copied, before the first byte of an output is written. Two outputs (pk and sk of keygen)
 * must not overlap. */
#include <string.h>

#include "api_list.h"
#include "backend.h"
#include "fips202.h"
#include "mldsa.h"
#include "util.h"

#define TR_BYTES 64
#define MU_BYTES 64
#define RND_BYTES 32
#define SEED_BYTES 32
#define PK_MAX_BYTES 2592 /* ML-DSA-87 */

/* A pointer may be NULL only when its length is 0. */
#define MISSING(ptr, len) ((ptr) == NULL && (len) != 0)

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
      return "the OS gave no randomness";
    case MLDSA_ERR_KEY:
      return "malformed secret key";
    case MLDSA_ERR_HASH:
      return "unknown pre-hash algorithm";
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

int mldsa_keygen_from_seed_impl(mldsa_param p, uint8_t *pk, size_t pk_len, uint8_t *sk,
                                     size_t sk_len, const uint8_t seed[32]) {
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

int mldsa_keygen_impl(mldsa_param p, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len) {
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

#ifdef MLDSA_SIGN_CHECK
/* The fault countermeasure of MLDSA_SIGN_CHECK builds: sign, then verify the signature
 * against the public key recomputed from sk before returning it. pk (which also runs the
 * import check: MLDSA_ERR_KEY for an inconsistent key) and mu are taken before signing,
 * since sig may overlap sk or mu. A signature that does not verify (a fault in the signing
 * computation) is zeroed and gives MLDSA_ERR_VERIFY. */
static int sign_checked(const mldsa_backend *b, uint8_t *sig, const uint8_t mu[MU_BYTES],
                        const uint8_t rnd[RND_BYTES], const uint8_t *sk) {
  uint8_t pk[PK_MAX_BYTES], mu_copy[MU_BYTES];
  memcpy(mu_copy, mu, MU_BYTES);
  int ret = b->public_from_secret(pk, sk);
  if (ret == MLDSA_OK) ret = b->sign(sig, mu_copy, rnd, sk);
  if (ret == MLDSA_OK && b->verify(sig, mu_copy, pk) != MLDSA_OK) {
    memset(sig, 0, b->sig_bytes);
    ret = MLDSA_ERR_VERIFY;
  }
  mldsa_zeroize(mu_copy, sizeof mu_copy);
  return ret;
}
#define SIGN(b, sig, mu, rnd, sk) sign_checked(b, sig, mu, rnd, sk)
#else
#define SIGN(b, sig, mu, rnd, sk) (b)->sign(sig, mu, rnd, sk)
#endif

/* Sign mu with the given rnd, or fresh rnd from the OS when rnd is NULL. */
static int sign_mu(const mldsa_backend *b, uint8_t *sig, const uint8_t mu[MU_BYTES],
                   const uint8_t *rnd, const uint8_t *sk) {
  uint8_t fresh[RND_BYTES];
  int ret;
  if (rnd == NULL) {
    if (mldsa_randombytes(fresh, sizeof fresh) != 0)
      ret = MLDSA_ERR_RANDOM; /* no fallback: nothing weaker than the OS source */
    else
      ret = SIGN(b, sig, mu, fresh, sk);
    mldsa_zeroize(fresh, sizeof fresh);
  } else {
    ret = SIGN(b, sig, mu, rnd, sk);
  }
  return ret;
}

static int sign_mprime(const mldsa_backend *b, uint8_t *sig, const mprime *m, const uint8_t *rnd,
                       const uint8_t *sk) {
  uint8_t mu[MU_BYTES];
  compute_mu(b, mu, SECRET_TR(sk), m);
  int ret = sign_mu(b, sig, mu, rnd, sk);
  mldsa_zeroize(mu, sizeof mu);
  return ret;
}

int mldsa_sign_impl(mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t *msg,
                         size_t msg_len, const uint8_t *ctx, size_t ctx_len, const uint8_t *rnd,
                         const uint8_t *sk, size_t sk_len) {
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
  const mldsa_backend *b = mldsa_backend_for(p);
  int ret = check_sign_args(b, sig, sig_len, sk, sk_len, mu == NULL);
  if (ret == MLDSA_OK) ret = sign_mu(b, sig, mu, rnd, sk);
  if (ret != MLDSA_OK) wipe_output(ret, sig, sig_len);
  return ret;
}

/* ---- verification ---- */

static int verify_mprime(const mldsa_backend *b, const uint8_t *sig, const mprime *m,
                         const uint8_t *pk) {
  uint8_t tr[TR_BYTES], mu[MU_BYTES];
  public_tr(b, tr, pk);
  compute_mu(b, mu, tr, m);
  return b->verify(sig, mu, pk);
}

int mldsa_verify_impl(mldsa_param p, const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                           size_t msg_len, const uint8_t *ctx, size_t ctx_len, const uint8_t *pk,
                           size_t pk_len) {
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
  const mldsa_backend *b = mldsa_backend_for(p);
  int ret = check_verify_args(b, sig, sig_len, pk, pk_len, MISSING(mprime_bytes, mprime_len));
  if (ret != MLDSA_OK) return ret;
  mprime m = {.prefix_len = 0, .msg = mprime_bytes, .msg_len = mprime_len};
  return verify_mprime(b, sig, &m, pk);
}

int mldsa_verify_mu_impl(mldsa_param p, const uint8_t *sig, size_t sig_len,
                              const uint8_t mu[64], const uint8_t *pk, size_t pk_len) {
  const mldsa_backend *b = mldsa_backend_for(p);
  int ret = check_verify_args(b, sig, sig_len, pk, pk_len, mu == NULL);
  if (ret != MLDSA_OK) return ret;
  return b->verify(sig, mu, pk);
}

int mldsa_compute_mu_impl(mldsa_param p, uint8_t mu[64], const uint8_t *pk, size_t pk_len,
                               const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                               size_t ctx_len) {
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
