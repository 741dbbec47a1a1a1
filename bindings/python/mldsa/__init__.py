# SPDX-License-Identifier: Apache-2.0 OR MIT
"""ML-DSA (FIPS 204) signatures: the Python binding of libmldsa.

    from mldsa import MLDSA65
    pk, sk = MLDSA65.keygen()
    sig = MLDSA65.sign(sk, b"message", ctx=b"")
    assert MLDSA65.verify(pk, b"message", sig)

Bytes in, bytes out; every C call runs with the GIL released. README.md (next to this
package's sources, bindings/python/) documents the API, the exceptions, threads and what
happens to secrets.
"""
from . import _buffers
from ._errors import (ContextError, EncodingError, Error, InvalidKeyError, LengthError,
                      ParameterError, RandomError, SelfTestError)
from ._errors import check as _check
from ._keys import certificate_public_key, decode_private_key, decode_public_key
from ._mldsa import ffi as _ffi
from ._mldsa import lib as _lib
from ._prepared import PreparedPublicKey, PreparedSecretKey
from ._sets import HASHES, MLDSA44, MLDSA65, MLDSA87, PARAMETER_SETS, ParameterSet
from ._stream import Signer, Verifier

__all__ = [
    "MLDSA44", "MLDSA65", "MLDSA87", "PARAMETER_SETS", "ParameterSet", "HASHES",
    "Signer", "Verifier", "PreparedPublicKey", "PreparedSecretKey",
    "decode_public_key", "decode_private_key", "certificate_public_key",
    "generate_seed", "library_version", "isa", "selftest",
    "Error", "LengthError", "ContextError", "InvalidKeyError", "EncodingError",
    "ParameterError", "RandomError", "SelfTestError",
]

__version__ = _ffi.string(_lib.mldsa_version()).decode()


def library_version():
    """The version of the C library this module is linked with ("0.3.0")."""
    return _ffi.string(_lib.mldsa_version()).decode()


def isa():
    """The arithmetic the library chose on this CPU: "scalar", "sse2", "avx2", "avx512"
    or "neon" (the environment variable MLDSA_ISA caps it)."""
    return _ffi.string(_lib.mldsa_isa()).decode()


def generate_seed():
    """32 bytes from the OS: a seed for keygen(seed), to keep as the private key (the seed
    form of RFC 9881). The C buffer is wiped; the returned bytes cannot be."""
    with _buffers.secret_out(_lib.MLDSA_SEED_BYTES) as seed:
        _check(_lib.mldsa_generate_seed(seed))
        return _buffers.to_bytes(seed)


def selftest():
    """Runs the library's known-answer tests; SelfTestError if one fails."""
    _check(_lib.mldsa_selftest())
