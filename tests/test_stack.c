/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Peak stack of mldsa_selftest, keygen, sign, verify and key import, of the
 * prepared-key calls (prepare_public, prepare_secret, verify_prepared, sign_prepared: the
 * prepared key is caller memory, static here) and of the batch calls (verify_batch,
 * verify_prepared_batch, sign_batch, on 17 items), per parameter set, on the ISA in use, measured
 * by stack painting:
 * each operation runs on a thread whose 1 MiB stack this program allocated and filled with a
 * pattern; the deepest byte that is no longer the pattern gives the peak (from the thread
 * function's frame).
 *
 *   test_stack BUDGET_FILE      fail when a figure exceeds its budget
 *   test_stack                  print the figures only
 *
 * For the operations on secrets (keygen, sign, import, prepare_secret, sign_prepared) it
 * also checks that the library's stack wipe reaches below everything the operation's
 * callees wrote: the deepest bytes written must be the wipe's zeros (apart from the
 * return address of the memset that writes them), not a callee's frame. The wipe is
 * sized to the deepest callee (src/util.h), and this is what keeps that size honest on
 * every ISA and compiler.
 *
 * The budget file (tests/stack_budget.txt) has lines `<compiler> <op> <set> <bytes>`; the
 * figures depend on the compiler, so a build by a compiler without lines there, an
 * unoptimized build and a sanitizer build (redzones) print the figures and enforce
 * nothing. Registered once per ISA (MLDSA_ISA=<isa>; exit 77 when not in use).
 *
 * Windows threads cannot run on memory the program gives them: there the thread paints
 * its own stack below its frame (all of it committed by CreateThread), runs the
 * operation a few KiB lower (tests/test_stack_win32.h), and scans before it exits. */
#if defined(_WIN32)
#include "test_stack_win32.h"
#else
#include <pthread.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"
#include "test_common.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define STACK_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define STACK_SANITIZED 1
#endif

#if defined(__clang__)
#define COMPILER "clang"
#elif defined(__GNUC__)
#define COMPILER "gcc"
#else
#define COMPILER "other"
#endif

#define STACK_SIZE (1u << 20)
#define PAINT 0xA5

typedef struct {
  mldsa_param p;
  const char *name;
} set_info;
static const set_info sets[3] = {{MLDSA_44, "44"}, {MLDSA_65, "65"}, {MLDSA_87, "87"}};

enum op {
  SELFTEST,
  KEYGEN,
  SIGN,
  VERIFY,
  IMPORT,
  PREPARE_PUBLIC,
  PREPARE_SECRET,
  VERIFY_PREPARED,
  SIGN_PREPARED,
  VERIFY_BATCH,
  VERIFY_PREPARED_BATCH,
  SIGN_BATCH,
  NUM_OPS
};
/* Operations on secrets, which end with a stack wipe. */
static int wipes(enum op op) {
  return op == KEYGEN || op == SIGN || op == IMPORT || op == PREPARE_SECRET ||
         op == SIGN_PREPARED || op == SIGN_BATCH;
}

/* In an MLDSA_SELFTEST build (the definition comes with mldsa_internal) keygen runs the
 * pairwise test, a signature: its own budget lines, keygen_pct. */
#ifdef MLDSA_SELFTEST
#define KEYGEN_NAME "keygen_pct"
#else
#define KEYGEN_NAME "keygen"
#endif
static const char *const op_names[NUM_OPS] = {
    "selftest",       KEYGEN_NAME,      "sign",          "verify",       "import",
    "prepare_public", "prepare_secret", "verify_prepared", "sign_prepared",
    "verify_batch",   "verify_prepared_batch", "sign_batch"};

static mldsa_prepared_public_key prepared_pk;
static mldsa_prepared_secret_key prepared_sk;

static uint8_t pk[2592], pk2[2592], sk[4896], sig[4627], msg[100], seed[32], rnd[32];

/* The batch calls on more items than any group holds (the stack must not grow with n). */
#define BATCH_N 17
static uint8_t batch_sigs[BATCH_N][4627];
static mldsa_verify_item verify_items[BATCH_N];
static mldsa_sign_item sign_items[BATCH_N];
static int batch_results[BATCH_N];

