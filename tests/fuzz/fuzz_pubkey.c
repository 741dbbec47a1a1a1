/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fuzz target: the public-key decoder (mldsa_public_key_decode) on arbitrary files.
 *
 * Input: fuzz_keyfile.h (a raw file, or one of 6 valid SubjectPublicKeyInfo: 3 sets x DER,
 * PEM, mutated).
 * Properties: no crash or sanitizer report (never a read past the input); the result is
 * MLDSA_OK or MLDSA_ERR_ENCODING; on an error every output is zero; an accepted key has
 * its set's length, and DER is canonical: an accepted DER input re-encodes to exactly the
 * same bytes, and an accepted PEM input to the same key. */
#include <stdlib.h>
#include "fuzz_keyfile.h"

static fuzz_file templates[6];

static void make_templates(void) {
  static int done;
  if (done) return;
  for (int s = 0; s < 3; ++s) {
    uint8_t seed[32], pk[FUZZ_PK_MAX], sk[FUZZ_SK_MAX];
    for (int i = 0; i < 32; ++i) seed[i] = (uint8_t)(s * 32 + i);
    mldsa_param p = fuzz_params[s];
    size_t pk_len = mldsa_public_key_bytes(p);
    if (mldsa_keygen_from_seed(p, pk, pk_len, sk, mldsa_secret_key_bytes(p), seed) != MLDSA_OK) abort();
    for (int f = 0; f < 2; ++f) {
      fuzz_file *t = &templates[s * 2 + f];
      int rc = mldsa_public_key_encode(p, (mldsa_format)f, t->bytes, sizeof t->bytes, &t->len, pk,
                                       pk_len);
      FUZZ_CHECK(rc == MLDSA_OK, "template %d/%d: %d", s, f, rc);
    }
  }
  done = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static fuzz_file f;
  static uint8_t pk[FUZZ_PK_MAX], pk2[FUZZ_PK_MAX], enc[FUZZ_FILE_MAX];
  make_templates();
  fuzz_keyfile_input(data, size, templates, 6, &f);
  uint8_t *in = malloc(f.len ? f.len : 1);
  FUZZ_CHECK(in != NULL, "out of memory");
  memcpy(in, f.bytes, f.len);
  memset(pk, 0xAA, sizeof pk);
  mldsa_param p = (mldsa_param)99;
  size_t pk_len = 99;
  int rc = mldsa_public_key_decode(&p, pk, sizeof pk, &pk_len, in, f.len);
  int pem = f.len > 0 && in[0] == '-';
  free(in);
  FUZZ_CHECK(rc == MLDSA_OK || rc == MLDSA_ERR_ENCODING, "public_key_decode returned %d", rc);
  if (rc != MLDSA_OK) {
    FUZZ_CHECK(fuzz_all_zero(pk, sizeof pk) && pk_len == 0 && p == 0, "outputs not zeroed after %d",
               rc);
    return 0;
  }
  FUZZ_CHECK(pk_len == mldsa_public_key_bytes(p), "pk_len %zu for ML-DSA-%d", pk_len, p);
  size_t enc_len;
  rc = mldsa_public_key_encode(p, MLDSA_DER, enc, sizeof enc, &enc_len, pk, pk_len);
  FUZZ_CHECK(rc == MLDSA_OK, "re-encoding an accepted key: %d", rc);
  if (!pem)
    FUZZ_CHECK(enc_len == f.len && memcmp(enc, f.bytes, f.len) == 0,
               "accepted DER is not the canonical encoding");
  mldsa_param p2;
  size_t pk2_len;
  rc = mldsa_public_key_decode(&p2, pk2, sizeof pk2, &pk2_len, enc, enc_len);
  FUZZ_CHECK(rc == MLDSA_OK && p2 == p && pk2_len == pk_len && memcmp(pk, pk2, pk_len) == 0,
             "re-encoded key decodes differently (%d)", rc);
  return 0;
}
