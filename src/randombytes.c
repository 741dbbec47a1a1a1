/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* OS randomness: getrandom(2), retried on EINTR and short reads. */
#include <errno.h>
#include <sys/random.h>

#include "util.h"

int mldsa_randombytes(uint8_t *buf, size_t len) {
  while (len > 0) {
    ssize_t n = getrandom(buf, len, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}
