/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Dispatch: MLDSA_ISA caps the choice and never raises it above what the CPU has; an
 * unknown value is ignored. Each case runs in a child process (forked; on Windows this
 * program started again with --child through CreateProcess), since the library makes its
 * choice once per process. With an argument (CI's CPU-feature matrix), the ISA chosen
 * without a cap must be exactly that one.
 *
 *   test_isa_choice [expected-isa] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#else
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "cpu.h"
#include "mldsa.h"

#define ISA_NAME(isa) #isa,
static const char *const names[] = {MLDSA_FOR_EACH_ISA(ISA_NAME)};
#define ISA_HAS(isa) mldsa_cpu_has_##isa,
static int (*const has[])(void) = {MLDSA_FOR_EACH_ISA(ISA_HAS)};
#define NUM_ISAS (int)(sizeof names / sizeof names[0])

/* The index of the ISA mldsa_isa() reports in this process, or -1. */
static int isa_here(void) {
  const char *got = mldsa_isa();
  int idx = -1;
  for (int i = 0; i < NUM_ISAS; ++i)
    if (strcmp(got, names[i]) == 0) idx = i;
  return idx;
}

#if defined(_WIN32)
/* The child's exit status is CHILD_BASE + the index of its ISA. */
#define CHILD_BASE 40

/* The index of the ISA mldsa_isa() reports in a fresh process with MLDSA_ISA = cap
 * (NULL: unset), or -1: this program again, with --child, in the environment of this
 * process (SetEnvironmentVariable; the child's C runtime reads it at start-up). */
static int isa_in_child(const char *cap) {
  char self[MAX_PATH], cmd[MAX_PATH + 16];
  DWORD n = GetModuleFileNameA(NULL, self, sizeof self);
  if (n == 0 || n >= sizeof self) return -1;
  snprintf(cmd, sizeof cmd, "\"%s\" --child", self);
  if (!SetEnvironmentVariableA("MLDSA_ISA", cap)) {
    if (cap != NULL) return -1;
  }
  STARTUPINFOA si;
  PROCESS_INFORMATION pi;
  memset(&si, 0, sizeof si);
  si.cb = sizeof si;
  if (!CreateProcessA(self, cmd, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi)) return -1;
  DWORD status = 0;
  WaitForSingleObject(pi.hProcess, INFINITE);
  if (!GetExitCodeProcess(pi.hProcess, &status)) status = 0;
  CloseHandle(pi.hProcess);
  CloseHandle(pi.hThread);
  return status >= CHILD_BASE && status < CHILD_BASE + (DWORD)NUM_ISAS ? (int)(status - CHILD_BASE)
                                                                        : -1;
}
#else
/* The index of the ISA mldsa_isa() reports in a fresh process with MLDSA_ISA = cap
 * (NULL: unset), or -1. */
static int isa_in_child(const char *cap) {
  int fd[2];
  if (pipe(fd) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    if (cap) setenv("MLDSA_ISA", cap, 1);
    else unsetenv("MLDSA_ISA");
    int idx = isa_here();
    if (write(fd[1], &idx, sizeof idx) != sizeof idx) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  int idx = -1, status;
  if (pid < 0 || read(fd[0], &idx, sizeof idx) != sizeof idx) idx = -1;
  close(fd[0]);
  if (pid > 0) waitpid(pid, &status, 0);
  return idx;
}
#endif

int main(int argc, char **argv) {
#if defined(_WIN32)
  if (argc == 2 && strcmp(argv[1], "--child") == 0) {
    int idx = isa_here();
    return idx < 0 ? 1 : CHILD_BASE + idx;
  }
#endif
  int passed = 0, failed = 0;
  int best = 0;
  for (int i = 0; i < NUM_ISAS; ++i)
    if (has[i]()) best = i;
#define CHECK(cond, ...)            \
  do {                              \
    if (cond) ++passed;             \
    else {                          \
      ++failed;                     \
      printf("FAIL: " __VA_ARGS__); \
    }                               \
  } while (0)

  printf("CPU's best ISA: %s\n", names[best]);
  if (argc > 1)
    CHECK(strcmp(argv[1], names[best]) == 0, "expected this CPU to choose %s, it has %s\n",
          argv[1], names[best]);
  int got = isa_in_child(NULL);
  CHECK(got == best, "no cap: got %s, want %s\n", got >= 0 ? names[got] : "?", names[best]);
  for (int cap = 0; cap < NUM_ISAS; ++cap) {
    int want = 0; /* the best supported ISA at or below the cap */
    for (int i = 0; i <= cap; ++i)
      if (has[i]()) want = i;
    got = isa_in_child(names[cap]);
    printf("MLDSA_ISA=%-7s -> %s\n", names[cap], got >= 0 ? names[got] : "?");
    CHECK(got == want, "cap %s: got %s, want %s\n", names[cap], got >= 0 ? names[got] : "?",
          names[want]);
  }
  static const char *const unknown[] = {"", "AVX2", "avx1024", "neon"};
  for (size_t u = 0; u < sizeof unknown / sizeof unknown[0]; ++u) {
    got = isa_in_child(unknown[u]);
    CHECK(got == best, "unknown cap '%s' must be ignored: got %s\n", unknown[u],
          got >= 0 ? names[got] : "?");
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
