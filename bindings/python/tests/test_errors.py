# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Bad input raises the documented exception (README.md, "Exceptions"), and a signature
that does not verify is False, never an exception."""
import pytest

import mldsa
from mldsa import MLDSA44, MLDSA65, MLDSA87

SETS = (MLDSA44, MLDSA65, MLDSA87)


@pytest.fixture(scope="module", params=SETS, ids=lambda s: s.name)
def keys(request):
    param_set = request.param
    seed = bytes(range(32))
    pk, sk = param_set.keygen(seed)
    sig = param_set.sign(sk, b"message", b"ctx", rnd=bytes(32))
    return param_set, seed, pk, sk, sig


def raises(exc, code, call, *args, **kwargs):
    """call raises exc, which is an mldsa.Error carrying the C code and a ValueError or
    RuntimeError as documented."""
    with pytest.raises(exc) as info:
        call(*args, **kwargs)
    assert isinstance(info.value, mldsa.Error)
    assert info.value.code == code
    return info.value


LENGTH, CONTEXT, KEY, ENCODING, HASH = -3, -4, -7, -9, -8


def test_exception_hierarchy():
    for exc in (mldsa.LengthError, mldsa.ContextError, mldsa.InvalidKeyError,
                mldsa.EncodingError, mldsa.ParameterError):
        assert issubclass(exc, mldsa.Error) and issubclass(exc, ValueError)
    for exc in (mldsa.RandomError, mldsa.SelfTestError):
        assert issubclass(exc, mldsa.Error) and issubclass(exc, RuntimeError)
    assert str(mldsa.ContextError()) == "context longer than 255 bytes"


def test_bad_signatures_are_false(keys):
    param_set, _, pk, _, sig = keys
    assert param_set.verify(pk, b"message", sig, b"ctx") is True
    assert param_set.verify(pk, b"message", sig) is False  # another context
    assert param_set.verify(pk, b"messagE", sig, b"ctx") is False
    for i in (0, len(sig) // 2, len(sig) - 1):
        bad = bytearray(sig)
        bad[i] ^= 1
        assert param_set.verify(pk, b"message", bad, b"ctx") is False
    other_pk, _ = param_set.keygen(bytes(32))
    assert param_set.verify(other_pk, b"message", sig, b"ctx") is False


def test_wrong_lengths(keys):
    param_set, seed, pk, sk, sig = keys
    mu = param_set.compute_mu(pk, b"message", b"ctx")
    for call, args in [
        (param_set.verify, (pk[:-1], b"m", sig)),
        (param_set.verify, (pk + b"\0", b"m", sig)),
        (param_set.verify, (pk, b"m", sig[:-1])),
        (param_set.verify, (pk, b"m", sig + b"\0")),
        (param_set.verify, (b"", b"m", b"")),
        (param_set.sign, (sk[:-1], b"m")),
        (param_set.sign, (sk, b"m", b"", bytes(31))),
        (param_set.sign, (sk, b"m", b"", bytes(33))),
        (param_set.keygen, (seed[:-1],)),
        (param_set.keygen, (seed + b"\0",)),
        (param_set.sign_mu, (sk, mu[:-1])),
        (param_set.verify_mu, (pk, mu + b"\0", sig)),
        (param_set.verify_mu, (pk, mu, sig[:-1])),
        (param_set.compute_mu, (pk[:-1], b"m")),
        (param_set.sign_prehash, (sk, bytes(31), "SHA2-256")),
        (param_set.verify_prehash, (pk, bytes(63), sig, "SHA2-512")),
        (param_set.public_key_from_secret, (sk + b"\0",)),
        (param_set.public_key_to_der, (pk[:-1],)),
        (param_set.sign_internal, (sk, b"m", bytes(1))),
        (param_set.verify_internal, (pk, b"m", sig[1:])),
        (param_set.prepare_public_key, (pk[:-1],)),
        (param_set.prepare_secret_key, (sk[:-1],)),
        (param_set.signer, (sk[:-1],)),
        (param_set.signer, (sk, b"", bytes(5))),
        (param_set.verifier, (pk[:-1], sig)),
        (param_set.verify_batch, ([(pk, b"m", sig), (pk, b"m", sig[:-1])],)),
        (param_set.prepare_secret_key(sk).sign_batch, ([b"m", (b"m", b"", bytes(31))],)),
    ]:
        raises(mldsa.LengthError, LENGTH, call, *args)


def test_long_context(keys):
    param_set, _, pk, sk, sig = keys
    long_ctx = bytes(256)
    # 255 bytes is the limit and is accepted
    assert param_set.verify(pk, b"m", param_set.sign(sk, b"m", bytes(255)), bytes(255))
    for call, args in [
        (param_set.sign, (sk, b"m", long_ctx)),
        (param_set.verify, (pk, b"m", sig, long_ctx)),
        (param_set.compute_mu, (pk, b"m", long_ctx)),
        (param_set.sign_prehash, (sk, bytes(32), "SHA2-256", long_ctx)),
        (param_set.verify_prehash, (pk, bytes(32), sig, "SHA2-256", long_ctx)),
        (param_set.signer, (sk, long_ctx)),
        (param_set.verifier, (pk, sig, long_ctx)),
        (param_set.prepare_public_key(pk).verify, (b"m", sig, long_ctx)),
        (param_set.prepare_secret_key(sk).sign, (b"m", long_ctx)),
        (param_set.verify_batch, ([(pk, b"m", sig, b""), (pk, b"m", sig, long_ctx)],)),
        (param_set.prepare_secret_key(sk).sign_batch, ([b"m", (b"m", long_ctx)],)),
    ]:
        raises(mldsa.ContextError, CONTEXT, call, *args)


def test_not_bytes(keys):
    param_set, _, pk, sk, sig = keys
    for call, args in [
        (param_set.verify, (pk, "message", sig)),
        (param_set.verify, (pk, b"m", sig, "ctx")),
        (param_set.sign, (sk, 42)),
        (param_set.keygen, ("x" * 32,)),
        (param_set.verify_batch, ([(pk, "m", sig)],)),
        (param_set.signer(sk).update, ("text",)),
    ]:
        with pytest.raises(TypeError):
            call(*args)
    with pytest.raises(TypeError):
        param_set.verify_batch([(pk, b"m")])  # too few fields
    # other bytes-like objects are taken as they are
    assert param_set.verify(bytearray(pk), memoryview(b"message"), bytearray(sig),
                            memoryview(b"ctx"))


def test_unknown_prehash(keys):
    param_set, _, pk, sk, sig = keys
    raises(mldsa.ParameterError, HASH, param_set.sign_prehash, sk, bytes(32), "MD5")
    raises(mldsa.ParameterError, HASH, param_set.verify_prehash, pk, bytes(32), sig, None)


def test_bad_secret_keys(keys):
    param_set, seed, pk, sk, _ = keys
    # s1's first byte packs coefficients eta - x; 0xff decodes outside [-eta, eta]
    bad = bytearray(sk)
    bad[128] = 0xFF
    raises(mldsa.InvalidKeyError, KEY, param_set.public_key_from_secret, bytes(bad))
    raises(mldsa.InvalidKeyError, KEY, param_set.private_key_to_der, bytes(bad))
    raises(mldsa.InvalidKeyError, KEY, param_set.prepare_secret_key, bytes(bad))
    _, other_sk = param_set.keygen(bytes(32))
    # a seed and an expanded key that disagree
    raises(mldsa.InvalidKeyError, KEY, param_set.private_key_to_pem, other_sk, "both",
           seed=seed)
    prepared = param_set.prepare_secret_key(sk)
    prepared.close()
    raises(mldsa.InvalidKeyError, KEY, prepared.sign, b"m")


def test_bad_encodings(keys):
    param_set, seed, pk, sk, _ = keys
    der = param_set.public_key_to_der(pk)
    for data in (b"", b"\x30", der[:-1], der + b"\0", b"not a key",
                 "-----BEGIN PUBLIC KEY-----\n!!\n-----END PUBLIC KEY-----\n"):
        raises(mldsa.EncodingError, ENCODING, param_set.public_key_from_der, data)
        raises(mldsa.EncodingError, ENCODING, param_set.private_key_from_pem, data)
        raises(mldsa.EncodingError, ENCODING, param_set.public_key_from_certificate, data)
    # a key of another set
    other = MLDSA87 if param_set is not MLDSA87 else MLDSA44
    other_pk, _ = other.keygen(seed)
    with pytest.raises(mldsa.EncodingError):
        param_set.public_key_from_pem(other.public_key_to_pem(other_pk))
    with pytest.raises(mldsa.EncodingError):
        param_set.private_key_from_der(other.private_key_to_der(seed=seed))
    with pytest.raises(ValueError):
        param_set.private_key_to_pem(sk, form="compressed")
    with pytest.raises(TypeError):
        param_set.private_key_to_pem(sk, form="seed")  # the seed is not in sk


def test_stream_misuse(keys):
    param_set, _, pk, sk, sig = keys
    signer = param_set.signer(sk)
    signer.finalize()
    with pytest.raises(mldsa.Error):
        signer.update(b"more")
    with pytest.raises(mldsa.Error):
        signer.finalize()
    verifier = param_set.verifier(pk, sig, b"ctx").update(b"message")
    assert verifier.finalize() is True
    with pytest.raises(mldsa.Error):
        verifier.finalize()
