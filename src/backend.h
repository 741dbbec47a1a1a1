/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* One backend: keygen, sign and verify of one parameter set on one ISA. sign.c is
 * compiled once per (parameter set, ISA) and defines mldsaNN_backend_<isa>. */
#ifndef MLDSA_BACKEND_H
#define MLDSA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "fips202.h"
#include "isas.h"

typedef struct {
  size_t pk_bytes, sk_bytes, sig_bytes;
  /* This ISA's single-state Keccak-f[1600], for the hashes around the backend (mu, tr). */
  mldsa_permutation keccak;
  /* FIPS 204 Alg. 6 from the 32-byte seed xi. */
  void (*keygen)(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]);
  /* Alg. 7 from mu = H(tr || M'); MLDSA_OK, or MLDSA_ERR_KEY for a malformed key or one
   * that gave no signature within the attempt limit. sig is zeroed on error. */
  int (*sign)(uint8_t *sig, const uint8_t mu[64], const uint8_t rnd[32], const uint8_t *sk);
  /* Alg. 8 from mu; MLDSA_OK or MLDSA_ERR_VERIFY. */
  int (*verify)(const uint8_t *sig, const uint8_t mu[64], const uint8_t *pk);
  /* pk from an expanded sk; MLDSA_ERR_KEY when sk is malformed or inconsistent. */
  int (*public_from_secret)(uint8_t *pk, const uint8_t *sk);
} mldsa_backend;

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
