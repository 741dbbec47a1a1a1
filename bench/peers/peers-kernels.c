/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* peers-kernels: the kernels that sign and verify spend their time in, libmldsa's beside
 * pq-crystals/dilithium's avx2/ ones, in one process and one interleaved run.
 *
 *   peers-kernels [--rounds R] [--calls N] PEERS_DIR
 *
 * PEERS_DIR/pqcrystals-avx2-kernels.so is written by bench/peers/build-peers.sh
 * (bench/peers/peer_kernels_shim.c); without it only libmldsa's kernels are timed. Each
 * kernel runs N calls in place on one buffer, each call timed alone (rdtsc, fenced; the
 * timer's own cost, measured the same way, subtracted); every round times every kernel
 * of every implementation once, in turn; the figure is the median over the R rounds of
 * each round's median. Rows: Keccak-f[1600] on one state and batched (libmldsa: 2, 4, 8
 * states on sse2, avx2, avx512; pq-crystals: 4), with ticks per state; the forward and
 * inverse NTT; the pointwise product, and the sum of L = 5 of them (ML-DSA-65). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "cpu.h"
#include "fips202x.h"
#include "kernels.h"

#define MAX_ROUNDS 101
#define MAX_CALLS 10001

typedef void (*state_fn)(uint64_t *s);
typedef void (*poly_fn)(int32_t *a);
typedef void (*product_fn)(int32_t *c, const int32_t *a, const int32_t *b);

/* One timed thing: a kernel of one implementation, and how many states a call works on
 * (Keccak) or 0. */
typedef struct {
  const char *kernel, *impl;
  unsigned states;
  state_fn state;
  poly_fn poly;
  product_fn product;
  uint64_t median[MAX_ROUNDS];
} entry;

static entry entries[64];
static unsigned n_entries;

static _Alignas(64) uint64_t keccak_buf[25 * 8];
static _Alignas(64) int32_t poly_c[256], poly_a[5 * 256], poly_b[5 * 256];

static void add(const char *kernel, const char *impl, unsigned states, state_fn s, poly_fn p,
                product_fn pr) {
  entry *e = &entries[n_entries++];
  e->kernel = kernel;
  e->impl = impl;
  e->states = states;
  e->state = s;
  e->poly = p;
  e->product = pr;
}

/* libmldsa's sum of five products (ML-DSA-65's L) and single products, per ISA. */
#define OURS_PRODUCTS(isa)                                                          \
  static void acc5_##isa(int32_t *c, const int32_t *a, const int32_t *b) {          \
    mldsa_pointwise_acc_##isa(c, a, b, 5);                                          \
  }                                                                                 \
  static void prod_##isa(int32_t *c, const int32_t *a, const int32_t *b) {          \
    mldsa_pointwise_montgomery_##isa(c, a, b);                                      \
  }
MLDSA_FOR_EACH_ISA(OURS_PRODUCTS)

