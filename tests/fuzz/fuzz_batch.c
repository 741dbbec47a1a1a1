/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fuzz target: the batch calls against the one-at-a-time calls.
 *
 * Input: sel (parameter set sel % 3; sel / 3 % 3: mldsa_verify_batch,
 * mldsa_verify_prepared_batch or mldsa_sign_batch), count (n = count % 12), a 32-byte
 * key seed, then per item: flags, msg_len, ctx_len (bytes), pos (2 bytes), xor (1 byte),
 * and msg_len + ctx_len bytes. Flags: 1 the signature is a fresh one of the item's message
 * under the key, with the byte at pos % sig_len XORed with xor (else the signature is
 * whatever bytes follow, zero-padded); 2 a context of 256 bytes; 4 sig_len one short;
 * 8 msg NULL (with its length); 16 (verify) the item's public key is another key's;
 * 32 (sign) hedged (rnd NULL), else rnd is the item's first 32 bytes of message.
 * Properties: item by item, results[i] is the one-at-a-time call's code whatever the other
 * items hold (a NULL pointer or a wrong length included), the return value is the first
 * failing item's code in item order (MLDSA_OK when every item succeeded), given-rnd
 * signatures equal mldsa_sign_prepared's byte for byte and hedged ones verify; a failed
 * item's signature is zero, or untouched where the one-at-a-time call leaves it so (a
 * NULL pointer or a wrong length). */
#include "fuzz_common.h"

#define MAX_ITEMS 11
#define SENTINEL 0x5EED

