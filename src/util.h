/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Small helpers of the C layer: wiping secrets and constant-time comparison. */
#ifndef MLDSA_UTIL_H
#define MLDSA_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Marks the functions of include/mldsa.h: the only symbols the shared library exports. */
#define MLDSA_API __attribute__((visibility("default")))

/* Overwrite len bytes with zeros in a way the compiler may not elide. */
void mldsa_zeroize(void *p, size_t len);

/* Overwrite MLDSA_STACK_WIPE_BYTES of stack right below the caller's frame: where the
 * functions it called kept their locals and the compiler its register spills, copies of
 * secrets that no C code can name and wipe (Keccak lanes of a secret stream, say). Called
 * at the end of every operation on secrets; the deepest callee (ExpandMask, 8 streams) uses ~9 KiB. */
#define MLDSA_STACK_WIPE_BYTES 12288
void mldsa_stack_wipe(void);

/* 0 if the buffers are equal, else 1; time depends on len only. */
int mldsa_ct_differ(const uint8_t *a, const uint8_t *b, size_t len);

/* Fill buf with len bytes from the OS; 0 on success, -1 when the OS gives none. */
int mldsa_randombytes(uint8_t *buf, size_t len);

#endif
