/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* File input and output for the command-line tool, with read(2)/write(2) only (no stdio
 * buffer ever holds file contents), buffers wiped before they are freed, and strict hex.
 * What differs between POSIX and Windows is in cli_os.c. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_os.h"

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

int cli_quiet;
const char *cli_passin;

void cli_warn(const char *fmt, ...) {
  if (cli_quiet) return;
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  cli_error("warning: %s", line);
}

uint8_t *cli_secret_alloc(size_t cap) {
  uint8_t *p = calloc(1, cap ? cap : 1);
  if (p == NULL) cli_error("out of memory (%zu bytes)", cap);
  return p;
}

void cli_secret_free(uint8_t *p, size_t cap) {
  if (p == NULL) return;
  mldsa_wipe(p, cap);
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
static int why_error(char *why, const char *fmt, ...)
    __attribute__((format(CLI_PRINTF_FORMAT, 2, 3)));
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
  int fd = is_stdio(path) ? STDIN_FILENO : cli_os_open_read(path);
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
  int fd = is_stdio(path) ? STDIN_FILENO : cli_os_open_read(path);
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

/* ---- outputs ---- */

enum { OUT_STDOUT, OUT_TEMP, OUT_DIRECT };

typedef struct {
  const cli_output *spec;
  int kind;       /* OUT_STDOUT, OUT_TEMP (a temporary file renamed into place), OUT_DIRECT */
  int replace;    /* OUT_TEMP: an existing regular file is replaced */
  int fd;         /* OUT_TEMP: the temporary file until it is complete; else -1 */
  char *path;     /* the file written: spec->path, or the target of a symbolic link (heap) */
  char *tmp;      /* OUT_TEMP: its path (heap), NULL once it is gone or renamed */
  cli_os_file st; /* OUT_TEMP: the temporary file's identity */
  int committed;
  size_t slot; /* its index in live_temps */
} output_state;

/* The temporary files that exist now, for the handler of a terminating signal (SIGINT,
 * SIGTERM, SIGHUP: say while a write to a pipe or FIFO blocks), which unlinks them and
 * then dies of the signal as it would have. Set when a file is created, cleared after it
 * is unlinked or renamed: the handler may unlink a name that is already gone, never
 * leave one behind. */
#define MAX_OUTPUTS 4
static char *volatile live_temps[MAX_OUTPUTS];

static void remove_temps_and_die(int sig) {
  for (size_t i = 0; i < MAX_OUTPUTS; ++i)
    if (live_temps[i]) cli_os_remove(live_temps[i]);
  signal(sig, SIG_DFL);
  raise(sig);
}

static void drop_temp(output_state *s) {
  if (s->fd >= 0) close(s->fd);
  s->fd = -1;
  if (s->tmp) {
    cli_os_remove(s->tmp);
    live_temps[s->slot] = NULL;
    free(s->tmp);
    s->tmp = NULL;
  }
}

/* What an existing regular file at path holds decides whether an output may replace it:
 * CLI_OK, or CLI_ERROR (message printed) when it holds a private key and the output is
 * not one, or when it cannot be read to tell. */
static int check_replaceable(const cli_output *o, const char *path, int *holds_key) {
  cli_buf old;
  char why[CLI_WHY_BYTES];
  *holds_key = 0;
  enum { KEY_FILE_MAX = 65536 }; /* larger files are no key this tool or OpenSSL writes */
  if (cli_read_all_quiet(path, KEY_FILE_MAX, &old, why) == CLI_OK) {
    *holds_key = cli_holds_private_key(old.p, old.len);
    cli_buf_free(&old);
  } else if (strncmp(why, "larger than", 11) != 0) {
    return cli_error("%s %s: exists and cannot be read to check that it holds no private key "
                     "(%s); nothing written",
                     o->what, o->path, why);
  }
  if (*holds_key && !o->secret)
    return cli_error("%s %s: file exists and holds a private key; only a private key replaces "
                     "one (with --force); nothing written",
                     o->what, o->path);
  if (!o->force)
    return cli_error("%s %s: file exists; %s (use --force to replace it)", o->what, o->path,
                     o->secret ? "a secret key is never overwritten" : "not replaced");
  return CLI_OK;
}

/* Checks an output and, for a file, creates its temporary file. A symbolic link is
 * resolved: the file it names is the one checked and replaced, by a temporary file in the
 * target's directory renamed onto the target (the link stays). CLI_OK or CLI_ERROR. */
static int prepare_output(output_state *s) {
  const cli_output *o = s->spec;
  s->fd = -1;
  if (is_stdio(o->path)) {
    s->kind = OUT_STDOUT;
    if (!o->secret) return CLI_OK;
    cli_os_file st;
    if (cli_os_is_terminal(STDOUT_FILENO))
      return cli_error(
          "%s: standard output is a terminal; a private key is never written to a "
          "terminal (use %s FILE)",
          o->what, o->what);
    /* (mode 0 on Windows, which has no permission bits: no warning there) */
    if (cli_os_fstat(STDOUT_FILENO, &st) == 0 && st.kind == CLI_OS_REGULAR && (st.mode & 044))
      cli_warn(
          "%s: standard output is a regular file of mode %04o, which lets %s read "
          "the private key written there (use %s FILE, created 0600)",
          o->what, st.mode,
          (st.mode & 040) && (st.mode & 04) ? "group and others"
          : (st.mode & 040)                 ? "its group"
                                            : "others",
          o->what);
    return CLI_OK;
  }
  if (o->path[0] == 0) return cli_error("%s: an empty file name", o->what);
  cli_os_file st;
  int mode = -1; /* the new file's: the default, or what the replaced file had */
  if (cli_os_stat(o->path, 0, &st) == 0 && st.kind == CLI_OS_LINK) {
    s->path = cli_os_resolve_links(o->path);
    if (s->path == NULL)
      return cli_error("%s %s: a symbolic link that is not followed (%s); name the file it "
                       "points to",
                       o->what, o->path, strerror(errno));
  } else {
    size_t n = strlen(o->path) + 1;
    s->path = malloc(n); /* a file name: not secret */
    if (s->path == NULL) return cli_error("out of memory");
    memcpy(s->path, o->path, n);
  }
  if (cli_os_stat(s->path, 0, &st) == 0) {
    if (st.kind == CLI_OS_DIRECTORY)
      return cli_error("%s %s: is a directory", o->what, o->path);
    if (st.kind == CLI_OS_REGULAR) {
      int holds_key;
      if (check_replaceable(o, s->path, &holds_key) != CLI_OK) return CLI_ERROR;
      /* the replaced file's mode, never widened: a secret keeps at most 0600 */
      mode = (int)(st.mode & (o->secret || holds_key ? 0600u : 0666u));
      s->replace = 1;
    } else if (o->secret) {
      return cli_error("%s %s: not a regular file; --force replaces regular files only",
                       o->what, o->path);
    } else {
      s->kind = OUT_DIRECT; /* a device or FIFO: written through, as it is */
      return CLI_OK;
    }
  } else if (errno != ENOENT) {
    return cli_error("%s %s: cannot create: %s", o->what, o->path, strerror(errno));
  }
  s->kind = OUT_TEMP;
  s->fd = cli_os_make_temp(s->path, o->secret, mode, &s->tmp);
  if (s->fd < 0) return cli_error("%s %s: cannot create: %s", o->what, o->path, strerror(errno));
  live_temps[s->slot] = s->tmp;
  if (cli_os_fstat(s->fd, &s->st) != 0) {
    int err = errno;
    drop_temp(s);
    return cli_error("%s %s: cannot create: %s", o->what, o->path, strerror(err));
  }
  return CLI_OK;
}

static int write_output(output_state *s) {
  const cli_output *o = s->spec;
  if (s->kind == OUT_STDOUT) {
    if (write_full(STDOUT_FILENO, o->p, o->n) != 0)
      return cli_error("%s: cannot write to standard output: %s", o->what, strerror(errno));
    return CLI_OK;
  }
  if (s->kind == OUT_DIRECT) {
    int fd = cli_os_open_write(s->path);
    if (fd < 0) return cli_error("%s %s: cannot open: %s", o->what, o->path, strerror(errno));
    int ok = write_full(fd, o->p, o->n) == 0;
    int err = errno;
    if (close(fd) != 0 && ok) {
      ok = 0;
      err = errno;
    }
    return ok ? CLI_OK : cli_error("%s %s: cannot write: %s", o->what, o->path, strerror(err));
  }
  int ok = write_full(s->fd, o->p, o->n) == 0 && cli_os_sync(s->fd) == 0;
  int err = errno;
  if (close(s->fd) != 0 && ok) {
    ok = 0;
    err = errno;
  }
  s->fd = -1;
  return ok ? CLI_OK : cli_error("%s %s: cannot write: %s", o->what, o->path, strerror(err));
}

/* Renames the temporary file into place; a new secret file never replaces one that
 * appeared meanwhile (cli_os_rename without replace). */
static int commit_output(output_state *s) {
  const cli_output *o = s->spec;
  int rc = cli_os_rename(s->tmp, s->path, s->replace);
  if (rc != 0) {
    if (errno == EEXIST)
      return cli_error("%s %s: file exists (it appeared while the output was written); not "
                       "replaced (use --force)",
                       o->what, o->path);
    return cli_error("%s %s: cannot rename %s into place: %s", o->what, o->path, s->tmp,
                     strerror(errno));
  }
  live_temps[s->slot] = NULL;
  free(s->tmp);
  s->tmp = NULL;
  s->committed = 1;
  return CLI_OK;
}

/* Undoes what an output left: its temporary file, or the file it created when a later
 * output failed (only while the name still holds the file this run made). */
static void undo_output(output_state *s) {
  drop_temp(s);
  cli_os_file st;
  if (s->committed && !s->replace && cli_os_stat(s->path, 0, &st) == 0 &&
      st.dev == s->st.dev && st.id == s->st.id)
    cli_os_remove(s->path);
}

int cli_write_outputs(const cli_output *outs, size_t count) {
  output_state st[MAX_OUTPUTS];
  if (count > MAX_OUTPUTS) return cli_error("too many outputs");
  memset(st, 0, sizeof st);
  cli_os_catch_terminating_signals(remove_temps_and_die);
  int ret = CLI_OK;
  size_t prepared = 0;
  for (; ret == CLI_OK && prepared < count; ++prepared) {
    st[prepared].spec = &outs[prepared];
    st[prepared].slot = prepared;
    ret = prepare_output(&st[prepared]);
  }
  /* files first, then what streams out (standard output, devices): a stream cannot be
   * taken back, so it is written only when every file is complete */
  for (size_t i = 0; ret == CLI_OK && i < count; ++i)
    if (st[i].kind == OUT_TEMP) ret = write_output(&st[i]);
  for (size_t i = 0; ret == CLI_OK && i < count; ++i)
    if (st[i].kind != OUT_TEMP) ret = write_output(&st[i]);
  for (size_t i = 0; ret == CLI_OK && i < count; ++i)
    if (st[i].kind == OUT_TEMP) ret = commit_output(&st[i]);
  for (size_t i = 0; i < prepared; ++i) {
    if (ret != CLI_OK)
      undo_output(&st[i]);
    else
      free(st[i].tmp);
    free(st[i].path);
  }
  return ret;
}

int cli_write_file(const char *path, const char *what, const uint8_t *p, size_t n, int secret,
                   int force) {
  const cli_output o = {
      .path = path, .what = what, .p = p, .n = n, .secret = secret, .force = force};
  return cli_write_outputs(&o, 1);
}

/* ---- the same file twice ---- */

typedef struct {
  int exists, regular, parent_known;
  cli_os_file st, parent;
  const char *base;
} file_id;

static void identify(const char *path, int output, file_id *id) {
  memset(id, 0, sizeof *id);
  if (is_stdio(path)) {
    id->exists = cli_os_fstat(output ? STDOUT_FILENO : STDIN_FILENO, &id->st) == 0;
  } else {
    id->exists = cli_os_stat(path, 1, &id->st) == 0;
  }
  id->regular = id->exists && id->st.kind == CLI_OS_REGULAR;
  if (id->exists || is_stdio(path)) return;
  /* not yet there: the directory it would be made in (named with its separator: "/",
   * "dir/", and on Windows "C:" or "C:\" stay what they mean), and its name there */
  size_t n = cli_os_dir_len(path);
  id->base = path + n;
  if (n == 0) {
    id->parent_known = cli_os_stat(".", 1, &id->parent) == 0;
  } else {
    char *dir = malloc(n + 1);
    if (dir == NULL) return;
    memcpy(dir, path, n);
    dir[n] = 0;
    id->parent_known = cli_os_stat(dir, 1, &id->parent) == 0;
    free(dir);
  }
}

static int same_file(const cli_file *a, const file_id *ia, const cli_file *b, const file_id *ib) {
  if (ia->regular && ib->regular)
    return ia->st.dev == ib->st.dev && ia->st.id == ib->st.id;
  if (ia->exists || ib->exists || is_stdio(a->path) || is_stdio(b->path)) return 0;
  if (strcmp(a->path, b->path) == 0) return 1;
  return ia->parent_known && ib->parent_known && ia->parent.dev == ib->parent.dev &&
         ia->parent.id == ib->parent.id && cli_os_same_name(ia->base, ib->base);
}

static const char *shown_as(const char *path, int output) {
  return is_stdio(path) ? (output ? "(standard output)" : "(standard input)") : path;
}

int cli_distinct_files(const cli_file *inputs, size_t n_in, const cli_file *outputs, size_t n_out) {
  file_id in_id[4], out_id[4];
  if (n_in > 4 || n_out > 4) return cli_error("too many files");
  for (size_t i = 0; i < n_in; ++i)
    if (inputs[i].path) identify(inputs[i].path, 0, &in_id[i]);
  for (size_t i = 0; i < n_out; ++i)
    if (outputs[i].path) identify(outputs[i].path, 1, &out_id[i]);
  for (size_t i = 0; i < n_out; ++i) {
    const cli_file *o = &outputs[i];
    if (o->path == NULL) continue;
    for (size_t j = 0; j < n_in; ++j)
      if (inputs[j].path && same_file(o, &out_id[i], &inputs[j], &in_id[j]))
        return cli_error("%s %s and %s %s are the same file; an output never overwrites an input",
                         o->what, shown_as(o->path, 1), inputs[j].what,
                         shown_as(inputs[j].path, 0));
    for (size_t j = 0; j < i; ++j)
      if (outputs[j].path && (same_file(o, &out_id[i], &outputs[j], &out_id[j]) ||
                              (is_stdio(o->path) && is_stdio(outputs[j].path))))
        return cli_error("%s %s and %s %s are the same file; give each output its own",
                         outputs[j].what, shown_as(outputs[j].path, 1), o->what,
                         shown_as(o->path, 1));
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
