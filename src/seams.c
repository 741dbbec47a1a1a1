/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The state of the test seams (seams.h): compiled into the test variants only. */
#include "seams.h"

#ifndef MLDSA_TEST_SEAMS
#error "seams.c belongs to the test variants of the library only"
#endif

ssize_t (*mldsa_seam_getrandom)(void *buf, size_t len, unsigned int flags) = MLDSA_OS_GETRANDOM;
unsigned long mldsa_seam_sign_attempts;
int mldsa_seam_reject_all;
int mldsa_seam_fault_z;
void (*mldsa_seam_kernel_probe)(void);
int mldsa_seam_selftest_fault;
