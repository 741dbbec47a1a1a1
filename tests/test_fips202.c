/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* FIPS 202 (src/fips202.h): Keccak-f[1600], SHA3-224/256/384/512, SHAKE128/256.
 *
 * - known answers: Keccak-f[1600] on the zero state (the Keccak team's intermediate values),
 *   the NIST examples (empty input, "abc", 200 bytes of 0xA3) and multi-block outputs;
 * - OpenSSL's EVP (libgcrypt on Windows: test_digest.h) as a second oracle on every input
 *   length 0..1000 (which covers rate - 1, rate and rate + 1 of every rate: 168, 144, 136,
 *   104, 72) and SHAKE output lengths 0..1000;
 * - the incremental SHAKE interface: absorb and squeeze in odd-sized chunks (and empty
 *   ones) equal the one-shot result;
 * - outputs are written exactly over their length (canary bytes after them stay).
 *
 * Random data comes from a seeded PRNG (MLDSA_TEST_SEED, printed). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fips202.h"
#include "test_common.h"
#include "test_digest.h"

#define MAXLEN 1000

static void hex2bin(uint8_t *out, size_t len, const char *hex) {
  long n = mldsa_test_unhex(out, len, hex);
  ck_assert_msg(n == (long)len, "bad hex constant in the test (%ld bytes, expected %zu)", n, len);
}

/* The oracle's answer (test_digest.h: OpenSSL, or libgcrypt on Windows): a fixed-length
 * digest, or outlen bytes of an XOF. */
static void evp_hash(const char *name, uint8_t *out, size_t outlen, const uint8_t *in,
                     size_t inlen) {
  const uint8_t *pieces[1] = {in};
  const size_t lens[1] = {inlen};
  ck_assert_msg(mldsa_test_digest(name, out, outlen, 1, pieces, lens), "%s %s failed",
                mldsa_test_digest_backend, name);
}

typedef void (*sha3_fn)(uint8_t *out, const uint8_t *in, size_t inlen);
typedef void (*shake_fn)(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);

static const struct {
  const char *name; /* OpenSSL's */
  sha3_fn fn;
  size_t len, rate;
} sha3s[] = {
    {"SHA3-224", mldsa_sha3_224, 28, 144},
    {"SHA3-256", mldsa_sha3_256, 32, 136},
    {"SHA3-384", mldsa_sha3_384, 48, 104},
    {"SHA3-512", mldsa_sha3_512, 64, 72},
};

static const struct {
  const char *name;
  shake_fn fn;
  void (*init)(mldsa_keccak *);
  size_t rate;
} shakes[] = {
    {"SHAKE128", mldsa_shake128, mldsa_shake128_init, MLDSA_SHAKE128_RATE},
    {"SHAKE256", mldsa_shake256, mldsa_shake256_init, MLDSA_SHAKE256_RATE},
};

static void assert_same(const uint8_t *got, const uint8_t *want, size_t len, const char *what,
                        size_t inlen, size_t outlen) {
  long d = mldsa_test_first_diff(got, want, len);
  ck_assert_msg(d < 0, "%s: input length %zu, output length %zu: differs at byte %ld", what,
                inlen, outlen, d);
}

/* ---------------------------------------------------------------- known answers */

START_TEST(test_keccak_f_zero_state) {
  /* KeccakF-1600-IntermediateValues.txt: the zero state after one and two permutations. */
  static const uint64_t once[25] = {
      0xF1258F7940E1DDE7, 0x84D5CCF933C0478A, 0xD598261EA65AA9EE, 0xBD1547306F80494D,
      0x8B284E056253D057, 0xFF97A42D7F8E6FD4, 0x90FEE5A0A44647C4, 0x8C5BDA0CD6192E76,
      0xAD30A6F71B19059C, 0x30935AB7D08FFC64, 0xEB5AA93F2317D635, 0xA9A6E6260D712103,
      0x81A57C16DBCF555F, 0x43B831CD0347C826, 0x01F22F1A11A5569F, 0x05E5635A21D9AE61,
      0x64BEFEF28CC970F2, 0x613670957BC46611, 0xB87C5A554FD00ECB, 0x8C3EE88A1CCF32C8,
      0x940C7922AE3A2614, 0x1841F924A2C509E4, 0x16F53526E70465C2, 0x75F644E97F30A13B,
      0xEAF1FF7B5CECA249};
  static const uint64_t twice[25] = {
      0x2D5C954DF96ECB3C, 0x6A332CD07057B56D, 0x093D8D1270D76B6C, 0x8A20D9B25569D094,
      0x4F9C4F99E5E7F156, 0xF957B9A2DA65FB38, 0x85773DAE1275AF0D, 0xFAF4F247C3D810F7,
      0x1F1B9EE6F79A8759, 0xE4FECC0FEE98B425, 0x68CE61B6B9CE68A1, 0xDEEA66C4BA8F974F,
      0x33C43D836EAFB1F5, 0xE00654042719DBD9, 0x7CF8A9F009831265, 0xFD5449A6BF174743,
      0x97DDAD33D8994B40, 0x48EAD5FC5D0BE774, 0xE3B8C8EE55B7B03C, 0x91A0226E649E42E9,
      0x900E3129E7BADD7B, 0x202A9EC5FAA3CCE8, 0x5B3402464E1C3DB6, 0x609F4E62A44C1059,
      0x20D06CD26A8FBF5C};
  uint64_t s[25] = {0};
  mldsa_keccak_f1600(s);
  for (int i = 0; i < 25; ++i)
    ck_assert_msg(s[i] == once[i], "Keccak-f[1600](0): lane %d is %016llx, expected %016llx", i,
                  (unsigned long long)s[i], (unsigned long long)once[i]);
  mldsa_keccak_f1600(s);
  for (int i = 0; i < 25; ++i)
    ck_assert_msg(s[i] == twice[i], "Keccak-f[1600]^2(0): lane %d is %016llx, expected %016llx",
                  i, (unsigned long long)s[i], (unsigned long long)twice[i]);
}
END_TEST

/* Inputs of the NIST examples: "", "abc", 200 bytes of 0xA3. */
static const uint8_t *kat_input(int which, size_t *len) {
  static uint8_t a3[200];
  memset(a3, 0xA3, sizeof a3);
  switch (which) {
    case 0: *len = 0; return (const uint8_t *)"";
    case 1: *len = 3; return (const uint8_t *)"abc";
    default: *len = sizeof a3; return a3;
  }
}
static const char *const kat_input_name[3] = {"\"\"", "\"abc\"", "0xA3 x 200"};

START_TEST(test_sha3_kat) {
  static const char *const want[4][3] = {
      {"6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7",
       "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf",
       "9376816aba503f72f96ce7eb65ac095deee3be4bf9bbc2a1cb7e11e0"},
      {"a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
       "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
       "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787"},
      {"0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2a"
       "c3713831264adb47fb6bd1e058d5f004",
       "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
       "98d88cea927ac7f539f1edf228376d25",
       "1881de2ca7e41ef95dc4732b8f5f002b189cc1e42b74168ed1732649ce1dbcdd"
       "76197a31fd55ee989f2d7050dd473e8f"},
      {"a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6"
       "15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26",
       "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
       "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
       "e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca8"
       "1b7c13c30adf52a3659584739a2df46be589c51ca1a4a8416df6545a1ce8ba00"},
  };
  for (int f = 0; f < 4; ++f)
    for (int k = 0; k < 3; ++k) {
      size_t inlen;
      const uint8_t *in = kat_input(k, &inlen);
      uint8_t got[64 + 8], exp[64];
      memset(got, 0xEE, sizeof got);
      hex2bin(exp, sha3s[f].len, want[f][k]);
      sha3s[f].fn(got, in, inlen);
      ck_assert_msg(memcmp(got, exp, sha3s[f].len) == 0, "%s(%s) differs from the NIST value",
                    sha3s[f].name, kat_input_name[k]);
      ck_assert_msg(mldsa_test_all(got + sha3s[f].len, 8, 0xEE),
                    "%s wrote past its %zu-byte digest", sha3s[f].name, sha3s[f].len);
    }
}
END_TEST

START_TEST(test_shake_kat) {
  /* SHAKE128: 32 bytes; SHAKE256: 64 bytes. */
  static const char *const want[2][3] = {
      {"7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26",
       "5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc8",
       "131ab8d2b594946b9c81333f9bb6e0ce75c3b93104fa3469d3917457385da037"},
      {"46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
       "d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be",
       "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739"
       "d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4",
       "cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d"
       "2d700caae7396ece96604440577da4f3aa22aeb8857f961c4cd8e06f0ae6610b"},
  };
  for (int f = 0; f < 2; ++f)
    for (int k = 0; k < 3; ++k) {
      size_t inlen, outlen = f == 0 ? 32 : 64;
      const uint8_t *in = kat_input(k, &inlen);
      uint8_t got[64], exp[64];
      hex2bin(exp, outlen, want[f][k]);
      shakes[f].fn(got, outlen, in, inlen);
      ck_assert_msg(memcmp(got, exp, outlen) == 0, "%s(%s, %zu) differs from the NIST value",
                    shakes[f].name, kat_input_name[k], outlen);
    }
}
END_TEST

START_TEST(test_shake_multiblock_kat) {
  /* 400 bytes: more than two blocks of either rate, ending inside a block. */
  static const char shake128_empty[] =
      "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef263cb1eea988004b93103cfb0a"
      "eefd2a686e01fa4a58e8a3639ca8a1e3f9ae57e235b8cc873c23dc62b8d260169afa2f75ab916a58d9749188"
      "35d25e6a435085b2badfd6dfaac359a5efbb7bcc4b59d538df9a04302e10c8bc1cbf1a0b3a5120ea17cda7cf"
      "ad765f5623474d368ccca8af0007cd9f5e4c849f167a580b14aabdefaee7eef47cb0fca9767be1fda69419df"
      "b927e9df07348b196691abaeb580b32def58538b8d23f87732ea63b02b4fa0f4873360e2841928cd60dd4cee"
      "8cc0d4c922a96188d032675c8ac850933c7aff1533b94c834adbb69c6115bad4692d8619f90b0cdf8a7b9c26"
      "4029ac185b70b83f2801f2f4b3f70c593ea3aeeb613a7f1b1de33fd75081f592305f2e4526edc09631b10958"
      "f464d889f31ba010250fda7f1368ec2967fc84ef2ae9aff268e0b1700affc6820b523a3d917135f2dff2ee06"
      "bfe72b3124721d4a26c04e53a75e30e73a7a9c4a95d91c55d495e9f51dd0b5e9d83c6d5e8ce803aa62b8d654"
      "db53d09b";
  static const char shake256_a3[] =
      "cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d2d700caae7396ece96604440"
      "577da4f3aa22aeb8857f961c4cd8e06f0ae6610b1048a7f64e1074cd629e85ad7566048efc4fb500b486a330"
      "9a8f26724c0ed628001a1099422468de726f1061d99eb9e93604d5aa7467d4b1bd6484582a384317d7f47d75"
      "0b8f5499512bb85a226c4243556e696f6bd072c5aa2d9b69730244b56853d16970ad817e213e470618178001"
      "c9fb56c54fefa5fee67d2da524bb3b0b61ef0e9114a92cdbb6cccb98615cfe76e3510dd88d1cc28ff9928751"
      "2f24bfafa1a76877b6f37198e3a641c68a7c42d45fa7acc10dae5f3cefb7b735f12d4e589f7a456e78c0f5e4"
      "c4471fffa5e4fa0514ae974d8c2648513b5db494cea847156d277ad0e141c24c7839064cd08851bc2e7ca109"
      "fd4e251c35bb0a04fb05b364ff8c4d8b59bc303e25328c09a882e952518e1a8ae0ff265d61c465896973d749"
      "0499dc639fb8502b39456791b1b6ec5bcc5d9ac36a6df622a070d43fed781f5f149f7b62675e7d1a4d6dec48"
      "c1c71645";
  uint8_t got[400], exp[400];
  size_t inlen;
  const uint8_t *in;

  hex2bin(exp, 400, shake128_empty);
  in = kat_input(0, &inlen);
  mldsa_shake128(got, 400, in, inlen);
  assert_same(got, exp, 400, "SHAKE128(\"\") 400 bytes", inlen, 400);

  hex2bin(exp, 400, shake256_a3);
  in = kat_input(2, &inlen);
  mldsa_shake256(got, 400, in, inlen);
  assert_same(got, exp, 400, "SHAKE256(0xA3 x 200) 400 bytes", inlen, 400);
}
END_TEST

/* ---------------------------------------------------------------- OpenSSL as oracle */

static uint8_t input[MAXLEN + 1];

START_TEST(test_sha3_vs_openssl) {
  mldsa_test_randbytes(input, sizeof input);
  for (size_t f = 0; f < 4; ++f)
    for (size_t len = 0; len <= MAXLEN; ++len) {
      uint8_t got[64], want[64];
      sha3s[f].fn(got, input, len);
      evp_hash(sha3s[f].name, want, sha3s[f].len, input, len);
      assert_same(got, want, sha3s[f].len, sha3s[f].name, len, sha3s[f].len);
    }
}
END_TEST

START_TEST(test_shake_vs_openssl) {
  mldsa_test_randbytes(input, sizeof input);
  for (size_t f = 0; f < 2; ++f) {
    /* every input length; output lengths cycle through 1..3 blocks */
    for (size_t len = 0; len <= MAXLEN; ++len) {
      size_t outlen = 1 + (len * 7) % (3 * shakes[f].rate + 1);
      uint8_t got[3 * 168 + 2], want[3 * 168 + 2];
      shakes[f].fn(got, outlen, input, len);
      evp_hash(shakes[f].name, want, outlen, input, len);
      assert_same(got, want, outlen, shakes[f].name, len, outlen);
    }
    /* every output length, for inputs just below, at and above the rate */
    const size_t inlens[] = {0, 1, shakes[f].rate - 1, shakes[f].rate, shakes[f].rate + 1, 977};
    for (size_t k = 0; k < sizeof inlens / sizeof inlens[0]; ++k) {
      uint8_t want[MAXLEN], got[MAXLEN + 8];
      evp_hash(shakes[f].name, want, MAXLEN, input, inlens[k]);
      for (size_t outlen = 0; outlen <= MAXLEN; ++outlen) {
        memset(got, 0xEE, sizeof got);
        shakes[f].fn(got, outlen, input, inlens[k]);
        assert_same(got, want, outlen, shakes[f].name, inlens[k], outlen);
        ck_assert_msg(mldsa_test_all(got + outlen, 8, 0xEE),
                      "%s: output length %zu: wrote past the output", shakes[f].name, outlen);
      }
    }
  }
}
END_TEST

/* ---------------------------------------------------------------- incremental */

/* Chunk sizes: odd, empty, around the rates. */
static const size_t chunks[] = {1, 0, 3, 5, 7, 13, 0, 31, 67, 135, 137, 167, 169, 1, 9, 271};
#define NUM_CHUNKS (sizeof chunks / sizeof chunks[0])

START_TEST(test_shake_incremental) {
  mldsa_test_randbytes(input, sizeof input);
  for (size_t f = 0; f < 2; ++f) {
    const size_t rate = shakes[f].rate;
    const size_t inlens[] = {0,        1,        rate - 1,     rate,     rate + 1,
                             2 * rate, 500,      3 * rate + 7, MAXLEN};
    for (size_t k = 0; k < sizeof inlens / sizeof inlens[0]; ++k)
      for (size_t start = 0; start < NUM_CHUNKS; ++start) {
        const size_t inlen = inlens[k], outlen = 3 * rate + 5;
        uint8_t want[3 * 168 + 5], got[3 * 168 + 5 + 8];
        shakes[f].fn(want, outlen, input, inlen);

        mldsa_keccak st;
        shakes[f].init(&st);
        size_t off = 0, c = start;
        while (off < inlen) {
          size_t n = chunks[c++ % NUM_CHUNKS];
          if (n > inlen - off) n = inlen - off;
          mldsa_shake_absorb(&st, input + off, n);
          off += n;
        }
        mldsa_shake_absorb(&st, input, 0);
        mldsa_shake_finalize(&st);
        memset(got, 0xEE, sizeof got);
        off = 0;
        c = start + 5;
        while (off < outlen) {
          size_t n = chunks[c++ % NUM_CHUNKS];
          if (n > outlen - off) n = outlen - off;
          mldsa_shake_squeeze(&st, got + off, n);
          off += n;
        }
        ck_assert_msg(memcmp(got, want, outlen) == 0,
                      "%s incremental (chunk schedule %zu) differs from one-shot, input length "
                      "%zu (first difference at byte %ld)",
                      shakes[f].name, start, inlen, mldsa_test_first_diff(got, want, outlen));
        ck_assert_msg(mldsa_test_all(got + outlen, 8, 0xEE), "%s: squeeze wrote past the output",
                      shakes[f].name);
      }
  }
}
END_TEST

START_TEST(test_shake_squeeze_bytewise) {
  /* One byte at a time across several block boundaries. */
  mldsa_test_randbytes(input, sizeof input);
  for (size_t f = 0; f < 2; ++f) {
    const size_t outlen = 3 * shakes[f].rate + 3;
    uint8_t want[3 * 168 + 3], got[3 * 168 + 3];
    evp_hash(shakes[f].name, want, outlen, input, 100);
    mldsa_keccak st;
    shakes[f].init(&st);
    for (size_t i = 0; i < 100; ++i) mldsa_shake_absorb(&st, input + i, 1);
    mldsa_shake_finalize(&st);
    for (size_t i = 0; i < outlen; ++i) mldsa_shake_squeeze(&st, got + i, 1);
    assert_same(got, want, outlen, shakes[f].name, 100, outlen);
  }
}
END_TEST

static Suite *fips202_suite(void) {
  Suite *s = suite_create("fips202");
  TCase *tc = tcase_create("kat");
  tcase_add_test(tc, test_keccak_f_zero_state);
  tcase_add_test(tc, test_sha3_kat);
  tcase_add_test(tc, test_shake_kat);
  tcase_add_test(tc, test_shake_multiblock_kat);
  suite_add_tcase(s, tc);

  tc = tcase_create("openssl");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_sha3_vs_openssl);
  tcase_add_test(tc, test_shake_vs_openssl);
  suite_add_tcase(s, tc);

  tc = tcase_create("incremental");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_shake_incremental);
  tcase_add_test(tc, test_shake_squeeze_bytewise);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  mldsa_test_seed_rng("test_fips202");
  SRunner *sr = srunner_create(fips202_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
