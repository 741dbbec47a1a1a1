# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Per-kernel obligations for the element-wise kernels: how each kernel is called (which
register holds which argument), what it reads and writes, and what each lane must
satisfy (spec.py). A kernel's run yields records: (obligation, lanes, seconds, status)."""
import time
import z3
from . import spec as S
from .executor import run
from .lanes import check_structure, classes, prove, Failure
from .lanesum import prove_lane_sum, prove_lane_any, VAR
from .rewrite import hi_split, hi_minus_mq, hi_carry_free, same_sum, CheckedRewrite

N = 256


def junk_upper(name, low):
    """a 32-bit argument in a 64-bit register: the upper half is undefined (SysV)."""
    return z3.Concat(z3.BitVec('init_upper_' + name, 32), low)


class Report:
    def __init__(self, isa, kernel):
        self.isa, self.kernel = isa, kernel
        self.items = []          # (what, detail, seconds, ok, message)
        self.gaps = []           # (what, why): declared, measured, not proved
        self.t0 = time.time()

    def ok(self, what, detail, secs):
        self.items.append((what, detail, secs, True, ''))

    def fail(self, what, msg):
        self.items.append((what, '', 0.0, False, msg))

    def gap(self, what, msg):
        self.gaps.append((what, msg))

    @property
    def passed(self):
        return bool(self.items or self.gaps) and all(i[3] for i in self.items)


def lane_terms(m, outputs, inputs_of_lane, n=N):
    """per lane i: (i, Concat of the outputs' dwords, renaming of the lane's inputs)."""
    out = []
    for i in range(n):
        ts = [m.load(o, 4 * i, 4) for o in outputs]
        t = ts[0] if len(ts) == 1 else z3.Concat(*ts)
        out.append((i, z3.simplify(t), inputs_of_lane(m, i)))
    return out


# Obligations known not to finish: tried with a short timeout (so that a counterexample
# still fails the run) and reported as NOT PROVED with the reason, never as proved.
# (sse2 pointwise_acc's two were here until the checked rewrites of rewrite.py.)
GAP_TIMEOUT_MS = 5000
GAPS = {}


def lane_of(name):
    mt = VAR.match(name)
    return int(mt.group(2)) % N if mt else None


def canon(name):
    return z3.BitVec('X_' + name, 32)


def split_outputs(t, k):
    return [z3.Extract(32 * (k - 1 - j) + 31, 32 * (k - 1 - j), t) for j in range(k)]


# The argument registers are written as System V's; on AArch64 (AAPCS64) the same
# arguments arrive in x0-x3 and the result leaves in x0.
A64_ARGS = {'rdi': 'x0', 'rsi': 'x1', 'rdx': 'x2', 'rcx': 'x3', 'rax': 'x0'}


def reg(isa, r):
    return A64_ARGS[r] if isa == 'neon' else r


def execute(unit, isa, fname, args):
    if isa == 'neon':
        from . import a64
        return a64.run(unit, fname, {reg(isa, r): v for r, v in args.items()})
    return run(unit, fname, args)


def elementwise(rep, unit, fname, regs, inputs, outputs, claims, alias=(), extra=None,
                in_sizes=None, lane_inputs=None):
    """regs: register -> base (pointer arguments) or ('val', term). claims(X, outs) ->
    list of (name, formula) over the canonical lane variables X[base] and outputs."""
    t = time.time()
    args = {r: (v if isinstance(v, tuple) else ('ptr', v)) for r, v in regs.items()}
    try:
        res = execute(unit, rep.isa, fname, args)
        st = check_structure(res, outputs, inputs, alias=alias, in_sizes=in_sizes)
    except Exception as e:
        rep.fail('execute + loop structure', str(e))
        return None
    rep.ok('loop structure', 'back edges taken %s, %d instructions executed; %s written exactly '
           'once each of 256 dwords; inputs read in bounds%s' %
           (st['back_edges'], st['steps'], '/'.join(outputs) or '-',
            '; in place safe for ' + ', '.join('%s=%s' % p for p in alias) if alias else ''),
           time.time() - t)
    if not outputs:
        if extra:
            extra(res)
        return res
    X = {b: canon(b) for b in (lane_inputs[0] if lane_inputs else inputs)}
    if lane_inputs is None:
        def ren(m, i):
            return [(m.input_var(b, i), X[b]) for b in inputs]
    else:
        ren = lane_inputs[1]
    try:
        cls = classes(lane_terms(res.m, outputs, ren))
    except Failure as e:
        rep.fail('lane independence', str(e))
        return res
    for term, lanes in cls:
        outs = split_outputs(term, len(outputs))
        for name, f in claims(X, outs):
            gap = next((why for (gi, gk, gp), why in GAPS.items()
                        if gi == rep.isa and gk == rep.kernel.split('_L')[0] and name.startswith(gp)), None)
            try:
                secs = prove(f, what=name, timeout_ms=GAP_TIMEOUT_MS if gap else None)
                rep.ok(name, '%d lanes (one term class of %d)' % (len(lanes), len(cls)), secs)
            except Failure as e:
                if gap and 'unfinished' in str(e):
                    rep.gap(name, '%s; %s' % (e, gap))
                else:
                    rep.fail(name, str(e))
    if extra:
        extra(res)
    return res


