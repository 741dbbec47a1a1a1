# SPDX-License-Identifier: Apache-2.0 OR MIT
"""cffi builder of mldsa._mldsa: the declarations of include/mldsa.h that the binding uses.

API (out-of-line) mode: the C compiler checks these declarations against the real header,
so a signature that drifts from include/mldsa.h fails the build instead of corrupting
memory. The library is linked statically (libmldsa.a, position-independent), so the
extension needs no libmldsa.so at run time and always runs the library it was built
against. Where they are found:

  MLDSA_INCLUDE_DIR  the directory of mldsa.h  (default: <repository>/include)
  MLDSA_LIBRARY      the static library         (default: <repository>/build/libmldsa.a)
"""
import os

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.normpath(os.path.join(HERE, "..", ".."))
INCLUDE_DIR = os.environ.get("MLDSA_INCLUDE_DIR", os.path.join(REPOSITORY, "include"))
LIBRARY = os.environ.get("MLDSA_LIBRARY", os.path.join(REPOSITORY, "build", "libmldsa.a"))

for path, hint in ((os.path.join(INCLUDE_DIR, "mldsa.h"), "MLDSA_INCLUDE_DIR"),
                   (LIBRARY, "MLDSA_LIBRARY (build it first: make python)")):
    if not os.path.exists(path):
        raise SystemExit(f"mldsa binding: {path} not found; set {hint}")

