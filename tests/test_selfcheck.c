/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* A self-contained known-answer test that needs nothing but the library and libc, for
 * builds where the Check/cJSON/OpenSSL test suite cannot run (cross builds under
 * qemu-aarch64). It drives every public operation over fixed inputs — keygen from seeds,
 * deterministic and given-rnd signing over the pure, pre-hash (all twelve hashes),
 * internal and external-mu interfaces, verification and tampering — and hashes every
 * output into one SHAKE256 transcript whose digest must equal the committed one
 * (tests/selfcheck.digest, recorded from a build that passed the ACVP suite).
 *
 *   test_selfcheck [digest-file]     prints "N passed, N failed" */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fips202.h"
#include "mldsa.h"

static int passed, failed;
static mldsa_keccak transcript;

static void check(int ok, const char *what, int param, int i) {
  if (ok) ++passed;
  else {
    ++failed;
    printf("FAIL: ML-DSA-%d case %d: %s\n", param, i, what);
  }
}

static void record(const uint8_t *p, size_t n) { mldsa_shake_absorb(&transcript, p, n); }

/* Deterministic inputs: SHAKE128(tag || counter). */
static void fill(uint8_t *out, size_t len, char tag, unsigned counter) {
  uint8_t in[5] = {(uint8_t)tag, (uint8_t)counter, (uint8_t)(counter >> 8), 0x5E, 0x1F};
  mldsa_shake128(out, len, in, sizeof in);
}

static const size_t digest_lens[12] = {28, 32, 48, 64, 28, 32, 28, 32, 48, 64, 32, 64};

static void one_case(mldsa_param p, unsigned i) {
  size_t pk_len = mldsa_public_key_bytes(p), sk_len = mldsa_secret_key_bytes(p),
         sig_len = mldsa_signature_bytes(p);
  uint8_t pk[2592], pk2[2592], sk[4896], sig[4627], seed[32], rnd[32], zero[32] = {0};
  uint8_t msg[300], ctx[255], digest[64], mu[64], mprime[64];
  size_t msg_len = (i * 37) % sizeof msg, ctx_len = (i * 101) % 256;
  int P = (int)p;

  fill(seed, 32, 's', i);
  fill(rnd, 32, 'r', i);
  fill(msg, msg_len, 'm', i);
  fill(ctx, ctx_len, 'c', i);
  check(mldsa_keygen_from_seed(p, pk, pk_len, sk, sk_len, seed) == MLDSA_OK, "keygen", P, i);
  record(pk, pk_len);
  record(sk, sk_len);
  check(mldsa_public_key_from_secret(p, pk2, pk_len, sk, sk_len) == MLDSA_OK &&
            memcmp(pk, pk2, pk_len) == 0, "public_key_from_secret", P, i);

  /* pure: deterministic, then given rnd */
  for (int r = 0; r < 2; ++r) {
    const uint8_t *use = r ? rnd : zero;
    check(mldsa_sign(p, sig, sig_len, msg, msg_len, ctx, ctx_len, use, sk, sk_len) == MLDSA_OK,
          "sign", P, i);
    record(sig, sig_len);
    check(mldsa_verify(p, sig, sig_len, msg, msg_len, ctx, ctx_len, pk, pk_len) == MLDSA_OK,
          "verify", P, i);
    sig[(i * 13) % sig_len] ^= (uint8_t)(1u << (i % 8));
    check(mldsa_verify(p, sig, sig_len, msg, msg_len, ctx, ctx_len, pk, pk_len) ==
              MLDSA_ERR_VERIFY, "tampered signature rejected", P, i);
  }

  /* pre-hash with hash i mod 12 */
  mldsa_hash h = (mldsa_hash)(i % 12);
  fill(digest, digest_lens[h], 'd', i);
  check(mldsa_sign_prehash(p, sig, sig_len, digest, digest_lens[h], h, ctx, ctx_len, rnd, sk,
                           sk_len) == MLDSA_OK, "sign_prehash", P, i);
  record(sig, sig_len);
  check(mldsa_verify_prehash(p, sig, sig_len, digest, digest_lens[h], h, ctx, ctx_len, pk,
                             pk_len) == MLDSA_OK, "verify_prehash", P, i);

  /* internal on M' as given */
  fill(mprime, sizeof mprime, 'M', i);
  check(mldsa_sign_internal(p, sig, sig_len, mprime, i % 64, rnd, sk, sk_len) == MLDSA_OK,
        "sign_internal", P, i);
  record(sig, sig_len);
  check(mldsa_verify_internal(p, sig, sig_len, mprime, i % 64, pk, pk_len) == MLDSA_OK,
        "verify_internal", P, i);

  /* external mu */
  check(mldsa_compute_mu(p, mu, pk, pk_len, msg, msg_len, ctx, ctx_len) == MLDSA_OK,
        "compute_mu", P, i);
  record(mu, sizeof mu);
  check(mldsa_sign_mu(p, sig, sig_len, mu, zero, sk, sk_len) == MLDSA_OK, "sign_mu", P, i);
  record(sig, sig_len);
  check(mldsa_verify(p, sig, sig_len, msg, msg_len, ctx, ctx_len, pk, pk_len) == MLDSA_OK,
        "sign_mu verifies as pure", P, i);
  check(mldsa_verify_mu(p, sig, sig_len, mu, pk, pk_len) == MLDSA_OK, "verify_mu", P, i);
}

int main(int argc, char **argv) {
  static const mldsa_param params[3] = {MLDSA_44, MLDSA_65, MLDSA_87};
  uint8_t digest[32];
  char hex[65];
  printf("test_selfcheck: isa %s\n", mldsa_isa());
  mldsa_shake256_init(&transcript);
  for (int p = 0; p < 3; ++p)
    for (unsigned i = 0; i < 12; ++i) one_case(params[p], i);
  mldsa_shake_finalize(&transcript);
  mldsa_shake_squeeze(&transcript, digest, sizeof digest);
  for (int i = 0; i < 32; ++i) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
  printf("transcript digest: %s\n", hex);
  if (argc > 1) {
    char want[80] = {0};
    FILE *f = fopen(argv[1], "r");
    int got = 0; /* the first line that is not a comment */
    while (f != NULL && !got && fgets(want, sizeof want, f) != NULL) got = want[0] != '#';
    if (!got) {
      printf("FAIL: cannot read %s\n", argv[1]);
      ++failed;
    } else {
      want[strcspn(want, "\r\n")] = 0;
      check(strcmp(want, hex) == 0, "transcript digest equals the committed known answer", 0, 0);
    }
    if (f) fclose(f);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
