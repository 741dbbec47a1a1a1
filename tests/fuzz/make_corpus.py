#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Seed corpora for the fuzz targets (tests/fuzz/fuzz_*.c), from the ACVP vectors.

  tests/fuzz/make_corpus.py OUT_DIR [VECTOR_DIR]

writes OUT_DIR/verify/, OUT_DIR/import/ and OUT_DIR/sign/, one file per input, in each
target's input format (see the targets' header comments): every sigVer case (valid and
invalid signatures, all interfaces), every secret key of keyGen and sigVer, and every
sigGen case that carries a secret key.
"""
import gzip
import hashlib
import json
import sys
from pathlib import Path

PARAMS = {"ML-DSA-44": 0, "ML-DSA-65": 1, "ML-DSA-87": 2}
HASHES = ["SHA2-224", "SHA2-256", "SHA2-384", "SHA2-512", "SHA2-512/224", "SHA2-512/256",
          "SHA3-224", "SHA3-256", "SHA3-384", "SHA3-512", "SHAKE-128", "SHAKE-256"]


def digest(alg: str, msg: bytes) -> bytes:
    if alg == "SHAKE-128":
        return hashlib.shake_128(msg).digest(32)
    if alg == "SHAKE-256":
        return hashlib.shake_256(msg).digest(64)
    name = {"SHA2-224": "sha224", "SHA2-256": "sha256", "SHA2-384": "sha384",
            "SHA2-512": "sha512", "SHA2-512/224": "sha512_224", "SHA2-512/256": "sha512_256",
            "SHA3-224": "sha3_224", "SHA3-256": "sha3_256", "SHA3-384": "sha3_384",
            "SHA3-512": "sha3_512"}[alg]
    return hashlib.new(name, msg).digest()


def load(vectors: Path, name: str):
    path = vectors / f"{name}.json.gz"
    if not path.exists():
        return []
    with gzip.open(path, "rt") as f:
        return json.load(f)["testGroups"]


def main() -> int:
    out = Path(sys.argv[1])
    vectors = Path(sys.argv[2]) if len(sys.argv) > 2 else \
        Path(__file__).resolve().parents[2] / "vectors" / "acvp"
    files = {"verify": {}, "import": {}, "sign": {}}

    def put(target, data: bytes):
        files[target][hashlib.sha256(data).hexdigest()[:16]] = data

    for g in load(vectors, "ML-DSA-sigVer-FIPS204"):
        p = PARAMS[g["parameterSet"]]
        for t in g["tests"]:
            pk, sig, sk = (bytes.fromhex(t[k]) for k in ("pk", "signature", "sk"))
            ctx = bytes.fromhex(t.get("context", ""))
            hash_idx = 0
            if g["signatureInterface"] == "internal":
                if g.get("externalMu"):
                    variant, rest = 2, bytes.fromhex(t["mu"])
                else:
                    variant, rest = 3, bytes.fromhex(t["message"])
            elif g["preHash"] == "preHash":
                hash_idx = HASHES.index(t["hashAlg"])
                variant, rest = 1, digest(t["hashAlg"], bytes.fromhex(t["message"]))
            else:
                variant, rest = 0, bytes.fromhex(t["message"])
            put("verify", bytes([p + 3 * variant, len(ctx), hash_idx]) + pk + sig + ctx + rest)
            put("import", bytes([p]) + sk)
    for g in load(vectors, "ML-DSA-keyGen-FIPS204"):
        for t in g["tests"]:
            put("import", bytes([PARAMS[g["parameterSet"]]]) + bytes.fromhex(t["sk"]))
    for g in load(vectors, "ML-DSA-sigGen-FIPS204"):
        p = PARAMS[g["parameterSet"]]
        for t in g["tests"]:
            if "sk" not in t or g.get("preHash") == "preHash":
                continue
            rnd = bytes.fromhex(t.get("rnd", "00" * 32))
            sk, ctx = bytes.fromhex(t["sk"]), bytes.fromhex(t.get("context", ""))
            if "mu" in t:
                variant, rest = 1, bytes.fromhex(t["mu"])
            else:
                variant, rest = 0, bytes.fromhex(t["message"])
            put("sign", bytes([p + 3 * variant, len(ctx)]) + rnd + sk + ctx + rest)
    for target, items in files.items():
        d = out / target
        d.mkdir(parents=True, exist_ok=True)
        for name, data in items.items():
            (d / f"acvp-{name}").write_bytes(data)
        print(f"make_corpus: {target}: {len(items)} seed inputs in {d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
