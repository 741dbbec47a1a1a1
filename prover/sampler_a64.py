# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The AArch64 samplers' vector step, per lane: the candidate values and the accept
predicate (FIPS 204 CoeffFromThreeBytes / CoeffFromHalfByte, Alg. 14 / 15), the claims
of sampler_lanes.py in the neon layout.

The neon kernels handle candidates in groups of 4 (one register of 4 dwords each) and
form each group's accept word m + 16 popcount(m) (m the group's 4-bit accept mask) by
summing the accept compare ANDed with weights (addv, or two addp for four groups at once)
into w10. The first group's word is used (as a table row address) before the second
group's is formed, so the run does not stop at the first pattern-dependent access as on
x86: it runs through the step, a load or store whose address depends on the accept
pattern (the .Lleft_pack row, the store at a[count]) is given a region of its own (the
loaded bytes are unknowns, the stored ones go nowhere that is read), so no claim can rest
on them, and it stops at the first branch on a non-constant condition (the step's loop
guard, once the count depends on the pattern). For each group g, at some instruction
before the stop, the declared registers must hold, for all byte values of the step:
value lane j = the candidate's value (eta: sign-extended to 32 bits) where it is kept,
bits off_g .. off_g + 3 of w10 = the group's accept bits and bits off_g + 4 .. off_g + 7
= their number. Also checked: every row of .Lleft_pack (the kept dwords' byte indices
first), which the left-pack that follows relies on."""
import time
import z3

from . import a64
from .machine import ExecError
from .sampler_lanes import candidates

# kernel -> (candidates per vector step, [(value register, bit offset of the group's
# accept word in x10) per group of 4 candidates])
LAYOUT = {'rej_uniform': (8, [(0, 0), (1, 0)]),
          'rej_eta2': (16, [(4, 0), (5, 8), (6, 16), (7, 24)]),
          'rej_eta4': (16, [(4, 0), (5, 8), (6, 16), (7, 24)])}


class PatternBlind(a64.A64):
    """an access at an address that is not base + constant (it depends on the accept
    pattern) goes to a fresh region of its own: loads give unknowns, stores are not read."""
    blind = 0

    def addr(self, op):
        try:
            return super().addr(op)
        except ExecError:
            self.blind += 1
            return 'pattern%d' % self.blind, 0


def pattern_branch(m, ins):
    if ins.mnem.startswith('b.') and m.flags:
        c = z3.simplify(a64.CONDS[ins.mnem[2:]](m.flags))
        return not (z3.is_true(c) or z3.is_false(c))
    return False


def left_pack_rows(unit):
    """the rows of .Lleft_pack (16 rows of 16 tbl indices) that are wrong: row m must
    begin with the 4 byte indices of each dword set in m, in increasing order."""
    o = unit.symbols.get('.Lleft_pack')
    if o is None:
        return ['no .Lleft_pack']
    ro = unit.rodata
    return [m for m in range(16) if list(ro[o + 16 * m:o + 16 * m + 4 * bin(m).count('1')]) !=
            [4 * i + b for i in range(4) if m >> i & 1 for b in range(4)]]


def prove_lanes(unit, rep, kernel):
    t0 = time.time()
    L, groups = LAYOUT[kernel]
    snaps = []

    def after(m, ins):
        snaps.append((ins, [list(r) for r in m.vec], m.gpr['x10']))
    try:
        res = a64.run(unit, 'mldsa_%s_neon' % kernel,
                      {'x0': ('ptr', 'a'), 'x1': ('val', z3.BitVecVal(0, 64)), 'x2': ('ptr', 'buf'),
                       'x3': ('val', z3.BitVecVal(48, 64))},
                      machine_cls=PatternBlind, after=after, stop=pattern_branch)
    except Exception as e:
        rep.fail('execution of the vector step', str(e))
        return
    if res.stopped is None:
        rep.fail('execution of the vector step', 'returned without a branch on the accept pattern')
        return
    m = res.m

    def byte(o):
        return z3.Extract(8 * (o % 4) + 7, 8 * (o % 4), m.input_var('buf', o // 4))
    cands = candidates(kernel, byte, L)
    where = []
    for g, (vreg, off) in enumerate(groups):
        part = cands[4 * g:4 * g + 4]
        found = None
        for ins, vec, x10 in snaps:
            claims = [z3.Extract(off + 7, off + 4, x10) == sum(z3.If(ok, z3.BitVecVal(1, 4), z3.BitVecVal(0, 4))
                                                             for _, ok in part)]
            for j, (v, ok) in enumerate(part):
                claims.append(z3.Implies(ok, vec[vreg][j] == (v if v.size() == 32 else z3.SignExt(32 - v.size(), v))))
                claims.append((z3.Extract(off + j, off + j, x10) == 1) == ok)
            s = z3.Solver()
            s.set('timeout', 20000)
            s.add(z3.Not(z3.And(claims)))
            if s.check() == z3.unsat:
                found = ins
                break
        if found is None:
            rep.fail('per-lane value and accept predicate', 'group %d (candidates %d..%d): no point before '
                     '"%s" (line %d) where v%d and bits %d..%d of x10 hold them'
                     % (g, 4 * g, 4 * g + 3, res.stopped.text.strip(), res.stopped.line, vreg, off, off + 7))
            return
        where.append('%d..%d after line %d' % (4 * g, 4 * g + 3, found.line))
    reads = sorted({o + i for _, kk, b, o, n in m.trace if kk == 'r' and b == 'buf' for i in range(n)})
    rep.ok('per-lane value and accept predicate (FIPS 204 %s), all byte values'
           % ('CoeffFromThreeBytes' if kernel == 'rej_uniform' else 'CoeffFromHalfByte'),
           '%d candidates per step, 4 per register; accept bits and their count in w10: candidates %s; '
           'stopped before "%s" (line %d); buf bytes read %d..%d'
           % (L, ', '.join(where), res.stopped.text.strip(), res.stopped.line, reads[0], reads[-1]),
           time.time() - t0)
    bad = left_pack_rows(unit)
    if bad:
        rep.fail('.Lleft_pack rows', 'wrong at %s' % bad[:3])
        return
    rep.ok('.Lleft_pack: 16 rows, the kept dwords\' byte indices first', '', 0.0)
    rep.gap('%s after the accept word' % kernel,
            'the left-pack (tbl by the checked .Lleft_pack row), the count and the one-by-one tail '
            'use the accept pattern (a table address, a branch): the whole loop is not yet proved '
            'on AArch64 (per-lane step proved); tested against the scalar kernel under qemu-aarch64')

