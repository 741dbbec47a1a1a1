# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A 32-bit lane term (bit-vectors) as an exact integer linear expression.

Bit-vector semantics becomes linear integer arithmetic: every wrap-around, every high
half and every zero extension introduces an integer variable with its defining
equation (v = s - k 2^w, a = v 2^l + r with 0 <= r < 2^l, u = s + 2^w c with c in
{0, 1}). Products are by constants only, so the system stays linear and Z3 decides it
quickly, where bit-blasting 64-bit products (or a bit-vector remainder by q) does not
finish. From the system, for a lane term T over leaves (values already proved congruent
to a linear form, within an interval):

- congruence: T mod q as a linear form of the leaves, by substituting each variable's
  definition modulo q (a high half is (a - r) 2^-l, invertible as q is odd); what is
  left over (wrap counts k, remainders r, carries c) must sum to 0, proved by Z3;
- no wrap: T equals the integer it wraps (S, every wrap count 0), proved by Z3 where
  a wrap was possible; the congruence and bounds are then of S;
- bounds: S with each high half replaced by (a - r) / 2^l, evaluated by interval
  arithmetic (exact over independent variables), then proved by Z3 over the system.
"""
from fractions import Fraction
import math
import z3

Q = 8380417


class Fail(Exception):
    pass


def signed_range(w):
    return -(1 << (w - 1)), (1 << (w - 1)) - 1


def lin_add(*es):
    out = {}
    for e in es:
        for k, c in e.items():
            out[k] = out.get(k, 0) + c
    return {k: c for k, c in out.items() if c != 0 or k == ''}


def lin_scale(e, c):
    return {k: v * c for k, v in e.items()}


def const(c):
    return {'': c}


class Lifter:
    """One term's system. leaves: name -> (lo, hi)."""

    def __init__(self, leaves):
        self.leaves = leaves
        self.var = {}        # name -> (lo, hi) bounds, None where unbounded
        self.modq = {}       # name -> linear expression mod q (defined variables)
        self.relax = {}      # high half -> (a - r) / 2^l, for the bound candidate (other
                             # variables enter it with their own bounds)
        self.nowrap = {}     # wrap variable -> the integer it wraps
        self.cons = []
        self.memo = {}
        self.n = 0
        self.defs = []       # (kind, defined variables, expression, width) in order

    # ---- variables
    def z(self, name):
        return z3.Int(name)

    def expr(self, e):
        return z3.Sum([c * self.z(k) for k, c in e.items() if k != '']) + e.get('', 0) \
            if any(k != '' for k in e) else z3.IntVal(e.get('', 0))

    def new(self, kind, lo, hi):
        self.n += 1
        name = '%s%d' % (kind, self.n)
        self.var[name] = (lo, hi)
        v = self.z(name)
        if lo is not None:
            self.cons.append(v >= lo)
        if hi is not None:
            self.cons.append(v <= hi)
        return name

    def leaf(self, name):
        if name not in self.leaves:
            raise Fail('depends on %s, not a proved value' % name)
        if name not in self.var:
            lo, hi = self.leaves[name]
            self.var[name] = (lo, hi)
            self.cons += [self.z(name) >= lo, self.z(name) <= hi]
        return {name: 1}

    def bounds(self, e):
        lo = hi = Fraction(e.get('', 0))
        for k, c in e.items():
            if k == '':
                continue
            a, b = self.var[k]
            if a is None or b is None:
                return None, None
            lo += min(c * a, c * b)
            hi += max(c * a, c * b)
        return lo, hi

    # ---- the three kinds of defined variable
    def wrap(self, s, w):
        """the signed w-bit value of an integer s (two's complement wrap)."""
        lo, hi = self.bounds(s)
        slo, shi = signed_range(w)
        if lo is not None and slo <= lo and hi <= shi:
            return s
        v = self.new('v', slo, shi)
        k = self.new('k', None, None)
        self.cons.append(self.z(v) == self.expr(s) - (1 << w) * self.z(k))
        self.defs.append(('wrap', (v, k), s, w))
        self.modq[v] = lin_add(s, {k: -(1 << w)})
        self.nowrap[v] = s
        return {v: 1}

    def floor_div(self, a, l, w, signed=True):
        """floor(a / 2^l), a's top w bits: a is a signed (wa = l + w)-bit value, or with
        signed=False an unsigned one, and the quotient's range is that of w bits read the
        same way (an unsigned a's middle bits are never negative: capping them to the
        signed range would be a constraint that excludes inputs)."""
        lo, hi = self.bounds(a)
        slo, shi = signed_range(w) if signed else (0, (1 << w) - 1)
        if lo is not None:
            slo, shi = max(slo, math.floor(lo / (1 << l))), min(shi, math.floor(hi / (1 << l)))
        v = self.new('h', slo, shi)
        r = self.new('r', 0, (1 << l) - 1)
        self.cons.append(self.expr(a) == (1 << l) * self.z(v) + self.z(r))
        self.defs.append(('div', (v, r), a, l))
        inv = pow(1 << l, -1, Q)
        self.modq[v] = lin_scale(lin_add(a, {r: -1}), inv)
        self.relax[v] = lin_scale(lin_add(a, {r: -1}), Fraction(1, 1 << l))
        return {v: 1}

    def unsigned(self, s, w):
        lo, hi = self.bounds(s)
        if lo is not None and 0 <= lo and hi < (1 << w):
            return s
        if lo is not None and -(1 << (w - 1)) <= lo and hi < 0:
            return lin_add(s, const(1 << w))
        u = self.new('u', 0, (1 << w) - 1)
        c = self.new('c', 0, 1)
        self.cons.append(self.z(u) == self.expr(s) + (1 << w) * self.z(c))
        self.defs.append(('unsigned', (u, c), s, w))
        self.modq[u] = lin_add(s, {c: 1 << w})
        return {u: 1}

    # ---- terms
    def val(self, t):
        """the exact signed value of bit-vector term t."""
        key = t.get_id()
        if key in self.memo:
            return self.memo[key]
        r = self._val(t)
        self.memo[key] = r
        return r

    ARITH = (z3.Z3_OP_BADD, z3.Z3_OP_BSUB, z3.Z3_OP_BNEG, z3.Z3_OP_BMUL)

    def uval(self, t):
        """the exact unsigned value of t."""
        if z3.is_app(t) and t.decl().kind() in self.ARITH:
            return self.uwrap(self.arith(t), t.size())
        return self.unsigned(self.val(t), t.size())

    def uwrap(self, s, w):
        """the unsigned w-bit value of an integer s (x + 256q >= 0 read by pmuludq)."""
        lo, hi = self.bounds(s)
        if lo is not None and 0 <= lo and hi < (1 << w):
            return s
        u = self.new('u', 0, (1 << w) - 1)
        k = self.new('k', None, None)
        self.cons.append(self.z(u) == self.expr(s) - (1 << w) * self.z(k))
        self.defs.append(('uwrap', (u, k), s, w))
        self.modq[u] = lin_add(s, {k: -(1 << w)})
        self.nowrap[u] = s
        return {u: 1}

    def arith(self, t):
        """an integer congruent to t mod 2^w: the operation without its wrap."""
        k, ch = t.decl().kind(), t.children()
        if k == z3.Z3_OP_BADD:
            return lin_add(*[self.val(c) for c in ch])
        if k == z3.Z3_OP_BSUB:
            return lin_add(self.val(ch[0]), lin_scale(self.val(ch[1]), -1))
        if k == z3.Z3_OP_BNEG:
            return lin_scale(self.val(ch[0]), -1)
        cs = [c for c in ch if z3.is_bv_value(c)]
        xs = [c for c in ch if not z3.is_bv_value(c)]
        if len(xs) > 1:
            raise Fail('a product of two variables')
        m = 1
        for c in cs:
            m *= self.val(c)['']
        return lin_scale(self.val(xs[0]), m) if xs else const(m)

    def _val(self, t):
        w = t.size()
        if z3.is_bv_value(t):
            v = t.as_long()
            return const(v - (1 << w) if v >> (w - 1) else v)
        if z3.is_const(t):
            return self.leaf(str(t))
        k = t.decl().kind()
        ch = t.children()
        if k in self.ARITH:
            return self.wrap(self.arith(t), w)
        if k == z3.Z3_OP_SIGN_EXT:
            return self.val(ch[0])
        if k == z3.Z3_OP_ZERO_EXT:
            return self.uval(ch[0])
        if k == z3.Z3_OP_EXTRACT:
            hi, lo = t.params()
            wa = ch[0].size()
            if lo == 0:
                return self.wrap(self.val(ch[0]), w)
            if hi == wa - 1:
                return self.floor_div(self.val(ch[0]), lo, wa - lo)
            a = self.val(ch[0])
            alo, ahi = self.bounds(a)
            if alo is not None and -(1 << hi) <= alo and ahi < (1 << hi):
                # a fits in hi + 1 signed bits: the bits above hi copy bit hi, so the
                # field hi..lo read as signed is floor(a / 2^lo) (sqdmulh/sqrdmulh's
                # bits 62..31 of a product below 2^62 in magnitude)
                return self.floor_div(a, lo, hi + 1 - lo)
            return self.wrap(self.floor_div(self.uval(ch[0]), lo, wa - lo, signed=False), w)
        if k == z3.Z3_OP_CONCAT:
            if self.sign_bits_of(ch[:-1], ch[-1]):
                return self.val(ch[-1])         # Z3's form of a sign extension
            ch = self.merge_extracts(ch)
            if len(ch) == 1:
                return self.val(ch[0])
            e, pos = {}, 0
            for i, c in enumerate(reversed(ch)):
                part = self.val(c) if i == len(ch) - 1 else self.uval(c)
                e = lin_add(e, lin_scale(part, 1 << pos))
                pos += c.size()
            return e
        if k in (z3.Z3_OP_BASHR, z3.Z3_OP_BLSHR) and z3.is_bv_value(ch[1]):
            s = ch[1].as_long()
            if s == 0:
                return self.val(ch[0])
            if s >= w:
                raise Fail('shift by the width')
            if k == z3.Z3_OP_BASHR:
                return self.floor_div(self.val(ch[0]), s, w - s)
            return self.floor_div(self.uval(ch[0]), s, w - s, signed=False)
        if k == z3.Z3_OP_BSHL and z3.is_bv_value(ch[1]):
            return self.wrap(lin_scale(self.val(ch[0]), 1 << ch[1].as_long()), w)
        raise Fail('no linear form for %s' % t.decl().name())

    @staticmethod
    def merge_extracts(ch):
        """Concat(Extract(63, 32, P), Extract(31, 0, P)) is P: adjacent pieces of one
        term joined (a 64-bit lane the machine keeps as two dwords)."""
        out = []
        for c in ch:
            p = out[-1] if out else None
            if p is not None and z3.is_app_of(p, z3.Z3_OP_EXTRACT):
                y, (h, l) = p.arg(0), p.params()
                if z3.is_app_of(c, z3.Z3_OP_EXTRACT) and c.arg(0).eq(y) and c.params()[0] + 1 == l:
                    low = c.params()[1]
                elif l > 0 and z3.simplify(z3.Extract(l - 1, 0, y)).eq(c):
                    low = 0                     # Z3 rewrote the low piece (a narrower product)
                else:
                    low = None
                if low is not None:
                    out[-1] = y if (h, low) == (y.size() - 1, 0) else z3.Extract(h, low, y)
                    continue
            out.append(c)
        return out

    @staticmethod
    def sign_bits_of(bits, low):
        """every term of bits is the sign bit of low (Extract(s, s, Y) where low is Y
        with s its top bit, or low is Extract(s, l, Y))."""
        if z3.is_app_of(low, z3.Z3_OP_EXTRACT):
            y, s = low.arg(0), low.params()[0]
        else:
            y, s = low, low.size() - 1
        for b in bits:
            if b.size() != 1 or not z3.is_app_of(b, z3.Z3_OP_EXTRACT) or \
                    b.params()[0] != s or not b.arg(0).eq(y):
                return False
        return True

    # ---- totality
    def admits(self, point):
        """the system has a solution with the leaves at point (leaf -> integer): each
        defined variable computed from its definition (the machine's own arithmetic)
        must lie within the bounds the system gives it. None if so, else the variable."""
        return self.values(point)[0]

    def values(self, point):
        """(admits's answer, every variable's value at point)."""
        val = dict(point)

        def ev(e):
            return sum(c * val[k] for k, c in e.items() if k != '') + e.get('', 0)
        for kind, (x, y), e, p in self.defs:
            a = ev(e)
            if kind == 'div':
                val[x], val[y] = a >> p, a & ((1 << p) - 1)
            elif kind == 'wrap':
                val[x] = ((a + (1 << (p - 1))) & ((1 << p) - 1)) - (1 << (p - 1))
                val[y] = (a - val[x]) >> p
            else:
                val[x] = a & ((1 << p) - 1)
                val[y] = (val[x] - a) >> p if kind == 'unsigned' else (a - val[x]) >> p
            for v in (x, y):
                lo, hi = self.var[v]
                if (lo is not None and val[v] < lo) or (hi is not None and val[v] > hi):
                    return v, val
        return None, val

    def refuted(self, claim):
        """a corner of the leaves' box where the linear equation claim (e == 0) is false:
        a claim Z3 could only refute (or time out on) fails at once. Never a proof."""
        for pt in self.corners():
            bad, val = self.values(pt)
            if bad is None and all(k in val for k in claim if k != '') and \
                    sum(c * val[k] for k, c in claim.items() if k != '') + claim.get('', 0):
                return pt
        return None

    def corners(self):
        names = sorted(k for k in self.var if k in self.leaves)
        lo = {k: self.leaves[k][0] for k in names}
        hi = {k: self.leaves[k][1] for k in names}
        points = [lo, hi]
        for k in names:
            points += [dict(lo, **{k: hi[k]}), dict(hi, **{k: lo[k]})]
        return points

    def check_corners(self):
        """a system whose constraints exclude an input would make every claim over it
        vacuous there: the corners of the leaves' box (all low, all high, and each leaf
        alone at the other end) must each be admitted."""
        for pt in self.corners():
            bad = self.admits(pt)
            if bad:
                raise Fail('the constraints exclude the inputs %s (%s out of its bounds)'
                           % (', '.join('%s=%d' % kv for kv in sorted(pt.items())[:6]), bad))

    # ---- resolution
    def resolve(self, e, table, modulus=None):
        """substitute defined variables (table: modq or relax) until only leaves and
        free variables remain; coefficients reduced mod `modulus` if given."""
        out = {}
        stack = [(k, c) for k, c in e.items()]
        while stack:
            k, c = stack.pop()
            if k in table:
                stack += [(k2, c * c2) for k2, c2 in table[k].items()]
            else:
                out[k] = out.get(k, 0) + c
        if modulus:
            out = {k: c % modulus for k, c in out.items()}
            out = {k: c for k, c in out.items() if c or k == ''}
        return out


