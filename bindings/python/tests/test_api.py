# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What each call gives back beyond the ACVP vectors: hedged and deterministic signing,
streaming splits, batches, prepared keys, key encodings round trips, module functions."""
import hashlib

import pytest

import mldsa
from mldsa import MLDSA44, MLDSA65, MLDSA87

SETS = (MLDSA44, MLDSA65, MLDSA87)


@pytest.fixture(scope="module", params=SETS, ids=lambda s: s.name)
def keys(request):
    param_set = request.param
    seed = mldsa.generate_seed()
    pk, sk = param_set.keygen(seed)
    return param_set, seed, pk, sk


def test_sizes_and_names():
    for p, param_set in mldsa.PARAMETER_SETS.items():
        assert param_set.name == f"ML-DSA-{p}" and param_set.param == p
        pk, sk = param_set.keygen()
        assert (len(pk), len(sk)) == (param_set.PUBLIC_KEY_BYTES, param_set.SECRET_KEY_BYTES)
        assert len(param_set.sign(sk, b"")) == param_set.SIGNATURE_BYTES
    assert (MLDSA65.PUBLIC_KEY_BYTES, MLDSA65.SECRET_KEY_BYTES,
            MLDSA65.SIGNATURE_BYTES) == (1952, 4032, 3309)
    assert MLDSA65().verify is not None  # an instance works as the class does


def test_module_functions():
    assert mldsa.library_version() == mldsa.__version__
    assert mldsa.isa() in ("scalar", "sse2", "avx2", "avx512", "neon")
    mldsa.selftest()
    assert len(mldsa.generate_seed()) == 32 and mldsa.generate_seed() != mldsa.generate_seed()


def test_keygen(keys):
    param_set, seed, pk, sk = keys
    assert param_set.keygen(seed) == (pk, sk)
    assert param_set.keygen() != param_set.keygen()
    assert param_set.public_key_from_secret(sk) == pk


def test_hedged_and_deterministic(keys):
    param_set, _, pk, sk = keys
    hedged = {param_set.sign(sk, b"m") for _ in range(3)}
    assert len(hedged) == 3 and all(param_set.verify(pk, b"m", s) for s in hedged)
    zero = param_set.sign(sk, b"m", rnd=bytes(32))
    assert zero == param_set.sign(sk, b"m", rnd=bytes(32))
    assert zero == param_set.sign(sk, b"m", b"", bytes(32))
    assert zero != param_set.sign(sk, b"m", rnd=b"\1" * 32)


def test_mu_and_prehash(keys):
    param_set, _, pk, sk = keys
    mu = param_set.compute_mu(pk, b"msg", b"ctx")
    assert len(mu) == 64
    # the signature of mu is the signature of the message under its context
    assert param_set.sign_mu(sk, mu, bytes(32)) == param_set.sign(sk, b"msg", b"ctx", bytes(32))
    assert param_set.verify_mu(pk, mu, param_set.sign(sk, b"msg", b"ctx"))
    digest = hashlib.sha3_256(b"msg").digest()
    sig = param_set.sign_prehash(sk, digest, "sha3_256", b"ctx")
    assert param_set.verify_prehash(pk, digest, sig, "SHA3-256", b"ctx")
    assert not param_set.verify_prehash(pk, digest, sig, "SHA3-256")
    assert not param_set.verify(pk, b"msg", sig, b"ctx")  # HashML-DSA is not pure ML-DSA


def test_streaming_any_split(keys):
    param_set, _, pk, sk = keys
    msg = bytes(range(256)) * 40
    whole = param_set.sign(sk, msg, b"c", bytes(32))
    for cut in (0, 1, 135, 136, 137, len(msg)):
        signer = param_set.signer(sk, b"c", bytes(32))
        signer.update(msg[:cut])
        signer.update(memoryview(msg)[cut:])
        assert signer.finalize() == whole
        verifier = param_set.verifier(pk, whole, b"c")
        verifier.update(msg[:cut]).update(msg[cut:])
        assert verifier.finalize()
    assert not param_set.verifier(pk, whole, b"c").update(msg[1:]).finalize()
    hedged = mldsa.Signer(param_set, sk, b"c").update(msg).finalize()
    assert hedged != whole and mldsa.Verifier(param_set, pk, hedged, b"c").update(msg).finalize()


def test_batch(keys):
    param_set, _, pk, sk = keys
    items = [(pk, b"m%d" % i, param_set.sign(sk, b"m%d" % i, b"c"), b"c") for i in range(9)]
    items[4] = (pk, b"other", items[4][2], b"c")
    items[7] = items[7][:3]  # no context: another message than the one signed
    expected = [True] * 9
    expected[4] = expected[7] = False
    assert param_set.verify_batch(items) == expected
    assert param_set.verify_batch(iter(items)) == expected
    assert param_set.verify_batch([]) == []
    prepared = param_set.prepare_public_key(pk)
    assert prepared.verify_batch([item[1:] for item in items]) == expected


def test_prepared(keys):
    param_set, _, pk, sk = keys
    pp = param_set.prepare_public_key(pk)
    with param_set.prepare_secret_key(sk) as ps:
        sig = ps.sign(b"m", b"c", bytes(32))
        assert sig == param_set.sign(sk, b"m", b"c", bytes(32))
        assert pp.verify(b"m", sig, b"c") and not pp.verify(b"m", sig)
        mu = param_set.compute_mu(pk, b"m", b"c")
        assert ps.sign_mu(mu, bytes(32)) == sig and pp.verify_mu(mu, sig)
        zero, one = bytes(32), b"\1" * 32
        sigs = ps.sign_batch([(b"m", b"c", zero), b"m2", (b"m3", b"c3"), (b"m4", b"", one)])
        assert sigs[0] == sig and sigs[3] == param_set.sign(sk, b"m4", b"", one)
        assert pp.verify(b"m2", sigs[1]) and pp.verify(b"m3", sigs[2], b"c3")
        assert ps.sign_batch([]) == []


@pytest.mark.parametrize("form", ["seed", "expanded", "both"])
def test_private_key_round_trip(keys, form):
    param_set, seed, pk, sk = keys
    pem = param_set.private_key_to_pem(sk, form, seed=seed)
    assert pem.startswith("-----BEGIN PRIVATE KEY-----\n")
    der = param_set.private_key_to_der(sk, form, seed=seed)
    for data in (pem, pem.encode(), der):
        assert param_set.private_key_from_pem(data) == (sk, None if form == "expanded" else seed)
        assert mldsa.decode_private_key(data)[0] is param_set
    assert param_set.private_key_to_der(seed=seed) == param_set.private_key_to_der(None, "seed",
                                                                                   seed=seed)
    assert param_set.private_key_to_der(sk) == param_set.private_key_to_der(sk, "expanded")


def test_public_key_round_trip(keys):
    param_set, _, pk, _ = keys
    pem = param_set.public_key_to_pem(pk)
    der = param_set.public_key_to_der(pk)
    assert pem.startswith("-----BEGIN PUBLIC KEY-----\n") and der[0] == 0x30
    assert param_set.public_key_from_pem(pem) == param_set.public_key_from_der(der) == pk
    assert mldsa.decode_public_key(der) == (param_set, pk)
