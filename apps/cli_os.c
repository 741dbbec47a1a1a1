/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The command-line tool's operating-system layer (cli_os.h): POSIX below, Windows after. */
#if !defined(_WIN32)
#define _GNU_SOURCE /* mkostemp, renameat2 */
#endif
#include "cli_os.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if !defined(_WIN32)
/* ---------------------------------------------------------------- POSIX */

void cli_os_init(void) {
  for (int fd = 0; fd <= 2; ++fd) {
    if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
    int n = open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
    if (n >= 0 && n != fd) {
      dup2(n, fd);
      close(n);
    }
  }
  signal(SIGPIPE, SIG_IGN);
}

void cli_os_catch_terminating_signals(void (*handler)(int)) {
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i) {
    struct sigaction old, sa;
    if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue; /* nohup */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigfillset(&sa.sa_mask);
    sigaction(sigs[i], &sa, NULL);
  }
}

int cli_os_open_read(const char *path) { return open(path, O_RDONLY | O_CLOEXEC); }

int cli_os_open_write(const char *path) {
  return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

int cli_os_make_temp(const char *path, int secret, int mode, char **tmp) {
  size_t dir_len = cli_os_dir_len(path);
  const char *base = path + dir_len;
  if (strlen(base) > 200) base = "mldsa"; /* keep within NAME_MAX */
  size_t n = dir_len + 1 + strlen(base) + 8;
  *tmp = malloc(n); /* a file name: not secret */
  if (*tmp == NULL) {
    errno = ENOMEM;
    return -1;
  }
  snprintf(*tmp, n, "%.*s.%s.XXXXXX", (int)dir_len, path, base);
  int fd = mkostemp(*tmp, O_CLOEXEC); /* 0600 */
  if (fd >= 0 && mode < 0) {           /* what open(2) would have made */
    mode_t mask = umask(0);
    umask(mask);
    mode = (int)((secret ? 0600 : 0644) & ~mask);
  }
  if (fd >= 0 && mode != 0600) {
    if (fchmod(fd, (mode_t)mode) != 0) {
      int err = errno;
      close(fd);
      unlink(*tmp);
      errno = err;
      fd = -1;
    }
  }
  if (fd < 0) {
    int err = errno;
    free(*tmp);
    *tmp = NULL;
    errno = err;
  }
  return fd;
}

char *cli_os_resolve_links(const char *path) {
  char *cur = strdup(path), target[4096];
  for (int hops = 0; cur != NULL; ++hops) {
    struct stat st;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) return cur; /* the end of the chain */
    ssize_t n = hops < 40 ? readlink(cur, target, sizeof target) : -1;
    if (hops >= 40 || n <= 0 || (size_t)n >= sizeof target) {
      int err = hops >= 40 ? ELOOP : n < 0 ? errno : ENAMETOOLONG;
      free(cur);
      errno = err;
      return NULL;
    }
    size_t dir_len = target[0] == '/' ? 0 : cli_os_dir_len(cur);
    char *next = malloc(dir_len + (size_t)n + 1); /* a file name: not secret */
    if (next != NULL) {
      memcpy(next, cur, dir_len);
      memcpy(next + dir_len, target, (size_t)n);
      next[dir_len + (size_t)n] = 0;
    }
    free(cur);
    cur = next;
  }
  errno = ENOMEM;
  return NULL;
}

int cli_os_sync(int fd) { return fsync(fd); }

int cli_os_rename(const char *from, const char *to, int replace) {
  if (replace) return rename(from, to);
  int rc = -1;
  errno = EINVAL;
#ifdef RENAME_NOREPLACE
  rc = renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
#endif
  if (rc != 0 && (errno == EINVAL || errno == ENOSYS)) { /* a file system without it */
    rc = link(from, to);
    if (rc == 0) unlink(from);
  }
  return rc;
}

void cli_os_remove(const char *path) { unlink(path); }

