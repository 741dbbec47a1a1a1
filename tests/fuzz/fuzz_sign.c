/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fuzz target: signing with arbitrary secret keys.
 *
 * Input: sel (parameter set sel % 3; sel / 3 % 2: pure with a context of ctx_len bytes, or
 * external mu), ctx_len, rnd (32 bytes), sk (the set's length), ctx, then the message (or
 * mu: its first 64 bytes).
 * Properties: no crash or sanitizer report; MLDSA_OK or MLDSA_ERR_KEY, and on
 * MLDSA_ERR_KEY the signature buffer is all zero; when the key is consistent (the import
 * check accepts it), the signature verifies under its public key. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static uint8_t pk[FUZZ_PK_MAX], sk[FUZZ_SK_MAX], sig[FUZZ_SIG_MAX], ctx[255];
  uint8_t rnd[32], mu[64];
  fuzz_input in = {data, size, 0};
  uint8_t sel = fuzz_byte(&in), ctx_len = fuzz_byte(&in);
  mldsa_param p = fuzz_params[sel % 3];
  int external_mu = (sel / 3) % 2;
  size_t pk_len = mldsa_public_key_bytes(p), sk_len = mldsa_secret_key_bytes(p),
         sig_len = mldsa_signature_bytes(p), msg_len;
  fuzz_bytes(&in, rnd, sizeof rnd);
  fuzz_bytes(&in, sk, sk_len);
  fuzz_bytes(&in, ctx, ctx_len);
  const uint8_t *msg = fuzz_rest(&in, &msg_len);
  memset(mu, 0, sizeof mu);
  memcpy(mu, msg, msg_len < 64 ? msg_len : 64);
  memset(sig, 0xAA, sig_len);

  int rc = external_mu ? mldsa_sign_mu(p, sig, sig_len, mu, rnd, sk, sk_len)
                       : mldsa_sign(p, sig, sig_len, msg, msg_len, ctx, ctx_len, rnd, sk, sk_len);
  FUZZ_CHECK(rc == MLDSA_OK || rc == MLDSA_ERR_KEY, "sign returned %d", rc);
  if (rc != MLDSA_OK) {
    FUZZ_CHECK(fuzz_all_zero(sig, sig_len), "sig not zeroed after MLDSA_ERR_KEY");
    return 0;
  }
  if (mldsa_public_key_from_secret(p, pk, pk_len, sk, sk_len) != MLDSA_OK) return 0;
  rc = external_mu ? mldsa_verify_mu(p, sig, sig_len, mu, pk, pk_len)
                   : mldsa_verify(p, sig, sig_len, msg, msg_len, ctx, ctx_len, pk, pk_len);
  FUZZ_CHECK(rc == MLDSA_OK, "a signature by a consistent key does not verify: %d", rc);
  return 0;
}
