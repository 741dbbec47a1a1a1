/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What the benchmark programs share (apps/mldsa-bench.c, bench/peers/peers-bench.c and
 * peers-kernels.c): rdtsc timing fenced on both sides, a comparison for qsort, the CPU's
 * name, deterministic inputs, mu of a message as the public API computes it on one
 * backend's Keccak, and sign and verify of a message the way the public API calls the
 * backend. Header only. */
#ifndef MLDSA_BENCH_UTIL_H
#define MLDSA_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <x86intrin.h>

#include "backend.h"
#include "fips202.h"

static inline uint64_t ticks_begin(void) {
  _mm_lfence();
  uint64_t t = __rdtsc();
  _mm_lfence();
  return t;
}

static inline uint64_t ticks_end(void) {
  unsigned aux;
  uint64_t t = __rdtscp(&aux);
  _mm_lfence();
  return t;
}

static inline int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* The CPU a figure came from: model name, family and model, AVX-512 and VBMI. */
static inline void cpu_name(char *out, size_t cap) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[8192], model[160] = "unknown", fam[16] = "?", mod[16] = "?";
  int vbmi = 0, avx512f = 0;
  while (f && fgets(line, sizeof line, f)) {
    char *v = strchr(line, ':');
    if (!v) continue;
    v += 2;
    v[strcspn(v, "\n")] = 0;
    if (!strncmp(line, "model name", 10) && !strcmp(model, "unknown"))
      snprintf(model, sizeof model, "%s", v);
    else if (!strncmp(line, "cpu family", 10))
      snprintf(fam, sizeof fam, "%s", v);
    else if (!strncmp(line, "model\t", 6))
      snprintf(mod, sizeof mod, "%s", v);
    else if (!strncmp(line, "flags", 5)) {
      avx512f = strstr(v, " avx512f") != NULL;
      vbmi = strstr(v, " avx512vbmi") != NULL;
    }
  }
  if (f) fclose(f);
  snprintf(out, cap, "%s (family %s, model %s%s%s)", model, fam, mod,
           avx512f ? ", AVX-512" : ", no AVX-512", vbmi ? " incl. VBMI" : "");
}

/* Deterministic inputs: SHAKE128 of a counter. */
static inline void fill(uint8_t *out, size_t len, uint32_t counter) {
  uint8_t in[4] = {(uint8_t)counter, (uint8_t)(counter >> 8), (uint8_t)(counter >> 16), 0xB5};
  mldsa_shake128(out, len, in, sizeof in);
}

/* mu of a message, pure interface, empty context, with b's Keccak, from tr. */
static inline void message_mu_tr(const mldsa_backend *b, uint8_t mu[64], const uint8_t tr[64],
                                 const uint8_t *msg, size_t msg_len) {
  static const uint8_t prefix[2] = {0, 0}; /* pure, empty context */
  mldsa_keccak st;
  mldsa_shake256_init_with(&st, b->keccak);
  mldsa_shake_absorb(&st, tr, 64);
  mldsa_shake_absorb(&st, prefix, 2);
  mldsa_shake_absorb(&st, msg, msg_len);
  mldsa_shake_finalize(&st);
  mldsa_shake_squeeze(&st, mu, 64);
}

/* Sign a message (pure, empty context) as mldsa_sign does: mu hashed by the backend
 * beside ExpandA. */
static inline int sign_message(const mldsa_backend *b, uint8_t *sig, const uint8_t *sk,
                               const uint8_t *msg, size_t msg_len, const uint8_t rnd[32]) {
  static const uint8_t prefix[2] = {0, 0};
  const mldsa_hash_input mprime = {{prefix, msg}, {sizeof prefix, msg_len}, 2};
  uint8_t mu[64];
  return b->sign_msg(sig, mu, &mprime, rnd, sk);
}

/* Verify as mldsa_verify does: tr = H(pk) hashed by the backend beside ExpandA, then mu
 * from tr and the message. */
typedef struct {
  const mldsa_backend *b;
  const uint8_t *msg;
  size_t msg_len;
} bench_mu_args;

static inline void bench_mu_of(uint8_t mu[64], const uint8_t tr[64], const void *arg) {
  const bench_mu_args *a = arg;
  message_mu_tr(a->b, mu, tr, a->msg, a->msg_len);
}

static inline int verify_message(const mldsa_backend *b, const uint8_t *sig, const uint8_t *pk,
                                 const uint8_t *msg, size_t msg_len) {
  bench_mu_args args = {b, msg, msg_len};
  return b->verify_pk(sig, pk, bench_mu_of, &args);
}

#endif
