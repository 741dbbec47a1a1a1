# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The samplers' vector step, per lane: the candidate values and the accept predicate.

The function runs symbolically on a buffer of free bytes (n = 0, len = 48, so the widest
step's guard holds) up to the first instruction that depends on the accept pattern (a
table address indexed by the mask, a branch on it, or vpcompressd). At some instruction
before it, for every candidate j of the step, the declared registers must hold: value
lane j = the candidate's value (rej_uniform: the 3 bytes of group j little-endian masked
to 23 bits, FIPS 204 Alg. 14; rej_eta: half-byte b, the low one first, 2 - (b mod 5) or
4 - b, Alg. 15, where it is kept) and mask bit j = [kept], the mask's other bits 0. What follows (the left-pack by the
checked .Lleft_pack table or vpcompressd, the count by .Lpopcount, the one-by-one tail)
branches or indexes on the pattern: sampler_loop proves the whole loop by induction."""
import time
import z3
from . import semantics as S
from .executor import run
from .machine import ExecError, simp
from .lanes import Failure
from . import sampler_a64, sampler_loop
from .sampler_step import buf_candidates, holds, run_step

# kernel -> ISA -> (candidates per vector step, lane width in bits, value register,
# where the accept mask is): the declared registers, looked for after each instruction
UNIFORM = {'sse2': (4, 32, 0, ('gpr', 'r10')), 'avx2': (8, 32, 0, ('gpr', 'r10')),
           'avx512': (16, 32, 0, ('k', 1))}
ETA = {'sse2': (16, 8, 1, ('gpr', 'r10')), 'avx2': (32, 8, 0, ('gpr', 'r10')),
       'avx512': (64, 8, 0, ('k', 1))}
LAYOUT = {'rej_uniform': UNIFORM, 'rej_eta2': ETA, 'rej_eta4': ETA}


def pattern_dependent(m, ins):
    if ins.mnem == 'vpcompressd':
        return True
    if ins.mnem in S.BRANCHES and m.flags:
        if not z3.is_true(simp(S.BRANCHES[ins.mnem](m.flags))) and \
                not z3.is_false(simp(S.BRANCHES[ins.mnem](m.flags))):
            return True
    for op in ins.ops:
        if op.kind == 'mem':
            try:
                m.addr(op)
            except ExecError:
                return True
    return False


def prove_lanes(unit, isa, rep, kernel):
    if isa == 'neon':       # groups of 4 candidates, accept words in w10: sampler_a64.py
        return sampler_a64.prove_lanes(unit, rep, kernel)
    t0 = time.time()
    L, w, vreg_, (kind, where) = LAYOUT[kernel][isa]
    fname = 'mldsa_%s_%s' % (kernel, isa)
    snaps = []

    def after(m, ins):
        snaps.append((ins, [list(r) for r in m.vec], dict(m.gpr), list(m.k)))
    res = run_step(rep, lambda: run(unit, fname, {'rdi': ('ptr', 'a'), 'rsi': ('val', z3.BitVecVal(0, 64)),
                                                   'rdx': ('ptr', 'buf'), 'rcx': ('val', z3.BitVecVal(48, 64))},
                                    stop=pattern_dependent, after=after))
    if res is None:
        return
    m = res.m
    cands = buf_candidates(m, kernel, L)
    tried = 0
    for ins, vec, gpr, k in snaps:
        mask = gpr[where] if kind == 'gpr' else k[where]
        claims = []
        for j, (v, ok) in enumerate(cands):
            lane = vec[vreg_][j] if w == 32 else z3.Extract(8 * (j % 4) + 7, 8 * (j % 4), vec[vreg_][j // 4])
            claims.append(z3.Implies(ok, lane == v))
            claims.append((z3.Extract(j, j, mask) == 1) == ok)
        if mask.size() > L:
            claims.append(z3.Extract(mask.size() - 1, L, mask) == 0)
        tried += 1
        if holds(claims):
            reads = sorted({o + i for _, kk, b, o, n in m.trace if kk == 'r' and b == 'buf' for i in range(n)})
            rep.ok('per-lane value and accept predicate (FIPS 204 %s), all byte values'
                   % ('CoeffFromThreeBytes' if kernel == 'rej_uniform' else 'CoeffFromHalfByte'),
                   '%d candidates per step; after "%s" (line %d), before "%s" (line %d), the first '
                   'use of the accept pattern; buf bytes read %d..%d'
                   % (L, ins.text.strip(), ins.line, res.stopped.text.strip(), res.stopped.line,
                      reads[0], reads[-1]), time.time() - t0)
            try:
                sampler_loop.prove_loop(unit, isa, rep, kernel)
            except (Failure, ExecError) as e:
                rep.fail('whole loop', str(e))
            return
    rep.fail('per-lane value and accept predicate', 'no point among the %d instructions before "%s" '
             'where the declared registers hold them' % (tried, res.stopped.text.strip()))


OBLIGATIONS = {k: (lambda k: lambda unit, isa, rep: prove_lanes(unit, isa, rep, k))(k) for k in LAYOUT}
