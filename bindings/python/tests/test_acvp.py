# SPDX-License-Identifier: Apache-2.0 OR MIT
"""NIST's ACVP vectors (keyGen, sigGen, sigGen-tr1, sigVer) through the binding.

Every test of every file runs: pure, pre-hash, internal and external-mu interfaces,
deterministic and given-rnd signing, expanded and seed keys. Each produced signature is
also verified under the public key derived from the secret key, and pure signatures are
made and checked again through Signer and Verifier with the message split in two. The
number of tests per parameter set is checked (as tests/test_acvp.c does), so a truncated
file cannot shrink the coverage unnoticed.
"""
import hashlib

import pytest

import mldsa
from conftest import ACVP_COUNTS, load_vectors

SETS = {"ML-DSA-44": mldsa.MLDSA44, "ML-DSA-65": mldsa.MLDSA65, "ML-DSA-87": mldsa.MLDSA87}

# ACVP hashAlg -> the digest of a message (SHAKE: 32 and 64 bytes, as FIPS 204 fixes).
DIGESTS = {
    "SHA2-224": lambda m: hashlib.sha224(m).digest(),
    "SHA2-256": lambda m: hashlib.sha256(m).digest(),
    "SHA2-384": lambda m: hashlib.sha384(m).digest(),
    "SHA2-512": lambda m: hashlib.sha512(m).digest(),
    "SHA2-512/224": lambda m: hashlib.new("sha512_224", m).digest(),
    "SHA2-512/256": lambda m: hashlib.new("sha512_256", m).digest(),
    "SHA3-224": lambda m: hashlib.sha3_224(m).digest(),
    "SHA3-256": lambda m: hashlib.sha3_256(m).digest(),
    "SHA3-384": lambda m: hashlib.sha3_384(m).digest(),
    "SHA3-512": lambda m: hashlib.sha3_512(m).digest(),
    "SHAKE-128": lambda m: hashlib.shake_128(m).digest(32),
    "SHAKE-256": lambda m: hashlib.shake_256(m).digest(64),
}


def h(test, field):
    return bytes.fromhex(test[field])


def check_count(name, per_set, expected):
    assert per_set == {s: expected for s in SETS}, f"{name}: tests per set {per_set}"


def record(name, failures, run):
    ACVP_COUNTS[name] = (run - len(failures), run)
    assert not failures, f"{name}: {len(failures)} of {run} failed, first: {failures[:5]}"


def test_keygen():
    data = load_vectors("ML-DSA-keyGen-FIPS204.json.gz")
    failures, per_set = [], {s: 0 for s in SETS}
    for group in data["testGroups"]:
        param_set = SETS[group["parameterSet"]]
        for test in group["tests"]:
            per_set[group["parameterSet"]] += 1
            pk, sk = param_set.keygen(h(test, "seed"))
            if (pk, sk) != (h(test, "pk"), h(test, "sk")):
                failures.append(test["tcId"])
    check_count("keyGen", per_set, 25)
    record("keyGen", failures, sum(per_set.values()))


def sign_one(param_set, group, test, sk, rnd):
    """The signature the group's interface makes, and whether it verifies under the public
    key derived from sk through the matching verify call."""
    pk = param_set.public_key_from_secret(sk)
    if group["signatureInterface"] == "internal":
        if group["externalMu"]:
            mu = h(test, "mu")
            sig = param_set.sign_mu(sk, mu, rnd)
            return sig, param_set.verify_mu(pk, mu, sig)
        mprime = h(test, "message")
        sig = param_set.sign_internal(sk, mprime, rnd)
        return sig, param_set.verify_internal(pk, mprime, sig)
    msg, ctx = h(test, "message"), h(test, "context")
    if group["preHash"] == "preHash":
        digest = DIGESTS[test["hashAlg"]](msg)
        sig = param_set.sign_prehash(sk, digest, test["hashAlg"], ctx, rnd)
        return sig, param_set.verify_prehash(pk, digest, sig, test["hashAlg"], ctx)
    sig = param_set.sign(sk, msg, ctx, rnd)
    half = len(msg) // 2
    streamed = param_set.signer(sk, ctx, rnd).update(msg[:half]).update(msg[half:]).finalize()
    verifier = param_set.verifier(pk, sig, ctx).update(msg[:half]).update(msg[half:])
    return sig, (param_set.verify(pk, msg, sig, ctx) and streamed == sig
                 and verifier.finalize())


@pytest.mark.parametrize("name, per_set_expected", [
    ("ML-DSA-sigGen-FIPS204.json.gz", 120),
    ("ML-DSA-sigGen-FIPS204-tr1.json.gz", 240),
])
def test_siggen(name, per_set_expected):
    data = load_vectors(name)
    failures, per_set = [], {s: 0 for s in SETS}
    for group in data["testGroups"]:
        param_set = SETS[group["parameterSet"]]
        for test in group["tests"]:
            per_set[group["parameterSet"]] += 1
            if group.get("keyFormat") == "seed":
                _, sk = param_set.keygen(h(test, "seed"))
            else:
                sk = h(test, "sk")
            rnd = bytes(32) if group["deterministic"] else h(test, "rnd")
            sig, verified = sign_one(param_set, group, test, sk, rnd)
            if sig != h(test, "signature") or not verified:
                failures.append(test["tcId"])
    label = "sigGen-tr1" if "tr1" in name else "sigGen"
    check_count(label, per_set, per_set_expected)
    record(label, failures, sum(per_set.values()))


def verify_one(param_set, group, test):
    pk, sig = h(test, "pk"), h(test, "signature")
    if group["signatureInterface"] == "internal":
        if group["externalMu"]:
            return param_set.verify_mu(pk, h(test, "mu"), sig)
        return param_set.verify_internal(pk, h(test, "message"), sig)
    msg, ctx = h(test, "message"), h(test, "context")
    if group["preHash"] == "preHash":
        digest = DIGESTS[test["hashAlg"]](msg)
        return param_set.verify_prehash(pk, digest, sig, test["hashAlg"], ctx)
    return param_set.verify(pk, msg, sig, ctx)


def test_sigver():
    data = load_vectors("ML-DSA-sigVer-FIPS204.json.gz")
    failures, per_set = [], {s: 0 for s in SETS}
    passed_expected = 0
    for group in data["testGroups"]:
        param_set = SETS[group["parameterSet"]]
        for test in group["tests"]:
            per_set[group["parameterSet"]] += 1
            passed_expected += test["testPassed"]
            if verify_one(param_set, group, test) is not test["testPassed"]:
                failures.append(test["tcId"])
    check_count("sigVer", per_set, 60)
    # both outcomes are exercised: 3 valid and 12 invalid signatures per group
    assert passed_expected == 36
    record("sigVer", failures, sum(per_set.values()))
