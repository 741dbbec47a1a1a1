/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The AArch64 program whose executed instructions bench/aarch64/run.sh counts under
 * qemu-aarch64 (insn_count.so). One process does a deterministic setup, then N
 * operations of one kind, or none: the same setup in both runs, so
 *   instructions per operation = (count of "... N 1" - count of "... N 0") / N.
 *
 *   count_ops op SET keygen|sign|verify N RUN
 *     N key pairs from N seeds; or N signatures (pure ML-DSA, empty context, one fixed
 *     rnd) of N different 64-byte messages under one key; or N verifications of those.
 *     With libmldsa (COUNT_LIBMLDSA) MLDSA_ISA picks the path, as for any program; a
 *     peer (COUNT_PEER) is linked in through the calls of bench/peers/peer_shim.c and
 *     answers for the one set it was built for.
 *   count_ops kernel ISA KERNEL N RUN          (libmldsa only)
 *     N calls of mldsa_<KERNEL>_<ISA> (src/kernels.h, fips202.h, fips202x.h) on inputs
 *     prepared in the setup; keccak_f1600_batch prints its lane count W, the caller
 *     divides by it for the count per permutation of one state.
 *
 * The setup does one operation of the same kind before the counted ones, so one-time
 * work (CPU feature detection, dispatch) falls in the setup. Outputs are kept and
 * digested (FNV-1a) after the loop and the digest printed, in both runs alike (printf
 * alone is some 1,800 instructions); with RUN = 1 every implementation must print the
 * same digest for an operation and set, which shows that they were given identical
 * inputs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG_BYTES 64
#define MAX_PK 2592
#define MAX_SK 4896
#define MAX_SIG 4627

int peer_keygen(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]);
int peer_sign(uint8_t *sig, const uint8_t *msg, size_t mlen, const uint8_t rnd[32],
              const uint8_t *sk);
int peer_verify(const uint8_t *sig, const uint8_t *msg, size_t mlen, const uint8_t *pk);
int peer_param(void);

#if defined(COUNT_LIBMLDSA)
#include "fips202.h"
#include "fips202x.h"
#include "kernels.h"
#include "mldsa.h"

/* libmldsa's public API behind the same three calls as a peer */
static mldsa_param lib_set;

int peer_keygen(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]) {
  return mldsa_keygen_from_seed(lib_set, pk, mldsa_public_key_bytes(lib_set), sk,
                                mldsa_secret_key_bytes(lib_set), seed);
}
int peer_sign(uint8_t *sig, const uint8_t *msg, size_t mlen, const uint8_t rnd[32],
              const uint8_t *sk) {
  return mldsa_sign(lib_set, sig, mldsa_signature_bytes(lib_set), msg, mlen, NULL, 0, rnd, sk,
                    mldsa_secret_key_bytes(lib_set));
}
int peer_verify(const uint8_t *sig, const uint8_t *msg, size_t mlen, const uint8_t *pk) {
  return mldsa_verify(lib_set, sig, mldsa_signature_bytes(lib_set), msg, mlen, NULL, 0, pk,
                      mldsa_public_key_bytes(lib_set));
}
int peer_param(void) { return (int)lib_set; }
#elif !defined(COUNT_PEER)
#error "build with -DCOUNT_LIBMLDSA (and libmldsa.a) or -DCOUNT_PEER (and a peer archive)"
#endif

static size_t sig_bytes(int set) { return set == 44 ? 2420 : set == 65 ? 3309 : 4627; }
static size_t pk_bytes(int set) { return set == 44 ? 1312 : set == 65 ? 1952 : 2592; }

static uint64_t digest = 14695981039346656037u;
static void absorb(const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) digest = (digest ^ b[i]) * 1099511628211u;
}

/* a fixed pseudo-random byte stream (xorshift64*): inputs without structure, the same
 * in every run and every implementation */
static uint64_t stream_state = 0x9e3779b97f4a7c15u;
static void fill(uint8_t *out, size_t n) {
  for (size_t i = 0; i < n; i++) {
    stream_state ^= stream_state >> 12;
    stream_state ^= stream_state << 25;
    stream_state ^= stream_state >> 27;
    out[i] = (uint8_t)((stream_state * 0x2545f4914f6cdd1du) >> 56);
  }
}

static void *alloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (p == NULL) {
    fprintf(stderr, "count_ops: out of memory\n");
    exit(2);
  }
  return p;
}

static _Noreturn void fail(const char *what, unsigned long i) {
  fprintf(stderr, "count_ops: %s failed (operation %lu)\n", what, i);
  exit(1);
}

