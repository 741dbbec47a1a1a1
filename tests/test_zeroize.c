/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Zeroization: after an operation returns, the stack it used holds no copy of
 * its secrets.
 *
 * Each operation runs on a thread whose 1 MiB stack this program allocated and painted;
 * after it returns the whole region is searched for any 16-byte window of the secrets
 * the operation handled (windows with fewer than 8 distinct byte values are left out:
 * they could match zeros or small integers by chance). The secrets are recomputed here,
 * in the form the library holds them:
 *   sign (pure and external mu): K, the packed s1/s2 and t0 of sk, rnd, rho'' =
 *     H(K || rnd || mu), NTT(s1), NTT(s2), NTT(t0) as this ISA's ntt computes them, the
 *     SHAKE256 streams of ExpandMask and the masks y of the first attempts;
 *   keygen: the seed, rho' and K, the ExpandS streams, packed s1/s2/t0, NTT(s1);
 *   import (mldsa_public_key_from_secret): K, packed s1/s2/t0, NTT(s1);
 *   prepare_secret (mldsa_secret_key_prepare): K, packed s1/s2/t0, NTT(s1/s2/t0): the
 *     prepared key (caller memory, not on the stack) holds them, the stack must not;
 *   sign_prepared: as sign, from a key prepared beforehand;
 *   unprepare: prepare, sign_prepared, mldsa_secret_key_unprepare; then the prepared
 *     key's memory is searched too and must hold none of the secrets.
 *   private_key_decode and private_key_encode of a PEM key in each form (seed, expanded,
 *     both): those of import, those of keygen when the form holds the seed, and (decode)
 *     the base64 text of the key.
 * The check is shown to work by a planted defect: a function of this test that leaves a
 * copy of K in its stack frame, called on the same thread after sign, must be reported.
 *
 * Registered once per ISA (MLDSA_ISA=<isa>; exit 77 when not in use, and in an
 * AddressSanitizer build).
 *
 * Windows threads cannot run on memory the program gives them: there the thread paints
 * its own stack, runs the operation inside the painted part and copies it out before it
 * exits (tests/test_stack_win32.h); the copy is searched. */
#if defined(_WIN32)
#include "test_stack_win32.h"
#else
#include <pthread.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fips202.h"
#include "kernels.h"
#include "mldsa.h"
#include "test_common.h"

/* Under AddressSanitizer locals live in its redzoned frames and fake stacks, not where
 * the code would put them: the check means nothing there and is skipped (exit 77). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZEROIZE_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define ZEROIZE_SANITIZED 1
#endif
#if defined(ZEROIZE_SANITIZED)
#define NO_ASAN __attribute__((no_sanitize_address))
#else
#define NO_ASAN
#endif

#define STACK_SIZE (1u << 20)
#define PAINT 0xA5
#define WINDOW 16
#define MIN_DISTINCT 8
#define MASK_ATTEMPTS 8 /* y of the first attempts */

typedef struct {
  mldsa_param p;
  const char *name;
  unsigned k, l, eta_bits, polyeta, gamma1_bits, polyz;
} set_info;
static const set_info sets[3] = {
    {MLDSA_44, "ML-DSA-44", 4, 4, 3, 96, 18, 576},
    {MLDSA_65, "ML-DSA-65", 6, 5, 4, 128, 20, 640},
    {MLDSA_87, "ML-DSA-87", 8, 7, 3, 96, 20, 640},
};

/* ---------------------------------------------------------------- the secrets */

#define MAX_SECRETS 256
typedef struct {
  char name[48];
  uint8_t *bytes;
  size_t len;
} secret;
static secret secrets[MAX_SECRETS];
static unsigned nsecrets;

static void add_secret(const char *name, const void *p, size_t len) {
  if (nsecrets == MAX_SECRETS) abort();
  secret *s = &secrets[nsecrets++];
  snprintf(s->name, sizeof s->name, "%s", name);
  s->bytes = malloc(len);
  if (s->bytes == NULL) abort();
  memcpy(s->bytes, p, len);
  s->len = len;
}

