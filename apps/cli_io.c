/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* File input and output for the command-line tool, with read(2)/write(2) only (no stdio
 * buffer ever holds file contents), buffers wiped before they are freed, and strict hex. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int cli_error(const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line - 1, fmt, ap);
  va_end(ap);
  if (n < 0) n = 0;
  if ((size_t)n > sizeof line - 2) n = (int)sizeof line - 2;
  line[n++] = '\n';
  /* one write: no stdio buffer, and lines from concurrent runs do not interleave */
  if (write(STDERR_FILENO, "mldsa: ", 7) < 0 || write(STDERR_FILENO, line, (size_t)n) < 0) {
  }
  return CLI_ERROR;
}

uint8_t *cli_secret_alloc(size_t cap) {
  uint8_t *p = calloc(1, cap ? cap : 1);
  if (p == NULL) cli_error("out of memory (%zu bytes)", cap);
  return p;
}

void cli_secret_free(uint8_t *p, size_t cap) {
  if (p == NULL) return;
  mldsa_zeroize(p, cap);
  free(p);
}

void cli_buf_free(cli_buf *b) {
  cli_secret_free(b->p, b->cap);
  b->p = NULL;
  b->len = b->cap = 0;
}

static int is_stdio(const char *path) { return strcmp(path, "-") == 0; }
static const char *shown(const char *path) { return is_stdio(path) ? "(standard input)" : path; }

static void close_input(int fd) {
  if (fd != STDIN_FILENO) close(fd);
}

/* read(2) until n bytes or the end; the count, or -1 on an error. */
static ssize_t read_full(int fd, uint8_t *p, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(fd, p + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    got += (size_t)r;
  }
  return (ssize_t)got;
}

/* Writes the reason of a failure into why (CLI_WHY_BYTES); returns CLI_ERROR. */
static int why_error(char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int why_error(char *why, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, CLI_WHY_BYTES, fmt, ap);
  va_end(ap);
  return CLI_ERROR;
}

int cli_read_all_quiet(const char *path, size_t max, cli_buf *out, char why[CLI_WHY_BYTES]) {
  out->p = NULL;
  out->len = out->cap = 0;
  why[0] = 0;
  int fd = is_stdio(path) ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return why_error(why, "cannot open: %s", strerror(errno));
  uint8_t *buf = calloc(1, max + 1); /* cli_secret_alloc without its message */
  if (buf == NULL) {
    close_input(fd);
    return why_error(why, "out of memory (%zu bytes)", max + 1);
  }
  ssize_t n = read_full(fd, buf, max + 1);
  int err = errno;
  close_input(fd);
  if (n < 0) {
    cli_secret_free(buf, max + 1);
    return why_error(why, "cannot read: %s", strerror(err));
  }
  if ((size_t)n > max) {
    cli_secret_free(buf, max + 1);
    return why_error(why, "larger than %zu bytes, too large for what it should hold", max);
  }
  out->p = buf;
  out->len = (size_t)n;
  out->cap = max + 1;
  return CLI_OK;
}

int cli_read_all(const char *path, size_t max, const char *what, cli_buf *out) {
  char why[CLI_WHY_BYTES];
  if (cli_read_all_quiet(path, max, out, why) == CLI_OK) return CLI_OK;
  return cli_error("%s %s: %s", what, shown(path), why);
}

int cli_read_chunks_quiet(const char *path, int (*consume)(void *ctx, const uint8_t *p, size_t n),
                          void *ctx, char why[CLI_WHY_BYTES]) {
  enum { CHUNK = 1 << 16 };
  why[0] = 0;
  int fd = is_stdio(path) ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return why_error(why, "cannot open: %s", strerror(errno));
  uint8_t *chunk = malloc(CHUNK); /* message bytes: not secret */
  int ret = chunk ? CLI_OK : why_error(why, "out of memory (%d bytes)", CHUNK);
  while (ret == CLI_OK) {
    ssize_t n = read_full(fd, chunk, CHUNK);
    if (n < 0) {
      ret = why_error(why, "cannot read: %s", strerror(errno));
      break;
    }
    if (n > 0) ret = consume(ctx, chunk, (size_t)n);
    if (n < CHUNK) break;
  }
  free(chunk);
  close_input(fd);
  return ret;
}

int cli_read_chunks(const char *path, const char *what,
                    int (*consume)(void *ctx, const uint8_t *p, size_t n), void *ctx) {
  char why[CLI_WHY_BYTES];
  int ret = cli_read_chunks_quiet(path, consume, ctx, why);
  if (ret != CLI_OK && why[0]) return cli_error("%s %s: %s", what, shown(path), why);
  return ret;
}

static int write_full(int fd, const uint8_t *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

int cli_write_file(const char *path, const char *what, const uint8_t *p, size_t n, int secret,
                   int force) {
  if (is_stdio(path)) {
    if (write_full(STDOUT_FILENO, p, n) != 0)
      return cli_error("%s: cannot write to standard output: %s", what, strerror(errno));
    return CLI_OK;
  }
  int fd;
  if (secret) {
    /* O_EXCL: a new file, created 0600, never through an existing file or symlink */
    if (force && unlink(path) != 0 && errno != ENOENT)
      return cli_error("%s %s: cannot replace: %s", what, path, strerror(errno));
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0 && errno == EEXIST)
      return cli_error("%s %s: file exists; a secret key is never overwritten (use --force)", what,
                       path);
  } else {
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  }
  if (fd < 0) return cli_error("%s %s: cannot create: %s", what, path, strerror(errno));
  int ok = write_full(fd, p, n) == 0;
  int err = errno;
  ok &= fsync(fd) == 0 || !secret;
  ok &= close(fd) == 0;
  if (!ok) {
    if (secret) unlink(path);
    return cli_error("%s %s: cannot write: %s", what, path, strerror(err));
  }
  return CLI_OK;
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

long cli_parse_hex(const char *hex, size_t hex_len, uint8_t *out, size_t cap, const char *what) {
  for (size_t i = 0; i < hex_len; ++i) {
    if (hex_value(hex[i]) < 0) {
      unsigned char c = (unsigned char)hex[i];
      if (c >= 0x21 && c < 0x7F)
        cli_error("%s: '%c' at position %zu is not a hex digit", what, c, i + 1);
      else
        cli_error("%s: byte 0x%02x at position %zu is not a hex digit", what, c, i + 1);
      return -1;
    }
  }
  if (hex_len % 2 != 0) {
    cli_error("%s: %zu hex digits, expected an even number", what, hex_len);
    return -1;
  }
  if (hex_len / 2 > cap) {
    cli_error("%s: %zu bytes of hex, at most %zu allowed", what, hex_len / 2, cap);
    return -1;
  }
  for (size_t i = 0; i < hex_len / 2; ++i)
    out[i] = (uint8_t)(hex_value(hex[2 * i]) << 4 | hex_value(hex[2 * i + 1]));
  return (long)(hex_len / 2);
}