CDEF = """
#define MLDSA44_PUBLIC_KEY_BYTES ...
#define MLDSA44_SECRET_KEY_BYTES ...
#define MLDSA44_SIGNATURE_BYTES ...
#define MLDSA65_PUBLIC_KEY_BYTES ...
#define MLDSA65_SECRET_KEY_BYTES ...
#define MLDSA65_SIGNATURE_BYTES ...
#define MLDSA87_PUBLIC_KEY_BYTES ...
#define MLDSA87_SECRET_KEY_BYTES ...
#define MLDSA87_SIGNATURE_BYTES ...
#define MLDSA_SEED_BYTES ...
#define MLDSA_RND_BYTES ...
#define MLDSA_MU_BYTES ...
#define MLDSA_CONTEXT_MAX_BYTES ...
#define MLDSA_PREPARED_PUBLIC_KEY_BYTES ...
#define MLDSA_PREPARED_SECRET_KEY_BYTES ...

#define MLDSA_OK ...
#define MLDSA_ERR_VERIFY ...
#define MLDSA_ERR_PARAM ...
#define MLDSA_ERR_LENGTH ...
#define MLDSA_ERR_CONTEXT ...
#define MLDSA_ERR_NULL ...
#define MLDSA_ERR_RANDOM ...
#define MLDSA_ERR_KEY ...
#define MLDSA_ERR_HASH ...
#define MLDSA_ERR_ENCODING ...
#define MLDSA_ERR_SELFTEST ...

typedef enum { MLDSA_44 = 44, MLDSA_65 = 65, MLDSA_87 = 87 } mldsa_param;
typedef enum {
  MLDSA_SHA2_224, MLDSA_SHA2_256, MLDSA_SHA2_384, MLDSA_SHA2_512, MLDSA_SHA2_512_224,
  MLDSA_SHA2_512_256, MLDSA_SHA3_224, MLDSA_SHA3_256, MLDSA_SHA3_384, MLDSA_SHA3_512,
  MLDSA_SHAKE128, MLDSA_SHAKE256
} mldsa_hash;
typedef enum { MLDSA_DER = 0, MLDSA_PEM = 1 } mldsa_format;
typedef enum { MLDSA_SK_SEED = 1, MLDSA_SK_EXPANDED = 2, MLDSA_SK_BOTH = 3 } mldsa_sk_form;

const char *mldsa_version(void);
const char *mldsa_isa(void);
const char *mldsa_strerror(int code);
int mldsa_selftest(void);
void mldsa_wipe(void *p, size_t n);
int mldsa_generate_seed(uint8_t seed[32]);

int mldsa_keygen(mldsa_param p, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len);
int mldsa_keygen_from_seed(mldsa_param p, uint8_t *pk, size_t pk_len, uint8_t *sk,
                           size_t sk_len, const uint8_t seed[32]);
int mldsa_public_key_from_secret(mldsa_param p, uint8_t *pk, size_t pk_len,
                                 const uint8_t *sk, size_t sk_len);

int mldsa_sign(mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t *msg,
               size_t msg_len, const uint8_t *ctx, size_t ctx_len, const uint8_t *rnd,
               const uint8_t *sk, size_t sk_len);
int mldsa_verify(mldsa_param p, const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                 size_t msg_len, const uint8_t *ctx, size_t ctx_len, const uint8_t *pk,
                 size_t pk_len);
int mldsa_sign_prehash(mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t *digest,
                       size_t digest_len, mldsa_hash h, const uint8_t *ctx, size_t ctx_len,
                       const uint8_t *rnd, const uint8_t *sk, size_t sk_len);
int mldsa_verify_prehash(mldsa_param p, const uint8_t *sig, size_t sig_len,
                         const uint8_t *digest, size_t digest_len, mldsa_hash h,
                         const uint8_t *ctx, size_t ctx_len, const uint8_t *pk,
                         size_t pk_len);
int mldsa_sign_internal(mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t *mprime,
                        size_t mprime_len, const uint8_t rnd[32], const uint8_t *sk,
                        size_t sk_len);
int mldsa_verify_internal(mldsa_param p, const uint8_t *sig, size_t sig_len,
                          const uint8_t *mprime, size_t mprime_len, const uint8_t *pk,
                          size_t pk_len);
int mldsa_compute_mu(mldsa_param p, uint8_t mu[64], const uint8_t *pk, size_t pk_len,
                     const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len);
int mldsa_sign_mu(mldsa_param p, uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                  const uint8_t *rnd, const uint8_t *sk, size_t sk_len);
int mldsa_verify_mu(mldsa_param p, const uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                    const uint8_t *pk, size_t pk_len);

typedef struct { ...; } mldsa_mu_state;
int mldsa_mu_init(mldsa_mu_state *st, mldsa_param p, const uint8_t *pk, size_t pk_len,
                  const uint8_t *ctx, size_t ctx_len);
int mldsa_mu_init_secret(mldsa_mu_state *st, mldsa_param p, const uint8_t *sk,
                         size_t sk_len, const uint8_t *ctx, size_t ctx_len);
int mldsa_mu_update(mldsa_mu_state *st, const uint8_t *m, size_t m_len);
int mldsa_mu_final(mldsa_mu_state *st, uint8_t mu[64]);

typedef struct mldsa_prepared_public_key mldsa_prepared_public_key;
typedef struct mldsa_prepared_secret_key mldsa_prepared_secret_key;
int mldsa_public_key_prepare(mldsa_prepared_public_key *pp, mldsa_param p,
                             const uint8_t *pk, size_t pk_len);
int mldsa_verify_prepared(const mldsa_prepared_public_key *pp, const uint8_t *sig,
                          size_t sig_len, const uint8_t *msg, size_t msg_len,
                          const uint8_t *ctx, size_t ctx_len);
int mldsa_verify_mu_prepared(const mldsa_prepared_public_key *pp, const uint8_t *sig,
                             size_t sig_len, const uint8_t mu[64]);
int mldsa_secret_key_prepare(mldsa_prepared_secret_key *ps, mldsa_param p,
                             const uint8_t *sk, size_t sk_len);
int mldsa_sign_prepared(const mldsa_prepared_secret_key *ps, uint8_t *sig, size_t sig_len,
                        const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                        size_t ctx_len, const uint8_t *rnd);
int mldsa_sign_mu_prepared(const mldsa_prepared_secret_key *ps, uint8_t *sig,
                           size_t sig_len, const uint8_t mu[64], const uint8_t *rnd);
void mldsa_secret_key_unprepare(mldsa_prepared_secret_key *ps);

int mldsa_public_key_encode(mldsa_param p, mldsa_format f, uint8_t *out, size_t out_cap,
                            size_t *out_len, const uint8_t *pk, size_t pk_len);
int mldsa_public_key_decode(mldsa_param *p, uint8_t *pk, size_t pk_cap, size_t *pk_len,
                            const uint8_t *in, size_t in_len);
int mldsa_private_key_encode(mldsa_param p, mldsa_format f, mldsa_sk_form form,
                             uint8_t *out, size_t out_cap, size_t *out_len,
                             const uint8_t *seed, const uint8_t *sk, size_t sk_len);
int mldsa_private_key_decode(mldsa_param *p, uint8_t *sk, size_t sk_cap, size_t *sk_len,
                             uint8_t *seed, int *has_seed, const uint8_t *in, size_t in_len);
int mldsa_certificate_public_key(mldsa_param *p, uint8_t *pk, size_t pk_cap,
                                 size_t *pk_len, const uint8_t *in, size_t in_len);

typedef struct {
  const uint8_t *pk; size_t pk_len;
  const uint8_t *msg; size_t msg_len;
  const uint8_t *ctx; size_t ctx_len;
  const uint8_t *sig; size_t sig_len;
} mldsa_verify_item;
int mldsa_verify_batch(mldsa_param p, const mldsa_verify_item *items, size_t n,
                       int *results);
int mldsa_verify_prepared_batch(const mldsa_prepared_public_key *pp,
                                const mldsa_verify_item *items, size_t n, int *results);
typedef struct {
  const uint8_t *msg; size_t msg_len;
  const uint8_t *ctx; size_t ctx_len;
  const uint8_t *rnd;
  uint8_t *sig; size_t sig_len;
} mldsa_sign_item;
int mldsa_sign_batch(const mldsa_prepared_secret_key *ps, const mldsa_sign_item *items,
                     size_t n, int *results);
"""

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "mldsa._mldsa",
    "#include <mldsa.h>\n",
    include_dirs=[INCLUDE_DIR],
    extra_objects=[LIBRARY],
    # relinked when the library or its header changes (setuptools looks at sources only)
    depends=[LIBRARY, os.path.join(INCLUDE_DIR, "mldsa.h")],
    # the library's getrandom and pthread_once (MLDSA_OS_LIBS of CMakeLists.txt)
    libraries=["pthread"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
