/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Contexts separate the uses of one key: a signature made under the context
 * "firmware-v1" verifies under that context only. Keys come from a fixed seed, so the
 * run is reproducible; signing is deterministic (rnd of 32 zero bytes).
 *   cc verify_context.c $(pkg-config --cflags --libs mldsa) -o verify_context */
#include <mldsa.h>
#include <stdio.h>
#include <string.h>

static uint8_t pk[MLDSA44_PUBLIC_KEY_BYTES];
static uint8_t sk[MLDSA44_SECRET_KEY_BYTES];
static uint8_t sig[MLDSA44_SIGNATURE_BYTES];

static int verify_under(const char *ctx, const uint8_t *msg, size_t msg_len) {
  int rc = mldsa_verify(MLDSA_44, sig, sizeof sig, msg, msg_len, (const uint8_t *)ctx,
                        strlen(ctx), pk, sizeof pk);
  printf("  context \"%s\": %s\n", ctx, mldsa_strerror(rc));
  return rc;
}

int main(void) {
  static const uint8_t seed[MLDSA_SEED_BYTES] = {1, 2, 3, 4, 5, 6, 7, 8};
  static const uint8_t zero_rnd[MLDSA_RND_BYTES] = {0};
  const uint8_t image[] = "firmware image bytes";
  const char *ctx = "firmware-v1";
  int rc;

  rc = mldsa_keygen_from_seed(MLDSA_44, pk, sizeof pk, sk, sizeof sk, seed);
  if (rc == MLDSA_OK)
    rc = mldsa_sign(MLDSA_44, sig, sizeof sig, image, sizeof image, (const uint8_t *)ctx,
                    strlen(ctx), zero_rnd, sk, sizeof sk);
  if (rc != MLDSA_OK) {
    fprintf(stderr, "%s\n", mldsa_strerror(rc));
    return 1;
  }
  printf("signed %zu bytes under context \"%s\" (deterministic; first bytes %02x%02x%02x%02x)\n",
         sizeof image, ctx, sig[0], sig[1], sig[2], sig[3]);
  if (verify_under("firmware-v1", image, sizeof image) != MLDSA_OK) return 1;
  if (verify_under("firmware-v2", image, sizeof image) != MLDSA_ERR_VERIFY) return 1;
  if (verify_under("", image, sizeof image) != MLDSA_ERR_VERIFY) return 1;
  return 0;
}