static void from_stat(const struct stat *st, cli_os_file *f) {
  f->kind = S_ISREG(st->st_mode)   ? CLI_OS_REGULAR
            : S_ISDIR(st->st_mode) ? CLI_OS_DIRECTORY
            : S_ISLNK(st->st_mode) ? CLI_OS_LINK
                                   : CLI_OS_OTHER;
  f->dev = (uint64_t)st->st_dev;
  f->id = (uint64_t)st->st_ino;
  f->mode = (unsigned)(st->st_mode & 07777);
}

int cli_os_stat(const char *path, int follow, cli_os_file *f) {
  struct stat st;
  if ((follow ? stat(path, &st) : lstat(path, &st)) != 0) return -1;
  from_stat(&st, f);
  return 0;
}

int cli_os_fstat(int fd, cli_os_file *f) {
  struct stat st;
  if (fstat(fd, &st) != 0) return -1;
  from_stat(&st, f);
  return 0;
}

size_t cli_os_dir_len(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? (size_t)(slash - path) + 1 : 0;
}

int cli_os_same_name(const char *a, const char *b) { return strcmp(a, b) == 0; }

int cli_os_is_terminal(int fd) { return isatty(fd); }

void *cli_os_aligned_alloc(size_t n) { return aligned_alloc(64, (n + 63) / 64 * 64); }
void cli_os_aligned_free(void *p) { free(p); }

#else
/* ---------------------------------------------------------------- Windows */
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <io.h>
#include <malloc.h>
#include <windows.h>

#include "mldsa.h"

/* The errno of the last Win32 error, for the messages (strerror). */
static int errno_of(DWORD e) {
  switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_NET_NAME:
      return ENOENT;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS:
      return EEXIST;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
      return EACCES;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
      return ENOMEM;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
      return ENOSPC;
    case ERROR_NOT_SAME_DEVICE:
      return EXDEV;
    case ERROR_INVALID_NAME:
    case ERROR_FILENAME_EXCED_RANGE:
      return EINVAL;
    default:
      return EIO;
  }
}

static int fail_win32(void) {
  errno = errno_of(GetLastError());
  return -1;
}

/* path in UTF-16 (heap, free()), from the ANSI code page the C runtime's argv and file
 * functions use; NULL with errno on failure. */
static wchar_t *widen(const char *path) {
  UINT cp = AreFileApisANSI() ? CP_ACP : CP_OEMCP;
  int n = MultiByteToWideChar(cp, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
  if (n <= 0) {
    errno = EINVAL;
    return NULL;
  }
  wchar_t *w = malloc((size_t)n * sizeof *w);
  if (w == NULL) {
    errno = ENOMEM;
    return NULL;
  }
  if (MultiByteToWideChar(cp, MB_ERR_INVALID_CHARS, path, -1, w, n) != n) {
    free(w);
    errno = EINVAL;
    return NULL;
  }
  return w;
}

void cli_os_init(void) {
  for (int fd = 0; fd <= 2; ++fd) {
    if (_get_osfhandle(fd) >= 0) continue; /* -1: closed; -2: no stream (no console) */
    int n = _open("NUL", fd == 0 ? _O_WRONLY : _O_RDONLY);
    if (n >= 0 && n != fd) {
      _dup2(n, fd);
      _close(n);
    }
  }
  /* no CR/LF translation and no ^Z end of file: keys, signatures and messages are bytes */
  _setmode(_fileno(stdin), _O_BINARY);
  _setmode(_fileno(stdout), _O_BINARY);
}

void cli_os_catch_terminating_signals(void (*handler)(int)) {
  static const int sigs[] = {SIGINT, SIGTERM}; /* no SIGHUP on Windows */
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i)
    if (signal(sigs[i], handler) == SIG_IGN) signal(sigs[i], SIG_IGN);
}

static int open_wide(const char *path, int flags) {
  wchar_t *w = widen(path);
  if (w == NULL) return -1;
  int fd = _wopen(w, flags | _O_BINARY | _O_NOINHERIT, _S_IREAD | _S_IWRITE);
  free(w);
  return fd;
}

int cli_os_open_read(const char *path) { return open_wide(path, _O_RDONLY); }

int cli_os_open_write(const char *path) {
  return open_wide(path, _O_WRONLY | _O_CREAT | _O_TRUNC);
}

