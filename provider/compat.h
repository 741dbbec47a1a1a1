/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Names and dispatch numbers that OpenSSL added after 3.0, with the values of the release
 * that added them (they never change), so that one build serves 3.0 to 3.5 and later. */
#ifndef MLDSA_PROV_COMPAT_H
#define MLDSA_PROV_COMPAT_H

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>

/* 3.4: message signing (init, update, final) */
#ifndef OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT
#define OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT 27
#define OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_UPDATE 28
#define OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_FINAL 29
#define OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_INIT 30
#define OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_UPDATE 31
#define OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_FINAL 32
#endif
#ifndef OSSL_FUNC_SIGNATURE_QUERY_KEY_TYPES
#define OSSL_FUNC_SIGNATURE_QUERY_KEY_TYPES 26
#endif

/* 3.5: ML-DSA's signature and key parameters */
#ifndef OSSL_SIGNATURE_PARAM_CONTEXT_STRING
#define OSSL_SIGNATURE_PARAM_CONTEXT_STRING "context-string"
#endif
#ifndef OSSL_SIGNATURE_PARAM_DETERMINISTIC
#define OSSL_SIGNATURE_PARAM_DETERMINISTIC "deterministic"
#endif
#ifndef OSSL_SIGNATURE_PARAM_MU
#define OSSL_SIGNATURE_PARAM_MU "mu"
#endif
#ifndef OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING
#define OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING "message-encoding"
#endif
#ifndef OSSL_SIGNATURE_PARAM_TEST_ENTROPY
#define OSSL_SIGNATURE_PARAM_TEST_ENTROPY "test-entropy"
#endif
#ifndef OSSL_SIGNATURE_PARAM_SIGNATURE
#define OSSL_SIGNATURE_PARAM_SIGNATURE "signature"
#endif
#ifndef OSSL_PKEY_PARAM_ML_DSA_SEED
#define OSSL_PKEY_PARAM_ML_DSA_SEED "seed"
#endif
#ifndef OSSL_PKEY_PARAM_ML_DSA_OUTPUT_FORMATS
#define OSSL_PKEY_PARAM_ML_DSA_OUTPUT_FORMATS "ml-dsa.output_formats"
#endif
#ifndef OSSL_PKEY_PARAM_ML_DSA_INPUT_FORMATS
#define OSSL_PKEY_PARAM_ML_DSA_INPUT_FORMATS "ml-dsa.input_formats"
#endif
#ifndef OSSL_PKEY_PARAM_ML_DSA_RETAIN_SEED
#define OSSL_PKEY_PARAM_ML_DSA_RETAIN_SEED "ml-dsa.retain_seed"
#endif
#ifndef OSSL_PKEY_PARAM_ML_DSA_PREFER_SEED
#define OSSL_PKEY_PARAM_ML_DSA_PREFER_SEED "ml-dsa.prefer_seed"
#endif
/* 3.6 names it; earlier releases ignore it */
#ifndef OSSL_PKEY_PARAM_SECURITY_CATEGORY
#define OSSL_PKEY_PARAM_SECURITY_CATEGORY "security-category"
#endif

/* 3.2: TLS signature algorithms offered by providers */
#ifndef OSSL_CAPABILITY_TLS_SIGALG_IANA_NAME
#define OSSL_CAPABILITY_TLS_SIGALG_IANA_NAME "tls-sigalg-iana-name"
#define OSSL_CAPABILITY_TLS_SIGALG_CODE_POINT "tls-sigalg-code-point"
#define OSSL_CAPABILITY_TLS_SIGALG_NAME "tls-sigalg-name"
#define OSSL_CAPABILITY_TLS_SIGALG_OID "tls-sigalg-oid"
#define OSSL_CAPABILITY_TLS_SIGALG_KEYTYPE "tls-sigalg-keytype"
#define OSSL_CAPABILITY_TLS_SIGALG_KEYTYPE_OID "tls-sigalg-keytype-oid"
#define OSSL_CAPABILITY_TLS_SIGALG_SECURITY_BITS "tls-sigalg-sec-bits"
#define OSSL_CAPABILITY_TLS_SIGALG_MIN_TLS "tls-min-tls"
#define OSSL_CAPABILITY_TLS_SIGALG_MAX_TLS "tls-max-tls"
#define OSSL_CAPABILITY_TLS_SIGALG_MIN_DTLS "tls-min-dtls"
#define OSSL_CAPABILITY_TLS_SIGALG_MAX_DTLS "tls-max-dtls"
#endif

#endif
