/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Every arithmetic kernel of every ISA against the scalar reference (src/kernels.h).
 *
 * For each ISA of MLDSA_FOR_EACH_ISA other than scalar that the CPU has
 * (mldsa_cpu_has_<isa>()), every kernel runs on >= 10,000 random inputs inside its
 * contract (MLDSA_TEST_KERNELS_ITERS changes the count) and on the edges of the contract,
 * and its output is compared with mldsa_<kernel>_scalar: exactly where kernels.h says
 * exact, mod q plus the stated output bound where it says mod q (unpack_z: exactly, on
 * random bytes and uniform, alternating and single-field patterns). decompose, use_hint,
 * power2round, make_hint and shiftl are also swept over their whole input domain
 * (MLDSA_TEST_KERNELS_EXHAUSTIVE=0 turns the sweeps off, e.g. under an emulator).
 *
 * NTT order: an ISA may keep its own order; ntt_reorder_<isa> maps the standard order to
 * it. So ntt_<isa>(a) is compared with ntt_reorder_<isa>(ntt_scalar(a)), and
 * invntt_tomont_<isa>(ntt_reorder_<isa>(b)) with invntt_tomont_scalar(b); ntt_reorder
 * must be a data-independent permutation (the identity on scalar). Round trips
 * (invntt(reduce32(ntt(a))) = a 2^32, ntt(invntt(b)) = b 2^32) and polynomial products
 * through ntt -> pointwise -> invntt (and ntt -> pointwise_acc -> reduce32 -> invntt) are
 * checked against schoolbook multiplication mod (X^256 + 1, q).
 *
 * Every call runs on arrays in guarded memory: 16 canary words before and after each
 * array must stay intact, const inputs must be unchanged, outputs start poisoned (a
 * coefficient left unwritten shows up as a difference), and the arrays rotate through four
 * placements: 64-byte aligned, misaligned by 4 bytes, ending exactly at an inaccessible
 * page, starting exactly after one (an out-of-bounds read or write faults; Check's fork
 * mode reports it as an error). Outputs aliasing inputs, as the C layer calls the kernels
 * (add(c, c, b), power2round(a1, a0, a1), use_hint(b, b, h), ...), are tested too.
 *
 * The scalar kernels themselves are checked against straightforward models of FIPS 204
 * (naive O(n^2) NTT evaluation at zeta^(2 BitRev8(i) + 1), Algorithms 35, 36, 39, 40
 * with divisions, 64-bit modular arithmetic), with the same edges; that is all this test
 * can do when the build has no assembly (MLDSA_HAVE_ASM undefined), and it says so.
 *
 * On a failure: the ISA, kernel, case, array placement, aliasing, the first differing
 * index, the input coefficients there, expected and got, then the whole input and output
 * arrays (stderr). Replay with MLDSA_TEST_SEED=<printed seed>.
 *
 * An ISA the CPU lacks is reported as skipped ("kernels <isa>: skipped (CPU lacks it)"),
 * never counted as passed. The last lines give, per ISA, the kernel checks passed, the
 * number of kernel calls compared and the time taken. */
#define _DEFAULT_SOURCE

#include <check.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpu.h"
#include "kernels.h"
#include "params.h"
#include "test_common.h"
#include "test_mman.h"

#define N MLDSA_N
#define Q ((int64_t)MLDSA_Q)
#define NPOLY_MAX 8 /* pointwise_acc: len 1..8 */

/* ------------------------------------------------------------------------------------ */
/* The kernels of one ISA                                                                */

typedef void (*k_inplace)(int32_t *);
typedef void (*k_bin)(int32_t *, const int32_t *, const int32_t *);
typedef void (*k_two)(int32_t *, int32_t *, const int32_t *);
typedef unsigned (*k_hint)(int32_t *, const int32_t *, const int32_t *);
typedef void (*k_acc)(int32_t *, const int32_t *, const int32_t *, unsigned);
typedef int (*k_norm)(const int32_t *, int32_t);
typedef void (*k_unpack)(int32_t *, const uint8_t *);
typedef void (*k_pack)(uint8_t *, const int32_t *);

typedef struct {
  const char *name;
  int (*has)(void);
  k_inplace ntt, invntt_tomont, ntt_reorder, reduce32, caddq, shiftl;
  k_bin pointwise_montgomery, add, sub;
  k_acc pointwise_acc;
  k_two power2round;
  k_two decompose[2]; /* [0]: gamma2 = (q-1)/88, [1]: (q-1)/32 */
  k_hint make_hint[2];
  k_bin use_hint[2];
  k_norm chknorm;
  k_unpack unpack_z[2]; /* [0]: gamma1 = 2^17, [1]: 2^19 */
  k_pack pack_w1[2];    /* [0]: gamma2 = (q-1)/88, [1]: (q-1)/32 */
  k_pack pack_z[2];     /* [0]: gamma1 = 2^17, [1]: 2^19 */
} isa_t;

