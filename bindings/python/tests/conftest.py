# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Shared by the binding's tests: where the ACVP vectors are, and the counts they report.

The vectors are the repository's own (vectors/acvp/, the files tests/test_acvp.c reads),
so a clean clone has them; MLDSA_VECTORS names another directory of the same files.
"""
import gzip
import json
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.environ.get("MLDSA_VECTORS",
                         os.path.normpath(os.path.join(HERE, "..", "..", "..", "vectors",
                                                       "acvp")))

# "file: passed/run" per ACVP file, printed at the end of the session.
ACVP_COUNTS = {}


def load_vectors(name):
    path = os.path.join(VECTORS, name)
    if not os.path.exists(path):
        pytest.fail(f"ACVP vectors not found: {path} (set MLDSA_VECTORS)")
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def pytest_terminal_summary(terminalreporter):
    if ACVP_COUNTS:
        terminalreporter.write_line(
            "ACVP through the binding: " +
            ", ".join(f"{name} {passed}/{run}" for name, (passed, run) in
                      sorted(ACVP_COUNTS.items())))
