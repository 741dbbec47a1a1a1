/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Keccak-f[1600] permutations of every ISA against the C permutation
 * (mldsa_keccak_f1600, src/fips202.c).
 *
 * For each ISA of MLDSA_FOR_EACH_ISA that the CPU has (mldsa_cpu_has_<isa>()):
 *   - mldsa_keccak_f1600_x1_<isa> (one state; src/fips202.h): the zero state (known
 *     answers, the Keccak team's intermediate values: lane 0 of f(0) is 0xF1258F7940E1DDE7,
 *     of f(f(0)) 0x2D5C954DF96ECB3C), all-ones, every single-bit state, >= 10,000 random
 *     states (sparse ones too) and chains of 200 permutations, each compared with the C
 *     permutation lane by lane;
 *   - mldsa_keccak_f1600_batch_<isa> (W = MLDSA_KECCAKX_W(isa) states, lane i of state j
 *     at s[i * W + j]; src/fips202x.h): zero, all-ones, >= 2,000 random batches, and
 *     batches where every state but one is zero; each state of the result against the C
 *     permutation of that state;
 *   - the batched SHAKE128/256 on it (mldsa_shake{128,256}x_absorb/squeezeblocks_<isa>):
 *     with 1..W streams in use, inputs of 0, 1, 34, 66, rate - 1, rate, rate + 1,
 *     2 rate + 9 and 1000 bytes, squeezed 2 + 1 + 1 blocks, each stream equal to the
 *     one-stream mldsa_shake128/256 and nothing written past the blocks asked for.
 * Every call runs on a state in guarded memory, rotating through four placements:
 * 64-byte aligned, 8 bytes off (the contract's alignment), ending exactly at an
 * inaccessible page, starting exactly after one (an out-of-bounds access faults; Check's
 * fork mode reports it). 8 canary words either side must stay intact.
 * Callee-saved registers, flags and vzeroupper are test_abi's.
 *
 * neon has two bodies of each kernel (src/keccak_neon.h), base (Armv8.0) and sha3 (FEAT_SHA3),
 * and the neon entries call the one the CPU can run: both bodies are checked here on their
 * own as ISAs "neon_base" and "neon_sha3" (the latter skipped without SHA3), the line of
 * "neon" says which body it dispatched to (callee-saved registers: test_abi_aarch64,
 * which calls every body).
 *
 * An ISA the CPU lacks is reported as skipped ("keccak <isa>: skipped (CPU lacks it)"),
 * never counted as passed. On scalar both functions are the C permutation: the known
 * answers check it. MLDSA_TEST_KECCAK_ITERS changes the number of random states;
 * MLDSA_TEST_SEED replays the data. */
#define _DEFAULT_SOURCE

#include <check.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu.h"
#include "fips202.h"
#include "fips202x.h"
#include "test_common.h"
#include "test_mman.h"
#if defined(MLDSA_HAVE_NEON)
#include "keccak_neon.h"
#endif

typedef void (*perm_fn)(uint64_t *);

typedef void (*absorb_fn)(mldsa_keccakx *, const uint8_t *const *, size_t, unsigned);
typedef void (*squeeze_fn)(uint8_t *const *, size_t, mldsa_keccakx *, unsigned);

typedef struct {
  const char *name;
  int (*has)(void);
  perm_fn x1, batch;
  unsigned w;
  absorb_fn absorb128, absorb256;
  squeeze_fn squeeze128, squeeze256;
} isa_t;

#define ISA_ENTRY(isa)                                                                   \
  {.name = #isa, .has = mldsa_cpu_has_##isa, .x1 = mldsa_keccak_f1600_x1_##isa,          \
   .batch = mldsa_keccak_f1600_batch_##isa, .w = MLDSA_KECCAKX_W(isa),                   \
   .absorb128 = mldsa_shake128x_absorb_##isa, .absorb256 = mldsa_shake256x_absorb_##isa, \
   .squeeze128 = mldsa_shake128x_squeezeblocks_##isa,                                    \
   .squeeze256 = mldsa_shake256x_squeezeblocks_##isa},

#if defined(MLDSA_HAVE_NEON)
static int has_neon_sha3(void) { return mldsa_cpu_has_neon() && mldsa_cpu_has_neon_sha3(); }
#define NEON_BODY(body, has_fn)                                                            \
  {.name = "neon_" #body, .has = has_fn, .x1 = mldsa_keccak_f1600_x1_neon_##body,          \
   .batch = mldsa_keccak_f1600_batch_neon_##body, .w = MLDSA_KECCAKX_W(neon),             \
   .absorb128 = mldsa_shake128x_absorb_neon, .absorb256 = mldsa_shake256x_absorb_neon,    \
   .squeeze128 = mldsa_shake128x_squeezeblocks_neon,                                      \
   .squeeze256 = mldsa_shake256x_squeezeblocks_neon},
#define NEON_BODIES NEON_BODY(base, mldsa_cpu_has_neon) NEON_BODY(sha3, has_neon_sha3)
#else
#define NEON_BODIES
#endif

static const isa_t isas[] = {MLDSA_FOR_EACH_ISA(ISA_ENTRY) NEON_BODIES};
#define NISAS (sizeof isas / sizeof isas[0])

static long g_iters = 10000;

/* ------------------------------------------------------------------------------------ */
/* Guarded placement                                                                     */

#define MAXLANES (25 * MLDSA_KECCAKX_MAXW)
#define CANARY 8
#define CANARY_WORD 0xA5C3F00D5EEDBEEFull
#define NPLACE 4
static const char *const place_name[NPLACE] = {"64-byte aligned", "8 bytes off 64",
                                               "ending at a guard page",
                                               "starting after a guard page"};

static uint8_t *g_area; /* [guard][rw pages][guard] */
static size_t g_rw;

static void area_init(void) {
  long page = sysconf(_SC_PAGESIZE);
  g_rw = ((MAXLANES + 2 * CANARY) * 8 + 128 + (size_t)page - 1) / (size_t)page * (size_t)page;
  uint8_t *m = mmap(NULL, g_rw + 2 * (size_t)page, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED || mprotect(m, (size_t)page, PROT_NONE) != 0 ||
      mprotect(m + page + g_rw, (size_t)page, PROT_NONE) != 0) {
    perror("test_keccak: mmap/mprotect");
    exit(EXIT_FAILURE);
  }
  g_area = m + page;
}

/* n lanes at placement p; canaries around it where the placement leaves room. */
static uint64_t *place(int p, size_t n) {
  uint64_t *s;
  switch (p) {
    case 0: s = (uint64_t *)(g_area + 64 + CANARY * 8); break;
    case 1: s = (uint64_t *)(g_area + 64 + CANARY * 8 + 8); break;
    case 2: s = (uint64_t *)(g_area + g_rw - n * 8); break;
    default: s = (uint64_t *)g_area; break;
  }
  memset(g_area, 0, g_rw);
  for (size_t i = 1; i <= CANARY; ++i) {
    if ((uint8_t *)(s - i) >= g_area) s[-(ptrdiff_t)i] = CANARY_WORD ^ i;
    if ((uint8_t *)(s + n + i) <= g_area + g_rw) s[n + i - 1] = CANARY_WORD ^ (i << 8);
  }
  return s;
}

static void canaries_ok(const uint64_t *s, size_t n, const char *what) {
  for (size_t i = 1; i <= CANARY; ++i) {
    if ((const uint8_t *)(s - i) >= g_area)
      ck_assert_msg(s[-(ptrdiff_t)i] == (CANARY_WORD ^ i), "%s: wrote %zu words before the state",
                    what, i);
    if ((const uint8_t *)(s + n + i) <= g_area + g_rw)
      ck_assert_msg(s[n + i - 1] == (CANARY_WORD ^ (i << 8)),
                    "%s: wrote word %zu after the state", what, i - 1);
  }
}

static uint64_t rand_lane(unsigned kind) {
  switch (kind % 4) {
    case 0: return mldsa_test_rand64() & mldsa_test_rand64() & mldsa_test_rand64(); /* sparse */
    case 1: return mldsa_test_rand64() | mldsa_test_rand64() | mldsa_test_rand64(); /* dense */
    default: return mldsa_test_rand64();
  }
}

static void report(const char *isa, const char *fn, const char *what, int p, size_t state,
                   const uint64_t *in, const uint64_t *want, const uint64_t *got, size_t stride) {
  for (unsigned i = 0; i < 25; ++i) {
    if (want[i] == got[i * stride]) continue;
    fprintf(stderr, "%s %s, %s, %s, state %zu: lane %u (x=%u, y=%u) expected %016" PRIx64
                    " got %016" PRIx64 "\n  input:",
            fn, isa, what, place_name[p], state, i, i % 5, i / 5, want[i], got[i * stride]);
    for (unsigned k = 0; k < 25; ++k) fprintf(stderr, " %016" PRIx64, in[k]);
    fprintf(stderr, "\n");
    ck_abort_msg("%s %s, %s, %s, state %zu: lane %u differs from the C permutation", fn, isa,
                 what, place_name[p], state, i);
  }
}

/* ------------------------------------------------------------------------------------ */
/* One state                                                                              */

/* s = f(in) by the ISA's x1 at placement p, compared with the C permutation. */
static void x1_case(const isa_t *I, const uint64_t in[25], int p, const char *what) {
  uint64_t want[25];
  memcpy(want, in, sizeof want);
  mldsa_keccak_f1600(want);
  uint64_t *s = place(p, 25);
  memcpy(s, in, 25 * 8);
  I->x1(s);
  canaries_ok(s, 25, what);
  report(I->name, "keccak_f1600_x1", what, p, 0, in, want, s, 1);
}

START_TEST(test_x1_known_answers) {
  const isa_t *I = &isas[_i];
  uint64_t *s = place(0, 25);
  I->x1(s);
  ck_assert_msg(s[0] == 0xF1258F7940E1DDE7ull, "keccak_f1600_x1 %s: f(0) lane 0 = %016" PRIx64,
                I->name, s[0]);
  I->x1(s);
  ck_assert_msg(s[0] == 0x2D5C954DF96ECB3Cull,
                "keccak_f1600_x1 %s: f(f(0)) lane 0 = %016" PRIx64, I->name, s[0]);
  canaries_ok(s, 25, "known answer");
}
END_TEST

START_TEST(test_x1_edges) {
  const isa_t *I = &isas[_i];
  uint64_t in[25];
  for (int p = 0; p < NPLACE; ++p) {
    memset(in, 0, sizeof in);
    x1_case(I, in, p, "zero state");
    memset(in, 0xFF, sizeof in);
    x1_case(I, in, p, "all-ones state");
  }
  char what[64];
  for (unsigned bit = 0; bit < 1600; ++bit) { /* every single-bit state, and its complement */
    memset(in, 0, sizeof in);
    in[bit / 64] = (uint64_t)1 << (bit % 64);
    snprintf(what, sizeof what, "single bit %u", bit);
    x1_case(I, in, (int)(bit % NPLACE), what);
    for (unsigned k = 0; k < 25; ++k) in[k] = ~in[k];
    snprintf(what, sizeof what, "all bits but %u", bit);
    x1_case(I, in, (int)((bit + 1) % NPLACE), what);
  }
}
END_TEST

START_TEST(test_x1_random) {
  const isa_t *I = &isas[_i];
  uint64_t in[25];
  for (long it = 0; it < g_iters; ++it) {
    for (unsigned k = 0; k < 25; ++k) in[k] = rand_lane((unsigned)it);
    x1_case(I, in, (int)(it % NPLACE), "random state");
  }
}
END_TEST

START_TEST(test_x1_chain) { /* as a sponge uses it: each output is the next input */
  const isa_t *I = &isas[_i];
  for (int p = 0; p < NPLACE; ++p) {
    uint64_t want[25], in[25];
    for (unsigned k = 0; k < 25; ++k) want[k] = mldsa_test_rand64();
    memcpy(in, want, sizeof in);
    uint64_t *s = place(p, 25);
    memcpy(s, want, sizeof want);
    for (int r = 0; r < 200; ++r) {
      I->x1(s);
      mldsa_keccak_f1600(want);
          report(I->name, "keccak_f1600_x1", "chain of 200", p, (size_t)r, in, want, s, 1);
    }
    canaries_ok(s, 25, "chain");
  }
}
END_TEST

/* ------------------------------------------------------------------------------------ */
/* W states                                                                               */

static void batch_case(const isa_t *I, uint64_t in[][25], int p, const char *what) {
  const unsigned w = I->w;
  uint64_t *s = place(p, 25 * (size_t)w);
  for (unsigned j = 0; j < w; ++j)
    for (unsigned i = 0; i < 25; ++i) s[i * w + j] = in[j][i];
  I->batch(s);
  canaries_ok(s, 25 * (size_t)w, what);
  for (unsigned j = 0; j < w; ++j) {
    uint64_t want[25];
    memcpy(want, in[j], sizeof want);
    mldsa_keccak_f1600(want);
    report(I->name, "keccak_f1600_batch", what, p, j, in[j], want, s + j, w);
  }
}

START_TEST(test_batch) {
  const isa_t *I = &isas[_i];
  uint64_t in[MLDSA_KECCAKX_MAXW][25];
  ck_assert_msg(I->w >= 1 && I->w <= MLDSA_KECCAKX_MAXW, "W = %u", I->w);
  for (int p = 0; p < NPLACE; ++p) {
    memset(in, 0, sizeof in);
    batch_case(I, in, p, "zero states");
    memset(in, 0xFF, sizeof in);
    batch_case(I, in, p, "all-ones states");
    for (unsigned one = 0; one < I->w; ++one) { /* one random state among zero ones */
      memset(in, 0, sizeof in);
      for (unsigned k = 0; k < 25; ++k) in[one][k] = mldsa_test_rand64();
      batch_case(I, in, p, "one random state, the others zero");
    }
  }
  long n = g_iters / 5 > 100 ? g_iters / 5 : 100;
  for (long it = 0; it < n; ++it) {
    for (unsigned j = 0; j < I->w; ++j)
      for (unsigned k = 0; k < 25; ++k) in[j][k] = rand_lane((unsigned)(it + j));
    batch_case(I, in, (int)(it % NPLACE), "random states");
  }
}
END_TEST

/* The batched sponges (fips202x.h): every stream, for 1..W streams in use, equals the
 * one-stream SHAKE128/256 of its input, block after block, for input lengths around the
 * rate; nothing is written past the blocks asked for. */
START_TEST(test_batched_shake) {
  const isa_t *I = &isas[_i];
  enum { MAXBLOCKS = 4, GUARD = 16 };
  static const size_t rates[2] = {MLDSA_SHAKE128_RATE, MLDSA_SHAKE256_RATE};
  for (int v = 0; v < 2; ++v) {
    size_t rate = rates[v];
    const size_t lens[] = {0, 1, 34, 66, rate - 1, rate, rate + 1, 2 * rate + 9, 1000};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; ++li) {
      size_t inlen = lens[li];
      for (unsigned n = 1; n <= I->w; ++n) {
        static uint8_t in[MLDSA_KECCAKX_MAXW][1000];
        static uint8_t out[MLDSA_KECCAKX_MAXW][MAXBLOCKS * 168 + GUARD];
        uint8_t want[MAXBLOCKS * 168];
        const uint8_t *inp[MLDSA_KECCAKX_MAXW];
        uint8_t *outp[MLDSA_KECCAKX_MAXW];
        mldsa_keccakx st;
        for (unsigned j = 0; j < n; ++j) {
          mldsa_test_randbytes(in[j], inlen);
          memset(out[j], 0xEE, sizeof out[j]);
          inp[j] = in[j];
          outp[j] = out[j];
        }
        /* two blocks, then one more, then one more: the calls must continue the stream */
        (v ? I->absorb256 : I->absorb128)(&st, inp, inlen, n);
        (v ? I->squeeze256 : I->squeeze128)(outp, 2, &st, n);
        for (unsigned j = 0; j < n; ++j) outp[j] = out[j] + 2 * rate;
        (v ? I->squeeze256 : I->squeeze128)(outp, 1, &st, n);
        for (unsigned j = 0; j < n; ++j) outp[j] = out[j] + 3 * rate;
        (v ? I->squeeze256 : I->squeeze128)(outp, 1, &st, n);
        for (unsigned j = 0; j < n; ++j) {
          (v ? mldsa_shake256 : mldsa_shake128)(want, MAXBLOCKS * rate, in[j], inlen);
          ck_assert_msg(memcmp(out[j], want, MAXBLOCKS * rate) == 0,
                        "%s: SHAKE%d stream %u of %u, input %zu bytes: output differs", I->name,
                        v ? 256 : 128, j, n, inlen);
          for (size_t g = MAXBLOCKS * rate; g < sizeof out[j]; ++g)
            ck_assert_msg(out[j][g] == 0xEE, "%s: SHAKE%d wrote past %d blocks", I->name,
                          v ? 256 : 128, MAXBLOCKS);
        }
      }
    }
  }
}
END_TEST


/* ------------------------------------------------------------------------------------ */

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  mldsa_test_seed_rng("test_keccak");
  const char *e = getenv("MLDSA_TEST_KECCAK_ITERS");
  if (e && *e && strtol(e, NULL, 0) > 0) g_iters = strtol(e, NULL, 0);
  printf("test_keccak: %ld random states per ISA (x1), %ld random batches\n", g_iters,
         g_iters / 5 > 100 ? g_iters / 5 : 100);
#if !defined(MLDSA_HAVE_ASM)
  printf("keccak: NO SIMD ISA compiled in (built without MLDSA_HAVE_ASM): only the C "
         "permutation is checked (known answers)\n");
#endif
  area_init();

  const TTest *tests[] = {test_x1_known_answers, test_x1_edges, test_x1_random, test_x1_chain,
                          test_batch, test_batched_shake};
  const int NTESTS = (int)(sizeof tests / sizeof tests[0]);
  int failed = 0;
  char lines[NISAS][160];
  for (size_t i = 0; i < NISAS; ++i) {
    if (!isas[i].has()) {
      snprintf(lines[i], sizeof lines[i], "keccak %s: skipped (CPU lacks it)", isas[i].name);
      printf("%s\n", lines[i]);
      fflush(stdout);
      continue;
    }
    Suite *s = suite_create(isas[i].name);
    TCase *tc = tcase_create(isas[i].name);
    tcase_set_timeout(tc, 300);
    for (int t = 0; t < NTESTS; ++t) tcase_add_loop_test(tc, tests[t], (int)i, (int)i + 1);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int run = srunner_ntests_run(sr), bad = srunner_ntests_failed(sr);
    snprintf(lines[i], sizeof lines[i], "keccak %s: %d/%d checks passed%s (x1, W = %u batch, batched SHAKE)",
             isas[i].name, run - bad, NTESTS, run - bad == NTESTS ? "" : " -- FAILED",
             isas[i].w);
    if (bad != 0 || run != NTESTS) failed = 1;
    srunner_free(sr);
  }
  printf("\n");
  for (size_t i = 0; i < NISAS; ++i) printf("%s\n", lines[i]);
#if defined(MLDSA_HAVE_NEON)
  if (mldsa_cpu_has_neon())
    printf("keccak neon: mldsa_keccak_f1600_x1_neon and _batch_neon run the %s body (AT_HWCAP %s "
           "SHA3)\n",
           mldsa_keccak_neon_body(), mldsa_cpu_has_neon_sha3() ? "has" : "lacks");
#endif
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
