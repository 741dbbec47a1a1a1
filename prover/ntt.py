# SPDX-License-Identifier: Apache-2.0 OR MIT
"""ntt and invntt_tomont: the whole function executed symbolically, every lane value
kept as a proved fact "congruent mod q to a linear form over the 256 inputs, within
[lo, hi]" (a leaf).

After every instruction each new lane term of its destination register is offered to
lift.close: when the term is congruent to a linear form of the leaves it reads (the
butterflies' products, by Montgomery's or Shoup's method, with the twiddle a constant
from .rodata, proved by Z3 over an exact linear-integer encoding of the bit-vector
operations) and its interval is proved, it becomes a new leaf with form
sum c_j form_j (mod q). Terms that are not (a product's high half, a low half before
its correction) stay terms until a later instruction completes them. Identical terms
over leaves with identical bounds are closed once (a cache keyed by the term with its
leaves renamed in order).

At the end every output dword must be a leaf; its form must be the declared NTT (or
inverse NTT times 2^32) matrix row, and its interval within the contract's bound.
Interval propagation is what the leaves' bounds are: every closed value is proved
within int32 and within its interval for all inputs of the contract, so no lane
overflows anywhere except where a wrap is part of a product (lo(x z) in Shoup's
method) and the congruence proof shows it harmless."""
import os
import time
import numpy as np
import z3
from . import a64, lift
from .executor import run
from .machine import Machine, ExecError, vreg
from .reorder import declared_order

N = 256
Q = 8380417
ZETA = 1753
# A closure Z3 cannot decide in this time is not made (the term stays a term); the
# proofs that close every butterfly take about 10 ms each.
QUERY_MS = 3000
# A butterfly's lane reads two or three values; a lane term over more has missed its
# closure (in mutated code) and would only grow.
MAX_LEAVES = 4
MAX_NODES = 200


def brv8(k):
    return int('{:08b}'.format(k)[::-1], 2)


def ntt_matrix(sigma):
    """row p: coefficients of the inputs a_0..a_255 of output position p (declared order)."""
    pw = [pow(ZETA, e, Q) for e in range(512)]
    M = np.zeros((N, N), dtype=np.int64)
    for p in range(N):
        e = 2 * brv8(sigma[p]) + 1
        M[p] = [pw[(e * i) % 512] for i in range(N)]
    return M


def invntt_matrix(sigma):
    """row i (natural order): coefficients of the inputs at NTT positions p, times 2^32."""
    pw = [pow(ZETA, e, Q) for e in range(512)]
    f = (pow(256, -1, Q) * (1 << 32)) % Q
    M = np.zeros((N, N), dtype=np.int64)
    for i in range(N):
        for p in range(N):
            e = 2 * brv8(sigma[p]) + 1
            M[i, p] = f * pw[(-e * i) % 512] % Q
    return M


class ExactMachine(Machine):
    """Products by a constant are exact terms (lift.py encodes them linearly); a product
    of two non-constant lanes does not occur in a transform and is an error."""

    def product(self, kind, x, y):
        x, y = z3.simplify(x), z3.simplify(y)
        if not (z3.is_bv_value(x) or z3.is_bv_value(y)):
            raise ExecError('a product of two non-constant lanes in a transform')
        if kind == 's':
            return z3.SignExt(32, x) * z3.SignExt(32, y)
        if kind == 'u':
            return z3.ZeroExt(32, x) * z3.ZeroExt(32, y)
        return x * y


class ExactA64(a64.A64):
    """the AArch64 machine (AAPCS64 checks at ret) with ExactMachine's products."""
    product = ExactMachine.product


