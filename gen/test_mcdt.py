# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Unit tests of the MCDT declaration (gen/mcdt.py)."""

import unittest

from . import mcdt
from .outputs import OUT


class Mcdt(unittest.TestCase):
    def test_named_and_superset(self):
        for m in ["pmuludq", "vpmuludq", "pmuldq", "vpmulld", "vpmullw", "vpmulhw", "pmaddwd",
                  "mulsd", "vmulps", "addss", "divpd", "sqrtsd", "cvtsi2sd", "cvttsd2si",
                  "vcvtdq2ps", "vfmadd231ps", "ucomisd", "cmpltsd", "vpmadd52luq"]:
            self.assertTrue(mcdt.affected(m), m)

    def test_integer_and_moves_unaffected(self):
        for m in ["paddd", "vpaddd", "vpsubd", "vpand", "pxor", "movdqu", "vmovdqu32",
                  "vpshufd", "vpermt2d", "vpsrlq", "vpcmpgtd", "pcmpeqd", "vpblendd", "ldmxcsr",
                  "stmxcsr", "lfence", "imul", "mul", "movaps", "movups", "xorps", "andps",
                  "vpbroadcastd", "vpternlogd", "vptestmd", "kmovw"]:
            self.assertFalse(mcdt.affected(m), m)

    def test_kernels_use_an_affected_multiply(self):
        """The declaration is about this code: every SIMD ISA's Montgomery kernels run it."""
        for isa in ["sse2", "avx2", "avx512"]:
            text = (OUT / isa / "pointwise_montgomery.S").read_text()
            words = {w for line in text.splitlines() for w in line.split()[:1]}
            self.assertTrue(any(mcdt.affected(w) for w in words), isa)

    def test_mxcsr_value(self):
        self.assertEqual(mcdt.MXCSR_PROTECTED, 0x1F80 | 0x3F)
        self.assertEqual((mcdt.MCDT_NO.leaf, mcdt.MCDT_NO.subleaf, mcdt.MCDT_NO.reg,
                          mcdt.MCDT_NO.bit), (7, 2, "edx", 5))


if __name__ == "__main__":
    unittest.main()
