# SPDX-License-Identifier: Apache-2.0 OR MIT
"""One exact rewrite that spares Z3 64-bit carry reasoning: the high half of a sum with
addends whose low 32 bits are zero,
    hi(x + Concat(k, 0)) = hi(x) + k,   hi(x + If(c, K1, K2)) = hi(x) + If(c, K1 >> 32, K2 >> 32)
(K1, K2 constants with zero low halves), mod 2^32: such addends cannot carry out of the
low half. SSE2 forms signed products from unsigned ones this way."""
import functools
import z3


def _hi_of_lowzero(x):
    x = z3.simplify(x)
    if z3.is_bv_value(x):
        v = x.as_long()
        return z3.BitVecVal(v >> 32, 32) if v & 0xffffffff == 0 else None
    if z3.is_app_of(x, z3.Z3_OP_CONCAT) and x.num_args() == 2 and z3.is_bv_value(x.arg(1)) \
            and x.arg(1).size() == 32 and x.arg(1).as_long() == 0:
        return x.arg(0)
    if z3.is_app_of(x, z3.Z3_OP_ITE):
        t, e = _hi_of_lowzero(x.arg(1)), _hi_of_lowzero(x.arg(2))
        if t is not None and e is not None:
            return z3.If(x.arg(0), t, e)
    return None


def hi_split(e, memo=None):
    memo = {} if memo is None else memo
    k = e.get_id()
    if k in memo:
        return memo[k]
    r = None
    if z3.is_app_of(e, z3.Z3_OP_EXTRACT) and e.params() == [63, 32] and e.arg(0).size() == 64 \
            and z3.is_app_of(e.arg(0), z3.Z3_OP_BADD):
        rest, ks = [], []
        for ch in e.arg(0).children():
            h = _hi_of_lowzero(ch)
            if h is None:
                rest.append(ch)
            else:
                ks.append(h)
        if ks:
            base = rest[0] if len(rest) == 1 else (z3.Sum(*rest) if rest else z3.BitVecVal(0, 64))
            r = z3.Extract(63, 32, hi_split(base, memo))
            for h in ks:
                r = r + h
    if r is None:
        if e.num_args() == 0:
            r = e
        else:
            pairs = [(o, hi_split(o, memo)) for o in e.children()]
            pairs = [(o, n) for o, n in pairs if not o.eq(n)]
            r = z3.substitute(e, *pairs) if pairs else e
    memo[k] = r
    return r


def hi_minus_mq(e):
    """hi(X - MQ) -> hi(X) - hi(MQ) for the Montgomery variables MQ(..), with the pairs
    (X, MQ) rewritten: exact when lo(X) = lo(MQ) (no borrow out of the low half), which the
    caller proves for each pair, with the lemma itself, before using the result. AArch64
    subtracts m q from the 64-bit sum (smlsl) and keeps the high half (uzp2); x86 takes the
    two high halves first. Only a top-level hi of a sum is rewritten."""
    pairs, e0 = [], e

    def is_neg_mq(ch):
        if z3.is_app_of(ch, z3.Z3_OP_BMUL) and ch.num_args() == 2:
            k, v = ch.arg(0), ch.arg(1)
            if z3.is_bv_value(v):
                k, v = v, k
            return v if (z3.is_bv_value(k) and k.as_long() == (1 << 64) - 1 and z3.is_const(v)
                         and v.decl().name().startswith('MQ(')) else None
        return None
    e = z3.simplify(e)
    if z3.is_app_of(e, z3.Z3_OP_EXTRACT) and e.params() == [63, 32] and e.arg(0).size() == 64 \
            and z3.is_app_of(e.arg(0), z3.Z3_OP_BADD):
        chs = e.arg(0).children()
        negs = [(i, is_neg_mq(c)) for i, c in enumerate(chs)]
        negs = [(i, v) for i, v in negs if v is not None]
        if len(negs) == 1:
            i, mq = negs[0]
            rest = [c for j, c in enumerate(chs) if j != i]
            x = rest[0] if len(rest) == 1 else z3.Sum(*rest)
            pairs.append((x, mq))
            return z3.Extract(63, 32, x) - z3.Extract(63, 32, mq), pairs
    return e0, pairs