/* The security attributes of a new private key file: an absolute security descriptor
 * whose DACL is protected (SE_DACL_PROTECTED: nothing inherited from the directory) and
 * holds one ACE, FILE_ALL_ACCESS for the user SID of the process token. The owner is set
 * by the system as for any new file. The caller frees *acl. */
static int owner_only(SECURITY_ATTRIBUTES *sa, SECURITY_DESCRIPTOR *sd, ACL **acl);

int cli_os_private_key_descriptor(void *sd, void **acl) {
  SECURITY_ATTRIBUTES sa;
  ACL *a = NULL;
  int rc = owner_only(&sa, sd, &a);
  *acl = a;
  return rc;
}

static int owner_only(SECURITY_ATTRIBUTES *sa, SECURITY_DESCRIPTOR *sd, ACL **acl) {
  HANDLE token;
  DWORD len = 0;
  *acl = NULL;
  if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) return fail_win32();
  GetTokenInformation(token, TokenUser, NULL, 0, &len);
  TOKEN_USER *user = len ? malloc(len) : NULL;
  int ok = user != NULL && GetTokenInformation(token, TokenUser, user, len, &len);
  CloseHandle(token);
  if (ok) {
    DWORD acl_len = (DWORD)(sizeof(ACL) + sizeof(ACCESS_ALLOWED_ACE) + GetLengthSid(user->User.Sid));
    *acl = malloc(acl_len);
    ok = *acl != NULL && InitializeAcl(*acl, acl_len, ACL_REVISION) &&
         AddAccessAllowedAce(*acl, ACL_REVISION, FILE_ALL_ACCESS, user->User.Sid) &&
         InitializeSecurityDescriptor(sd, SECURITY_DESCRIPTOR_REVISION) &&
         SetSecurityDescriptorDacl(sd, TRUE, *acl, FALSE) &&
         SetSecurityDescriptorControl(sd, SE_DACL_PROTECTED, SE_DACL_PROTECTED);
  }
  int err = ok ? 0 : errno_of(GetLastError());
  free(user);
  if (!ok) {
    free(*acl);
    *acl = NULL;
    errno = err ? err : ENOMEM;
    return -1;
  }
  sa->nLength = sizeof *sa;
  sa->lpSecurityDescriptor = sd;
  sa->bInheritHandle = FALSE;
  return 0;
}

