/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The interop test's view through the library alone: decodes a key file with
 * mldsa_private_key_decode or mldsa_public_key_decode and prints what it holds.
 *   keyinfo private|public FILE [EXPECTED-PK-FILE]
 * Prints "ML-DSA-<set> <kind> seed=<0|1>" and exits 0, or prints the error and exits 1.
 * With EXPECTED-PK-FILE (raw public key): for a private key, the public key recomputed from
 * the decoded secret key must equal it; for a public key, the decoded key must. */
#include <stdio.h>
#include <string.h>

#include "mldsa.h"

static size_t read_file(const char *path, uint8_t *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return 0;
  size_t n = fread(buf, 1, cap, f);
  fclose(f);
  return n;
}

int main(int argc, char **argv) {
  static uint8_t in[65536], sk[4896], pk[2592], want[2592], seed[32];
  if (argc < 3) return 2;
  size_t n = read_file(argv[2], in, sizeof in), len, pk_len = 0;
  mldsa_param p;
  int has_seed = 0, rc;
  if (strcmp(argv[1], "private") == 0) {
    rc = mldsa_private_key_decode(&p, sk, sizeof sk, &len, seed, &has_seed, in, n);
    if (rc == MLDSA_OK) {
      pk_len = mldsa_public_key_bytes(p);
      rc = mldsa_public_key_from_secret(p, pk, pk_len, sk, len);
    }
  } else {
    rc = mldsa_public_key_decode(&p, pk, sizeof pk, &pk_len, in, n);
  }
  if (rc != MLDSA_OK) {
    printf("keyinfo %s: %s (%d)\n", argv[2], mldsa_strerror(rc), rc);
    return 1;
  }
  if (argc > 3) {
    size_t w = read_file(argv[3], want, sizeof want);
    if (w != pk_len || memcmp(want, pk, w) != 0) {
      printf("keyinfo %s: public key differs from %s\n", argv[2], argv[3]);
      return 1;
    }
  }
  printf("ML-DSA-%d %s seed=%d\n", p, argv[1], has_seed);
  return 0;
}
