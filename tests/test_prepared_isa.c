/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What a prepared key or mu state records about its maker: the ISA numbers are fixed (the
 * same whichever ISAs a build compiles), and a struct that names another ISA or another
 * layout is refused, never used. A plain test with the headers of src/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Seen as a build without sse2 (scalar+avx2, say) would see it: the ISA numbers must not
 * change with the list of ISAs. */
#undef MLDSA_HAVE_SSE2
#include "backend.h"
#include "mldsa.h"

static int failures;
static void check(int ok, const char *what) {
  if (!ok) {
    printf("FAIL: %s\n", what);
    ++failures;
  }
}

/* The fixed number of an ISA name, as isas.h gives it. */
static unsigned fixed_number(const char *isa) {
  static const char *const names[] = {"scalar", "sse2", "avx2", "avx512", "neon"};
  for (unsigned i = 0; i < 5; ++i)
    if (strcmp(isa, names[i]) == 0) return i + 1;
  return 0;
}

static MLDSA_ALIGN64 mldsa_prepared_public_key pp, pp2;
static MLDSA_ALIGN64 mldsa_prepared_secret_key ps, ps2;

int main(void) {
  check(MLDSA_ISA_ID_scalar == 1, "scalar is ISA 1");
  check(MLDSA_ISA_ID_sse2 == 2, "sse2 is ISA 2");
  check(MLDSA_ISA_ID_avx2 == 3, "avx2 is ISA 3 (also in a build without sse2)");
  check(MLDSA_ISA_ID_avx512 == 4, "avx512 is ISA 4");
#ifdef MLDSA_ISA_ID_neon
  check(MLDSA_ISA_ID_neon == 5, "neon is ISA 5");
#else
  check(0, "neon has a number");
#endif

  static uint8_t pk[MLDSA_MAX_PUBLIC_KEY_BYTES], sk[MLDSA_MAX_SECRET_KEY_BYTES];
  static uint8_t sig[MLDSA_MAX_SIGNATURE_BYTES];
  uint8_t seed[32] = {1}, mu[64] = {2}, rnd[32] = {0};
  const mldsa_param p = MLDSA_65;
  size_t pk_len = mldsa_public_key_bytes(p), sk_len = mldsa_secret_key_bytes(p);
  size_t sig_len = mldsa_signature_bytes(p);
  if (mldsa_keygen_from_seed(p, pk, pk_len, sk, sk_len, seed) != MLDSA_OK ||
      mldsa_public_key_prepare(&pp, p, pk, pk_len) != MLDSA_OK ||
      mldsa_secret_key_prepare(&ps, p, sk, sk_len) != MLDSA_OK ||
      mldsa_sign_mu_prepared(&ps, sig, sig_len, mu, rnd) != MLDSA_OK ||
      mldsa_verify_mu_prepared(&pp, sig, sig_len, mu) != MLDSA_OK) {
    printf("FAIL: cannot prepare, sign and verify\n");
    return 1;
  }
  /* The headers are read and written through copies (no type punning). */
  mldsa_prepared_header hp, hs;
  memcpy(&hp, &pp, sizeof hp);
  memcpy(&hs, &ps, sizeof hs);
  unsigned want = fixed_number(mldsa_isa());
  check(hp.isa == want, "a prepared public key records the fixed number of its ISA");
  check(hs.isa == want, "a prepared secret key records the fixed number of its ISA");

  /* Another ISA with a valid check word (what another build or MLDSA_ISA cap made), and
   * this ISA with the check word of another layout: both refused as MLDSA_ERR_KEY. */
  for (unsigned other = 1; other <= 6; ++other) {
    for (int layout_delta = 0; layout_delta < 2; ++layout_delta) {
      unsigned isa = layout_delta ? want : other;
      if (!layout_delta && isa == want) continue;
      uint32_t layout = MLDSA_PREPARED_LAYOUT + (uint32_t)layout_delta;
      mldsa_prepared_header h2 = hp, s2 = hs;
      h2.isa = isa;
      h2.check = mldsa_prepared_check(h2.magic, layout, h2.set, isa);
      s2.isa = isa;
      s2.check = mldsa_prepared_check(s2.magic, layout, s2.set, isa);
      memcpy(&pp2, &pp, sizeof pp);
      memcpy(&ps2, &ps, sizeof ps);
      memcpy(&pp2, &h2, sizeof h2);
      memcpy(&ps2, &s2, sizeof s2);
      char what[96];
      snprintf(what, sizeof what, "public key of ISA %u, layout %u refused", isa, layout);
      check(mldsa_verify_mu_prepared(&pp2, sig, sig_len, mu) == MLDSA_ERR_KEY, what);
      snprintf(what, sizeof what, "secret key of ISA %u, layout %u refused", isa, layout);
      check(mldsa_sign_mu_prepared(&ps2, sig, sig_len, mu, rnd) == MLDSA_ERR_KEY, what);
    }
  }
  /* An untouched copy still works (the changes above were what was refused). */
  memcpy(&pp2, &pp, sizeof pp);
  check(mldsa_verify_mu_prepared(&pp2, sig, sig_len, mu) == MLDSA_OK, "a copy works");

  /* A mu state: the same header fields at its start (magic, check, set, isa); one naming
   * another ISA or layout is not a live state (MLDSA_ERR_PARAM, as documented for mu
   * states). */
  for (int layout_delta = 0; layout_delta < 2; ++layout_delta) {
    mldsa_mu_state st;
    if (mldsa_mu_init(&st, p, pk, pk_len, NULL, 0) != MLDSA_OK) {
      check(0, "mu_init");
      break;
    }
    struct {
      uint64_t magic, check;
      uint32_t set, isa;
    } head;
    memcpy(&head, &st, sizeof head);
    check(head.isa == want, "a mu state records the fixed number of its ISA");
    head.isa = layout_delta ? want : (want == 1 ? 2 : 1);
    head.check = mldsa_prepared_check(head.magic, MLDSA_PREPARED_LAYOUT + (uint32_t)layout_delta,
                                      head.set, head.isa);
    memcpy(&st, &head, sizeof head);
    check(mldsa_mu_update(&st, mu, 1) == MLDSA_ERR_PARAM, "mu state of another ISA/layout refused");
  }
  mldsa_secret_key_unprepare(&ps);
  mldsa_secret_key_unprepare(&ps2);
  if (failures) {
    printf("test_prepared_isa: %d failures\n", failures);
    return 1;
  }
  printf("test_prepared_isa: fixed ISA numbers (%s = %u); other ISAs and layouts refused\n",
         mldsa_isa(), want);
  return 0;
}
