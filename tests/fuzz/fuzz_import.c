/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fuzz target: secret-key import (mldsa_public_key_from_secret) of arbitrary keys.
 *
 * Input: sel (parameter set sel % 3), then sk (the set's length).
 * Properties: no crash or sanitizer report; MLDSA_OK or MLDSA_ERR_KEY, and on MLDSA_ERR_KEY
 * the public key buffer is all zero; an accepted key is consistent: a deterministic
 * signature made with it verifies under the recomputed public key. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static uint8_t pk[FUZZ_PK_MAX], sk[FUZZ_SK_MAX], sig[FUZZ_SIG_MAX];
  static const uint8_t msg[] = "libmldsa fuzz_import", zero_rnd[32];
  fuzz_input in = {data, size, 0};
  mldsa_param p = fuzz_params[fuzz_byte(&in) % 3];
  size_t pk_len = mldsa_public_key_bytes(p), sk_len = mldsa_secret_key_bytes(p),
         sig_len = mldsa_signature_bytes(p);
  fuzz_bytes(&in, sk, sk_len);
  memset(pk, 0xAA, pk_len);

  int rc = mldsa_public_key_from_secret(p, pk, pk_len, sk, sk_len);
  FUZZ_CHECK(rc == MLDSA_OK || rc == MLDSA_ERR_KEY, "public_key_from_secret returned %d", rc);
  if (rc != MLDSA_OK) {
    FUZZ_CHECK(fuzz_all_zero(pk, pk_len), "pk not zeroed after MLDSA_ERR_KEY");
    return 0;
  }
  rc = mldsa_sign(p, sig, sig_len, msg, sizeof msg, NULL, 0, zero_rnd, sk, sk_len);
  FUZZ_CHECK(rc == MLDSA_OK, "an imported key does not sign: %d", rc);
  rc = mldsa_verify(p, sig, sig_len, msg, sizeof msg, NULL, 0, pk, pk_len);
  FUZZ_CHECK(rc == MLDSA_OK, "a signature by an imported key does not verify: %d", rc);
  return 0;
}