static void add_ours(void) {
#define ADD_OURS(isa)                                                                         \
  if (mldsa_cpu_has_##isa()) {                                                                \
    add("keccak_x1", "libmldsa-" #isa, 1, mldsa_keccak_f1600_x1_##isa, NULL, NULL);           \
    if (MLDSA_KECCAKX_W_##isa > 1)                                                            \
      add("keccak_batch", "libmldsa-" #isa, MLDSA_KECCAKX_W_##isa,                            \
          mldsa_keccak_f1600_batch_##isa, NULL, NULL);                                        \
    add("ntt", "libmldsa-" #isa, 0, NULL, mldsa_ntt_##isa, NULL);                             \
    add("invntt", "libmldsa-" #isa, 0, NULL, mldsa_invntt_tomont_##isa, NULL);                \
    add("pointwise", "libmldsa-" #isa, 0, NULL, NULL, prod_##isa);                            \
    add("pointwise_acc5", "libmldsa-" #isa, 0, NULL, NULL, acc5_##isa);                       \
  }
  MLDSA_FOR_EACH_ISA(ADD_OURS)
}

static int add_peer(const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/pqcrystals-avx2-kernels.so", dir);
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    fprintf(stderr, "peers-kernels: %s: %s (only libmldsa timed)\n", path, dlerror());
    return 0;
  }
  if (!mldsa_cpu_has_avx2()) return 0;
  const char *n = "pqcrystals-avx2";
  state_fn x1 = (state_fn)dlsym(h, "peer_k_keccak_x1"), x4 = (state_fn)dlsym(h, "peer_k_keccak_x4");
  poly_fn ntt = (poly_fn)dlsym(h, "peer_k_ntt"), inv = (poly_fn)dlsym(h, "peer_k_invntt");
  product_fn pw = (product_fn)dlsym(h, "peer_k_pointwise"),
             acc = (product_fn)dlsym(h, "peer_k_pointwise_acc");
  if (!x1 || !x4 || !ntt || !inv || !pw || !acc) {
    fprintf(stderr, "peers-kernels: %s lacks a peer_k_ function\n", path);
    return 1;
  }
  add("keccak_x1", n, 1, x1, NULL, NULL);
  add("keccak_batch", n, 4, x4, NULL, NULL);
  add("ntt", n, 0, NULL, ntt, NULL);
  add("invntt", n, 0, NULL, inv, NULL);
  add("pointwise", n, 0, NULL, NULL, pw);
  add("pointwise_acc5", n, 0, NULL, NULL, acc);
  return 0;
}

/* Coefficients in (-q, q): within every kernel's input contract. */
static void reset_inputs(void) {
  for (unsigned i = 0; i < 5 * 256; ++i) {
    poly_a[i] = (int32_t)((i * 7919u) % 8380417u) - 4190208;
    poly_b[i] = (int32_t)((i * 104729u) % 8380417u) - 4190208;
  }
  for (unsigned i = 0; i < 256; ++i) poly_c[i] = poly_a[i];
  for (unsigned i = 0; i < 25 * 8; ++i) keccak_buf[i] = i * UINT64_C(0x9e3779b97f4a7c15);
}

static uint64_t time_calls(const entry *e, uint64_t *t, size_t calls, uint64_t overhead) {
  for (size_t i = 0; i < calls; ++i) {
    /* the transforms' outputs stay in their bounds only for a few calls in a row */
    if (e->poly != NULL && i % 4 == 0) memcpy(poly_c, poly_a, sizeof poly_c);
    uint64_t t0 = ticks_begin();
    if (e->state)
      e->state(keccak_buf);
    else if (e->poly)
      e->poly(poly_c);
    else if (e->product)
      e->product(poly_c, poly_a, poly_b);
    uint64_t t1 = ticks_end();
    t[i] = t1 - t0;
  }
  qsort(t, calls, sizeof *t, cmp_u64);
  uint64_t m = t[calls / 2];
  return m > overhead ? m - overhead : 0;
}

static uint64_t timer_overhead(uint64_t *t, size_t calls) {
  for (size_t i = 0; i < calls; ++i) {
    uint64_t t0 = ticks_begin();
    t[i] = ticks_end() - t0;
  }
  qsort(t, calls, sizeof *t, cmp_u64);
  return t[calls / 2];
}

int main(int argc, char **argv) {
  size_t rounds = 15, calls = 1001;
  const char *dir = NULL;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = (size_t)atol(argv[++i]);
    else if (!strcmp(argv[i], "--calls") && i + 1 < argc)
      calls = (size_t)atol(argv[++i]);
    else if (argv[i][0] != '-' && dir == NULL)
      dir = argv[i];
    else {
      fprintf(stderr, "usage: peers-kernels [--rounds R] [--calls N] [PEERS_DIR]\n");
      return 2;
    }
  }
  if (rounds < 1) rounds = 1;
  if (rounds > MAX_ROUNDS) rounds = MAX_ROUNDS;
  if (calls < 11) calls = 11;
  if (calls > MAX_CALLS) calls = MAX_CALLS;
  add_ours();
  if (dir != NULL && add_peer(dir)) return 1;
  static uint64_t t[MAX_CALLS];
  reset_inputs();
  for (size_t r = 0; r < rounds; ++r) {
    uint64_t overhead = timer_overhead(t, calls);
    for (unsigned k = 0; k < n_entries; ++k) {
      entry *e = &entries[(k + r) % n_entries]; /* the order rotates */
      e->median[r] = time_calls(e, t, calls, overhead);
    }
  }
  char cpu[256];
  cpu_name(cpu, sizeof cpu);
  printf("CPU: %s; rdtsc ticks, median over %zu rounds of the median of %zu calls\n\n", cpu,
         rounds, calls);
  printf("| kernel | implementation | ticks per call | states | ticks per state |\n");
  printf("|---|---|---|---|---|\n");
  for (unsigned k = 0; k < n_entries; ++k) {
    entry *e = &entries[k];
    qsort(e->median, rounds, sizeof e->median[0], cmp_u64);
    uint64_t m = e->median[rounds / 2];
    if (e->states)
      printf("| %s | %s | %llu | %u | %llu |\n", e->kernel, e->impl, (unsigned long long)m,
             e->states, (unsigned long long)(m / e->states));
    else
      printf("| %s | %s | %llu | | |\n", e->kernel, e->impl, (unsigned long long)m);
  }
  return 0;
}