def three(isa, k):
    return {'rdi': 'c', 'rsi': 'a', 'rdx': 'b'}


# ------------------------------------------------------------------------ the kernels
def k_add(unit, isa, rep, op='add'):
    f = S.add if op == 'add' else S.sub

    def claims(X, o):
        pre, (exp,) = f(X['a'], X['b'])
        return [('c = a %s b (mod 2^32), all int32 a, b' % ('+' if op == 'add' else '-'), o[0] == exp)]
    elementwise(rep, unit, 'mldsa_%s_%s' % (op, isa), three(isa, op), ['a', 'b'], ['c'], claims,
                alias=[('c', 'a'), ('c', 'b')])


def k_sub(unit, isa, rep):
    k_add(unit, isa, rep, 'sub')


def k_inplace(name, fspec, post=None, claimtxt=''):
    def k(unit, isa, rep):
        def claims(X, o):
            pre, (exp,) = fspec(X['a'])
            out = [(claimtxt, z3.Implies(pre, o[0] == exp))]
            if post:
                out.append(('output bound', z3.Implies(pre, post(o[0]))))
            return out
        elementwise(rep, unit, 'mldsa_%s_%s' % (name, isa), {'rdi': 'a'}, ['a'], ['a'], claims)
    return k


k_reduce32 = k_inplace('reduce32', S.reduce32, S.reduce32_post,
                       'a - ((a + 2^22) >> 23) q, for a <= 2^31 - 2^22 - 1')
k_caddq = k_inplace('caddq', S.caddq, None, 'a + q if a < 0 else a, all int32 a')
k_shiftl = k_inplace('shiftl', S.shiftl, None, '(uint32)a << 13, all int32 a')


def k_power2round(unit, isa, rep):
    def claims(X, o):
        a = X['a']
        pre, (h, l) = S.power2round(a)
        return [('a1, a0 = scalar formula, a <= 2^31 - 2^12', z3.Implies(pre, z3.And(o[0] == h, o[1] == l))),
                ('FIPS 204 Power2Round for a in [0, q): a = a1 2^13 + a0, a0 in (-2^12, 2^12]',
                 S.power2round_fips(a, o[0], o[1]))]
    elementwise(rep, unit, 'mldsa_power2round_%s' % isa, {'rdi': 'a1', 'rsi': 'a0', 'rdx': 'a'},
                ['a'], ['a1', 'a0'], claims, alias=[('a1', 'a'), ('a0', 'a')])


def k_decompose(g):
    def k(unit, isa, rep):
        def claims(X, o):
            a = X['a']
            return [('FIPS 204 Decompose (Alg. 36), a in [0, q)',
                     z3.Implies(S.in_range(a, 0, S.Q - 1), S.decompose_rel(g, a, o[0], o[1])))]
        elementwise(rep, unit, 'mldsa_decompose_g%d_%s' % (g, isa), {'rdi': 'a1', 'rsi': 'a0', 'rdx': 'a'},
                    ['a'], ['a1', 'a0'], claims, alias=[('a1', 'a'), ('a0', 'a')])
    return k


def k_make_hint(g):
    def k(unit, isa, rep):
        def claims(X, o):
            a0, a1 = X['a0'], X['a1']
            return [('h = MakeHint condition of kernels.h, a0 in (-q, q), a1 in [0, m)',
                     z3.Implies(S.make_hint_pre(g, a0, a1), o[0] == S.make_hint(g, a0, a1)))]

        def count(res):
            m = res.m
            rax = m.rd_gpr(reg(isa, 'rax'))
            t = time.time()
            try:
                if not z3.simplify(z3.Extract(63, 32, rax)).eq(z3.BitVecVal(0, 32)):
                    raise Failure('upper half of %rax not zero')
                d = prove_lane_sum(
                    z3.Extract(31, 0, rax),
                    lambda i: [m.input_var('a0', i), m.input_var('a1', i)], lane_of,
                    lambda i: S.make_hint_pre(g, m.input_var('a0', i), m.input_var('a1', i)),
                    lambda i: S.make_hint(g, m.input_var('a0', i), m.input_var('a1', i)) == 1)
                rep.ok('return value = number of ones, all 256 lanes', d, time.time() - t)
            except Failure as e:
                rep.fail('return value', str(e))
        elementwise(rep, unit, 'mldsa_make_hint_g%d_%s' % (g, isa), {'rdi': 'h', 'rsi': 'a0', 'rdx': 'a1'},
                    ['a0', 'a1'], ['h'], claims, alias=[('h', 'a0'), ('h', 'a1')], extra=count)
    return k


