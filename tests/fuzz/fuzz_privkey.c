/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fuzz target: the private-key decoder (mldsa_private_key_decode) on arbitrary files.
 *
 * Input: fuzz_keyfile.h (a raw file, or one of 18 valid PKCS#8 keys: 3 sets x seed,
 * expanded, both x DER, PEM, mutated).
 * Properties: no crash or sanitizer report (never a read past the input: the file is
 * copied into a buffer of exactly its length); the result is MLDSA_OK, MLDSA_ERR_ENCODING
 * or MLDSA_ERR_KEY; on an error every output is zero; an accepted key is consistent: its
 * length is the set's, re-encoding it (seed form when it had a seed, else expanded) and
 * decoding that gives the same key and seed, and a deterministic signature made with it
 * verifies under its recomputed public key. */
#include <stdlib.h>
#include "fuzz_keyfile.h"

static fuzz_file templates[18];

static void make_templates(void) {
  static int done;
  if (done) return;
  for (int s = 0; s < 3; ++s) {
    uint8_t seed[32], pk[FUZZ_PK_MAX], sk[FUZZ_SK_MAX];
    for (int i = 0; i < 32; ++i) seed[i] = (uint8_t)(s * 32 + i);
    mldsa_param p = fuzz_params[s];
    size_t sk_len = mldsa_secret_key_bytes(p);
    if (mldsa_keygen_from_seed(p, pk, mldsa_public_key_bytes(p), sk, sk_len, seed) != MLDSA_OK) abort();
    for (int form = 1; form <= 3; ++form)
      for (int f = 0; f < 2; ++f) {
        fuzz_file *t = &templates[s * 6 + (form - 1) * 2 + f];
        int rc = mldsa_private_key_encode(p, (mldsa_format)f, (mldsa_sk_form)form, t->bytes,
                                          sizeof t->bytes, &t->len, seed, sk, sk_len);
        FUZZ_CHECK(rc == MLDSA_OK, "template %d/%d/%d: %d", s, form, f, rc);
      }
  }
  done = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static fuzz_file f;
  static uint8_t sk[FUZZ_SK_MAX], sk2[FUZZ_SK_MAX], pk[FUZZ_PK_MAX], sig[FUZZ_SIG_MAX];
  static uint8_t seed[32], seed2[32], enc[FUZZ_FILE_MAX];
  static const uint8_t msg[] = "libmldsa fuzz_privkey", zero_rnd[32];
  make_templates();
  fuzz_keyfile_input(data, size, templates, 18, &f);
  uint8_t *in = malloc(f.len ? f.len : 1); /* exactly the input: ASan sees any over-read */
  FUZZ_CHECK(in != NULL, "out of memory");
  memcpy(in, f.bytes, f.len);
  memset(sk, 0xAA, sizeof sk);
  memset(seed, 0xAA, sizeof seed);
  mldsa_param p = (mldsa_param)99;
  size_t sk_len = 99;
  int has_seed = 99;
  int rc = mldsa_private_key_decode(&p, sk, sizeof sk, &sk_len, seed, &has_seed, in, f.len);
  free(in);
  FUZZ_CHECK(rc == MLDSA_OK || rc == MLDSA_ERR_ENCODING || rc == MLDSA_ERR_KEY,
             "private_key_decode returned %d", rc);
  if (rc != MLDSA_OK) {
    FUZZ_CHECK(fuzz_all_zero(sk, sizeof sk) && fuzz_all_zero(seed, sizeof seed) && sk_len == 0 &&
                   has_seed == 0 && p == 0,
               "outputs not zeroed after %d", rc);
    return 0;
  }
  FUZZ_CHECK(sk_len == mldsa_secret_key_bytes(p), "sk_len %zu for ML-DSA-%d", sk_len, p);
  FUZZ_CHECK(has_seed == 0 || has_seed == 1, "has_seed %d", has_seed);
  /* re-encode and decode again */
  size_t enc_len;
  mldsa_sk_form form = has_seed ? MLDSA_SK_SEED : MLDSA_SK_EXPANDED;
  rc = mldsa_private_key_encode(p, MLDSA_DER, form, enc, sizeof enc, &enc_len,
                                has_seed ? seed : NULL, sk, sk_len);
  FUZZ_CHECK(rc == MLDSA_OK, "re-encoding an accepted key: %d", rc);
  mldsa_param p2;
  size_t sk2_len;
  int has2;
  rc = mldsa_private_key_decode(&p2, sk2, sizeof sk2, &sk2_len, seed2, &has2, enc, enc_len);
  FUZZ_CHECK(rc == MLDSA_OK && p2 == p && sk2_len == sk_len && has2 == has_seed &&
                 memcmp(sk, sk2, sk_len) == 0 && (!has_seed || memcmp(seed, seed2, 32) == 0),
             "re-encoded key decodes differently (%d)", rc);
  /* it signs, and the signature verifies */
  size_t pk_len = mldsa_public_key_bytes(p), sig_len = mldsa_signature_bytes(p);
  FUZZ_CHECK(mldsa_public_key_from_secret(p, pk, pk_len, sk, sk_len) == MLDSA_OK,
             "an accepted key fails the import check");
  rc = mldsa_sign(p, sig, sig_len, msg, sizeof msg, NULL, 0, zero_rnd, sk, sk_len);
  FUZZ_CHECK(rc == MLDSA_OK, "an accepted key does not sign: %d", rc);
  rc = mldsa_verify(p, sig, sig_len, msg, sizeof msg, NULL, 0, pk, pk_len);
  FUZZ_CHECK(rc == MLDSA_OK, "a signature by an accepted key does not verify: %d", rc);
  return 0;
}