# ------------------------------------------------------------------ checked rewriting
# The rewrites below are not trusted: each step replaces a subterm t by r where
#   t = G[v := p] and r = H[v := p]  (G, H terms over fresh variables v, p subterms of t),
# and 'G = H for every v' is a lemma Z3 proves (once per shape, G and H with canonical
# variable names). The first identity is checked syntactically (Z3 terms are
# hash-consed), so r = t follows from the lemma by instantiation; a term rebuilt from
# rewritten children equals the original by congruence. A caller proves its claim about
# the rewritten term, and with that about the original.
class CheckedRewrite:
    """collects the lemmas (what, formula) the rewrites used; the caller proves every one
    of them as an obligation of its own before (and as well as) its claims."""
    def __init__(self):
        self.lemmas = {}             # (id G, id H) -> (what, G == H)
        self.steps = 0

    def _generic(self, t, parts):
        vs = [z3.Const('v%d' % i, p.sort()) for i, p in enumerate(parts)]
        g = z3.substitute(t, *zip(parts, vs)) if parts else t
        back = z3.substitute(g, *zip(vs, parts)) if parts else g
        if not back.eq(t):
            raise ValueError('checked rewrite: the generalisation of a term does not give it back')
        return g, vs

    def apply(self, t, parts, rhs_of, what):
        """t: the subterm; parts: its subterms to generalise; rhs_of(generic parts) -> the
        rewritten term over them. Returns its instance; the lemma G = H is recorded."""
        g, vs = self._generic(t, parts)
        h = rhs_of(vs)
        key = (g.get_id(), h.get_id())
        if key not in self.lemmas:
            self.lemmas[key] = ('lemma %d: %s' % (len(self.lemmas) + 1, what), g == h)
        self.steps += 1
        return z3.substitute(h, *zip(vs, parts)) if parts else h


def _lowzero_parts(x):
    """a 64-bit addend whose low 32 bits are zero: Concat(k, 0) -> the part [k]; a
    constant -> []; If(c, K1, K2) of such -> [c] + theirs. None otherwise."""
    if z3.is_bv_value(x):
        return [] if x.as_long() & 0xffffffff == 0 else None
    if z3.is_app_of(x, z3.Z3_OP_CONCAT) and x.num_args() == 2 and z3.is_bv_value(x.arg(1)) \
            and x.arg(1).size() == 32 and x.arg(1).as_long() == 0:
        return [x.arg(0)]
    if z3.is_app_of(x, z3.Z3_OP_ITE):
        t, e = _lowzero_parts(x.arg(1)), _lowzero_parts(x.arg(2))
        if t is not None and e is not None:
            return [x.arg(0)] + t + e
    return None


def _dedup(xs):
    out, seen = [], set()
    for x in xs:
        if x.get_id() not in seen:
            seen.add(x.get_id())
            out.append(x)
    return out


def _hi(x):
    return z3.Extract(63, 32, x)


def _addends(x):
    if z3.is_app_of(x, z3.Z3_OP_BADD):
        return [a for c in x.children() for a in _addends(c)]
    return [x]


