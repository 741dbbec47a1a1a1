# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Python objects in and out of C buffers.

Inputs: bytes go to C as they are (cffi passes a pointer to the object's own storage, no
copy); any other object with the buffer protocol (bytearray, memoryview, array, mmap) is
passed through ffi.from_buffer, also without a copy. str is refused: a message has no
encoding the binding could guess.

Outputs: a zeroed C buffer per call, copied into bytes. A buffer that held a secret (a
secret key, a seed, a private-key encoding) is wiped with mldsa_wipe as soon as its bytes
are copied out; the bytes object itself cannot be wiped (Python gives no way to clear
immutable memory), which README.md says.
"""
from contextlib import contextmanager

from ._errors import LengthError
from ._mldsa import ffi, lib


def data_in(obj, what):
    """A C pointer for the bytes-like obj and its length in bytes."""
    if type(obj) is bytes:
        return obj, len(obj)
    return pinned_in(obj, what)


def pinned_in(obj, what):
    """data_in as a cdata pointer, for a C struct's field (which cannot hold bytes)."""
    if isinstance(obj, str):
        raise TypeError(f"{what}: expected bytes, not str (encode it first)")
    try:
        buf = ffi.from_buffer("uint8_t[]", obj)
    except TypeError:
        raise TypeError(f"{what}: expected a bytes-like object, not "
                        f"{type(obj).__name__}") from None
    return buf, len(buf)


def fixed_in(obj, size, what):
    """data_in for an input of exactly size bytes (seed, rnd, mu): LengthError otherwise.

    The C calls take these as pointers without a length, so the length is checked here.
    """
    ptr, n = data_in(obj, what)
    if n != size:
        raise LengthError(f"{what} must be {size} bytes, not {n}")
    return ptr


def optional_rnd(rnd):
    """ffi.NULL for rnd=None (hedged signing: fresh randomness from the OS), else 32 bytes."""
    if rnd is None:
        return ffi.NULL
    return fixed_in(rnd, lib.MLDSA_RND_BYTES, "rnd")


def out(n):
    """A zeroed C buffer of n bytes."""
    return ffi.new("uint8_t[]", n)


def to_bytes(buf, n=None):
    return ffi.buffer(buf, len(buf) if n is None else n)[:]


@contextmanager
def secret_out(n):
    """A zeroed C buffer of n bytes, wiped when the block ends, whatever happens in it."""
    buf = ffi.new("uint8_t[]", n)
    try:
        yield buf
    finally:
        lib.mldsa_wipe(buf, n)