int cli_os_make_temp(const char *path, int secret, int mode, char **tmp) {
  (void)mode; /* no permission bits: a secret file's DACL is set below */
  size_t dir_len = cli_os_dir_len(path);
  const char *base = path + dir_len;
  if (strlen(base) > 200) base = "mldsa"; /* keep within MAX_PATH components */
  size_t n = dir_len + 1 + strlen(base) + 1 + 16 + 1;
  SECURITY_ATTRIBUTES sa;
  SECURITY_DESCRIPTOR sd;
  ACL *acl = NULL;
  *tmp = malloc(n); /* a file name: not secret */
  if (*tmp == NULL) {
    errno = ENOMEM;
    return -1;
  }
  if (secret && owner_only(&sa, &sd, &acl) != 0) {
    free(*tmp);
    *tmp = NULL;
    return -1;
  }
  int fd = -1, err = EEXIST;
  for (int attempt = 0; attempt < 16 && err == EEXIST; ++attempt) {
    uint8_t r[32]; /* a random name: unguessable, so CREATE_NEW rarely meets another */
    if (mldsa_generate_seed(r) != MLDSA_OK) {
      err = EIO;
      break;
    }
    snprintf(*tmp, n, "%.*s.%s.%02x%02x%02x%02x%02x%02x%02x%02x", (int)dir_len, path, base, r[0],
             r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
    mldsa_wipe(r, sizeof r);
    wchar_t *w = widen(*tmp);
    if (w == NULL) {
      err = errno;
      break;
    }
    /* FILE_SHARE_DELETE: the signal handler can remove it while it is open */
    HANDLE h = CreateFileW(w, GENERIC_WRITE, FILE_SHARE_DELETE, secret ? &sa : NULL, CREATE_NEW,
                           FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
      err = errno_of(GetLastError());
      free(w);
      continue;
    }
    fd = _open_osfhandle((intptr_t)h, _O_WRONLY | _O_BINARY);
    if (fd < 0) {
      err = errno ? errno : EMFILE;
      CloseHandle(h);
      DeleteFileW(w);
    }
    free(w);
    break;
  }
  free(acl);
  if (fd < 0) {
    free(*tmp);
    *tmp = NULL;
    errno = err;
  }
  return fd;
}

char *cli_os_resolve_links(const char *path) {
  cli_os_file f;
  if (cli_os_stat(path, 0, &f) == 0 && f.kind == CLI_OS_LINK) {
    errno = ENOTSUP;
    return NULL;
  }
  char *copy = _strdup(path);
  if (copy == NULL) errno = ENOMEM;
  return copy;
}

int cli_os_sync(int fd) {
  HANDLE h = (HANDLE)_get_osfhandle(fd);
  if (h == INVALID_HANDLE_VALUE) {
    errno = EBADF;
    return -1;
  }
  return FlushFileBuffers(h) ? 0 : fail_win32();
}

int cli_os_rename(const char *from, const char *to, int replace) {
  wchar_t *wf = widen(from), *wt = widen(to);
  int rc = -1;
  if (wf != NULL && wt != NULL)
    rc = MoveFileExW(wf, wt, MOVEFILE_WRITE_THROUGH | (replace ? MOVEFILE_REPLACE_EXISTING : 0))
             ? 0
             : fail_win32();
  free(wf);
  free(wt);
  return rc;
}

void cli_os_remove(const char *path) {
  wchar_t *w = widen(path);
  if (w != NULL) DeleteFileW(w);
  free(w);
}

static int from_handle(HANDLE h, cli_os_file *f) {
  BY_HANDLE_FILE_INFORMATION bi;
  memset(f, 0, sizeof *f);
  if (GetFileType(h) != FILE_TYPE_DISK) { /* a console, pipe or other device */
    f->kind = CLI_OS_OTHER;
    return 0;
  }
  if (!GetFileInformationByHandle(h, &bi)) return fail_win32();
  f->kind = (bi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) ? CLI_OS_LINK
            : (bi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)   ? CLI_OS_DIRECTORY
                                                                 : CLI_OS_REGULAR;
  f->dev = bi.dwVolumeSerialNumber;
  f->id = (uint64_t)bi.nFileIndexHigh << 32 | bi.nFileIndexLow;
  return 0;
}

int cli_os_stat(const char *path, int follow, cli_os_file *f) {
  wchar_t *w = widen(path);
  if (w == NULL) return -1;
  /* no access asked: attributes only, whoever has it open and however */
  HANDLE h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                         OPEN_EXISTING,
                         FILE_FLAG_BACKUP_SEMANTICS | (follow ? 0 : FILE_FLAG_OPEN_REPARSE_POINT),
                         NULL);
  free(w);
  if (h == INVALID_HANDLE_VALUE) return fail_win32();
  int rc = from_handle(h, f);
  CloseHandle(h);
  return rc;
}

int cli_os_fstat(int fd, cli_os_file *f) {
  HANDLE h = (HANDLE)_get_osfhandle(fd);
  if (h == INVALID_HANDLE_VALUE) {
    errno = EBADF;
    return -1;
  }
  return from_handle(h, f);
}

size_t cli_os_dir_len(const char *path) {
  size_t len = 0;
  for (size_t i = 0; path[i]; ++i)
    if (path[i] == '/' || path[i] == '\\' || (i == 1 && path[i] == ':')) len = i + 1;
  return len;
}

int cli_os_same_name(const char *a, const char *b) { return _stricmp(a, b) == 0; }

int cli_os_is_terminal(int fd) {
  DWORD mode;
  HANDLE h = (HANDLE)_get_osfhandle(fd);
  return h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode);
}

void *cli_os_aligned_alloc(size_t n) { return _aligned_malloc(n, 64); }
void cli_os_aligned_free(void *p) { _aligned_free(p); }
#endif
