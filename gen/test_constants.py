"""Unit tests of the generator's arithmetic (run by make test through ctest)."""

import unittest

from . import constants as c


class Constants(unittest.TestCase):
    def test_zeta_is_primitive_512th_root(self):
        self.assertEqual(pow(c.ZETA, 512, c.Q), 1)
        self.assertEqual(pow(c.ZETA, 256, c.Q), c.Q - 1)

    def test_qinv(self):
        self.assertEqual((c.Q * c.QINV) % c.R, 1)

    def test_zetas_match_direct_exponentiation(self):
        z = c.zetas_standard()
        for k in range(256):
            self.assertEqual(z[k] % c.Q, pow(1753, c.bitrev8(k), 8380417))
        zm = c.zetas_montgomery()
        for k in range(256):
            self.assertEqual(zm[k] % c.Q, (z[k] << 32) % c.Q)
            self.assertLessEqual(abs(zm[k]), c.Q // 2)

    def test_invntt_scale(self):
        # montgomery_reduce(scale * x) = x * 2^32 / 256 mod q
        s = c.invntt_scale_montgomery()
        self.assertEqual((s * pow(2, -32, c.Q) * 256) % c.Q, pow(2, 32, c.Q))

    def test_bitrev8(self):
        self.assertEqual(c.bitrev8(1), 128)
        self.assertEqual(c.bitrev8(0b00000110), 0b01100000)


if __name__ == "__main__":
    unittest.main()
