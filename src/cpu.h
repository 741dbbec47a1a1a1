/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What the CPU and OS support: one predicate per ISA of MLDSA_FOR_EACH_ISA. */
#ifndef MLDSA_CPU_H
#define MLDSA_CPU_H

#include "isas.h"

#define MLDSA_DECLARE_CPU_HAS(isa) int mldsa_cpu_has_##isa(void);
MLDSA_FOR_EACH_ISA(MLDSA_DECLARE_CPU_HAS)

#endif
