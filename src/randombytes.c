/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* OS randomness. One loop for every OS, over a source with the contract of Linux's
 * getrandom(2): it returns how many bytes it delivered (possibly fewer than asked), or -1
 * with errno set. EINTR and short reads are retried; any other failure is reported (the
 * caller's MLDSA_ERR_RANDOM): there is no fallback (no /dev/urandom, no weaker source).
 *
 *   Linux             getrandom(2) with no flags: blocks until the kernel's pool is seeded,
 *                     never GRND_NONBLOCK or GRND_INSECURE.
 *   Windows           BCryptGenRandom(NULL, ..., BCRYPT_USE_SYSTEM_PREFERRED_RNG) (bcrypt.dll,
 *                     Vista and later), at most ULONG_MAX bytes a call (ULONG is 32 bits).
 *   macOS, BSDs       getentropy(2), at most 256 bytes a call (its limit).
 *
 * The test variants of the library replace the source through the seam of seams.h
 * (MLDSA_SEAM_GETRANDOM); MLDSA_OS_GETRANDOM names the real one.
 *
 * mldsa_set_random replaces the OS source for the whole process with the caller's (a FIPS
 * module's DRBG). The pair (fill, ctx) sits behind a mutex, so that a draw never sees the
 * fill of one call with the ctx of another; the fill itself runs outside the lock (a slow
 * DRBG holds no other thread up, and a fill that calls into the library cannot
 * deadlock). */
#include <errno.h>

#include "api_list.h"
#include "once.h"
#include "seams.h"
#include "selftest.h"
#include "util.h"

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
/* windows.h first: bcrypt.h needs its types */
#include <bcrypt.h>
#include <limits.h>

#ifndef BCRYPT_SUCCESS
#define BCRYPT_SUCCESS(status) (((NTSTATUS)(status)) >= 0)
#endif

ssize_t mldsa_os_getrandom(void *buf, size_t len, unsigned int flags) {
  (void)flags;
  ULONG n = len > ULONG_MAX ? ULONG_MAX : (ULONG)len;
  if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, buf, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG))) {
    errno = EIO;
    return -1;
  }
  return (ssize_t)n;
}
#elif !defined(__linux__)
#include <unistd.h> /* getentropy: the BSDs */
#if defined(__APPLE__)
#include <sys/random.h> /* getentropy: macOS 10.12 and later */
#endif

ssize_t mldsa_os_getrandom(void *buf, size_t len, unsigned int flags) {
  (void)flags;
  size_t n = len > 256 ? 256 : len;
  if (getentropy(buf, n) != 0) return -1;
  return (ssize_t)n;
}
#endif

static mldsa_mutex source_lock = MLDSA_MUTEX_INIT;
static mldsa_random_source source_fill; /* NULL: the OS */
static void *source_ctx;

int mldsa_set_random_impl(mldsa_random_source fill, void *ctx) {
  if (MLDSA_SELFTEST_REFUSED()) return MLDSA_ERR_SELFTEST;
  mldsa_mutex_lock(&source_lock);
  source_fill = fill;
  source_ctx = fill != NULL ? ctx : NULL;
  mldsa_mutex_unlock(&source_lock);
  return MLDSA_OK;
}

static int os_randombytes(uint8_t *buf, size_t len) {
  while (len > 0) {
    ssize_t n = MLDSA_SEAM_GETRANDOM(buf, len, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (n == 0 || (size_t)n > len) return -1; /* not what getrandom(2) does: give up */
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}

/* On failure buf is wiped: a source that failed half-way leaves none of its bytes. */
int mldsa_randombytes(uint8_t *buf, size_t len) {
  mldsa_mutex_lock(&source_lock);
  mldsa_random_source fill = source_fill;
  void *ctx = source_ctx;
  mldsa_mutex_unlock(&source_lock);
  int ret = fill != NULL ? (fill(ctx, buf, len) != 0 ? -1 : 0) : os_randombytes(buf, len);
  if (ret != 0) mldsa_zeroize(buf, len);
  return ret;
}
