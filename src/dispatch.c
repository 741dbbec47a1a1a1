/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Run-time choice of the arithmetic backend: the best ISA that the CPU and OS support,
 * capped by MLDSA_ISA in the environment (an unknown value is ignored). The choice is
 * made once, thread-safely, and is the only global state of the library. */
#include <stdlib.h>
#include <string.h>

#include "api_list.h"
#include "backend.h"
#include "cpu.h"
#include "once.h"
#include "util.h"

typedef struct {
  const char *name;
  int (*supported)(void);
  const mldsa_backend *sets[3]; /* 44, 65, 87; NULL where the build left a set out */
} isa_entry;

/* In MLDSA_FOR_EACH_ISA order: each entry is preferred over the ones before it. */
#define ISA_ENTRY(isa)  \
  {#isa,                \
   mldsa_cpu_has_##isa, \
   {MLDSA_SET_IF_44(&mldsa44_backend_##isa), MLDSA_SET_IF_65(&mldsa65_backend_##isa), \
    MLDSA_SET_IF_87(&mldsa87_backend_##isa)}},
static const isa_entry isas[] = {MLDSA_FOR_EACH_ISA(ISA_ENTRY)};
#define NUM_ISAS (sizeof isas / sizeof isas[0])

static mldsa_once_flag once = MLDSA_ONCE_INIT;
static const isa_entry *chosen;

/* Every ISA the project knows for this architecture, weakest first: MLDSA_ISA names a cap
 * on this scale even when the build left that ISA out (a cap of avx2 in a build without
 * avx2 still rules out avx512). An ISA of another architecture is an unknown value. */
#if defined(__aarch64__)
static const char *const known_isas[] = {"scalar", "neon"};
#else
static const char *const known_isas[] = {"scalar", "sse2", "avx2", "avx512"};
#endif
#define NUM_KNOWN (sizeof known_isas / sizeof known_isas[0])

static size_t rank_of(const char *name) {
  for (size_t i = 0; i < NUM_KNOWN; ++i)
    if (strcmp(name, known_isas[i]) == 0) return i;
  return NUM_KNOWN;
}

static void choose(void) {
  size_t cap = NUM_KNOWN - 1;
  const char *env = getenv("MLDSA_ISA");
  if (env != NULL && rank_of(env) < NUM_KNOWN) cap = rank_of(env);
  size_t best = 0;
  for (size_t i = 0; i < NUM_ISAS; ++i)
    if (rank_of(isas[i].name) <= cap && isas[i].supported()) best = i;
  chosen = &isas[best];
}

static const isa_entry *chosen_isa(void) {
  mldsa_once(&once, choose);
  return chosen;
}

const mldsa_backend *mldsa_backend_for(int p) {
  const isa_entry *isa = chosen_isa();
  switch (p) {
    case 44:
      return isa->sets[0];
    case 65:
      return isa->sets[1];
    case 87:
      return isa->sets[2];
    default:
      return NULL;
  }
}

const char *mldsa_isa_impl(void) { return chosen_isa()->name; }