class Facts:
    """the leaves: name -> (form, lo, hi); closes lane terms into new leaves."""

    def __init__(self, in_bound):
        self.form = {}
        self.bound = {}
        self.in_bound = in_bound
        self.cache = {}
        self.failed = set()
        self.keep = []
        self.n = 0
        self.queries = 0
        self.qsecs = 0.0
        self.closed = 0
        self.widest = 0

    def input_leaf(self, name):
        """a[i] of the caller: form e_i, bound from the contract."""
        if name not in self.form and name.startswith('a[') and int(name[2:-1]) < N:
            i = int(name[2:-1])
            f = np.zeros(N + 1, dtype=np.int64)
            f[i] = 1
            self.form[name] = f
            self.bound[name] = self.in_bound
        return name in self.form

    def prove(self, cons, claim, what):
        t = time.time()
        s = z3.Solver()
        s.set('timeout', QUERY_MS)
        s.add(cons)
        s.add(z3.Not(claim))
        r = s.check()
        self.queries += 1
        self.qsecs += time.time() - t
        if r != z3.unsat:
            raise lift.Fail('%s: %s' % (what, r))

    def leaves_of(self, t):
        out, seen, stack = [], set(), [t]
        while stack:
            if len(seen) > MAX_NODES:
                raise ExecError('a lane term of more than %d nodes (a butterfly is about 30)' % MAX_NODES)
            x = stack.pop()
            if x.get_id() in seen:
                continue
            seen.add(x.get_id())
            if z3.is_const(x) and not z3.is_bv_value(x):
                out.append(str(x))
            else:
                stack.extend(reversed(x.children()))
        return out

    def offer(self, t):
        """t (32-bit lane term) -> a leaf variable if it closes, else t."""
        t = z3.simplify(t)
        if z3.is_bv_value(t) or z3.is_const(t) or t.get_id() in self.failed:
            return t
        if z3.is_app_of(t, z3.Z3_OP_BMUL) or z3.is_app_of(t, z3.Z3_OP_EXTRACT):
            return t        # a product or a half of one: a later instruction completes it
        names = self.leaves_of(t)
        if not all(self.input_leaf(n) for n in names):
            return t
        if len(names) > MAX_LEAVES:
            raise ExecError('a lane over %d proved values that does not close (not a butterfly)' % len(names))
        canon = [z3.BitVec('c%d' % i, 32) for i in range(len(names))]
        ct = z3.substitute(t, *[(z3.BitVec(n, 32), c) for n, c in zip(names, canon)])
        key = (ct.get_id(), tuple(self.bound[n] for n in names))
        if key not in self.cache:
            self.keep.append(ct)
            try:
                bounds = {'c%d' % i: self.bound[n] for i, n in enumerate(names)}
                self.cache[key] = lift.close(ct, bounds, self.prove)
            except lift.Fail:
                self.cache[key] = None
        res = self.cache[key]
        if res is None:
            self.failed.add(t.get_id())
            self.keep.append(t)
            return t
        coef, c0, lo, hi = res
        f = np.zeros(N + 1, dtype=np.int64)
        f[N] = c0
        for i, n in enumerate(names):
            c = coef.get('c%d' % i, 0)
            if c:
                f = (f + c * self.form[n]) % Q
        self.n += 1
        name = 'L%d' % self.n
        self.form[name] = f
        self.bound[name] = (lo, hi)
        self.closed += 1
        self.widest = max(self.widest, -lo, hi)
        return z3.BitVec(name, 32)


