/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The exported functions of api_list.h: each runs its _impl between mldsa_mcdt_enter and
 * mldsa_mcdt_leave, straight-line (no branch, so no path skips the epilogue: the _impl
 * returns on every path, errors included). ci/check_mcdt checks that shape in the
 * disassembly. No stack protector here: its check would add a branch after the epilogue. */
#include "api_list.h"
#include "mcdt.h"
#include "util.h"

#if defined(__has_attribute)
#if __has_attribute(no_stack_protector)
#define NO_STACK_PROTECTOR __attribute__((no_stack_protector))
#endif
#endif
#ifndef NO_STACK_PROTECTOR
#define NO_STACK_PROTECTOR
#endif

#define MLDSA_GUARD(ret, name, params, args) \
  MLDSA_API NO_STACK_PROTECTOR ret name params {  \
    mldsa_mcdt_state mcdt;                   \
    mldsa_mcdt_enter(&mcdt);                 \
    ret result = name##_impl args;           \
    mldsa_mcdt_leave(&mcdt);                 \
    return result;                           \
  }
MLDSA_GUARDED_API(MLDSA_GUARD)

#define MLDSA_GUARD_VOID(name, params, args) \
  MLDSA_API NO_STACK_PROTECTOR void name params { \
    mldsa_mcdt_state mcdt;                       \
    mldsa_mcdt_enter(&mcdt);                     \
    name##_impl args;                            \
    mldsa_mcdt_leave(&mcdt);                     \
  }
MLDSA_GUARDED_VOID_API(MLDSA_GUARD_VOID)
