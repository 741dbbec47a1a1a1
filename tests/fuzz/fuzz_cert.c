/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fuzz target: the certificate reader (mldsa_certificate_public_key) on arbitrary files.
 *
 * Input: the raw file (seeds: the certificates of tests/data/openssl35, in
 * tests/fuzz/regressions/cert).
 * Properties: no crash or sanitizer report (never a read past the input: the file is
 * copied into a buffer of exactly its length); the result is MLDSA_OK or
 * MLDSA_ERR_ENCODING; on an error every output is zero; an accepted key has its set's
 * length and is accepted by the SubjectPublicKeyInfo encoder; the same input read again
 * with pk over it gives the same key. */
#include <stdlib.h>
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static uint8_t pk[FUZZ_PK_MAX], spki[FUZZ_PK_MAX + 64];
  uint8_t *in = malloc(size ? size : 1);
  FUZZ_CHECK(in != NULL, "out of memory");
  memcpy(in, data, size);
  memset(pk, 0xAA, sizeof pk);
  mldsa_param p = (mldsa_param)99;
  size_t pk_len = 99, n;
  int rc = mldsa_certificate_public_key(&p, pk, sizeof pk, &pk_len, in, size);
  FUZZ_CHECK(rc == MLDSA_OK || rc == MLDSA_ERR_ENCODING, "certificate_public_key returned %d",
             rc);
  if (rc != MLDSA_OK) {
    FUZZ_CHECK(fuzz_all_zero(pk, sizeof pk) && pk_len == 0 && p == 0, "outputs not zeroed");
    free(in);
    return 0;
  }
  FUZZ_CHECK(pk_len == mldsa_public_key_bytes(p), "pk_len %zu for ML-DSA-%d", pk_len, p);
  FUZZ_CHECK(mldsa_public_key_encode(p, MLDSA_DER, spki, sizeof spki, &n, pk, pk_len) == MLDSA_OK,
             "the key does not encode");
  /* in place: pk over the start of the input, when the input is at least as long */
  if (size >= pk_len) {
    mldsa_param p2;
    size_t pk2_len;
    rc = mldsa_certificate_public_key(&p2, in, size, &pk2_len, in, size);
    FUZZ_CHECK(rc == MLDSA_OK && p2 == p && pk2_len == pk_len && memcmp(in, pk, pk_len) == 0,
               "in place: %d", rc);
  }
  free(in);
  return 0;
}
