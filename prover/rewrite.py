# SPDX-License-Identifier: Apache-2.0 OR MIT
"""One exact rewrite that spares Z3 64-bit carry reasoning: the high half of a sum with
addends whose low 32 bits are zero,
    hi(x + Concat(k, 0)) = hi(x) + k,   hi(x + If(c, K1, K2)) = hi(x) + If(c, K1 >> 32, K2 >> 32)
(K1, K2 constants with zero low halves), mod 2^32: such addends cannot carry out of the
low half. SSE2 forms signed products from unsigned ones this way."""
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
