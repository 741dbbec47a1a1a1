# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Context of templates/kernels/ntt.S.j2: the plan of gen/kernels/ntt_plan.py."""

from . import ntt_plan


def context(isa) -> dict:
    return ntt_plan.context(isa, "ntt")