def hi_carry_free(e, cr):
    """Two checked rewrites that take the 64-bit carry reasoning out of a term (SSE2's
    pointwise_acc: unsigned products corrected in the high half, summed in 64 bits):
      halves:  Concat(hi(y + w_1 + ...), lo(y)) -> y + w_1 + ...   (every w_i low half 0)
      hi-sum:  hi(x_1 + ... + w_1 + ...) -> hi(x_1 + ...) + hi(w_1) + ...
    with the w_i of the forms Concat(k, 0), constants with a zero low half, or If(c, w, w')
    of such; generic in the x_i, y, k and c; and the sign masks (a >> 31) & b as
    If(a < 0, b, 0), the form of the correction in the product. cr: a CheckedRewrite."""
    memo = {}

    def go(x):
        k = x.get_id()
        if k in memo:
            return memo[k][1]
        if x.num_args() == 0:
            return x
        chs = x.children()
        new = [go(c) for c in chs]
        pairs = [(o, n) for o, n in zip(chs, new) if not o.eq(n)]
        y = z3.substitute(x, *pairs) if pairs else x
        r = rule(y)
        if r is not None:
            r = go(r) if not r.eq(y) else r
        memo[k] = (x, y if r is None else r)    # x kept alive: an id is unique only while it lives
        return memo[k][1]

    def leaves(x):
        if z3.is_app_of(x, z3.Z3_OP_BADD):
            return [l for c in x.children() for l in leaves(c)]
        return [x]

    def rule(x):
        # a sum of sums: flattened (the lemma is associativity, for the shape at hand)
        if z3.is_app_of(x, z3.Z3_OP_BADD) and any(z3.is_app_of(c, z3.Z3_OP_BADD) for c in x.children()):
            ls = leaves(x)
            parts = _dedup(ls)
            return cr.apply(x, parts, lambda vs: z3.simplify(z3.Sum(*[z3.substitute(l, *zip(parts, vs)) for l in ls])),
                            'associativity of + (%d addends)' % len(ls))
        for f in (halves, hi_sum, sign_mask):
            r = f(x)
            if r is not None:
                return r
        return None

    def sign_mask(x):
        # (a >> 31) & b, as Z3 writes it: ~(~(a >> 31) | ~b) -> If(a < 0, b, 0), generic in a, b
        if z3.is_app_of(x, z3.Z3_OP_BNOT) and z3.is_app_of(x.arg(0), z3.Z3_OP_BOR) and x.arg(0).num_args() == 2:
            u, w = x.arg(0).arg(0), x.arg(0).arg(1)
            for p, q in ((u, w), (w, u)):
                if z3.is_app_of(p, z3.Z3_OP_BNOT) and z3.is_app_of(q, z3.Z3_OP_BNOT) and \
                        z3.is_app_of(p.arg(0), z3.Z3_OP_BASHR) and z3.is_bv_value(p.arg(0).arg(1)) and \
                        p.arg(0).arg(1).as_long() == x.size() - 1:
                    a, b = p.arg(0).arg(0), q.arg(0)
                    parts = _dedup([a, b])
                    return cr.apply(x, parts, lambda vs: z3.simplify(z3.If(
                        z3.substitute(a, *zip(parts, vs)) < 0, z3.substitute(b, *zip(parts, vs)),
                        z3.BitVecVal(0, x.size()))), '(a >> 31) & b = If(a < 0, b, 0)')
        return None

    def halves(x):
        # Concat(hi(Y_1 + ... + Y_n) + k_1 + ..., lo(Y_1) + ... + lo(Y_n)) -> the Y_i + Concat(k_1 + ..., 0):
        # a 64-bit sum kept as its two halves (pmuludq's high half corrected, paddq's
        # low halves summed apart), generic in the Y_i and the k_j
        if not (z3.is_app_of(x, z3.Z3_OP_CONCAT) and x.num_args() == 2 and x.size() == 64
                and x.arg(1).size() == 32):
            return None
        h, l = x.arg(0), x.arg(1)
        hs = list(h.children()) if z3.is_app_of(h, z3.Z3_OP_BADD) else [h]
        his = [t for t in hs if z3.is_app_of(t, z3.Z3_OP_EXTRACT) and t.params() == [63, 32]
               and t.arg(0).size() == 64]
        if len(his) != 1:
            return None
        ks = [t for t in hs if not t.eq(his[0])]
        S = his[0].arg(0)
        ls = list(l.children()) if z3.is_app_of(l, z3.Z3_OP_BADD) else [l]
        ys = []
        for t in ls:
            if not (z3.is_app_of(t, z3.Z3_OP_EXTRACT) and t.params() == [31, 0] and t.arg(0).size() == 64):
                return None
            ys += _addends(t.arg(0))
        if sorted(y.get_id() for y in ys) != sorted(y.get_id() for y in _addends(S)):
            return None
        # the low half: lo(Y_1) + ... = lo(Y_1 + ...), generic in the Y_i
        ys = _dedup(_addends(S))
        l2 = l if l.eq(z3.Extract(31, 0, S)) else cr.apply(
            l, ys, lambda vs: z3.Extract(31, 0, z3.substitute(S, *zip(ys, vs))),
            'lo(y_1) + ... + lo(y_n) = lo(y_1 + ... + y_n) (%d addends)' % len(ys))
        if not ks:
            return cr.apply(z3.Concat(h, l2), [S], lambda vs: vs[0], 'Concat(hi(y), lo(y)) = y')
        # the high half as hi(Y) + K, K the sum of the k_j (generic in them)
        hp = _dedup(hs)
        K = functools.reduce(lambda a, b: a + b, ks)
        h2 = h if len(ks) == 1 else cr.apply(
            h, hp, lambda vs: z3.substitute(his[0] + K, *zip(hp, vs)),
            'associativity of + (%d addends)' % len(hs))
        # then the halves, generic in Y and K as wholes
        return cr.apply(z3.Concat(h2, l2), [S, K], lambda vs: vs[0] + z3.Concat(vs[1], z3.BitVecVal(0, 32)),
                        'Concat(hi(y) + k, lo(y)) = y + Concat(k, 0)')

    def hi_sum(x):
        if z3.is_app_of(x, z3.Z3_OP_EXTRACT) and x.params() == [63, 32] and x.arg(0).size() == 64 \
                and z3.is_app_of(x.arg(0), z3.Z3_OP_BADD):
            s = x.arg(0)
            chs = s.children()
            lz = [_lowzero_parts(c) for c in chs]
            peel = [i for i, p in enumerate(lz) if p is not None]
            if peel and any(not (z3.is_bv_value(chs[i]) and chs[i].as_long() == 0) for i in peel):
                add = lambda xs: functools.reduce(lambda a, b: a + b, xs)
                rest = [c for i, c in enumerate(chs) if i not in peel]
                # the addends in two groups, R (the others) + W (those with a zero low half)
                leaves = _dedup(chs)
                s2 = cr.apply(s, leaves, lambda vs: add([z3.substitute(c, *zip(leaves, vs)) for c in rest] or
                                                        [z3.BitVecVal(0, 64)])
                              + add([z3.substitute(chs[i], *zip(leaves, vs)) for i in peel]),
                              'commutativity and associativity of + (%d addends)' % len(chs))
                # hi(R + W) = hi(R) + hi(W_1) + ..., R generic as a whole
                R = s2.arg(0)
                parts = _dedup([R] + [p for i in peel for p in lz[i]])

                def rhs(vs):
                    out = _hi(vs[0])
                    for i in peel:
                        out = out + z3.simplify(_hi(z3.substitute(chs[i], *zip(parts, vs))))
                    return out
                return cr.apply(_hi(s2), parts, rhs, 'hi(x + w) = hi(x) + hi(w) for w with a zero low half')
        return None
    return go(e)


def same_sum(e, target, cr):
    """every sum in e with the addends of target (the same multiset) rewritten to target
    itself (a checked rewrite: commutativity and associativity, generic in the addends)."""
    key = sorted(a.get_id() for a in _addends(target))
    leaves = _dedup(_addends(target))
    memo = {}

    def go(x):
        k = x.get_id()
        if k in memo:
            return memo[k][1]
        if z3.is_app_of(x, z3.Z3_OP_BADD) and x.size() == target.size() and \
                sorted(a.get_id() for a in _addends(x)) == key:
            r = x if x.eq(target) else cr.apply(x, leaves, lambda vs: z3.substitute(target, *zip(leaves, vs)),
                                                'commutativity and associativity of + (%d addends)' % len(key))
        elif x.num_args() == 0:
            return x
        else:
            chs = x.children()
            new = [go(c) for c in chs]
            pairs = [(o, n) for o, n in zip(chs, new) if not o.eq(n)]
            r = z3.substitute(x, *pairs) if pairs else x
        memo[k] = (x, r)
        return r
    return go(e)
