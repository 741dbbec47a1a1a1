# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The C buffers the binding allocates for secrets are wiped once their bytes are copied
out (the bytes objects returned cannot be: README.md, "Secrets")."""
import contextlib

import pytest

import mldsa
from mldsa import _buffers, MLDSA65
from mldsa._mldsa import ffi, lib


@pytest.fixture
def secret_buffers(monkeypatch):
    """Every buffer _buffers.secret_out hands out, with a copy of what it held at the end
    of its block (before the wipe)."""
    seen = []
    original = _buffers.secret_out

    @contextlib.contextmanager
    def spy(n):
        with original(n) as buf:
            try:
                yield buf
            finally:
                seen.append((buf, ffi.buffer(buf)[:]))

    monkeypatch.setattr(_buffers, "secret_out", spy)
    return seen


def assert_wiped(seen, count):
    assert len(seen) == count
    for buf, held in seen:
        assert any(held), "the buffer never held a secret: the test would prove nothing"
        assert not any(ffi.buffer(buf)[:]), "a secret was left in a C buffer"


def test_keygen_wipes_the_secret_key(secret_buffers):
    pk, sk = MLDSA65.keygen(bytes(range(32)))
    assert any(sk)
    assert_wiped(secret_buffers, 1)
    MLDSA65.keygen()
    assert_wiped(secret_buffers, 2)


def test_seed_and_encodings_wiped(secret_buffers):
    seed = mldsa.generate_seed()
    _, sk = MLDSA65.keygen(seed)
    pem = MLDSA65.private_key_to_pem(sk, "both", seed=seed)
    MLDSA65.private_key_from_pem(pem)  # the sk and the seed buffers
    assert_wiped(secret_buffers, 1 + 1 + 1 + 2)


def test_wiped_on_error(secret_buffers):
    with pytest.raises(mldsa.EncodingError):
        MLDSA65.private_key_from_der(b"\x30\x03\x02\x01\x00")
    assert len(secret_buffers) == 2
    assert all(not any(ffi.buffer(buf)[:]) for buf, _ in secret_buffers)


def test_prepared_secret_key_wiped_by_close():
    _, sk = MLDSA65.keygen(bytes(32))
    prepared = MLDSA65.prepare_secret_key(sk)
    memory = ffi.buffer(ffi.cast("uint8_t *", prepared._ps), lib.MLDSA_PREPARED_SECRET_KEY_BYTES)
    assert any(memory[:])
    prepared.close()
    assert not any(memory[:])


def test_prepared_secret_key_wiped_when_collected(monkeypatch):
    import gc
    from mldsa import _prepared

    wiped = {}  # address -> (held a key before, all zero after)
    size = lib.MLDSA_PREPARED_SECRET_KEY_BYTES

    class Spy:
        """lib, with mldsa_secret_key_unprepare recorded (the memory is freed after it)."""

        def __getattr__(self, name):
            return getattr(lib, name)

        @staticmethod
        def mldsa_secret_key_unprepare(ps):
            memory = ffi.buffer(ffi.cast("uint8_t *", ps), size)
            before = any(memory[:])
            lib.mldsa_secret_key_unprepare(ps)
            wiped[int(ffi.cast("uintptr_t", ps))] = (before, not any(memory[:]))

    monkeypatch.setattr(_prepared, "lib", Spy())
    _, sk = MLDSA65.keygen(bytes(32))
    prepared = MLDSA65.prepare_secret_key(sk)
    address = int(ffi.cast("uintptr_t", prepared._ps))
    del prepared
    gc.collect()
    assert wiped.get(address) == (True, True)
