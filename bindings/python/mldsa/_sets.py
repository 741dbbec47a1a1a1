# SPDX-License-Identifier: Apache-2.0 OR MIT
"""MLDSA44, MLDSA65, MLDSA87: the calls of include/mldsa.h for one parameter set each.

Every method is a classmethod (MLDSA65.sign(...)); an instance (MLDSA65()) works the same.
Keys and signatures are bytes: pk, sk (the expanded secret key of FIPS 204), sig.
"""
from . import _buffers as buffers
from ._batch import verify_batch
from ._errors import EncodingError, ParameterError, check, verified
from ._keys import certificate_public_key, decode_private_key, decode_public_key
from ._mldsa import ffi, lib
from ._prepared import PreparedPublicKey, PreparedSecretKey
from ._stream import Signer, Verifier

# Pre-hash algorithms by the names of FIPS 204 and NIST's ACVP (hashAlg), with
# hashlib's spellings too, mapped to mldsa_hash.
HASHES = {
    "SHA2-224": lib.MLDSA_SHA2_224, "SHA2-256": lib.MLDSA_SHA2_256,
    "SHA2-384": lib.MLDSA_SHA2_384, "SHA2-512": lib.MLDSA_SHA2_512,
    "SHA2-512/224": lib.MLDSA_SHA2_512_224, "SHA2-512/256": lib.MLDSA_SHA2_512_256,
    "SHA3-224": lib.MLDSA_SHA3_224, "SHA3-256": lib.MLDSA_SHA3_256,
    "SHA3-384": lib.MLDSA_SHA3_384, "SHA3-512": lib.MLDSA_SHA3_512,
    "SHAKE-128": lib.MLDSA_SHAKE128, "SHAKE-256": lib.MLDSA_SHAKE256,
}
_HASHLIB_NAMES = {
    "sha224": "SHA2-224", "sha256": "SHA2-256", "sha384": "SHA2-384", "sha512": "SHA2-512",
    "sha512_224": "SHA2-512/224", "sha512_256": "SHA2-512/256", "sha3_224": "SHA3-224",
    "sha3_256": "SHA3-256", "sha3_384": "SHA3-384", "sha3_512": "SHA3-512",
    "shake_128": "SHAKE-128", "shake_256": "SHAKE-256",
}

_SK_FORMS = {"seed": lib.MLDSA_SK_SEED, "expanded": lib.MLDSA_SK_EXPANDED,
             "both": lib.MLDSA_SK_BOTH}


def hash_id(name):
    """The mldsa_hash of a pre-hash name ("SHA2-256", or hashlib's "sha256")."""
    key = _HASHLIB_NAMES.get(name, name) if isinstance(name, str) else None
    if key not in HASHES:
        raise ParameterError(f"unknown pre-hash {name!r}; one of {', '.join(HASHES)}",
                             code=lib.MLDSA_ERR_HASH)
    return HASHES[key]