def prove_transform(unit, isa, rep, ntt_text, inverse):
    t0 = time.time()
    kname = 'invntt_tomont' if inverse else 'ntt'
    fname = 'mldsa_%s_%s' % (kname, isa)
    try:
        sigma = declared_order(ntt_text)
    except ValueError as e:
        rep.fail('declared order', str(e))
        return
    facts = Facts((-(Q - 1), Q - 1))

    def after(m, ins):
        d = ins.ops[-1] if ins.ops else None
        if d is None or d.kind != 'reg':
            return
        v = vreg(d.reg)
        if not v:
            return
        i, w = v
        m.vec[i] = [facts.offer(x) if j < w else x for j, x in enumerate(m.vec[i])]

    seen = {}

    def after_a64(m, ins):
        # every lane an instruction changed, whichever register it is in (seen keeps the
        # terms themselves, so that their ids are not reused while compared)
        for i, row in enumerate(m.vec):
            old = seen.get(i)
            if old is None or any(x.get_id() != y.get_id() for x, y in zip(row, old)):
                m.vec[i] = [facts.offer(x) for x in row]
                seen[i] = list(m.vec[i])

    try:
        if isa == 'neon':
            res = a64.run(unit, fname, {'x0': ('ptr', 'a')}, machine_cls=ExactA64, after=after_a64)
        else:
            res = run(unit, fname, {'rdi': ('ptr', 'a')}, machine_cls=ExactMachine, after=after)
    except Exception as e:
        rep.fail('symbolic execution', str(e))
        return
    m = res.m
    # structure: in place, nothing but a[0..255] read or written, every dword written
    writes, reads = set(), set()
    for step, kind, base, off, nb in m.trace:
        if base == 'rodata':
            continue
        if base != 'a':
            rep.fail('memory', '%s of %s at %d (only the array is touched)' % (kind, base, off))
            return
        (writes if kind == 'w' else reads).update(range(off, off + nb))
    if writes != set(range(4 * N)) or not reads <= set(range(4 * N)) or len(reads) != 4 * N:
        rep.fail('memory', 'writes/reads are not exactly a[0..255]')
        return
    rep.ok('loop structure', 'back edges taken %s, %d instructions executed; reads and writes '
           'exactly a[0..255], no stack' % (dict(res.back_edges), res.steps), time.time() - t0)
    # every output a leaf: its form and bound
    t1 = time.time()
    M = invntt_matrix(sigma) if inverse else ntt_matrix(sigma)
    lim = Q if inverse else 9 * Q
    worst = 0
    for p in range(N):
        out = z3.simplify(m.load('a', 4 * p, 4))
        name = str(out)
        if not (z3.is_const(out) and name in facts.form):
            rep.fail('output form', 'a[%d] did not close to a proved value: %s' % (p, str(out)[:120]))
            return
        f = facts.form[name]
        if f[N] % Q:
            rep.fail('output form', 'a[%d] has a constant term %d' % (p, f[N]))
            return
        if not np.array_equal(f[:N] % Q, M[p] % Q):
            rep.fail('output form', 'a[%d] is not row %d of INTT 2^32 (inputs in the declared order)' % (p, p)
                     if inverse else 'position %d is not NTT row %d' % (p, sigma[p]))
            return
        lo, hi = facts.bound[name]
        worst = max(worst, -lo, hi)
        if not (-lim < lo and hi < lim):
            rep.fail('output bound', 'a[%d] in [%d, %d], contract |a| < %s' % (p, lo, hi, '9q' if not inverse else 'q'))
            return
    what = ('a = INTT(a) 2^32 mod q, natural order, from the declared NTT order' if inverse
            else 'a = NTT(a) mod q in the declared order')
    rep.ok(what, 'every output a proved linear form over the 256 inputs equal to its matrix row; '
           '%d lane values closed, %d Z3 queries (%.1f s), %d distinct closures'
           % (facts.closed, facts.queries, facts.qsecs, len(facts.cache)), time.time() - t1)
    rep.ok('output bound |a| < %s for |input| < q' % ('q' if inverse else '9q'),
           'proved max |a| = %d = %.7fq; widest intermediate %d = %.4fq (< 2^31)'
           % (worst, worst / Q, facts.widest, facts.widest / Q), 0.0)


def _obligation(kname):
    def prove(unit, isa, rep):
        with open(os.path.join(os.path.dirname(unit.path), 'ntt.S')) as f:
            order = f.read()
        prove_transform(unit, isa, rep, order, kname == 'invntt_tomont')
    return prove


# kernel -> prove(unit, isa, rep), as kernels.K (the order is read from ntt.S beside it)
TRANSFORMS = {k: _obligation(k) for k in ('ntt', 'invntt_tomont')}
