/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* peers-bench: libmldsa's four paths and peer implementations side by side, in one
 * process, on identical inputs, with byte-identical outputs checked.
 *
 *   peers-bench [--json] [--rounds R] [--calls N] [--param 44|65|87] [--peers FILE]
 *   peers-bench --once keygen|sign20|verify --impl NAME --param P [--peers FILE]
 *
 * FILE is a peers.txt that bench/peers/build-peers.sh writes (name, path pattern with
 * %d for the set, commit, flags; tab-separated); --peers may be given up to 8 times;
 * without it only libmldsa runs.
 *
 * Inputs: N keygen seeds and N 32-byte messages per set, SHAKE128 of a counter. Keygen
 * runs over the N seeds; sign signs the N messages (pure ML-DSA, empty context,
 * rnd = 0: the deterministic variant, so every implementation makes the same signature
 * after the same number of rejection-loop attempts) with the key of seed 0; verify checks
 * those N signatures. Before timing, every output of every implementation (pk, sk, each
 * signature, each verdict) is compared with libmldsa's scalar path; any difference stops
 * the run. Timing: R rounds; in each round every implementation makes its N calls of one
 * operation, then the next implementation (the order rotates from round to round), so
 * load from elsewhere on the machine spreads over all of them. Per implementation and
 * operation the R x N rdtsc samples give the median (and p10, p90); the mean is the mean
 * over the N inputs of each input's median over the R rounds, so it keeps the rejection
 * loop's variation over the N messages (for sign) but not the preemptions of a loaded
 * machine. Sign and verify
 * include mu = H(tr || M'), as a peer's sign/verify call does (verify hashes the public
 * key into tr as well).
 *
 * --once runs one operation on fixed inputs inside once_<op>() alone, for
 * valgrind --tool=callgrind --toggle-collect=once_<op>; sign20 signs twenty messages. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <x86intrin.h>

#include "backend.h"
#include "bench_util.h"
#include "cpu.h"
#include "fips202.h"

#define MAX_IMPLS 16
#define MAX_BYTES 4896 /* the largest secret key */

typedef int (*peer_keygen_fn)(uint8_t *, uint8_t *, const uint8_t *);
typedef int (*peer_sign_fn)(uint8_t *, const uint8_t *, size_t, const uint8_t *,
                            const uint8_t *);
typedef int (*peer_verify_fn)(const uint8_t *, const uint8_t *, size_t, const uint8_t *);

typedef struct {
  char name[64], commit[64], flags[160];
  const mldsa_backend *b[3]; /* libmldsa */
  peer_keygen_fn keygen[3];  /* peers */
  peer_sign_fn sign[3];
  peer_verify_fn verify[3];
} impl;

static impl impls[MAX_IMPLS];
static int n_impls;
static const int params[3] = {44, 65, 87};

static const uint8_t zero_rnd[32];

static int do_keygen(const impl *m, int p, uint8_t *pk, uint8_t *sk, const uint8_t *seed) {
  if (m->b[p]) {
    m->b[p]->keygen(pk, sk, seed);
    return 0;
  }
  return m->keygen[p](pk, sk, seed);
}
static int do_sign(const impl *m, int p, uint8_t *sig, const uint8_t *msg, const uint8_t *sk) {
  if (m->b[p]) return sign_message(m->b[p], sig, sk, msg, 32, zero_rnd);
  return m->sign[p](sig, msg, 32, zero_rnd, sk);
}
static int do_verify(const impl *m, int p, const uint8_t *sig, const uint8_t *msg,
                     const uint8_t *pk) {
  if (m->b[p]) return verify_message(m->b[p], sig, pk, msg, 32);
  return m->verify[p](sig, msg, 32, pk);
}

static void add_libmldsa(void) {
#define ADD_ISA(isa)                                                              \
  if (mldsa_cpu_has_##isa()) {                                                    \
    impl *m = &impls[n_impls++];                                                  \
    snprintf(m->name, sizeof m->name, "libmldsa-%s", #isa);                       \
    snprintf(m->commit, sizeof m->commit, "this tree");                           \
    m->b[0] = &mldsa44_backend_##isa;                                             \
    m->b[1] = &mldsa65_backend_##isa;                                             \
    m->b[2] = &mldsa87_backend_##isa;                                             \
  }
  MLDSA_FOR_EACH_ISA(ADD_ISA)
#undef ADD_ISA
}

static int add_peers(const char *file) {
  FILE *f = fopen(file, "r");
  char line[1024];
  if (!f) {
    perror(file);
    return -1;
  }
  while (fgets(line, sizeof line, f) && n_impls < MAX_IMPLS) {
    char *name = strtok(line, "\t\n"), *path = strtok(NULL, "\t\n");
    char *commit = strtok(NULL, "\t\n"), *flags = strtok(NULL, "\t\n");
    if (!name || !path) continue;
    impl *m = &impls[n_impls];
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", name);
    snprintf(m->commit, sizeof m->commit, "%s", commit ? commit : "");
    snprintf(m->flags, sizeof m->flags, "%s", flags ? flags : "");
    for (int p = 0; p < 3; ++p) {
      char so[512];
      snprintf(so, sizeof so, path, params[p]);
      void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
      if (!h) {
        fprintf(stderr, "peers-bench: %s\n", dlerror());
        fclose(f);
        return -1;
      }
      m->keygen[p] = (peer_keygen_fn)dlsym(h, "peer_keygen");
      m->sign[p] = (peer_sign_fn)dlsym(h, "peer_sign");
      m->verify[p] = (peer_verify_fn)dlsym(h, "peer_verify");
      int (*param)(void) = (int (*)(void))dlsym(h, "peer_param");
      if (!m->keygen[p] || !m->sign[p] || !m->verify[p] || !param || param() != params[p]) {
        fprintf(stderr, "peers-bench: %s is not a peer library of ML-DSA-%d\n", so, params[p]);
        fclose(f);
        return -1;
      }
    }
    ++n_impls;
  }
  fclose(f);
  return 0;
}

enum { OP_KEYGEN, OP_SIGN, OP_VERIFY, N_OPS };
static const char *op_names[N_OPS] = {"keygen", "sign", "verify"};

typedef struct {
  uint8_t pk[MAX_BYTES], sk[MAX_BYTES];
} keypair;

static int check_outputs(int p, size_t calls, const uint8_t *seeds, const uint8_t *msgs,
                         uint8_t *sigs) {
  const mldsa_backend *ref = impls[0].b[p];
  size_t pkb = ref->pk_bytes, skb = ref->sk_bytes, sigb = ref->sig_bytes;
  keypair *want = malloc(sizeof *want), *got = malloc(sizeof *got);
  uint8_t *sig = malloc(sigb);
  int bad = 0;
  for (int k = 0; k < n_impls && !bad; ++k) {
    const impl *m = &impls[k];
    for (size_t i = 0; i < calls && !bad; ++i) {
      do_keygen(&impls[0], p, want->pk, want->sk, seeds + 32 * i);
      do_keygen(m, p, got->pk, got->sk, seeds + 32 * i);
      if (memcmp(want->pk, got->pk, pkb) || memcmp(want->sk, got->sk, skb)) {
        fprintf(stderr, "peers-bench: %s ML-DSA-%d keygen differs (seed %zu)\n", m->name,
                params[p], i);
        bad = 1;
      }
    }
    do_keygen(&impls[0], p, want->pk, want->sk, seeds);
    for (size_t i = 0; i < calls && !bad; ++i) {
      if (k == 0 && do_sign(m, p, sigs + sigb * i, msgs + 32 * i, want->sk)) bad = 1;
      if (do_sign(m, p, sig, msgs + 32 * i, want->sk) || memcmp(sig, sigs + sigb * i, sigb)) {
        fprintf(stderr, "peers-bench: %s ML-DSA-%d signature %zu differs\n", m->name,
                params[p], i);
        bad = 1;
      }
      if (!bad && do_verify(m, p, sigs + sigb * i, msgs + 32 * i, want->pk)) {
        fprintf(stderr, "peers-bench: %s ML-DSA-%d rejects signature %zu\n", m->name,
                params[p], i);
        bad = 1;
      }
      sig[i % sigb] ^= 1;
      if (!bad && do_verify(m, p, sig, msgs + 32 * i, want->pk) == 0) {
        fprintf(stderr, "peers-bench: %s ML-DSA-%d accepts a modified signature\n", m->name,
                params[p]);
        bad = 1;
      }
    }
  }
  free(want);
  free(got);
  free(sig);
  return bad;
}

static int run(int only_param, size_t rounds, size_t calls, int json) {
  char cpu[256];
  cpu_name(cpu, sizeof cpu);
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) < 0) load[0] = -1;
  if (json) {
    printf("{\"SPDX-License-Identifier\": \"Apache-2.0 OR MIT\",\n  \"cpu\": \"%s\",\n  \"loadavg_at_start\": %.2f,\n  \"rounds\": %zu,\n"
           "  \"calls\": %zu,\n  \"unit\": \"rdtsc ticks per operation\",\n  \"impls\": [",
           cpu, load[0], rounds, calls);
    for (int k = 0; k < n_impls; ++k)
      printf("%s\n    {\"name\": \"%s\", \"commit\": \"%s\", \"flags\": \"%s\"}", k ? "," : "",
             impls[k].name, impls[k].commit, impls[k].flags);
    printf("\n  ],\n  \"results\": [");
  } else {
    printf("CPU: %s; load average %.2f at start\n%zu rounds x %zu calls, interleaved; rdtsc "
           "ticks per operation\n\n  %-9s %-26s %-7s %10s %10s %10s %10s\n",
           cpu, load[0], rounds, calls, "set", "implementation", "op", "median", "mean", "p10",
           "p90");
  }
  int first = 1;
  for (int p = 0; p < 3; ++p) {
    if (only_param && only_param != params[p]) continue;
    const mldsa_backend *ref = impls[0].b[p];
    uint8_t *seeds = malloc(32 * calls), *msgs = malloc(32 * calls);
    uint8_t *sigs = malloc(ref->sig_bytes * calls), *sig = malloc(ref->sig_bytes);
    keypair *kp = malloc(sizeof *kp), *scratch = malloc(sizeof *scratch);
    uint64_t *t = malloc(sizeof *t * (size_t)n_impls * N_OPS * rounds * calls);
    uint64_t *per_input = malloc(sizeof *per_input * rounds);
    if (!seeds || !msgs || !sigs || !sig || !kp || !scratch || !t || !per_input) abort();
    for (size_t i = 0; i < calls; ++i) {
      fill(seeds + 32 * i, 32, (uint32_t)i);
      fill(msgs + 32 * i, 32, (uint32_t)(i + 1000000));
    }
    if (check_outputs(p, calls, seeds, msgs, sigs)) return 1;
    do_keygen(&impls[0], p, kp->pk, kp->sk, seeds);
#define SAMPLE(k, op, r, i) t[(((size_t)(k) * N_OPS + (op)) * rounds + (r)) * calls + (i)]
    for (size_t r = 0; r < rounds; ++r) {
      for (int j = 0; j < n_impls; ++j) {
        int k = (int)((j + r) % (size_t)n_impls);
        const impl *m = &impls[k];
        for (size_t i = 0; i < calls; ++i) {
          uint64_t t0 = ticks_begin();
          do_keygen(m, p, scratch->pk, scratch->sk, seeds + 32 * i);
          SAMPLE(k, OP_KEYGEN, r, i) = ticks_end() - t0;
        }
      }
      for (int j = 0; j < n_impls; ++j) {
        int k = (int)((j + r) % (size_t)n_impls);
        const impl *m = &impls[k];
        for (size_t i = 0; i < calls; ++i) {
          uint64_t t0 = ticks_begin();
          int rc = do_sign(m, p, sig, msgs + 32 * i, kp->sk);
          SAMPLE(k, OP_SIGN, r, i) = ticks_end() - t0;
          if (rc) abort();
        }
      }
      for (int j = 0; j < n_impls; ++j) {
        int k = (int)((j + r) % (size_t)n_impls);
        const impl *m = &impls[k];
        for (size_t i = 0; i < calls; ++i) {
          uint64_t t0 = ticks_begin();
          int rc = do_verify(m, p, sigs + ref->sig_bytes * i, msgs + 32 * i, kp->pk);
          SAMPLE(k, OP_VERIFY, r, i) = ticks_end() - t0;
          if (rc) abort();
        }
      }
      if (!json && isatty(2))
        fprintf(stderr, "\r  ML-DSA-%d round %zu/%zu ", params[p], r + 1, rounds);
    }
    if (!json && isatty(2)) fprintf(stderr, "\r%40s\r", "");
    for (int k = 0; k < n_impls; ++k) {
      for (int op = 0; op < N_OPS; ++op) {
        uint64_t *s = &SAMPLE(k, op, 0, 0);
        size_t n = rounds * calls;
        /* the mean over the N inputs of each input's median over the R rounds: the
         * average cost (of the rejection loop's variation, for sign) without the
         * preemptions a loaded machine adds to some samples */
        double sum = 0;
        for (size_t i = 0; i < calls; ++i) {
          for (size_t r = 0; r < rounds; ++r) per_input[r] = s[r * calls + i];
          qsort(per_input, rounds, sizeof *per_input, cmp_u64);
          sum += rounds % 2 ? (double)per_input[rounds / 2]
                            : ((double)per_input[rounds / 2 - 1] + per_input[rounds / 2]) / 2;
        }
        sum *= (double)n / (double)calls; /* as if summed over n samples */
        qsort(s, n, sizeof *s, cmp_u64);
        unsigned long long med = s[n / 2], p10 = s[n / 10], p90 = s[(9 * n) / 10];
        unsigned long long mean = (unsigned long long)(sum / (double)n + 0.5);
        if (json)
          printf("%s\n    {\"param\": %d, \"impl\": \"%s\", \"op\": \"%s\", \"median\": %llu, "
                 "\"mean\": %llu, \"p10\": %llu, \"p90\": %llu}",
                 first ? "" : ",", params[p], impls[k].name, op_names[op], med, mean, p10, p90);
        else
          printf("  ML-DSA-%d %-26s %-7s %10llu %10llu %10llu %10llu\n", params[p],
                 impls[k].name, op_names[op], med, mean, p10, p90);
        first = 0;
      }
    }
#undef SAMPLE
    free(seeds);
    free(msgs);
    free(sigs);
    free(sig);
    free(kp);
    free(scratch);
    free(t);
    free(per_input);
  }
  if (getloadavg(load, 3) < 0) load[0] = -1;
  if (json)
    printf("\n  ],\n  \"loadavg_at_end\": %.2f\n}\n", load[0]);
  else
    printf("\nload average %.2f at end\n", load[0]);
  return 0;
}

