/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Outputs that overlap inputs (include/mldsa.h, "Buffers"): every key encoder and decoder
 * is run with its output placed over its input at several offsets, in one buffer, and its
 * result compared with the result into separate buffers. Run under ASan this also finds an
 * overlapping memcpy. A plain test: library and libc only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"

#define BIG 16384
static uint8_t arena[3 * BIG];
static int failures;

static void fail(const char *what, long off) {
  printf("FAIL: %s (offset %ld)\n", what, off);
  ++failures;
}

/* Offsets of the output relative to the input: in place, partly before, partly after. */
static long offsets(long in_len, long out_len, long *o) {
  long n = 0;
  const long cand[] = {0,
                       1,
                       -1,
                       7,
                       -7,
                       32,
                       -32,
                       in_len / 2,
                       -out_len / 2,
                       in_len - 1,
                       -out_len + 1,
                       in_len - 32,
                       -out_len + 32,
                       64,
                       -64};
  for (size_t i = 0; i < sizeof cand / sizeof cand[0]; ++i)
    if (cand[i] < in_len && cand[i] > -out_len) o[n++] = cand[i];
  return n;
}

static void public_decode(const uint8_t *in, size_t in_len, const char *what) {
  static uint8_t want[MLDSA_MAX_PUBLIC_KEY_BYTES];
  mldsa_param wp, p;
  size_t wlen, len;
  if (mldsa_public_key_decode(&wp, want, sizeof want, &wlen, in, in_len) != MLDSA_OK) {
    fail(what, 0);
    return;
  }
  long o[16], n = offsets((long)in_len, (long)wlen, o);
  for (long i = 0; i < n; ++i) {
    uint8_t *src = arena + BIG, *dst = src + o[i];
    memmove(src, in, in_len);
    int rc = mldsa_public_key_decode(&p, dst, wlen, &len, src, in_len);
    if (rc != MLDSA_OK || p != wp || len != wlen || memcmp(dst, want, wlen) != 0) fail(what, o[i]);
  }
}

static void private_decode(const uint8_t *in, size_t in_len, const char *what) {
  static uint8_t want[MLDSA_MAX_SECRET_KEY_BYTES], wseed[32], seed[32];
  mldsa_param wp, p;
  size_t wlen, len;
  int whas, has;
  if (mldsa_private_key_decode(&wp, want, sizeof want, &wlen, wseed, &whas, in, in_len) !=
      MLDSA_OK) {
    fail(what, 0);
    return;
  }
  long o[16], n = offsets((long)in_len, (long)wlen, o);
  for (long i = 0; i < n; ++i) {
    /* sk over the input, the seed apart */
    uint8_t *src = arena + BIG, *dst = src + o[i];
    memmove(src, in, in_len);
    int rc = mldsa_private_key_decode(&p, dst, wlen, &len, seed, &has, src, in_len);
    if (rc != MLDSA_OK || p != wp || len != wlen || has != whas || memcmp(dst, want, wlen) != 0 ||
        memcmp(seed, wseed, 32) != 0)
      fail(what, o[i]);
  }
  /* the seed over the input, sk apart */
  long so[16], sn = offsets((long)in_len, 32, so);
  for (long i = 0; i < sn; ++i) {
    uint8_t *src = arena + BIG, *sd = src + so[i], *dst = arena + 2 * BIG + 2048;
    memmove(src, in, in_len);
    int rc = mldsa_private_key_decode(&p, dst, wlen, &len, sd, &has, src, in_len);
    if (rc != MLDSA_OK || has != whas || memcmp(dst, want, wlen) != 0 || memcmp(sd, wseed, 32) != 0)
      fail(what, so[i]);
  }
}

static void public_encode(mldsa_param set, mldsa_format f, const uint8_t *pk, size_t pk_len,
                          const char *what) {
  static uint8_t want[BIG];
  size_t wlen, len;
  if (mldsa_public_key_encode(set, f, want, sizeof want, &wlen, pk, pk_len) != MLDSA_OK) {
    fail(what, 0);
    return;
  }
  long o[16], n = offsets((long)pk_len, (long)wlen, o);
  for (long i = 0; i < n; ++i) {
    uint8_t *src = arena + BIG, *dst = src + o[i];
    memmove(src, pk, pk_len);
    int rc = mldsa_public_key_encode(set, f, dst, wlen, &len, src, pk_len);
    if (rc != MLDSA_OK || len != wlen || memcmp(dst, want, wlen) != 0) fail(what, o[i]);
  }
}