def centered(c):
    c %= Q
    return c - Q if c > Q // 2 else c


def close(term, leaves, prove):
    """term (32-bit) over leaves -> (coefficients {leaf: c mod q}, constant mod q, lo, hi):
    term = sum c_leaf leaf + constant (mod q) and lo <= term <= hi, for every value of the
    leaves within their bounds. prove(constraints, claim, what) raises if not valid."""
    L = Lifter(leaves)
    E = L.val(term)
    L.check_corners()
    # 1. the wraps inside (lo(x z) in Shoup's method) cancel: term = S exactly
    S = L.resolve(E, L.nowrap)
    if S != E:
        if L.refuted(lin_add(E, lin_scale(S, -1))):
            raise Fail('no wrap: false at a corner of the inputs')
        prove(L.cons, L.expr(E) == L.expr(S), 'no wrap')
    # 2. S mod q as a form of the leaves; the remainders left over sum to 0
    m = L.resolve(S, L.modq, Q)
    coef = {k: c for k, c in m.items() if k in leaves}
    rest = {k: c for k, c in m.items() if k not in leaves and k != ''}
    relax = dict(L.relax)
    if rest:
        # normalised by one coefficient, centred: the identity Z3 is to find exact
        first = min(rest)
        inv = pow(rest[first], -1, Q)
        ident = {k: centered(c * inv) for k, c in rest.items()}
        if L.refuted(ident):
            raise Fail('congruence: false at a corner of the inputs')
        prove(L.cons, L.expr(ident) == 0, 'congruence')
        # proved: first = -(the others), which the bound may use (Montgomery's two low
        # halves are equal: their difference drops out of the interval)
        relax[first] = {k: -c for k, c in ident.items() if k != first}
    # 3. bounds: S with each high half (a - r) / 2^l, by intervals, then proved
    lo, hi = L.bounds(L.resolve(S, relax))
    if lo is None:
        raise Fail('unbounded')
    lo, hi = math.ceil(lo), math.floor(hi)
    if lo < -(1 << 31) or hi >= (1 << 31):
        raise Fail('not within int32')
    if any(k != '' and k not in leaves for k in S):
        ex = L.expr(S)
        prove(L.cons, z3.And(ex >= lo, ex <= hi), 'bounds')
    # else S is a sum of leaves times constants: intervals over independent leaves are exact
    return coef, m.get('', 0) % Q, lo, hi
