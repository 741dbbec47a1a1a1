/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fuzz target: every ISA against the scalar reference, in one process, through the
 * internal functions of each ISA's backend (mldsaNN_backend_<isa>: keygen, sign, verify,
 * public_from_secret, and its Keccak for mu), for every ISA this CPU has.
 *
 * Input: sel (parameter set sel % 3; bit 2: rnd all zero, i.e. deterministic signing),
 * ctx_len, seed (32), rnd (32), sig (the set's signature length: fuzzer bytes verified as
 * a signature, and read as 8 (position, xor) edits of the valid signature and of the
 * secret key), ctx, then the message.
 * Properties, for each ISA: the same pk and sk from the seed; the same mu; the same return
 * code and signature from signing mu (pure framing of ctx and message) with rnd; that
 * signature verifies; the same verdict on the fuzzer's signature bytes and on the edited
 * valid signature; the same return code and pk from key import of the edited secret key.
 * Any difference aborts with the ISA and the first differing byte. */
#include "backend.h"
#include "cpu.h"
#include "fips202.h"
#include "fuzz_common.h"

typedef struct {
  const char *name;
  int (*supported)(void);
  const mldsa_backend *sets[3];
} fuzz_isa;

#define FUZZ_ISA(isa) \
  {#isa, mldsa_cpu_has_##isa, {&mldsa44_backend_##isa, &mldsa65_backend_##isa, &mldsa87_backend_##isa}},
static const fuzz_isa isas[] = {MLDSA_FOR_EACH_ISA(FUZZ_ISA)};
#define NUM_ISAS (sizeof isas / sizeof isas[0])

typedef struct {
  uint8_t pk[FUZZ_PK_MAX], sk[FUZZ_SK_MAX], sig[FUZZ_SIG_MAX], mu[64];
  uint8_t pk_import[FUZZ_PK_MAX];
  int sign_rc, verify_own, verify_fuzz, verify_edited, import_rc;
} result;

static long first_diff(const uint8_t *a, const uint8_t *b, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return (long)i;
  return -1;
}

#define SAME_BYTES(what, a, b, n)                                                             \
  do {                                                                                        \
    long d_ = first_diff(a, b, n);                                                            \
    FUZZ_CHECK(d_ < 0, "ML-DSA-%d: %s of %s differs from scalar at byte %ld", (int)p, what,  \
               isas[i].name, d_);                                                             \
  } while (0)
#define SAME_INT(what, a, b)                                                                  \
  FUZZ_CHECK((a) == (b), "ML-DSA-%d: %s of %s is %d, scalar %d", (int)p, what, isas[i].name, \
             (a), (b))

static void edit(uint8_t *buf, size_t len, const uint8_t *edits) {
  for (int k = 0; k < 8; ++k) {
    size_t pos = ((size_t)edits[3 * k] | (size_t)edits[3 * k + 1] << 8) % len;
    buf[pos] ^= edits[3 * k + 2];
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static result r[NUM_ISAS];
  static uint8_t fuzz_sig[FUZZ_SIG_MAX], edited[FUZZ_SIG_MAX], sk_edited[FUZZ_SK_MAX], ctx[255];
  uint8_t seed[32], rnd[32], tr[64];
  fuzz_input in = {data, size, 0};
  uint8_t sel = fuzz_byte(&in), ctx_len = fuzz_byte(&in);
  const int set = sel % 3;
  const mldsa_param p = fuzz_params[set];
  fuzz_bytes(&in, seed, sizeof seed);
  fuzz_bytes(&in, rnd, sizeof rnd);
  if (sel & 4) memset(rnd, 0, sizeof rnd);
  const size_t sig_len = isas[0].sets[set]->sig_bytes, sk_len = isas[0].sets[set]->sk_bytes,
               pk_len = isas[0].sets[set]->pk_bytes;
  fuzz_bytes(&in, fuzz_sig, sig_len);
  fuzz_bytes(&in, ctx, ctx_len);
  size_t msg_len;
  const uint8_t *msg = fuzz_rest(&in, &msg_len);
  const uint8_t prefix[2] = {0, ctx_len};

  for (size_t i = 0; i < NUM_ISAS; ++i) {
    if (!isas[i].supported()) continue;
    const mldsa_backend *b = isas[i].sets[set];
    result *o = &r[i];
    b->keygen(o->pk, o->sk, seed);
    /* mu = H(H(pk) || 0 || len(ctx) || ctx || msg) with this ISA's Keccak */
    mldsa_keccak st;
    mldsa_shake256_with(b->keccak, tr, sizeof tr, o->pk, pk_len);
    mldsa_shake256_init_with(&st, b->keccak);
    mldsa_shake_absorb(&st, tr, sizeof tr);
    mldsa_shake_absorb(&st, prefix, 2);
    mldsa_shake_absorb(&st, ctx, ctx_len);
    mldsa_shake_absorb(&st, msg, msg_len);
    mldsa_shake_finalize(&st);
    mldsa_shake_squeeze(&st, o->mu, sizeof o->mu);
    o->sign_rc = b->sign(o->sig, o->mu, rnd, o->sk);
    o->verify_own = b->verify(o->sig, o->mu, o->pk);
    o->verify_fuzz = b->verify(fuzz_sig, o->mu, o->pk);
    memcpy(edited, o->sig, sig_len);
    edit(edited, sig_len, fuzz_sig);
    o->verify_edited = b->verify(edited, o->mu, o->pk);
    memcpy(sk_edited, o->sk, sk_len);
    edit(sk_edited, sk_len, fuzz_sig + 24);
    o->import_rc = b->public_from_secret(o->pk_import, sk_edited);

    FUZZ_CHECK(o->sign_rc == MLDSA_OK, "ML-DSA-%d: %s: signing with a fresh key failed: %d",
               (int)p, isas[i].name, o->sign_rc);
    FUZZ_CHECK(o->verify_own == MLDSA_OK, "ML-DSA-%d: %s: its own signature does not verify",
               (int)p, isas[i].name);
#ifdef MLDSA_FUZZ_PLANT
    /* ci/fuzz --self-test: a planted divergence of every non-scalar ISA, behind a trigger
     * that most of libFuzzer's length-changing mutations can reach (a byte-valued trigger
     * at a fixed offset of a 2.5 KB input may take 10^5 executions to hit) */
    if (i != 0 && msg_len % 8 == 5) o->sig[sig_len - 1] ^= 1;
#endif
    if (i == 0) continue; /* scalar: the reference */
    const result *ref = &r[0];
    SAME_BYTES("pk", o->pk, ref->pk, pk_len);
    SAME_BYTES("sk", o->sk, ref->sk, sk_len);
    SAME_BYTES("mu", o->mu, ref->mu, sizeof o->mu);
    SAME_INT("sign return code", o->sign_rc, ref->sign_rc);
    SAME_BYTES("signature", o->sig, ref->sig, sig_len);
    SAME_INT("verify of the fuzzer's signature", o->verify_fuzz, ref->verify_fuzz);
    SAME_INT("verify of the edited signature", o->verify_edited, ref->verify_edited);
    SAME_INT("import of the edited secret key", o->import_rc, ref->import_rc);
    SAME_BYTES("pk from the edited secret key", o->pk_import, ref->pk_import, pk_len);
  }
  return 0;
}
