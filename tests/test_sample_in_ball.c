/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SampleInBall (src/sampling.c, one per parameter set: the constant-time shuffle of
 * signing and the plain one of verification) against a direct model of FIPS 204
 * Alg. 29: c = 0, then for i = 256 - tau .. 255 a byte j <= i of the stream H(c~),
 * c[i] = c[j], c[j] = (-1)^(bit i + tau - 256 of the first 8 bytes), on an int array.
 * 20,000 random c~ per set, and every c~ must give tau coefficients +-1 and the rest 0.
 * The case j = i (c[i] becomes the new +-1 itself) is counted and must occur: it does
 * about once in every five c~. Replay with MLDSA_TEST_SEED=<printed seed>. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fips202.h"
#include "test_common.h"

/* The library's polynomial type: 256 coefficients, 64-byte aligned. */
typedef struct {
  _Alignas(64) int32_t c[256];
} test_poly;

/* The three instances (one per set; MLDSA_NS names them). */
void mldsa44_sample_in_ball(test_poly *c, const uint8_t *ctilde, mldsa_permutation perm);
void mldsa65_sample_in_ball(test_poly *c, const uint8_t *ctilde, mldsa_permutation perm);
void mldsa87_sample_in_ball(test_poly *c, const uint8_t *ctilde, mldsa_permutation perm);
void mldsa44_sample_in_ball_public(test_poly *c, const uint8_t *ctilde, mldsa_permutation perm);
void mldsa65_sample_in_ball_public(test_poly *c, const uint8_t *ctilde, mldsa_permutation perm);
void mldsa87_sample_in_ball_public(test_poly *c, const uint8_t *ctilde, mldsa_permutation perm);

static const struct {
  int set;
  unsigned tau, ctilde_bytes;
  void (*fn[2])(test_poly *, const uint8_t *, mldsa_permutation); /* secret c~, public */
} sets[3] = {{44, 39, 32, {mldsa44_sample_in_ball, mldsa44_sample_in_ball_public}},
             {65, 49, 48, {mldsa65_sample_in_ball, mldsa65_sample_in_ball_public}},
             {87, 60, 64, {mldsa87_sample_in_ball, mldsa87_sample_in_ball_public}}};
static const char *const variant[2] = {"constant-time", "public"};

/* FIPS 204 Alg. 29 as written; returns how many steps had j = i. */
static unsigned model(int32_t c[256], const uint8_t *ctilde, unsigned ctilde_bytes,
                      unsigned tau) {
  uint8_t stream[8 + 16 * 136]; /* more than any c~ needs (asserted below) */
  mldsa_shake256(stream, sizeof stream, ctilde, ctilde_bytes);
  memset(c, 0, 256 * sizeof c[0]);
  size_t pos = 8;
  unsigned same = 0;
  for (unsigned i = 256 - tau; i < 256; ++i) {
    unsigned j;
    do {
      if (pos >= sizeof stream) ck_abort_msg("the model ran past its %zu-byte stream", sizeof stream);
      j = stream[pos++];
    } while (j > i);
    unsigned h = i + tau - 256;
    same += j == i;
    c[i] = c[j];
    c[j] = (stream[h / 8] >> (h % 8)) & 1 ? -1 : 1;
  }
  return same;
}

START_TEST(test_against_model) {
  const unsigned tau = sets[_i].tau, cb = sets[_i].ctilde_bytes;
  unsigned cases = 0, same = 0;
  for (unsigned r = 0; r < 20000; ++r) {
    uint8_t ctilde[64];
    int32_t want[256];
    mldsa_test_randbytes(ctilde, cb);
    if (r == 0) memset(ctilde, 0, cb);
    if (r == 1) memset(ctilde, 0xff, cb);
    same += model(want, ctilde, cb, tau);
    for (unsigned v = 0; v < 2; ++v) {
      test_poly got;
      memset(&got, 0x5a, sizeof got);
      sets[_i].fn[v](&got, ctilde, mldsa_keccak_f1600);
      /* One comparison of the whole polynomial per c~ (a Check assertion per coefficient
         is millions of mark points, each a write to the parent process); the first
         differing index is reported only on failure. */
      if (memcmp(got.c, want, sizeof want) != 0) {
        unsigned k = 0;
        while (got.c[k] == want[k]) ++k;
        ck_abort_msg("ML-DSA-%d, %s, c~ #%u: c[%u] = %d, expected %d", sets[_i].set,
                     variant[v], r, k, got.c[k], want[k]);
      }
      unsigned weight = 0, out_of_range = 0;
      for (unsigned k = 0; k < 256; ++k) {
        out_of_range += got.c[k] < -1 || got.c[k] > 1;
        weight += got.c[k] != 0;
      }
      ck_assert_msg(out_of_range == 0 && weight == tau,
                    "ML-DSA-%d, %s, c~ #%u: %u coefficients outside [-1, 1], weight %u (tau %u)",
                    sets[_i].set, variant[v], r, out_of_range, weight, tau);
    }
    ++cases;
  }
  ck_assert_uint_gt(same, 0);
  printf("test_sample_in_ball: ML-DSA-%d: %u c~ equal to the model, both shuffles (j = i in %u steps)\n",
         sets[_i].set, cases, same);
}
END_TEST

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  mldsa_test_seed_rng("test_sample_in_ball");
  Suite *s = suite_create("sample_in_ball");
  TCase *tc = tcase_create("model");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_against_model, 0, 3);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
