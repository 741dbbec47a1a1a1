# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Keys and a certificate OpenSSL 3.5 wrote (tests/data/openssl35/, the files
tests/test_pem_cert.c reads) through the binding's decoders."""
import os

import pytest

import mldsa

DATA = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                     "..", "tests", "data", "openssl35"))


def der_file(name):
    """The bytes of name.hex: '#' lines, then hex digits."""
    with open(os.path.join(DATA, name + ".hex"), encoding="ascii") as f:
        return bytes.fromhex("".join(line for line in f if not line.startswith("#")))


def test_certificate_and_keys_of_openssl():
    with open(os.path.join(DATA, "mldsa44-cert.pem"), encoding="ascii") as f:
        cert_pem = f.read()
    param_set, pk = mldsa.certificate_public_key(cert_pem)
    assert param_set is mldsa.MLDSA44 and len(pk) == mldsa.MLDSA44.PUBLIC_KEY_BYTES
    assert mldsa.MLDSA44.public_key_from_certificate(der_file("mldsa44-cert.der")) == pk
    assert mldsa.MLDSA44.public_key_from_der(der_file("mldsa44-pub.der")) == pk
    # the pre-RFC 9881 "bare" private keys: the seed, and the expanded key alone
    sk, seed = mldsa.MLDSA44.private_key_from_der(der_file("mldsa44-bare-seed.der"))
    assert seed is not None and mldsa.MLDSA44.keygen(seed) == (pk, sk)
    assert mldsa.MLDSA44.private_key_from_der(der_file("mldsa44-bare-priv.der")) == (sk, None)
    # a pkcs12 dump: bag attributes, the certificate, then the key
    with open(os.path.join(DATA, "mldsa44-pkcs12-bag.pem"), encoding="ascii") as f:
        bag = f.read()
    assert mldsa.MLDSA44.private_key_from_pem(bag)[0] == sk
    assert mldsa.certificate_public_key(bag) == (mldsa.MLDSA44, pk)
    with pytest.raises(mldsa.EncodingError):
        mldsa.certificate_public_key(der_file("ed25519-cert.der"))