def k_use_hint(g):
    def k(unit, isa, rep):
        def claims(X, o):
            a, h = X['a'], X['h']
            A1, A0 = z3.BitVec('Decompose_a1', 32), z3.BitVec('Decompose_a0', 32)
            pre = z3.And(S.in_range(a, 0, S.Q - 1), z3.Or(h == 0, h == 1), S.decompose_rel(g, a, A1, A0))
            return [('FIPS 204 UseHint (Alg. 40), a in [0, q), h in {0, 1}',
                     z3.Implies(pre, o[0] == S.use_hint(g, h, A1, A0)))]
        elementwise(rep, unit, 'mldsa_use_hint_g%d_%s' % (g, isa), {'rdi': 'b', 'rsi': 'a', 'rdx': 'h'},
                    ['a', 'h'], ['b'], claims, alias=[('b', 'a'), ('b', 'h')])
    return k


def k_chknorm(unit, isa, rep):
    bound = z3.BitVec('bound', 32)

    def answer(res):
        m = res.m
        t = time.time()

        def over(i):
            a = m.input_var('a', i)
            absa = z3.If(S.s64(a) < 0, -S.s64(a), S.s64(a))
            return absa >= S.s64(bound)
        try:
            rax = m.rd_gpr(reg(isa, 'rax'))
            if not z3.simplify(z3.Extract(63, 32, rax)).eq(z3.BitVecVal(0, 32)):
                raise Failure('upper half of %rax not zero')
            d = prove_lane_any(z3.Extract(31, 0, rax), lambda i: [m.input_var('a', i)], lane_of,
                               lambda i: z3.BoolVal(True), over,
                               S.in_range(bound, 0, (S.Q - 1) // 8), bound)
            rep.ok('%s = [some |a_i| >= bound], all 256 lanes, every int32 a_i (|-2^31| = 2^31), '
                   'bound in [0, (q-1)/8]' % ('x0' if isa == 'neon' else '%rax'), d, time.time() - t)
        except Failure as e:
            rep.fail('chknorm answer', str(e))
    elementwise(rep, unit, 'mldsa_chknorm_%s' % isa, {'rdi': 'a', 'rsi': ('val', junk_upper('rsi', bound))},
                ['a'], [], None, extra=answer)
    res = None


K = {
    'add': k_add, 'sub': k_sub, 'reduce32': k_reduce32, 'caddq': k_caddq, 'shiftl': k_shiftl,
    'power2round': k_power2round,
    'decompose_g88': k_decompose(88), 'decompose_g32': k_decompose(32),
    'make_hint_g88': k_make_hint(88), 'make_hint_g32': k_make_hint(32),
    'use_hint_g88': k_use_hint(88), 'use_hint_g32': k_use_hint(32),
    'chknorm': k_chknorm,
}


# ------------------------------------------------------------------------ products
LANEVAR = __import__('re').compile(r'\b([A-Za-z_]\w*)\[(\d+)\]')


def canon_abstract(m, lane_map):
    """the executor's product variables (P(..), MQ(..)) of one lane, renamed: every input
    a[k] in a name is replaced by its canonical name from lane_map (str -> str); a name
    with an input outside lane_map is left alone (and then fails lane independence)."""
    idx = getattr(m, '_abstract_index', None)
    if idx is None:
        idx = {}
        for v in list(m.prods.values()) + list(m.mqs.values()):
            name = v.decl().name()
            ins = ['%s[%s]' % x for x in LANEVAR.findall(name)]
            if ins:
                idx.setdefault(ins[0], []).append((v, name, ins))
        m._abstract_index = idx
    out = []
    for key in lane_map:
        for v, name, ins in idx.get(key, ()):
            if all(x in lane_map for x in ins):
                new = LANEVAR.sub(lambda mt: lane_map[mt.group(0)], name)
                out.append((v, z3.BitVec(new, 64)))
    return out


def general_m(formulas, s):
    """Montgomery's m = lo(s) qinv, as a term, replaced by a free 32-bit m in each formula
    (the facts about MQ no longer mention it: lo(MQ) = m q simplifies to lo(s)). A
    formula valid for every m is valid for this one; it spares Z3 a constant multiplier."""
    mt = z3.simplify(z3.Extract(31, 0, s) * S.QINV)
    mv = z3.BitVec('m', 32)
    return [(n, z3.substitute(f, (mt, mv))) for n, f in formulas]


def product_fact(a, b, P):
    B = 9 * S.Q - 1
    return z3.Implies(z3.And(S.in_range(a, -B, B), S.in_range(b, -B, B)),
                      z3.And(P <= B * B, P >= -B * B))


def pvar(a, b):
    return z3.BitVec('P(%s)' % ','.join(sorted((str(a), str(b)))), 64)


def k_pointwise_montgomery(unit, isa, rep):
    B = 9 * S.Q - 1
    Xa, Xb = canon('a'), canon('b')

    def ren(m, i):
        a, b = m.input_var('a', i), m.input_var('b', i)
        return [(a, Xa), (b, Xb)] + canon_abstract(m, {str(a): str(Xa), str(b): str(Xb)})

    def claims(X, o):
        P = pvar(Xa, Xb)
        red, MQ, facts = S.montgomery_reduce_mq(P)
        mt = z3.simplify(z3.Extract(31, 0, P) * S.QINV)
        # m free (general_m), the hi-of-sum rewrite (rewrite.py), then P and MQ split into
        # halves with the same low half (the MQ fact lo(MQ) = lo(P))
        Ph, Pl, Mh = z3.BitVecs('Ph Pl Mh', 32)
        split = [(MQ, z3.Concat(Mh, Pl)), (P, z3.Concat(Ph, Pl))]
        c = z3.simplify(z3.substitute(hi_split(z3.substitute(o[0], (mt, z3.BitVec('m', 32)))), *split))
        pre = z3.substitute(z3.And(S.in_range(Xa, -B, B), S.in_range(Xb, -B, B),
                                   product_fact(Xa, Xb, P), facts), *split)
        P2, M2 = z3.BitVecs('P2 M2', 64)
        return [
            ('lemma: lo(P) = lo(MQ) implies hi(P - MQ) = hi(P) - hi(MQ)',
             z3.Implies(z3.Extract(31, 0, P2) == z3.Extract(31, 0, M2),
                        z3.Extract(63, 32, P2 - M2) == z3.Extract(63, 32, P2) - z3.Extract(63, 32, M2))),
            ('c = montgomery_reduce(a b) = hi(a b - m q) exactly (the scalar code), |a|, |b| < 9q',
             z3.Implies(pre, c == Ph - Mh)),
            ('with the above: c 2^32 = a b - m q exactly, so c = a b 2^-32 mod q',
             z3.Implies(pre, S.s64(Ph - Mh) * (1 << 32) == z3.Concat(Ph, Pl) - z3.Concat(Mh, Pl))),
            ('|c| < q', z3.Implies(pre, S.in_range(c, -S.Q + 1, S.Q - 1)))]
    elementwise(rep, unit, 'mldsa_pointwise_montgomery_%s' % isa, three(isa, 0), ['a', 'b'], ['c'],
                claims, alias=[('c', 'a'), ('c', 'b')], lane_inputs=(['a', 'b'], ren))


def k_pointwise_acc(L):
    def k(unit, isa, rep):
        B = 9 * S.Q - 1
        As = [z3.BitVec('X_a%d' % j, 32) for j in range(L)]
        Bs = [z3.BitVec('X_b%d' % j, 32) for j in range(L)]

        def ren(m, i):
            out, names = [], {}
            for j in range(L):
                a, b = m.input_var('a', i + N * j), m.input_var('b', i + N * j)
                out += [(a, As[j]), (b, Bs[j])]
                names[str(a)], names[str(b)] = str(As[j]), str(Bs[j])
            return out + canon_abstract(m, names)

        def claims(X, o):
            # hi(s - m q) (AArch64's smlsl, uzp2) is hi(s) - hi(m q) when the low halves are
            # equal: the lemma and that equality are obligations of their own, then the
            # claims below are the x86 ones about the rewritten term
            c, pairs = hi_minus_mq(o[0])
            # SSE2 sums unsigned products (each the signed P plus 2^32 times its sign
            # correction) and subtracts the corrections from the high half once: the
            # 64-bit carries are taken out by checked rewrites (rewrite.py), each an
            # instance of a lemma proved below, before the claims about the result
            cr = CheckedRewrite()
            if isa == 'sse2':
                c = hi_carry_free(c, cr)
            Ps = [pvar(As[j], Bs[j]) for j in range(L)]
            pre = [z3.And(S.in_range(As[j], -B, B), S.in_range(Bs[j], -B, B),
                          product_fact(As[j], Bs[j], Ps[j])) for j in range(L)]
            s = Ps[0]
            for P in Ps[1:]:
                s = s + P
            red, MQ, facts = S.montgomery_reduce_mq(s)
            pre = z3.And(facts, *pre)
            # the congruence in two steps: c = hi(s) - hi(MQ) (the code), then for every
            # 64-bit S with the facts of s (its range, lo(MQ) = lo(S)): hi(S) - hi(MQ) is
            # (S - MQ) / 2^32 exactly
            Sv, M2 = z3.BitVec('S', 64), z3.BitVec('MQ2', 64)
            ssum = z3.simplify(s)
            if cr.steps:
                c = same_sum(c, ssum, cr)
            bound = L * B * B
            P2, M2 = z3.BitVecs('P2 M2', 64)
            lemmas = [('lemma: lo(P) = lo(MQ) implies hi(P - MQ) = hi(P) - hi(MQ)',
                       z3.Implies(z3.Extract(31, 0, P2) == z3.Extract(31, 0, M2),
                                  z3.Extract(63, 32, P2 - M2) == z3.Extract(63, 32, P2) - z3.Extract(63, 32, M2)))
                       ] if pairs else []
            lemmas += [('lo(sum_j a_j b_j) = lo(m q), so the lemma applies to hi(sum - m q)',
                        z3.Implies(pre, z3.Extract(31, 0, x) == z3.Extract(31, 0, mq))) for x, mq in pairs]
            if cr.lemmas:
                # every rewrite lemma proved here, each its own Z3 query, reported as one line
                t0, kinds = time.time(), {}
                try:
                    for what, f in cr.lemmas.values():
                        prove(f, what=what)
                        k = what.split(': ', 1)[1].split(' (')[0]
                        kinds[k] = kinds.get(k, 0) + 1
                    rep.ok('%d rewrite lemmas of %d rewrites (%s)' % (
                        len(cr.lemmas), cr.steps, '; '.join('%s: %d' % kv for kv in kinds.items())),
                        'generic in the subterms they replace', time.time() - t0)
                except Failure as e:
                    rep.fail('rewrite lemma', str(e))
            hs, hm = z3.Extract(63, 32, ssum), z3.Extract(63, 32, MQ)
            eq = z3.Implies(pre, c == hs - hm)
            if cr.steps:
                # after the rewrites, an identity mod 2^32 for every value of the two high
                # halves (they are generalised: valid for all, so for these) and no
                # precondition: the sign corrections cancel
                eq = z3.substitute(c == hs - hm, (hs, z3.BitVec('hi_S', 32)), (hm, z3.BitVec('hi_MQ', 32)))
            return lemmas + general_m([
                ('c = hi(sum_j a_j b_j) - hi(m q) (len %d)' % L, eq),
                ('lemma: |S| <= len B^2, lo(MQ) = lo(S), |MQ| <= 2^31 q imply '
                 '(hi(S) - hi(MQ)) 2^32 = S - MQ, so c = sum a_j b_j 2^-32 mod q',
                 z3.Implies(z3.And(Sv <= bound, Sv >= -bound, z3.Extract(31, 0, M2) == z3.Extract(31, 0, Sv),
                                   M2 >= -(1 << 31) * S.Q, M2 <= ((1 << 31) - 1) * S.Q),
                            S.s64(z3.Extract(63, 32, Sv) - z3.Extract(63, 32, M2)) * (1 << 32) == Sv - M2)),
                # (once the above is proved, the bound is that of its right-hand side)
                ('|c| < len q = %d q' % L, z3.Implies(pre, S.in_range(hs - hm if cr.steps else c,
                                                                     -L * S.Q + 1, L * S.Q - 1)))], s)
        elementwise(rep, unit, 'mldsa_pointwise_acc_%s' % isa,
                    {'rdi': 'c', 'rsi': 'a', 'rdx': 'b', 'rcx': ('val', junk_upper('rcx', z3.BitVecVal(L, 32)))},
                    ['a', 'b'], ['c'], claims, alias=[('c', 'a'), ('c', 'b')],
                    in_sizes={'a': 4 * N * L, 'b': 4 * N * L}, lane_inputs=(['a', 'b'], ren))
    return k


K['pointwise_montgomery'] = k_pointwise_montgomery
for _L in range(1, 9):
    K['pointwise_acc_L%d' % _L] = k_pointwise_acc(_L)