/* The output over the seed, then over sk (the form decides which are given). */
static void private_encode(mldsa_param set, mldsa_format f, mldsa_sk_form form,
                           const uint8_t seed[32], const uint8_t *sk, size_t sk_len,
                           const char *what) {
  static uint8_t want[BIG];
  size_t wlen, len;
  const uint8_t *s = form == MLDSA_SK_EXPANDED ? NULL : seed;
  const uint8_t *k = form == MLDSA_SK_SEED ? NULL : sk;
  size_t klen = k ? sk_len : 0;
  if (mldsa_private_key_encode(set, f, form, want, sizeof want, &wlen, s, k, klen) != MLDSA_OK) {
    fail(what, 0);
    return;
  }
  for (int which = 0; which < 2; ++which) {
    const uint8_t *input = which ? k : s;
    size_t in_len = which ? klen : 32;
    if (input == NULL) continue;
    long o[16], n = offsets((long)in_len, (long)wlen, o);
    for (long i = 0; i < n; ++i) {
      uint8_t *src = arena + BIG, *dst = src + o[i];
      memmove(src, input, in_len);
      int rc = mldsa_private_key_encode(set, f, form, dst, wlen, &len, which ? s : src,
                                        which ? src : k, klen);
      if (rc != MLDSA_OK || len != wlen || memcmp(dst, want, wlen) != 0) fail(what, o[i]);
    }
  }
}

int main(void) {
  static const mldsa_param sets[] = {MLDSA_44, MLDSA_65, MLDSA_87};
  static const mldsa_sk_form forms[] = {MLDSA_SK_SEED, MLDSA_SK_EXPANDED, MLDSA_SK_BOTH};
  static uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES], sk[MLDSA_MAX_SECRET_KEY_BYTES], enc[BIG];
  char what[96];
  for (size_t s = 0; s < 3; ++s) {
    mldsa_param set = sets[s];
    uint8_t seed[32];
    for (int i = 0; i < 32; ++i) seed[i] = (uint8_t)(0xA0 + i + s);
    size_t pk_len = mldsa_public_key_bytes(set), sk_len = mldsa_secret_key_bytes(set), n;
    if (mldsa_keygen_from_seed(set, pk, pk_len, sk, sk_len, seed) != MLDSA_OK) {
      printf("SKIP set %d (not in this build)\n", (int)set);
      continue;
    }
    for (int f = 0; f < 2; ++f) {
      const char *fname = f ? "PEM" : "DER";
      snprintf(what, sizeof what, "ML-DSA-%d public_key_encode %s", (int)set, fname);
      public_encode(set, (mldsa_format)f, pk, pk_len, what);
      if (mldsa_public_key_encode(set, (mldsa_format)f, enc, sizeof enc, &n, pk, pk_len) == 0) {
        snprintf(what, sizeof what, "ML-DSA-%d public_key_decode %s", (int)set, fname);
        public_decode(enc, n, what);
      }
      for (size_t k = 0; k < 3; ++k) {
        snprintf(what, sizeof what, "ML-DSA-%d private_key_encode %s form %d", (int)set, fname,
                 (int)forms[k]);
        private_encode(set, (mldsa_format)f, forms[k], seed, sk, sk_len, what);
        const uint8_t *sd = forms[k] == MLDSA_SK_EXPANDED ? NULL : seed;
        const uint8_t *kk = forms[k] == MLDSA_SK_SEED ? NULL : sk;
        if (mldsa_private_key_encode(set, (mldsa_format)f, forms[k], enc, sizeof enc, &n, sd, kk,
                                     kk ? sk_len : 0) == MLDSA_OK) {
          snprintf(what, sizeof what, "ML-DSA-%d private_key_decode %s form %d", (int)set, fname,
                   (int)forms[k]);
          private_decode(enc, n, what);
        }
      }
    }
  }
  if (failures) {
    printf("test_overlap: %d failures\n", failures);
    return 1;
  }
  printf("test_overlap: every encoder and decoder gives the same result in place\n");
  return 0;
}
