/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* isa_ext: would AVX-512 IFMA or VBMI earn an ISA variant? Each extension is tried on the
 * work it could take over, as a prototype written here with intrinsics beside the form
 * the avx512 kernels use today (the kernel itself where one exists), on one buffer, in one
 * interleaved run. Every prototype is checked before it is timed.
 *
 *   isa_ext [--rounds R] [--calls N]
 *
 * IFMA (vpmadd52{l,h}uq: 52-bit products on 64-bit lanes):
 *   product    c = a b R^-1 mod q on 256 coefficients, |a|, |b| < 9q. Today: the avx512
 *              pointwise_montgomery kernel (vpmuldq on even and odd lanes, R = 2^32).
 *              IFMA: Montgomery with R = 2^52 on the even and odd lanes widened to
 *              qwords (the operands offset by 9q to be unsigned).
 *   twiddle    t = b z mod q on 256 coefficients with z fixed (the NTT butterfly's
 *              product). Today: Shoup with zb = round(z 2^32 / q) as the avx512 NTT does
 *              it (vpmuldq even/odd, vpmulld). IFMA: Shoup with zb = floor(z 2^52 / q).
 * VBMI (vpermb: any byte of a zmm to any byte):
 *   rej_step   RejNTTPoly's 16-candidate step on a stream of 48-byte blocks (spread the
 *              3-byte groups into dwords, mask, compare, compress, store, count). Today:
 *              four 16-byte loads into the 128-bit lanes and vpshufb, as the avx512
 *              rej_uniform kernel does. VBMI: one 48-byte load and vpermb.
 * Rows: median ticks per call (rdtsc, fenced, around 32 calls in a row; the timer's own
 * cost subtracted), today's form, the extension's, and their ratio. */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "cpu.h"
#include "kernels.h"

#define Q 8380417
#define QINV32 58728449u /* q^-1 mod 2^32 */
#define MAX_ROUNDS 101
#define MAX_CALLS 10001
#define REPS 32 /* calls per timing: the counter ticks in steps of tens on some hosts */
#define REJ_BLOCKS 16 /* 768 bytes: 256 candidates */

static _Alignas(64) int32_t poly_a[256], poly_b[256], poly_c[256];
static _Alignas(64) uint8_t rej_buf[REJ_BLOCKS * 48 + 64];
static _Alignas(64) int32_t rej_out[REJ_BLOCKS * 16 + 16];
static int64_t zeta;   /* centred (|zeta| < q/2), as the NTT's signed twiddles */
static int64_t zeta_u; /* in [0, q): IFMA multiplies unsigned */
static uint64_t qinv52; /* -q^-1 mod 2^52 */
static int32_t zb32;
static uint64_t zb52;

/* ---------------------------------------------------------------- IFMA: a b 2^-52 mod q */
static inline __m512i mont52_lanes(__m512i a, __m512i b, __m512i q, __m512i qinv) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i lo = _mm512_madd52lo_epu64(zero, a, b); /* p mod 2^52 */
  __m512i hi = _mm512_madd52hi_epu64(zero, a, b); /* p >> 52 */
  __m512i m = _mm512_madd52lo_epu64(zero, lo, qinv); /* m = -p q^-1 mod 2^52 */
  /* p + m q = 0 mod 2^52: (p + m q) >> 52 = hi + hi(m q) + (lo != 0) */
  __m512i r = _mm512_madd52hi_epu64(hi, m, q);
  __mmask8 carry = _mm512_test_epi64_mask(lo, lo);
  return _mm512_mask_add_epi64(r, carry, r, _mm512_set1_epi64(1));
}

