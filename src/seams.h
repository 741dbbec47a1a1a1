/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Test seams: hooks compiled only into the test variants of the library (MLDSA_TEST_SEAMS,
 * see mldsa_library_variant in tests/CMakeLists.txt). libmldsa.a and libmldsa.so never
 * contain them (ci/check_exports fails on a seam symbol there). Without
 * MLDSA_TEST_SEAMS every macro below is a no-op. */
#ifndef MLDSA_SEAMS_H
#define MLDSA_SEAMS_H

/* The steps of the self-tests (src/selftest.c) a test can make fail: the known-answer
 * keygen (pk damaged), deterministic sign (signature damaged), verify of the good
 * signature (signature damaged before it), verify that must fail (signature left
 * intact), pairwise test of a new key (its signature damaged), signing under the prepared
 * key and in a batch (each signature damaged). */
enum {
  MLDSA_SEAM_SELFTEST_NONE = 0,
  MLDSA_SEAM_SELFTEST_KEYGEN,
  MLDSA_SEAM_SELFTEST_SIGN,
  MLDSA_SEAM_SELFTEST_VERIFY,
  MLDSA_SEAM_SELFTEST_VERIFY_BAD,
  MLDSA_SEAM_SELFTEST_PAIRWISE,
  MLDSA_SEAM_SELFTEST_PREPARED,
  MLDSA_SEAM_SELFTEST_BATCH
};

#include <stddef.h>
#if defined(_MSC_VER)
#include <basetsd.h>
typedef SSIZE_T ssize_t; /* MinGW's and every POSIX sys/types.h have it */
#else
#include <sys/types.h>
#endif

/* The OS randomness source of mldsa_randombytes, with getrandom(2)'s contract (the count
 * delivered, or -1 with errno): getrandom itself on Linux, elsewhere an adapter in
 * randombytes.c over BCryptGenRandom (Windows) or getentropy (macOS, the BSDs). */
#if defined(__linux__)
#include <sys/random.h>
#define MLDSA_OS_GETRANDOM getrandom
#else
ssize_t mldsa_os_getrandom(void *buf, size_t len, unsigned int flags);
#define MLDSA_OS_GETRANDOM mldsa_os_getrandom
#endif

#ifdef MLDSA_TEST_SEAMS
/* The source mldsa_randombytes calls: MLDSA_OS_GETRANDOM unless a test installs another
 * (to fail, return short reads, EINTR). */
extern ssize_t (*mldsa_seam_getrandom)(void *buf, size_t len, unsigned int flags);
/* Signing: attempts made since the test last cleared it; every attempt rejected while
 * reject_all is set; while fault_z is set, one bit of z flipped after the accepted attempt
 * (a fault in the signing computation). */
extern unsigned long mldsa_seam_sign_attempts;
extern int mldsa_seam_reject_all;
extern int mldsa_seam_fault_z;
/* Called right before every kernel call of the C layer (KERNEL()) when set. */
extern void (*mldsa_seam_kernel_probe)(void);
/* The self-test step (MLDSA_SEAM_SELFTEST_*) made to fail while set. */
extern int mldsa_seam_selftest_fault;

#define MLDSA_SEAM_GETRANDOM mldsa_seam_getrandom
#define MLDSA_SEAM_COUNT_ATTEMPT() (++mldsa_seam_sign_attempts)
#define MLDSA_SEAM_REJECT(accepted) ((accepted) && !mldsa_seam_reject_all)
#define MLDSA_SEAM_FAULT_Z(z) ((z) ^= mldsa_seam_fault_z ? 1 : 0)
#define MLDSA_SEAM_PROBE() (mldsa_seam_kernel_probe ? mldsa_seam_kernel_probe() : (void)0)
#define MLDSA_SEAM_SELFTEST(step) (mldsa_seam_selftest_fault == (step))
#else
#define MLDSA_SEAM_GETRANDOM MLDSA_OS_GETRANDOM
#define MLDSA_SEAM_COUNT_ATTEMPT() ((void)0)
#define MLDSA_SEAM_REJECT(accepted) (accepted)
#define MLDSA_SEAM_FAULT_Z(z) ((void)0)
#define MLDSA_SEAM_PROBE() ((void)0)
#define MLDSA_SEAM_SELFTEST(step) 0
#endif

#endif
