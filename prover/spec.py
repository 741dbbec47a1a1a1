# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The specifications, written from FIPS 204 and src/kernels.h (not from the assembly),
as Z3 formulas on 32-bit lanes. Arithmetic that could overflow 32 bits is done on 64
(or more) bits, sign-extended. Constants are computed from q, never pasted."""
import z3

Q = 8380417
D = 13
QINV = pow(Q, -1, 1 << 32)                      # q^-1 mod 2^32
GAMMA2 = {88: (Q - 1) // 88, 32: (Q - 1) // 32}


def s64(x):
    return z3.SignExt(64 - x.size(), x) if x.size() < 64 else x


def c64(v):
    return z3.BitVecVal(v, 64)


def in_range(x, lo, hi):
    """lo <= x <= hi, x a 32-bit lane read as signed."""
    return z3.And(s64(x) >= lo, s64(x) <= hi)




# ---- element-wise: each returns (precondition, [expected outputs] or None, postcondition)
def add(a, b):
    return z3.BoolVal(True), [a + b]


def sub(a, b):
    return z3.BoolVal(True), [a - b]


def reduce32(a):
    t = s64(a + (1 << 22)) >> 23
    return s64(a) <= (1 << 31) - (1 << 22) - 1, [z3.Extract(31, 0, s64(a) - t * Q)]


def reduce32_post(out):
    return in_range(out, -6283009, 6283008)


def caddq(a):
    return z3.BoolVal(True), [z3.If(a < 0, a + Q, a)]


def shiftl(a):
    return z3.BoolVal(True), [a << D]


def power2round(a):
    """the scalar formula, for a <= 2^31 - 2^12 (arithmetic shift)."""
    hi = (a + (1 << (D - 1)) - 1) >> D
    return s64(a) <= (1 << 31) - (1 << (D - 1)), [hi, a - (hi << D)]


def power2round_fips(a, a1, a0):
    """for a in [0, q): a = a1 2^13 + a0, a0 in (-2^12, 2^12] (FIPS 204 Alg. 35)."""
    return z3.Implies(in_range(a, 0, Q - 1),
                      z3.And(s64(a1) * (1 << D) + s64(a0) == s64(a),
                             in_range(a0, -(1 << (D - 1)) + 1, 1 << (D - 1))))


def decompose_rel(g, a, a1, a0):
    """FIPS 204 Alg. 36 for a in [0, q), as the unique (a1, a0): a0 = a mod+- 2 gamma2,
    a1 = (a - a0) / (2 gamma2), except a - a0 = q - 1 -> (0, a0 - 1); that case is
    exactly a >= q - gamma2 (then a0 - 1 = a - q)."""
    g2 = GAMMA2[g]
    m = (Q - 1) // (2 * g2)
    wrap = s64(a) >= Q - g2
    normal = z3.And(in_range(a1, 0, m - 1), in_range(a0, -g2 + 1, g2),
                    s64(a1) * (2 * g2) + s64(a0) == s64(a))
    return z3.If(wrap, z3.And(a1 == 0, s64(a0) == s64(a) - Q), normal)


def make_hint_pre(g, a0, a1):
    g2 = GAMMA2[g]
    m = (Q - 1) // (2 * g2)
    return z3.And(in_range(a0, -Q + 1, Q - 1), in_range(a1, 0, m - 1))


def make_hint(g, a0, a1):
    g2 = GAMMA2[g]
    bit = z3.Or(a0 > g2, a0 < -g2, z3.And(a0 == -g2, a1 != 0))
    return z3.If(bit, z3.BitVecVal(1, 32), z3.BitVecVal(0, 32))


def use_hint(g, h, a1, a0):
    """FIPS 204 Alg. 40 given Decompose(a) = (a1, a0), h in {0, 1}."""
    g2 = GAMMA2[g]
    m = (Q - 1) // (2 * g2)
    up = z3.If(a1 == m - 1, z3.BitVecVal(0, 32), a1 + 1)
    down = z3.If(a1 == 0, z3.BitVecVal(m - 1, 32), a1 - 1)
    return z3.If(h == 1, z3.If(a0 > 0, up, down), a1)


def montgomery_reduce(p):
    """the scalar montgomery_reduce of a 64-bit p: (p - m q) >> 32, m = (int32)(p qinv)."""
    m = z3.Extract(31, 0, p) * QINV
    return z3.Extract(31, 0, (p - z3.SignExt(32, m) * Q) >> 32)


def montgomery_m(p):
    return z3.SignExt(32, z3.Extract(31, 0, p) * QINV)


def mq(P):
    """the variable the executor uses for m q, m = lo(P) qinv (machine.product), and its facts."""
    from .machine import mq_facts
    x = z3.simplify(z3.Extract(31, 0, P) * QINV)
    MQ = z3.BitVec('MQ(%s)' % x, 64)
    return MQ, mq_facts(MQ, x)


def montgomery_reduce_mq(P):
    """montgomery_reduce(P) with m q as the variable MQ: (P - MQ) >> 32, and the facts."""
    MQ, facts = mq(P)
    return z3.Extract(63, 32, P - MQ), MQ, facts
