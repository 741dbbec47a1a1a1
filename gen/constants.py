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


def montgomery_twist(x: int) -> int:
    """x * q^-1 mod 2^32 as int32: precomputed low half for a Montgomery product by x."""
    return signed32(x * QINV)