class ParameterSet:
    """The operations of one ML-DSA parameter set (subclassed once per set)."""

    param = None  # mldsa_param: 44, 65 or 87
    name = None  # "ML-DSA-65"
    PUBLIC_KEY_BYTES = SECRET_KEY_BYTES = SIGNATURE_BYTES = None
    SEED_BYTES = lib.MLDSA_SEED_BYTES
    RND_BYTES = lib.MLDSA_RND_BYTES
    MU_BYTES = lib.MLDSA_MU_BYTES
    CONTEXT_MAX_BYTES = lib.MLDSA_CONTEXT_MAX_BYTES

    def __repr__(self):
        return f"<{self.name}>"

    # ---- keys -------------------------------------------------------------------

    @classmethod
    def keygen(cls, seed=None):
        """(pk, sk): from the 32-byte seed xi (the same seed, the same keys), or from a seed
        the OS gives when seed is None."""
        pk = buffers.out(cls.PUBLIC_KEY_BYTES)
        with buffers.secret_out(cls.SECRET_KEY_BYTES) as sk:
            if seed is None:
                check(lib.mldsa_keygen(cls.param, pk, len(pk), sk, len(sk)))
            else:
                xi = buffers.fixed_in(seed, lib.MLDSA_SEED_BYTES, "seed")
                check(lib.mldsa_keygen_from_seed(cls.param, pk, len(pk), sk, len(sk), xi))
            return buffers.to_bytes(pk), buffers.to_bytes(sk)

    @classmethod
    def public_key_from_secret(cls, sk):
        """The pk of an expanded sk, after the import check (InvalidKeyError if it fails)."""
        sk_ptr, sk_len = buffers.data_in(sk, "sk")
        pk = buffers.out(cls.PUBLIC_KEY_BYTES)
        check(lib.mldsa_public_key_from_secret(cls.param, pk, len(pk), sk_ptr, sk_len))
        return buffers.to_bytes(pk)

    # ---- pure ML-DSA --------------------------------------------------------------

    @classmethod
    def sign(cls, sk, msg, ctx=b"", rnd=None):
        """ML-DSA.Sign: rnd None is hedged (fresh randomness), 32 zero bytes deterministic."""
        sk_ptr, sk_len = buffers.data_in(sk, "sk")
        msg_ptr, msg_len = buffers.data_in(msg, "msg")
        ctx_ptr, ctx_len = buffers.data_in(ctx, "ctx")
        rnd_ptr = buffers.optional_rnd(rnd)
        sig = buffers.out(cls.SIGNATURE_BYTES)
        check(lib.mldsa_sign(cls.param, sig, len(sig), msg_ptr, msg_len, ctx_ptr, ctx_len,
                             rnd_ptr, sk_ptr, sk_len))
        return buffers.to_bytes(sig)

    @classmethod
    def verify(cls, pk, msg, sig, ctx=b""):
        """ML-DSA.Verify: True or False; LengthError, ContextError for bad arguments."""
        pk_ptr, pk_len = buffers.data_in(pk, "pk")
        msg_ptr, msg_len = buffers.data_in(msg, "msg")
        sig_ptr, sig_len = buffers.data_in(sig, "sig")
        ctx_ptr, ctx_len = buffers.data_in(ctx, "ctx")
        return verified(lib.mldsa_verify(cls.param, sig_ptr, sig_len, msg_ptr, msg_len,
                                          ctx_ptr, ctx_len, pk_ptr, pk_len))

    # ---- HashML-DSA ---------------------------------------------------------------

    @classmethod
    def sign_prehash(cls, sk, digest, hash, ctx=b"", rnd=None):
        """HashML-DSA.Sign of a digest the caller computed with hash ("SHA2-512", ...)."""
        h = hash_id(hash)
        sk_ptr, sk_len = buffers.data_in(sk, "sk")
        d_ptr, d_len = buffers.data_in(digest, "digest")
        ctx_ptr, ctx_len = buffers.data_in(ctx, "ctx")
        rnd_ptr = buffers.optional_rnd(rnd)
        sig = buffers.out(cls.SIGNATURE_BYTES)
        check(lib.mldsa_sign_prehash(cls.param, sig, len(sig), d_ptr, d_len, h, ctx_ptr,
                                     ctx_len, rnd_ptr, sk_ptr, sk_len))
        return buffers.to_bytes(sig)

    @classmethod
    def verify_prehash(cls, pk, digest, sig, hash, ctx=b""):
        """HashML-DSA.Verify: True or False."""
        h = hash_id(hash)
        pk_ptr, pk_len = buffers.data_in(pk, "pk")
        d_ptr, d_len = buffers.data_in(digest, "digest")
        sig_ptr, sig_len = buffers.data_in(sig, "sig")
        ctx_ptr, ctx_len = buffers.data_in(ctx, "ctx")
        return verified(lib.mldsa_verify_prehash(cls.param, sig_ptr, sig_len, d_ptr, d_len,
                                                  h, ctx_ptr, ctx_len, pk_ptr, pk_len))

    # ---- internal interface and external mu ------------------------------------

    @classmethod
    def sign_internal(cls, sk, mprime, rnd=None):
        """ML-DSA.Sign_internal on M' as given (no domain separation added)."""
        sk_ptr, sk_len = buffers.data_in(sk, "sk")
        m_ptr, m_len = buffers.data_in(mprime, "mprime")
        rnd_ptr = buffers.optional_rnd(rnd)
        sig = buffers.out(cls.SIGNATURE_BYTES)
        check(lib.mldsa_sign_internal(cls.param, sig, len(sig), m_ptr, m_len, rnd_ptr,
                                      sk_ptr, sk_len))
        return buffers.to_bytes(sig)

    @classmethod
    def verify_internal(cls, pk, mprime, sig):
        """ML-DSA.Verify_internal on M' as given: True or False."""
        pk_ptr, pk_len = buffers.data_in(pk, "pk")
        m_ptr, m_len = buffers.data_in(mprime, "mprime")
        sig_ptr, sig_len = buffers.data_in(sig, "sig")
        return verified(lib.mldsa_verify_internal(cls.param, sig_ptr, sig_len, m_ptr, m_len,
                                                   pk_ptr, pk_len))

    @classmethod
    def compute_mu(cls, pk, msg, ctx=b""):
        """mu = SHAKE256(H(pk) || 0 || len(ctx) || ctx || msg, 64): 64 bytes."""
        pk_ptr, pk_len = buffers.data_in(pk, "pk")
        msg_ptr, msg_len = buffers.data_in(msg, "msg")
        ctx_ptr, ctx_len = buffers.data_in(ctx, "ctx")
        mu = buffers.out(lib.MLDSA_MU_BYTES)
        check(lib.mldsa_compute_mu(cls.param, mu, pk_ptr, pk_len, msg_ptr, msg_len, ctx_ptr,
                                   ctx_len))
        return buffers.to_bytes(mu)

    @classmethod
    def sign_mu(cls, sk, mu, rnd=None):
        """The signature of a 64-byte mu (external mu)."""
        sk_ptr, sk_len = buffers.data_in(sk, "sk")
        mu_ptr = buffers.fixed_in(mu, lib.MLDSA_MU_BYTES, "mu")
        rnd_ptr = buffers.optional_rnd(rnd)
        sig = buffers.out(cls.SIGNATURE_BYTES)
        check(lib.mldsa_sign_mu(cls.param, sig, len(sig), mu_ptr, rnd_ptr, sk_ptr, sk_len))
        return buffers.to_bytes(sig)

    @classmethod
    def verify_mu(cls, pk, mu, sig):
        """Verification of a signature of a 64-byte mu: True or False."""
        pk_ptr, pk_len = buffers.data_in(pk, "pk")
        mu_ptr = buffers.fixed_in(mu, lib.MLDSA_MU_BYTES, "mu")
        sig_ptr, sig_len = buffers.data_in(sig, "sig")
        return verified(lib.mldsa_verify_mu(cls.param, sig_ptr, sig_len, mu_ptr, pk_ptr,
                                             pk_len))

    # ---- keys in standard formats (RFC 9881) -----------------------------------

    @classmethod
    def public_key_to_der(cls, pk):
        """pk as a DER SubjectPublicKeyInfo."""
        return cls._encode_public(pk, lib.MLDSA_DER)

    @classmethod
    def public_key_to_pem(cls, pk):
        """pk as a PEM "PUBLIC KEY" block (str)."""
        return cls._encode_public(pk, lib.MLDSA_PEM).decode("ascii")

    @classmethod
    def public_key_from_der(cls, data):
        """The raw pk of a SubjectPublicKeyInfo of this set (DER or PEM, bytes or str)."""
        return cls._own_set(decode_public_key(data))

    public_key_from_pem = public_key_from_der

    @classmethod
    def public_key_from_certificate(cls, data):
        """The raw pk of an X.509 certificate (DER or PEM) whose key is of this set. The
        certificate's signature, dates and chain are not checked."""
        return cls._own_set(certificate_public_key(data))

    @classmethod
    def private_key_to_der(cls, sk=None, form=None, *, seed=None):
        """A PKCS#8 private key: form "seed" (needs seed), "expanded" (needs sk) or "both"
        (needs both, checked to agree). form None: "seed" when a seed is given (what
        RFC 9881 recommends), else "expanded"."""
        return cls._encode_private(sk, form, seed, lib.MLDSA_DER)

    @classmethod
    def private_key_to_pem(cls, sk=None, form=None, *, seed=None):
        """private_key_to_der as a PEM "PRIVATE KEY" block (str)."""
        return cls._encode_private(sk, form, seed, lib.MLDSA_PEM).decode("ascii")

    @classmethod
    def private_key_from_der(cls, data):
        """(sk, seed) of a PKCS#8 private key of this set (DER or PEM, bytes or str); seed
        is None when the encoding held none. The key is checked before it is returned."""
        param_set, sk, seed = decode_private_key(data)
        if param_set is not cls:
            raise EncodingError(f"a {param_set.name} key, not {cls.name}")
        return sk, seed

    private_key_from_pem = private_key_from_der

    @classmethod
    def _own_set(cls, decoded):
        param_set, key = decoded
        if param_set is not cls:
            raise EncodingError(f"a {param_set.name} key, not {cls.name}")
        return key

    @classmethod
    def _encode_public(cls, pk, fmt):
        pk_ptr, pk_len = buffers.data_in(pk, "pk")
        n = ffi.new("size_t *")
        check(lib.mldsa_public_key_encode(cls.param, fmt, ffi.NULL, 0, n, pk_ptr, pk_len))
        buf = buffers.out(n[0])
        check(lib.mldsa_public_key_encode(cls.param, fmt, buf, len(buf), n, pk_ptr, pk_len))
        return buffers.to_bytes(buf, n[0])

    @classmethod
    def _encode_private(cls, sk, form, seed, fmt):
        if form is None:
            form = "seed" if seed is not None else "expanded"
        if form not in _SK_FORMS:
            raise ValueError(f"form must be one of {', '.join(_SK_FORMS)}, not {form!r}")
        if form != "expanded" and seed is None:
            raise TypeError(f'form="{form}" needs the seed (seed=...)')
        if form != "seed" and sk is None:
            raise TypeError(f'form="{form}" needs the expanded secret key sk')
        seed_ptr = ffi.NULL if seed is None else \
            buffers.fixed_in(seed, lib.MLDSA_SEED_BYTES, "seed")
        sk_ptr, sk_len = (ffi.NULL, 0) if sk is None else buffers.data_in(sk, "sk")
        n = ffi.new("size_t *")
        check(lib.mldsa_private_key_encode(cls.param, fmt, _SK_FORMS[form], ffi.NULL, 0, n,
                                           seed_ptr, sk_ptr, sk_len))
        size = n[0]
        with buffers.secret_out(size) as buf:
            check(lib.mldsa_private_key_encode(cls.param, fmt, _SK_FORMS[form], buf, size, n,
                                               seed_ptr, sk_ptr, sk_len))
            return buffers.to_bytes(buf, n[0])

    # ---- prepared keys, streaming ----------------------------------------------

    @classmethod
    def prepare_public_key(cls, pk):
        """A PreparedPublicKey: pk's matrix and tr computed once, for many verifications."""
        return PreparedPublicKey(cls, pk)

    @classmethod
    def prepare_secret_key(cls, sk):
        """A PreparedSecretKey: sk expanded once (in C memory wiped by close()), for many
        signatures."""
        return PreparedSecretKey(cls, sk)

    @classmethod
    def signer(cls, sk, ctx=b"", rnd=None):
        """A Signer: sign a message given piece by piece (update(data), finalize())."""
        return Signer(cls, sk, ctx, rnd)

    @classmethod
    def verifier(cls, pk, sig, ctx=b""):
        """A Verifier: check sig over a message given piece by piece."""
        return Verifier(cls, pk, sig, ctx)

    @classmethod
    def verify_batch(cls, items):
        """[True/False per item] for items (pk, msg, sig) or (pk, msg, sig, ctx), checked in
        one call whose hashing shares the batched Keccak lanes."""
        return verify_batch(cls, items)


def _parameter_set(p):
    class_name = f"MLDSA{p}"
    sizes = {
        "PUBLIC_KEY_BYTES": getattr(lib, f"MLDSA{p}_PUBLIC_KEY_BYTES"),
        "SECRET_KEY_BYTES": getattr(lib, f"MLDSA{p}_SECRET_KEY_BYTES"),
        "SIGNATURE_BYTES": getattr(lib, f"MLDSA{p}_SIGNATURE_BYTES"),
    }
    doc = f"ML-DSA-{p} (FIPS 204): the calls of libmldsa for this parameter set."
    return type(class_name, (ParameterSet,),
                dict(param=p, name=f"ML-DSA-{p}", __doc__=doc, __module__="mldsa", **sizes))


MLDSA44 = _parameter_set(44)
MLDSA65 = _parameter_set(65)
MLDSA87 = _parameter_set(87)
PARAMETER_SETS = {44: MLDSA44, 65: MLDSA65, 87: MLDSA87}
