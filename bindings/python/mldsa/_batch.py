# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Batches: many signatures checked in one C call (mldsa_verify_batch and its prepared
form), or made in one (mldsa_sign_batch).

The C call returns a code per item; an item that does not verify is False, and any other
item error raises as a single verify would (a long context: ContextError), so that a batch
and a loop of verify() calls behave alike.
"""
from . import _buffers as buffers
from ._errors import check
from ._mldsa import ffi, lib


def _run(items, shape, call):
    """Fills mldsa_verify_item[] from tuples (the fields named by shape), runs call."""
    items = list(items)
    n = len(items)
    c_items = ffi.new("mldsa_verify_item[]", max(n, 1))
    keep = []  # the buffers the C items point to, alive until the call returns
    for i, item in enumerate(items):
        item = tuple(item)
        if len(item) == len(shape):
            item += (b"",)
        if len(item) != len(shape) + 1:
            raise TypeError(f"item {i}: expected ({', '.join(shape)}[, ctx]), "
                            f"got {len(item)} fields")
        for field, value in zip(shape + ("ctx",), item):
            ptr, length = buffers.pinned_in(value, field)
            keep.append(ptr)
            setattr(c_items[i], field, ptr if length else ffi.NULL)
            setattr(c_items[i], field + "_len", length)
    results = ffi.new("int[]", max(n, 1))
    code = call(c_items, n, results)
    if code not in (lib.MLDSA_OK, lib.MLDSA_ERR_VERIFY):
        check(code)
    verdicts = []
    for i in range(n):
        if results[i] not in (lib.MLDSA_OK, lib.MLDSA_ERR_VERIFY):
            check(results[i])
        verdicts.append(results[i] == lib.MLDSA_OK)
    return verdicts


def verify_batch(param_set, items):
    return _run(items, ("pk", "msg", "sig"),
                lambda c_items, n, results:
                lib.mldsa_verify_batch(param_set.param, c_items, n, results))


def verify_prepared_batch(prepared, items):
    return _run(items, ("msg", "sig"),
                lambda c_items, n, results:
                lib.mldsa_verify_prepared_batch(prepared._pp, c_items, n, results))


def sign_batch(prepared, items):
    """The signatures of items, each a message or a tuple (msg[, ctx[, rnd]]), under one
    prepared secret key; rnd None (hedged) unless given, as in sign()."""
    items = list(items)
    n = len(items)
    sig_bytes = prepared.parameter_set.SIGNATURE_BYTES
    c_items = ffi.new("mldsa_sign_item[]", max(n, 1))
    sigs = buffers.out(max(n, 1) * sig_bytes)
    keep = []
    for i, item in enumerate(items):
        fields = tuple(item) if isinstance(item, (tuple, list)) else (item,)
        if not 1 <= len(fields) <= 3:
            raise TypeError(f"item {i}: expected msg or (msg[, ctx[, rnd]]), "
                            f"got {len(fields)} fields")
        msg, ctx, rnd = fields + (b"", None)[len(fields) - 1:]
        for field, value in (("msg", msg), ("ctx", ctx)):
            ptr, length = buffers.pinned_in(value, field)
            keep.append(ptr)
            setattr(c_items[i], field, ptr if length else ffi.NULL)
            setattr(c_items[i], field + "_len", length)
        if rnd is not None:
            buffers.fixed_in(rnd, lib.MLDSA_RND_BYTES, "rnd")
            rnd_ptr, _ = buffers.pinned_in(rnd, "rnd")
            keep.append(rnd_ptr)
            c_items[i].rnd = rnd_ptr
        c_items[i].sig = sigs + i * sig_bytes
        c_items[i].sig_len = sig_bytes
    results = ffi.new("int[]", max(n, 1))
    check(lib.mldsa_sign_batch(prepared._ps, c_items, n, results))
    return [buffers.to_bytes(sigs + i * sig_bytes, sig_bytes) for i in range(n)]
