/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Keys in the files the rest of the world uses (RFC 9881, as OpenSSL 3.5 writes them):
 * make a key pair from a fresh seed, write the private key as PEM in the seed form and
 * the public key as PEM, read both back (the parameter set comes from the file), and sign
 * and verify with what was read. The seed is the secret: wipe it when done.
 *   cc keys_roundtrip.c $(pkg-config --cflags --libs mldsa) -o keys_roundtrip */
#include <mldsa.h>
#include <stdio.h>
#include <string.h>

static uint8_t seed[MLDSA_SEED_BYTES], seed2[MLDSA_SEED_BYTES];
static uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES], sk[MLDSA_MAX_SECRET_KEY_BYTES];
static uint8_t pk2[MLDSA_MAX_PUBLIC_KEY_BYTES], sk2[MLDSA_MAX_SECRET_KEY_BYTES];
static uint8_t sig[MLDSA_MAX_SIGNATURE_BYTES];
static uint8_t priv_pem[16384], pub_pem[8192];

static int fail(const char *what, int rc) {
  fprintf(stderr, "%s: %s\n", what, mldsa_strerror(rc));
  return 1;
}

/* What was read back is not what was written: a failure that no library call reported. */
static int mismatch(const char *what) {
  fprintf(stderr, "round trip: the %s read back differs from the one written\n", what);
  return 1;
}

/* The first line of a PEM text, for display. */
static void show_first_line(const char *name, const uint8_t *pem, size_t len) {
  size_t n = 0;
  while (n < len && pem[n] != '\n') ++n;
  printf("%s: %zu bytes, %.*s ...\n", name, len, (int)n, (const char *)pem);
}

/* 0 when everything read back equals what was written and the signature verifies. */
static int roundtrip(void) {
  const mldsa_param set = MLDSA_87;
  size_t pk_len = mldsa_public_key_bytes(set), sk_len = mldsa_secret_key_bytes(set);
  size_t priv_len, pub_len, n;
  mldsa_param read_set;
  int rc, has_seed;
  static const uint8_t msg[] = "signed with keys read back from PEM";

  if ((rc = mldsa_generate_seed(seed)) != MLDSA_OK) return fail("generate_seed", rc);
  if ((rc = mldsa_keygen_from_seed(set, pk, pk_len, sk, sk_len, seed)) != MLDSA_OK)
    return fail("keygen_from_seed", rc);

  /* Write: the private key in the seed form (RFC 9881's recommendation), the public key
     as SubjectPublicKeyInfo. */
  rc = mldsa_private_key_encode(set, MLDSA_PEM, MLDSA_SK_SEED, priv_pem, sizeof priv_pem,
                                &priv_len, seed, NULL, 0);
  if (rc != MLDSA_OK) return fail("private_key_encode", rc);
  rc = mldsa_public_key_encode(set, MLDSA_PEM, pub_pem, sizeof pub_pem, &pub_len, pk, pk_len);
  if (rc != MLDSA_OK) return fail("public_key_encode", rc);
  show_first_line("private key", priv_pem, priv_len);
  show_first_line("public key ", pub_pem, pub_len);

  /* Read back: the set is the one the OID names; the private key comes back expanded,
     with its seed. Each must equal what was written. */
  rc = mldsa_private_key_decode(&read_set, sk2, sizeof sk2, &n, seed2, &has_seed, priv_pem,
                                priv_len);
  if (rc != MLDSA_OK) return fail("private_key_decode", rc);
  printf("read a private key of ML-DSA-%d (%zu bytes expanded, seed %s)\n", (int)read_set, n,
         has_seed ? "included" : "absent");
  if (read_set != set) return mismatch("parameter set of the private key");
  if (n != sk_len || memcmp(sk, sk2, n) != 0) return mismatch("expanded private key");
  if (!has_seed || memcmp(seed, seed2, sizeof seed) != 0) return mismatch("seed");
  rc = mldsa_public_key_decode(&read_set, pk2, sizeof pk2, &n, pub_pem, pub_len);
  if (rc != MLDSA_OK) return fail("public_key_decode", rc);
  if (read_set != set) return mismatch("parameter set of the public key");
  if (n != pk_len || memcmp(pk, pk2, n) != 0) return mismatch("public key");

  rc = mldsa_sign(read_set, sig, mldsa_signature_bytes(read_set), msg, sizeof msg, NULL, 0,
                  NULL, sk2, sk_len);
  if (rc != MLDSA_OK) return fail("sign", rc);
  rc = mldsa_verify(read_set, sig, mldsa_signature_bytes(read_set), msg, sizeof msg, NULL, 0,
                    pk2, pk_len);
  printf("sign with the decoded private key, verify with the decoded public key: %s\n",
         mldsa_strerror(rc));
  return rc == MLDSA_OK ? 0 : 1;
}

int main(void) {
  int status = roundtrip();
  /* Secrets, on every path: the seeds, both expanded keys and the private key file.
     mldsa_wipe, unlike memset, is never removed by the compiler as a dead store. */
  mldsa_wipe(seed, sizeof seed);
  mldsa_wipe(seed2, sizeof seed2);
  mldsa_wipe(sk, sizeof sk);
  mldsa_wipe(sk2, sizeof sk2);
  mldsa_wipe(priv_pem, sizeof priv_pem);
  return status;
}
