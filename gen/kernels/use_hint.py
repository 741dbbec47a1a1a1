# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Context of templates/kernels/use_hint.S.j2: one symbol per gamma2."""

from . import gamma2_variants


def context(isa) -> dict:
    return {"variants": gamma2_variants()}
