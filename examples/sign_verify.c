/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Generate an ML-DSA-65 key pair, sign a message, verify the signature, and show that a
 * changed message does not verify.
 *   cc sign_verify.c $(pkg-config --cflags --libs mldsa) -o sign_verify */
#include <mldsa.h>
#include <stdio.h>
#include <string.h>

/* Static buffers sized by the header's compile-time constants. */
static uint8_t pk[MLDSA65_PUBLIC_KEY_BYTES];
static uint8_t sk[MLDSA65_SECRET_KEY_BYTES];
static uint8_t sig[MLDSA65_SIGNATURE_BYTES];

int main(void) {
  const char *msg = "attack at dawn";
  int rc;

  printf("libmldsa %s (header %s), arithmetic: %s\n", mldsa_version(), MLDSA_VERSION_STRING,
         mldsa_isa());

  rc = mldsa_keygen(MLDSA_65, pk, sizeof pk, sk, sizeof sk);
  if (rc != MLDSA_OK) {
    fprintf(stderr, "keygen: %s\n", mldsa_strerror(rc));
    return 1;
  }
  /* rnd NULL: hedged signing with fresh randomness; no context. */
  rc = mldsa_sign(MLDSA_65, sig, sizeof sig, (const uint8_t *)msg, strlen(msg), NULL, 0, NULL,
                  sk, sizeof sk);
  /* The secret key is not needed any more: wipe it (a memset the compiler may not drop). */
  mldsa_wipe(sk, sizeof sk);
  if (rc != MLDSA_OK) {
    fprintf(stderr, "sign: %s\n", mldsa_strerror(rc));
    return 1;
  }
  rc = mldsa_verify(MLDSA_65, sig, sizeof sig, (const uint8_t *)msg, strlen(msg), NULL, 0, pk,
                    sizeof pk);
  printf("verify(\"%s\"): %s\n", msg, mldsa_strerror(rc));
  if (rc != MLDSA_OK) return 1;

  rc = mldsa_verify(MLDSA_65, sig, sizeof sig, (const uint8_t *)"attack at dusk", 14, NULL, 0,
                    pk, sizeof pk);
  printf("verify(\"attack at dusk\"): %s\n", mldsa_strerror(rc));
  return rc == MLDSA_ERR_VERIFY ? 0 : 1;
}
