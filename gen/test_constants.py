# SPDX-License-Identifier: Apache-2.0 OR MIT
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

    def test_montgomery_twist(self):
        for x in (1, -1, 25847, c.Q // 2, -(c.Q // 2)):
            t = c.montgomery_twist(x)
            self.assertEqual((t - x * c.QINV) % c.R, 0)
            self.assertTrue(-(1 << 31) <= t < (1 << 31))

    def test_shoup_twist_bounds_the_quotient_error(self):
        # h = floor(a * twist / 2^32) must approximate floor(a * x / q) within one.
        import random
        rng = random.Random(1)
        for _ in range(2000):
            x = c.centered(rng.randrange(c.Q))
            t = c.shoup_twist(x)
            a = rng.randrange(-c.Q, c.Q)
            r = a * x - ((a * t) >> 32) * c.Q
            self.assertEqual(r % c.Q, (a * x) % c.Q)
            self.assertLess(abs(r), 2 * c.Q)

    def test_barrett_twist_centers_the_product(self):
        # sqrdmulh(a, twist) = (2 a twist + 2^31) >> 32; a x - q that is congruent to a x
        # and within q/2 + q |a| / 2^32 of zero.
        import random
        rng = random.Random(2)
        for _ in range(2000):
            x = c.centered(rng.randrange(c.Q))
            t = c.barrett_twist(x)
            self.assertLess(abs(t), 1 << 30)
            a = rng.randrange(-(1 << 31) + 1, 1 << 31)
            r = a * x - ((2 * a * t + (1 << 31)) >> 32) * c.Q
            self.assertEqual(r % c.Q, (a * x) % c.Q)
            self.assertLessEqual(abs(r), c.Q / 2 + c.Q * abs(a) / 2 ** 32)

    def test_ntt_twiddles_invert(self):
        for k in range(1, 256):
            self.assertEqual((c.ntt_twiddle(k) * c.intt_twiddle(k)) % c.Q, 1)

    def test_highbits_magic_is_exact(self):
        # HighBits by multiply-and-shift of ceil(a / 128) equals the rounding division
        # (a + gamma2 - 1) // (2 gamma2) around every interval edge of FIPS 204 Alg. 36
        for gamma2 in (c.GAMMA2_88, c.GAMMA2_32):
            mult, shift = c.highbits_magic(gamma2)
            for k in range(0, c.Q // (2 * gamma2) + 2):
                for d in (-gamma2 - 1, -gamma2, -gamma2 + 1, -1, 0, 1, gamma2 - 1, gamma2,
                          gamma2 + 1):
                    a = k * 2 * gamma2 + d
                    if not 0 <= a < c.Q:
                        continue
                    x = -(-a >> 7)
                    self.assertEqual((x * mult + (1 << (shift - 1))) >> shift,
                                     (a + gamma2 - 1) // (2 * gamma2), (gamma2, a))


class Keccak(unittest.TestCase):
    def test_round_constants(self):
        from . import keccak
        rc = keccak.round_constants()
        self.assertEqual(rc[0], 1)
        self.assertEqual(rc[1], 0x8082)
        self.assertEqual(rc[23], 0x8000000080008008)

    def test_rho_offsets(self):
        from . import keccak
        rho = keccak.rho_offsets()
        self.assertEqual(rho[0], 0)
        self.assertEqual(sorted(rho[1:]), sorted(set(rho[1:])))   # all distinct
        self.assertEqual(rho[1], 1)
        self.assertEqual(rho[24], 14)

    def test_complemented_rounds(self):
        """The lane-complemented C rounds compute Keccak-f[1600], with 5 NOTs a round."""
        import random
        from . import keccak
        rng = random.Random(1600)
        for lanes in ([0] * 25, [(1 << 64) - 1] * 25,
                      [rng.getrandbits(64) for _ in range(25)]):
            self.assertEqual(keccak.permute_complemented(lanes), keccak.permute(lanes))
        self.assertEqual(keccak.permute([0] * 25)[0], 0xF1258F7940E1DDE7)   # FIPS 202
        for src, dst in (("a", "e"), ("e", "a")):
            self.assertEqual(
                keccak.nots_per_round(keccak.round_statements_complemented(src, dst)), 5)


if __name__ == "__main__":
    unittest.main()
