# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Return values that sum a per-lane quantity over all 256 lanes (make_hint's count).
A direct Z3 query (two adder trees over 512 symbolic inputs) does not finish, so:
  1. every maximal subterm of the return value that depends on one lane's inputs only is
     cut out and replaced by a fresh variable V (lane-local parts);
  2. each lane-local part L is proved equal to If(bit(lane), c1, c0) for all inputs
     satisfying the lane's precondition, c1 and c0 constants found by Z3 and then proved
     (parts with the same term after renaming the lane's inputs are proved once);
  3. the rest (the skeleton) is proved linear: skeleton = k0 + sum k_j V_j (mod 2^w),
     with the coefficients found by evaluation and the identity proved by Z3;
  4. then the return value is k0 + sum_j k_j (c0_j + [bit] (c1_j - c0_j)), and it must
     equal sum_i bit(i): checked by integer arithmetic, lane by lane.
Each step is a proof for all inputs; nothing is sampled."""
import re
import z3
from .lanes import free_vars, prove, Failure

VAR = re.compile(r'^(\w+)\[(\d+)\]$')


def _lane_sets(e, lane_of, memo, shared=()):
    stack = [(e, False)]
    while stack:
        x, done = stack.pop()
        i = x.get_id()
        if i in memo:
            continue
        if z3.is_const(x) and x.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            ln = lane_of(str(x))
            memo[i] = frozenset() if str(x) in shared else frozenset([ln if ln is not None else 'other'])
            continue
        if not done:
            stack.append((x, True))
            stack.extend((c, False) for c in x.children() if c.get_id() not in memo)
            continue
        s = frozenset()
        for c in x.children():
            s |= memo[c.get_id()]
        memo[i] = s


def cut(e, lane_of, shared=()):
    """maximal subterms that depend on one lane's inputs (and the shared scalars)."""
    memo = {}
    _lane_sets(e, lane_of, memo, shared)
    parts = {}      # id -> (V, term, lane)
    seen = set()
    stack = [e]
    while stack:
        x = stack.pop()
        i = x.get_id()
        if i in seen:
            continue
        seen.add(i)
        s = memo[i]
        if len(s) == 1 and isinstance(next(iter(s)), int) and (z3.is_bv(x) or z3.is_bool(x)):
            v = z3.BitVec('V%d' % len(parts), x.size()) if z3.is_bv(x) else z3.Bool('V%d' % len(parts))
            parts[i] = (v, x, next(iter(s)))
        elif s:
            stack.extend(x.children())
    ps = list(parts.values())
    return z3.substitute(e, *[(t, v) for v, t, _ in ps]), ps


def _canonical(t, lane, lane_vars, pre, bit):
    """a lane's part, precondition and bit with its inputs renamed X0, X1, ...; parts of
    lanes whose key is equal are the same claim (Z3 terms are hash-consed). Also the
    renaming, (input, X_j) pairs."""
    xs = lane_vars(lane)
    X = [z3.BitVec('X%d' % j, x.size()) for j, x in enumerate(xs)]
    ct = z3.substitute(t, *zip(xs, X))
    p, b = z3.substitute(pre(lane), *zip(xs, X)), z3.substitute(bit(lane), *zip(xs, X))
    return ct, p, b, (ct.get_id(), p.get_id(), b.get_id()), list(zip(xs, X))


def prove_lane_sum(ret, lane_vars, lane_of, pre, bit, width=32):
    """ret: the return term. lane_vars(i) -> the lane's input variables; pre(i), bit(i):
    the lane's precondition and 0/1 spec (a Bool). Returns a detail string; raises."""
    skel, parts = cut(z3.simplify(ret), lane_of)
    if free_vars(skel).keys() - {str(v) for v, _, _ in parts}:
        raise Failure('return value depends on something other than lane-local parts: %s' %
                      sorted(free_vars(skel).keys() - {str(v) for v, _, _ in parts})[:3])
    # 2. lane-local parts
    consts = {}
    canon_cache = {}
    for v, t, lane in parts:
        ct, p, b, key, ren = _canonical(t, lane, lane_vars, pre, bit)
        if key not in canon_cache:
            cs = []
            for want in (False, True):
                s = z3.Solver()
                s.add(p, b == want)
                if s.check() != z3.sat:
                    raise Failure('lane precondition with bit=%s unsatisfiable' % want)
                cs.append(s.model().eval(ct, model_completion=True))
            c0, c1 = cs
            prove(z3.Implies(p, ct == z3.If(b, c1, c0)), what='lane-local part of the return value')
            canon_cache[key] = (c0.as_long(), c1.as_long())
        consts[str(v)] = (v, lane, canon_cache[key])
    # 3. linearity of the skeleton
    w = skel.size()
    vs = [v for v, _, _ in parts]
    zero = [(v, z3.BitVecVal(0, v.size())) for v in vs]
    k0 = z3.simplify(z3.substitute(skel, *zero))
    if not z3.is_bv_value(k0):
        raise Failure('skeleton not constant at zero')
    lin = k0
    ks = []
    for v in vs:
        if v.size() != w:
            raise Failure('lane part of another width than the return value')
        one = [(u, z3.BitVecVal(1 if u.eq(v) else 0, u.size())) for u in vs]
        kv = z3.simplify(z3.substitute(skel, *one) - k0)
        ks.append(kv.as_long())
        lin = lin + kv * v
    prove(skel == lin, what='skeleton linear in the lane-local parts')
    # 4. arithmetic
    mod = 1 << w
    total0 = k0.as_long()
    per_lane = {}
    for v, k in zip(vs, ks):
        _, lane, (c0, c1) = consts[str(v)]
        total0 += k * c0
        per_lane[lane] = per_lane.get(lane, 0) + k * (c1 - c0)
    if total0 % mod != 0:
        raise Failure('return value is %d where no bit is set' % (total0 % mod))
    bad = [ln for ln, d in per_lane.items() if d % mod != 1]
    if bad or len(per_lane) != 256:
        raise Failure('lane %s contributes other than 1 per set bit (or lanes missing: %d)' %
                      (bad[:3], 256 - len(per_lane)))
    return '%d lane-local parts in %d classes, skeleton linear' % (len(parts), len(canon_cache))


def prove_lane_any(ret, lane_vars, lane_of, pre, bit, shared_pre, bound, skeleton_timeout_ms=None):
    """ret: a 0/1 answer = [some lane's bit]. Cut as above; each lane-local part L is
    proved either L = If(bit, c1, c0) (constants found by Z3) or bit = (L >=u bound)
    (a threshold part, for code that takes a maximum); then the skeleton, with every
    part replaced accordingly (fresh Booleans, or fresh values whose threshold test is the
    Boolean), is proved equal to If(Or(bits), 1, 0) for all of them at once."""
    skel, parts = cut(z3.simplify(ret), lane_of, shared={str(bound)})
    extra = free_vars(skel).keys() - {str(v) for v, _, _ in parts} - {str(bound)}
    if extra:
        raise Failure('answer depends on something other than lane-local parts: %s' % sorted(extra)[:3])
    subs, bits, lanes_seen, cache, ite_parts = [], {}, set(), {}, {}
    nbit = nthr = 0
    for v, t, lane in parts:
        ct, p, b, key, ren = _canonical(t, lane, lane_vars, pre, bit)
        if z3.is_bool(t):
            subs.append((v, v))
            ite_parts.setdefault(lane, []).append((v, t))
            lanes_seen.add(lane)
            nbit += 1
            continue
        if key not in cache:
            form = None
            cs = []
            for want in (False, True):
                s = z3.Solver()
                s.add(p, shared_pre, b == want)
                if s.check() == z3.sat:
                    cs.append(s.model().eval(ct, model_completion=True))
            if len(cs) == 2 and all(z3.is_bv_value(c) for c in cs):
                try:
                    prove(z3.Implies(z3.And(p, shared_pre), ct == z3.If(b, cs[1], cs[0])), timeout_ms=20000,
                          what='lane-local part')
                    form = ('bit', cs[0], cs[1])
                except Failure:
                    form = None
            sct = z3.simplify(ct)
            if form is None and z3.is_app_of(sct, z3.Z3_OP_ITE) and z3.is_bv_value(sct.arg(1)) \
                    and z3.is_bv_value(sct.arg(2)):
                form = ('ite', sct.arg(2), sct.arg(1), sct.arg(0))   # If(cond, c1, c0)
            if form is None and ct.size() == bound.size():
                prove(z3.Implies(z3.And(p, shared_pre), b == z3.UGE(ct, bound)), what='lane-local threshold part')
                form = ('thr',)
            if form is None:
                raise Failure('lane-local part of lane %d neither a 0/1 function of its bit nor a threshold' % lane)
            cache[key] = form
        form = cache[key]
        if form[0] == 'ite':
            Bp = z3.Bool('Bp%d' % len(subs))
            subs.append((v, z3.If(Bp, form[2], form[1])))
            ite_parts.setdefault(lane, []).append((Bp, z3.substitute(form[3], *[(c, x) for x, c in ren])))
            lanes_seen.add(lane)
            nbit += 1
            continue
        B = bits.setdefault(lane, z3.Bool('B%d' % lane))
        lanes_seen.add(lane)
        if form[0] == 'bit':
            subs.append((v, z3.If(B, form[2], form[1])))
            nbit += 1
        else:
            subs.append((v, v))
            nthr += 1
    # threshold parts: their Boolean is (V >=u bound); bit parts: a free Boolean
    thr_bits = {}
    for (v, t, lane), (_, s) in zip(parts, subs):
        if s is v and not z3.is_bool(v):
            thr_bits.setdefault(lane, []).append(z3.UGE(v, bound))
    lane_bit = {}
    for lane in lanes_seen:
        if lane in ite_parts:
            # the lane's bit is the OR of its parts' conditions: proved per lane
            conds = [c for _, c in ite_parts[lane]]
            prove(z3.Implies(z3.And(pre(lane), shared_pre), z3.Or(*conds) == bit(lane)),
                  what='lane %d: OR of its compare masks = its bit' % lane)
            lane_bit[lane] = z3.Or(*[B for B, _ in ite_parts[lane]])
        elif lane in thr_bits:
            if len(thr_bits[lane]) != 1:
                raise Failure('lane %d has several threshold parts' % lane)
            lane_bit[lane] = thr_bits[lane][0]
        else:
            lane_bit[lane] = bits[lane]
    mixed = [ln for ln in lanes_seen if ln in thr_bits and any(
        s is not v and lp == ln for (v, t, lp), (_, s) in zip(parts, subs))]
    if mixed or len(lanes_seen) != 256:
        raise Failure('lanes with mixed parts %s or lanes missing (%d seen)' % (mixed[:3], len(lanes_seen)))
    pairs = [(v, s) for v, s in subs if s is not v]
    sk = z3.substitute(skel, *pairs) if pairs else skel
    w = sk.size()
    want = z3.If(z3.Or(*[lane_bit[ln] for ln in sorted(lanes_seen)]), z3.BitVecVal(1, w), z3.BitVecVal(0, w))
    if nthr:
        sk = threshold_rewrite(sk)
    prove(z3.Implies(shared_pre, sk == want), what='answer skeleton', timeout_ms=skeleton_timeout_ms)
    return '%d lane-local parts (%d 0/1, %d threshold) in %d classes; skeleton = OR of the lanes' % (
        len(parts), nbit, nthr, len(cache))


def _umax_umin(e):
    """If(ULE(x, y), y, x) -> ('max', x, y); If(ULE(x, y), x, y) -> ('min', x, y)."""
    if z3.is_app_of(e, z3.Z3_OP_ITE) and z3.is_app_of(e.arg(0), z3.Z3_OP_ULEQ):
        x, y = e.arg(0).arg(0), e.arg(0).arg(1)
        t, f = e.arg(1), e.arg(2)
        if t.eq(y) and f.eq(x):
            return ('max', x, y)
        if t.eq(x) and f.eq(y):
            return ('min', x, y)
    return None


def threshold_rewrite(e, memo=None):
    """Exact rewrites of threshold tests of unsigned max/min trees into Boolean ones:
    umax(x, y) >=u t = (x >=u t) or (y >=u t), umin: and; ULE(t, M) = M >=u t;
    (umax(M, t) == M) = M >=u t. Leaves become UGE(leaf, t)."""
    memo = {} if memo is None else memo

    def thr(m, t):
        k = (m.get_id(), t.get_id())
        if k not in memo:
            mm = _umax_umin(m)
            if mm:
                a, b = thr(mm[1], t), thr(mm[2], t)
                memo[k] = z3.Or(a, b) if mm[0] == 'max' else z3.And(a, b)
            else:
                memo[k] = z3.UGE(m, t)
        return memo[k]

    def go(x):
        k = ('g', x.get_id())
        if k in memo:
            return memo[k]
        r = None
        if z3.is_app_of(x, z3.Z3_OP_ULEQ) and _umax_umin(x.arg(1)):
            r = thr(x.arg(1), x.arg(0))                       # t <=u M
        elif z3.is_app_of(x, z3.Z3_OP_EQ) and z3.is_bv(x.arg(0)):
            for a, b in ((x.arg(0), x.arg(1)), (x.arg(1), x.arg(0))):
                mm = _umax_umin(a)
                if mm and mm[0] == 'max' and (mm[1].eq(b) or mm[2].eq(b)):
                    other = mm[2] if mm[1].eq(b) else mm[1]
                    r = thr(b, other)                          # umax(M, t) == M
                    break
        if r is None:
            if x.num_args() == 0:
                r = x
            else:
                pairs = [(c, go(c)) for c in x.children()]
                pairs = [(c, n) for c, n in pairs if not c.eq(n)]
                r = z3.substitute(x, *pairs) if pairs else x
        memo[k] = r
        return r
    return go(e)
