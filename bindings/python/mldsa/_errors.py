# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The exceptions of the binding: one class per MLDSA_ERR_* code, under mldsa.Error.

Bad input (a wrong length, a long context, a malformed key or encoding) raises a subclass
of both mldsa.Error and ValueError; a failure of the machine (no randomness, a failed
self-test) a subclass of both mldsa.Error and RuntimeError. A signature that does not
verify is not an exception: the verify calls return False.
"""
from ._mldsa import ffi, lib


class Error(Exception):
    """Any error the C library reported; .code is its MLDSA_ERR_* value."""

    code = None

    def __init__(self, message=None, code=None):
        if code is not None:
            self.code = code
        if message is None:
            message = ffi.string(lib.mldsa_strerror(self.code)).decode()
        super().__init__(message)


class LengthError(Error, ValueError):
    """A key, signature, seed, rnd, digest or mu of the wrong length (MLDSA_ERR_LENGTH)."""

    code = lib.MLDSA_ERR_LENGTH


class ContextError(Error, ValueError):
    """A context longer than 255 bytes (MLDSA_ERR_CONTEXT)."""

    code = lib.MLDSA_ERR_CONTEXT


class InvalidKeyError(Error, ValueError):
    """A secret key that fails the import check, or a seed and key that disagree."""

    code = lib.MLDSA_ERR_KEY


class EncodingError(Error, ValueError):
    """Malformed or unsupported DER/PEM, or a key of another parameter set."""

    code = lib.MLDSA_ERR_ENCODING


class ParameterError(Error, ValueError):
    """A parameter set or pre-hash this build does not have (MLDSA_ERR_PARAM, _HASH)."""

    code = lib.MLDSA_ERR_PARAM


class RandomError(Error, RuntimeError):
    """The operating system gave no randomness (MLDSA_ERR_RANDOM)."""

    code = lib.MLDSA_ERR_RANDOM


class SelfTestError(Error, RuntimeError):
    """A self-test failed: the library refuses to work (MLDSA_ERR_SELFTEST)."""

    code = lib.MLDSA_ERR_SELFTEST


_BY_CODE = {cls.code: cls for cls in
            (LengthError, ContextError, InvalidKeyError, EncodingError, ParameterError,
             RandomError, SelfTestError)}
_BY_CODE[lib.MLDSA_ERR_HASH] = ParameterError


def check(code):
    """Raises the exception of a C return code other than MLDSA_OK.

    Codes that no input of the caller's can cause raise a plain mldsa.Error: MLDSA_ERR_NULL
    (the binding passes no NULL where a pointer is required) and MLDSA_ERR_VERIFY from a
    signing call (a fault caught by a library built with MLDSA_SIGN_CHECK).
    """
    if code != lib.MLDSA_OK:
        raise _BY_CODE.get(code, Error)(code=code)


def verified(code):
    """The answer of a verify call: True for MLDSA_OK, False for MLDSA_ERR_VERIFY, and the
    exception of any other code (a bad argument is an error, not a failed signature)."""
    if code == lib.MLDSA_OK:
        return True
    if code == lib.MLDSA_ERR_VERIFY:
        return False
    check(code)
