/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The rejection samplers of every ISA against the scalar ones (src/kernels.h):
 * rej_uniform (RejNTTPoly's 23-bit candidates) and rej_eta2 / rej_eta4 (RejBoundedPoly's
 * half-bytes).
 *
 * The scalar samplers are first checked against a direct model of FIPS 204 (Alg. 14, 15:
 * CoeffFromThreeBytes, CoeffFromHalfByte, with % 5). Then, for each ISA other than scalar
 * that the CPU has (mldsa_cpu_has_<isa>()), every sampler runs on the same inputs as the
 * scalar one and must return the same count and write the same a[n..count-1]:
 *
 *   n       0, 1, 7, 8, 15, 16, 100, 192, 193, 200, 224, 225, 239, 240, 241, 247, 248,
 *           249, 250, 252, 253, 255, 256 and random (around every vector step's bound)
 *   len     0, 1, 2, 3, 4, 5, 6, 7, 8, ... small lengths, 12..17, 23..25, 31..33, 47..49,
 *           63..65, 136, 168, 272, 840 and random up to 900 (not only multiples of 3)
 *   bytes   random; all 0xFF (every candidate / half-byte rejected); all 0x00; all kept;
 *           each candidate rejected with probability 1/2, 1/8, 7/8; boundary values
 *           (q - 1, q, 2^23 - 1, bit 23 set over a small value; half-bytes bound - 1,
 *           bound); exactly enough kept (the 256th coefficient is the last candidate)
 *           and one more than enough
 *
 * Memory: buf sits against an inaccessible page, its end on it or its start just after
 * one (a read outside buf[0..len-1] faults; Check's fork mode reports it as an error), and
 * must be unchanged; a has 16 guard words on each side, or its end against an inaccessible
 * page; a[0..n-1] must be unchanged (nothing before a[n] written), and the guards too
 * (nothing after a[255]). a[count..255] is unspecified by the contract (whole vectors are
 * stored) and not compared.
 *
 * On a failure: ISA, sampler, case, n, len, the first differing index, expected and got.
 * Replay with MLDSA_TEST_SEED=<printed seed>; MLDSA_TEST_SAMPLERS_ITERS sets the number of
 * random inputs per case (default 1000). An ISA the CPU lacks is reported as skipped. */
#define _DEFAULT_SOURCE

#include <check.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu.h"
#include "kernels.h"
#include "params.h"
#include "test_common.h"
#include "test_mman.h"

#define N MLDSA_N
#define GUARD 16
#define BUF_MAX 1024

typedef unsigned (*sampler)(int32_t *, unsigned, const uint8_t *, size_t);

typedef struct {
  const char *name;
  int (*has)(void);
  sampler s[3]; /* rej_uniform, rej_eta2, rej_eta4 */
} isa_t;

#define ISA_ENTRY(isa)                        \
  {#isa,                                      \
   mldsa_cpu_has_##isa,                       \
   {mldsa_rej_uniform_##isa, mldsa_rej_eta2_##isa, mldsa_rej_eta4_##isa}},
static const isa_t isas[] = {MLDSA_FOR_EACH_ISA(ISA_ENTRY)};
#define NISAS (sizeof isas / sizeof isas[0])

enum { UNIFORM, ETA2, ETA4, NSAMPLERS };
static const char *const sampler_names[NSAMPLERS] = {"rej_uniform", "rej_eta2", "rej_eta4"};

static long g_iters = 1000;
static uint64_t g_seed;

/* ------------------------------------------------------------------------------------ */
/* Guarded memory                                                                        */

static long page;
static uint8_t *buf_region; /* [none][BUF pages][none] */
static size_t buf_pages_bytes;
static uint8_t *a_region; /* [a page(s)][none] */
static size_t a_bytes;

static void arena_init(void) {
  page = sysconf(_SC_PAGESIZE);
  buf_pages_bytes = ((BUF_MAX + (size_t)page - 1) / (size_t)page) * (size_t)page;
  buf_region = mmap(NULL, buf_pages_bytes + 2 * (size_t)page, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  a_bytes = ((sizeof(int32_t) * (N + 2 * GUARD) + (size_t)page - 1) / (size_t)page) *
            (size_t)page;
  a_region = mmap(NULL, a_bytes + (size_t)page, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (buf_region == MAP_FAILED || a_region == MAP_FAILED) {
    perror("test_samplers: mmap");
    exit(EXIT_FAILURE);
  }
  if (mprotect(buf_region, (size_t)page, PROT_NONE) != 0 ||
      mprotect(buf_region + (size_t)page + buf_pages_bytes, (size_t)page, PROT_NONE) != 0 ||
      mprotect(a_region + a_bytes, (size_t)page, PROT_NONE) != 0) {
    perror("test_samplers: mprotect");
    exit(EXIT_FAILURE);
  }
}

/* Where buf starts: placement 0 ends it at the inaccessible page, 1 starts it right after
 * the one before. */
static uint8_t *buf_at(int placement, size_t len) {
  uint8_t *data = buf_region + page;
  return placement == 0 ? data + buf_pages_bytes - len : data;
}

/* Where a starts: placement 0 with GUARD words on each side, 1 with its end against the
 * inaccessible page (GUARD words before only). */
static int32_t *a_at(int placement) {
  int32_t *end = (int32_t *)(a_region + a_bytes);
  return placement == 0 ? end - N - GUARD : end - N;
}

#define POISON ((int32_t)0x5A5A5A5A)
#define KEEP_MARK(i) ((int32_t)(0x11110000u + (uint32_t)(i)))
#define GUARD_WORD ((int32_t)0xC0FFEE00)

/* ------------------------------------------------------------------------------------ */
/* Models of FIPS 204 (Alg. 14, 15), for the scalar samplers                             */

static unsigned model(int which, int32_t *a, unsigned n, const uint8_t *buf, size_t len) {
  if (which == UNIFORM) {
    for (size_t i = 0; i + 3 <= len; i += 3) {
      if (n >= N) break;
      uint32_t b2 = buf[i + 2] & 0x7F; /* CoeffFromThreeBytes: bit 23 cleared */
      uint32_t z = ((uint32_t)b2 << 16) | ((uint32_t)buf[i + 1] << 8) | buf[i];
      if (z < (uint32_t)MLDSA_Q) a[n++] = (int32_t)z;
    }
    return n;
  }
  for (size_t j = 0; j < len; ++j) {
    unsigned z[2] = {buf[j] & 15u, buf[j] >> 4}; /* z0 first */
    for (int h = 0; h < 2; ++h) {
      if (n >= N) return n;
      if (which == ETA2 && z[h] < 15) a[n++] = 2 - (int32_t)(z[h] % 5);
      if (which == ETA4 && z[h] < 9) a[n++] = 4 - (int32_t)z[h];
    }
  }
  return n;
}

/* ------------------------------------------------------------------------------------ */
/* Inputs                                                                                */

enum mode {
  M_RANDOM,
  M_ALL_FF,
  M_ALL_00,
  M_ALL_KEPT,
  M_REJECT_HALF,
  M_REJECT_EIGHTH,
  M_REJECT_7_8,
  M_BOUNDARY,
  M_EXACT, /* exactly 256 - n kept, the last one at the end of buf */
  M_EXACT_PLUS, /* 257 - n kept, the last two at the end */
  NMODES
};
static const char *const mode_names[NMODES] = {
    "random",          "all 0xFF (all rejected)", "all 0x00", "all kept",
    "1/2 rejected",    "1/8 rejected",            "7/8 rejected", "boundary values",
    "exactly enough kept", "one more than enough kept"};

/* One unit of the stream: a 3-byte candidate or a half-byte. */
static uint32_t unit_kept(int which) {
  if (which == UNIFORM) {
    uint32_t t = (uint32_t)mldsa_test_randbelow(MLDSA_Q);
    return t | (uint32_t)(mldsa_test_rand64() & 1) << 23; /* bit 23 is masked away */
  }
  return (uint32_t)mldsa_test_randbelow(which == ETA2 ? 15 : 9);
}

static uint32_t unit_rejected(int which) {
  if (which == UNIFORM) {
    uint32_t t = MLDSA_Q + (uint32_t)mldsa_test_randbelow((1u << 23) - MLDSA_Q);
    return t | (uint32_t)(mldsa_test_rand64() & 1) << 23;
  }
  unsigned bound = which == ETA2 ? 15 : 9;
  return bound + (uint32_t)mldsa_test_randbelow(16 - bound);
}

static uint32_t unit_boundary(int which) {
  if (which == UNIFORM) {
    static const uint32_t v[] = {MLDSA_Q - 1, MLDSA_Q, MLDSA_Q + 1, 0x7FFFFF, 0, 1,
                                 0x800000, 0x800000 | (MLDSA_Q - 1), 0x800000 | MLDSA_Q,
                                 0xFFFFFF};
    return v[mldsa_test_randbelow(sizeof v / sizeof v[0])];
  }
  unsigned bound = which == ETA2 ? 15 : 9;
  static const unsigned d[] = {0, 1, 4, 5, 9, 10, 14, 15};
  unsigned pick = (unsigned)mldsa_test_randbelow(4);
  if (pick == 0) return bound - 1;
  if (pick == 1) return bound;
  return d[mldsa_test_randbelow(sizeof d / sizeof d[0])];
}

static void put_unit(int which, uint8_t *buf, size_t k, uint32_t u) {
  if (which == UNIFORM) {
    buf[3 * k] = (uint8_t)u;
    buf[3 * k + 1] = (uint8_t)(u >> 8);
    buf[3 * k + 2] = (uint8_t)(u >> 16);
  } else if (k % 2 == 0) {
    buf[k / 2] = (uint8_t)((buf[k / 2] & 0xF0) | u);
  } else {
    buf[k / 2] = (uint8_t)((buf[k / 2] & 0x0F) | u << 4);
  }
}

/* Fills buf[0..len) for the mode. */
static void make_input(int which, enum mode mode, unsigned n, uint8_t *buf, size_t len) {
  size_t units = which == UNIFORM ? len / 3 : 2 * len;
  mldsa_test_randbytes(buf, len); /* also the trailing bytes of an incomplete group */
  switch (mode) {
    case M_RANDOM:
      break;
    case M_ALL_FF:
      memset(buf, 0xFF, len);
      break;
    case M_ALL_00:
      memset(buf, 0x00, len);
      break;
    case M_ALL_KEPT:
    case M_REJECT_HALF:
    case M_REJECT_EIGHTH:
    case M_REJECT_7_8:
    case M_BOUNDARY:
      for (size_t k = 0; k < units; ++k) {
        uint32_t u;
        size_t r = mldsa_test_randbelow(8);
        if (mode == M_ALL_KEPT)
          u = unit_kept(which);
        else if (mode == M_REJECT_HALF)
          u = r < 4 ? unit_rejected(which) : unit_kept(which);
        else if (mode == M_REJECT_EIGHTH)
          u = r < 1 ? unit_rejected(which) : unit_kept(which);
        else if (mode == M_REJECT_7_8)
          u = r < 7 ? unit_rejected(which) : unit_kept(which);
        else
          u = unit_boundary(which);
        put_unit(which, buf, k, u);
      }
      break;
    case M_EXACT:
    case M_EXACT_PLUS: {
      /* need = 256 - n kept units (+1), the last of them the last unit of buf, the
         others at random places before it; everything else rejected */
      size_t need = n >= N ? 0 : N - n;
      if (mode == M_EXACT_PLUS) need += 1;
      for (size_t k = 0; k < units; ++k) put_unit(which, buf, k, unit_rejected(which));
      if (need > units) need = units;
      size_t placed = 0;
      for (size_t k = units; k-- > 0 && placed < need;) {
        /* the last unit(s) kept; before them a kept unit where a coin says so and
           enough units remain */
        size_t left = need - placed;
        if (k + 1 == units || (mode == M_EXACT_PLUS && k + 2 == units) || k < left ||
            mldsa_test_randbelow(units) < 2 * left) {
          put_unit(which, buf, k, unit_kept(which));
          ++placed;
        }
      }
      break;
    }
    default:
      break;
  }
}

/* ------------------------------------------------------------------------------------ */
/* One comparison                                                                        */

/* The call in progress, for the report of a fault (out-of-bounds read or write). */
static struct {
  const char *isa, *sampler, *mode;
  unsigned n;
  size_t len;
  int bp, ap;
} current;

static void on_fault(int sig) {
  char msg[300];
  int k = snprintf(msg, sizeof msg,
                   "test_samplers: signal %d in %s %s, %s: n %u, len %zu (buf placement %d, "
                   "a placement %d): an access outside buf[0..len-1] or a[-16..255]?\n",
                   sig, current.isa, current.sampler, current.mode, current.n, current.len,
                   current.bp, current.ap);
  if (k > 0) (void)!write(2, msg, (size_t)k < sizeof msg ? (size_t)k : sizeof msg - 1);
  signal(sig, SIG_DFL);
  raise(sig);
}

/* Runs isa's sampler `which` on (n, len, mode) in every placement and compares it with
 * the reference (the scalar sampler, or the FIPS 204 model when isa is scalar). */
static void check_one(size_t isa, int which, unsigned n, size_t len, enum mode mode) {
  static uint8_t input[BUF_MAX];
  make_input(which, mode, n, input, len);
  int32_t ref[N];
  for (unsigned i = 0; i < N; ++i) ref[i] = POISON;
  unsigned ref_count = isa == 0 ? model(which, ref, n, input, len)
                                : isas[0].s[which](ref, n, input, len);
  for (int bp = 0; bp < 2; ++bp) {
    for (int ap = 0; ap < 2; ++ap) {
      uint8_t *buf = buf_at(bp, len);
      memcpy(buf, input, len);
      int32_t *a = a_at(ap);
      int32_t *lo = a - GUARD, *hi = a + N;
      for (unsigned i = 0; i < GUARD; ++i) lo[i] = GUARD_WORD;
      if (ap == 0)
        for (unsigned i = 0; i < GUARD; ++i) hi[i] = GUARD_WORD;
      for (unsigned i = 0; i < N; ++i) a[i] = i < n ? KEEP_MARK(i) : POISON;

      current.isa = isas[isa].name;
      current.sampler = sampler_names[which];
      current.mode = mode_names[mode];
      current.n = n;
      current.len = len;
      current.bp = bp;
      current.ap = ap;
      unsigned got = isas[isa].s[which](a, n, buf, len);

      if (got != ref_count)
        ck_abort_msg("%s %s, %s: n %u, len %zu (buf placement %d, a placement %d): "
                    "returned %u, expected %u (seed 0x%llx)",
                    isas[isa].name, sampler_names[which], mode_names[mode], n, len, bp, ap,
                    got, ref_count, (unsigned long long)g_seed);
      for (unsigned i = 0; i < N && i < ref_count; ++i) {
        int32_t want = i < n ? KEEP_MARK(i) : ref[i];
        if (a[i] != want)
          ck_abort_msg("%s %s, %s: n %u, len %zu (buf placement %d, a placement %d): "
                      "a[%u] = %d, expected %d%s (seed 0x%llx)",
                      isas[isa].name, sampler_names[which], mode_names[mode], n, len, bp, ap,
                      i, a[i], want, i < n ? " (before a[n]: must be untouched)" : "",
                      (unsigned long long)g_seed);
      }
      for (unsigned i = 0; i < GUARD; ++i) {
        if (lo[i] != GUARD_WORD)
          ck_abort_msg("%s %s, %s: n %u, len %zu: wrote before a[0]",
                      isas[isa].name, sampler_names[which], mode_names[mode], n, len);
        if (ap == 0 && hi[i] != GUARD_WORD)
          ck_abort_msg("%s %s, %s: n %u, len %zu: wrote after a[255]",
                        isas[isa].name, sampler_names[which], mode_names[mode], n, len);
      }
      if (memcmp(buf, input, len) != 0)
        ck_abort_msg("%s %s: buf modified", isas[isa].name,
                    sampler_names[which]);
    }
  }
}

/* ------------------------------------------------------------------------------------ */
/* The cases                                                                             */

static const unsigned NS[] = {0,   1,   7,   8,   15,  16,  100, 192, 193, 200, 224, 225,
                              239, 240, 241, 247, 248, 249, 250, 252, 253, 255, 256};
static const size_t LENS[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,
                              14, 15, 16, 17, 18, 20, 21, 23, 24, 25, 26,  27,  28,  31,
                              32, 33, 36, 47, 48, 49, 50, 63, 64, 65, 72,  96,  135, 136,
                              137, 168, 169, 170, 271, 272, 273, 768, 771, 839, 840, 841};
#define COUNT(x) (sizeof(x) / sizeof((x)[0]))

static void run_sampler(size_t isa, int which) {
  /* every n x every listed len x every mode */
  for (size_t i = 0; i < COUNT(NS); ++i)
    for (size_t j = 0; j < COUNT(LENS); ++j)
      for (int mode = 0; mode < NMODES; ++mode) check_one(isa, which, NS[i], LENS[j], mode);
  /* the lengths the C layer uses, from n = 0, as they come: many random streams */
  size_t first = which == UNIFORM ? 840 : 272, next = which == UNIFORM ? 168 : 136;
  for (long it = 0; it < 20 * g_iters; ++it) {
    check_one(isa, which, 0, first, M_RANDOM);
    check_one(isa, which, (unsigned)(N - 1 - mldsa_test_randbelow(40)), next, M_RANDOM);
  }
  /* random n, len and mode */
  for (long it = 0; it < 20 * g_iters; ++it) {
    unsigned n = (unsigned)mldsa_test_randbelow(N + 1);
    size_t len = mldsa_test_randbelow(901);
    check_one(isa, which, n, len, (enum mode)mldsa_test_randbelow(NMODES));
  }
}

START_TEST(test_rej_uniform) { run_sampler((size_t)_i, UNIFORM); }
END_TEST

START_TEST(test_rej_eta2) { run_sampler((size_t)_i, ETA2); }
END_TEST

START_TEST(test_rej_eta4) { run_sampler((size_t)_i, ETA4); }
END_TEST

int main(void) {
  g_seed = mldsa_test_seed_rng("test_samplers");
  const char *e = getenv("MLDSA_TEST_SAMPLERS_ITERS");
  if (e && *e && strtol(e, NULL, 0) > 0) g_iters = strtol(e, NULL, 0);
  arena_init();
  signal(SIGSEGV, on_fault);
  signal(SIGBUS, on_fault);
#if !defined(MLDSA_HAVE_ASM)
  printf("samplers: NO SIMD ISA compiled in (built without MLDSA_HAVE_ASM): only the scalar "
         "samplers are checked, against the FIPS 204 models\n");
#endif
  int failed = 0;
  for (size_t i = 0; i < NISAS; ++i) {
    if (i > 0 && !isas[i].has()) {
      printf("samplers %s: skipped (CPU lacks it)\n", isas[i].name);
      fflush(stdout);
      continue;
    }
    Suite *s = suite_create(i == 0 ? "samplers scalar (against FIPS 204 models)" : isas[i].name);
    TCase *tc = tcase_create(isas[i].name);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_rej_uniform, (int)i, (int)i + 1);
    tcase_add_loop_test(tc, test_rej_eta2, (int)i, (int)i + 1);
    tcase_add_loop_test(tc, test_rej_eta4, (int)i, (int)i + 1);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    printf("samplers %s: against %s\n", isas[i].name,
           i == 0 ? "the FIPS 204 models" : "scalar");
    fflush(stdout);
    srunner_run_all(sr, CK_NORMAL);
    int run = srunner_ntests_run(sr), bad = srunner_ntests_failed(sr);
    printf("samplers %s: %d/%d sampler checks passed%s\n", isas[i].name, run - bad, 3,
           run - bad == 3 ? "" : " -- FAILED");
    if (bad != 0 || run != 3) failed = 1;
    srunner_free(sr);
  }
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