static int run_op(int set, const char *op, unsigned long n, int run) {
  if (peer_param() != set) {
    fprintf(stderr, "count_ops: this build answers for ML-DSA-%d, not %d\n", peer_param(), set);
    return 2;
  }
  static uint8_t pk[MAX_PK], sk[MAX_SK];
  uint8_t seed[32], rnd[32], warm_sig[MAX_SIG], warm_msg[MSG_BYTES];
  fill(seed, sizeof seed);
  fill(rnd, sizeof rnd);
  fill(warm_msg, sizeof warm_msg);
  if (peer_keygen(pk, sk, seed) != 0) fail("keygen", 0);
  uint8_t *seeds = alloc(n * 32), *msgs = alloc(n * MSG_BYTES);
  uint8_t *sigs = alloc(n * sig_bytes(set));
  fill(seeds, n * 32);
  fill(msgs, n * MSG_BYTES);
  if (peer_sign(warm_sig, warm_msg, MSG_BYTES, rnd, sk) != 0) fail("sign", 0);

  if (strcmp(op, "keygen") == 0) {
    static uint8_t sk2[MAX_SK];
    uint8_t *pks = alloc(n * pk_bytes(set));
    for (unsigned long i = 0; run && i < n; i++)
      if (peer_keygen(pks + i * pk_bytes(set), sk2, seeds + 32 * i) != 0) fail("keygen", i);
    absorb(pks, n * pk_bytes(set));
  } else if (strcmp(op, "sign") == 0) {
    for (unsigned long i = 0; run && i < n; i++)
      if (peer_sign(sigs + i * sig_bytes(set), msgs + i * MSG_BYTES, MSG_BYTES, rnd, sk) != 0)
        fail("sign", i);
    absorb(sigs, n * sig_bytes(set));
  } else if (strcmp(op, "verify") == 0) {
    /* the signatures to verify: made in the setup, so in both runs */
    for (unsigned long i = 0; i < n; i++)
      if (peer_sign(sigs + i * sig_bytes(set), msgs + i * MSG_BYTES, MSG_BYTES, rnd, sk) != 0)
        fail("sign", i);
    if (peer_verify(warm_sig, warm_msg, MSG_BYTES, pk) != 0) fail("verify", 0);
    for (unsigned long i = 0; run && i < n; i++)
      if (peer_verify(sigs + i * sig_bytes(set), msgs + i * MSG_BYTES, MSG_BYTES, pk) != 0)
        fail("verify", i);
    absorb(sigs, n * sig_bytes(set));
  } else {
    fprintf(stderr, "count_ops: unknown operation %s\n", op);
    return 2;
  }
#if defined(COUNT_LIBMLDSA)
  printf("isa %s\n", mldsa_isa()); /* the path taken, for the caller to check */
#else
  printf("isa peer\n"); /* the same output calls as the libmldsa build */
#endif
  printf("digest %016llx\n", (unsigned long long)digest);
  return 0;
}

#if defined(COUNT_LIBMLDSA)
typedef struct {
  const char *isa;
  void (*ntt)(int32_t *);
  void (*invntt_tomont)(int32_t *);
  void (*pointwise_montgomery)(int32_t *, const int32_t *, const int32_t *);
  void (*keccak_f1600_x1)(uint64_t *);
  void (*keccak_f1600_batch)(uint64_t *);
  unsigned keccak_w;
  unsigned (*rej_uniform)(int32_t *, unsigned, const uint8_t *, size_t);
  unsigned (*rej_eta2)(int32_t *, unsigned, const uint8_t *, size_t);
  unsigned (*rej_eta4)(int32_t *, unsigned, const uint8_t *, size_t);
} kernel_set;

