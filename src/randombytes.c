/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* OS randomness: getrandom(2) with no flags (blocks until the kernel's pool is seeded,
 * never GRND_NONBLOCK or GRND_INSECURE), retried on EINTR and short reads. Any other
 * failure is reported: there is no fallback (no /dev/urandom, no weaker source). */
#include <errno.h>
#include <sys/random.h>

#include "seams.h"
#include "util.h"

int mldsa_randombytes(uint8_t *buf, size_t len) {
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
