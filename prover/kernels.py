# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Per-kernel obligations for the element-wise kernels: how each kernel is called (which
register holds which argument), what it reads and writes, and what each lane must
satisfy (spec.py). A kernel's run yields records: (obligation, lanes, seconds, status)."""
import time
import z3
from . import spec as S
from .executor import run
from .lanes import check_structure, classes, prove, Failure

N = 256


def junk_upper(name, low):
    """a 32-bit argument in a 64-bit register: the upper half is undefined (SysV)."""
    return z3.Concat(z3.BitVec('init_upper_' + name, 32), low)


class Report:
    def __init__(self, isa, kernel):
        self.isa, self.kernel = isa, kernel
        self.items = []          # (what, detail, seconds, ok, message)
        self.t0 = time.time()

    def ok(self, what, detail, secs):
        self.items.append((what, detail, secs, True, ''))

    def fail(self, what, msg):
        self.items.append((what, '', 0.0, False, msg))

    @property
    def passed(self):
        return bool(self.items) and all(i[3] for i in self.items)


def lane_terms(m, outputs, inputs_of_lane, n=N):
    """per lane i: (i, Concat of the outputs' dwords, renaming of the lane's inputs)."""
    out = []
    for i in range(n):
        ts = [m.load(o, 4 * i, 4) for o in outputs]
        t = ts[0] if len(ts) == 1 else z3.Concat(*ts)
        out.append((i, z3.simplify(t), inputs_of_lane(m, i)))
    return out


def canon(name):
    return z3.BitVec('X_' + name, 32)


def split_outputs(t, k):
    return [z3.Extract(32 * (k - 1 - j) + 31, 32 * (k - 1 - j), t) for j in range(k)]


def elementwise(rep, unit, fname, regs, inputs, outputs, claims, alias=(), extra=None,
                in_sizes=None, lane_inputs=None):
    """regs: register -> base (pointer arguments) or ('val', term). claims(X, outs) ->
    list of (name, formula) over the canonical lane variables X[base] and outputs."""
    t = time.time()
    args = {r: (v if isinstance(v, tuple) else ('ptr', v)) for r, v in regs.items()}
    try:
        res = run(unit, fname, args)
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
        return res
    X = {b: canon(b) for b in (lane_inputs or inputs)}
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
            try:
                secs = prove(f, what=name)
                rep.ok(name, '%d lanes (one term class of %d)' % (len(lanes), len(cls)), secs)
            except Failure as e:
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
            pre, total = [], z3.BitVecVal(0, 32)
            for i in range(N):
                a0, a1 = m.input_var('a0', i), m.input_var('a1', i)
                pre.append(S.make_hint_pre(g, a0, a1))
                total = total + S.make_hint(g, a0, a1)
            try:
                secs = prove(z3.Implies(z3.And(*pre), m.rd_gpr('rax') == z3.ZeroExt(32, total)),
                             what='return value')
                rep.ok('return value = number of ones (all 256 lanes symbolic, %rax whole)', '', secs)
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
        over = []
        for i in range(N):
            a = m.input_var('a', i)
            absa = z3.If(S.s64(a) < 0, -S.s64(a), S.s64(a))
            over.append(absa >= S.s64(bound))
        exp = z3.If(z3.Or(*over), z3.BitVecVal(1, 32), z3.BitVecVal(0, 32))
        pre = S.in_range(bound, 0, (S.Q - 1) // 8)
        try:
            secs = prove(z3.Implies(pre, m.rd_gpr('eax') == exp), what='chknorm answer')
            rep.ok('%eax = [some |a_i| >= bound], all 256 a_i any int32 (|-2^31| = 2^31), bound in [0, (q-1)/8]', '', secs)
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