static mldsa_prepared_public_key pp;
static mldsa_prepared_secret_key ps;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static uint8_t pk[FUZZ_PK_MAX], pk2[FUZZ_PK_MAX], sk[FUZZ_SK_MAX], sk2[FUZZ_SK_MAX];
  static uint8_t sigs[MAX_ITEMS][FUZZ_SIG_MAX + 1], want[FUZZ_SIG_MAX];
  static uint8_t msgs[MAX_ITEMS][256], ctxs[MAX_ITEMS][256];
  mldsa_verify_item vi[MAX_ITEMS];
  mldsa_sign_item si[MAX_ITEMS];
  int results[MAX_ITEMS + 1], codes[MAX_ITEMS];
  uint8_t seed[32], zero_rnd[32] = {0};
  fuzz_input in = {data, size, 0};
  uint8_t sel = fuzz_byte(&in), count = fuzz_byte(&in);
  mldsa_param p = fuzz_params[sel % 3];
  int mode = (sel / 3) % 3;
  size_t n = count % 12, pk_len = mldsa_public_key_bytes(p), sk_len = mldsa_secret_key_bytes(p),
         sig_len = mldsa_signature_bytes(p);
  fuzz_bytes(&in, seed, sizeof seed);
  FUZZ_CHECK(mldsa_keygen_from_seed(p, pk, pk_len, sk, sk_len, seed) == MLDSA_OK, "keygen");
  seed[0] ^= 1;
  FUZZ_CHECK(mldsa_keygen_from_seed(p, pk2, pk_len, sk2, sk_len, seed) == MLDSA_OK, "keygen");
  FUZZ_CHECK(mldsa_public_key_prepare(&pp, p, pk, pk_len) == MLDSA_OK, "prepare");
  FUZZ_CHECK(mldsa_secret_key_prepare(&ps, p, sk, sk_len) == MLDSA_OK, "prepare");

  for (size_t i = 0; i < n; ++i) {
    uint8_t flags = fuzz_byte(&in), msg_len = fuzz_byte(&in), ctx_len = fuzz_byte(&in);
    uint8_t pos[2], x = 0;
    fuzz_bytes(&in, pos, 2);
    x = fuzz_byte(&in);
    fuzz_bytes(&in, msgs[i], msg_len);
    fuzz_bytes(&in, ctxs[i], ctx_len);
    size_t cl = flags & 2 ? 256 : ctx_len, sl = flags & 4 ? sig_len - 1 : sig_len;
    const uint8_t *msg = flags & 8 ? NULL : msgs[i];
    memset(sigs[i], 0xAA, sizeof sigs[i]);
    if (mode != 2) {
      if (flags & 1) {
        FUZZ_CHECK(mldsa_sign(p, sigs[i], sig_len, msgs[i], msg_len, ctxs[i], ctx_len, zero_rnd,
                              sk, sk_len) == MLDSA_OK,
                   "sign");
        sigs[i][(pos[0] | pos[1] << 8) % sig_len] ^= x;
      } else {
        fuzz_bytes(&in, sigs[i], sig_len);
      }
      const uint8_t *key = flags & 16 ? pk2 : pk;
      vi[i] = (mldsa_verify_item){mode == 1 ? NULL : key, mode == 1 ? 0 : pk_len, msg, msg_len,
                                  ctxs[i], cl, sigs[i], sl};
      codes[i] = mode == 1 ? mldsa_verify_prepared(&pp, sigs[i], sl, msg, msg_len, ctxs[i], cl)
                           : mldsa_verify(p, sigs[i], sl, msg, msg_len, ctxs[i], cl, key, pk_len);
    } else {
      si[i] = (mldsa_sign_item){msg, msg_len, ctxs[i], cl, flags & 32 ? NULL : msgs[i], sigs[i],
                                sl};
      /* the code the one-at-a-time call gives (its signature is compared below) */
      codes[i] = mldsa_sign_prepared(&ps, want, sl, msg, msg_len, ctxs[i], cl, si[i].rnd);
    }
  }
  for (size_t i = 0; i <= n; ++i) results[i] = SENTINEL;
  int rc = mode == 0   ? mldsa_verify_batch(p, vi, n, results)
           : mode == 1 ? mldsa_verify_prepared_batch(&pp, vi, n, results)
                       : mldsa_sign_batch(&ps, si, n, results);
  FUZZ_CHECK(results[n] == SENTINEL, "a result written past n");
  int expect = MLDSA_OK;
  for (size_t i = 0; i < n; ++i) {
    if (mode == 2 && codes[i] == MLDSA_OK) {
      /* the one-at-a-time result: for given rnd its exact signature, for hedged any valid */
      FUZZ_CHECK(results[i] == MLDSA_OK, "item %zu: batch %d, one at a time OK", i, results[i]);
      if (si[i].rnd != NULL) {
        FUZZ_CHECK(mldsa_sign_prepared(&ps, want, sig_len, si[i].msg, si[i].msg_len, si[i].ctx,
                                       si[i].ctx_len, si[i].rnd) == MLDSA_OK,
                   "sign_prepared");
        FUZZ_CHECK(memcmp(want, sigs[i], sig_len) == 0, "item %zu: signatures differ", i);
      }
      FUZZ_CHECK(mldsa_verify(p, sigs[i], sig_len, si[i].msg, si[i].msg_len, si[i].ctx,
                              si[i].ctx_len, pk, pk_len) == MLDSA_OK,
                 "item %zu: batch signature does not verify", i);
      FUZZ_CHECK(sigs[i][sig_len] == 0xAA, "item %zu: written past sig_len", i);
      continue;
    }
    FUZZ_CHECK(results[i] == codes[i], "item %zu: batch %d, one at a time %d", i, results[i],
               codes[i]);
    if (mode == 2 && (codes[i] == MLDSA_ERR_NULL || codes[i] == MLDSA_ERR_LENGTH)) {
      uint8_t acc = 0xAA; /* sig untouched, as the call alone leaves it */
      for (size_t k = 0; k < sig_len + 1; ++k) acc &= sigs[i][k] == 0xAA ? 0xAA : 0;
      FUZZ_CHECK(acc == 0xAA, "item %zu: signature written on %d", i, codes[i]);
    } else if (mode == 2) {
      FUZZ_CHECK(fuzz_all_zero(sigs[i], sig_len), "item %zu: failed, not zeroed", i);
    }
    if (codes[i] != MLDSA_OK && expect == MLDSA_OK) expect = codes[i];
  }
  FUZZ_CHECK(rc == expect, "batch returned %d, expected %d", rc, expect);
  return 0;
}
