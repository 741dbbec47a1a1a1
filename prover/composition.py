# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The composition audit: every kernel chain of src/sign.c, step by step, each kernel's
precondition (src/kernels.h) checked against what the previous steps' contracts promise
(intervals of coefficients, exact integers), for every parameter set. It relies on the
contracts, not on one ISA's tighter measured bounds, so that it holds for every ISA.
The ntt and invntt_tomont contracts it uses are the ones ntt.py proves on every ISA.
One lemma is proved by Z3: chknorm on reduce32's output answers for the centered
representative mod q, because bound <= (q-1)/8."""
import z3

Q = 8380417
PARAMS = {44: dict(K=4, L=4, eta=2, g1=1 << 17, g2=(Q - 1) // 88, beta=78),
          65: dict(K=6, L=5, eta=4, g1=1 << 19, g2=(Q - 1) // 32, beta=196),
          87: dict(K=8, L=7, eta=2, g1=1 << 19, g2=(Q - 1) // 32, beta=120)}
R32 = (-6283009, 6283008)          # reduce32's output
INT32 = (-(1 << 31), (1 << 31) - 1)


def sym(b):
    return (-b, b)


def add(x, y):
    return (x[0] + y[0], x[1] + y[1])


def sub(x, y):
    return (x[0] - y[1], x[1] - y[0])


def within(x, lo, hi):
    return lo <= x[0] and x[1] <= hi


class Audit:
    def __init__(self):
        self.lines, self.bad = [], 0

    def need(self, chain, step, x, lo, hi, why=''):
        ok = within(x, lo, hi)
        self.bad += not ok
        self.lines.append('%-4s %-44s %-40s needs [%d, %d], has [%d, %d]%s' % (
            'ok' if ok else 'FAIL', chain, step, lo, hi, x[0], x[1], (' ' + why) if why else ''))
        return ok


def lemma_chknorm_reduce32():
    """for v in reduce32's range and 0 <= b <= (q-1)/8: |v| >= b iff |v mod+- q| >= b."""
    v, b = z3.Ints('v b')
    c = z3.If(v > (Q - 1) // 2, v - Q, z3.If(v < -(Q - 1) // 2, v + Q, v))
    absv, absc = z3.If(v < 0, -v, v), z3.If(c < 0, -c, c)
    s = z3.Solver()
    s.add(v >= R32[0], v <= R32[1], b >= 0, b <= (Q - 1) // 8, (absv >= b) != (absc >= b))
    return s.check() == z3.unsat


def audit(fixed_keygen=True):
    A = Audit()
    NTT_OUT, INV_OUT = sym(9 * Q - 1), sym(Q - 1)       # the contracts (|out| < 9q, < q)
    for p, P in PARAMS.items():
        K, L, eta, g1, g2, beta = P['K'], P['L'], P['eta'], P['g1'], P['g2'], P['beta']
        c = 'ML-DSA-%d keygen t = A s1 + s2' % p
        A.need(c, 'ntt(s1): |s1| < q', sym(eta), -Q + 1, Q - 1)
        A.need(c, 'pointwise_acc(A, s1^): |a|,|b| < 9q', NTT_OUT, -9 * Q + 1, 9 * Q - 1)
        w = sym(L * Q - 1)
        A.need(c, 'reduce32: a <= 2^31 - 2^22 - 1', w, INT32[0], (1 << 31) - (1 << 22) - 1)
        A.need(c, 'invntt_tomont: |a| < q', R32, -Q + 1, Q - 1)
        t = add(INV_OUT, sym(eta))
        if fixed_keygen:
            A.need(c, 'reduce32 after + s2', t, INT32[0], (1 << 31) - (1 << 22) - 1)
            t = R32
        A.need(c, 'caddq then power2round: caddq input in (-q, q)', t, -Q + 1, Q - 1,
               '(caddq gives [0, q) only then)')
        c = 'ML-DSA-%d sign w = A y' % p
        A.need(c, 'ntt(y): |y| < q', (-g1 + 1, g1), -Q + 1, Q - 1)
        A.need(c, 'pointwise_acc: |a|,|b| < 9q', NTT_OUT, -9 * Q + 1, 9 * Q - 1)
        A.need(c, 'reduce32', sym(L * Q - 1), INT32[0], (1 << 31) - (1 << 22) - 1)
        A.need(c, 'invntt_tomont: |a| < q', R32, -Q + 1, Q - 1)
        A.need(c, 'caddq then decompose: caddq input in (-q, q)', INV_OUT, -Q + 1, Q - 1)
        c = 'ML-DSA-%d sign z = y + c s1' % p
        A.need(c, 'ntt(c): |c| < q', (-1, 1), -Q + 1, Q - 1)
        A.need(c, 'ntt(s1): |s1| < q', sym(eta), -Q + 1, Q - 1)
        A.need(c, 'pointwise_montgomery: |a|,|b| < 9q', NTT_OUT, -9 * Q + 1, 9 * Q - 1)
        A.need(c, 'invntt_tomont: |a| < q', INV_OUT, -Q + 1, Q - 1)
        z = add(INV_OUT, (-g1 + 1, g1))
        A.need(c, 'reduce32', z, INT32[0], (1 << 31) - (1 << 22) - 1)
        A.need(c, 'chknorm bound gamma1 - beta <= (q-1)/8', (g1 - beta, g1 - beta), 0, (Q - 1) // 8)
        c = 'ML-DSA-%d sign r0 = w0 - c s2' % p
        A.need(c, 'ntt(s2), ntt(t0): |.| < q', sym(1 << 12), -Q + 1, Q - 1)
        A.need(c, 'invntt_tomont: |a| < q', INV_OUT, -Q + 1, Q - 1)
        w0 = (-g2, g2)                                 # decompose: (-g2, g2] or a - q in [-g2, -1]
        A.need(c, 'reduce32 of w0 - h', sub(w0, INV_OUT), INT32[0], (1 << 31) - (1 << 22) - 1)
        A.need(c, 'chknorm bound gamma2 - beta <= (q-1)/8', (g2 - beta, g2 - beta), 0, (Q - 1) // 8)
        c = 'ML-DSA-%d sign c t0, hint' % p
        A.need(c, 'reduce32 of invntt output', INV_OUT, INT32[0], (1 << 31) - (1 << 22) - 1)
        A.need(c, 'chknorm bound gamma2 <= (q-1)/8', (g2, g2), 0, (Q - 1) // 8)
        # after both chknorm passed: |w0| < g2 - beta, |h| < g2 (the values themselves)
        A.need(c, 'make_hint: a0 = w0 + h in (-q, q)', add(sym(g2 - beta - 1), sym(g2 - 1)), -Q + 1, Q - 1,
               '(given both chknorm passed)')
        c = 'ML-DSA-%d verify' % p
        A.need(c, 'chknorm(z): z from unpack_sig', (-g1 + 1, g1), INT32[0] + 1, INT32[1])
        A.need(c, 'ntt(z): |z| < q', (-g1 + 1, g1), -Q + 1, Q - 1)
        A.need(c, 'ntt(t1 2^13): shiftl then |.| < q', (0, ((1 << 10) - 1) << 13), -Q + 1, Q - 1)
        A.need(c, 'pointwise_montgomery(c^, t1^)', NTT_OUT, -9 * Q + 1, 9 * Q - 1)
        A.need(c, 'reduce32 of w1 - c t1 2^d', sub(sym(L * Q - 1), INV_OUT), INT32[0], (1 << 31) - (1 << 22) - 1)
        A.need(c, 'invntt_tomont: |a| < q', R32, -Q + 1, Q - 1)
        A.need(c, 'caddq then use_hint: caddq input in (-q, q)', INV_OUT, -Q + 1, Q - 1)
    ok = lemma_chknorm_reduce32()
    A.bad += not ok
    A.lines.append('%-4s lemma: chknorm(reduce32 output, b), b <= (q-1)/8, answers for the centered '
                   'representative (Z3)' % ('ok' if ok else 'FAIL'))
    return A


def main():
    before = audit(fixed_keygen=False)
    print('composition audit of src/sign.c (contracts of src/kernels.h; ntt/invntt contracts as proved above):')
    for l in audit().lines:
        print('  ' + l)
    print('  (without the reduce32 after + s2 in keygen: %d chain step(s) fail, as before the fix)'
          % before.bad)
    return 1 if audit().bad else 0
