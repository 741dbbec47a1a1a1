/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Windows only (tests/cli/test_cli_windows.sh): checks that a DACL is protected (nothing
 * inherited) and allows access to the user of this process alone, as apps/cli_os.c makes
 * private key files.
 *
 *   win_dacl FILE          the file's DACL as the system reports it (GetNamedSecurityInfo);
 *                          under Wine, which keeps no ACLs on files (it maps them to Unix
 *                          mode bits and back), exit 77: not checkable there
 *   win_dacl --descriptor  the security descriptor the CLI creates private key files with
 *                          (cli_os_private_key_descriptor), checked in memory
 *
 * Exit 0 when it is right, 1 (printing what was found) when not. */
#include <stdio.h>

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
/* windows.h first */
#include <aclapi.h>
#include <sddl.h>
#include <stdlib.h>
#include <string.h>

#include "cli_os.h"

static TOKEN_USER *this_user(void) {
  HANDLE token;
  DWORD len = 0;
  TOKEN_USER *user = NULL;
  if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) return NULL;
  GetTokenInformation(token, TokenUser, NULL, 0, &len);
  user = len ? malloc(len) : NULL;
  if (user && !GetTokenInformation(token, TokenUser, user, len, &len)) {
    free(user);
    user = NULL;
  }
  CloseHandle(token);
  return user;
}

/* 1 when the DACL of sd is protected and its every ACE allows this user only. */
static int check(const char *what, PSECURITY_DESCRIPTOR sd) {
  BOOL present = FALSE, defaulted = FALSE;
  PACL dacl = NULL;
  SECURITY_DESCRIPTOR_CONTROL control = 0;
  DWORD revision;
  TOKEN_USER *user = this_user();
  if (!IsValidSecurityDescriptor(sd) || !GetSecurityDescriptorDacl(sd, &present, &dacl, &defaulted) ||
      !GetSecurityDescriptorControl(sd, &control, &revision) || user == NULL) {
    printf("win_dacl: %s: cannot read the security descriptor (%lu)\n", what, GetLastError());
    free(user);
    return 0;
  }
  int ok = present && dacl != NULL && (control & SE_DACL_PROTECTED) && dacl->AceCount > 0;
  printf("win_dacl: %s: DACL %s, %s, %u ACE(s)\n", what,
         present && dacl ? "present" : "absent (everyone may)",
         (control & SE_DACL_PROTECTED) ? "protected" : "inheriting", dacl ? dacl->AceCount : 0);
  for (DWORD i = 0; dacl != NULL && i < dacl->AceCount; ++i) {
    ACCESS_ALLOWED_ACE *ace;
    if (!GetAce(dacl, i, (void **)&ace)) {
      ok = 0;
      continue;
    }
    char *sid = NULL;
    ConvertSidToStringSidA((PSID)&ace->SidStart, &sid);
    int mine = EqualSid((PSID)&ace->SidStart, user->User.Sid);
    printf("win_dacl:   ACE %lu: type %u, mask 0x%08lx, %s%s\n", i, ace->Header.AceType,
           ace->Mask, sid ? sid : "?", mine ? " (this user)" : "");
    if (ace->Header.AceType != ACCESS_ALLOWED_ACE_TYPE || !mine) ok = 0;
    LocalFree(sid);
  }
  free(user);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: win_dacl FILE | --descriptor\n");
    return 2;
  }
  if (strcmp(argv[1], "--descriptor") == 0) {
    SECURITY_DESCRIPTOR sd;
    void *acl = NULL;
    if (cli_os_private_key_descriptor(&sd, &acl) != 0) {
      printf("win_dacl: cli_os_private_key_descriptor failed\n");
      return 1;
    }
    int ok = check("the private key files' descriptor", &sd);
    free(acl);
    return ok ? 0 : 1;
  }
  HMODULE ntdll = GetModuleHandleA("ntdll.dll");
  if (ntdll != NULL && GetProcAddress(ntdll, "wine_get_version") != NULL) {
    printf("win_dacl: %s: under Wine, which keeps no ACLs on files: not checkable here\n",
           argv[1]);
    return 77;
  }
  PSECURITY_DESCRIPTOR sd = NULL;
  DWORD rc = GetNamedSecurityInfoA(argv[1], SE_FILE_OBJECT,
                                   DACL_SECURITY_INFORMATION | OWNER_SECURITY_INFORMATION, NULL,
                                   NULL, NULL, NULL, &sd);
  if (rc != ERROR_SUCCESS) {
    printf("win_dacl: %s: GetNamedSecurityInfo failed (%lu)\n", argv[1], rc);
    return 1;
  }
  int ok = check(argv[1], sd);
  LocalFree(sd);
  return ok ? 0 : 1;
}
#else
int main(void) {
  printf("win_dacl: Windows only\n");
  return 77;
}
#endif
