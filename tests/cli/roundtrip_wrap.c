/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* For test_cli_example: examples/keys_roundtrip.c linked with -Wl,--wrap of the two key
 * decoders, which call the real ones and then, as MLDSA_TEST_CORRUPT says, change one
 * thing of what they return, so that what is read back differs from what was written:
 *   sk: a byte of the expanded private key;  seed: a byte of the seed;
 *   noseed: the seed reported absent;        pk: a byte of the public key;
 *   set: the parameter set of the public key.
 * Unset: the decoders are the library's, unchanged. */
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"

int __real_mldsa_private_key_decode(mldsa_param *p, uint8_t *sk, size_t sk_cap, size_t *sk_len,
                                    uint8_t *seed, int *has_seed, const uint8_t *in, size_t in_len);
int __real_mldsa_public_key_decode(mldsa_param *p, uint8_t *pk, size_t pk_cap, size_t *pk_len,
                                   const uint8_t *in, size_t in_len);
int __wrap_mldsa_private_key_decode(mldsa_param *p, uint8_t *sk, size_t sk_cap, size_t *sk_len,
                                    uint8_t *seed, int *has_seed, const uint8_t *in, size_t in_len);
int __wrap_mldsa_public_key_decode(mldsa_param *p, uint8_t *pk, size_t pk_cap, size_t *pk_len,
                                   const uint8_t *in, size_t in_len);

static int corrupt(const char *what) {
  const char *c = getenv("MLDSA_TEST_CORRUPT");
  return c != NULL && strcmp(c, what) == 0;
}

int __wrap_mldsa_private_key_decode(mldsa_param *p, uint8_t *sk, size_t sk_cap, size_t *sk_len,
                                    uint8_t *seed, int *has_seed, const uint8_t *in,
                                    size_t in_len) {
  int rc = __real_mldsa_private_key_decode(p, sk, sk_cap, sk_len, seed, has_seed, in, in_len);
  if (rc != MLDSA_OK) return rc;
  if (corrupt("sk")) sk[100] ^= 1;
  if (corrupt("seed")) seed[7] ^= 1;
  if (corrupt("noseed")) *has_seed = 0;
  return rc;
}

int __wrap_mldsa_public_key_decode(mldsa_param *p, uint8_t *pk, size_t pk_cap, size_t *pk_len,
                                   const uint8_t *in, size_t in_len) {
  int rc = __real_mldsa_public_key_decode(p, pk, pk_cap, pk_len, in, in_len);
  if (rc != MLDSA_OK) return rc;
  if (corrupt("pk")) pk[200] ^= 1;
  if (corrupt("set")) *p = MLDSA_65;
  return rc;
}