static int run_batch(enum op op, mldsa_param p, size_t pkl, size_t sigl) {
  for (int i = 0; i < BATCH_N; ++i) {
    int prepared = op == VERIFY_PREPARED_BATCH;
    verify_items[i] = (mldsa_verify_item){prepared ? NULL : pk, prepared ? 0 : pkl, msg,
                                          sizeof msg, NULL, 0, sig, sigl};
    sign_items[i] = (mldsa_sign_item){msg, sizeof msg, NULL, 0, i % 2 ? rnd : NULL,
                                      batch_sigs[i], sigl};
  }
  if (op == VERIFY_BATCH) return mldsa_verify_batch(p, verify_items, BATCH_N, batch_results);
  if (op == VERIFY_PREPARED_BATCH)
    return mldsa_verify_prepared_batch(&prepared_pk, verify_items, BATCH_N, batch_results);
  return mldsa_sign_batch(&prepared_sk, sign_items, BATCH_N, batch_results);
}

typedef struct {
  enum op op;
  mldsa_param p;
  int rc;
  uintptr_t base;
} job;

static __attribute__((noinline)) int run_op(enum op op, mldsa_param p) {
  size_t pkl = mldsa_public_key_bytes(p), skl = mldsa_secret_key_bytes(p),
         sigl = mldsa_signature_bytes(p);
  switch (op) {
    case SELFTEST: /* every set: measured first, so that it holds the power-on run */
      return mldsa_selftest();
    case KEYGEN:
      return mldsa_keygen_from_seed(p, pk, pkl, sk, skl, seed);
    case SIGN:
      return mldsa_sign(p, sig, sigl, msg, sizeof msg, NULL, 0, rnd, sk, skl);
    case VERIFY:
      return mldsa_verify(p, sig, sigl, msg, sizeof msg, NULL, 0, pk, pkl);
    case PREPARE_PUBLIC:
      return mldsa_public_key_prepare(&prepared_pk, p, pk, pkl);
    case PREPARE_SECRET:
      return mldsa_secret_key_prepare(&prepared_sk, p, sk, skl);
    case VERIFY_PREPARED: /* after PREPARE_PUBLIC, of sig made by SIGN */
      return mldsa_verify_prepared(&prepared_pk, sig, sigl, msg, sizeof msg, NULL, 0);
    case SIGN_PREPARED: /* after PREPARE_SECRET */
      return mldsa_sign_prepared(&prepared_sk, sig, sigl, msg, sizeof msg, NULL, 0, rnd);
    case VERIFY_BATCH: /* the batch calls: after the prepared ones */
    case VERIFY_PREPARED_BATCH:
    case SIGN_BATCH:
      return run_batch(op, p, pkl, sigl);
    default:
      return mldsa_public_key_from_secret(p, pk2, pkl, sk, skl);
  }
}

static void *thread_main(void *arg) {
  job *j = arg;
  j->base = (uintptr_t)__builtin_frame_address(0);
  j->rc = run_op(j->op, j->p);
  return NULL;
}

/* Bytes above the deepest one written that must be the wipe's zeros: past the return
 * address and any saved registers of the memset call below the wipe's array. */
#define WIPE_SKIP 64
#define WIPE_CHECK 1024

/* The painted region mem[0..size): the index of the deepest byte written (size: none);
 * *wiped_bottom = 1 when the bytes above it are the wipe's zeros. */
static size_t scan(const uint8_t *mem, size_t size, int *wiped_bottom) {
  size_t low = 0;
  while (low < size && mem[low] == PAINT) ++low;
  *wiped_bottom = low + WIPE_SKIP + WIPE_CHECK <= size;
  for (size_t i = low + WIPE_SKIP; *wiped_bottom && i < low + WIPE_SKIP + WIPE_CHECK; ++i)
    if (mem[i] != 0) *wiped_bottom = 0;
  return low;
}

#if defined(_WIN32)
static void run_job(void *arg) { thread_main(arg); }

static size_t measure(enum op op, mldsa_param p, int *rc, int *wiped_bottom) {
  job j = {op, p, -100, 0};
  mldsa_test_stack_run region;
  if (!mldsa_test_stack_thread(STACK_SIZE, PAINT, run_job, &j, &region)) return 0;
  size_t low = scan(region.low, region.size, wiped_bottom);
  free(region.low);
  *rc = j.rc;
  if (low == 0) return 0; /* overflowed the whole region */
  return j.base > region.at + low ? (size_t)(j.base - (region.at + low)) : 0;
}
#else
/* Peak stack in bytes of one operation, or 0 on failure; *wiped_bottom = 1 when the
 * deepest bytes written are zeros. */
