/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* MXCSR Configuration Dependent Timing (gen/mcdt.py): every public API operation runs
 * between mldsa_mcdt_enter and mldsa_mcdt_leave (src/guard.c), which set MXCSR to 0x1FBF
 * and restore the caller's MXCSR, unless the CPU reports MCDT_NO. MLDSA_MCDT=force in
 * the environment protects on every CPU (to test the protection on CPUs with MCDT_NO);
 * nothing turns it off. */
#ifndef MLDSA_MCDT_H
#define MLDSA_MCDT_H

#include <stdint.h>

typedef struct {
  uint32_t mxcsr; /* the caller's */
  int set;        /* 1 when enter changed MXCSR */
} mldsa_mcdt_state;

void mldsa_mcdt_enter(mldsa_mcdt_state *s);
void mldsa_mcdt_leave(const mldsa_mcdt_state *s);

/* 1 when mldsa_mcdt_enter sets MXCSR in this process (no MCDT_NO, or MLDSA_MCDT=force). */
int mldsa_mcdt_active(void);

#endif
