/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* mldsa-bench: median (and 10th/90th percentile) rdtsc ticks per operation for each
 * parameter set x ISA the CPU has x {keygen, sign, verify, prepare_public, prepare_secret,
 * verify_prepared, sign_prepared, and per item of a batch: verify_batch,
 * verify_prepared_batch, sign_batch}, the streaming mu's throughput per ISA, and per
 * arithmetic kernel.
 *
 *   mldsa-bench [--json] [--limit] [--isa NAME] [--param 44|65|87] [--runs N]
 *       --limit: beside each operation row, its limit model and the efficiency limit /
 *       median (sign, sign_prepared and sign_batch: the median over the runs of limit /
 *       ticks, each run's limit for the attempts of its message or its call's 64). The model is the operation's Keccak
 *       permutations (single-state and batched, counted as --keccak counts them, over the
 *       messages the rows time) at the batched permutation's median ticks per state, plus
 *       its kernel calls (counted from the structure of sign.c, limit_model below) at each
 *       kernel's median ticks of one call, all measured in the same run
 *   mldsa-bench --list-isas      (the ISAs this CPU supports, one per line)
 *   mldsa-bench --api [--param P] [--runs N]
 *       the public API (include/mldsa.h) as a program sees it, on the ISA the library
 *       chose (MLDSA_ISA caps it): keygen_from_seed, sign (deterministic) and verify of a
 *       32-byte message; everything the API adds is included (MCDT protection, and the
 *       signature check of MLDSA_SIGN_CHECK builds)
 *   mldsa-bench --mcdt [--isa NAME] [--param P] [--runs N]
 *       the cost of the MCDT protection (src/mcdt.h): the enter/leave pair alone, per
 *       kernel call (kernel-level placement) and per operation (operation-level, what
 *       the library does), each as the median over paired runs of (guarded - plain)
 *   mldsa-bench --keccak [--isa NAME] [--param P]
 *       per operation (keygen, sign, verify as the public calls do them: sign and verify
 *       include mu, verify H(pk) too), the single-state Keccak permutations and the calls
 *       of the batched permutation by lanes used, from counters compiled into this
 *       program's copy of the sponges only (src/keccak_count.h); sign is the mean over
 *       20 messages, keygen and verify do the same work for any seed and signature but
 *       are averaged the same way; then sign_prepared and verify_prepared (mu included) and
 *       the batch calls on the same 20 messages and signatures, per message
 *   mldsa-bench --once keygen|sign|sign20|verify --isa NAME --param P
 *       one operation with fixed inputs, inside once_<op>() alone, for
 *       valgrind --tool=callgrind --toggle-collect=once_<op> (ci/callgrind.sh)
 *
 * rdtsc counts reference cycles (the TSC's constant rate), not core clock cycles. Sign is
 * timed over --runs different messages, since its rejection loop varies; keygen over as
 * many seeds; verify over as many signatures. Sign and verify include hashing a 32-byte
 * message into mu, as the public API does (verify hashes pk into tr first; the prepared
 * calls take tr from the prepared key). sign_prepared signs the same messages as sign, so
 * both rows go through the same rejection loops. The prepared rows call the backend as
 * the other rows do: without the public API's header check (a few compares).
 *
 * Streaming mu (rows mu_update_1MiB): one mldsa_mu_update-sized absorb of a 1 MiB message
 * on each ISA's single-state Keccak (the public call on the ISA this process chose, the
 * same absorb through the backend's permutation on the others), against the number of
 * permutations it runs times the median time of one permutation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <x86intrin.h>

#include "backend.h"
#include "bench_util.h"
#include "cpu.h"
#include "fips202.h"
#include "fips202x.h"
#include "keccak_count.h"
#include "kernels.h"
#include "mcdt.h"
#include "mldsa.h"

/* 64-byte aligned heap blocks (the prepared keys): C11's aligned_alloc, or on Windows, whose
 * C runtime has none, _aligned_malloc (freed by _aligned_free). */
#if defined(_WIN32)
#include <malloc.h>
#define bench_aligned_alloc(n) _aligned_malloc((n), 64)
#define bench_aligned_free _aligned_free
#else
#define bench_aligned_alloc(n) aligned_alloc(64, (n))
#define bench_aligned_free free
#endif

typedef struct {
  const char *name;
  int (*supported)(void);
  const mldsa_backend *sets[3];
  unsigned keccak_lanes; /* W of the batched permutation */
} bench_isa;

#define BENCH_ISA(isa)  \
  {#isa,                \
   mldsa_cpu_has_##isa, \
   {MLDSA_SET_IF_44(&mldsa44_backend_##isa), MLDSA_SET_IF_65(&mldsa65_backend_##isa), \
    MLDSA_SET_IF_87(&mldsa87_backend_##isa)}, MLDSA_KECCAKX_W_##isa},
static const bench_isa isas[] = {MLDSA_FOR_EACH_ISA(BENCH_ISA)};
static const int params[3] = {44, 65, 87};

static int json = 0, progress_shown = 0;

typedef struct {
  uint64_t median, p10, p90, mean;
} stats;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static stats summarize(uint64_t *t, size_t n) {
  qsort(t, n, sizeof *t, cmp_u64);
  uint64_t sum = 0;
  for (size_t i = 0; i < n; ++i) sum += t[i];
  return (stats){t[n / 2], t[n / 10], t[(n * 9) / 10], sum / n};
}

static void progress(const char *what) {
  if (json || !isatty(STDERR_FILENO)) return;
  fprintf(stderr, "\r  measuring %-40s", what);
  progress_shown = 1;
}

static void clear_progress(void) {
  if (progress_shown) fprintf(stderr, "\r%60s\r", "");
  progress_shown = 0;
}

static int first_row = 1;

/* --limit: the limit model of the operations of the set being measured (limit_model
 * below), by op name; 0 without --limit or for rows it does not model. */
static int limit_on = 0;
static double limit_of(const char *op);
/* The limit of each timed run of op (the model for that run's message), or NULL. */
static const double *run_limits_of(const char *op);
#if defined(MLDSA_KECCAK_COUNTING)
static void limit_model(size_t i, int param, const mldsa_backend *b, size_t runs);
#endif

/* The efficiency of a row whose model gives each run its own limit (one signature: the
 * attempts vary by message): the median of limit / ticks over the runs, t in the order
 * of the runs (a mean of the ticks would carry every preemption of a shared machine);
 * -1 for the other rows. */
static double run_efficiency(const char *op, const uint64_t *t, size_t runs) {
  const double *lim = run_limits_of(op);
  if (lim == NULL) return -1;
  double *r = malloc(runs * sizeof *r), e;
  if (r == NULL) abort();
  for (size_t j = 0; j < runs; ++j) r[j] = lim[j] / (double)(t[j] ? t[j] : 1);
  qsort(r, runs, sizeof *r, cmp_double);
  e = r[runs / 2];
  free(r);
  return e;
}

static void print_op(int param, const char *isa, const char *op, stats s, double eff);

/* A timed row: t[j] the ticks of run j; summarized (t sorted) and printed with the
 * efficiency under --limit, limit / median unless the runs have limits of their own. */
static void print_row(int param, const char *isa, const char *op, uint64_t *t, size_t runs) {
  double eff = limit_on ? run_efficiency(op, t, runs) : 0;
  stats s = summarize(t, runs);
  if (limit_on && eff < 0) eff = limit_of(op) / (double)s.median;
  print_op(param, isa, op, s, eff);
}

static void print_op(int param, const char *isa, const char *op, stats s, double eff) {
  double limit = limit_of(op);
  if (json) {
    printf(
        "%s\n  {\"param\": %d, \"isa\": \"%s\", \"op\": \"%s\", \"median\": %llu, "
        "\"p10\": %llu, \"p90\": %llu, \"mean\": %llu",
        first_row ? "" : ",", param, isa, op, (unsigned long long)s.median,
        (unsigned long long)s.p10, (unsigned long long)s.p90, (unsigned long long)s.mean);
    if (limit > 0) printf(", \"limit\": %.0f, \"efficiency\": %.3f", limit, eff);
    printf("}");
  } else {
    clear_progress();
    printf("  ML-DSA-%d  %-7s %-8s %10llu %10llu %10llu %10llu", param, isa, op,
           (unsigned long long)s.median, (unsigned long long)s.p10, (unsigned long long)s.p90,
           (unsigned long long)s.mean);
    if (limit > 0) printf(" %10.0f %5.2f", limit, eff);
    printf("\n");
  }
  first_row = 0;
}

/* One benchmark row: runs + runs/10 calls (the first tenth warms up), each timed around
 * `call`, an expression giving 0 on success, and divided by `items` (the items of a batch
 * call; 1 otherwise); `setup` runs untimed before each call, with i the call's index. */
#define TIME_ITEMS(op, setup, call, items)                                \
  do {                                                                    \
    snprintf(what, sizeof what, "ML-DSA-%d %s %s", param, isa->name, op); \
    progress(what);                                                       \
    for (size_t i = 0; i < runs + runs / 10; ++i) {                       \
      setup;                                                              \
      uint64_t t0 = ticks_begin();                                        \
      int rc = (call);                                                    \
      uint64_t t1 = ticks_end();                                          \
      if (rc != 0) abort();                                               \
      if (i >= runs / 10) t[i - runs / 10] = (t1 - t0) / (items);         \
    }                                                                     \
    print_row(param, isa->name, op, t, runs);                             \
  } while (0)
#define TIME_OP(op, setup, call) TIME_ITEMS(op, setup, call, 1)

/* ---- batches: ticks per item ---- */

/* Items per timed batch call: a multiple of every ISA's verify group (1, 2, 4, 8) and
 * the sign group (MLDSA_SIGN_GROUP), so that every call is whole groups. */
#define BATCH_ITEMS 64

/* The backend's batch calls on n items, cut into groups as the public calls do (all the
 * items here are well formed, with empty contexts). */
static int bench_verify_batch(const mldsa_backend *b, const mldsa_prepared_public_key *pp,
                              const mldsa_verify_item *items, size_t n) {
  const mldsa_verify_item *group[MLDSA_BATCH_MAX];
  int res[MLDSA_BATCH_MAX], bad = 0;
  for (size_t i = 0; i < n; i += b->batch_width) {
    unsigned g = n - i < b->batch_width ? (unsigned)(n - i) : b->batch_width;
    for (unsigned t = 0; t < g; ++t) group[t] = &items[i + t];
    b->verify_batch(pp, group, g, res);
    for (unsigned t = 0; t < g; ++t) bad |= res[t] != 0;
  }
  return bad;
}

static int bench_sign_batch(const mldsa_backend *b, const mldsa_prepared_secret_key *ps,
                            const mldsa_sign_item *items, size_t n) {
  const mldsa_sign_item *group[MLDSA_SIGN_GROUP];
  const uint8_t *rnd[MLDSA_SIGN_GROUP];
  int res[MLDSA_SIGN_GROUP], bad = 0;
  for (size_t i = 0; i < n; i += MLDSA_SIGN_GROUP) {
    unsigned g = n - i < MLDSA_SIGN_GROUP ? (unsigned)(n - i) : MLDSA_SIGN_GROUP;
    for (unsigned t = 0; t < g; ++t) {
      group[t] = &items[i + t];
      rnd[t] = items[i + t].rnd;
    }
    b->sign_batch(ps, group, rnd, g, res);
    for (unsigned t = 0; t < g; ++t) bad |= res[t] != 0;
  }
  return bad;
}

/* Call i's items: 64 new messages (those of the sign rows' numbering, 64 per call). */
static void sign_items(mldsa_sign_item *si, uint8_t (*msgs)[32], uint8_t *out, size_t sig_bytes,
                       const uint8_t *rnd, size_t i) {
  for (size_t k = 0; k < BATCH_ITEMS; ++k) {
    fill(msgs[k], 32, (uint32_t)(i * BATCH_ITEMS + k + 1000000));
    si[k] = (mldsa_sign_item){msgs[k], 32, NULL, 0, rnd, out + k * sig_bytes, sig_bytes};
  }
}

/* Rows verify_batch, verify_prepared_batch (64 signatures of different messages under
 * pk, one call) and sign_batch (64 different messages: the messages of the sign rows, in
 * order, 64 per call), in ticks per item: each run is one call's ticks / 64. */
static void bench_batches(const bench_isa *isa, int param, const mldsa_backend *b,
                          const uint8_t *pk, const mldsa_prepared_public_key *pp,
                          const mldsa_prepared_secret_key *ps, size_t runs) {
  uint8_t *sigs = malloc(BATCH_ITEMS * b->sig_bytes), msgs[BATCH_ITEMS][32], mu[64];
  uint8_t rnd[32] = {0};
  uint64_t *t = malloc(runs * sizeof *t);
  mldsa_verify_item vi[BATCH_ITEMS], vpi[BATCH_ITEMS];
  mldsa_sign_item si[BATCH_ITEMS];
  char what[64];
  if (!sigs || !t) abort();
  const uint8_t *ps_tr = ((const mldsa_prepared_header *)ps)->tr;
  for (size_t k = 0; k < BATCH_ITEMS; ++k) {
    fill(msgs[k], 32, (uint32_t)(k + 2000000));
    message_mu_tr(b, mu, ps_tr, msgs[k], 32);
    if (b->sign_prepared(sigs + k * b->sig_bytes, ps, mu, rnd) != 0) abort();
    vi[k] = (mldsa_verify_item){pk, b->pk_bytes, msgs[k], 32, NULL, 0,
                                sigs + k * b->sig_bytes, b->sig_bytes};
    vpi[k] = vi[k];
    vpi[k].pk = NULL;
    vpi[k].pk_len = 0;
  }
#define TIME_BATCH(op, setup, call) TIME_ITEMS(op, setup, call, BATCH_ITEMS)
  TIME_BATCH("verify_batch", (void)0, bench_verify_batch(b, NULL, vi, BATCH_ITEMS));
  TIME_BATCH("verify_prepared_batch", (void)0, bench_verify_batch(b, pp, vpi, BATCH_ITEMS));
  uint8_t *out = malloc(BATCH_ITEMS * b->sig_bytes);
  if (!out) abort();
  TIME_BATCH("sign_batch", sign_items(si, msgs, out, b->sig_bytes, rnd, i),
             bench_sign_batch(b, ps, si, BATCH_ITEMS));
#undef TIME_BATCH
  free(out);
  free(sigs);
  free(t);
}

static void bench_ops(const bench_isa *isa, int param, const mldsa_backend *b, size_t runs) {
  uint8_t *pk = malloc(b->pk_bytes), *sk = malloc(b->sk_bytes), *sig = malloc(b->sig_bytes);
  uint64_t *t = malloc(runs * sizeof *t);
  uint8_t seed[32], msg[32], mu[64], rnd[32] = {0};
  char what[64];
  /* Prepared keys: caller memory with the alignment of their types. */
  mldsa_prepared_public_key *pp = bench_aligned_alloc(sizeof *pp);
  mldsa_prepared_secret_key *ps = bench_aligned_alloc(sizeof *ps);
  if (!pk || !sk || !sig || !t || !pp || !ps) abort();
#if defined(MLDSA_KECCAK_COUNTING)
  if (limit_on) limit_model((size_t)(isa - isas), param, b, runs);
#endif

  TIME_OP("keygen", fill(seed, sizeof seed, (uint32_t)i), (b->keygen(pk, sk, seed), 0));
  /* sign and sign_prepared sign the same messages; verify rows check the last signature */
  TIME_OP("sign", fill(msg, sizeof msg, (uint32_t)(i + 1000000)),
          sign_message(b, sig, sk, msg, 32, rnd));
  TIME_OP("verify", (void)0, verify_message(b, sig, pk, msg, 32));
  TIME_OP("prepare_public", (void)0, (b->prepare_public(pp, pk), 0));
  TIME_OP("prepare_secret", (void)0, b->prepare_secret(ps, sk));
  const uint8_t *pp_tr = ((const mldsa_prepared_header *)pp)->tr;
  const uint8_t *ps_tr = ((const mldsa_prepared_header *)ps)->tr;
  TIME_OP("sign_prepared", fill(msg, sizeof msg, (uint32_t)(i + 1000000)),
          (message_mu_tr(b, mu, ps_tr, msg, 32), b->sign_prepared(sig, ps, mu, rnd)));
  TIME_OP("verify_prepared", (void)0,
          (message_mu_tr(b, mu, pp_tr, msg, 32), b->verify_prepared(pp, sig, mu)));
  bench_batches(isa, param, b, pk, pp, ps, runs);
  memset(ps, 0, sizeof *ps);
  bench_aligned_free(pp);
  bench_aligned_free(ps);
  free(pk);
  free(sk);
  free(sig);
  free(t);
}

/* ---- kernels: one call each, median of many ---- */

#define KERNEL_RUNS 2001

static int32_t kin_a[8 * MLDSA_N], kin_b[8 * MLDSA_N], kout[MLDSA_N], kout2[MLDSA_N];
/* Keccak states (up to 8, lane-interleaved) and sampler input: SHAKE output bytes. */
static _Alignas(64) uint64_t kstates[25 * 8];
static uint8_t kbytes[840];

static void kernel_inputs(void) {
  uint8_t buf[4 * 8 * MLDSA_N];
  fill(kbytes, sizeof kbytes, 8);
  fill(buf, sizeof buf, 7);
  for (unsigned i = 0; i < 8 * MLDSA_N; ++i) {
    uint32_t v = buf[4 * i] | (uint32_t)buf[4 * i + 1] << 8 | (uint32_t)buf[4 * i + 2] << 16;
    kin_a[i] = (int32_t)(v % MLDSA_Q); /* [0, q): inside every kernel's contract */
    kin_b[i] = (int32_t)((v >> 1) % MLDSA_Q) - MLDSA_Q / 2;
  }
}

/* One kernel's median ticks of one call (timer overhead subtracted), for the kernel rows
 * and the limit model. */
#define KERNEL_MEDIAN(dst, call)                           \
  do {                                                     \
    uint64_t t_[KERNEL_RUNS];                              \
    for (unsigned r_ = 0; r_ < KERNEL_RUNS; ++r_) {        \
      memcpy(kout, kin_a, sizeof kout);                    \
      uint64_t t0_ = ticks_begin();                        \
      call;                                                \
      t_[r_] = ticks_end() - t0_;                          \
    }                                                      \
    uint64_t m_ = summarize(t_, KERNEL_RUNS).median;       \
    (dst) = m_ > overhead ? (double)(m_ - overhead) : 0.0; \
  } while (0)

#define TIME_KERNEL(isa_name, kname, call)         \
  do {                                             \
    double med_;                                   \
    KERNEL_MEDIAN(med_, call);                     \
    print_kernel(isa_name, kname, (uint64_t)med_); \
  } while (0)

static uint64_t overhead;

static void print_kernel(const char *isa, const char *kernel, uint64_t median) {
  if (json) {
    printf("%s\n  {\"isa\": \"%s\", \"kernel\": \"%s\", \"median\": %llu}", first_row ? "" : ",",
           isa, kernel, (unsigned long long)median);
  } else {
    clear_progress();
    printf("  %-7s %-22s %8llu\n", isa, kernel, (unsigned long long)median);
  }
  first_row = 0;
}

#define MLDSA_STR_(x) #x
#define MLDSA_STR(x) MLDSA_STR_(x)
#define BENCH_KERNELS(isa)                                                                        \
  static void bench_kernels_##isa(void) {                                                         \
    const char *n = #isa;                                                                         \
    TIME_KERNEL(n, "ntt", mldsa_ntt_##isa(kout));                                                 \
    TIME_KERNEL(n, "invntt_tomont", mldsa_invntt_tomont_##isa(kout));                             \
    TIME_KERNEL(n, "ntt_reorder", mldsa_ntt_reorder_##isa(kout));                                 \
    TIME_KERNEL(n, "pointwise_montgomery", mldsa_pointwise_montgomery_##isa(kout, kin_a, kin_b)); \
    TIME_KERNEL(n, "pointwise_acc(L=5)", mldsa_pointwise_acc_##isa(kout, kin_a, kin_b, 5));       \
    TIME_KERNEL(n, "add", mldsa_add_##isa(kout, kin_a, kin_b));                                   \
    TIME_KERNEL(n, "sub", mldsa_sub_##isa(kout, kin_a, kin_b));                                   \
    TIME_KERNEL(n, "reduce32", mldsa_reduce32_##isa(kout));                                       \
    TIME_KERNEL(n, "caddq", mldsa_caddq_##isa(kout));                                             \
    TIME_KERNEL(n, "shiftl", mldsa_shiftl_##isa(kout));                                           \
    TIME_KERNEL(n, "power2round", mldsa_power2round_##isa(kout, kout2, kin_a));                   \
    TIME_KERNEL(n, "decompose_g32", mldsa_decompose_g32_##isa(kout, kout2, kin_a));               \
    TIME_KERNEL(n, "decompose_g88", mldsa_decompose_g88_##isa(kout, kout2, kin_a));               \
    TIME_KERNEL(n, "make_hint_g32", (void)mldsa_make_hint_g32_##isa(kout, kin_b, kin_a));         \
    TIME_KERNEL(n, "use_hint_g32", mldsa_use_hint_g32_##isa(kout, kin_a, kout2));                 \
    TIME_KERNEL(n, "chknorm", (void)mldsa_chknorm_##isa(kin_b, 1 << 19));                         \
    TIME_KERNEL(n, "unpack_z_g19", mldsa_unpack_z_g19_##isa(kout, kbytes));                       \
    TIME_KERNEL(n, "pack_w1_g32", mldsa_pack_w1_g32_##isa((uint8_t *)kout, kin_b));               \
    TIME_KERNEL(n, "pack_w1_g88", mldsa_pack_w1_g88_##isa((uint8_t *)kout, kin_b));               \
    TIME_KERNEL(n, "pack_z_g19", mldsa_pack_z_g19_##isa((uint8_t *)kout, kin_b));                 \
    TIME_KERNEL(n, "rej_uniform(840 B)", (void)mldsa_rej_uniform_##isa(kout, 0, kbytes, 840));    \
    TIME_KERNEL(n, "rej_eta4(272 B)", (void)mldsa_rej_eta4_##isa(kout, 0, kbytes, 272));          \
    TIME_KERNEL(n, "keccak_f1600_x1", mldsa_keccak_f1600_x1_##isa(kstates));                      \
    TIME_KERNEL(n, "keccak_f1600_batch(x" MLDSA_STR(MLDSA_KECCAKX_W_##isa) ")",                   \
                mldsa_keccak_f1600_batch_##isa(kstates));                                         \
  }
MLDSA_FOR_EACH_ISA(BENCH_KERNELS)

typedef struct {
  const char *name;
  void (*run)(void);
} kernel_bench;
#define KERNEL_BENCH_ENTRY(isa) {#isa, bench_kernels_##isa},
static const kernel_bench kernel_benches[] = {MLDSA_FOR_EACH_ISA(KERNEL_BENCH_ENTRY)};

static void measure_overhead(void) {
  uint64_t t[KERNEL_RUNS];
  for (unsigned r = 0; r < KERNEL_RUNS; ++r) {
    uint64_t t0 = ticks_begin();
    uint64_t t1 = ticks_end();
    t[r] = t1 - t0;
  }
  overhead = summarize(t, KERNEL_RUNS).median;
}

/* ---- streaming mu: mldsa_mu_update of 1 MiB ---- */

#define STREAM_BYTES ((size_t)1 << 20)
#define STREAM_RUNS 31

static void bench_stream(const bench_isa *isa) {
  /* mu does not depend on the set: the first one this build has */
  int set = 0;
  while (set < 2 && isa->sets[set] == NULL) ++set;
  const mldsa_backend *b = isa->sets[set];
  if (b == NULL) return;
  int public_call = strcmp(isa->name, mldsa_isa()) == 0;
  uint8_t *buf = malloc(STREAM_BYTES), pk[4096], sk[8192], seed[32] = {7};
  uint64_t t[STREAM_RUNS], perm[KERNEL_RUNS];
  if (buf == NULL) abort();
  fill(buf, STREAM_BYTES, 9);
  b->keygen(pk, sk, seed);
  /* one permutation, on a state of the shape the sponge keeps */
  static _Alignas(64) uint64_t s[25];
  for (unsigned r = 0; r < KERNEL_RUNS; ++r) {
    uint64_t t0 = ticks_begin();
    b->keccak(s);
    uint64_t t1 = ticks_end();
    perm[r] = t1 - t0;
  }
  uint64_t perm_median = summarize(perm, KERNEL_RUNS).median - overhead;
  unsigned start_pos = 0;
  for (unsigned r = 0; r < STREAM_RUNS; ++r) {
    mldsa_mu_state api;
    mldsa_keccak st;
    uint64_t t0, t1;
    if (public_call) {
      if (mldsa_mu_init(&api, (mldsa_param)params[set], pk, b->pk_bytes, NULL, 0) != MLDSA_OK)
        abort();
      start_pos = 66; /* tr || 0 || 0 */
      t0 = ticks_begin();
      int rc = mldsa_mu_update(&api, buf, STREAM_BYTES);
      t1 = ticks_end();
      if (rc != MLDSA_OK) abort();
    } else { /* what mldsa_mu_update runs, on this ISA's permutation */
      static const uint8_t prefix[66];
      mldsa_shake256_init_with(&st, b->keccak);
      mldsa_shake_absorb(&st, prefix, sizeof prefix);
      start_pos = st.pos;
      t0 = ticks_begin();
      mldsa_shake_absorb(&st, buf, STREAM_BYTES);
      t1 = ticks_end();
    }
    t[r] = t1 - t0;
  }
  stats m = summarize(t, STREAM_RUNS);
  uint64_t perms = (start_pos + STREAM_BYTES) / MLDSA_SHAKE256_RATE;
  double expect = (double)perms * (double)perm_median;
  if (json) {
    printf(
        "%s\n  {\"isa\": \"%s\", \"op\": \"mu_update_1MiB\", \"median\": %llu, \"p10\": %llu, "
        "\"p90\": %llu, \"mean\": %llu, \"bytes\": %zu, \"permutations\": %llu, "
        "\"permutation_median\": %llu, \"ratio\": %.3f, \"public_call\": %s}",
        first_row ? "" : ",", isa->name, (unsigned long long)m.median, (unsigned long long)m.p10,
        (unsigned long long)m.p90, (unsigned long long)m.mean, STREAM_BYTES,
        (unsigned long long)perms, (unsigned long long)perm_median, (double)m.median / expect,
        public_call ? "true" : "false");
  } else {
    clear_progress();
    printf("  %-7s %10llu %8.4f %6llu x %5llu = %10.0f  %5.3f  %s\n", isa->name,
           (unsigned long long)m.median, (double)STREAM_BYTES / (double)m.median,
           (unsigned long long)perms, (unsigned long long)perm_median, expect,
           (double)m.median / expect, public_call ? "mldsa_mu_update" : "its absorb");
  }
  first_row = 0;
  free(buf);
}

/* ---- MCDT: the cost of the MXCSR protection ---- */

/* Median of (guarded - plain) over paired runs, the two in alternating order; and the
 * median plain time. */
typedef struct {
  uint64_t plain, extra;
} paired;

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

#define PAIRED(result, runs, setup, call)                                 \
  do {                                                                    \
    uint64_t *plain_ = malloc((runs) * sizeof *plain_);                   \
    int64_t *diff_ = malloc((runs) * sizeof *diff_);                      \
    if (!plain_ || !diff_) abort();                                       \
    for (size_t r_ = 0; r_ < (runs); ++r_) {                              \
      uint64_t tp_ = 0, tg_ = 0;                                          \
      for (int k_ = 0; k_ < 2; ++k_) {                                    \
        int guarded_ = (int)((r_ + (size_t)k_) & 1);                      \
        mldsa_mcdt_state st_;                                             \
        setup;                                                            \
        uint64_t t0_ = ticks_begin();                                     \
        if (guarded_) mldsa_mcdt_enter(&st_);                             \
        call;                                                             \
        if (guarded_) mldsa_mcdt_leave(&st_);                             \
        uint64_t t1_ = ticks_end();                                       \
        if (guarded_)                                                     \
          tg_ = t1_ - t0_;                                                \
        else                                                              \
          tp_ = t1_ - t0_;                                                \
      }                                                                   \
      plain_[r_] = tp_;                                                   \
      diff_[r_] = (int64_t)tg_ - (int64_t)tp_;                            \
    }                                                                     \
    qsort(plain_, (runs), sizeof *plain_, cmp_u64);                       \
    qsort(diff_, (runs), sizeof *diff_, cmp_i64);                         \
    (result).plain = plain_[(runs) / 2];                                  \
    (result).extra = diff_[(runs) / 2] > 0 ? (uint64_t)diff_[(runs) / 2] : 0; \
    free(plain_);                                                         \
    free(diff_);                                                          \
  } while (0)

static void print_mcdt(const char *what, paired r) {
  printf("  %-40s %10llu %8llu %7.3f%%\n", what, (unsigned long long)r.plain,
         (unsigned long long)r.extra, r.plain ? 100.0 * (double)r.extra / (double)r.plain : 0.0);
}

static void bench_mcdt(const char *only_isa, int only_param, size_t runs) {
  printf("MCDT protection (stmxcsr; ldmxcsr 0x1FBF; lfence ... lfence; ldmxcsr): %s on this "
         "CPU\nmedian ticks over %zu paired runs: plain, guarded - plain, and the ratio\n\n",
         mldsa_mcdt_active() ? "active" : "not needed (MCDT_NO), forced for this measurement",
         runs);
  paired pair;
  PAIRED(pair, KERNEL_RUNS, (void)0, (void)0);
  print_mcdt("enter + leave alone", pair);
  for (size_t i = 0; i < sizeof isas / sizeof isas[0]; ++i) {
    if ((only_isa && strcmp(only_isa, isas[i].name) != 0) || !isas[i].supported()) continue;
    char what[80];
    paired r;
    /* kernel-level placement: the pair around one kernel call */
#define MCDT_KERNEL(isa)                                                                         \
  if (strcmp(isas[i].name, #isa) == 0) {                                                        \
    PAIRED(r, KERNEL_RUNS, memcpy(kout, kin_a, sizeof kout), mldsa_ntt_##isa(kout));            \
    snprintf(what, sizeof what, "%s: ntt, one call", #isa);                                     \
    print_mcdt(what, r);                                                                         \
    PAIRED(r, KERNEL_RUNS, (void)0, mldsa_pointwise_montgomery_##isa(kout, kin_a, kin_b));      \
    snprintf(what, sizeof what, "%s: pointwise_montgomery, one call", #isa);                    \
    print_mcdt(what, r);                                                                         \
    PAIRED(r, KERNEL_RUNS, (void)0, mldsa_keccak_f1600_x1_##isa(kstates));                      \
    snprintf(what, sizeof what, "%s: keccak_f1600_x1, one call", #isa);                         \
    print_mcdt(what, r);                                                                         \
  }
    MLDSA_FOR_EACH_ISA(MCDT_KERNEL)
#undef MCDT_KERNEL
    /* operation-level placement: the pair around one operation */
    for (int p = 0; p < 3; ++p) {
      if (only_param && only_param != params[p]) continue;
      const mldsa_backend *b = isas[i].sets[p];
      uint8_t *pk = malloc(b->pk_bytes), *sk = malloc(b->sk_bytes), *sig = malloc(b->sig_bytes);
      uint8_t seed[32], msg[32], rnd[32] = {0};
      if (!pk || !sk || !sig) abort();
      size_t k = 0;
      PAIRED(r, runs, fill(seed, sizeof seed, (uint32_t)(k++ / 2)), b->keygen(pk, sk, seed));
      snprintf(what, sizeof what, "%s: ML-DSA-%d keygen", isas[i].name, params[p]);
      print_mcdt(what, r);
      k = 0;
      PAIRED(r, runs, fill(msg, sizeof msg, (uint32_t)(k++ / 2)),
             (void)sign_message(b, sig, sk, msg, 32, rnd));
      snprintf(what, sizeof what, "%s: ML-DSA-%d sign", isas[i].name, params[p]);
      print_mcdt(what, r);
      PAIRED(r, runs, (void)0, (void)verify_message(b, sig, pk, msg, 32));
      snprintf(what, sizeof what, "%s: ML-DSA-%d verify", isas[i].name, params[p]);
      print_mcdt(what, r);
      free(pk);
      free(sk);
      free(sig);
    }
  }
}

/* ---- the public API ---- */

static void bench_api(int only_param, size_t runs) {
  static const mldsa_param ps[3] = {MLDSA_44, MLDSA_65, MLDSA_87};
  uint64_t *t = malloc(runs * sizeof *t);
  uint8_t pk[2592], sk[4896], sig[4627], seed[32], msg[32];
  static const uint8_t rnd[32];
  if (!t) abort();
  printf("public API on %s%s: rdtsc ticks, median of %zu runs\n\n", mldsa_isa(),
#ifdef MLDSA_SIGN_CHECK
         ", MLDSA_SIGN_CHECK build",
#else
         "",
#endif
         runs);
  for (int p = 0; p < 3; ++p) {
    if (only_param && only_param != params[p]) continue;
    size_t pkl = mldsa_public_key_bytes(ps[p]), skl = mldsa_secret_key_bytes(ps[p]),
           sigl = mldsa_signature_bytes(ps[p]);
    for (size_t i = 0; i < runs; ++i) {
      fill(seed, sizeof seed, (uint32_t)i);
      uint64_t t0 = ticks_begin();
      int rc = mldsa_keygen_from_seed(ps[p], pk, pkl, sk, skl, seed);
      t[i] = ticks_end() - t0;
      if (rc) abort();
    }
    print_op(params[p], mldsa_isa(), "keygen", summarize(t, runs), 0);
    for (size_t i = 0; i < runs; ++i) {
      fill(msg, sizeof msg, (uint32_t)(i + 1000000));
      uint64_t t0 = ticks_begin();
      int rc = mldsa_sign(ps[p], sig, sigl, msg, sizeof msg, NULL, 0, rnd, sk, skl);
      t[i] = ticks_end() - t0;
      if (rc) abort();
    }
    print_op(params[p], mldsa_isa(), "sign", summarize(t, runs), 0);
    for (size_t i = 0; i < runs; ++i) {
      uint64_t t0 = ticks_begin();
      int rc = mldsa_verify(ps[p], sig, sigl, msg, sizeof msg, NULL, 0, pk, pkl);
      t[i] = ticks_end() - t0;
      if (rc) abort();
    }
    print_op(params[p], mldsa_isa(), "verify", summarize(t, runs), 0);
  }
  free(t);
}

/* ---- one operation for instruction counting ---- */

static uint8_t once_pk[4096], once_sk[8192], once_sig[8192];
static const uint8_t once_seed[32] = {1, 2, 3}, once_rnd[32];
static const uint8_t once_msg[32] = "libmldsa callgrind message";

__attribute__((noinline)) void once_keygen(const mldsa_backend *b) {
  b->keygen(once_pk, once_sk, once_seed);
}
__attribute__((noinline)) int once_sign(const mldsa_backend *b) {
  return sign_message(b, once_sig, once_sk, once_msg, 32, once_rnd);
}
/* Twenty signatures of twenty different messages: callgrind's count / 20 is the mean
 * cost of a signature, averaged over the rejection loop's variation. */
#define SIGN_MEAN_MESSAGES 20
__attribute__((noinline)) int once_sign20(const mldsa_backend *b) {
  int bad = 0;
  for (uint32_t i = 0; i < SIGN_MEAN_MESSAGES; ++i) {
    uint8_t msg[32];
    fill(msg, sizeof msg, 2000000 + i);
    bad |= sign_message(b, once_sig, once_sk, msg, 32, once_rnd);
  }
  return bad;
}
__attribute__((noinline)) int once_verify(const mldsa_backend *b) {
  return verify_message(b, once_sig, once_pk, once_msg, 32);
}

/* ---- Keccak permutations per operation (--keccak) ---- */

#if defined(MLDSA_KECCAK_COUNTING)
#define KECCAK_RUNS 20

static void keccak_row(int param, const bench_isa *isa, const char *op, mldsa_keccak_counts c) {
  unsigned w = isa->keccak_lanes;
  uint64_t calls = 0, lanes = 0;
  char hist[128] = "", *h = hist;
  for (unsigned n = w; n >= 1; --n) {
    calls += c.batch[n];
    lanes += n * c.batch[n];
    if (c.batch[n] && h < hist + sizeof hist - 24)
      h += snprintf(h, (size_t)(hist + sizeof hist - h), "%s%u:%.1f", h == hist ? "" : " ", n,
                    (double)c.batch[n] / KECCAK_RUNS);
  }
  double idle = calls ? 100.0 * (double)(calls * w - lanes) / (double)(calls * w) : 0.0;
  if (json) {
    printf("%s\n  {\"param\": %d, \"isa\": \"%s\", \"op\": \"%s\", \"x1\": %.2f, "
           "\"batched_calls\": %.2f, \"lanes\": %u, \"lane_slots_used\": %.2f, "
           "\"idle_percent\": %.2f}",
           first_row ? "" : ",", param, isa->name, op, (double)c.x1 / KECCAK_RUNS,
           (double)calls / KECCAK_RUNS, w, (double)lanes / KECCAK_RUNS, idle);
    first_row = 0;
  } else {
    printf("  ML-DSA-%d  %-7s %-21s %8.1f %8.1f %5.1f%%   %s\n", param, isa->name, op,
           (double)c.x1 / KECCAK_RUNS, (double)calls / KECCAK_RUNS, idle, hist);
  }
}

/* The operations --keccak counts and --limit models, in the order --keccak prints them. */
enum {
  OP_KEYGEN,
  OP_SIGN,
  OP_VERIFY,
  OP_SIGN_PREPARED,
  OP_VERIFY_PREPARED,
  OP_SIGN_BATCH,
  OP_VERIFY_BATCH,
  OP_VERIFY_PREPARED_BATCH,
  N_OPS
};
static const char *const op_names[N_OPS] = {
    "keygen",          "sign",       "verify",       "sign_prepared",
    "verify_prepared", "sign_batch", "verify_batch", "verify_prepared_batch"};

/* The counters over n runs of each operation on b: keygen, sign and verify as the public
 * calls do them, then sign_prepared and verify_prepared (mu included) and the batch calls
 * on the same messages (fill(msg, 32, first + r)) and signatures, all n at once (the
 * counts are per message either way), under the key of fill(seed, 32, key_seed). sign_x1,
 * unless NULL: sign_prepared's single-state permutations for each message. */
static void keccak_counts(const mldsa_backend *b, mldsa_keccak_counts c[N_OPS], size_t n,
                          uint32_t first, uint32_t key_seed, uint64_t *sign_x1) {
  static uint8_t pk[4096], sk[8192], seed[32];
  static const uint8_t rnd[32];
  uint8_t(*sig)[8192] = malloc(n * sizeof *sig), (*out)[8192] = malloc(n * sizeof *out),
  (*msgs)[32] = malloc(n * sizeof *msgs);
  mldsa_verify_item *vi = malloc(n * sizeof *vi), *vpi = malloc(n * sizeof *vpi);
  mldsa_sign_item *si = malloc(n * sizeof *si);
  uint8_t mu[64];
  if (!sig || !out || !msgs || !vi || !vpi || !si) abort();
  memset(&mldsa_keccak_counter, 0, sizeof mldsa_keccak_counter);
  for (uint32_t r = 0; r < n; ++r) {
    fill(seed, sizeof seed, 3000000 + r);
    b->keygen(pk, sk, seed);
  }
  c[OP_KEYGEN] = mldsa_keccak_counter;
  fill(seed, sizeof seed, key_seed);
  b->keygen(pk, sk, seed);
  memset(&mldsa_keccak_counter, 0, sizeof mldsa_keccak_counter);
  for (uint32_t r = 0; r < n; ++r) {
    fill(msgs[r], 32, first + r);
    (void)sign_message(b, sig[r], sk, msgs[r], 32, rnd);
  }
  c[OP_SIGN] = mldsa_keccak_counter;
  memset(&mldsa_keccak_counter, 0, sizeof mldsa_keccak_counter);
  for (uint32_t r = 0; r < n; ++r) {
    if (verify_message(b, sig[r], pk, msgs[r], 32) != MLDSA_OK) {
      fprintf(stderr, "mldsa-bench: a signature did not verify\n");
      exit(EXIT_FAILURE);
    }
  }
  c[OP_VERIFY] = mldsa_keccak_counter;
  mldsa_prepared_public_key *pp = bench_aligned_alloc(sizeof *pp);
  mldsa_prepared_secret_key *ps = bench_aligned_alloc(sizeof *ps);
  if (!pp || !ps) abort();
  b->prepare_public(pp, pk);
  if (b->prepare_secret(ps, sk) != 0) abort();
  const uint8_t *pp_tr = ((const mldsa_prepared_header *)pp)->tr;
  const uint8_t *ps_tr = ((const mldsa_prepared_header *)ps)->tr;
  for (uint32_t r = 0; r < n; ++r) {
    vi[r] = (mldsa_verify_item){pk, b->pk_bytes, msgs[r], 32, NULL, 0, sig[r], b->sig_bytes};
    vpi[r] = (mldsa_verify_item){NULL, 0, msgs[r], 32, NULL, 0, sig[r], b->sig_bytes};
    si[r] = (mldsa_sign_item){msgs[r], 32, NULL, 0, rnd, out[r], b->sig_bytes};
  }
  memset(&mldsa_keccak_counter, 0, sizeof mldsa_keccak_counter);
  for (uint32_t r = 0; r < n; ++r) {
    uint64_t before = mldsa_keccak_counter.x1;
    message_mu_tr(b, mu, ps_tr, msgs[r], 32);
    if (b->sign_prepared(out[r], ps, mu, rnd) != 0) abort();
    if (sign_x1) sign_x1[r] = mldsa_keccak_counter.x1 - before;
  }
  c[OP_SIGN_PREPARED] = mldsa_keccak_counter;
  memset(&mldsa_keccak_counter, 0, sizeof mldsa_keccak_counter);
  for (uint32_t r = 0; r < n; ++r) {
    message_mu_tr(b, mu, pp_tr, msgs[r], 32);
    if (b->verify_prepared(pp, sig[r], mu) != 0) abort();
  }
  c[OP_VERIFY_PREPARED] = mldsa_keccak_counter;
  memset(&mldsa_keccak_counter, 0, sizeof mldsa_keccak_counter);
  if (bench_sign_batch(b, ps, si, n) != 0) abort();
  c[OP_SIGN_BATCH] = mldsa_keccak_counter;
  memset(&mldsa_keccak_counter, 0, sizeof mldsa_keccak_counter);
  if (bench_verify_batch(b, NULL, vi, n) != 0) abort();
  c[OP_VERIFY_BATCH] = mldsa_keccak_counter;
  memset(&mldsa_keccak_counter, 0, sizeof mldsa_keccak_counter);
  if (bench_verify_batch(b, pp, vpi, n) != 0) abort();
  c[OP_VERIFY_PREPARED_BATCH] = mldsa_keccak_counter;
  memset(ps, 0, sizeof *ps);
  bench_aligned_free(pp);
  bench_aligned_free(ps);
  free(sig);
  free(out);
  free(msgs);
  free(vi);
  free(vpi);
  free(si);
}

static void bench_keccak(const char *only_isa, int only_param) {
  if (json)
    printf("[");
  else
    printf(
        "Keccak-f[1600] per operation (mean of %d): single-state permutations, calls of "
        "the batched\npermutation, its idle lanes, and the calls by lanes used "
        "(lanes:calls)\n\n  %-9s %-7s %-21s %8s %8s %6s   %s\n",
        KECCAK_RUNS, "set", "isa", "op", "x1", "batched", "idle", "lanes used");
  for (size_t i = 0; i < sizeof isas / sizeof isas[0]; ++i) {
    if (only_isa && strcmp(only_isa, isas[i].name) != 0) continue;
    if (!isas[i].supported()) continue;
    for (int p = 0; p < 3; ++p) {
      const mldsa_backend *b = isas[i].sets[p];
      if ((only_param && only_param != params[p]) || b == NULL) continue;
      mldsa_keccak_counts c[N_OPS];
      keccak_counts(b, c, KECCAK_RUNS, 2000000, 3000000 + KECCAK_RUNS - 1, NULL);
      for (int op = 0; op < N_OPS; ++op) keccak_row(params[p], &isas[i], op_names[op], c[op]);
    }
  }
  if (json) printf("\n]\n");
}

/* ---- the limit model (--limit) ---- */

/* What an operation would cost if every Keccak permutation it needs ran at the batched
 * permutation's cost per state and its arithmetic at the speed of its kernels, each kernel
 * called as often as the operation calls it and costing its median time alone: the time
 * left when nothing around the kernels costs anything (C packers, copies, the sponges'
 * byte handling, calls, cache misses between kernels). Efficiency = limit / measured. */
enum {
  K_NTT,
  K_INVNTT,
  K_REORDER,
  K_PW,
  K_PWACC,
  K_ADD,
  K_SUB,
  K_REDUCE,
  K_CADDQ,
  K_SHIFTL,
  K_POWER2ROUND,
  K_DECOMPOSE,
  K_MAKE_HINT,
  K_USE_HINT,
  K_CHKNORM,
  K_UNPACK_Z,
  K_PACK_W1,
  K_PACK_Z,
  K_REJ_UNIFORM,
  K_REJ_ETA,
  N_KERNELS
};

typedef struct {
  double kernel[N_KERNELS]; /* median ticks of one call, on this set's variant */
  double perm_per_state;    /* median ticks of one batched permutation / W */
} kernel_costs;

/* The kernel calls of one operation per message, from the structure of src/sign.c and
 * src/expand.c for a set with k rows and l columns (checked against callgrind's call counts,
 * see docs/performance.md). The samplers count one call per polynomial: expand.c squeezes enough
 * for one call (840 bytes for A, 272 for s) except with probability below 0.001. Signing:
 * every attempt runs up to the r0 check; the z check, the t0 check and the hint are counted
 * once, for the accepted attempt (attempts rejected later than r0 make this a lower bound).
 * keeps_y: the z = y + c s1 form of sign.c's SIGN_KEEPS_Y (avx512 keeps y except for
 * ML-DSA-87). */
static void arith_counts(int op, unsigned k, unsigned l, double attempts, int keeps_y,
                         double n[N_KERNELS]) {
  memset(n, 0, N_KERNELS * sizeof n[0]);
  switch (op) {
    case OP_KEYGEN:
      n[K_REJ_UNIFORM] = k * l, n[K_REORDER] = k * l, n[K_REJ_ETA] = k + l;
      n[K_NTT] = l, n[K_PWACC] = k, n[K_REDUCE] = 2 * k, n[K_INVNTT] = k, n[K_ADD] = k;
      n[K_CADDQ] = k, n[K_POWER2ROUND] = k;
      return;
    case OP_SIGN:
    case OP_SIGN_PREPARED:
    case OP_SIGN_BATCH: {
      /* every attempt: y, w = A y a row at a time, decompose, c, the r0 check */
      const double a = attempts;
      n[K_UNPACK_Z] = a * l, n[K_NTT] = a * (l + 1), n[K_PWACC] = a * k;
      n[K_REDUCE] = a * 2 * k, n[K_INVNTT] = a * 2 * k, n[K_CADDQ] = a * k;
      n[K_DECOMPOSE] = a * k, n[K_PACK_W1] = a * k, n[K_PW] = a * k, n[K_SUB] = a * k, n[K_CHKNORM] = a * k;
      /* the accepted attempt: z, the t0 check with the hint count, the hint again */
      if (op == OP_SIGN_BATCH) n[K_UNPACK_Z] += l;
      if (keeps_y || op == OP_SIGN_BATCH)
        n[K_PW] += l, n[K_INVNTT] += l, n[K_ADD] += l, n[K_REDUCE] += l;
      else
        n[K_PW] += 2 * l, n[K_INVNTT] += l, n[K_ADD] += l, n[K_REDUCE] += 2 * l;
      n[K_CHKNORM] += l + k, n[K_PW] += k, n[K_INVNTT] += k, n[K_REDUCE] += k;
      n[K_ADD] += k, n[K_MAKE_HINT] += 2 * k, n[K_PACK_Z] += l;
      /* one-shot: the signing key from sk, and t0 into the NTT domain in the t0 check */
      if (op == OP_SIGN) {
        n[K_NTT] += l + k + k, n[K_REJ_UNIFORM] += k * l, n[K_REORDER] += k * l;
      }
      return;
    }
    case OP_VERIFY:
    case OP_VERIFY_BATCH:
    case OP_VERIFY_PREPARED:
    case OP_VERIFY_PREPARED_BATCH:
      /* z decoded and checked, c, A z - c t1 2^d, UseHint */
      n[K_UNPACK_Z] = l, n[K_CHKNORM] = l, n[K_NTT] = 1 + l, n[K_PWACC] = k;
      n[K_PW] = k, n[K_SUB] = k, n[K_REDUCE] = k, n[K_INVNTT] = k, n[K_CADDQ] = k;
      n[K_USE_HINT] = k, n[K_PACK_W1] = k;
      /* one-shot: the verifying key from pk */
      if (op == OP_VERIFY || op == OP_VERIFY_BATCH) {
        n[K_SHIFTL] = k, n[K_NTT] += k, n[K_REJ_UNIFORM] = k * l, n[K_REORDER] = k * l;
      }
      return;
  }
}

/* The costs of one ISA's kernels in the variants the set uses (gamma2 (q-1)/88 and
 * gamma1 2^17 for ML-DSA-44, eta 4 for ML-DSA-65). */
#define KERNEL_COSTS(isa)                                                                     \
  static void kernel_costs_##isa(int param, unsigned l, kernel_costs *c) {                    \
    double *t = c->kernel;                                                                    \
    int g88 = param == 44, eta4 = param == 65;                                                \
    KERNEL_MEDIAN(t[K_NTT], mldsa_ntt_##isa(kout));                                           \
    KERNEL_MEDIAN(t[K_INVNTT], mldsa_invntt_tomont_##isa(kout));                              \
    KERNEL_MEDIAN(t[K_REORDER], mldsa_ntt_reorder_##isa(kout));                               \
    KERNEL_MEDIAN(t[K_PW], mldsa_pointwise_montgomery_##isa(kout, kin_a, kin_b));             \
    KERNEL_MEDIAN(t[K_PWACC], mldsa_pointwise_acc_##isa(kout, kin_a, kin_b, l));              \
    KERNEL_MEDIAN(t[K_ADD], mldsa_add_##isa(kout, kin_a, kin_b));                             \
    KERNEL_MEDIAN(t[K_SUB], mldsa_sub_##isa(kout, kin_a, kin_b));                             \
    KERNEL_MEDIAN(t[K_REDUCE], mldsa_reduce32_##isa(kout));                                   \
    KERNEL_MEDIAN(t[K_CADDQ], mldsa_caddq_##isa(kout));                                       \
    KERNEL_MEDIAN(t[K_SHIFTL], mldsa_shiftl_##isa(kout));                                     \
    KERNEL_MEDIAN(t[K_POWER2ROUND], mldsa_power2round_##isa(kout, kout2, kin_a));             \
    KERNEL_MEDIAN(t[K_DECOMPOSE], g88 ? mldsa_decompose_g88_##isa(kout, kout2, kin_a)         \
                                      : mldsa_decompose_g32_##isa(kout, kout2, kin_a));       \
    KERNEL_MEDIAN(t[K_MAKE_HINT], g88 ? (void)mldsa_make_hint_g88_##isa(kout, kin_b, kin_a)   \
                                      : (void)mldsa_make_hint_g32_##isa(kout, kin_b, kin_a)); \
    KERNEL_MEDIAN(t[K_USE_HINT], g88 ? mldsa_use_hint_g88_##isa(kout, kin_a, kout2)           \
                                     : mldsa_use_hint_g32_##isa(kout, kin_a, kout2));         \
    KERNEL_MEDIAN(t[K_CHKNORM], (void)mldsa_chknorm_##isa(kin_b, 1 << 19));                   \
    KERNEL_MEDIAN(t[K_UNPACK_Z], g88 ? mldsa_unpack_z_g17_##isa(kout, kbytes)                 \
                                     : mldsa_unpack_z_g19_##isa(kout, kbytes));               \
    KERNEL_MEDIAN(t[K_PACK_W1], g88 ? mldsa_pack_w1_g88_##isa((uint8_t *)kout, kin_b)         \
                                    : mldsa_pack_w1_g32_##isa((uint8_t *)kout, kin_b));       \
    KERNEL_MEDIAN(t[K_PACK_Z], g88 ? mldsa_pack_z_g17_##isa((uint8_t *)kout, kin_b)           \
                                   : mldsa_pack_z_g19_##isa((uint8_t *)kout, kin_b));         \
    KERNEL_MEDIAN(t[K_REJ_UNIFORM], (void)mldsa_rej_uniform_##isa(kout, 0, kbytes, 840));     \
    KERNEL_MEDIAN(t[K_REJ_ETA], eta4 ? (void)mldsa_rej_eta4_##isa(kout, 0, kbytes, 272)       \
                                     : (void)mldsa_rej_eta2_##isa(kout, 0, kbytes, 272));     \
    double batch;                                                                             \
    KERNEL_MEDIAN(batch, mldsa_keccak_f1600_batch_##isa(kstates));                            \
    c->perm_per_state = batch / MLDSA_KECCAKX_W_##isa;                                        \
  }
MLDSA_FOR_EACH_ISA(KERNEL_COSTS)
#define KERNEL_COSTS_ENTRY(isa) kernel_costs_##isa,
static void (*const kernel_costs_of[])(int, unsigned,
                                       kernel_costs *) = {MLDSA_FOR_EACH_ISA(KERNEL_COSTS_ENTRY)};

static double op_limit[N_OPS];
/* sign and sign_prepared: the limit of each timed run, for its message's attempts */
static double *op_run_limit[N_OPS];

static int op_index(const char *op) {
  for (int i = 0; i < N_OPS; ++i)
    if (strcmp(op, op_names[i]) == 0) return i;
  return -1;
}

static double limit_of(const char *op) {
  int i = op_index(op);
  return limit_on && i >= 0 ? op_limit[i] : 0;
}

static const double *run_limits_of(const char *op) {
  int i = op_index(op);
  return limit_on && i >= 0 ? op_run_limit[i] : NULL;
}

/* The mean attempts per message of each of the runs timed sign_batch calls (bench_batches:
 * call i signs the messages i * 64 + k + 1000000, k < 64, the first runs / 10 calls warm
 * up) under the key of fill(seed, 32, key_seed): sign_prepared's single-state permutations
 * are mu and rho'', then x1_per_attempt per attempt (limit_model). */
static double *batch_sign_attempts(const mldsa_backend *b, size_t runs, uint32_t key_seed,
                                   double x1_per_attempt) {
  static uint8_t pk[4096], sk[8192], sig[8192], seed[32], msg[32];
  static const uint8_t rnd[32];
  uint8_t mu[64];
  double *a = malloc(runs * sizeof *a);
  mldsa_prepared_secret_key *ps = bench_aligned_alloc(sizeof *ps);
  if (!a || !ps) abort();
  fill(seed, sizeof seed, key_seed);
  b->keygen(pk, sk, seed);
  if (b->prepare_secret(ps, sk) != 0) abort();
  const uint8_t *tr = ((const mldsa_prepared_header *)ps)->tr;
  for (size_t j = 0; j < runs; ++j) {
    const size_t i = j + runs / 10;
    memset(&mldsa_keccak_counter, 0, sizeof mldsa_keccak_counter);
    for (size_t k = 0; k < BATCH_ITEMS; ++k) {
      fill(msg, sizeof msg, (uint32_t)(i * BATCH_ITEMS + k + 1000000));
      message_mu_tr(b, mu, tr, msg, 32);
      if (b->sign_prepared(sig, ps, mu, rnd) != 0) abort();
    }
    a[j] = ((double)mldsa_keccak_counter.x1 / BATCH_ITEMS - 2) / x1_per_attempt;
  }
  memset(ps, 0, sizeof *ps);
  bench_aligned_free(ps);
  return a;
}

/* op_limit for set param on isa i: the Keccak counts of each operation (--keccak's), the
 * kernels' costs and the mean attempts per signature, all measured now, over the messages
 * the sign rows time (runs of them after runs / 10 for warming up): the attempts vary by
 * message (geometrically, about one in five accepted), so a model from other messages
 * would miss by more than the efficiency's resolution. */
static void limit_model(size_t i, int param, const mldsa_backend *b, size_t runs) {
  static const unsigned rows[3] = {4, 6, 8}, cols[3] = {4, 5, 7};
  const unsigned p = param == 44 ? 0 : param == 65 ? 1 : 2, k = rows[p], l = cols[p];
  mldsa_keccak_counts c[N_OPS];
  kernel_costs kc;
  uint64_t *sign_x1 = malloc(runs * sizeof *sign_x1);
  if (sign_x1 == NULL) abort();
  /* the messages and the key (keygen's last seed) of the timed sign rows */
  keccak_counts(b, c, runs, (uint32_t)(1000000 + runs / 10), (uint32_t)(runs + runs / 10 - 1),
                sign_x1);
  kernel_costs_of[i](param, l, &kc);
  /* attempts per signature: sign_prepared's single-state permutations are mu and rho''
   * (one each) and per attempt SampleInBall's first block (a second one is rare: it needs
   * more than 128 bytes for tau positions) and c~ = H(mu || w1), whose first 5 blocks ride
   * in the batch beside ExpandMask's next polynomials wherever there are lanes for them */
  const double w1_bytes = (double)k * (param == 44 ? 192 : 128);
  const double ctilde_perms = (double)(unsigned)((64 + w1_bytes) / MLDSA_SHAKE256_RATE) + 1;
  const double x1_per_attempt = ctilde_perms - (isas[i].keccak_lanes > 1 ? 5 : 0) + 1;
  const double attempts = ((double)c[OP_SIGN_PREPARED].x1 / (double)runs - 2) / x1_per_attempt;
  const int keeps_y = strcmp(isas[i].name, "avx512") != 0 || param != 87;
  for (int op = 0; op < N_OPS; ++op) {
    double n[N_KERNELS], perms = (double)c[op].x1, ticks = 0;
    for (unsigned w = 1; w <= MLDSA_KECCAKX_MAXW; ++w) perms += (double)w * c[op].batch[w];
    arith_counts(op, k, l, attempts, keeps_y, n);
    for (int q = 0; q < N_KERNELS; ++q) ticks += n[q] * kc.kernel[q];
    op_limit[op] = perms / (double)runs * kc.perm_per_state + ticks;
  }
  /* The limit of one timed run: the mean's, moved by its attempts' difference from the
   * mean times what an attempt costs in the model: its kernel calls, and its permutations
   * (c~, SampleInBall's first block, ExpandMask's l polynomials of 5 SHAKE256 blocks:
   * 576 or 640 bytes each). A sign_batch run is a call on 64 other messages (bench_batches'),
   * signed again here one at a time for their attempts (the same key and rnd: the same
   * signatures). */
  static const int one_signature[3] = {OP_SIGN, OP_SIGN_PREPARED, OP_SIGN_BATCH};
  double *batch_attempts = batch_sign_attempts(b, runs, (uint32_t)(runs + runs / 10 - 1),
                                               x1_per_attempt);
  for (int s = 0; s < 3; ++s) {
    const int op = one_signature[s];
    double n0[N_KERNELS], n1[N_KERNELS];
    double per_attempt = (ctilde_perms + 1 + 5.0 * l) * kc.perm_per_state;
    arith_counts(op, k, l, 0, keeps_y, n0);
    arith_counts(op, k, l, 1, keeps_y, n1);
    for (int q = 0; q < N_KERNELS; ++q) per_attempt += (n1[q] - n0[q]) * kc.kernel[q];
    double *lim = realloc(op_run_limit[op], runs * sizeof *lim);
    if (lim == NULL) abort();
    for (size_t j = 0; j < runs; ++j) {
      const double a = op == OP_SIGN_BATCH ? batch_attempts[j]
                                           : ((double)sign_x1[j] - 2) / x1_per_attempt;
      lim[j] = op_limit[op] + (a - attempts) * per_attempt;
    }
    op_run_limit[op] = lim;
  }
  /* the limit printed for sign_batch: the mean over its own messages */
  double sum = 0;
  for (size_t j = 0; j < runs; ++j) sum += op_run_limit[OP_SIGN_BATCH][j];
  op_limit[OP_SIGN_BATCH] = sum / (double)runs;
  free(batch_attempts);
  free(sign_x1);
  if (!json) {
    clear_progress();
    printf(
        "  ML-DSA-%d  %-7s limit model: %.2f attempts per signature, %.0f ticks per "
        "permutation and state\n",
        param, isas[i].name, attempts, kc.perm_per_state);
  }
}
#else
static double limit_of(const char *op) {
  (void)op;
  return 0;
}
static const double *run_limits_of(const char *op) {
  (void)op;
  return NULL;
}
#endif

static int run_once(const char *op, const char *isa_name, int param) {
  for (size_t i = 0; i < sizeof isas / sizeof isas[0]; ++i) {
    if (strcmp(isas[i].name, isa_name) != 0) continue;
    for (int p = 0; p < 3; ++p) {
      if (params[p] != param) continue;
      const mldsa_backend *b = isas[i].sets[p];
      if (b == NULL) return 2; /* set left out of this build */
      if (strcmp(op, "keygen") == 0) {
        once_keygen(b);
        return 0;
      }
      b->keygen(once_pk, once_sk, once_seed);
      if (strcmp(op, "sign") == 0) return once_sign(b) != 0;
      if (strcmp(op, "sign20") == 0) return once_sign20(b) != 0;
      if (strcmp(op, "verify") == 0) return once_sign(b) != 0 || once_verify(b) != 0;
      return 2;
    }
  }
  fprintf(stderr, "mldsa-bench --once: unknown isa or param\n");
  return 2;
}

int main(int argc, char **argv) {
  const char *only_isa = NULL, *once = NULL;
  int only_param = 0, mcdt = 0, api = 0, keccak = 0;
  size_t runs = 1000;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--json") == 0)
      json = 1;
    else if (strcmp(argv[i], "--isa") == 0 && i + 1 < argc)
      only_isa = argv[++i];
    else if (strcmp(argv[i], "--param") == 0 && i + 1 < argc)
      only_param = atoi(argv[++i]);
    else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
      runs = (size_t)atol(argv[++i]);
    else if (strcmp(argv[i], "--once") == 0 && i + 1 < argc)
      once = argv[++i];
    else if (strcmp(argv[i], "--mcdt") == 0)
      mcdt = 1;
    else if (strcmp(argv[i], "--api") == 0)
      api = 1;
    else if (strcmp(argv[i], "--keccak") == 0)
      keccak = 1;
    else if (strcmp(argv[i], "--limit") == 0)
      limit_on = 1;
    else if (strcmp(argv[i], "--list-isas") == 0) {
      for (size_t k = 0; k < sizeof isas / sizeof isas[0]; ++k)
        if (isas[k].supported()) printf("%s\n", isas[k].name);
      return 0;
    } else {
      fprintf(stderr,
              "usage: mldsa-bench [--json] [--limit] [--isa NAME] [--param 44|65|87] [--runs N]\n"
              "       mldsa-bench --once keygen|sign|sign20|verify --isa NAME --param P\n"
              "       mldsa-bench --keccak [--json] [--isa NAME] [--param P]\n"
              "       mldsa-bench --list-isas\n"
              "       mldsa-bench --api [--param P] [--runs N]\n"
              "       mldsa-bench --mcdt [--isa NAME] [--param P] [--runs N]\n");
      return 2;
    }
  }
  if (once) return run_once(once, only_isa ? only_isa : "scalar", only_param ? only_param : 65);
  if (keccak) {
#if defined(MLDSA_KECCAK_COUNTING)
    bench_keccak(only_isa, only_param);
    return 0;
#else
    fprintf(stderr, "mldsa-bench --keccak: built without the Keccak counters\n");
    return 2;
#endif
  }
#if !defined(MLDSA_KECCAK_COUNTING)
  if (limit_on) {
    fprintf(stderr, "mldsa-bench --limit: built without the Keccak counters\n");
    return 2;
  }
#endif
  if (runs < 10) runs = 10;
  kernel_inputs();
  if (mcdt) {
    bench_mcdt(only_isa, only_param, runs);
    return 0;
  }
  if (api) {
    bench_api(only_param, runs);
    return 0;
  }
  measure_overhead();
  if (json)
    printf("[");
  else
    printf(
        "libmldsa benchmark: rdtsc ticks (reference cycles at the TSC rate, not core "
        "clock cycles)\nmedian, 10th and 90th percentile and mean of %zu runs; sign over "
        "%zu different messages%s\n\n  %-9s %-7s %-8s %10s %10s %10s %10s%s\n",
        runs, runs,
        limit_on ? ";\nlimit model, and efficiency = limit / median (sign rows: median over the "
                   "runs of the limit for\nthe run's attempts / its ticks)"
                 : "",
        "set", "isa", "op", "median", "p10", "p90", "mean", limit_on ? "      limit   eff" : "");
  for (size_t i = 0; i < sizeof isas / sizeof isas[0]; ++i) {
    if (only_isa && strcmp(only_isa, isas[i].name) != 0) continue;
    if (!isas[i].supported()) {
      if (!json) printf("  (%s: not supported by this CPU, skipped)\n", isas[i].name);
      continue;
    }
    for (int p = 0; p < 3; ++p)
      if ((!only_param || only_param == params[p]) && isas[i].sets[p] != NULL)
        bench_ops(&isas[i], params[p], isas[i].sets[p], runs);
  }
  if (!json)
    printf(
        "\nstreaming mu: ticks of one 1 MiB update (median of %d), bytes per tick, and the "
        "permutations it runs x\nthe median ticks of one permutation (ratio: measured / "
        "that product)\n\n  %-7s %10s %8s %24s  %5s\n",
        STREAM_RUNS, "isa", "median", "B/tick", "perms x perm = expected", "ratio");
  for (size_t i = 0; i < sizeof isas / sizeof isas[0]; ++i) {
    if (only_isa && strcmp(only_isa, isas[i].name) != 0) continue;
    if (!isas[i].supported()) continue;
    progress("streaming mu");
    bench_stream(&isas[i]);
  }
  if (!json)
    printf("\nkernels: median ticks of one call (timer overhead %llu subtracted)\n",
           (unsigned long long)overhead);
  for (size_t i = 0; i < sizeof kernel_benches / sizeof kernel_benches[0]; ++i) {
    if (only_isa && strcmp(only_isa, kernel_benches[i].name) != 0) continue;
    if (!isas[i].supported()) continue;
    if (!json) progress(kernel_benches[i].name);
    kernel_benches[i].run();
  }
  clear_progress();
  if (json) printf("\n]\n");
  return 0;
}