/* ---- one operation for instruction counting ---- */

static keypair once_kp;
static uint8_t once_sig[MAX_BYTES];
static const uint8_t once_seed[32] = {1, 2, 3};

__attribute__((noinline)) void once_keygen(const impl *m, int p) {
  do_keygen(m, p, once_kp.pk, once_kp.sk, once_seed);
}
__attribute__((noinline)) int once_sign20(const impl *m, int p) {
  int bad = 0;
  for (uint32_t i = 0; i < 20; ++i) {
    uint8_t msg[32];
    fill(msg, sizeof msg, 2000000 + i);
    bad |= do_sign(m, p, once_sig, msg, once_kp.sk);
  }
  return bad;
}
__attribute__((noinline)) int once_verify(const impl *m, int p, const uint8_t *msg) {
  return do_verify(m, p, once_sig, msg, once_kp.pk);
}

static int run_once(const char *op, const char *name, int param) {
  for (int k = 0; k < n_impls; ++k) {
    if (strcmp(impls[k].name, name) != 0) continue;
    for (int p = 0; p < 3; ++p) {
      if (params[p] != param) continue;
      const impl *m = &impls[k];
      if (!strcmp(op, "keygen")) {
        once_keygen(m, p);
        return 0;
      }
      do_keygen(m, p, once_kp.pk, once_kp.sk, once_seed);
      if (!strcmp(op, "sign20")) return once_sign20(m, p) != 0;
      if (!strcmp(op, "verify")) {
        uint8_t msg[32];
        fill(msg, sizeof msg, 2000000);
        if (do_sign(m, p, once_sig, msg, once_kp.sk)) return 1;
        return once_verify(m, p, msg) != 0;
      }
      return 2;
    }
  }
  fprintf(stderr, "peers-bench --once: unknown implementation %s or set %d\n", name, param);
  return 2;
}