#define ISA_ENTRY(isa)                                                               \
  {.name = #isa,                                                                     \
   .has = mldsa_cpu_has_##isa,                                                       \
   .ntt = mldsa_ntt_##isa,                                                           \
   .invntt_tomont = mldsa_invntt_tomont_##isa,                                       \
   .ntt_reorder = mldsa_ntt_reorder_##isa,                                           \
   .reduce32 = mldsa_reduce32_##isa,                                                 \
   .caddq = mldsa_caddq_##isa,                                                       \
   .shiftl = mldsa_shiftl_##isa,                                                     \
   .pointwise_montgomery = mldsa_pointwise_montgomery_##isa,                         \
   .add = mldsa_add_##isa,                                                           \
   .sub = mldsa_sub_##isa,                                                           \
   .pointwise_acc = mldsa_pointwise_acc_##isa,                                       \
   .power2round = mldsa_power2round_##isa,                                           \
   .decompose = {mldsa_decompose_g88_##isa, mldsa_decompose_g32_##isa},              \
   .make_hint = {mldsa_make_hint_g88_##isa, mldsa_make_hint_g32_##isa},              \
   .use_hint = {mldsa_use_hint_g88_##isa, mldsa_use_hint_g32_##isa},                 \
   .chknorm = mldsa_chknorm_##isa,                                                   \
   .unpack_z = {mldsa_unpack_z_g17_##isa, mldsa_unpack_z_g19_##isa},                 \
   .pack_w1 = {mldsa_pack_w1_g88_##isa, mldsa_pack_w1_g32_##isa},                    \
   .pack_z = {mldsa_pack_z_g17_##isa, mldsa_pack_z_g19_##isa}},

static const isa_t isas[] = {MLDSA_FOR_EACH_ISA(ISA_ENTRY)};
#define NISAS (sizeof isas / sizeof isas[0])

/* gamma2 variants: index 0 is (q-1)/88 (ML-DSA-44), 1 is (q-1)/32 (ML-DSA-65/87). */
static const int32_t GAMMA2[2] = {MLDSA_GAMMA2_88, MLDSA_GAMMA2_32};
static int32_t hi_count(int g) { return (int32_t)((Q - 1) / (2 * GAMMA2[g])); } /* 44, 16 */

/* ------------------------------------------------------------------------------------ */
/* Modular helpers and the FIPS 204 models the scalar kernels are checked against        */

static int64_t mod_q(int64_t x) {
  int64_t r = x % Q;
  return r < 0 ? r + Q : r;
}
static int32_t centered(int64_t x) {
  int64_t r = mod_q(x);
  return (int32_t)(r > (Q - 1) / 2 ? r - Q : r);
}
static int64_t pow_mod(int64_t b, uint64_t e) {
  int64_t r = 1;
  b = mod_q(b);
  for (; e; e >>= 1, b = b * b % Q)
    if (e & 1) r = r * b % Q;
  return r;
}
static int64_t floor_div(int64_t a, int64_t d) { /* d > 0 */
  int64_t t = a / d;
  return (a % d != 0 && a < 0) ? t - 1 : t;
}

static int64_t MONT;      /* 2^32 mod q */
static int64_t MONT_INV;  /* 2^-32 mod q */
static int64_t INTT_F;    /* 256^-1 * 2^32 mod q */
static int64_t zpow[512]; /* zeta^k, zeta = 1753 of order 512 */
static unsigned ntt_exp[N]; /* 2 BitRev8(i) + 1 */
static unsigned brv8(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 8; ++i) r |= ((x >> i) & 1u) << (7 - i);
  return r;
}
static void models_init(void) {
  MONT = pow_mod(2, 32);
  MONT_INV = pow_mod(MONT, (uint64_t)(Q - 2));
  INTT_F = pow_mod(256, (uint64_t)(Q - 2)) * MONT % Q;
  for (int k = 0; k < 512; ++k) zpow[k] = pow_mod(1753, (uint64_t)k);
  for (unsigned i = 0; i < N; ++i) ntt_exp[i] = 2 * brv8(i) + 1;
}

/* FIPS 204: NTT(w)[i] = w(zeta^(2 BitRev8(i) + 1)), straight evaluation. */
static void model_ntt(int32_t a[N]) {
  int32_t out[N];
  for (unsigned i = 0; i < N; ++i) {
    unsigned e = ntt_exp[i];
    int64_t acc = 0;
    for (unsigned j = 0; j < N; ++j) acc += (int64_t)a[j] * zpow[(e * j) % 512];
    out[i] = centered(acc);
  }
  memcpy(a, out, sizeof out);
}
/* INTT(a) * 2^32: w_j = 256^-1 sum_i a_i zeta^-(2 BitRev8(i) + 1) j. */
static void model_invntt_tomont(int32_t a[N]) {
  int32_t out[N];
  for (unsigned j = 0; j < N; ++j) {
    int64_t acc = 0;
    for (unsigned i = 0; i < N; ++i) {
      unsigned e = (ntt_exp[i] * j) % 512;
      acc += (int64_t)a[i] * zpow[(512 - e) % 512];
    }
    out[j] = centered(mod_q(acc) * INTT_F);
  }
  memcpy(a, out, sizeof out);
}
static void model_ntt_reorder(int32_t a[N]) { (void)a; }
static void model_pointwise_montgomery(int32_t c[N], const int32_t a[N], const int32_t b[N]) {
  for (unsigned i = 0; i < N; ++i) c[i] = centered(mod_q((int64_t)a[i] * b[i]) * MONT_INV);
}
static void model_pointwise_acc(int32_t c[N], const int32_t *a, const int32_t *b, unsigned len) {
  for (unsigned i = 0; i < N; ++i) {
    int64_t acc = 0;
    for (unsigned j = 0; j < len; ++j) acc += mod_q((int64_t)a[j * N + i] * b[j * N + i]);
    c[i] = centered(mod_q(acc) * MONT_INV);
  }
}
static void model_add(int32_t c[N], const int32_t a[N], const int32_t b[N]) {
  for (unsigned i = 0; i < N; ++i) c[i] = (int32_t)((int64_t)a[i] + b[i]);
}
static void model_sub(int32_t c[N], const int32_t a[N], const int32_t b[N]) {
  for (unsigned i = 0; i < N; ++i) c[i] = (int32_t)((int64_t)a[i] - b[i]);
}
static void model_reduce32(int32_t a[N]) { /* a - round(a / 2^23) q, ties up */
  for (unsigned i = 0; i < N; ++i)
    a[i] = (int32_t)(a[i] - floor_div((int64_t)a[i] + (1 << 22), 1 << 23) * Q);
}
static void model_caddq(int32_t a[N]) {
  for (unsigned i = 0; i < N; ++i) a[i] = (int32_t)(a[i] < 0 ? a[i] + Q : a[i]);
}
static void model_shiftl(int32_t a[N]) {
  for (unsigned i = 0; i < N; ++i) a[i] = (int32_t)((int64_t)a[i] * (1 << MLDSA_D));
}
/* Alg. 35: r0 = r mod+- 2^d in (-2^(d-1), 2^(d-1)], r1 = (r - r0) / 2^d. */
static void model_power2round(int32_t a1[N], int32_t a0[N], const int32_t a[N]) {
  for (unsigned i = 0; i < N; ++i) {
    int64_t r = mod_q(a[i]), r0 = r % (1 << MLDSA_D);
    if (r0 > (1 << (MLDSA_D - 1))) r0 -= 1 << MLDSA_D;
    a0[i] = (int32_t)r0;
    a1[i] = (int32_t)((r - r0) >> MLDSA_D);
  }
}
/* Alg. 36 with a division. */
static void decompose1(int g, int32_t r, int32_t *r1, int32_t *r0) {
  int64_t rp = mod_q(r), two = 2 * (int64_t)GAMMA2[g], lo = rp % two;
  if (lo > GAMMA2[g]) lo -= two;
  if (rp - lo == Q - 1) {
    *r1 = 0;
    *r0 = (int32_t)(lo - 1);
  } else {
    *r1 = (int32_t)((rp - lo) / two);
    *r0 = (int32_t)lo;
  }
}
static void model_decompose(int g, int32_t a1[N], int32_t a0[N], const int32_t a[N]) {
  int32_t hi[N], lo[N];
  for (unsigned i = 0; i < N; ++i) decompose1(g, a[i], &hi[i], &lo[i]);
  memcpy(a1, hi, sizeof hi);
  memcpy(a0, lo, sizeof lo);
}
/* kernels.h: h = 1 where a0 > g2 or a0 < -g2 or (a0 == -g2 and a1 != 0). */
static unsigned model_make_hint(int g, int32_t h[N], const int32_t a0[N], const int32_t a1[N]) {
  unsigned n = 0;
  int32_t out[N];
  for (unsigned i = 0; i < N; ++i) {
    int32_t g2 = GAMMA2[g];
    out[i] = a0[i] > g2 || a0[i] < -g2 || (a0[i] == -g2 && a1[i] != 0);
    n += (unsigned)out[i];
  }
  memcpy(h, out, sizeof out);
  return n;
}
/* Alg. 40. */
static void model_use_hint(int g, int32_t b[N], const int32_t a[N], const int32_t h[N]) {
  int32_t out[N], m = hi_count(g);
  for (unsigned i = 0; i < N; ++i) {
    int32_t r1, r0;
    decompose1(g, a[i], &r1, &r0);
    if (h[i] == 1 && r0 > 0)
      out[i] = (r1 + 1) % m;
    else if (h[i] == 1 && r0 <= 0)
      out[i] = (r1 - 1 + m) % m;
    else
      out[i] = r1;
  }
  memcpy(b, out, sizeof out);
}
static int model_chknorm(const int32_t a[N], int32_t bound) {
  for (unsigned i = 0; i < N; ++i)
    if (llabs((long long)a[i]) >= bound) return 1;
  return 0;
}
/* FIPS 204 Alg. 19 with b = bitlen(2 gamma1 - 1): bit j of coefficient i is bit
 * b i + j of the buffer, bit k of the buffer is bit k mod 8 of byte k / 8. */
static void model_unpack_z(int g, int32_t a[N], const uint8_t *buf) {
  const int32_t gamma1 = g ? 1 << 19 : 1 << 17;
  const unsigned b = g ? 20 : 18;
  for (unsigned i = 0; i < N; ++i) {
    int32_t v = 0;
    for (unsigned j = 0; j < b; ++j) v |= ((buf[(b * i + j) / 8] >> ((b * i + j) % 8)) & 1) << j;
    a[i] = gamma1 - v;
  }
}
/* FIPS 204 Alg. 16 and 28: bit j of coefficient i is bit b i + j of the output. */
static void model_pack_w1(int g, uint8_t *out, const int32_t a[N]) {
  const unsigned b = g ? 4 : 6;
  memset(out, 0, N * b / 8);
  for (unsigned i = 0; i < N; ++i)
    for (unsigned j = 0; j < b; ++j)
      out[(b * i + j) / 8] |= (uint8_t)(((a[i] >> j) & 1) << ((b * i + j) % 8));
}
/* FIPS 204 Alg. 17: bit j of gamma1 - z_i is bit b i + j of the output. */
static void model_pack_z(int g, uint8_t *out, const int32_t z[N]) {
  const int32_t gamma1 = g ? 1 << 19 : 1 << 17;
  const unsigned b = g ? 20 : 18;
  memset(out, 0, N * b / 8);
  for (unsigned i = 0; i < N; ++i)
    for (unsigned j = 0; j < b; ++j)
      out[(b * i + j) / 8] |= (uint8_t)((((gamma1 - z[i]) >> j) & 1) << ((b * i + j) % 8));
}
static void model_pack_z_g17(uint8_t *out, const int32_t *z) { model_pack_z(0, out, z); }
static void model_pack_z_g19(uint8_t *out, const int32_t *z) { model_pack_z(1, out, z); }
static void model_pack_w1_g88(uint8_t *out, const int32_t *a) { model_pack_w1(0, out, a); }
static void model_pack_w1_g32(uint8_t *out, const int32_t *a) { model_pack_w1(1, out, a); }
static void model_unpack_z_g17(int32_t *a, const uint8_t *buf) { model_unpack_z(0, a, buf); }
static void model_unpack_z_g19(int32_t *a, const uint8_t *buf) { model_unpack_z(1, a, buf); }
static void model_decompose_g88(int32_t *a1, int32_t *a0, const int32_t *a) {
  model_decompose(0, a1, a0, a);
}
static void model_decompose_g32(int32_t *a1, int32_t *a0, const int32_t *a) {
  model_decompose(1, a1, a0, a);
}
static unsigned model_make_hint_g88(int32_t *h, const int32_t *a0, const int32_t *a1) {
  return model_make_hint(0, h, a0, a1);
}
static unsigned model_make_hint_g32(int32_t *h, const int32_t *a0, const int32_t *a1) {
  return model_make_hint(1, h, a0, a1);
}
static void model_use_hint_g88(int32_t *b, const int32_t *a, const int32_t *h) {
  model_use_hint(0, b, a, h);
}
static void model_use_hint_g32(int32_t *b, const int32_t *a, const int32_t *h) {
  model_use_hint(1, b, a, h);
}

static const isa_t model = {
    .name = "FIPS 204 model",
    .has = NULL,
    .ntt = model_ntt,
    .invntt_tomont = model_invntt_tomont,
    .ntt_reorder = model_ntt_reorder,
    .reduce32 = model_reduce32,
    .caddq = model_caddq,
    .shiftl = model_shiftl,
    .pointwise_montgomery = model_pointwise_montgomery,
    .add = model_add,
    .sub = model_sub,
    .pointwise_acc = model_pointwise_acc,
    .power2round = model_power2round,
    .decompose = {model_decompose_g88, model_decompose_g32},
    .make_hint = {model_make_hint_g88, model_make_hint_g32},
    .use_hint = {model_use_hint_g88, model_use_hint_g32},
    .chknorm = model_chknorm,
    .unpack_z = {model_unpack_z_g17, model_unpack_z_g19},
    .pack_w1 = {model_pack_w1_g88, model_pack_w1_g32},
    .pack_z = {model_pack_z_g17, model_pack_z_g19},
};

/* Schoolbook a*b mod (X^256 + 1, q), centered. */
static void negacyclic_mul_acc(int64_t acc[N], const int32_t a[N], const int32_t b[N]) {
  for (unsigned i = 0; i < N; ++i) {
    int64_t ai = a[i];
    for (unsigned j = 0; j < N; ++j) {
      int64_t p = mod_q(ai * b[j]);
      if (i + j < N)
        acc[i + j] += p;
      else
        acc[i + j - N] -= p;
    }
  }
}

/* ------------------------------------------------------------------------------------ */
/* PRNG (xoshiro256**, seeded per test from MLDSA_TEST_SEED, the ISA and the kernel)     */

static uint64_t g_seed;
static uint64_t rs[4];
static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
static void rng_seed(uint64_t seed) {
  for (int i = 0; i < 4; ++i) rs[i] = splitmix(&seed);
}
static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t rng(void) {
  uint64_t r = rotl(rs[1] * 5, 7) * 9, t = rs[1] << 17;
  rs[2] ^= rs[0];
  rs[3] ^= rs[1];
  rs[1] ^= rs[2];
  rs[0] ^= rs[3];
  rs[2] ^= t;
  rs[3] = rotl(rs[3], 45);
  return r;
}
static int64_t rnd_in(int64_t lo, int64_t hi) {
  return lo + (int64_t)(rng() % (uint64_t)(hi - lo + 1));
}
static int64_t clamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* One coefficient in [lo, hi], biased toward the edges of the range and the usual
 * trouble spots (0, +-1, +-q, +-(q-1)). */
static int32_t rnd_coef(int64_t lo, int64_t hi) {
  static const int64_t special[] = {0, 1, -1, MLDSA_Q, -MLDSA_Q, MLDSA_Q - 1, -(MLDSA_Q - 1),
                                    MLDSA_Q + 1, -(MLDSA_Q + 1), (MLDSA_Q - 1) / 2,
                                    -(MLDSA_Q - 1) / 2, 1 << 22, -(1 << 22), 1 << 23};
  uint64_t r = rng();
  unsigned sel = r & 15;
  r >>= 8;
  if (sel < 10) return (int32_t)rnd_in(lo, hi);
  if (sel < 12) return (int32_t)clamp(lo + (int64_t)(r % 4), lo, hi);
  if (sel < 14) return (int32_t)clamp(hi - (int64_t)(r % 4), lo, hi);
  if (sel == 14) return (int32_t)clamp((int64_t)(r % 7) - 3, lo, hi);
  return (int32_t)clamp(special[r % (sizeof special / sizeof special[0])], lo, hi);
}
/* n coefficients in [lo, hi]: uniform, edge-biased, or extremes only (lo, hi, 0). */
static void rnd_poly(int32_t *p, size_t n, int64_t lo, int64_t hi) {
  unsigned style = (unsigned)(rng() % 8);
  for (size_t i = 0; i < n; ++i) {
    if (style < 3) {
      p[i] = (int32_t)rnd_in(lo, hi);
    } else if (style < 7) {
      p[i] = rnd_coef(lo, hi);
    } else {
      uint64_t r = rng() % 5;
      p[i] = (int32_t)(r < 2 ? lo : r < 4 ? hi : clamp(0, lo, hi));
    }
  }
}

/* ------------------------------------------------------------------------------------ */
/* Guarded arrays                                                                        */

enum { R_OUT0, R_OUT1, R_IN0, R_IN1, NROLES };
enum { PL_ALIGNED, PL_MISALIGNED, PL_PAGE_END, PL_PAGE_START, NPL };
static const char *const PL_NAME[NPL] = {"64-byte aligned", "misaligned by 4 bytes",
                                         "ending at an inaccessible page",
                                         "starting after an inaccessible page"};
#define GUARD 16
#define POISON ((int32_t)0xAAAAAAAAu)

static struct {
  int32_t *rw; /* readable and writable words, inaccessible pages on both sides */
  size_t words;
  size_t off, n; /* the array in use: rw[off .. off + n) */
} slot[NROLES];

static uint32_t canary(size_t k) { return 0x5AC3F00Du ^ (uint32_t)(k * 2654435761u); }

static void arena_init(void) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t need = 256 + 64 + (NPOLY_MAX * N + GUARD) * sizeof(int32_t);
  size_t rw = (need + page - 1) / page * page;
  for (int r = 0; r < NROLES; ++r) {
    uint8_t *m = mmap(NULL, rw + 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);
    if (m == MAP_FAILED || mprotect(m, page, PROT_NONE) != 0 ||
        mprotect(m + page + rw, page, PROT_NONE) != 0) {
      perror("test_kernels: mmap/mprotect");
      exit(EXIT_FAILURE);
    }
    slot[r].rw = (int32_t *)(void *)(m + page);
    slot[r].words = rw / sizeof(int32_t);
  }
}

/* Places an n-word array for role r, arms the canaries around it. */
static int32_t *slot_arm(int r, int pl, size_t n) {
  size_t off;
  switch (pl) {
    case PL_ALIGNED: off = 64; break;    /* 256 bytes in: 64-byte aligned */
    case PL_MISALIGNED: off = 65; break; /* 4 bytes past that */
    case PL_PAGE_END: off = slot[r].words - n; break;
    default: off = 0; break;
  }
  slot[r].off = off;
  slot[r].n = n;
  int32_t *w = slot[r].rw;
  for (size_t k = off >= GUARD ? off - GUARD : 0; k < off; ++k) w[k] = (int32_t)canary(k);
  for (size_t k = off + n; k < off + n + GUARD && k < slot[r].words; ++k)
    w[k] = (int32_t)canary(k);
  return w + off;
}
static int32_t *slot_put(int r, int pl, const int32_t *src, size_t n) {
  int32_t *p = slot_arm(r, pl, n);
  memcpy(p, src, n * sizeof *p);
  return p;
}
static int32_t *slot_poison(int r, int pl, size_t n) {
  int32_t *p = slot_arm(r, pl, n);
  for (size_t i = 0; i < n; ++i) p[i] = POISON;
  return p;
}

/* ------------------------------------------------------------------------------------ */
/* Test context and failure reports                                                      */

static const isa_t *T;   /* under test */
static const isa_t *REF; /* scalar, or the models when T is scalar */
static int T_index;

static struct {
  const char *kernel;
  char vcase[160];
  int pl;
  char alias[64];
  uint64_t seed;
  int nin;
  const char *in_name[4];
  const int32_t *in[4];
  size_t in_len[4];
  char param[64];
} C;

/* Counters shared with Check's forked children: kernel calls compared per ISA. */
static struct shared_counts {
  unsigned long long calls[NISAS];
} *shm;

static void count_call(void) { shm->calls[T_index]++; }

static void set_in(int k, const char *name, const int32_t *p, size_t n) {
  C.in_name[k] = name;
  C.in[k] = p;
  C.in_len[k] = n;
  if (C.nin < k + 1) C.nin = k + 1;
}

static void dump(const char *name, const int32_t *p, size_t n) {
  fprintf(stderr, "  %s[%zu] = {", name, n);
  for (size_t i = 0; i < n; ++i) fprintf(stderr, "%s%11" PRId32 ",", i % 8 ? "" : "\n   ", p[i]);
  fprintf(stderr, "\n  }\n");
}

/* Reports a failure and ends the test: what failed and where, the one-line reason, the
 * input coefficients at index idx (when idx >= 0), then the whole input arrays and, when
 * given, the expected and actual outputs. */
static void fail_with(const char *msg, long idx, const int32_t *exp, const int32_t *got,
                      size_t n) {
  fprintf(stderr,
          "\nkernels %s: %s FAILED against %s\n  case: %s\n  arrays (of the last kernel call): "
          "%s; %s\n  replay: MLDSA_TEST_SEED=0x%llx (test seed 0x%016llx)\n",
          T->name, C.kernel, REF->name, C.vcase, PL_NAME[C.pl], C.alias,
          (unsigned long long)g_seed, (unsigned long long)C.seed);
  if (C.param[0]) fprintf(stderr, "  %s\n", C.param);
  fprintf(stderr, "  %s\n", msg);
  if (idx >= 0)
    for (int k = 0; k < C.nin; ++k)
      for (size_t j = (size_t)idx % N; C.in[k] != NULL && j < C.in_len[k]; j += N)
        fprintf(stderr, "  input %s[%zu] = %" PRId32 "\n", C.in_name[k], j, C.in[k][j]);
  for (int k = 0; k < C.nin; ++k)
    if (C.in[k] != NULL) dump(C.in_name[k], C.in[k], C.in_len[k]);
  if (exp != NULL) dump("expected", exp, n);
  if (got != NULL) dump("got", got, n);
  fflush(stderr);
  ck_abort_msg("%s %s (%s): %s", T->name, C.kernel, C.vcase, msg);
}

#define FAIL_AT(idx, exp, got, n, ...)        \
  do {                                        \
    char msg_[600];                           \
    snprintf(msg_, sizeof msg_, __VA_ARGS__); \
    fail_with(msg_, (idx), (exp), (got), (n)); \
  } while (0)

static void guards_ok(int r, const char *name) {
  int32_t *w = slot[r].rw;
  size_t off = slot[r].off, n = slot[r].n;
  size_t ranges[2][2] = {{off >= GUARD ? off - GUARD : 0, off},
                         {off + n, off + n + GUARD < slot[r].words ? off + n + GUARD
                                                                   : slot[r].words}};
  for (int s = 0; s < 2; ++s)
    for (size_t k = ranges[s][0]; k < ranges[s][1]; ++k)
      if ((uint32_t)w[k] != canary(k)) {
        FAIL_AT(-1, NULL, NULL, 0,
                "wrote outside %s[0..%zu): word %s[%lld] changed from 0x%08" PRIx32
                " to 0x%08" PRIx32,
              name, n, name, (long long)k - (long long)off, canary(k), (uint32_t)w[k]);
      }
}

static void unchanged(int r, const int32_t *orig, size_t from, size_t to, const char *name) {
  const int32_t *p = slot[r].rw + slot[r].off;
  for (size_t i = from; i < to; ++i)
    if (p[i] != orig[i]) {
      FAIL_AT((long)i, NULL, NULL, 0,
              "modified its const input %s: %s[%zu] was %" PRId32 ", is %" PRId32, name, name,
              i, orig[i], p[i]);
    }
}

static void report_diff(const char *what, size_t i, const int32_t *exp, const int32_t *got,
                        size_t n, const char *how) {
  FAIL_AT((long)i, exp, got, n,
          "first difference in %s at index %zu: expected %" PRId32 ", got %" PRId32 " (%s)",
          what, i, exp[i], got[i], how);
}

static void expect_exact(const char *what, const int32_t *exp, const int32_t *got, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (exp[i] != got[i]) report_diff(what, i, exp, got, n, "exact comparison");
}

/* got == exp mod q and lo <= got <= hi. */
static void expect_modq(const char *what, const int32_t *exp, const int32_t *got, size_t n,
                        int64_t lo, int64_t hi) {
  for (size_t i = 0; i < n; ++i) {
    char how[128];
    if (mod_q((int64_t)got[i] - exp[i]) != 0) {
      snprintf(how, sizeof how, "not congruent mod q; must be in [%lld, %lld]", (long long)lo,
               (long long)hi);
      report_diff(what, i, exp, got, n, how);
    }
    if (got[i] < lo || got[i] > hi) {
      snprintf(how, sizeof how, "congruent mod q but outside the bound [%lld, %lld]",
               (long long)lo, (long long)hi);
      report_diff(what, i, exp, got, n, how);
    }
  }
}

static uint64_t hash_name(const char *s) {
  uint64_t h = 0xcbf29ce484222325u;
  for (; *s; ++s) h = (h ^ (unsigned char)*s) * 0x100000001b3u;
  return h;
}

static long g_iters = 10000;
static int g_exhaustive = 1;

/* A kernel that faults (out-of-bounds access onto a guard page, an instruction the CPU
 * lacks) kills the forked test; say where before Check reports the signal. */
static void on_crash(int sig) {
  fprintf(stderr,
          "\nkernels %s: %s CRASHED with signal %d (%s)\n  case: %s\n  arrays (of the call "
          "in progress): %s; %s\n  replay: MLDSA_TEST_SEED=0x%llx\n",
          T->name, C.kernel, sig,
          sig == SIGSEGV || sig == SIGBUS ? "out-of-bounds access? arrays placed next to an "
                                            "inaccessible page fault there"
          : sig == SIGILL                 ? "an instruction this CPU lacks?"
                                          : "arithmetic fault",
          C.vcase, PL_NAME[C.pl], C.alias, (unsigned long long)g_seed);
  fflush(stderr);
  signal(sig, SIG_DFL);
  raise(sig);
}

static void begin(int i, const char *kernel) {
  static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
  for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; ++k) signal(sigs[k], on_crash);
  T_index = i;
  T = &isas[i];
  REF = i == 0 ? &model : &isas[0];
  memset(&C, 0, sizeof C);
  C.kernel = kernel;
  snprintf(C.alias, sizeof C.alias, "no aliasing");
  snprintf(C.vcase, sizeof C.vcase, "setup");
  uint64_t s = g_seed ^ hash_name(kernel) ^ ((uint64_t)(i + 1) << 56);
  C.seed = splitmix(&s);
  rng_seed(C.seed);
}

/* Fewer iterations where the reference is the O(n^2) model. */
static long iters_for(int expensive) { return expensive && REF == &model ? g_iters / 10 : g_iters; }

#define CASE(...) snprintf(C.vcase, sizeof C.vcase, __VA_ARGS__)

/* ------------------------------------------------------------------------------------ */
/* Running one kernel call on guarded arrays                                              */

static void run_inplace(k_inplace k, int pl, const int32_t in[N], int32_t out[N],
                        const char *name) {
  C.pl = pl;
  snprintf(C.alias, sizeof C.alias, "in place");
  int32_t *p = slot_put(R_OUT0, pl, in, N);
  k(p);
  guards_ok(R_OUT0, name);
  memcpy(out, p, N * sizeof *p);
  count_call();
}

/* out = k(in0, in1); alias 0: separate, 1: out is in0, 2: out is in1. nm = {out, in0, in1}. */
static void run_bin(k_bin k, int pl, int alias, const int32_t a[N], const int32_t b[N],
                    int32_t out[N], const char *const nm[3]) {
  C.pl = pl;
  if (alias)
    snprintf(C.alias, sizeof C.alias, "%s aliases %s", nm[0], nm[alias]);
  else
    snprintf(C.alias, sizeof C.alias, "no aliasing");
  int32_t *pa = slot_put(R_IN0, pl, a, N);
  int32_t *pb = slot_put(R_IN1, (pl + 1) % NPL, b, N);
  int32_t *pc = alias == 1 ? pa : alias == 2 ? pb : slot_poison(R_OUT0, (pl + 2) % NPL, N);
  k(pc, pa, pb);
  if (alias == 0) guards_ok(R_OUT0, nm[0]);
  guards_ok(R_IN0, nm[1]);
  guards_ok(R_IN1, nm[2]);
  if (alias != 1) unchanged(R_IN0, a, 0, N, nm[1]);
  if (alias != 2) unchanged(R_IN1, b, 0, N, nm[2]);
  memcpy(out, pc, N * sizeof *pc);
  count_call();
}

static unsigned run_hint(k_hint k, int pl, int alias, const int32_t a0[N], const int32_t a1[N],
                         int32_t h[N]) {
  static const char *const nm[3] = {"h", "a0", "a1"};
  C.pl = pl;
  if (alias)
    snprintf(C.alias, sizeof C.alias, "h aliases %s", nm[alias]);
  else
    snprintf(C.alias, sizeof C.alias, "no aliasing");
  int32_t *pa = slot_put(R_IN0, pl, a0, N);
  int32_t *pb = slot_put(R_IN1, (pl + 1) % NPL, a1, N);
  int32_t *ph = alias == 1 ? pa : alias == 2 ? pb : slot_poison(R_OUT0, (pl + 2) % NPL, N);
  unsigned n = k(ph, pa, pb);
  if (alias == 0) guards_ok(R_OUT0, nm[0]);
  guards_ok(R_IN0, nm[1]);
  guards_ok(R_IN1, nm[2]);
  if (alias != 1) unchanged(R_IN0, a0, 0, N, nm[1]);
  if (alias != 2) unchanged(R_IN1, a1, 0, N, nm[2]);
  memcpy(h, ph, N * sizeof *ph);
  count_call();
  return n;
}

/* (o1, o0) = k(a); alias 0: separate, 1: o1 is a, 2: o0 is a. */
static void run_two(k_two k, int pl, int alias, const int32_t a[N], int32_t o1[N], int32_t o0[N],
                    const char *const nm[3]) {
  C.pl = pl;
  if (alias)
    snprintf(C.alias, sizeof C.alias, "%s aliases %s", nm[alias - 1], nm[2]);
  else
    snprintf(C.alias, sizeof C.alias, "no aliasing");
  int32_t *pa = slot_put(R_IN0, pl, a, N);
  int32_t *p1 = alias == 1 ? pa : slot_poison(R_OUT0, (pl + 1) % NPL, N);
  int32_t *p0 = alias == 2 ? pa : slot_poison(R_OUT1, (pl + 2) % NPL, N);
  k(p1, p0, pa);
  if (alias != 1) guards_ok(R_OUT0, nm[0]);
  if (alias != 2) guards_ok(R_OUT1, nm[1]);
  guards_ok(R_IN0, nm[2]);
  if (alias == 0) unchanged(R_IN0, a, 0, N, nm[2]);
  memcpy(o1, p1, N * sizeof *p1);
  memcpy(o0, p0, N * sizeof *p0);
  count_call();
}

/* c = acc(a, b, len); alias 1: c is a's first polynomial, 2: b's. */
static void run_acc(k_acc k, int pl, int alias, const int32_t *a, const int32_t *b, unsigned len,
                    int32_t c[N]) {
  C.pl = pl;
  if (alias)
    snprintf(C.alias, sizeof C.alias, "c aliases the first polynomial of %s", alias == 1 ? "a" : "b");
  else
    snprintf(C.alias, sizeof C.alias, "no aliasing");
  int32_t *pa = slot_put(R_IN0, pl, a, len * N);
  int32_t *pb = slot_put(R_IN1, (pl + 1) % NPL, b, len * N);
  int32_t *pc = alias == 1 ? pa : alias == 2 ? pb : slot_poison(R_OUT0, (pl + 2) % NPL, N);
  k(pc, pa, pb, len);
  if (alias == 0) guards_ok(R_OUT0, "c");
  guards_ok(R_IN0, "a");
  guards_ok(R_IN1, "b");
  unchanged(R_IN0, a, alias == 1 ? N : 0, len * N, "a");
  unchanged(R_IN1, b, alias == 2 ? N : 0, len * N, "b");
  memcpy(c, pc, N * sizeof *pc);
  count_call();
}

/* a = k(buf), buf of nbytes (a whole number of words) in guarded memory. */
static void run_unpack(k_unpack k, int pl, const uint8_t *buf, size_t nbytes, int32_t a[N]) {
  C.pl = pl;
  snprintf(C.alias, sizeof C.alias, "no aliasing");
  int32_t words[NPOLY_MAX * N];
  memcpy(words, buf, nbytes);
  int32_t *pb = slot_put(R_IN0, pl, words, nbytes / 4);
  int32_t *pa = slot_poison(R_OUT0, (pl + 1) % NPL, N);
  k(pa, (const uint8_t *)pb);
  guards_ok(R_OUT0, "a");
  guards_ok(R_IN0, "buf");
  unchanged(R_IN0, words, 0, nbytes / 4, "buf");
  memcpy(a, pa, N * sizeof *pa);
  count_call();
}

static void run_pack(k_pack k, int pl, const int32_t a[N], uint8_t *out, size_t nbytes) {
  C.pl = pl;
  snprintf(C.alias, sizeof C.alias, "no aliasing");
  int32_t *pa = slot_put(R_IN0, pl, a, N);
  int32_t *po = slot_poison(R_OUT0, (pl + 1) % NPL, nbytes / 4);
  k((uint8_t *)po, pa);
  guards_ok(R_OUT0, "out");
  guards_ok(R_IN0, "a");
  unchanged(R_IN0, a, 0, N, "a");
  memcpy(out, po, nbytes);
  count_call();
}

static int run_norm(k_norm k, int pl, const int32_t a[N], int32_t bound) {
  C.pl = pl;
  snprintf(C.alias, sizeof C.alias, "no output array");
  int32_t *pa = slot_put(R_IN0, pl, a, N);
  int r = k(pa, bound);
  guards_ok(R_IN0, "a");
  unchanged(R_IN0, a, 0, N, "a");
  count_call();
  return r;
}

/* ------------------------------------------------------------------------------------ */
/* Edge polynomials from lists of edge values                                             */

typedef struct {
  int32_t (*a)[N];
  int32_t (*b)[N];
  char (*label)[96];
  size_t n, cap;
} polyset;

static void ps_free(polyset *s) {
  free(s->a);
  free(s->b);
  free(s->label);
  memset(s, 0, sizeof *s);
}
static void ps_add(polyset *s, const int32_t *a, const int32_t *b, const char *label) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    s->a = realloc(s->a, s->cap * sizeof *s->a);
    s->b = realloc(s->b, s->cap * sizeof *s->b);
    s->label = realloc(s->label, s->cap * sizeof *s->label);
    ck_assert_msg(s->a && s->b && s->label, "out of memory");
  }
  memcpy(s->a[s->n], a, sizeof s->a[0]);
  if (b)
    memcpy(s->b[s->n], b, sizeof s->b[0]);
  else
    memset(s->b[s->n], 0, sizeof s->b[0]);
  snprintf(s->label[s->n], sizeof s->label[0], "%s", label);
  s->n++;
}

/* Edges of a one-input kernel: every value packed side by side (also shifted, so each
 * value visits other lanes), every value as a constant polynomial, alternating pairs
 * (all pairs for short lists, else the first two against each other). */
static void ps_values(polyset *s, const int32_t *v, size_t nv) {
  int32_t p[N];
  char label[96];
  for (size_t shift = 0; shift < 3; ++shift)
    for (size_t st = 0; st < nv; st += N) {
      for (size_t i = 0; i < N; ++i) p[i] = v[(st + i + shift * 5) % nv];
      snprintf(label, sizeof label, "edge: values %zu.. of %zu side by side, shift %zu", st, nv,
               shift * 5);
      ps_add(s, p, NULL, label);
    }
  for (size_t k = 0; k < nv && k < 2048; ++k) {
    for (size_t i = 0; i < N; ++i) p[i] = v[k];
    snprintf(label, sizeof label, "edge: all coefficients %" PRId32, v[k]);
    ps_add(s, p, NULL, label);
  }
  /* all pairs of a short list; the two ends (its extremes) of a long one */
  for (size_t x = 0; x < nv; ++x)
    for (size_t y = 0; y < nv; ++y) {
      if (x == y || (nv > 24 && ((x != 0 && x != nv - 1) || (y != 0 && y != nv - 1)))) continue;
      for (size_t i = 0; i < N; ++i) p[i] = i & 1 ? v[y] : v[x];
      snprintf(label, sizeof label, "edge: alternating %" PRId32 ", %" PRId32, v[x], v[y]);
      ps_add(s, p, NULL, label);
    }
}

/* Edges of a two-input elementwise kernel: all (a, b) pairs of va x vb side by side, each
 * pair as constant polynomials when there are few, and alternating extremes. */
static void ps_pairs(polyset *s, const int32_t *va, size_t na, const int32_t *vb, size_t nb) {
  int32_t a[N], b[N];
  char label[96];
  size_t np = na * nb;
  for (size_t shift = 0; shift < 2; ++shift)
    for (size_t st = 0; st < np; st += N) {
      for (size_t i = 0; i < N; ++i) {
        size_t k = (st + i + shift * 7) % np;
        a[i] = va[k / nb];
        b[i] = vb[k % nb];
      }
      snprintf(label, sizeof label, "edge: pairs %zu.. of %zu side by side, shift %zu", st, np,
               shift * 7);
      ps_add(s, a, b, label);
    }
  if (np <= 1024)
    for (size_t k = 0; k < np; ++k) {
      for (size_t i = 0; i < N; ++i) {
        a[i] = va[k / nb];
        b[i] = vb[k % nb];
      }
      snprintf(label, sizeof label, "edge: all a = %" PRId32 ", all b = %" PRId32, a[0], b[0]);
      ps_add(s, a, b, label);
    }
  /* alternating first/last of each list (the lists start and end with their extremes) */
  for (int m = 0; m < 4; ++m) {
    for (size_t i = 0; i < N; ++i) {
      a[i] = (i & 1) ^ (size_t)(m & 1) ? va[na - 1] : va[0];
      b[i] = (i & 1) ^ (size_t)(m >> 1) ? vb[nb - 1] : vb[0];
    }
    snprintf(label, sizeof label, "edge: alternating extremes, pattern %d", m);
    ps_add(s, a, b, label);
  }
}

/* Keeps the values of v[0..n) inside [lo, hi]; returns the new count. */
static size_t filter(int32_t *v, size_t n, int64_t lo, int64_t hi) {
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (v[i] >= lo && v[i] <= hi) v[k++] = v[i];
  return k;
}

/* ------------------------------------------------------------------------------------ */
/* ntt, invntt_tomont, ntt_reorder                                                        */

#define NTT_IN_MAX (MLDSA_Q - 1)
#define NTT_OUT_MAX (9 * Q - 1)

/* Edge inputs of ntt / invntt: |a| <= q - 1. */
static void ntt_edges(polyset *s) {
  static const int32_t v[] = {-NTT_IN_MAX, -(NTT_IN_MAX - 1), -(MLDSA_Q - 1) / 2, -(1 << 22), -1, 0,
                              1, 1 << 22, (MLDSA_Q - 1) / 2, NTT_IN_MAX - 1, NTT_IN_MAX};
  ps_values(s, v, sizeof v / sizeof v[0]);
  int32_t p[N];
  char label[96];
  static const int32_t deltas[] = {NTT_IN_MAX, -NTT_IN_MAX, 1};
  for (size_t d = 0; d < 3; ++d)
    for (size_t k = 0; k < N; ++k) {
      memset(p, 0, sizeof p);
      p[k] = deltas[d];
      snprintf(label, sizeof label, "edge: a[%zu] = %" PRId32 ", others 0", k, deltas[d]);
      ps_add(s, p, NULL, label);
    }
  for (size_t blk = 1; blk < N; blk *= 2)
    for (int sg = 0; sg < 2; ++sg) {
      for (size_t i = 0; i < N; ++i) p[i] = ((i / blk) & 1) ^ (size_t)sg ? -NTT_IN_MAX : NTT_IN_MAX;
      snprintf(label, sizeof label, "edge: blocks of %zu alternating +-(q-1), phase %d", blk, sg);
      ps_add(s, p, NULL, label);
    }
}

static void check_ntt(const int32_t a[N], int pl) {
  int32_t got[N], exp[N];
  set_in(0, "a", a, N);
  run_inplace(T->ntt, pl, a, got, "a");
  memcpy(exp, a, sizeof exp);
  REF->ntt(exp);
  T->ntt_reorder(exp);
  expect_modq("ntt(a) vs ntt_reorder(ntt_ref(a))", exp, got, N, -NTT_OUT_MAX, NTT_OUT_MAX);
}

START_TEST(test_ntt) {
  begin(_i, "ntt");
  int32_t a[N];
  long n = iters_for(1);
  for (long it = 0; it < n; ++it) {
    CASE("random #%ld, |a| <= q-1", it);
    rnd_poly(a, N, -NTT_IN_MAX, NTT_IN_MAX);
    check_ntt(a, (int)(it % NPL));
  }
  polyset s = {0};
  ntt_edges(&s);
  for (size_t k = 0; k < s.n; ++k) {
    CASE("%s", s.label[k]);
    check_ntt(s.a[k], (int)(k % NPL));
  }
  ps_free(&s);
}
END_TEST

static void check_invntt(const int32_t b[N], int pl) {
  int32_t x[N], got[N], exp[N];
  memcpy(x, b, sizeof x);
  T->ntt_reorder(x);
  set_in(0, "b (standard order)", b, N);
  set_in(1, "ntt_reorder(b) (the kernel's input)", x, N);
  run_inplace(T->invntt_tomont, pl, x, got, "a");
  memcpy(exp, b, sizeof exp);
  REF->invntt_tomont(exp);
  expect_modq("invntt_tomont(ntt_reorder(b)) vs invntt_tomont_ref(b)", exp, got, N,
              -(Q - 1), Q - 1);
}

START_TEST(test_invntt_tomont) {
  begin(_i, "invntt_tomont");
  int32_t b[N];
  long n = iters_for(1);
  for (long it = 0; it < n; ++it) {
    CASE("random #%ld, |b| <= q-1", it);
    rnd_poly(b, N, -NTT_IN_MAX, NTT_IN_MAX);
    check_invntt(b, (int)(it % NPL));
  }
  polyset s = {0};
  ntt_edges(&s);
  for (size_t k = 0; k < s.n; ++k) {
    CASE("%s", s.label[k]);
    check_invntt(s.a[k], (int)(k % NPL));
  }
  ps_free(&s);
}
END_TEST

/* invntt(reduce32(ntt(a))) = a 2^32 and ntt(invntt(b)) = b 2^32 (mod q), with bounds. */
static void check_roundtrip(const int32_t a[N], int pl) {
  int32_t x[N], y[N], z[N], exp[N];
  set_in(0, "a", a, N);
  run_inplace(T->ntt, pl, a, x, "a");
  isas[0].reduce32(x);
  set_in(1, "reduce32(ntt(a))", x, N);
  run_inplace(T->invntt_tomont, (pl + 1) % NPL, x, y, "a");
  for (size_t i = 0; i < N; ++i) exp[i] = centered(a[i] * MONT);
  expect_modq("invntt_tomont(reduce32(ntt(a))) vs a*2^32", exp, y, N, -(Q - 1), Q - 1);

  memcpy(x, a, sizeof x);
  T->ntt_reorder(x);
  C.nin = 0;
  set_in(0, "b = ntt_reorder(a)", x, N);
  run_inplace(T->invntt_tomont, (pl + 2) % NPL, x, y, "a");
  set_in(1, "invntt_tomont(b)", y, N);
  run_inplace(T->ntt, (pl + 3) % NPL, y, z, "a");
  for (size_t i = 0; i < N; ++i) exp[i] = centered(x[i] * MONT);
  expect_modq("ntt(invntt_tomont(b)) vs b*2^32", exp, z, N, -NTT_OUT_MAX, NTT_OUT_MAX);
}

START_TEST(test_ntt_roundtrip) {
  begin(_i, "ntt/invntt_tomont round trip");
  int32_t a[N];
  for (long it = 0; it < g_iters; ++it) {
    CASE("random #%ld, |a| <= q-1", it);
    rnd_poly(a, N, -NTT_IN_MAX, NTT_IN_MAX);
    check_roundtrip(a, (int)(it % NPL));
  }
  polyset s = {0};
  ntt_edges(&s);
  for (size_t k = 0; k < s.n; ++k) {
    CASE("%s", s.label[k]);
    check_roundtrip(s.a[k], (int)(k % NPL));
  }
  ps_free(&s);
}
END_TEST

/* a*b and sum_j a_j*b_j mod (X^256 + 1, q) through the NTT-domain kernels, as sign and
 * verify compose them; inputs |a|, |b| <= q-1. */
START_TEST(test_ntt_multiply) {
  begin(_i, "polynomial product via ntt/pointwise/invntt_tomont");
  static int32_t a[NPOLY_MAX * N], b[NPOLY_MAX * N], ah[NPOLY_MAX * N], bh[NPOLY_MAX * N];
  int32_t c[N], got[N], exp[N];
  static const char *const nm[3] = {"c", "ntt(a)", "ntt(b)"};
  long n = g_iters / 10;
  for (long it = 0; it < n + 8; ++it) {
    int pl = (int)(it % NPL);
    if (it < n) {
      CASE("random #%ld, |a|, |b| <= q-1", it);
      rnd_poly(a, N, -NTT_IN_MAX, NTT_IN_MAX);
      rnd_poly(b, N, -NTT_IN_MAX, NTT_IN_MAX);
    } else {
      CASE("edge: a, b all +-(q-1), signs %ld", it - n);
      for (size_t i = 0; i < N; ++i) {
        a[i] = ((it - n) & 1) && (i & 1) ? -NTT_IN_MAX : NTT_IN_MAX;
        b[i] = ((it - n) & 2) ? -NTT_IN_MAX : ((it - n) & 4) && (i & 1) ? -NTT_IN_MAX : NTT_IN_MAX;
      }
    }
    C.nin = 0;
    set_in(0, "a", a, N);
    set_in(1, "b", b, N);
    run_inplace(T->ntt, pl, a, ah, "a");
    run_inplace(T->ntt, pl, b, bh, "a");
    run_bin(T->pointwise_montgomery, pl, 0, ah, bh, c, nm);
    run_inplace(T->invntt_tomont, pl, c, got, "a");
    int64_t acc[N] = {0};
    negacyclic_mul_acc(acc, a, b);
    for (size_t i = 0; i < N; ++i) exp[i] = centered(acc[i]);
    expect_modq("invntt_tomont(pointwise_montgomery(ntt(a), ntt(b))) vs a*b", exp, got, N,
                -(Q - 1), Q - 1);
  }
  long nacc = g_iters / 50 + 16;
  for (long it = 0; it < nacc; ++it) {
    int pl = (int)(it % NPL);
    unsigned len = 1 + (unsigned)(it % NPOLY_MAX);
    if (it < nacc - 16) {
      CASE("pointwise_acc, random #%ld, len %u, |a|, |b| <= q-1", it, len);
      rnd_poly(a, len * N, -NTT_IN_MAX, NTT_IN_MAX);
      rnd_poly(b, len * N, -NTT_IN_MAX, NTT_IN_MAX);
    } else {
      CASE("pointwise_acc, edge: all a, b = q-1, len %u, b negated: %d", len, (int)(it & 8));
      for (size_t i = 0; i < len * N; ++i) {
        a[i] = NTT_IN_MAX;
        b[i] = it & 8 ? -NTT_IN_MAX : NTT_IN_MAX;
      }
    }
    C.nin = 0;
    set_in(0, "a", a, len * N);
    set_in(1, "b", b, len * N);
    for (unsigned j = 0; j < len; ++j) {
      run_inplace(T->ntt, pl, a + j * N, ah + j * N, "a");
      run_inplace(T->ntt, pl, b + j * N, bh + j * N, "a");
    }
    run_acc(T->pointwise_acc, pl, 0, ah, bh, len, c);
    T->reduce32(c);
    run_inplace(T->invntt_tomont, pl, c, got, "a");
    int64_t acc[N] = {0};
    for (unsigned j = 0; j < len; ++j) negacyclic_mul_acc(acc, a + j * N, b + j * N);
    for (size_t i = 0; i < N; ++i) exp[i] = centered(acc[i]);
    expect_modq("invntt_tomont(reduce32(pointwise_acc(ntt(a_j), ntt(b_j)))) vs sum a_j*b_j", exp,
                got, N, -(Q - 1), Q - 1);
  }
}
END_TEST

START_TEST(test_ntt_reorder) {
  begin(_i, "ntt_reorder");
  int32_t idx[N], perm[N], x[N], got[N], exp[N];
  int seen[N] = {0};
  for (size_t i = 0; i < N; ++i) idx[i] = (int32_t)i;
  CASE("applied to 0..255");
  set_in(0, "a", idx, N);
  run_inplace(T->ntt_reorder, PL_ALIGNED, idx, perm, "a");
  for (size_t i = 0; i < N; ++i) {
    if (perm[i] < 0 || perm[i] >= N || seen[perm[i]]) {
      FAIL_AT(-1, NULL, perm, N, "not a permutation: ntt_reorder(0..255)[%zu] = %" PRId32 " is %s",
              i, perm[i], perm[i] < 0 || perm[i] >= N ? "out of range" : "a duplicate");
    }
    seen[perm[i]] = 1;
  }
  if (T == &isas[0]) expect_exact("ntt_reorder_scalar(0..255) vs identity", idx, perm, N);
  int identity = memcmp(idx, perm, sizeof idx) == 0;
  if (T != &isas[0]) {
    printf("kernels %s: ntt_reorder is %s\n", T->name,
           identity ? "the identity (standard NTT order)" : "a non-trivial permutation");
    fflush(stdout);
  }
  /* the same permutation whatever the data */
  for (long it = 0; it < g_iters / 10 + 3; ++it) {
    if (it < 3) {
      CASE("edge: all %s", it == 0 ? "q-1" : it == 1 ? "-(q-1)" : "alternating +-(9q-1)");
      for (size_t i = 0; i < N; ++i)
        x[i] = it == 0 ? NTT_IN_MAX : it == 1 ? -NTT_IN_MAX : (i & 1 ? -1 : 1) * (int32_t)NTT_OUT_MAX;
    } else {
      CASE("random #%ld, |a| <= 9q-1", it);
      rnd_poly(x, N, -NTT_OUT_MAX, NTT_OUT_MAX);
    }
    set_in(0, "a", x, N);
    run_inplace(T->ntt_reorder, (int)(it % NPL), x, got, "a");
    for (size_t i = 0; i < N; ++i) exp[i] = x[perm[i]];
    expect_exact("ntt_reorder(a) vs a permuted as ntt_reorder(0..255)", exp, got, N);
  }
}
END_TEST

/* ------------------------------------------------------------------------------------ */
/* pointwise_montgomery, pointwise_acc                                                    */

#define PW_IN_MAX ((int32_t)(9 * Q - 1))
static const int32_t pw_edge_values[] = {
    -PW_IN_MAX, -(PW_IN_MAX - 1), -4 * MLDSA_Q, -(1 << 25), -(MLDSA_Q + 1), -MLDSA_Q,
    -(MLDSA_Q - 1), -(1 << 22), -1, 0, 1, 1 << 22, MLDSA_Q - 1, MLDSA_Q, MLDSA_Q + 1, 1 << 25,
    4 * MLDSA_Q, PW_IN_MAX - 1, PW_IN_MAX};
#define N_PW_EDGE (sizeof pw_edge_values / sizeof pw_edge_values[0])

static void check_pw(const int32_t a[N], const int32_t b[N], int pl, int alias) {
  static const char *const nm[3] = {"c", "a", "b"};
  int32_t got[N], exp[N];
  C.nin = 0;
  set_in(0, "a", a, N);
  set_in(1, "b", b, N);
  run_bin(T->pointwise_montgomery, pl, alias, a, b, got, nm);
  REF->pointwise_montgomery(exp, a, b);
  expect_modq("c = a*b*2^-32", exp, got, N, -(Q - 1), Q - 1);
}

START_TEST(test_pointwise_montgomery) {
  begin(_i, "pointwise_montgomery");
  int32_t a[N], b[N];
  for (long it = 0; it < g_iters; ++it) {
    CASE("random #%ld, |a|, |b| <= 9q-1", it);
    rnd_poly(a, N, -PW_IN_MAX, PW_IN_MAX);
    rnd_poly(b, N, -PW_IN_MAX, PW_IN_MAX);
    check_pw(a, b, (int)(it % NPL), (int)(it % 3));
  }
  polyset s = {0};
  ps_pairs(&s, pw_edge_values, N_PW_EDGE, pw_edge_values, N_PW_EDGE);
  for (size_t k = 0; k < s.n; ++k) {
    CASE("%s", s.label[k]);
    check_pw(s.a[k], s.b[k], (int)(k % NPL), (int)(k % 3));
  }
  ps_free(&s);
}
END_TEST

static void check_acc(const int32_t *a, const int32_t *b, unsigned len, int pl, int alias) {
  int32_t got[N], exp[N];
  C.nin = 0;
  set_in(0, "a", a, len * N);
  set_in(1, "b", b, len * N);
  snprintf(C.param, sizeof C.param, "len = %u", len);
  run_acc(T->pointwise_acc, pl, alias, a, b, len, got);
  REF->pointwise_acc(exp, a, b, len);
  expect_modq("c = sum_j a_j*b_j*2^-32", exp, got, N, -((int64_t)len * Q - 1),
              (int64_t)len * Q - 1);
}

START_TEST(test_pointwise_acc) {
  begin(_i, "pointwise_acc");
  static int32_t a[NPOLY_MAX * N], b[NPOLY_MAX * N];
  for (long it = 0; it < g_iters; ++it) {
    unsigned len = 1 + (unsigned)(it % NPOLY_MAX);
    CASE("random #%ld, |a|, |b| <= 9q-1", it);
    for (unsigned j = 0; j < len; ++j) {
      rnd_poly(a + j * N, N, -PW_IN_MAX, PW_IN_MAX);
      rnd_poly(b + j * N, N, -PW_IN_MAX, PW_IN_MAX);
    }
    check_acc(a, b, len, (int)(it / NPOLY_MAX % NPL), it % 16 == 14 ? 1 : it % 16 == 15 ? 2 : 0);
  }
  /* every len with every polynomial extreme: all products +-(9q-1)^2 */
  for (unsigned len = 1; len <= NPOLY_MAX; ++len)
    for (int m = 0; m < 6; ++m) {
      CASE("edge: len %u, a and b all +-(9q-1), sign pattern %d", len, m);
      for (size_t i = 0; i < len * N; ++i) {
        a[i] = m & 1 ? -PW_IN_MAX : PW_IN_MAX;
        b[i] = m & 2 ? -PW_IN_MAX : PW_IN_MAX;
        if (m >= 4) b[i] = (i & 1) ^ (m & 1) ? -PW_IN_MAX : PW_IN_MAX;
      }
      check_acc(a, b, len, (int)(m % NPL), 0);
    }
  /* the edge pairs, one edge polynomial per position j of the sum */
  polyset s = {0};
  ps_pairs(&s, pw_edge_values, N_PW_EDGE, pw_edge_values, N_PW_EDGE);
  for (size_t k = 0; k < s.n; ++k) {
    unsigned len = 1 + (unsigned)(k % NPOLY_MAX);
    for (unsigned j = 0; j < len; ++j) {
      memcpy(a + j * N, s.a[(k + j) % s.n], sizeof s.a[0]);
      memcpy(b + j * N, s.b[(k + j) % s.n], sizeof s.b[0]);
    }
    CASE("%s (and the next %u edge polynomials), len %u", s.label[k], len - 1, len);
    check_acc(a, b, len, (int)(k % NPL), (int)(k % 3));
  }
  ps_free(&s);
}
END_TEST

/* ------------------------------------------------------------------------------------ */
/* add, sub                                                                               */

static const int32_t addsub_edge_values[] = {
    INT32_MIN, INT32_MIN + 1, -(1 << 30), -PW_IN_MAX, -MLDSA_Q, -(MLDSA_Q - 1), -1, 0, 1,
    MLDSA_Q - 1, MLDSA_Q, PW_IN_MAX, 1 << 30, INT32_MAX - 1, INT32_MAX};
#define N_ADDSUB_EDGE (sizeof addsub_edge_values / sizeof addsub_edge_values[0])

static void check_addsub(int is_sub, int32_t a[N], int32_t b[N], int pl, int alias) {
  static const char *const nm[3] = {"c", "a", "b"};
  int32_t got[N], exp[N];
  /* only inputs whose exact result is an int32 (the contract: no reduction, no wrap) */
  for (size_t i = 0; i < N; ++i) {
    int64_t r = is_sub ? (int64_t)a[i] - b[i] : (int64_t)a[i] + b[i];
    if (r < INT32_MIN || r > INT32_MAX) b[i] = 0;
  }
  C.nin = 0;
  set_in(0, "a", a, N);
  set_in(1, "b", b, N);
  run_bin(is_sub ? T->sub : T->add, pl, alias, a, b, got, nm);
  (is_sub ? REF->sub : REF->add)(exp, a, b);
  expect_exact(is_sub ? "c = a - b" : "c = a + b", exp, got, N);
}

static void addsub_test(int is_sub) {
  int32_t a[N], b[N];
  for (long it = 0; it < g_iters; ++it) {
    int64_t lim = it % 2 ? (1 << 30) : (int64_t)PW_IN_MAX;
    CASE("random #%ld, |a|, |b| <= %lld", it, (long long)lim);
    rnd_poly(a, N, -lim, lim - 1);
    rnd_poly(b, N, -lim, lim - 1);
    check_addsub(is_sub, a, b, (int)(it % NPL), (int)(it % 3));
  }
  polyset s = {0};
  ps_pairs(&s, addsub_edge_values, N_ADDSUB_EDGE, addsub_edge_values, N_ADDSUB_EDGE);
  for (size_t k = 0; k < s.n; ++k) {
    CASE("%s (pairs whose result overflows int32 get b = 0)", s.label[k]);
    check_addsub(is_sub, s.a[k], s.b[k], (int)(k % NPL), (int)(k % 3));
  }
  ps_free(&s);
}

START_TEST(test_add) {
  begin(_i, "add");
  addsub_test(0);
}
END_TEST

START_TEST(test_sub) {
  begin(_i, "sub");
  addsub_test(1);
}
END_TEST

/* ------------------------------------------------------------------------------------ */
/* reduce32, caddq, shiftl                                                                */

#define R32_MAX ((int32_t)((1LL << 31) - (1 << 22) - 1))
/* What a - round(a / 2^23) q gives over [INT32_MIN, R32_MAX]. kernels.h says
 * [-6283009, 6283007]; the input R32_MAX itself gives 6283008 (= 2^22 - 1 + 255 * 8191),
 * so the upper bound checked here is 6283008. */
#define R32_OUT_MIN (-6283009)
#define R32_OUT_MAX 6283008

static void check_inplace_exact(k_inplace k, k_inplace ref, const char *what, const int32_t a[N],
                                int pl, int64_t lo, int64_t hi) {
  int32_t got[N], exp[N];
  set_in(0, "a", a, N);
  run_inplace(k, pl, a, got, "a");
  memcpy(exp, a, sizeof exp);
  ref(exp);
  expect_exact(what, exp, got, N);
  expect_modq(what, exp, got, N, lo, hi); /* the bound, for the scalar self-check */
}

START_TEST(test_reduce32) {
  begin(_i, "reduce32");
  int32_t a[N];
  for (long it = 0; it < g_iters; ++it) {
    CASE("random #%ld, INT32_MIN <= a <= 2^31 - 2^22 - 1", it);
    if (it % 4 == 3) /* the range sign and verify use: |a| < 9q-ish sums */
      rnd_poly(a, N, -9 * Q, 9 * Q);
    else
      rnd_poly(a, N, INT32_MIN, R32_MAX);
    check_inplace_exact(T->reduce32, REF->reduce32, "a - round(a / 2^23) q", a, (int)(it % NPL),
                        R32_OUT_MIN, R32_OUT_MAX);
  }
  /* the rounding boundaries t 2^23 +- 2^22 of every t, and the ends of the range */
  static int32_t v[4096];
  size_t nv = 0;
  static const int64_t fixed[] = {INT32_MIN, INT32_MIN + 1, -2 * MLDSA_Q, -MLDSA_Q,
                                  -(MLDSA_Q - 1), -1, 0, 1, MLDSA_Q - 1, MLDSA_Q, 2 * MLDSA_Q,
                                  R32_MAX - 1, R32_MAX};
  for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; ++k) v[nv++] = (int32_t)fixed[k];
  for (int64_t t = -256; t <= 256; ++t) {
    int64_t c = t * (1 << 23);
    const int64_t d[] = {c - (1 << 22) - 1, c - (1 << 22), c + (1 << 22) - 1, c + (1 << 22),
                         c};
    for (size_t k = 0; k < 5; ++k)
      if (d[k] >= INT32_MIN && d[k] <= R32_MAX) v[nv++] = (int32_t)d[k];
  }
  polyset s = {0};
  ps_values(&s, v, nv);
  for (size_t k = 0; k < s.n; ++k) {
    CASE("%s", s.label[k]);
    check_inplace_exact(T->reduce32, REF->reduce32, "a - round(a / 2^23) q", s.a[k],
                        (int)(k % NPL), R32_OUT_MIN, R32_OUT_MAX);
  }
  /* the extremes of the output range are reached (scalar self-check of the bound) */
  for (size_t i = 0; i < N; ++i) a[i] = i & 1 ? R32_MAX : -255 * (1 << 23) - (1 << 22);
  CASE("edge: alternating 2^31 - 2^22 - 1 and -255 * 2^23 - 2^22 (outputs 6283008, -6283009)");
  check_inplace_exact(T->reduce32, REF->reduce32, "a - round(a / 2^23) q", a, PL_MISALIGNED,
                      R32_OUT_MIN, R32_OUT_MAX);
  ps_free(&s);
}
END_TEST

START_TEST(test_caddq) {
  begin(_i, "caddq");
  int32_t a[N];
  for (long it = 0; it < g_iters; ++it) {
    CASE("random #%ld", it);
    int64_t lim = it % 3 == 0 ? 2 * Q : it % 3 == 1 ? 9 * Q : INT32_MAX;
    rnd_poly(a, N, it % 3 == 2 ? INT32_MIN : -lim, lim);
    check_inplace_exact(T->caddq, REF->caddq, "a + q if a < 0, else a", a, (int)(it % NPL),
                        INT32_MIN, INT32_MAX);
  }
  static const int32_t v[] = {INT32_MIN, INT32_MIN + 1, -2 * MLDSA_Q, -MLDSA_Q - 1, -MLDSA_Q,
                              -MLDSA_Q + 1, -2, -1, 0, 1, 2, MLDSA_Q - 1, MLDSA_Q, MLDSA_Q + 1,
                              INT32_MAX - MLDSA_Q, INT32_MAX - 1, INT32_MAX};
  polyset s = {0};
  ps_values(&s, v, sizeof v / sizeof v[0]);
  for (size_t k = 0; k < s.n; ++k) {
    CASE("%s", s.label[k]);
    check_inplace_exact(T->caddq, REF->caddq, "a + q if a < 0, else a", s.a[k], (int)(k % NPL),
                        INT32_MIN, INT32_MAX);
  }
  ps_free(&s);
}
END_TEST

START_TEST(test_shiftl) {
  begin(_i, "shiftl");
  int32_t a[N];
  const int64_t max = (1 << 10) - 1;
  for (long it = 0; it < g_iters; ++it) {
    CASE("random #%ld, 0 <= a < 2^10", it);
    rnd_poly(a, N, 0, max);
    check_inplace_exact(T->shiftl, REF->shiftl, "a * 2^13", a, (int)(it % NPL), 0,
                        max << MLDSA_D);
  }
  /* all 1024 inputs, and the extremes */
  static int32_t v[1024];
  for (int32_t k = 0; k < 1024; ++k) v[k] = k;
  static const int32_t ends[] = {0, 1, 1022, 1023};
  polyset s = {0};
  ps_values(&s, v, 1024);
  ps_values(&s, ends, 4);
  for (size_t k = 0; k < s.n; ++k) {
    CASE("%s", s.label[k]);
    check_inplace_exact(T->shiftl, REF->shiftl, "a * 2^13", s.a[k], (int)(k % NPL), 0,
                        max << MLDSA_D);
  }
  ps_free(&s);
}
END_TEST

/* ------------------------------------------------------------------------------------ */
/* power2round, decompose                                                                 */

static const char *const NM_A1A0A[3] = {"a1", "a0", "a"};

static void check_two(k_two k, k_two ref, const int32_t a[N], int pl, int alias, int64_t a0_lo,
                      int64_t a0_hi, int64_t a1_max) {
  int32_t g1[N], g0[N], e1[N], e0[N];
  set_in(0, "a", a, N);
  run_two(k, pl, alias, a, g1, g0, NM_A1A0A);
  ref(e1, e0, a);
  expect_exact("a1", e1, g1, N);
  expect_exact("a0", e0, g0, N);
  expect_modq("a1 (range)", e1, g1, N, 0, a1_max);
  expect_modq("a0 (range)", e0, g0, N, a0_lo, a0_hi);
}

/* Sweeps every a in [0, q) (the last polynomial padded with q-1). */
static void sweep_two(k_two k, k_two ref, int64_t a0_lo, int64_t a0_hi, int64_t a1_max) {
  int32_t a[N];
  long call = 0;
  for (int64_t st = 0; st < Q; st += N, ++call) {
    for (size_t i = 0; i < N; ++i) a[i] = (int32_t)(st + (int64_t)i < Q ? st + (int64_t)i : Q - 1);
    CASE("exhaustive sweep: a = %lld..%lld", (long long)st, (long long)(st + N - 1));
    check_two(k, ref, a, (int)(call % NPL), (int)(call % 3), a0_lo, a0_hi, a1_max);
  }
}

START_TEST(test_power2round) {
  begin(_i, "power2round");
  const int64_t h = 1 << (MLDSA_D - 1), a1max = (Q - 1) >> MLDSA_D;
  int32_t a[N];
  for (long it = 0; it < g_iters; ++it) {
    CASE("random #%ld, 0 <= a < q", it);
    rnd_poly(a, N, 0, Q - 1);
    check_two(T->power2round, REF->power2round, a, (int)(it % NPL), (int)(it % 3), -h + 1, h,
              a1max);
  }
  /* every multiple of 2^13 and +-2^12 around it (the rounding boundaries), +-1 */
  static int32_t v[16384];
  size_t nv = 0;
  v[nv++] = 0;
  v[nv++] = (int32_t)(Q - 1);
  for (int64_t m = 0; m <= Q; m += 1 << MLDSA_D) {
    const int64_t d[] = {m - 1, m, m + 1, m - h - 1, m - h, m - h + 1, m + h - 1, m + h, m + h + 1};
    for (size_t k = 0; k < 9; ++k) v[nv++] = (int32_t)d[k];
  }
  nv = filter(v, nv, 0, Q - 1);
  polyset s = {0};
  ps_values(&s, v, nv);
  for (size_t k = 0; k < s.n; ++k) {
    CASE("%s", s.label[k]);
    check_two(T->power2round, REF->power2round, s.a[k], (int)(k % NPL), (int)(k % 3), -h + 1, h,
              a1max);
  }
  ps_free(&s);
  if (g_exhaustive) sweep_two(T->power2round, REF->power2round, -h + 1, h, a1max);
}
END_TEST

/* a at and around every multiple of 2 gamma2 and every rounding boundary m 2 gamma2 +-
 * gamma2, and around q-1 - gamma2 .. q-1 (where a1 wraps to 0); values in [0, q). */
static size_t gamma2_edges(int g, int32_t *v) {
  const int64_t g2 = GAMMA2[g], two = 2 * g2;
  size_t nv = 0;
  for (int64_t m = 0; m <= Q + two; m += two) {
    for (int64_t d = -2; d <= 2; ++d) v[nv++] = (int32_t)clamp(m + d, -1, Q);
    for (int64_t d = -1; d <= 1; ++d) {
      v[nv++] = (int32_t)clamp(m + g2 + d, -1, Q);
      v[nv++] = (int32_t)clamp(m - g2 + d, -1, Q);
    }
  }
  const int64_t tail[] = {Q - 1, Q - 2, Q - g2 - 1, Q - g2, Q - g2 + 1, Q - 1 - g2 - 1};
  for (size_t k = 0; k < sizeof tail / sizeof tail[0]; ++k) v[nv++] = (int32_t)tail[k];
  return filter(v, nv, 0, Q - 1);
}

static void decompose_test(int g) {
  const int64_t g2 = GAMMA2[g], a1max = hi_count(g) - 1;
  int32_t a[N];
  for (long it = 0; it < g_iters; ++it) {
    CASE("random #%ld, 0 <= a < q", it);
    rnd_poly(a, N, 0, Q - 1);
    check_two(T->decompose[g], REF->decompose[g], a, (int)(it % NPL), (int)(it % 3), -g2, g2,
              a1max);
  }
  static int32_t v[2048];
  size_t nv = gamma2_edges(g, v);
  polyset s = {0};
  ps_values(&s, v, nv);
  for (size_t k = 0; k < s.n; ++k) {
    CASE("%s", s.label[k]);
    check_two(T->decompose[g], REF->decompose[g], s.a[k], (int)(k % NPL), (int)(k % 3), -g2, g2,
              a1max);
  }
  ps_free(&s);
  /* a0 is in (-gamma2, gamma2] except in the a1 = 0 wrap, where a0 - 1 reaches -gamma2 */
  if (g_exhaustive) sweep_two(T->decompose[g], REF->decompose[g], -g2, g2, a1max);
}

START_TEST(test_decompose_g88) {
  begin(_i, "decompose_g88");
  decompose_test(0);
}
END_TEST

START_TEST(test_decompose_g32) {
  begin(_i, "decompose_g32");
  decompose_test(1);
}
END_TEST

/* ------------------------------------------------------------------------------------ */
/* make_hint, use_hint                                                                    */

static void check_make_hint(int g, const int32_t a0[N], const int32_t a1[N], int pl, int alias,
                            long want) {
  int32_t got[N], exp[N];
  C.nin = 0;
  set_in(0, "a0", a0, N);
  set_in(1, "a1", a1, N);
  unsigned ng = run_hint(T->make_hint[g], pl, alias, a0, a1, got);
  unsigned ne = REF->make_hint[g](exp, a0, a1);
  expect_exact("h", exp, got, N);
  unsigned pop = 0;
  for (size_t i = 0; i < N; ++i) pop += got[i] == 1;
  if (ng != ne || ng != pop || (want >= 0 && ng != (unsigned)want)) {
    char built[64] = "";
    if (want >= 0) snprintf(built, sizeof built, ", the case was built with %ld", want);
    FAIL_AT(-1, exp, got, N, "returned %u ones; the reference returned %u, h holds %u%s", ng, ne,
            pop, built);
  }
}

static void make_hint_test(int g) {
  const int32_t g2 = GAMMA2[g], m = hi_count(g);
  int32_t a0[N], a1[N];
  /* random: a0 over (-q, q), half of them near +-gamma2; a1 in [0, m), often 0 */
  for (long it = 0; it < g_iters; ++it) {
    CASE("random #%ld, -q < a0 < q, 0 <= a1 < %d", it, (int)m);
    unsigned style = (unsigned)(it % 4);
    for (size_t i = 0; i < N; ++i) {
      uint64_t r = rng() % 4;
      if (style == 0 || (style == 3 && r == 0))
        a0[i] = (int32_t)rnd_in(-(Q - 1), Q - 1);
      else if (style == 1 || (style == 3 && r == 1))
        a0[i] = (int32_t)rnd_in(-g2 - 3, g2 + 3);
      else
        a0[i] = rnd_coef(-(Q - 1), Q - 1);
      a1[i] = rng() % 2 ? 0 : (int32_t)rnd_in(0, m - 1);
    }
    check_make_hint(g, a0, a1, (int)(it % NPL), (int)(it % 3), -1);
  }
  /* edges: a0 at and around +-gamma2 with a1 = 0 and != 0 */
  const int32_t va0[] = {-(MLDSA_Q - 1), -2 * g2, -g2 - 1, -g2, -g2 + 1, -1, 0,
                         1, g2 - 1, g2, g2 + 1, 2 * g2, MLDSA_Q - 1};
  const int32_t va1[] = {0, 1, m / 2, m - 1};
  polyset s = {0};
  ps_pairs(&s, va0, sizeof va0 / sizeof va0[0], va1, 4);
  for (size_t k = 0; k < s.n; ++k) {
    CASE("%s", s.label[k]);
    check_make_hint(g, s.a[k], s.b[k], (int)(k % NPL), (int)(k % 3), -1);
  }
  ps_free(&s);
  /* hint counts around omega (80 for ML-DSA-44, 55 / 75 for 65 / 87), 0 and 256 */
  static const unsigned counts[] = {0, 1, 54, 55, 56, 74, 75, 76, 79, 80, 81, 128, 255, 256};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
    for (int rep = 0; rep < 6; ++rep) {
      unsigned k = counts[c];
      size_t pos[N];
      for (size_t i = 0; i < N; ++i) pos[i] = i;
      if (rep >= 2) /* random positions */
        for (size_t i = N - 1; i > 0; --i) {
          size_t j = (size_t)(rng() % (i + 1)), t = pos[i];
          pos[i] = pos[j];
          pos[j] = t;
        }
      else if (rep == 1) /* the last k positions */
        for (size_t i = 0; i < N; ++i) pos[i] = N - 1 - i;
      for (size_t i = 0; i < N; ++i) {
        size_t p = pos[i];
        uint64_t r = rng() % 5;
        if (i < k) { /* a hint */
          a1[p] = (int32_t)rnd_in(0, m - 1);
          a0[p] = r == 0 ? g2 + 1 : r == 1 ? -g2 - 1 : r == 2 ? (int32_t)rnd_in(g2 + 1, Q - 1)
                                                     : r == 3 ? (int32_t)rnd_in(-(Q - 1), -g2 - 1)
                                                              : -g2;
          if (a0[p] == -g2 && a1[p] == 0) a1[p] = 1 + (int32_t)rnd_in(0, m - 2);
        } else { /* no hint */
          a1[p] = (int32_t)rnd_in(0, m - 1);
          a0[p] = r == 0 ? g2 : r == 1 ? -g2 + 1 : r == 2 ? 0 : r == 3 ? (int32_t)rnd_in(-g2 + 1, g2)
                                                                       : -g2;
          if (a0[p] == -g2) a1[p] = 0;
        }
      }
      CASE("exactly %u hints (%s positions)", k, rep == 0 ? "first" : rep == 1 ? "last" : "random");
      check_make_hint(g, a0, a1, rep % NPL, rep % 3, k);
    }
  /* every a0 in (-q, q), with a1 = 0 and with a1 != 0 */
  if (g_exhaustive) {
    long call = 0;
    for (int nz = 0; nz < 2; ++nz)
      for (int64_t st = -(Q - 1); st < Q; st += N, ++call) {
        for (size_t i = 0; i < N; ++i) {
          a0[i] = (int32_t)(st + (int64_t)i < Q ? st + (int64_t)i : Q - 1);
          a1[i] = nz ? 1 + (int32_t)((st + (int64_t)i + Q) % (m - 1)) : 0;
        }
        CASE("exhaustive sweep: a0 = %lld..%lld, a1 %s", (long long)st, (long long)(st + N - 1),
             nz ? "!= 0" : "= 0");
        check_make_hint(g, a0, a1, (int)(call % NPL), (int)(call % 3), -1);
      }
  }
}

START_TEST(test_make_hint_g88) {
  begin(_i, "make_hint_g88");
  make_hint_test(0);
}
END_TEST

START_TEST(test_make_hint_g32) {
  begin(_i, "make_hint_g32");
  make_hint_test(1);
}
END_TEST

static void check_use_hint(int g, const int32_t a[N], const int32_t h[N], int pl, int alias) {
  static const char *const nm[3] = {"b", "a", "h"};
  int32_t got[N], exp[N];
  C.nin = 0;
  set_in(0, "a", a, N);
  set_in(1, "h", h, N);
  run_bin(T->use_hint[g], pl, alias, a, h, got, nm);
  REF->use_hint[g](exp, a, h);
  expect_exact("b", exp, got, N);
  expect_modq("b (range)", exp, got, N, 0, hi_count(g) - 1);
}

static void use_hint_test(int g) {
  int32_t a[N], h[N];
  for (long it = 0; it < g_iters; ++it) {
    CASE("random #%ld, 0 <= a < q, h in {0, 1}", it);
    rnd_poly(a, N, 0, Q - 1);
    for (size_t i = 0; i < N; ++i) h[i] = it % 4 == 0 ? 1 : (int32_t)(rng() & 1);
    check_use_hint(g, a, h, (int)(it % NPL), (int)(it % 3));
  }
  /* a where a0 = 0, +-1, gamma2, -gamma2 (the wrap), +-(gamma2-1), every multiple of 2
   * gamma2 and q-1; with h all 0, all 1, alternating */
  static int32_t v[2048];
  size_t nv = gamma2_edges(g, v);
  polyset s = {0};
  ps_values(&s, v, nv);
  for (size_t k = 0; k < s.n; ++k)
    for (int hm = 0; hm < 4; ++hm) {
      for (size_t i = 0; i < N; ++i) h[i] = hm == 0 ? 0 : hm == 1 ? 1 : (int32_t)((i + (size_t)hm) & 1);
      CASE("%s, h %s", s.label[k], hm == 0 ? "all 0" : hm == 1 ? "all 1" : "alternating");
      check_use_hint(g, s.a[k], h, (int)(k % NPL), (int)((k + (size_t)hm) % 3));
    }
  ps_free(&s);
  if (g_exhaustive) {
    long call = 0;
    for (int hv = 0; hv < 2; ++hv)
      for (int64_t st = 0; st < Q; st += N, ++call) {
        for (size_t i = 0; i < N; ++i) {
          a[i] = (int32_t)(st + (int64_t)i < Q ? st + (int64_t)i : Q - 1);
          h[i] = hv;
        }
        CASE("exhaustive sweep: a = %lld..%lld, h = %d", (long long)st, (long long)(st + N - 1),
             hv);
        check_use_hint(g, a, h, (int)(call % NPL), (int)(call % 3));
      }
  }
}

START_TEST(test_use_hint_g88) {
  begin(_i, "use_hint_g88");
  use_hint_test(0);
}
END_TEST

START_TEST(test_use_hint_g32) {
  begin(_i, "use_hint_g32");
  use_hint_test(1);
}
END_TEST

/* ------------------------------------------------------------------------------------ */
/* chknorm                                                                                */

#define CHK_BOUND_MAX ((MLDSA_Q - 1) / 8)

static void check_chknorm(const int32_t a[N], int32_t bound, int pl, int want) {
  C.nin = 0;
  set_in(0, "a", a, N);
  snprintf(C.param, sizeof C.param, "bound = %" PRId32, bound);
  int got = run_norm(T->chknorm, pl, a, bound);
  int exp = REF->chknorm(a, bound);
  if (got != exp || (want >= 0 && got != want)) {
    char built[64] = "";
    if (want >= 0) snprintf(built, sizeof built, ", the case was built for %d", want);
    FAIL_AT(-1, NULL, NULL, 0, "returned %d, the reference %d%s", got, exp, built);
  }
}

START_TEST(test_chknorm) {
  begin(_i, "chknorm");
  static const int32_t bounds[] = {0, 1, 2, (1 << 17) - 78, (1 << 19) - 196, (1 << 19) - 120,
                                   MLDSA_GAMMA2_88 - 78, MLDSA_GAMMA2_32 - 196,
                                   MLDSA_GAMMA2_32 - 120, MLDSA_GAMMA2_88, MLDSA_GAMMA2_32,
                                   CHK_BOUND_MAX - 1, CHK_BOUND_MAX};
  const size_t nb = sizeof bounds / sizeof bounds[0];
  int32_t a[N];
  for (long it = 0; it < g_iters; ++it) {
    int32_t bound = it % 2 ? bounds[rng() % nb] : (int32_t)rnd_in(0, CHK_BOUND_MAX);
    unsigned style = (unsigned)(it % 5);
    int want = -1;
    if (style <= 1 && bound > 0) { /* all below the bound */
      rnd_poly(a, N, -(bound - 1), bound - 1);
      want = 0;
    } else if (style <= 3 && bound > 0) { /* and one offender */
      rnd_poly(a, N, -(bound - 1), bound - 1);
      int64_t v = rng() % 2 ? bound : rnd_in(bound, INT32_MAX);
      a[rng() % N] = (int32_t)(rng() % 2 ? v : -v);
      want = 1;
    } else { /* anything in (-2^31, 2^31) */
      rnd_poly(a, N, INT32_MIN + 1, INT32_MAX);
    }
    CASE("random #%ld (style %u)", it, style);
    check_chknorm(a, bound, (int)(it % NPL), want);
  }
  for (size_t bi = 0; bi < nb; ++bi) {
    int32_t bound = bounds[bi], below = bound > 0 ? bound - 1 : 0;
    /* uniform arrays */
    const int32_t fill[] = {0, below, -below, bound, -bound, INT32_MAX, -INT32_MAX};
    for (size_t f = 0; f < sizeof fill / sizeof fill[0]; ++f) {
      for (size_t i = 0; i < N; ++i) a[i] = fill[f];
      CASE("edge: all coefficients %" PRId32, fill[f]);
      check_chknorm(a, bound, (int)(f % NPL), llabs((long long)fill[f]) >= bound);
    }
    for (size_t i = 0; i < N; ++i) a[i] = i & 1 ? -below : below;
    CASE("edge: alternating +-(bound - 1)");
    check_chknorm(a, bound, PL_PAGE_END, bound == 0);
    /* one coefficient at each position: at the bound, one below, far above; both signs;
     * on a background of +-(bound - 1) */
    const int32_t single[] = {bound, -bound, below, -below, INT32_MAX, -INT32_MAX};
    for (size_t sv = 0; sv < sizeof single / sizeof single[0]; ++sv)
      for (size_t p = 0; p < N; ++p) {
        for (size_t i = 0; i < N; ++i) a[i] = (i + p) & 1 ? -below : below;
        a[p] = single[sv];
        CASE("edge: a[%zu] = %" PRId32 ", others +-(bound - 1)", p, single[sv]);
        check_chknorm(a, bound, (int)((p + sv) % NPL),
                      bound == 0 || llabs((long long)single[sv]) >= bound);
      }
  }
}
END_TEST

/* ------------------------------------------------------------------------------------ */
/* unpack_z                                                                               */

static void unpack_z_test(int g) {
  const size_t nbytes = g ? 640 : 576;
  uint8_t buf[640];
  int32_t got[N], exp[N], words[160];
  for (long it = 0; it < g_iters + 6; ++it) {
    const char *what = "random bytes";
    if (it == 0) memset(buf, 0, nbytes), what = "all bytes 0 (every coefficient gamma1)";
    else if (it == 1) memset(buf, 0xff, nbytes), what = "all bytes 0xff (every coefficient -gamma1 + 1)";
    else if (it == 2) memset(buf, 0x55, nbytes), what = "all bytes 0x55";
    else if (it == 3) memset(buf, 0xaa, nbytes), what = "all bytes 0xaa";
    else if (it <= 5) /* one coefficient's field all ones, the rest zero, or the reverse */
      for (size_t k = 0; k < nbytes; ++k) buf[k] = (uint8_t)((k % 5 == (size_t)it % 5) ? 0xff : 0);
    else
      for (size_t k = 0; k < nbytes; ++k) buf[k] = (uint8_t)rng();
    memcpy(words, buf, nbytes);
    C.nin = 0;
    set_in(0, "buf (as words)", words, nbytes / 4);
    snprintf(C.param, sizeof C.param, "gamma1 = 2^%d", g ? 19 : 17);
    CASE("%s #%ld", what, it);
    run_unpack(T->unpack_z[g], (int)(it % NPL), buf, nbytes, got);
    REF->unpack_z[g](exp, buf);
    expect_exact("a", exp, got, N);
  }
}

START_TEST(test_unpack_z_g17) {
  begin(_i, "unpack_z_g17");
  unpack_z_test(0);
}
END_TEST

START_TEST(test_unpack_z_g19) {
  begin(_i, "unpack_z_g19");
  unpack_z_test(1);
}
END_TEST

/* ------------------------------------------------------------------------------------ */
/* pack_w1                                                                                */

/* An encoder over its contract's domain [lo, hi] per coefficient: both ends everywhere,
 * alternating, one coefficient at one end on a background of the other, then random
 * values; every output byte compared with the reference. */
static void encoder_test(k_pack under_test, k_pack ref, int32_t lo, int32_t hi, size_t nbytes,
                         const char *param) {
  int32_t a[N], got[160], exp[160];
  for (long it = 0; it < g_iters + 4 + 2 * N; ++it) {
    const char *what = "random coefficients in [lo, hi]";
    for (size_t i = 0; i < N; ++i) {
      if (it == 0) a[i] = lo, what = "all lo";
      else if (it == 1) a[i] = hi, what = "all hi";
      else if (it == 2) a[i] = i & 1 ? hi : lo, what = "alternating lo, hi";
      else if (it == 3) a[i] = i & 1 ? lo : hi, what = "alternating hi, lo";
      else if (it < 4 + 2 * (long)N)
        a[i] = ((long)i == (it - 4) / 2) == ((it - 4) % 2 == 0) ? hi : lo,
        what = (it - 4) % 2 ? "one coefficient lo, the others hi" : "one coefficient hi, the others lo";
      else
        a[i] = lo + (int32_t)(rng() % (uint64_t)((int64_t)hi - lo + 1));
    }
    C.nin = 0;
    set_in(0, "a", a, N);
    snprintf(C.param, sizeof C.param, "%s, coefficients in [%" PRId32 ", %" PRId32 "]", param, lo, hi);
    CASE("%s #%ld", what, it);
    run_pack(under_test, (int)(it % NPL), a, (uint8_t *)got, nbytes);
    ref((uint8_t *)exp, a);
    expect_exact("out (as words)", exp, got, nbytes / 4);
  }
}

/* pack_w1: w1 in [0, 2^b) */
static void pack_w1_test(int g) {
  const unsigned b = g ? 4 : 6;
  encoder_test(T->pack_w1[g], REF->pack_w1[g], 0, (1 << b) - 1, N * b / 8, g ? "b = 4" : "b = 6");
}

START_TEST(test_pack_w1_g88) {
  begin(_i, "pack_w1_g88");
  pack_w1_test(0);
}
END_TEST

START_TEST(test_pack_w1_g32) {
  begin(_i, "pack_w1_g32");
  pack_w1_test(1);
}
END_TEST

/* pack_z: z in [-gamma1 + 1, gamma1] (fields gamma1 - z in [0, 2^b)) */
static void pack_z_test(int g) {
  const int32_t gamma1 = g ? 1 << 19 : 1 << 17;
  encoder_test(T->pack_z[g], REF->pack_z[g], -gamma1 + 1, gamma1, g ? 640 : 576,
               g ? "gamma1 = 2^19" : "gamma1 = 2^17");
}

START_TEST(test_pack_z_g17) {
  begin(_i, "pack_z_g17");
  pack_z_test(0);
}
END_TEST

START_TEST(test_pack_z_g19) {
  begin(_i, "pack_z_g19");
  pack_z_test(1);
}
END_TEST

/* ------------------------------------------------------------------------------------ */
/* Driver                                                                                 */



static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  g_seed = mldsa_test_seed_rng("test_kernels");
  const char *e = getenv("MLDSA_TEST_KERNELS_ITERS");
  if (e && *e) g_iters = strtol(e, NULL, 0) > 0 ? strtol(e, NULL, 0) : g_iters;
  e = getenv("MLDSA_TEST_KERNELS_EXHAUSTIVE");
  if (e && *e) g_exhaustive = atoi(e) != 0;
  printf("test_kernels: %ld random inputs per kernel, exhaustive domain sweeps %s\n", g_iters,
         g_exhaustive ? "on" : "off (MLDSA_TEST_KERNELS_EXHAUSTIVE=0)");

  shm = mmap(NULL, sizeof *shm, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shm == MAP_FAILED) {
    perror("test_kernels: mmap");
    return EXIT_FAILURE;
  }
  memset(shm, 0, sizeof *shm);
  arena_init();
  models_init();

#if !defined(MLDSA_HAVE_ASM)
  printf("kernels: NO SIMD ISA compiled in (built without MLDSA_HAVE_ASM, e.g. cmake "
         "-DMLDSA_ASM=OFF): sse2/avx2/avx512 kernels NOT tested; checking only the scalar "
         "reference against the FIPS 204 models\n");
#endif
  fflush(stdout);

  const TTest *tests[] = {test_ntt,           test_invntt_tomont,   test_ntt_roundtrip,
                          test_ntt_multiply,  test_ntt_reorder,     test_pointwise_montgomery,
                          test_pointwise_acc, test_add,             test_sub,
                          test_reduce32,      test_caddq,           test_shiftl,
                          test_power2round,   test_decompose_g88,   test_decompose_g32,
                          test_make_hint_g88, test_make_hint_g32,   test_use_hint_g88,
                          test_use_hint_g32,  test_chknorm,         test_unpack_z_g17,
                          test_unpack_z_g19,  test_pack_w1_g88,     test_pack_w1_g32,
                          test_pack_z_g17,    test_pack_z_g19};
  const size_t NTESTS = sizeof tests / sizeof tests[0];
  int failed = 0;
  char lines[NISAS][200];
  for (size_t i = 0; i < NISAS; ++i) {
    if (i > 0 && !isas[i].has()) {
      snprintf(lines[i], sizeof lines[i], "kernels %s: skipped (CPU lacks it)", isas[i].name);
      printf("%s\n", lines[i]);
      fflush(stdout);
      continue;
    }
    Suite *s = suite_create(i == 0 ? "kernels scalar (against FIPS 204 models)" : isas[i].name);
    TCase *tc = tcase_create(isas[i].name);
    tcase_set_timeout(tc, 300);
    for (size_t t = 0; t < NTESTS; ++t)
      tcase_add_loop_test(tc, tests[t], (int)i, (int)i + 1);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    printf("kernels %s: testing against %s\n", isas[i].name,
           i == 0 ? "FIPS 204 models (reference self-check)" : "scalar");
    fflush(stdout);
    double t0 = now();
    srunner_run_all(sr, CK_NORMAL);
    double dt = now() - t0;
    int run = srunner_ntests_run(sr), bad = srunner_ntests_failed(sr);
    snprintf(lines[i], sizeof lines[i],
             "kernels %s: %d/%d kernel checks passed%s (%llu kernel calls compared against %s, "
             "%.1f s)",
             isas[i].name, run - bad, (int)NTESTS, run - bad == (int)NTESTS ? "" : " -- FAILED",
             shm->calls[i], i == 0 ? "the FIPS 204 models" : "scalar", dt);
    if (bad != 0 || run != (int)NTESTS) failed = 1;
    srunner_free(sr);
  }
  printf("\n");
  for (size_t i = 0; i < NISAS; ++i) printf("%s\n", lines[i]);
#if !defined(MLDSA_HAVE_ASM)
  printf("kernels: no SIMD ISA compiled in; only the scalar reference was checked\n");
#endif
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