#define KERNEL_SET(isa)              \
  {#isa,                             \
   mldsa_ntt_##isa,                  \
   mldsa_invntt_tomont_##isa,        \
   mldsa_pointwise_montgomery_##isa, \
   mldsa_keccak_f1600_x1_##isa,      \
   mldsa_keccak_f1600_batch_##isa,   \
   MLDSA_KECCAKX_W(isa),             \
   mldsa_rej_uniform_##isa,          \
   mldsa_rej_eta2_##isa,             \
   mldsa_rej_eta4_##isa},
static const kernel_set kernel_sets[] = {MLDSA_FOR_EACH_ISA(KERNEL_SET)};

/* coefficients in [0, q), which every kernel's contract accepts */
static void fill_poly(int32_t *a, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint8_t b[4];
    fill(b, 4);
    a[i] = (int32_t)(((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                      (uint32_t)b[3] << 24) %
                     8380417u);
  }
}

/* SHAKE128's first five blocks (ExpandA's first squeeze) and one SHAKE256 block
 * (ExpandS's), as the samplers see them */
#define REJ_UNIFORM_BYTES (5 * 168)
#define REJ_ETA_BYTES 136

static int run_kernel(const char *isa, const char *name, unsigned long n, int run) {
  const kernel_set *k = NULL;
  for (size_t i = 0; i < sizeof kernel_sets / sizeof kernel_sets[0]; i++)
    if (strcmp(kernel_sets[i].isa, isa) == 0) k = &kernel_sets[i];
  if (k == NULL) {
    fprintf(stderr, "count_ops: ISA %s not in this build\n", isa);
    return 2;
  }
  /* one input and one output per call (a kernel's output is not a valid input for every
   * kernel; the outputs are digested after the loop, in both runs alike) */
  size_t polys = n + 1;
  int32_t *a = alloc(polys * 256 * sizeof(int32_t)), *b = alloc(polys * 256 * sizeof(int32_t));
  int32_t *c = alloc(polys * 256 * sizeof(int32_t));
  uint8_t *buf = alloc(polys * REJ_UNIFORM_BYTES);
  uint64_t *st = alloc(25 * MLDSA_KECCAKX_MAXW * sizeof(uint64_t));
  fill_poly(a, polys * 256);
  fill_poly(b, polys * 256);
  fill(buf, polys * REJ_UNIFORM_BYTES);
  fill((uint8_t *)st, 25 * MLDSA_KECCAKX_MAXW * sizeof(uint64_t));
  unsigned long sum = 0;
  /* the first input is the setup's own call; the counted ones take inputs 1..n */
#define KERNEL_LOOP(call)                  \
  for (unsigned long i = 0; i <= n; i++) { \
    if (i > 0 && !run) break;              \
    call;                                  \
  }
  if (strcmp(name, "ntt") == 0) {
    KERNEL_LOOP(k->ntt(a + 256 * i));
    absorb(a, polys * 256 * sizeof(int32_t));
  } else if (strcmp(name, "invntt_tomont") == 0) {
    KERNEL_LOOP(k->invntt_tomont(a + 256 * i));
    absorb(a, polys * 256 * sizeof(int32_t));
  } else if (strcmp(name, "pointwise_montgomery") == 0) {
    KERNEL_LOOP(k->pointwise_montgomery(c + 256 * i, a + 256 * i, b + 256 * i));
  } else if (strcmp(name, "keccak_f1600_x1") == 0) {
    KERNEL_LOOP(k->keccak_f1600_x1(st));
    absorb(st, 25 * sizeof(uint64_t));
  } else if (strcmp(name, "keccak_f1600_batch") == 0) {
    KERNEL_LOOP(k->keccak_f1600_batch(st));
    absorb(st, 25 * k->keccak_w * sizeof(uint64_t));
    printf("lanes %u\n", k->keccak_w);
  } else if (strcmp(name, "rej_uniform") == 0) {
    KERNEL_LOOP(sum +=
                k->rej_uniform(c + 256 * i, 0, buf + REJ_UNIFORM_BYTES * i, REJ_UNIFORM_BYTES));
  } else if (strcmp(name, "rej_eta2") == 0) {
    KERNEL_LOOP(sum += k->rej_eta2(c + 256 * i, 0, buf + REJ_UNIFORM_BYTES * i, REJ_ETA_BYTES));
  } else if (strcmp(name, "rej_eta4") == 0) {
    KERNEL_LOOP(sum += k->rej_eta4(c + 256 * i, 0, buf + REJ_UNIFORM_BYTES * i, REJ_ETA_BYTES));
  } else {
    fprintf(stderr, "count_ops: unknown kernel %s\n", name);
    return 2;
  }
  /* outputs digested after the loop, in both runs alike (the cost cancels) */
  absorb(c, polys * 256 * sizeof(int32_t));
  printf("accepted %lu digest %016llx\n", sum, (unsigned long long)digest);
  return 0;
}
#endif

int main(int argc, char **argv) {
  if (argc == 6 && strcmp(argv[1], "op") == 0) {
#if defined(COUNT_LIBMLDSA)
    lib_set = (mldsa_param)atoi(argv[2]);
#endif
    return run_op(atoi(argv[2]), argv[3], strtoul(argv[4], NULL, 10), atoi(argv[5]));
  }
#if defined(COUNT_LIBMLDSA)
  if (argc == 6 && strcmp(argv[1], "kernel") == 0)
    return run_kernel(argv[2], argv[3], strtoul(argv[4], NULL, 10), atoi(argv[5]));
#endif
  fprintf(stderr,
          "usage: count_ops op SET keygen|sign|verify N RUN\n"
          "       count_ops kernel ISA KERNEL N RUN   (libmldsa build)\n");
  return 2;
}
