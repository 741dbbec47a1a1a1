/* CPU feature predicates. The scalar backend runs everywhere. */
#include "cpu.h"

int mldsa_cpu_has_scalar(void) { return 1; }
