/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What the CPU and OS support: one predicate per ISA of MLDSA_FOR_EACH_ISA. */
#ifndef MLDSA_CPU_H
#define MLDSA_CPU_H

#include "isas.h"

#define MLDSA_DECLARE_CPU_HAS(isa) int mldsa_cpu_has_##isa(void);
MLDSA_FOR_EACH_ISA(MLDSA_DECLARE_CPU_HAS)

/* 1 when the CPU says it does not show MXCSR Configuration Dependent Timing (MCDT_NO),
 * or has no MXCSR (not x86-64). */
int mldsa_cpu_has_mcdt_no(void);

#endif
