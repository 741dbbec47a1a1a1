/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Passphrases for encrypted private keys (cli_crypto.h): never from the command line
 * itself (other users see it in ps), but from a descriptor, a file, or the terminal. */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if !defined(_WIN32)
#include <termios.h>
#endif

#include "cli_crypto.h"
#include "cli_os.h"

/* The first line of fd (at most CLI_PASS_MAX - 1 bytes), read a byte at a time so that
 * nothing after it is consumed (a descriptor may carry more). */
static int read_line(int fd, char pass[CLI_PASS_MAX], size_t *len, int *too_long) {
  size_t n = 0;
  *too_long = 0;
  for (;;) {
    char c;
    ssize_t r = read(fd, &c, 1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0 || c == '\n') break;
    if (n + 1 >= CLI_PASS_MAX) {
      *too_long = 1;
      break;
    }
    pass[n++] = c;
  }
  if (n > 0 && pass[n - 1] == '\r') --n;
  pass[n] = 0;
  *len = n;
  return 0;
}

#if !defined(_WIN32)
#include <signal.h>

/* The terminal's settings while its echo is off, for a signal that ends the run then
 * (^C at the prompt): the handler puts them back and dies of the signal as it would have. */
static struct termios saved_termios;
static volatile sig_atomic_t saved_fd = -1;

static void restore_echo_and_die(int sig) {
  if (saved_fd >= 0) tcsetattr(saved_fd, TCSAFLUSH, &saved_termios);
  signal(sig, SIG_DFL);
  raise(sig);
}

/* Asks at the terminal with its echo off; the echo is restored whatever happens. */
static int ask_tty(const char *what, const char *prompt, char pass[CLI_PASS_MAX], size_t *len) {
  int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return cli_error("%s tty: no terminal to ask for the passphrase (%s); use %s fd:N or "
                     "%s file:PATH",
                     what, strerror(errno), what, what);
  struct termios old, quiet;
  int have_termios = tcgetattr(fd, &old) == 0;
  struct sigaction ended, previous[3];
  static const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
  if (have_termios) {
    saved_termios = old;
    saved_fd = fd;
    memset(&ended, 0, sizeof ended);
    ended.sa_handler = restore_echo_and_die;
    sigfillset(&ended.sa_mask);
    for (int i = 0; i < 3; ++i) /* not where the signal is ignored (nohup) */
      if (sigaction(sigs[i], &ended, &previous[i]) == 0 && previous[i].sa_handler == SIG_IGN)
        sigaction(sigs[i], &previous[i], NULL);
    quiet = old;
    quiet.c_lflag &= (tcflag_t)~ECHO;
    quiet.c_lflag |= ECHONL;
    tcsetattr(fd, TCSAFLUSH, &quiet);
  }
  int too_long, rc = write(fd, prompt, strlen(prompt)) < 0 ? -1 : read_line(fd, pass, len, &too_long);
  int err = errno;
  if (have_termios) {
    tcsetattr(fd, TCSAFLUSH, &old);
    saved_fd = -1;
    for (int i = 0; i < 3; ++i) sigaction(sigs[i], &previous[i], NULL);
  }
  close(fd);
  if (rc != 0) return cli_error("%s tty: cannot read the terminal: %s", what, strerror(err));
  if (too_long) return cli_error("%s tty: longer than %d bytes", what, CLI_PASS_MAX - 1);
  return CLI_OK;
}
#else
static int ask_tty(const char *what, const char *prompt, char pass[CLI_PASS_MAX], size_t *len) {
  (void)prompt, (void)pass, (void)len;
  return cli_error("%s tty: not available on Windows; use %s fd:N or %s file:PATH", what, what,
                   what);
}
#endif

int cli_read_passphrase(const char *src, const char *what, const char *prompt, int confirm,
                        char pass[CLI_PASS_MAX], size_t *len) {
  int too_long = 0, ret = CLI_OK;
  *len = 0;
  if (strncmp(src, "fd:", 3) == 0) {
    char *end;
    errno = 0;
    long fd = strtol(src + 3, &end, 10);
    if (src[3] == 0 || *end != 0 || errno != 0 || fd < 0 || fd > 65535)
      return cli_error("%s %s: expected fd:N, N a file descriptor number", what, src);
    if (read_line((int)fd, pass, len, &too_long) != 0)
      return cli_error("%s %s: cannot read: %s", what, src, strerror(errno));
  } else if (strncmp(src, "file:", 5) == 0) {
    int fd = cli_os_open_read(src + 5);
    if (fd < 0) return cli_error("%s %s: cannot open: %s", what, src + 5, strerror(errno));
    int rc = read_line(fd, pass, len, &too_long);
    int err = errno;
    close(fd);
    if (rc != 0) return cli_error("%s %s: cannot read: %s", what, src + 5, strerror(err));
  } else if (strcmp(src, "tty") == 0) {
    ret = ask_tty(what, prompt, pass, len);
    if (ret == CLI_OK && confirm) {
      char again[CLI_PASS_MAX];
      size_t again_len = 0;
      ret = ask_tty(what, "Repeat the passphrase: ", again, &again_len);
      if (ret == CLI_OK && (again_len != *len || memcmp(again, pass, *len) != 0))
        ret = cli_error("%s tty: the two passphrases differ", what);
      mldsa_wipe(again, sizeof again);
    }
  } else {
    return cli_error("%s \"%s\": expected fd:N, file:PATH or tty", what, src);
  }
  if (ret == CLI_OK && too_long)
    ret = cli_error("%s %s: longer than %d bytes", what, src, CLI_PASS_MAX - 1);
  if (ret == CLI_OK && confirm && *len == 0)
    ret = cli_error("%s %s: an empty passphrase; a key is never encrypted under one", what, src);
  if (ret != CLI_OK) mldsa_wipe(pass, CLI_PASS_MAX);
  return ret;
}
