# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Prepared keys: what depends on the key alone, computed once for many operations.

The C structs (66 and 84 KiB) must be 64-byte aligned, which ffi.new does not promise, so
each lives in a C buffer 63 bytes larger, at its first aligned address.
"""
from . import _buffers as buffers
from ._batch import sign_batch, verify_prepared_batch
from ._errors import check, verified
from ._mldsa import ffi, lib

_ALIGN = 64


def _aligned(ctype, size):
    raw = ffi.new("uint8_t[]", size + _ALIGN - 1)
    address = int(ffi.cast("uintptr_t", raw))
    ptr = ffi.cast(ctype + " *", raw + (-address % _ALIGN))
    return raw, ptr


def _wiper(ps):
    """The destructor of a prepared secret key's buffer (it gets the buffer, not ps)."""
    return lambda raw: lib.mldsa_secret_key_unprepare(ps)


class PreparedPublicKey:
    """A public key prepared for verification (MLDSA65.prepare_public_key(pk))."""

    def __init__(self, param_set, pk):
        self.parameter_set = param_set
        self._raw, self._pp = _aligned("mldsa_prepared_public_key",
                                       lib.MLDSA_PREPARED_PUBLIC_KEY_BYTES)
        pk_ptr, pk_len = buffers.data_in(pk, "pk")
        check(lib.mldsa_public_key_prepare(self._pp, param_set.param, pk_ptr, pk_len))

    def verify(self, msg, sig, ctx=b""):
        """As MLDSA65.verify(pk, msg, sig, ctx) under this key: True or False."""
        msg_ptr, msg_len = buffers.data_in(msg, "msg")
        sig_ptr, sig_len = buffers.data_in(sig, "sig")
        ctx_ptr, ctx_len = buffers.data_in(ctx, "ctx")
        return verified(lib.mldsa_verify_prepared(self._pp, sig_ptr, sig_len, msg_ptr,
                                                   msg_len, ctx_ptr, ctx_len))

    def verify_mu(self, mu, sig):
        """As MLDSA65.verify_mu(pk, mu, sig) under this key: True or False."""
        mu_ptr = buffers.fixed_in(mu, lib.MLDSA_MU_BYTES, "mu")
        sig_ptr, sig_len = buffers.data_in(sig, "sig")
        return verified(lib.mldsa_verify_mu_prepared(self._pp, sig_ptr, sig_len, mu_ptr))

    def verify_batch(self, items):
        """[True/False per item] for items (msg, sig) or (msg, sig, ctx) under this key."""
        return verify_prepared_batch(self, items)


class PreparedSecretKey:
    """A secret key prepared for signing (MLDSA65.prepare_secret_key(sk)). Its C memory
    holds the expanded secret: close() (or leaving a with block, or garbage collection)
    wipes it, after which the key refuses to sign (InvalidKeyError)."""

    def __init__(self, param_set, sk):
        self.parameter_set = param_set
        self._raw, self._ps = _aligned("mldsa_prepared_secret_key",
                                       lib.MLDSA_PREPARED_SECRET_KEY_BYTES)
        # wiped when the memory is freed, whether or not close() was called
        self._raw = ffi.gc(self._raw, _wiper(self._ps))
        sk_ptr, sk_len = buffers.data_in(sk, "sk")
        check(lib.mldsa_secret_key_prepare(self._ps, param_set.param, sk_ptr, sk_len))

    def sign(self, msg, ctx=b"", rnd=None):
        """As MLDSA65.sign(sk, msg, ctx, rnd) with this key."""
        msg_ptr, msg_len = buffers.data_in(msg, "msg")
        ctx_ptr, ctx_len = buffers.data_in(ctx, "ctx")
        rnd_ptr = buffers.optional_rnd(rnd)
        sig = buffers.out(self.parameter_set.SIGNATURE_BYTES)
        check(lib.mldsa_sign_prepared(self._ps, sig, len(sig), msg_ptr, msg_len, ctx_ptr,
                                      ctx_len, rnd_ptr))
        return buffers.to_bytes(sig)

    def sign_mu(self, mu, rnd=None):
        """As MLDSA65.sign_mu(sk, mu, rnd) with this key."""
        mu_ptr = buffers.fixed_in(mu, lib.MLDSA_MU_BYTES, "mu")
        rnd_ptr = buffers.optional_rnd(rnd)
        sig = buffers.out(self.parameter_set.SIGNATURE_BYTES)
        check(lib.mldsa_sign_mu_prepared(self._ps, sig, len(sig), mu_ptr, rnd_ptr))
        return buffers.to_bytes(sig)

    def sign_batch(self, items):
        """[sig per item] for items msg or (msg[, ctx[, rnd]]), made in one call whose
        hashing shares the batched Keccak lanes: the signatures sign() gives."""
        return sign_batch(self, items)

    def close(self):
        """Wipes the prepared key; signing with it afterwards raises InvalidKeyError."""
        lib.mldsa_secret_key_unprepare(self._ps)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
