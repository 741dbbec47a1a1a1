/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* <sys/mman.h> for the test programs, and on Windows the little of it they use: anonymous
 * mappings (VirtualAlloc), guard pages (VirtualProtect with PAGE_NOACCESS: a touch is an
 * access violation, which ends the test as SIGSEGV does) and the page size. Windows has
 * no fork, so Check runs there without it (CK_FORK=no) and MAP_SHARED needs no sharing. */
#ifndef MLDSA_TEST_MMAN_H
#define MLDSA_TEST_MMAN_H

#if !defined(_WIN32)
#include <sys/mman.h>
#include <unistd.h>
#else
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <signal.h>
#include <stddef.h>
#include <windows.h>

/* Windows reports every bad access as SIGSEGV: the handlers' SIGBUS entries repeat it. */
#ifndef SIGBUS
#define SIGBUS SIGSEGV
#endif

#define PROT_NONE 0
#define PROT_READ 1
#define PROT_WRITE 2
#define MAP_SHARED 1
#define MAP_PRIVATE 2
#define MAP_ANONYMOUS 0x20
#define MAP_FAILED ((void *)-1)
#define _SC_PAGESIZE 30

static inline long mldsa_test_sysconf(int name) {
  SYSTEM_INFO si;
  (void)name;
  GetSystemInfo(&si);
  return (long)si.dwPageSize;
}
#define sysconf mldsa_test_sysconf

static inline DWORD mldsa_test_protection(int prot) {
  return (prot & PROT_WRITE) ? PAGE_READWRITE : (prot & PROT_READ) ? PAGE_READONLY : PAGE_NOACCESS;
}

/* Anonymous mappings only (fd -1): zero-filled pages, as mmap gives. */
static inline void *mldsa_test_mmap(void *addr, size_t len, int prot, int flags, int fd,
                                    long off) {
  (void)addr;
  (void)flags;
  (void)off;
  if (fd != -1) return MAP_FAILED;
  void *p = VirtualAlloc(NULL, len, MEM_RESERVE | MEM_COMMIT, mldsa_test_protection(prot));
  return p ? p : MAP_FAILED;
}
#define mmap mldsa_test_mmap

static inline int mldsa_test_mprotect(void *addr, size_t len, int prot) {
  DWORD old;
  return VirtualProtect(addr, len, mldsa_test_protection(prot), &old) ? 0 : -1;
}
#define mprotect mldsa_test_mprotect

static inline int mldsa_test_munmap(void *addr, size_t len) {
  (void)len;
  return VirtualFree(addr, 0, MEM_RELEASE) ? 0 : -1;
}
#define munmap mldsa_test_munmap
#endif

#endif