static size_t measure(enum op op, mldsa_param p, int *rc, int *wiped_bottom) {
  uint8_t *mem = NULL;
  if (posix_memalign((void **)&mem, 4096, STACK_SIZE) != 0) return 0;
  memset(mem, PAINT, STACK_SIZE);
  pthread_attr_t attr;
  pthread_t t;
  job j = {op, p, -100, 0};
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, mem, STACK_SIZE);
  if (pthread_create(&t, &attr, thread_main, &j) != 0) {
    free(mem);
    return 0;
  }
  pthread_join(t, NULL);
  pthread_attr_destroy(&attr);
  size_t low = scan(mem, STACK_SIZE, wiped_bottom);
  uintptr_t deepest = (uintptr_t)mem + low;
  free(mem);
  *rc = j.rc;
  if (low == 0) return 0; /* overflowed the whole region */
  return j.base > deepest ? (size_t)(j.base - deepest) : 0;
}
#endif

/* The budget of (op, set) for this compiler, 0 if none. */
static size_t budget(const char *file, const char *op, const char *set) {
  FILE *f = fopen(file, "r");
  if (f == NULL) {
    fprintf(stderr, "test_stack: cannot read %s\n", file);
    exit(EXIT_FAILURE);
  }
  char line[256], comp[32], o[32], s[32];
  unsigned long bytes;
  size_t found = 0;
  while (fgets(line, sizeof line, f))
    if (line[0] != '#' && sscanf(line, "%31s %31s %31s %lu", comp, o, s, &bytes) == 4 &&
        strcmp(comp, COMPILER) == 0 && strcmp(o, op) == 0 && strcmp(s, set) == 0)
      found = bytes;
  fclose(f);
  return found;
}

int main(int argc, char **argv) {
  const char *isa = mldsa_test_isa_gate("test_stack");
  const char *file = argc > 1 ? argv[1] : NULL;
  int enforce = file != NULL, check_wipe = 1;
#if defined(STACK_SANITIZED)
  printf("test_stack: sanitizer build: figures only, no budget, no wipe check\n");
  enforce = check_wipe = 0;
#endif
#if !defined(__OPTIMIZE__)
  printf("test_stack: unoptimized build: figures only, no budget, no wipe check\n");
  enforce = check_wipe = 0;
#endif
  mldsa_test_seed_rng("test_stack");
  mldsa_test_randbytes(msg, sizeof msg);
  mldsa_test_randbytes(seed, sizeof seed);
  mldsa_test_randbytes(rnd, sizeof rnd);
  unsigned passed = 0, failed = 0, unbudgeted = 0;
  printf("test_stack: peak stack in bytes, %s build, isa %s\n", COMPILER, isa);
  printf("test_stack: %-8s %-4s %8s %8s\n", "op", "set", "peak", "budget");
  for (int s = 0; s < 3; ++s)
    for (int op = 0; op < NUM_OPS; ++op) {
      int rc = -100, wiped_bottom = 0;
      size_t peak = measure((enum op)op, sets[s].p, &rc, &wiped_bottom);
      size_t limit = file ? budget(file, op_names[op], sets[s].name) : 0;
      int ok = rc == MLDSA_OK && peak > 0;
      if (ok && enforce && limit == 0) ++unbudgeted;
      int over = ok && enforce && limit != 0 && peak > limit;
      int unwiped = ok && check_wipe && wipes((enum op)op) && !wiped_bottom;
      printf("test_stack: %-8s %-4s %8zu %8zu%s%s%s\n", op_names[op], sets[s].name, peak, limit,
             rc != MLDSA_OK ? "  FAIL: the operation failed" : "", over ? "  FAIL: over budget" : "",
             unwiped ? "  FAIL: a callee wrote below the stack wipe" : "");
      if (over || unwiped) ok = 0;
      if (ok) ++passed;
      else ++failed;
    }
  if (unbudgeted == passed && passed > 0) {
    printf("test_stack: no budget for %s builds in %s: figures only\n", COMPILER, file);
  } else if (unbudgeted) {
    printf("test_stack: FAIL: %u figures without a budget line\n", unbudgeted);
    ++failed;
  }
  printf("test_stack: %u passed, %u failed\n", passed, failed);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