static void product_ifma(int32_t *c, const int32_t *a, const int32_t *b) {
  const __m512i q = _mm512_set1_epi64(Q), qinv = _mm512_set1_epi64((long long)qinv52);
  const __m512i off = _mm512_set1_epi32(9 * Q);
  for (unsigned i = 0; i < 256; i += 16) {
    __m512i x = _mm512_add_epi32(_mm512_loadu_si512(a + i), off);
    __m512i y = _mm512_add_epi32(_mm512_loadu_si512(b + i), off);
    __m512i lowmask = _mm512_set1_epi64(0xffffffff);
    __m512i re = mont52_lanes(_mm512_and_si512(x, lowmask), _mm512_and_si512(y, lowmask), q,
                              qinv);
    __m512i ro = mont52_lanes(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(y, 32), q, qinv);
    /* (p + m q) / 2^52 in [0, 2q): minus q into (-q, q) */
    __m512i r = _mm512_mask_blend_epi32(0xAAAA, re, _mm512_slli_epi64(ro, 32));
    _mm512_storeu_si512(c + i, _mm512_sub_epi32(r, _mm512_set1_epi32(Q)));
  }
}

static void product_today(int32_t *c, const int32_t *a, const int32_t *b) {
  mldsa_pointwise_montgomery_avx512(c, a, b);
}

/* ------------------------------------------------------- the NTT's product b z mod q */
static void twiddle_today(int32_t *c, const int32_t *a, const int32_t *b) {
  (void)b;
  const __m512i q = _mm512_set1_epi32(Q), zb = _mm512_set1_epi32(zb32),
                z = _mm512_set1_epi32((int32_t)zeta);
  for (unsigned i = 0; i < 256; i += 16) {
    __m512i x = _mm512_loadu_si512(a + i);
    __m512i xo = _mm512_castps_si512(_mm512_movehdup_ps(_mm512_castsi512_ps(x)));
    __m512i he = _mm512_mul_epi32(x, zb), ho = _mm512_mul_epi32(xo, zb);
    __m512i h = _mm512_castps_si512(_mm512_mask_movehdup_ps(
        _mm512_castsi512_ps(ho), 0x5555, _mm512_castsi512_ps(he))); /* hi(x zb), every lane */
    __m512i t = _mm512_sub_epi32(_mm512_mullo_epi32(x, z), _mm512_mullo_epi32(h, q));
    _mm512_storeu_si512(c + i, t);
  }
}

static inline __m512i shoup52_lanes(__m512i x, __m512i zb, __m512i z, __m512i q) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i h = _mm512_madd52hi_epu64(zero, x, zb);
  __m512i t = _mm512_sub_epi64(_mm512_madd52lo_epu64(zero, x, z), _mm512_madd52lo_epu64(zero, h, q));
  return _mm512_and_si512(t, _mm512_set1_epi64((INT64_C(1) << 52) - 1)); /* in [0, 2q) */
}

static void twiddle_ifma(int32_t *c, const int32_t *a, const int32_t *b) {
  (void)b;
  const __m512i q = _mm512_set1_epi64(Q), zb = _mm512_set1_epi64((long long)zb52),
                z = _mm512_set1_epi64(zeta_u), off = _mm512_set1_epi32(9 * Q),
                lowmask = _mm512_set1_epi64(0xffffffff);
  for (unsigned i = 0; i < 256; i += 16) {
    __m512i x = _mm512_add_epi32(_mm512_loadu_si512(a + i), off);
    __m512i te = shoup52_lanes(_mm512_and_si512(x, lowmask), zb, z, q);
    __m512i to = shoup52_lanes(_mm512_srli_epi64(x, 32), zb, z, q);
    _mm512_storeu_si512(c + i, _mm512_mask_blend_epi32(0xAAAA, te, _mm512_slli_epi64(to, 32)));
  }
}

/* ------------------------------------------------ VBMI: RejNTTPoly's 16-candidate step */
static const uint8_t popcount8[256] = {
#define B2(n) n, n + 1, n + 1, n + 2
#define B4(n) B2(n), B2(n + 1), B2(n + 1), B2(n + 2)
#define B6(n) B4(n), B4(n + 1), B4(n + 1), B4(n + 2)
    B6(0), B6(1), B6(1), B6(2)};

