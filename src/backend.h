/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* One backend: keygen, sign and verify of one parameter set on one ISA. sign.c is
 * compiled once per (parameter set, ISA) and defines mldsaNN_backend_<isa>. */
#ifndef MLDSA_BACKEND_H
#define MLDSA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "fips202.h"
#include "isas.h"
#include "mldsa.h"

/* Prepared keys and mu states record which ISA's form they hold as MLDSA_ISA_ID_<isa>
 * (isas.h: fixed numbers, the same in every build). */

/* The version of the layout of prepared keys and mu states (everything after the
 * header, the header included): raise it with any change to what they hold, so that a
 * struct of another layout is refused rather than misread. It enters the check word. */
#define MLDSA_PREPARED_LAYOUT 2

/* The start of every prepared key (public or secret, any set): who made it, then tr.
 * api.c checks the header and hashes with tr; the backend owns the rest. */
typedef struct {
  uint64_t magic; /* MLDSA_PREPARED_PUBLIC_MAGIC or _SECRET_MAGIC */
  uint64_t check; /* mldsa_prepared_check(magic, MLDSA_PREPARED_LAYOUT, set, isa) */
  uint32_t set;   /* 44, 65 or 87 */
  uint32_t isa;   /* MLDSA_ISA_ID_<isa> (isas.h) */
  uint8_t pad[40];
  uint8_t tr[64];
} mldsa_prepared_header;
#define MLDSA_PREPARED_PUBLIC_MAGIC UINT64_C(0x6d6c64736170726b) /* "mldsaprk" */
#define MLDSA_PREPARED_SECRET_MAGIC UINT64_C(0x6d6c647361707368) /* "mldsapsh" */
/* The check word of a header (also of a mu state): every field that says how to read the
 * rest, so that a struct of another set, ISA or layout is refused. */
static inline uint64_t mldsa_prepared_check(uint64_t magic, uint32_t layout, uint32_t set,
                                            uint32_t isa) {
  uint64_t who = (uint64_t)layout << 48 ^ (uint64_t)set << 32 ^ isa;
  return (magic ^ who) * UINT64_C(0x9e3779b97f4a7c15);
}

/* mu from tr (mu = H(tr || M') for the message the caller holds in arg). */
typedef void (*mldsa_mu_fn)(uint8_t mu[64], const uint8_t tr[64], const void *arg);

typedef struct {
  size_t pk_bytes, sk_bytes, sig_bytes;
  /* This ISA's single-state Keccak-f[1600], for the hashes around the backend (mu, tr). */
  mldsa_permutation keccak;
  /* FIPS 204 Alg. 6 from the 32-byte seed xi. */
  void (*keygen)(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]);
  /* Alg. 7 from mu = H(tr || M'); MLDSA_OK, or MLDSA_ERR_KEY for a malformed key or one
   * that gave no signature within the attempt limit. sig is zeroed on error. */
  int (*sign)(uint8_t *sig, const uint8_t mu[64], const uint8_t rnd[32], const uint8_t *sk);
  /* Alg. 7 from the message: mu = H(tr || M'), M' the (at most two) pieces of mprime, is
   * hashed beside ExpandA (in lanes of its batched permutation) into mu, then signed. */
  int (*sign_msg)(uint8_t *sig, uint8_t mu[64], const mldsa_hash_input *mprime,
                  const uint8_t rnd[32], const uint8_t *sk);
  /* Alg. 8 from mu; MLDSA_OK or MLDSA_ERR_VERIFY. */
  int (*verify)(const uint8_t *sig, const uint8_t mu[64], const uint8_t *pk);
  /* Alg. 8 from the message: tr = H(pk) is hashed beside ExpandA (in lanes of its batched
   * permutation), then mu_of(mu, tr, arg) gives mu. */
  int (*verify_pk)(const uint8_t *sig, const uint8_t *pk, mldsa_mu_fn mu_of, const void *arg);
  /* pk from an expanded sk; MLDSA_ERR_KEY when sk is malformed or inconsistent. */
  int (*public_from_secret)(uint8_t *pk, const uint8_t *sk);
  /* MLDSA_ISA_ID_<isa> of this backend. */
  unsigned isa_id;
  /* Prepared keys: the backend fills everything after pp's header (tr included). The
   * header is api.c's: written after a successful prepare, checked before every use. */
  void (*prepare_public)(mldsa_prepared_public_key *pp, const uint8_t *pk);
  /* Verify from mu under a prepared key; MLDSA_OK or MLDSA_ERR_VERIFY. */
  int (*verify_prepared)(const mldsa_prepared_public_key *pp, const uint8_t *sig,
                         const uint8_t mu[64]);
  /* With the import check; MLDSA_ERR_KEY (and ps wiped) when it fails. */
  int (*prepare_secret)(mldsa_prepared_secret_key *ps, const uint8_t *sk);
  /* Sign from mu under a prepared key; as sign. */
  int (*sign_prepared)(uint8_t *sig, const mldsa_prepared_secret_key *ps, const uint8_t mu[64],
                       const uint8_t rnd[32]);
  /* The public key a prepared secret key kept from its import check. */
  const uint8_t *(*prepared_secret_public_key)(const mldsa_prepared_secret_key *ps);
  /* Batches (api.c checks the arguments and cuts them into groups: of at most
   * batch_width <= MLDSA_BATCH_MAX items, the lanes of this ISA's batched Keccak, to
   * verify; of at most MLDSA_SIGN_GROUP messages to sign). */
  unsigned batch_width;
  /* results[j] = MLDSA_OK or MLDSA_ERR_VERIFY for *items[j] (pure ML-DSA, ctx <= 255
   * bytes): under pp, or each under its own pk when pp is NULL. */
  void (*verify_batch)(const mldsa_prepared_public_key *pp, const mldsa_verify_item *const *items,
                       unsigned n, int *results);
  /* results[j] as sign_prepared for *items[j] signed with rnd[j]; a message is read
   * before its own signature is written (not before the others'). */
  void (*sign_batch)(const mldsa_prepared_secret_key *ps, const mldsa_sign_item *const *items,
                     const uint8_t *const *rnd, unsigned n, int *results);
} mldsa_backend;
#define MLDSA_BATCH_MAX 8
#define MLDSA_SIGN_GROUP 64

#define MLDSA_DECLARE_BACKENDS(isa)                 \
  extern const mldsa_backend mldsa44_backend_##isa; \
  extern const mldsa_backend mldsa65_backend_##isa; \
  extern const mldsa_backend mldsa87_backend_##isa;
MLDSA_FOR_EACH_ISA(MLDSA_DECLARE_BACKENDS)

/* MLDSA_SET_IF_<set>(x): x when the build compiles that parameter set (CMake option
 * MLDSA_PARAMS defines MLDSA_HAVE_<set>), else NULL. */
#if defined(MLDSA_HAVE_44)
#define MLDSA_SET_IF_44(x) (x)
#else
#define MLDSA_SET_IF_44(x) NULL
#endif
#if defined(MLDSA_HAVE_65)
#define MLDSA_SET_IF_65(x) (x)
#else
#define MLDSA_SET_IF_65(x) NULL
#endif
#if defined(MLDSA_HAVE_87)
#define MLDSA_SET_IF_87(x) (x)
#else
#define MLDSA_SET_IF_87(x) NULL
#endif

/* The backend of parameter set p on the ISA this process uses (dispatch.c), or NULL
 * for an unknown p or one this build left out. */
const mldsa_backend *mldsa_backend_for(int p);

#endif
