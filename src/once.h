/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* One-time initialisation and a static mutex, the library's only synchronisation, without
 * pthreads on Windows (so the DLL imports nothing from libwinpthread):
 *
 *   static mldsa_once_flag f = MLDSA_ONCE_INIT;   mldsa_once(&f, fn);   fn runs exactly
 *       once per process; every caller returns after it has completed (InitOnceExecuteOnce
 *       on Windows, pthread_once elsewhere: both give that guarantee and the memory order).
 *   static mldsa_mutex m = MLDSA_MUTEX_INIT;       mldsa_mutex_lock(&m) / _unlock(&m)
 *       (a statically initialised SRWLOCK on Windows, a pthread mutex elsewhere).
 *
 * Neither needs destruction; neither can fail once initialised statically (pthread_once
 * and pthread_mutex_lock on a PTHREAD_MUTEX_INITIALIZER mutex return errors only for
 * misuse, which the callers cannot commit: the results are ignored as before). */
#ifndef MLDSA_ONCE_H
#define MLDSA_ONCE_H

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

typedef INIT_ONCE mldsa_once_flag;
#define MLDSA_ONCE_INIT INIT_ONCE_STATIC_INIT

static BOOL CALLBACK mldsa_once_trampoline(PINIT_ONCE once, PVOID param, PVOID *context) {
  (void)once;
  (void)context;
  ((void (*)(void))(ULONG_PTR)param)();
  return TRUE;
}

/* The function travels in the callback's PVOID parameter: a function pointer in a data
 * pointer is what every Windows compiler supports (one flat address space); the cast goes
 * through ULONG_PTR to say so. */
static inline void mldsa_once(mldsa_once_flag *f, void (*fn)(void)) {
  InitOnceExecuteOnce(f, mldsa_once_trampoline, (PVOID)(ULONG_PTR)fn, NULL);
}

typedef SRWLOCK mldsa_mutex;
#define MLDSA_MUTEX_INIT SRWLOCK_INIT
static inline void mldsa_mutex_lock(mldsa_mutex *m) { AcquireSRWLockExclusive(m); }
static inline void mldsa_mutex_unlock(mldsa_mutex *m) { ReleaseSRWLockExclusive(m); }
#else
#include <pthread.h>

typedef pthread_once_t mldsa_once_flag;
#define MLDSA_ONCE_INIT PTHREAD_ONCE_INIT
static inline void mldsa_once(mldsa_once_flag *f, void (*fn)(void)) { pthread_once(f, fn); }

typedef pthread_mutex_t mldsa_mutex;
#define MLDSA_MUTEX_INIT PTHREAD_MUTEX_INITIALIZER
static inline void mldsa_mutex_lock(mldsa_mutex *m) { pthread_mutex_lock(m); }
static inline void mldsa_mutex_unlock(mldsa_mutex *m) { pthread_mutex_unlock(m); }
#endif

#endif