static inline unsigned rej_tail(__m512i t, int32_t *out) {
  __mmask16 k = _mm512_cmpgt_epi32_mask(_mm512_set1_epi32(Q), t);
  _mm512_storeu_si512(out, _mm512_maskz_compress_epi32(k, t));
  return popcount8[k & 0xff] + popcount8[k >> 8];
}

static unsigned rej_today(int32_t *out, const uint8_t *buf) {
  /* group g of a lane's 4 at bytes 3g..3g+2 of that lane's 16-byte load */
  uint8_t idx[64];
  for (unsigned i = 0; i < 64; ++i) /* lanes 1 and 3 were loaded 4 bytes early */
    idx[i] = (uint8_t)(i % 4 == 3 ? 0x80 : (i / 16 % 2) * 4 + (i % 16) / 4 * 3 + i % 4);
  const __m512i shuf = _mm512_loadu_si512(idx), mask = _mm512_set1_epi32(0x7fffff);
  unsigned n = 0;
  for (unsigned s = 0; s < REJ_BLOCKS; ++s, buf += 48) {
    __m512i v = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)buf));
    v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(buf + 8)), 1);
    v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(buf + 24)), 2);
    v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(buf + 32)), 3);
    n += rej_tail(_mm512_and_si512(_mm512_shuffle_epi8(v, shuf), mask), out + n);
  }
  return n;
}

static unsigned rej_vbmi(int32_t *out, const uint8_t *buf) {
  uint8_t idx[64];
  for (unsigned i = 0; i < 64; ++i) idx[i] = (uint8_t)(i / 4 * 3 + (i % 4 == 3 ? 2 : i % 4));
  const __m512i perm = _mm512_loadu_si512(idx), mask = _mm512_set1_epi32(0x7fffff);
  unsigned n = 0;
  for (unsigned s = 0; s < REJ_BLOCKS; ++s, buf += 48) {
    __m512i v = _mm512_maskz_loadu_epi8((__mmask64)((UINT64_C(1) << 48) - 1), buf);
    n += rej_tail(_mm512_and_si512(_mm512_permutexvar_epi8(perm, v), mask), out + n);
  }
  return n;
}

static unsigned rej_reference(int32_t *out, const uint8_t *buf) {
  unsigned n = 0;
  for (unsigned g = 0; g < REJ_BLOCKS * 16; ++g) {
    uint32_t t = (buf[3 * g] | buf[3 * g + 1] << 8 | (uint32_t)buf[3 * g + 2] << 16) & 0x7fffff;
    if (t < Q) out[n++] = (int32_t)t;
  }
  return n;
}

/* ----------------------------------------------------------------- checks and timing */
static int64_t mod_q(int64_t x) { return ((x % Q) + Q) % Q; }

static int64_t pow_mod(int64_t b, int64_t e) {
  int64_t r = 1;
  for (b = mod_q(b); e; e >>= 1, b = b * b % Q)
    if (e & 1) r = r * b % Q;
  return r;
}

static void fill_inputs(uint32_t seed) {
  uint8_t bytes[2 * 256 * 4];
  fill(bytes, sizeof bytes, seed);
  for (unsigned i = 0; i < 256; ++i) {
    uint32_t u, v;
    memcpy(&u, bytes + 4 * i, 4);
    memcpy(&v, bytes + 1024 + 4 * i, 4);
    poly_a[i] = (int32_t)(u % (18 * Q - 1)) - (9 * Q - 1); /* |a| < 9q */
    poly_b[i] = (int32_t)(v % (18 * Q - 1)) - (9 * Q - 1);
  }
  /* the contract's corners */
  poly_a[0] = 9 * Q - 1, poly_b[0] = 9 * Q - 1;
  poly_a[1] = -(9 * Q - 1), poly_b[1] = 9 * Q - 1;
  poly_a[2] = -(9 * Q - 1), poly_b[2] = -(9 * Q - 1);
  poly_a[3] = 0;
  fill(rej_buf, sizeof rej_buf, seed + 1);
}

