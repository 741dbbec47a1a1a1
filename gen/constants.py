# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Every arithmetic constant of ML-DSA, computed from q, zeta and the Montgomery radix.

Nothing here is pasted: the tables are functions of Q, ZETA and R, and tests in
gen/test_constants.py check them against direct modular arithmetic.
"""

Q = 8380417          # the ML-DSA modulus, 2^23 - 2^13 + 1
ZETA = 1753          # primitive 512th root of unity mod Q (FIPS 204 section 2.5)
N = 256
D = 13
R = 1 << 32          # Montgomery radix
GAMMA2_88 = (Q - 1) // 88
GAMMA2_32 = (Q - 1) // 32


def bitrev8(k: int) -> int:
    """Reverse the 8 low bits of k (FIPS 204 BitRev8)."""
    return int(f"{k:08b}"[::-1], 2)


def centered(x: int, m: int = Q) -> int:
    """The representative of x mod m in (-m/2, m/2]."""
    x %= m
    return x - m if x > m // 2 else x


def signed32(x: int) -> int:
    """x mod 2^32 as a two's-complement int32."""
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= (1 << 31) else x


QINV = pow(Q, -1, R)                 # q^-1 mod 2^32, for Montgomery reduction
MONT = centered(R)                   # 2^32 mod q: Montgomery form of 1
MONT2 = centered(R * R)              # 2^64 mod q


def zetas_standard() -> list:
    """zeta^BitRev8(k) mod q for k = 0..255: the twiddles of FIPS 204 Alg. 41 in the
    order the layers consume them (k = 1 first), centered."""
    return [centered(pow(ZETA, bitrev8(k), Q)) for k in range(N)]


def zetas_montgomery() -> list:
    """The standard twiddles in Montgomery form (times 2^32 mod q), centered, so that a
    Montgomery product with one yields the plain product by the twiddle."""
    return [centered(z * R) for z in zetas_standard()]


def invntt_scale_montgomery() -> int:
    """The final factor of the inverse NTT: 2^32 (output in Montgomery form, 'tomont')
    times 256^-1, in Montgomery form once more for the Montgomery product: 2^64/256 mod q."""
    return centered(R * R * pow(N, -1, Q))


def invntt_last_twiddle_scaled() -> int:
    """The last butterfly's twiddle of the scalar inverse NTT (-zeta^BitRev8(1), Montgomery
    form) times the final factor, in Montgomery form: one Montgomery product by it does
    the last layer's twiddle and the scaling at once."""
    return centered(-zetas_montgomery()[1] * invntt_scale_montgomery() * pow(R, -1, Q))


def montgomery_twist(x: int) -> int:
    """x * q^-1 mod 2^32 as int32: precomputed low half for a Montgomery product by x."""
    return signed32(x * QINV)


# -- constants of the elementwise kernels (reduce32, power2round, decompose, hints) --------

REDUCE32_SHIFT = Q.bit_length()      # 23: reduce32 subtracts round(a / 2^23) * q


def signed_digits(x: int) -> list:
    """x as a sum of signed powers of two with the fewest terms (non-adjacent form), as
    [(shift, +1 or -1), ...] from the highest power down: q = 2^23 - 2^13 + 2^0. A product
    t * x becomes shifts and adds where there is no 32-bit multiply (SSE2)."""
    digits, k = [], 0
    while x:
        if x & 1:
            d = 2 - (x & 3)          # +1 or -1, chosen so that the next bit becomes 0
            digits.append((k, d))
            x -= d
        x >>= 1
        k += 1
    return digits[::-1]


def two_adic(x: int) -> tuple:
    """(odd, k) with x = odd * 2^k."""
    k = (x & -x).bit_length() - 1
    return x >> k, k


HIGHBITS_BLOCK_SHIFT = (Q - 1).bit_length() - 16   # 7: ceil(a / 2^7) < 2^16 for a < q


def highbits_modulus(gamma2: int) -> int:
    """(q - 1) / (2 gamma2): the number of values of HighBits (44 or 16)."""
    assert (Q - 1) % (2 * gamma2) == 0
    return (Q - 1) // (2 * gamma2)


