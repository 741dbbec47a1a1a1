# SPDX-License-Identifier: Apache-2.0 OR MIT
# The mldsa package: Python code in mldsa/ and the cffi extension mldsa._mldsa, linked
# with the library of this repository (mldsa_build.py says where it is looked for).
import os
import re
import sys

from setuptools import setup

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mldsa_build import INCLUDE_DIR  # noqa: E402  (after the path it is found on)


def header_version():
    """The package's version is the C library's, read from include/mldsa.h."""
    with open(os.path.join(INCLUDE_DIR, "mldsa.h"), encoding="utf-8") as f:
        return re.search(r'#define MLDSA_VERSION_STRING "([^"]+)"', f.read()).group(1)


setup(
    name="mldsa",
    version=header_version(),
    description="ML-DSA (FIPS 204) signatures: Python binding of libmldsa",
    license="Apache-2.0 OR MIT",
    packages=["mldsa"],
    python_requires=">=3.9",
    setup_requires=["cffi>=1.15"],
    install_requires=["cffi>=1.15"],
    cffi_modules=["mldsa_build.py:ffibuilder"],
    zip_safe=False,
)