/* every prototype against its definition, on 64 input sets with the corners */
static int check(void) {
  int64_t rinv52 = pow_mod(pow_mod(2, 52), Q - 2), rinv32 = pow_mod(pow_mod(2, 32), Q - 2);
  for (uint32_t seed = 0; seed < 64; ++seed) {
    fill_inputs(seed);
    product_ifma(poly_c, poly_a, poly_b);
    for (unsigned i = 0; i < 256; ++i)
      if (mod_q(poly_c[i]) != mod_q(mod_q(poly_a[i]) * mod_q(poly_b[i]) % Q * rinv52) ||
          poly_c[i] <= -Q || poly_c[i] >= Q)
        return fprintf(stderr, "isa_ext: IFMA product wrong at %u\n", i), 1;
    product_today(poly_c, poly_a, poly_b);
    for (unsigned i = 0; i < 256; ++i)
      if (mod_q(poly_c[i]) != mod_q(mod_q(poly_a[i]) * mod_q(poly_b[i]) % Q * rinv32))
        return fprintf(stderr, "isa_ext: today's product wrong at %u\n", i), 1;
    twiddle_ifma(poly_c, poly_a, NULL);
    for (unsigned i = 0; i < 256; ++i)
      if (mod_q(poly_c[i]) != mod_q(poly_a[i]) * zeta_u % Q || poly_c[i] < 0 || poly_c[i] >= 2 * Q)
        return fprintf(stderr, "isa_ext: IFMA twiddle product wrong at %u\n", i), 1;
    twiddle_today(poly_c, poly_a, NULL);
    for (unsigned i = 0; i < 256; ++i)
      if (mod_q(poly_c[i]) != mod_q(poly_a[i]) * zeta_u % Q)
        return fprintf(stderr, "isa_ext: today's twiddle product wrong at %u\n", i), 1;
    int32_t want[REJ_BLOCKS * 16 + 16];
    unsigned n = rej_reference(want, rej_buf);
    if (rej_today(rej_out, rej_buf) != n || memcmp(rej_out, want, n * 4))
      return fprintf(stderr, "isa_ext: today's rejection step wrong\n"), 1;
    if (rej_vbmi(rej_out, rej_buf) != n || memcmp(rej_out, want, n * 4))
      return fprintf(stderr, "isa_ext: VBMI rejection step wrong\n"), 1;
  }
  return 0;
}

typedef struct {
  const char *name, *today_is;
  void (*today)(int32_t *, const int32_t *, const int32_t *);
  void (*ext)(int32_t *, const int32_t *, const int32_t *);
  uint64_t med[2][MAX_ROUNDS];
} row;

static void rej_today_call(int32_t *c, const int32_t *a, const int32_t *b) {
  (void)c, (void)a, (void)b;
  rej_today(rej_out, rej_buf);
}
static void rej_vbmi_call(int32_t *c, const int32_t *a, const int32_t *b) {
  (void)c, (void)a, (void)b;
  rej_vbmi(rej_out, rej_buf);
}

static uint64_t time_fn(void (*f)(int32_t *, const int32_t *, const int32_t *), uint64_t *t,
                        size_t calls, uint64_t overhead) {
  for (size_t i = 0; i < calls; ++i) {
    uint64_t t0 = ticks_begin();
    for (unsigned r = 0; r < REPS; ++r) f(poly_c, poly_a, poly_b);
    t[i] = ticks_end() - t0;
  }
  qsort(t, calls, sizeof *t, cmp_u64);
  return t[calls / 2] > overhead ? t[calls / 2] - overhead : 0;
}

