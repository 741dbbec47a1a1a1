/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* LD_PRELOAD shim: scans every heap block handed to free or realloc for key material.
 *
 *   MLDSA_FREE_SCAN_SECRETS=file1:file2:...   each file's bytes are secret; every 16-byte
 *                                             window of each is searched for
 *   MLDSA_FREE_SCAN_REPORT=path               a summary line (and one line per finding)
 *                                             is appended there at exit
 *
 * Before the real free (or realloc, which may free the old block), the whole usable size
 * of the block (malloc_usable_size) is searched for any 16-byte window of the secrets, by
 * a hash table of the windows. A block still holding one is a block the program freed
 * without wiping. The shim allocates nothing itself (static tables, open/read/write). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WINDOW 16
#define SECRET_MAX (1 << 17)
#define TABLE_BITS 18
#define TABLE_SIZE (1u << TABLE_BITS)

extern void __libc_free(void *);
extern void *__libc_realloc(void *, size_t);

static uint8_t secrets[SECRET_MAX];
static size_t secrets_len;
static uint32_t table[TABLE_SIZE]; /* offset + 1 of a window start, 0 = empty */
static int ready;
static unsigned long blocks, bytes_scanned, findings;
static char report_path[4096];

static uint32_t window_hash(const uint8_t *p) {
  uint64_t a, b;
  memcpy(&a, p, 8);
  memcpy(&b, p + 8, 8);
  uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
  return (uint32_t)(h >> (64 - TABLE_BITS));
}

static void add_file(const char *path, size_t n) {
  char name[4096];
  if (n >= sizeof name) return;
  memcpy(name, path, n);
  name[n] = 0;
  int fd = open(name, O_RDONLY);
  if (fd < 0) return;
  size_t start = secrets_len;
  ssize_t r;
  while (secrets_len < SECRET_MAX &&
         (r = read(fd, secrets + secrets_len, SECRET_MAX - secrets_len)) > 0)
    secrets_len += (size_t)r;
  close(fd);
  for (size_t i = start; i + WINDOW <= secrets_len; ++i) {
    uint32_t h = window_hash(secrets + i);
    while (table[h] != 0) h = (h + 1) & (TABLE_SIZE - 1);
    table[h] = (uint32_t)i + 1;
  }
  /* windows never span two files: pad with a byte pattern no window starts in */
  secrets_len = secrets_len + WINDOW <= SECRET_MAX ? secrets_len + WINDOW : SECRET_MAX;
}

__attribute__((constructor)) static void scan_init(void) {
  const char *list = getenv("MLDSA_FREE_SCAN_SECRETS");
  const char *report = getenv("MLDSA_FREE_SCAN_REPORT");
  if (list == NULL || report == NULL || strlen(report) >= sizeof report_path) return;
  strcpy(report_path, report);
  while (*list) {
    const char *end = strchr(list, ':');
    size_t n = end ? (size_t)(end - list) : strlen(list);
    add_file(list, n);
    list += n + (end != NULL);
  }
  ready = 1;
}

static void say(const char *line) {
  int fd = open(report_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) return;
  if (write(fd, line, strlen(line)) < 0) {
  }
  close(fd);
}

static int secret_at(const uint8_t *p) {
  uint32_t h = window_hash(p);
  for (; table[h] != 0; h = (h + 1) & (TABLE_SIZE - 1))
    if (memcmp(secrets + table[h] - 1, p, WINDOW) == 0) return 1;
  return 0;
}

static void scan(void *ptr) {
  if (!ready || ptr == NULL) return;
  size_t n = malloc_usable_size(ptr);
  const uint8_t *p = ptr;
  ++blocks;
  bytes_scanned += n;
  for (size_t i = 0; i + WINDOW <= n; ++i) {
    if (secret_at(p + i)) {
      char line[160];
      snprintf(line, sizeof line,
               "free-scan: a freed block of %zu bytes holds key material at offset %zu\n", n, i);
      say(line);
      ++findings;
      return;
    }
  }
}

__attribute__((visibility("default"))) void free(void *ptr) {
  scan(ptr);
  __libc_free(ptr);
}

__attribute__((visibility("default"))) void *realloc(void *ptr, size_t size) {
  scan(ptr);
  return __libc_realloc(ptr, size);
}

__attribute__((destructor)) static void scan_report(void) {
  if (!ready) return;
  char line[200];
  snprintf(line, sizeof line,
           "free-scan: %lu blocks (%lu bytes) scanned, %lu with key material, %zu secret bytes\n",
           blocks, bytes_scanned, findings, secrets_len);
  say(line);
}
