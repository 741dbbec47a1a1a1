/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Windows only (tests/test_stack.c, tests/test_zeroize.c): an operation on a painted
 * thread stack, looked at after it returned. On POSIX those tests give the thread memory
 * of their own (pthread_attr_setstack), paint it, and read it after the join; Windows
 * threads run on a stack the system allocates and frees with the thread. So here:
 *
 *   - CreateThread commits stack_size bytes of stack (dwStackSize without
 *     STACK_SIZE_PARAM_IS_A_RESERVATION): those pages are there, no guard page to meet;
 *   - the thread function paints the stack_size - 64 KiB below a point
 *     MLDSA_TEST_STACK_GAP bytes under its own frame (the gap holds the frames of the
 *     painting call itself), never below the stack's low limit
 *     (GetCurrentThreadStackLimits),
 *   - runs fn(arg) MLDSA_TEST_STACK_DESCENT bytes lower, inside the painted region, so
 *     that fn's own frame and everything it calls are in it,
 *   - then copies the painted region into a buffer allocated before the thread started,
 *     with a loop that calls nothing (a call there would write below the frame again).
 *
 * The copy and the address its first byte had (at) are returned: a depth below fn's frame
 * is (frame address - (at + index)), as with a stack the program allocated. */
#ifndef MLDSA_TEST_STACK_WIN32_H
#define MLDSA_TEST_STACK_WIN32_H

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#define MLDSA_TEST_STACK_GAP 1024
#define MLDSA_TEST_STACK_DESCENT 3072 /* under a page: no __chkstk probe in the descent */

typedef struct {
  uint8_t *low;  /* the copy of the painted region (malloc: free it) */
  size_t size;   /* its length */
  uintptr_t at;  /* the stack address of its first byte */
} mldsa_test_stack_run;

typedef struct {
  uint8_t paint;
  void (*fn)(void *);
  void *arg;
  uint8_t *copy;
  size_t cap;
  mldsa_test_stack_run *out;
  int ok;
} mldsa_test_stack_job;

static __attribute__((noinline)) void mldsa_test_stack_paint(uint8_t *p, size_t n, uint8_t v) {
  memset(p, v, n);
}

static __attribute__((noinline)) void mldsa_test_stack_descend(mldsa_test_stack_job *w) {
  volatile uint8_t pad[MLDSA_TEST_STACK_DESCENT];
  pad[0] = w->paint; /* the frame is really there: fn runs below it */
  w->fn(w->arg);
  (void)pad[0];
}

static DWORD WINAPI mldsa_test_stack_main(LPVOID arg) {
  mldsa_test_stack_job *w = arg;
  ULONG_PTR limit_low = 0, limit_high = 0;
  GetCurrentThreadStackLimits(&limit_low, &limit_high);
  uint8_t *frame = (uint8_t *)__builtin_frame_address(0);
  uint8_t *high = frame - MLDSA_TEST_STACK_GAP;
  uint8_t *low = high - w->cap;
  if ((uintptr_t)low < limit_low) low = (uint8_t *)limit_low;
  if (high <= low) return 0;
  mldsa_test_stack_paint(low, (size_t)(high - low), w->paint);
  mldsa_test_stack_descend(w);
  volatile uint8_t *dst = w->copy; /* no memcpy: a call would write below this frame */
  for (uint8_t *p = low; p < high; ++p) *dst++ = *p;
  w->out->low = w->copy;
  w->out->size = (size_t)(high - low);
  w->out->at = (uintptr_t)low;
  w->ok = 1;
  return 0;
}

/* Runs fn(arg) on a new thread with a stack_size stack, painted with paint; 1 and the copy
 * of the painted region in *out, or 0. */
static inline int mldsa_test_stack_thread(size_t stack_size, uint8_t paint, void (*fn)(void *),
                                          void *arg, mldsa_test_stack_run *out) {
  if (stack_size <= 2 * 65536) return 0;
  size_t cap = stack_size - 65536;
  mldsa_test_stack_job w = {paint, fn, arg, malloc(cap), cap, out, 0};
  if (w.copy == NULL) return 0;
  HANDLE t = CreateThread(NULL, stack_size, mldsa_test_stack_main, &w, 0, NULL);
  if (t == NULL) {
    free(w.copy);
    return 0;
  }
  WaitForSingleObject(t, INFINITE);
  CloseHandle(t);
  if (!w.ok) free(w.copy);
  return w.ok;
}

#endif
