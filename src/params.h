/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Constants of FIPS 204 shared by every parameter set, and the per-set constants selected
 * by MLDSA_MODE (44, 65 or 87) for code compiled once per set. */
#ifndef MLDSA_PARAMS_H
#define MLDSA_PARAMS_H

#define MLDSA_N 256
#define MLDSA_Q 8380417
#define MLDSA_D 13                 /* bits dropped from t by Power2Round */
#define MLDSA_SEEDBYTES 32
#define MLDSA_CRHBYTES 64          /* mu, rho' */
#define MLDSA_TRBYTES 64
#define MLDSA_RNDBYTES 32
#define MLDSA_POLYT1_PACKEDBYTES 320
#define MLDSA_POLYT0_PACKEDBYTES 416
#define MLDSA_GAMMA2_88 ((MLDSA_Q - 1) / 88)
#define MLDSA_GAMMA2_32 ((MLDSA_Q - 1) / 32)

/* Signing attempts before giving up: the minimum of FIPS 204 Table 3 as NIST's errata to
 * FIPS 204 revise it (Table 1 repetitions 4.36 / 5.14 / 3.91, so at least 821 attempts,
 * up from the 814 of the original Table 3 and Appendix C; csrc.nist.gov/pubs/fips/204/final). */
#define MLDSA_MAX_SIGN_ATTEMPTS 821

#ifdef MLDSA_MODE
#if MLDSA_MODE == 44
#define MLDSA_K 4
#define MLDSA_L 4
#define MLDSA_ETA 2
#define MLDSA_TAU 39
#define MLDSA_BETA 78
#define MLDSA_GAMMA1 (1 << 17)
#define MLDSA_GAMMA2 MLDSA_GAMMA2_88
#define MLDSA_OMEGA 80
#define MLDSA_CTILDEBYTES 32
#elif MLDSA_MODE == 65
#define MLDSA_K 6
#define MLDSA_L 5
#define MLDSA_ETA 4
#define MLDSA_TAU 49
#define MLDSA_BETA 196
#define MLDSA_GAMMA1 (1 << 19)
#define MLDSA_GAMMA2 MLDSA_GAMMA2_32
#define MLDSA_OMEGA 55
#define MLDSA_CTILDEBYTES 48
#elif MLDSA_MODE == 87
#define MLDSA_K 8
#define MLDSA_L 7
#define MLDSA_ETA 2
#define MLDSA_TAU 60
#define MLDSA_BETA 120
#define MLDSA_GAMMA1 (1 << 19)
#define MLDSA_GAMMA2 MLDSA_GAMMA2_32
#define MLDSA_OMEGA 75
#define MLDSA_CTILDEBYTES 64
#else
#error "MLDSA_MODE must be 44, 65 or 87"
#endif

#define MLDSA_POLYETA_PACKEDBYTES (MLDSA_ETA == 2 ? 96 : 128)
#define MLDSA_POLYZ_PACKEDBYTES (MLDSA_GAMMA1 == (1 << 17) ? 576 : 640)
#define MLDSA_POLYW1_PACKEDBYTES (MLDSA_GAMMA2 == MLDSA_GAMMA2_88 ? 192 : 128)

#define MLDSA_PUBLICKEYBYTES (MLDSA_SEEDBYTES + MLDSA_K * MLDSA_POLYT1_PACKEDBYTES)
#define MLDSA_SECRETKEYBYTES                                               \
  (2 * MLDSA_SEEDBYTES + MLDSA_TRBYTES +                                   \
   (MLDSA_L + MLDSA_K) * MLDSA_POLYETA_PACKEDBYTES + MLDSA_K * MLDSA_POLYT0_PACKEDBYTES)
#define MLDSA_SIGBYTES \
  (MLDSA_CTILDEBYTES + MLDSA_L * MLDSA_POLYZ_PACKEDBYTES + MLDSA_OMEGA + MLDSA_K)

/* Names of per-set symbols: MLDSA_NS(sign) is mldsa65_sign for MLDSA_MODE 65. */
#define MLDSA_NS_(mode, name) mldsa##mode##_##name
#define MLDSA_NS__(mode, name) MLDSA_NS_(mode, name)
#define MLDSA_NS(name) MLDSA_NS__(MLDSA_MODE, name)
#endif /* MLDSA_MODE */

#endif
