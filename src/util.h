/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Small helpers of the C layer: wiping secrets and constant-time comparison. */
#ifndef MLDSA_UTIL_H
#define MLDSA_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Marks the functions of include/mldsa.h: the only symbols the shared library exports.
 * On Windows the DLL's module definition file (generated from include/mldsa.h by
 * CMakeLists.txt) says what it exports; ELF and Mach-O go by visibility. */
#if defined(_WIN32)
#define MLDSA_API
#else
#define MLDSA_API __attribute__((visibility("default")))
#endif

/* Overwrite len bytes with zeros in a way the compiler may not elide. */
void mldsa_zeroize(void *p, size_t len);

/* Overwrite stack right below the caller's frame: where the functions it called kept
 * their locals and the compiler its register spills, copies of secrets that no C code can
 * name and wipe (Keccak lanes of a secret stream, say). Called at the end of every
 * operation on secrets. Each wipe covers the deepest callee of the frames that call it,
 * and no more: a deeper wipe would only add to the operation's peak stack.
 *   mldsa_stack_wipe: below a whole operation (keygen, sign, import, prepare), whose
 *     deepest callee is ExpandA alone (8 lanes of 5 buffered SHAKE blocks and the
 *     batched state: 9 to 9.5 KiB deep, measured by test_stack).
 *   mldsa_stack_wipe_sign: below the rejection loop of sign, whose deepest callees are
 *     the ExpandMask refill and c~'s hash beside it (the batched state and W seeds; their
 *     output is the caller's), 2 to 4 KiB deep.
 * tests/test_stack.c checks on every ISA that nothing an operation's callees wrote lies
 * below the wipe. */
#define MLDSA_STACK_WIPE_BYTES 10240
#define MLDSA_STACK_WIPE_SIGN_BYTES 4096
void mldsa_stack_wipe(void);
void mldsa_stack_wipe_sign(void);

/* 0 if the buffers are equal, else 1; time depends on len only. */
int mldsa_ct_differ(const uint8_t *a, const uint8_t *b, size_t len);

/* Fill buf with len bytes from the OS; 0 on success, -1 when the OS gives none. */
int mldsa_randombytes(uint8_t *buf, size_t len);

/* Unroll the loop that follows completely (its trip count is a constant): for loops
 * whose body depends on the iteration number (a shift, a table row). */
#if defined(__clang__)
#define MLDSA_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && __GNUC__ >= 8
#define MLDSA_UNROLL _Pragma("GCC unroll 64")
#else
#define MLDSA_UNROLL
#endif

#endif
