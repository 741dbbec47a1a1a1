# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Signer and Verifier: pure ML-DSA of a message given piece by piece.

Both absorb the message into mu (mldsa_mu_init / _update / _final), then sign or verify
mu: the signature is the one sign(sk, whole message, ctx, rnd) gives, and any split of the
message gives the same mu. finalize() may be called once; update() after it is refused.
"""
from . import _buffers as buffers
from ._errors import Error, check
from ._mldsa import ffi, lib


class _MuStream:
    def __init__(self, param_set):
        self.parameter_set = param_set
        self._state = ffi.new("mldsa_mu_state *")
        self._done = False

    def update(self, data):
        """Absorbs the next piece of the message (any bytes-like object); returns self."""
        if self._done:
            raise Error("update() after finalize()")
        ptr, n = buffers.data_in(data, "data")
        check(lib.mldsa_mu_update(self._state, ptr, n))
        return self

    def _mu(self):
        if self._done:
            raise Error("finalize() called twice")
        self._done = True
        mu = buffers.out(lib.MLDSA_MU_BYTES)
        check(lib.mldsa_mu_final(self._state, mu))
        return buffers.to_bytes(mu)


class Signer(_MuStream):
    """Signs a streamed message: MLDSA65.signer(sk, ctx=b"", rnd=None)."""

    def __init__(self, param_set, sk, ctx=b"", rnd=None):
        super().__init__(param_set)
        sk_ptr, sk_len = buffers.data_in(sk, "sk")
        ctx_ptr, ctx_len = buffers.data_in(ctx, "ctx")
        buffers.optional_rnd(rnd)  # a wrong length is refused now, not at finalize()
        self._rnd = rnd
        check(lib.mldsa_mu_init_secret(self._state, param_set.param, sk_ptr, sk_len,
                                       ctx_ptr, ctx_len))
        self._sk = sk

    def finalize(self):
        """The signature of everything given to update()."""
        mu = self._mu()
        sk, self._sk = self._sk, None
        return self.parameter_set.sign_mu(sk, mu, self._rnd)


class Verifier(_MuStream):
    """Checks sig over a streamed message: MLDSA65.verifier(pk, sig, ctx=b"")."""

    def __init__(self, param_set, pk, sig, ctx=b""):
        super().__init__(param_set)
        pk_ptr, pk_len = buffers.data_in(pk, "pk")
        ctx_ptr, ctx_len = buffers.data_in(ctx, "ctx")
        check(lib.mldsa_mu_init(self._state, param_set.param, pk_ptr, pk_len, ctx_ptr,
                                ctx_len))
        self._pk, self._sig = pk, sig

    def finalize(self):
        """True when sig is a valid signature of everything given to update(), else False."""
        mu = self._mu()
        return self.parameter_set.verify_mu(self._pk, mu, self._sig)
