/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What the command-line tool asks of the operating system, in one place (apps/cli_os.c):
 * POSIX, or Windows (MinGW-w64; the file-descriptor layer of its C runtime plus Win32 calls
 * where POSIX has no equivalent). Everything else in apps/ is the same on every OS.
 *
 * Paths are what the C runtime gives main: bytes in the locale's (POSIX) or the ANSI code
 * page's (Windows) encoding; on Windows they are converted to UTF-16 once, here, for the
 * wide Win32 calls. Either separator, '/' or '\\', works on Windows. */
#ifndef MLDSA_CLI_OS_H
#define MLDSA_CLI_OS_H

#include <stddef.h>
#include <stdint.h>

/* Before anything else in main: a closed standard descriptor is opened on the null device
 * (so no file this run opens takes its number, and a write to it fails and is reported),
 * SIGPIPE ignored (POSIX: a closed pipe is EPIPE with a message); on Windows standard input
 * and output in binary mode (no CR/LF translation, no ^Z end of file). */
void cli_os_init(void);

/* Runs handler on the signals that end the process (SIGINT, SIGTERM, and SIGHUP where it
 * exists), unless the signal was ignored when the program started (nohup). */
void cli_os_catch_terminating_signals(void (*handler)(int));

/* open(2) for reading, and for writing through to an existing device or FIFO (created
 * 0644 less the umask if it is not there, truncated): close-on-exec, binary. */
int cli_os_open_read(const char *path);
int cli_os_open_write(const char *path);

/* A new temporary file next to path, "<dir>/.<base>.<random>", created exclusively (never
 * an existing file). POSIX: mkostemp, then its mode: mode when mode >= 0 (the caller keeps
 * the mode of a file it replaces), else 0600 for a secret one and 0644 for a public one,
 * both less the umask, as open(2) would have made them. Windows (mode ignored):
 * CreateFileW(CREATE_NEW) with, for a secret one, an explicit security descriptor whose
 * protected DACL (no inherited ACEs) has one ACE, full access for the user of the process
 * token: no one else can open it, and MoveFileEx keeps that DACL when it renames the file
 * into place; a public one gets the directory's inherited ACL, as any new file. The
 * descriptor (write-only, binary), its path in *tmp (heap, for free()), or -1 with errno. */
int cli_os_make_temp(const char *path, int secret, int mode, char **tmp);

/* The file a symbolic link finally names: path with every link along the chain replaced
 * by its target (a relative target is relative to the link's directory), up to 40 links
 * (then ELOOP). The last name may not exist (a dangling link). Heap (free()), or NULL with
 * errno. Windows: a symbolic link or junction is never followed here (ENOTSUP). */
char *cli_os_resolve_links(const char *path);

#if defined(_WIN32)
/* The security descriptor cli_os_make_temp gives a private key file (a SECURITY_DESCRIPTOR
 * in sd; *acl, which it points to, from malloc: the caller frees it after use). For
 * tests/cli/win_dacl.c, which checks it: Wine keeps no ACLs on files (it maps them to
 * Unix mode bits), so under Wine the descriptor can be checked but not the file's. 0, or
 * -1 with errno. */
int cli_os_private_key_descriptor(void *sd, void **acl);
#endif

/* fsync(2) / FlushFileBuffers: the contents on disk before the rename. 0 or -1 (errno). */
int cli_os_sync(int fd);

/* Renames from to to: replace = 1 replaces an existing file atomically (rename(2);
 * MoveFileExW with MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH); replace = 0 never
 * replaces one (renameat2 RENAME_NOREPLACE or link(2); MoveFileExW without
 * REPLACE_EXISTING) and fails with errno EEXIST when to exists. 0 or -1 (errno). */
int cli_os_rename(const char *from, const char *to, int replace);

/* unlink(2) / DeleteFileW; errors ignored (cleanup). Safe in a signal handler on POSIX. */
void cli_os_remove(const char *path);

/* What a name or a descriptor refers to. */
enum { CLI_OS_REGULAR = 1, CLI_OS_DIRECTORY, CLI_OS_LINK, CLI_OS_OTHER };
typedef struct {
  int kind; /* CLI_OS_REGULAR, CLI_OS_DIRECTORY, CLI_OS_LINK (a symbolic link; Windows: any
               reparse point), CLI_OS_OTHER (device, FIFO, socket) */
  uint64_t dev, id; /* the file's identity: st_dev and st_ino; on Windows the volume serial
                       number and the file index (GetFileInformationByHandle) */
  unsigned mode;    /* POSIX permission bits (07777); 0 on Windows, which has none */
} cli_os_file;

/* stat(2) (follow = 1) or lstat(2) (follow = 0: a symbolic link or other reparse point is
 * CLI_OS_LINK); 0, or -1 with errno (ENOENT when there is no such file). */
int cli_os_stat(const char *path, int follow, cli_os_file *f);
/* fstat(2) of an open descriptor (standard input or output: whatever they are open on). */
int cli_os_fstat(int fd, cli_os_file *f);

/* The length of path's directory part including its last separator (0: none), and
 * whether two names within one directory name the same entry (Windows: case-insensitive,
 * as NTFS and FAT compare names). */
size_t cli_os_dir_len(const char *path);
int cli_os_same_name(const char *a, const char *b);

/* 1 when fd is a terminal: isatty(3), on Windows a console (GetConsoleMode; _isatty
 * would also say so of the NUL device). */
int cli_os_is_terminal(int fd);

/* n bytes aligned to 64 (the prepared keys' alignment), freed by cli_os_aligned_free:
 * aligned_alloc and free, or on Windows, whose C runtime has no aligned_alloc,
 * _aligned_malloc and _aligned_free. */
void *cli_os_aligned_alloc(size_t n);
void cli_os_aligned_free(void *p);

#endif