static void clear_secrets(void) {
  for (unsigned i = 0; i < nsecrets; ++i) free(secrets[i].bytes);
  nsecrets = 0;
}

/* The ntt kernel of the ISA in use. */
static void (*isa_ntt)(int32_t *);
static void pick_ntt(const char *isa) {
  isa_ntt = mldsa_ntt_scalar;
#define PICK_NTT(name) \
  if (strcmp(isa, #name) == 0) isa_ntt = mldsa_ntt_##name;
  MLDSA_FOR_EACH_ASM_ISA(PICK_NTT)
#undef PICK_NTT
  (void)isa;
}

static uint32_t get_bits(const uint8_t *base, size_t bit, unsigned nbits) {
  uint32_t v = 0;
  for (unsigned i = 0; i < nbits; ++i, ++bit) v |= (uint32_t)((base[bit / 8] >> (bit % 8)) & 1) << i;
  return v;
}

/* NTT of polynomial i of an encoding: coefficient j = offset - field j. */
static void add_ntt_secret(const char *name, const uint8_t *enc, unsigned bits, int32_t offset) {
  int32_t a[MLDSA_N] __attribute__((aligned(64)));
  for (unsigned j = 0; j < MLDSA_N; ++j) a[j] = offset - (int32_t)get_bits(enc, (size_t)j * bits, bits);
  isa_ntt(a);
  add_secret(name, a, sizeof a);
}

/* The sk parts and the NTT forms of s1 (and s2, t0 when all is set). */
static void add_key_secrets(const set_info *s, const uint8_t *sk, size_t sk_len, int all) {
  size_t t0 = 128 + (size_t)(s->l + s->k) * s->polyeta;
  char name[48];
  add_secret("K (sk[32..64))", sk + 32, 32);
  add_secret("packed s1, s2", sk + 128, t0 - 128);
  add_secret("packed t0", sk + t0, sk_len - t0);
  int32_t eta = s->eta_bits == 3 ? 2 : 4;
  for (unsigned i = 0; i < s->l; ++i) {
    snprintf(name, sizeof name, "NTT(s1[%u])", i);
    add_ntt_secret(name, sk + 128 + i * s->polyeta, s->eta_bits, eta);
  }
  if (!all) return;
  for (unsigned i = 0; i < s->k; ++i) {
    snprintf(name, sizeof name, "NTT(s2[%u])", i);
    add_ntt_secret(name, sk + 128 + (s->l + i) * s->polyeta, s->eta_bits, eta);
    snprintf(name, sizeof name, "NTT(t0[%u])", i);
    add_ntt_secret(name, sk + t0 + i * 416, 13, 1 << 12);
  }
}

/* rho'', the ExpandMask streams and the masks y of the first attempts. */
static void add_mask_secrets(const set_info *s, const uint8_t *sk, const uint8_t rnd[32],
                             const uint8_t mu[64]) {
  uint8_t in[128], rhopp[64], seed[66], stream[640];
  int32_t y[MLDSA_N];
  char name[48];
  memcpy(in, sk + 32, 32);
  memcpy(in + 32, rnd, 32);
  memcpy(in + 64, mu, 64);
  mldsa_shake256(rhopp, sizeof rhopp, in, sizeof in);
  add_secret("rho''", rhopp, sizeof rhopp);
  for (unsigned att = 0; att < MASK_ATTEMPTS; ++att)
    for (unsigned r = 0; r < s->l; ++r) {
      unsigned nonce = att * s->l + r;
      memcpy(seed, rhopp, 64);
      seed[64] = (uint8_t)nonce;
      seed[65] = (uint8_t)(nonce >> 8);
      mldsa_shake256(stream, s->polyz, seed, sizeof seed);
      for (unsigned j = 0; j < MLDSA_N; ++j)
        y[j] = (1 << (s->gamma1_bits - 1)) -
               (int32_t)get_bits(stream, (size_t)j * s->gamma1_bits, s->gamma1_bits);
      snprintf(name, sizeof name, "ExpandMask stream %u", nonce);
      add_secret(name, stream, s->polyz);
      snprintf(name, sizeof name, "y[%u] of attempt %u", r, att);
      add_secret(name, y, sizeof y);
    }
}

/* The seed, rho' and K, and the ExpandS streams (first 2 blocks of each). */
static void add_keygen_secrets(const set_info *s, const uint8_t seed[32]) {
  uint8_t in[34], out[128], sin[66], stream[272];
  char name[48];
  add_secret("seed", seed, 32);
  memcpy(in, seed, 32);
  in[32] = (uint8_t)s->k;
  in[33] = (uint8_t)s->l;
  mldsa_shake256(out, sizeof out, in, sizeof in);
  add_secret("rho' || K", out + 32, 96);
  for (unsigned r = 0; r < s->l + s->k; ++r) {
    memcpy(sin, out + 32, 64);
    sin[64] = (uint8_t)r;
    sin[65] = 0;
    mldsa_shake256(stream, sizeof stream, sin, sizeof sin);
    snprintf(name, sizeof name, "ExpandS stream %u", r);
    add_secret(name, stream, sizeof stream);
  }
}

/* ---------------------------------------------------------------- the search */

/* Open-addressing table of the windows of every secret. */
#define TABLE_BITS 20
typedef struct {
  uint64_t key;
  uint32_t secret_id, offset;
} slot;
static slot *table;

static uint64_t window_key(const uint8_t *p) {
  uint64_t a, b;
  memcpy(&a, p, 8);
  memcpy(&b, p + 8, 8);
  uint64_t h = a * 0x9e3779b97f4a7c15u ^ (b + 0x632be59bd9b4e019u);
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9u;
  h ^= h >> 29;
  return h | 1; /* 0 marks an empty slot */
}

NO_ASAN static int distinct_enough(const uint8_t *p) {
  uint8_t seen[256] = {0};
  int n = 0;
  for (int i = 0; i < WINDOW; ++i) n += !seen[p[i]]++;
  return n >= MIN_DISTINCT;
}

static void build_table(void) {
  size_t size = (size_t)1 << TABLE_BITS;
  memset(table, 0, size * sizeof *table);
  for (unsigned id = 0; id < nsecrets; ++id)
    for (size_t off = 0; off + WINDOW <= secrets[id].len; ++off) {
      const uint8_t *w = secrets[id].bytes + off;
      if (!distinct_enough(w)) continue;
      uint64_t key = window_key(w);
      size_t i = key & (size - 1);
      while (table[i].key != 0) i = (i + 1) & (size - 1);
      table[i] = (slot){key, id, (uint32_t)off};
    }
}

typedef struct {
  unsigned windows;        /* matching windows */
  unsigned first_secret;   /* of the first one */
  size_t first_offset, first_depth;
} finding;

/* Windows of the region [mem, mem + len) found among the secrets; depth is counted down
 * from top (the thread function's frame). */
NO_ASAN static unsigned search(const uint8_t *mem, size_t len, uintptr_t top, finding *per) {
  size_t size = (size_t)1 << TABLE_BITS;
  unsigned total = 0;
  for (size_t pos = 0; pos + WINDOW <= len; ++pos) {
    const uint8_t *w = mem + pos;
    if (w[0] == PAINT && w[WINDOW - 1] == PAINT) continue;
    uint64_t key = window_key(w);
    for (size_t i = key & (size - 1); table[i].key != 0; i = (i + 1) & (size - 1)) {
      if (table[i].key != key) continue;
      const secret *s = &secrets[table[i].secret_id];
      if (memcmp(s->bytes + table[i].offset, w, WINDOW) != 0) continue;
      finding *f = &per[table[i].secret_id];
      if (f->windows++ == 0) {
        f->first_offset = table[i].offset;
        f->first_depth = top - (uintptr_t)w;
      }
      ++total;
      break;
    }
  }
  return total;
}

/* ---------------------------------------------------------------- the operations */

enum op { KEYGEN, SIGN, SIGN_MU, IMPORT, PREPARE, SIGN_PREPARED, UNPREPARE, DECODE, ENCODE };
static const char *const op_names[] = {"keygen",         "sign",          "sign_mu",
                                       "import",         "prepare_secret", "sign_prepared",
                                       "unprepare",      "private_key_decode",
                                       "private_key_encode"};

/* The prepared secret key of PREPARE, SIGN_PREPARED and UNPREPARE: caller memory. */
static mldsa_prepared_secret_key prepared;

static uint8_t pk[2592], pk2[2592], sk[4896], sig[4627], msg[77], ctx[9], seed[32], rnd[32],
    mu[64];
/* The key file of DECODE and the output of ENCODE (a PEM key in the given form) */
static uint8_t keyfile[8192], out_sk[4896], out_seed[32];
static size_t keyfile_len;
static mldsa_sk_form keyfile_form;

typedef struct {
  const set_info *s;
  enum op op;
  int plant;
  int rc;
  uintptr_t top;
} job;

/* The planted defect: a copy of K left in this function's frame. */
static __attribute__((noinline)) void planted_leak(const uint8_t *key) {
  uint8_t copy[32];
  memcpy(copy, key, sizeof copy);
  __asm__ __volatile__("" : : "r"(copy) : "memory"); /* the copy is really made */
}

/* The operation runs below a 16 KiB pad in this frame, so what the thread's exit code
 * does in the frames above (glibc's start_thread) cannot overwrite what it left. */
static void *thread_main(void *arg) {
  job *j = arg;
  const set_info *s = j->s;
  size_t pkl = mldsa_public_key_bytes(s->p), skl = mldsa_secret_key_bytes(s->p),
         sigl = mldsa_signature_bytes(s->p);
  volatile uint8_t pad[16384];
  pad[0] = 0;
  j->top = (uintptr_t)&pad[0];
  switch (j->op) {
    case KEYGEN:
      j->rc = mldsa_keygen_from_seed(s->p, pk, pkl, sk, skl, seed);
      break;
    case SIGN:
      j->rc = mldsa_sign(s->p, sig, sigl, msg, sizeof msg, ctx, sizeof ctx, rnd, sk, skl);
      break;
    case SIGN_MU:
      j->rc = mldsa_sign_mu(s->p, sig, sigl, mu, rnd, sk, skl);
      break;
    case IMPORT:
      j->rc = mldsa_public_key_from_secret(s->p, pk2, pkl, sk, skl);
      break;
    case PREPARE:
      j->rc = mldsa_secret_key_prepare(&prepared, s->p, sk, skl);
      break;
    case SIGN_PREPARED:
      j->rc = mldsa_sign_prepared(&prepared, sig, sigl, msg, sizeof msg, ctx, sizeof ctx, rnd);
      break;
    case UNPREPARE:
      j->rc = mldsa_secret_key_prepare(&prepared, s->p, sk, skl);
      if (j->rc == MLDSA_OK)
        j->rc = mldsa_sign_prepared(&prepared, sig, sigl, msg, sizeof msg, ctx, sizeof ctx, rnd);
      mldsa_secret_key_unprepare(&prepared);
      break;
    case DECODE: {
      mldsa_param p;
      size_t n;
      int has;
      j->rc = mldsa_private_key_decode(&p, out_sk, sizeof out_sk, &n, out_seed, &has, keyfile,
                                       keyfile_len);
      break;
    }
    case ENCODE:
      j->rc = mldsa_private_key_encode(s->p, MLDSA_PEM, keyfile_form, keyfile, sizeof keyfile,
                                       &keyfile_len, seed, keyfile_form == MLDSA_SK_SEED ? NULL : sk,
                                       keyfile_form == MLDSA_SK_SEED ? 0 : skl);
      break;
  }
  if (j->plant) planted_leak(sk + 32);
  return NULL;
}

static uint8_t *stack_mem;
static unsigned passed, failed;

#if defined(_WIN32)
static void run_job(void *arg) { thread_main(arg); }
#endif

/* Runs the operation on a painted stack and searches it; returns the matching windows. */
static unsigned run(const set_info *s, enum op op, int plant, int *rc) {
  job j = {s, op, plant, -100, 0};
#if defined(_WIN32)
  mldsa_test_stack_run region;
  if (!mldsa_test_stack_thread(STACK_SIZE, PAINT, run_job, &j, &region)) {
    printf("test_zeroize: the thread on a painted stack failed\n");
    exit(EXIT_FAILURE);
  }
  const uint8_t *mem = region.low;
  size_t mem_len = region.size;
  uintptr_t top = (uintptr_t)region.low + (j.top - region.at); /* in the copy */
#else
  memset(stack_mem, PAINT, STACK_SIZE);
  pthread_attr_t attr;
  pthread_t t;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, stack_mem, STACK_SIZE);
  if (pthread_create(&t, &attr, thread_main, &j) != 0) {
    printf("test_zeroize: pthread_create failed\n");
    exit(EXIT_FAILURE);
  }
  pthread_join(t, NULL);
  pthread_attr_destroy(&attr);
  const uint8_t *mem = stack_mem;
  size_t mem_len = STACK_SIZE;
  uintptr_t top = j.top;
#endif
  *rc = j.rc;
  build_table();
  finding per[MAX_SECRETS];
  memset(per, 0, sizeof per);
  unsigned total = search(mem, mem_len, top, per);
#if defined(_WIN32)
  free(region.low);
#endif
  if (op == UNPREPARE)
    total += search((const uint8_t *)&prepared, sizeof prepared,
                    (uintptr_t)&prepared + sizeof prepared, per);
  for (unsigned i = 0; i < nsecrets; ++i)
    if (per[i].windows)
      printf("test_zeroize:   %s %s: %u windows of %s on the stack (first: bytes %zu.. of it, "
             "%zu bytes below the operation's caller)\n",
             s->name, op_names[op], per[i].windows, secrets[i].name, per[i].first_offset,
             per[i].first_depth);
  return total;
}

static size_t secret_bytes(void) {
  size_t n = 0;
  for (unsigned i = 0; i < nsecrets; ++i) n += secrets[i].len;
  return n;
}

static void check(const set_info *s, enum op op, int plant) {
  int rc;
  unsigned windows = run(s, op, plant, &rc);
  int ok = rc == MLDSA_OK && (plant ? windows > 0 : windows == 0);
  char what[64];
  snprintf(what, sizeof what, "%s%s", op_names[op], plant ? " + planted copy of K" : "");
  printf("test_zeroize: %s %s %-30s %u secret windows found (%u secrets, %zu bytes)%s%s\n",
         ok ? "ok  " : "FAIL", s->name, what, windows, nsecrets, secret_bytes(),
         rc != MLDSA_OK ? ": the operation failed" : "",
         plant ? (windows ? ": the planted copy is reported" : ": the planted copy is MISSED")
               : "");
  if (ok) ++passed;
  else ++failed;
}

int main(void) {
  const char *isa = mldsa_test_isa_gate("test_zeroize");
#if defined(ZEROIZE_SANITIZED)
  printf("test_zeroize: AddressSanitizer build: stack contents are not the real ones: skipped\n");
  return MLDSA_TEST_SKIP;
#endif
  mldsa_test_seed_rng("test_zeroize");
  pick_ntt(isa);
  table = malloc(((size_t)1 << TABLE_BITS) * sizeof *table);
#if !defined(_WIN32) /* Windows: the thread's own stack (test_stack_win32.h) */
  if (posix_memalign((void **)&stack_mem, 4096, STACK_SIZE) != 0) return 1;
#endif
  if (table == NULL) return 1;
  mldsa_test_randbytes(msg, sizeof msg);
  mldsa_test_randbytes(ctx, sizeof ctx);
  for (int i = 0; i < 3; ++i) {
    const set_info *s = &sets[i];
    size_t pkl = mldsa_public_key_bytes(s->p), skl = mldsa_secret_key_bytes(s->p);
    mldsa_test_randbytes(seed, sizeof seed);
    mldsa_test_randbytes(rnd, sizeof rnd);

    add_keygen_secrets(s, seed);
    if (mldsa_keygen_from_seed(s->p, pk, pkl, sk, skl, seed) != MLDSA_OK) return 1;
    add_key_secrets(s, sk, skl, 0);
    check(s, KEYGEN, 0);
    clear_secrets();

    uint8_t mprime_mu[64];
    if (mldsa_compute_mu(s->p, mprime_mu, pk, pkl, msg, sizeof msg, ctx, sizeof ctx) != MLDSA_OK)
      return 1;
    add_key_secrets(s, sk, skl, 1);
    add_secret("rnd", rnd, sizeof rnd);
    add_mask_secrets(s, sk, rnd, mprime_mu);
    check(s, SIGN, 0);
    check(s, SIGN, 1);
    clear_secrets();

    mldsa_test_randbytes(mu, sizeof mu);
    add_key_secrets(s, sk, skl, 1);
    add_secret("rnd", rnd, sizeof rnd);
    add_mask_secrets(s, sk, rnd, mu);
    check(s, SIGN_MU, 0);
    clear_secrets();

    add_key_secrets(s, sk, skl, 0);
    check(s, IMPORT, 0);
    clear_secrets();

    add_key_secrets(s, sk, skl, 1);
    check(s, PREPARE, 0);
    add_secret("rnd", rnd, sizeof rnd);
    add_mask_secrets(s, sk, rnd, mprime_mu);
    check(s, SIGN_PREPARED, 0);
    check(s, UNPREPARE, 0);
    clear_secrets();
    /* the check sees the prepared key's secrets where they are: before unprepare */
    if (mldsa_secret_key_prepare(&prepared, s->p, sk, skl) != MLDSA_OK) return 1;
    add_key_secrets(s, sk, skl, 1);
    finding per[MAX_SECRETS];
    memset(per, 0, sizeof per);
    build_table();
    unsigned held = search((const uint8_t *)&prepared, sizeof prepared,
                           (uintptr_t)&prepared + sizeof prepared, per);
    printf(
        "test_zeroize: %s %s %-30s %u secret windows found in a prepared key before "
        "unprepare%s\n",
        held ? "ok  " : "FAIL", s->name, "(check of the check)", held,
        held ? "" : ": the search MISSES them");
    if (held)
      ++passed;
    else
      ++failed;
    mldsa_secret_key_unprepare(&prepared);
    clear_secrets();

    /* The key-file decoder and encoder, PEM in every form: what keygen and the import
       check handle, and the base64 text of the key. A seed form derives the key (keygen's
       secrets); an expanded form runs the import check; both does both. */
    for (int form = MLDSA_SK_SEED; form <= MLDSA_SK_BOTH; ++form) {
      keyfile_form = (mldsa_sk_form)form;
      if (mldsa_private_key_encode(s->p, MLDSA_PEM, keyfile_form, keyfile, sizeof keyfile,
                                   &keyfile_len, seed, sk, skl) != MLDSA_OK)
        return 1;
      if (form != MLDSA_SK_EXPANDED) add_keygen_secrets(s, seed);
      add_key_secrets(s, sk, skl, 0);
      add_secret("the PEM text", keyfile, keyfile_len);
      check(s, DECODE, 0);
      clear_secrets();
      if (form != MLDSA_SK_EXPANDED) add_keygen_secrets(s, seed);
      add_key_secrets(s, sk, skl, 0);
      check(s, ENCODE, 0);
      clear_secrets();
    }
  }
  printf("test_zeroize: %u passed, %u failed\n", passed, failed);
  free(table);
  free(stack_mem);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