int main(int argc, char **argv) {
  const char *peers[8], *once = NULL, *name = "libmldsa-scalar";
  int n_peer_files = 0;
  int json = 0, only_param = 0;
  size_t rounds = 15, calls = 200;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--json"))
      json = 1;
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = (size_t)atol(argv[++i]);
    else if (!strcmp(argv[i], "--calls") && i + 1 < argc)
      calls = (size_t)atol(argv[++i]);
    else if (!strcmp(argv[i], "--param") && i + 1 < argc)
      only_param = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--peers") && i + 1 < argc && n_peer_files < 8)
      peers[n_peer_files++] = argv[++i];
    else if (!strcmp(argv[i], "--once") && i + 1 < argc)
      once = argv[++i];
    else if (!strcmp(argv[i], "--impl") && i + 1 < argc)
      name = argv[++i];
    else {
      fprintf(stderr,
              "usage: peers-bench [--json] [--rounds R] [--calls N] [--param P] [--peers FILE]\n"
              "       peers-bench --once keygen|sign20|verify --impl NAME --param P "
              "[--peers FILE]\n");
      return 2;
    }
  }
  add_libmldsa();
  for (int f = 0; f < n_peer_files; ++f)
    if (add_peers(peers[f])) return 1;
  if (once) return run_once(once, name, only_param ? only_param : 65);
  if (rounds < 1) rounds = 1;
  if (calls < 10) calls = 10;
  return run(only_param, rounds, calls, json);
}
