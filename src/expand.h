/* ExpandA, ExpandS and ExpandMask (FIPS 204 Alg. 32-34) on the batched SHAKE of one ISA,
 * compiled once per parameter set and ISA (expand.c): mldsa<set>_expand_a_<isa> ... */
#ifndef MLDSA_EXPAND_H
#define MLDSA_EXPAND_H

#include "isa_names.h"
#include "poly.h"

#define expand_a ENTRY(expand_a)
#define expand_s ENTRY(expand_s)
#define expand_mask ENTRY(expand_mask)

/* A in NTT domain, standard order (the caller reorders for its ISA). */
void expand_a(mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES]);
void expand_s(mldsa_polyvecl *s1, mldsa_polyveck *s2, const uint8_t rhoprime[MLDSA_CRHBYTES]);
void expand_mask(mldsa_polyvecl *y, const uint8_t rhoprime[MLDSA_CRHBYTES], uint16_t kappa);

#endif
