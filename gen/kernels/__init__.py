# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Per-kernel template context: gen/kernels/<kernel>.py returns from context(isa) what
templates/kernels/<kernel>.S.j2 needs beyond `isa` and `c` (gen.constants)."""

from .. import constants as c


def gamma2_variants() -> list:
    """The two gamma2 of ML-DSA with every number the decompose, make_hint and use_hint
    templates use, derived from q and checked against the 16-bit SIMD steps that use
    them (so a change of parameters fails here, not in a test vector):

      x  = (a + 2^block - 1) >> block                 x < 2^16: one unsigned word
      f  = (x * mult) >> 16          pmulhuw          mult < 2^16
      a1 = (f + 2^(shift-17)) >> (shift-16)           SSE2 (paddd, psrld)
         = pmulhrsw(f, 2^(31-shift))                  AVX2/AVX-512: f < 2^15, shift >= 17
      a1 * 2 gamma2 = pmaddwd(a1, odd) << k           2 gamma2 = odd * 2^k,
                                                      m * odd < 2^15 (a1 <= m)
    where m = (q-1)/(2 gamma2) and a1 in [0, m] before the wrap of m to 0."""
    out = []
    for tag, gamma2 in (("g88", c.GAMMA2_88), ("g32", c.GAMMA2_32)):
        mult, shift = c.highbits_magic(gamma2)
        m = c.highbits_modulus(gamma2)
        odd, k = c.two_adic(2 * gamma2)
        block = c.HIGHBITS_BLOCK_SHIFT
        xmax = -(-(c.Q - 1) >> block)
        if not (xmax < 1 << 16 and mult < 1 << 16 and (xmax * mult) >> 16 < 1 << 15
                and 17 <= shift <= 31 and m * odd < 1 << 15):
            raise ValueError(f"{tag}: the 16-bit decompose steps do not hold")
        out.append(dict(
            tag=tag, gamma2=gamma2, m=m, mult=mult, shift=shift, odd=odd, k=k,
            block=block,
            round_add=1 << (shift - 17),     # SSE2 rounding after pmulhuw
            round_shift=shift - 16,
            mulhrs=1 << (31 - shift),        # pmulhrsw factor, same rounding
            m_pow2=(m & (m - 1)) == 0,       # wrap mod m with an and
        ))
    return out
