/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The kernels of pq-crystals/dilithium avx2/ that sign and verify spend their time in, for
 * bench/peers/peers-bench.c --kernels. bench/peers/build-peers.sh compiles this file, with
 * avx2/ on the include path, DILITHIUM_MODE=3 and that directory's assembly and constants,
 * into OUTDIR/pqcrystals-avx2-kernels.so outside this repository. fips202.c is compiled in
 * here, not beside: its single-state permutation is static there. Exported, one buffer each:
 *   peer_k_keccak_x1(s)        Keccak-f[1600] on 25 words (portable C)
 *   peer_k_keccak_x4(s)        on 4 interleaved states (f1600x4.S)
 *   peer_k_ntt(a), peer_k_invntt(a)          one polynomial, in place
 *   peer_k_pointwise(c, a, b)                one product
 *   peer_k_pointwise_acc(c, a, b)            L = 5 products, summed */
#include <stdint.h>

#include "fips202.c"
#include "consts.h"
#include "fips202x4.h"
#include "ntt.h"

#define PEER_EXPORT __attribute__((visibility("default")))

PEER_EXPORT void peer_k_keccak_x1(uint64_t *s);
PEER_EXPORT void peer_k_keccak_x4(uint64_t *s);
PEER_EXPORT void peer_k_ntt(int32_t *a);
PEER_EXPORT void peer_k_invntt(int32_t *a);
PEER_EXPORT void peer_k_pointwise(int32_t *c, const int32_t *a, const int32_t *b);
PEER_EXPORT void peer_k_pointwise_acc(int32_t *c, const int32_t *a, const int32_t *b);

void peer_k_keccak_x1(uint64_t *s) { KeccakF1600_StatePermute(s); }
void peer_k_keccak_x4(uint64_t *s) { f1600x4((__m256i *)s, KeccakF_RoundConstants); }
void peer_k_ntt(int32_t *a) { ntt_avx((__m256i *)a, qdata.vec); }
void peer_k_invntt(int32_t *a) { invntt_avx((__m256i *)a, qdata.vec); }
void peer_k_pointwise(int32_t *c, const int32_t *a, const int32_t *b) {
  pointwise_avx((__m256i *)c, (const __m256i *)a, (const __m256i *)b, qdata.vec);
}
void peer_k_pointwise_acc(int32_t *c, const int32_t *a, const int32_t *b) {
  pointwise_acc_avx((__m256i *)c, (const __m256i *)a, (const __m256i *)b, qdata.vec);
}