int main(int argc, char **argv) {
  size_t rounds = 31, calls = 1001;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--calls") && i + 1 < argc)
      calls = strtoul(argv[++i], NULL, 10);
    else
      return fprintf(stderr, "usage: isa_ext [--rounds R] [--calls N]\n"), 2;
  }
  if (rounds < 1 || rounds > MAX_ROUNDS || calls < 1 || calls > MAX_CALLS)
    return fprintf(stderr, "isa_ext: rounds 1..%d, calls 1..%d\n", MAX_ROUNDS, MAX_CALLS), 2;
  __builtin_cpu_init();
  if (!mldsa_cpu_has_avx512() || !__builtin_cpu_supports("avx512ifma") ||
      !__builtin_cpu_supports("avx512vbmi"))
    return fprintf(stderr, "isa_ext: this CPU lacks AVX-512 IFMA or VBMI\n"), 77;

  /* constants from their definitions */
  zeta_u = pow_mod(1753, 37); /* one of the NTT's twiddles */
  zeta = zeta_u > Q / 2 ? zeta_u - Q : zeta_u;
  uint64_t inv = 1; /* q^-1 mod 2^52 by Newton's iteration */
  for (int i = 0; i < 6; ++i) inv *= 2 - Q * inv;
  qinv52 = (0 - inv) & ((UINT64_C(1) << 52) - 1);
  int64_t num = zeta * (INT64_C(1) << 32) + Q / 2; /* round(zeta 2^32 / q), floored */
  zb32 = (int32_t)(num / Q - (num % Q < 0));
  zb52 = (uint64_t)(((unsigned __int128)zeta_u << 52) / Q);
  if (QINV32 * (uint32_t)Q != 1u) return 1;
  if (check()) return 1;
  fill_inputs(1000);

  row rows[] = {{"product (pointwise, 256)", "avx512 kernel", product_today, product_ifma, {{0}}},
                {"twiddle (NTT's b z, 256)", "avx512 NTT's form", twiddle_today, twiddle_ifma, {{0}}},
                {"rej_step (256 candidates)", "avx512 kernel's form", rej_today_call, rej_vbmi_call, {{0}}}};
  const size_t n_rows = sizeof rows / sizeof rows[0];
  uint64_t *t = malloc(calls * sizeof *t), overhead[MAX_ROUNDS];
  if (!t) return 1;
  for (size_t r = 0; r < rounds; ++r) {
    for (size_t i = 0; i < calls; ++i) {
      uint64_t t0 = ticks_begin();
      t[i] = ticks_end() - t0;
    }
    qsort(t, calls, sizeof *t, cmp_u64);
    overhead[r] = t[calls / 2];
    for (size_t k = 0; k < n_rows; ++k) {
      rows[k].med[0][r] = time_fn(rows[k].today, t, calls, overhead[r]);
      rows[k].med[1][r] = time_fn(rows[k].ext, t, calls, overhead[r]);
    }
  }
  char cpu[256];
  cpu_name(cpu, sizeof cpu);
  printf("CPU: %s\nticks per call, median of %zu rounds of %zu timings of %d calls\n", cpu,
         rounds, calls, REPS);
  printf("%-28s %-22s %8s %8s %6s\n", "work", "today", "today", "ext", "ext/today");
  for (size_t k = 0; k < n_rows; ++k) {
    qsort(rows[k].med[0], rounds, sizeof(uint64_t), cmp_u64);
    qsort(rows[k].med[1], rounds, sizeof(uint64_t), cmp_u64);
    double a = (double)rows[k].med[0][rounds / 2] / REPS, b = (double)rows[k].med[1][rounds / 2] / REPS;
    printf("%-28s %-22s %8.1f %8.1f %6.2f  (%s)\n", rows[k].name, rows[k].today_is, a, b,
           a > 0 ? b / a : 0.0,
           k < 2 ? "IFMA" : "VBMI");
  }
  free(t);
  return 0;
}
