/* Run-time choice of the arithmetic backend: the best ISA that the CPU and OS support,
 * capped by MLDSA_ISA in the environment (an unknown value is ignored). The choice is
 * made once, thread-safely, and is the only global state of the library. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "api_list.h"
#include "backend.h"
#include "cpu.h"
#include "util.h"

typedef struct {
  const char *name;
  int (*supported)(void);
  const mldsa_backend *sets[3]; /* 44, 65, 87 */
} isa_entry;

/* In MLDSA_FOR_EACH_ISA order: each entry is preferred over the ones before it. */
#define ISA_ENTRY(isa)  \
  {#isa,                \
   mldsa_cpu_has_##isa, \
   {&mldsa44_backend_##isa, &mldsa65_backend_##isa, &mldsa87_backend_##isa}},
static const isa_entry isas[] = {MLDSA_FOR_EACH_ISA(ISA_ENTRY)};
#define NUM_ISAS (sizeof isas / sizeof isas[0])

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const isa_entry *chosen;

static void choose(void) {
  size_t cap = NUM_ISAS - 1;
  const char *env = getenv("MLDSA_ISA");
  if (env != NULL)
    for (size_t i = 0; i < NUM_ISAS; ++i)
      if (strcmp(env, isas[i].name) == 0) cap = i;
  size_t best = 0;
  for (size_t i = 0; i <= cap; ++i)
    if (isas[i].supported()) best = i;
  chosen = &isas[best];
}

static const isa_entry *chosen_isa(void) {
  pthread_once(&once, choose);
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
