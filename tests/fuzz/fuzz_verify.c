/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fuzz target: verification of arbitrary signatures, public keys, messages and contexts.
 *
 * Input: sel (parameter set sel % 3, variant sel / 3 % 4: pure, pre-hash, external mu,
 * internal), ctx_len, hash (pre-hash algorithm, % 12), then pk, sig (the set's lengths),
 * ctx (ctx_len bytes), and the rest: the message (pure), the digest (pre-hash), mu (its
 * first 64 bytes) or M' (internal).
 * Properties: no crash or sanitizer report; the result is MLDSA_OK, MLDSA_ERR_VERIFY or,
 * for a digest of the wrong length, MLDSA_ERR_LENGTH; when a signature verifies, the same
 * signature with one bit flipped does not. */
#include "fuzz_common.h"

static int verify(unsigned variant, mldsa_param p, const uint8_t *sig, size_t sig_len,
                  const uint8_t *pk, size_t pk_len, const uint8_t *ctx, size_t ctx_len,
                  mldsa_hash h, const uint8_t *rest, size_t rest_len) {
  uint8_t mu[64];
  switch (variant) {
    case 0:
      return mldsa_verify(p, sig, sig_len, rest, rest_len, ctx, ctx_len, pk, pk_len);
    case 1:
      return mldsa_verify_prehash(p, sig, sig_len, rest, rest_len, h, ctx, ctx_len, pk, pk_len);
    case 2:
      memset(mu, 0, sizeof mu);
      memcpy(mu, rest, rest_len < 64 ? rest_len : 64);
      return mldsa_verify_mu(p, sig, sig_len, mu, pk, pk_len);
    default:
      return mldsa_verify_internal(p, sig, sig_len, rest, rest_len, pk, pk_len);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static uint8_t pk[FUZZ_PK_MAX], sig[FUZZ_SIG_MAX], ctx[255];
  fuzz_input in = {data, size, 0};
  uint8_t sel = fuzz_byte(&in), ctx_len = fuzz_byte(&in), hash = fuzz_byte(&in);
  mldsa_param p = fuzz_params[sel % 3];
  unsigned variant = (sel / 3) % 4;
  mldsa_hash h = (mldsa_hash)(hash % 12);
  size_t pk_len = mldsa_public_key_bytes(p), sig_len = mldsa_signature_bytes(p), rest_len;
  fuzz_bytes(&in, pk, pk_len);
  fuzz_bytes(&in, sig, sig_len);
  fuzz_bytes(&in, ctx, ctx_len);
  const uint8_t *rest = fuzz_rest(&in, &rest_len);

#if defined(MLDSA_FUZZ_PLANT) /* ci/fuzz --self-test only: a bug behind a 4-byte magic */
  if (rest_len >= 4 && memcmp(rest, "BUG!", 4) == 0) {
    uint8_t *volatile heap = malloc(4);
    heap[rest_len] = 1;
    free(heap);
  }
#endif
  int rc = verify(variant, p, sig, sig_len, pk, pk_len, ctx, ctx_len, h, rest, rest_len);
  FUZZ_CHECK(rc == MLDSA_OK || rc == MLDSA_ERR_VERIFY || (variant == 1 && rc == MLDSA_ERR_LENGTH),
             "verify (variant %u) returned %d", variant, rc);
  if (rc == MLDSA_OK) {
    size_t bit = (size_t)(sel ^ hash) * 131 % (8 * sig_len);
    sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    rc = verify(variant, p, sig, sig_len, pk, pk_len, ctx, ctx_len, h, rest, rest_len);
    FUZZ_CHECK(rc == MLDSA_ERR_VERIFY, "a signature with bit %zu flipped: %d", bit, rc);
  }
  return 0;
}