_HIGHBITS_MAGIC = {}


def highbits_magic(gamma2: int) -> tuple:
    """(mult, shift): the multiply-and-shift of the scalar decompose. With
    x = ceil(a / 2^HIGHBITS_BLOCK_SHIFT), (x * mult + 2^(shift-1)) >> shift is
    floor((a + gamma2 - 1) / (2 gamma2)), the HighBits of FIPS 204 Alg. 36 before the
    wrap of its last interval to 0, for every a in [0, q). The smallest shift that works,
    with mult = round(2^(shift + block) / (2 gamma2)), checked here on every block of a
    (within one block of 2^block values of a the answer is constant, because gamma2 is a
    multiple of 2^block)."""
    if gamma2 in _HIGHBITS_MAGIC:
        return _HIGHBITS_MAGIC[gamma2]
    b = HIGHBITS_BLOCK_SHIFT
    assert gamma2 % (1 << b) == 0
    xmax = -(-(Q - 1) >> b)

    def want(a):
        return (a + gamma2 - 1) // (2 * gamma2)

    for shift in range(1, 32):
        mult = round((1 << (shift + b)) / (2 * gamma2))
        if all((x * mult + (1 << (shift - 1))) >> shift
               == want(min(x << b, Q - 1)) == want(max((x << b) - (1 << b) + 1, 0))
               for x in range(xmax + 1)):
            _HIGHBITS_MAGIC[gamma2] = (mult, shift)
            return mult, shift
    raise ValueError(f"no multiply-and-shift for gamma2 = {gamma2}")


# -- constants of the NTT kernels (gen/kernels/ntt_plan.py) ---------------------------

def ntt_twiddle(k: int) -> int:
    """zeta^BitRev8(k) mod q, centered: the twiddle of the k-th butterfly block of the
    forward NTT (k = 1..255, FIPS 204 Alg. 41), as a plain (not Montgomery) factor."""
    return centered(pow(ZETA, bitrev8(k), Q))


def intt_twiddle(k: int) -> int:
    """The inverse of ntt_twiddle(k), centered: the factor of the Gentleman-Sande
    butterfly that undoes block k ((a + b, (a - b) w^-1) = 2 (a, b) for a CT butterfly
    with w; the factors 2 are divided out at the end)."""
    return centered(pow(ZETA, -bitrev8(k), Q))


def invntt_scale_plain() -> int:
    """2^32 / 256 mod q, centered: the last factor of an inverse NTT that multiplies
    plainly (no 2^-32 per product) and returns its result in Montgomery form."""
    return centered(R * pow(N, -1, Q))


def shoup_twist(x: int) -> int:
    """round(x 2^32 / q) for centered x (|x| < q/2, so the result is an int32): the
    precomputed quotient of a Shoup product by x. With h = floor(a shoup_twist(x) / 2^32),
    a x - h q is congruent to a x and lies in [0, q) up to q |a| / 2^33."""
    x = centered(x)
    return (2 * x * R + Q) // (2 * Q)


def barrett_twist(x: int) -> int:
    """round(x 2^31 / q) for centered x (|x| < q/2, so |result| < 2^30): the factor of
    the NEON product by x, t = a x - q sqrdmulh(a, barrett_twist(x)), where sqrdmulh
    gives round(a barrett_twist(x) / 2^31). t is congruent to a x and |t| <= q/2 up to
    q |a| / 2^32."""
    x = centered(x)
    return (x * (1 << 32) + Q) // (2 * Q)


def mod_q(x: int) -> int:
    """The representative of x mod q in [0, q)."""
    return x % Q


def montgomery_form_unsigned(x: int) -> int:
    """x 2^32 mod q in [0, q): a Montgomery factor for unsigned products (pmuludq)."""
    return (x * R) % Q


def montgomery_twist_unsigned(x: int) -> int:
    """x q^-1 mod 2^32 in [0, 2^32): montgomery_twist for unsigned products."""
    return (x * QINV) % R
