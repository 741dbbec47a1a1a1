# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Keys read from DER or PEM whatever their parameter set: the set comes from the OID.

Each decoder takes bytes (DER or PEM) or str (PEM) and returns the parameter-set class
(MLDSA44, MLDSA65 or MLDSA87) with the raw key, so a caller can take a key file without
knowing its set beforehand. The C decoders tell DER from PEM themselves.
"""
from . import _buffers as buffers
from ._errors import check
from ._mldsa import ffi, lib


# The classes are looked up at call time: mldsa._sets, which defines them, imports this
# module for its own decoding methods.


def _text_in(data):
    return buffers.data_in(data.encode("ascii") if isinstance(data, str) else data, "data")


def _public_key(decode, data):
    from ._sets import PARAMETER_SETS
    in_ptr, in_len = _text_in(data)
    p = ffi.new("mldsa_param *")
    n = ffi.new("size_t *")
    pk = buffers.out(lib.MLDSA87_PUBLIC_KEY_BYTES)
    check(decode(p, pk, len(pk), n, in_ptr, in_len))
    return PARAMETER_SETS[p[0]], buffers.to_bytes(pk, n[0])


def decode_public_key(data):
    """(parameter set, pk) of a SubjectPublicKeyInfo in DER or PEM."""
    return _public_key(lib.mldsa_public_key_decode, data)


def certificate_public_key(data):
    """(parameter set, pk) of an X.509 certificate's ML-DSA key (DER or PEM). Only the key
    is read: the certificate's signature, dates, names and chain are not checked."""
    return _public_key(lib.mldsa_certificate_public_key, data)


def decode_private_key(data):
    """(parameter set, sk, seed or None) of a PKCS#8 private key in DER or PEM, checked
    (a seed and expanded key that disagree raise InvalidKeyError)."""
    from ._sets import PARAMETER_SETS
    in_ptr, in_len = _text_in(data)
    p = ffi.new("mldsa_param *")
    n = ffi.new("size_t *")
    has_seed = ffi.new("int *")
    with buffers.secret_out(lib.MLDSA87_SECRET_KEY_BYTES) as sk, \
            buffers.secret_out(lib.MLDSA_SEED_BYTES) as seed:
        check(lib.mldsa_private_key_decode(p, sk, len(sk), n, seed, has_seed, in_ptr, in_len))
        return (PARAMETER_SETS[p[0]], buffers.to_bytes(sk, n[0]),
                buffers.to_bytes(seed) if has_seed[0] else None)
