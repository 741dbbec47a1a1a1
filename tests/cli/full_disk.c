/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* LD_PRELOAD shim: a full disk under one directory.
 *
 *   MLDSA_FULL_DISK_DIR=/abs/dir   every file under it (by the path the descriptor is
 *                                  open on) takes its first 4096 bytes, then each
 *                                  write(2) fails with ENOSPC, as a file system that just
 *                                  ran out of blocks does
 *
 * Standard input, output and error are never affected. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ROOM 4096
#define MAX_FD 1024

static size_t written[MAX_FD];

static int under_full_dir(int fd) {
  const char *dir = getenv("MLDSA_FULL_DISK_DIR");
  char link[64], path[4096];
  if (dir == NULL || fd <= 2 || fd >= MAX_FD) return 0;
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0) return 0;
  path[n] = 0;
  size_t d = strlen(dir);
  return strncmp(path, dir, d) == 0 && path[d] == '/';
}

ssize_t write(int fd, const void *p, size_t n) {
  if (under_full_dir(fd)) {
    if (written[fd] >= ROOM) {
      errno = ENOSPC;
      return -1;
    }
    if (n > ROOM - written[fd]) n = ROOM - written[fd];
  }
  long w = syscall(SYS_write, fd, p, n);
  if (w > 0 && fd >= 0 && fd < MAX_FD) written[fd] += (size_t)w;
  return (ssize_t)w;
}

int close(int fd) {
  if (fd >= 0 && fd < MAX_FD) written[fd] = 0; /* the number may name another file next */
  return (int)syscall(SYS_close, fd);
}
