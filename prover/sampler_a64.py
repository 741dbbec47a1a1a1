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
first), which the left-pack that follows relies on.

The whole loop (prove_loop) is proved by induction over the steps with sampler_loop.py's
claims (store_claims: store by store, never reading the array a) and machine (memory as
Z3 arrays), with cut points at the loop heads and at each loop's guard. Each left-pack is
abstracted as on x86: the .Lleft_pack row index and the tbl's source lanes are fresh
variables, the tbl is the checked table stated as facts about them (dword k of the packed
vector is source dword R_k, R_k the k-th set bit of the row index), and lemmas proved from
their definitions tie them to the candidates; each store to a is recorded with the count
w1 then. A step that cannot reach count 256 (c + G <= 256 at its head) is claimed by the
differences of the counts store by store, so the path does not split on the accept
pattern (rej_eta's four accept words per step would be 5^4 paths)."""
import time
import z3

from . import a64
from .executor import resolve
from .lanes import Failure
from .machine import ExecError, simp
from .sampler_step import buf_candidates, holds, run_step
from .sampler_loop import (DEBUG, GROUP, FreeBytes, SymMachine, access_claims, explore, names, popcount, relevant,
                           store_claims)

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
    begin with the 4 byte indices of each dword set in m, in increasing order, and each of
    its 4 dwords must pick one whole dword (4 R .. 4 R + 3, R < 4)."""
    o = unit.symbols.get('.Lleft_pack')
    if o is None:
        return ['no .Lleft_pack']
    ro = unit.rodata
    bad = []
    for m in range(16):
        row = list(ro[o + 16 * m:o + 16 * m + 16])
        whole = all(row[4 * k] % 4 == 0 and row[4 * k] < 16 and row[4 * k:4 * k + 4] == [row[4 * k] + b for b in range(4)]
                    for k in range(4))
        if not whole or row[:4 * bin(m).count('1')] != [4 * i + b for i in range(4) if m >> i & 1 for b in range(4)]:
            bad.append(m)
    return bad


def prove_lanes(unit, rep, kernel):
    t0 = time.time()
    L, groups = LAYOUT[kernel]
    snaps = []

    def after(m, ins):
        snaps.append((ins, [list(r) for r in m.vec], m.gpr['x10']))
    res = run_step(rep, lambda: a64.run(
        unit, 'mldsa_%s_neon' % kernel, {'x0': ('ptr', 'a'), 'x1': ('val', z3.BitVecVal(0, 64)),
                                         'x2': ('ptr', 'buf'), 'x3': ('val', z3.BitVecVal(48, 64))},
        machine_cls=PatternBlind, after=after, stop=pattern_branch))
    if res is None:
        return
    m = res.m
    cands = buf_candidates(m, kernel, L)
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
            if holds(claims):
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
    try:
        prove_loop(unit, rep, kernel)
    except (Failure, ExecError) as e:
        rep.fail('whole loop', str(e))


# ------------------------------------------------------------------------ the whole loop
# kernel -> {loop head label: (cmax, rmin)}: count <= cmax and len - p >= rmin at the head
# (the guards its step relies on), proved at every arrival
ETA_HEADS = {'10': (240, 8), '12': (248, 4), '30': (255, 1)}
HEADS = {'rej_uniform': {'10': (248, 24), '12': (252, 12), '30': (255, 3)},
         'rej_eta2': ETA_HEADS, 'rej_eta4': ETA_HEADS}

# AAPCS64: what must be as at entry at `ret` (d8-d15: the low halves of v8-v15)
PRESERVED = a64.PRESERVED + ['x30', 'sp']
D8_15 = [('v', i, j) for i in range(8, 16) for j in (0, 1)]
# at a loop's guard: count <= 256, len - p >= 0 (and p <= len, at every cut point)
GUARD = (256, 0)


class SymA64(SymMachine, a64.A64):
    """sampler_loop's machine (memory as Z3 arrays, offsets may be terms) with the A64
    registers and semantics. Each store to a is logged with the count w1 then, for
    sampler_loop.store_claims, and the array a is never read. The left-pack by a
    .Lleft_pack row is abstracted: its row index and its source lanes are fresh
    variables (their definitions apart, in self.defs), the tbl by the row facts about
    them (left_pack); any other .rodata read at a symbolic offset is an error."""
    def __init__(self, unit, args, frame=0):
        super().__init__(unit, args, frame)
        self.side, self.marks = [], {}

    def control(self, fn, pc, ins):
        """as SymMachine.control, for A64: b, b.cond, cbz/cbnz, ret, hint."""
        kind = a64.plain_control(ins)
        if kind:
            return kind, None, None
        mn = ins.mnem
        if mn not in a64.BRANCHES:
            return None, None, None
        tgt = target(fn, pc)
        if mn == 'b':
            return 'jump', tgt, None
        if mn.startswith('b.'):
            if not self.flags:
                raise ExecError('line %d: branch before any flag was set' % ins.line)
            return 'branch', tgt, a64.CONDS[mn[2:]](self.flags)
        return 'branch', tgt, (self.rd_gpr(ins.ops[0].reg) == 0) == (mn == 'cbz')

    def execute(self, ins):
        if not self.left_pack(ins):
            a64.lookup(ins)(self, ins, ins.ops)

    def store(self, base, off, value, nbytes):
        if base != 'a':
            raise ExecError('store to %s' % base)
        self.trace.append((self.step, 'w', base, self._off(off, 0), nbytes))
        self.stores.append((self.step, self._off(off, 0), simp(value), nbytes,
                            self.rd_gpr(COUNT)))

    LISTS = tuple(n for n in SymMachine.LISTS if n != 'k') + ('side',)     # no opmasks
    DICTS = SymMachine.DICTS + ('marks', 'pages')

    def table_load(self, off, nbytes):
        raise ExecError('a .rodata read at a symbolic offset other than a .Lleft_pack row')

    def left_pack(self, ins):
        """the left-pack, abstracted: `ldr qN, [xM]` of .Lleft_pack row x (a symbolic
        offset: claimed to be 16 x, x < 16) gives N markers of the row, x a fresh mask;
        `tbl vD.16b, {vT.16b}, vN.16b` by them makes T's dwords fresh source lanes (a
        pack, sampler_loop.store_claims' (mask, lanes)) and gives, as dword k, source
        lane R_k, where R_k < 4 and, for k < popcount(x), R_k is the k-th set bit of x
        (bit R_k set, k bits set below it). That is what tbl computes of the rows
        left_pack_rows checks, all 16 of them, before the proof. True if ins was one of
        the two and has been done."""
        ops = ins.ops
        if ins.mnem == 'ldr' and len(ops) == 2 and ops[0].kind == 'reg' and ops[0].reg[0] == 'q' and \
                ops[1].kind == 'mem' and not ops[1].index:
            base, off = self.split_addr(self.rd_gpr(ops[1].base) + ops[1].disp)
            if base != 'rodata' or z3.is_bv_value(off):
                return False
            lp = self.unit.symbols['.Lleft_pack']
            x = simp(z3.Extract(7, 0, z3.LShR(off - lp, 4)))
            self.side.append(('a symbolic .rodata read is .Lleft_pack row x, x < 16',
                              z3.And(off == lp + z3.ZeroExt(56, x) * 16, z3.ULT(x, 16))))
            self.trace.append((self.step, 'r', 'rodata', off, 16))
            SymMachine.nrow += 1
            mk = [z3.BitVec('left_pack_row%d_%d' % (SymMachine.nrow, j), 32) for j in range(4)]
            self.vec[int(ops[0].reg[1:])] = mk
            self.marks[int(ops[0].reg[1:])] = (self.fresh('mask', x), mk)
            return True
        if ins.mnem == 'tbl' and int(ops[2].reg[1:]) in self.marks:
            x, mk = self.marks[int(ops[2].reg[1:])]
            if not all(a.eq(b) for a, b in zip(self.vec[int(ops[2].reg[1:])], mk)):
                return False
            a64.arr(ops[0], '16b'), a64.arr(ops[2], '16b')
            if ops[1].kind != 'vlist' or ops[1].sym != '16b':
                raise ExecError('tbl by a row with a table other than one {vN.16b}')
            T = [self.fresh('lane', t) for t in self.vr(ops[1])]
            self.packs.append((x, T))
            pc = popcount(x)
            out = []
            for k in range(4):
                SymMachine.nrow += 1
                R = z3.BitVec('left_pack_R%d_%d' % (SymMachine.nrow, k), 8)
                self.axioms.append(z3.And(z3.ULT(R, 4), z3.Implies(z3.ULT(k, pc), z3.And(*[z3.Implies(R == r, z3.And(
                    z3.Extract(r, r, x) == 1, popcount(x & ((1 << r) - 1)) == k)) for r in range(4)]))))
                out.append(z3.If(R == 0, T[0], z3.If(R == 1, T[1], z3.If(R == 2, T[2], T[3]))))
            self.vw(ops[0], out)
            return True
        return False


def target(fn, pc):
    ins = fn.insns[pc]
    return resolve(fn, pc, ins.ops[-1].sym)


# the count register (the count at each store, for store_claims)
COUNT = 'w1'


def head_machine(unit, entry, kept, c, p, L):
    """the state at a loop head: count c in w1 (the upper half of x1 unknown: only w1 is
    read), buf + p in x2, len - p in x3, a in x0, the kept registers as at entry, every
    other register unknown."""
    m = SymA64(unit, {'x0': ('ptr', 'a'), 'x2': ('ptr', 'buf')})
    for r in list(m.gpr):
        if r not in ('sp', 'x0'):
            m.gpr[r] = kept.get(('g', r), z3.BitVec('head_%s' % r, 64))
    for i in range(32):
        for j in range(4):
            m.vec[i][j] = kept.get(('v', i, j), z3.BitVec('head_v%d_%d' % (i, j), 32))
    m.gpr['x1'] = z3.Concat(z3.BitVec('head_upper_x1', 32), c)
    m.gpr['x2'] = m.base('buf') + p
    m.gpr['x3'] = L - p
    m.init = dict(entry.init)
    return m


def same_everywhere(machines):
    """registers whose value is one term at every arrival (the constants the entry loads)."""
    def agree(vals):
        return all(simp(v == vals[0]).eq(z3.BoolVal(True)) for v in vals)
    out = {}
    for r in machines[0].gpr:
        if r not in ('x1', 'x2', 'x3') and agree([m.gpr[r] for m in machines]):
            out[('g', r)] = machines[0].gpr[r]
    for i in range(32):
        for j in range(4):
            if agree([m.vec[i][j] for m in machines]):
                out[('v', i, j)] = machines[0].vec[i][j]
    return out


def prove_claims(m, inv, cond, claims, where):
    """each claim of a path, buf's bytes free bytes: first from the facts that share a
    variable with it (the tbl facts: a claim about a pack's fresh mask and source lanes
    holds for any values of them), then with the definitions of the fresh variables too
    (the lemmas that tie them to the candidates, and the counts, which the kernel reads
    from the accept word's other bits). Fewer facts make a stronger claim; either proof
    holds of the path."""
    ax = [(a, names(a)) for a in m.axioms]
    full = ax + [(d, names(d)) for d in m.defs]
    prove = FreeBytes([inv, cond] + m.axioms + m.defs + [c_ for _, c_ in claims], m.arr['buf']).valid
    for what, c_ in claims:
        tries = [relevant(facts, z3.And(cond, c_)) for facts in (ax, full)]
        if len(tries[1]) == len(tries[0]):
            tries = tries[1:]
        for i, facts in enumerate(tries):
            f = z3.Implies(z3.And(inv, cond, *facts), c_)
            try:
                prove(f, '%s: %s' % (where, what), 20000 if i + 1 < len(tries) else 120000)
                break
            except Failure:
                if i + 1 == len(tries):
                    raise


def prove_loop(unit, rep, kernel):
    """FIPS 204 RejNTTPoly / RejBoundedPoly's inner loop by induction over the loop steps,
    as sampler_loop.py does on x86 (the claims are its claims): cut points at the loop
    heads with the declared invariants, every path between them symbolic. The candidates a
    path covers are those of the bytes it reads (whole groups: 3 bytes, or a byte of two
    half-bytes); at a head they must be the bytes consumed; at `ret` the spec must have
    stopped (count >= 256, which is how the byte-wise eta tail leaves after a low
    half-byte, or fewer bytes left than a group)."""
    t0 = time.time()
    fname = 'mldsa_%s_neon' % kernel
    fn = unit.functions[fname]
    gbytes, per, stop_left = GROUP[kernel]
    heads = {target(fn, pc): None for pc, ins in enumerate(fn.insns)
             if ins.mnem in a64.BRANCHES and target(fn, pc) <= pc}
    for lab, inv in HEADS[kernel].items():
        at = [i for i, k in fn.numeric if str(k) == lab]
        if len(at) != 1 or at[0] not in heads:
            raise Failure('label %s is not one loop head' % lab)
        heads[at[0]] = (lab, inv)
    if any(v is None for v in heads.values()):
        raise Failure('a loop head without a declared invariant')
    if left_pack_rows(unit):
        raise Failure('.Lleft_pack rows wrong: %s' % left_pack_rows(unit)[:3])
    # a cut point at each loop's guard too (the compares and branches before its backward
    # branch), so that the paths a step splits into end there, not at every exit
    for pc, ins in enumerate(fn.insns):
        if ins.mnem in a64.BRANCHES and target(fn, pc) <= pc:
            g = pc
            while g > 0 and (fn.insns[g - 1].mnem == 'cmp' or fn.insns[g - 1].mnem.startswith('b.')):
                g -= 1
            heads.setdefault(g, ('guard of %s' % heads[target(fn, pc)][0], GUARD))
    L, n = z3.BitVec('len', 64), z3.BitVec('n', 32)
    entry = SymA64(unit, {'x0': ('ptr', 'a'), 'x1': ('val', z3.Concat(z3.BitVec('init_upper_x1', 32), n)),
                          'x2': ('ptr', 'buf'), 'x3': ('val', L)})
    buf0 = entry.base('buf')
    first = [('entry', n, z3.BitVecVal(0, 64), z3.BoolVal(True), x) for x in explore(fn, entry, 0, heads)]
    paths, kept = first, None
    for _ in range(4):      # the kept registers: a fixpoint from those of the entry's arrivals
        arrivals = [m for _, _, _, _, (_, m, end) in paths if end != 'ret']
        now = same_everywhere(arrivals)
        if kept is not None:
            now = {k: v for k, v in now.items() if k in kept}
            if set(now) == set(kept):
                break
        kept = now
        paths = list(first)
        for hpc, (lab, (cmax, rmin)) in heads.items():
            c, p = z3.BitVec('c', 32), z3.BitVec('p', 64)
            inv = z3.And(z3.ULE(c, cmax), z3.ULE(p, L), z3.UGE(L - p, rmin))
            paths += [(lab, c, p, inv, x) for x in explore(fn, head_machine(unit, entry, kept, c, p, L), hpc, heads)]
    else:
        raise Failure('the kept registers did not settle')
    # a head assumes x0 = a and sp as at entry: both must be kept, as the callee-saved ones
    missing = [r for r in PRESERVED + ['x0'] if ('g', r) not in kept] + [k for k in D8_15 if k not in kept]
    if missing:
        raise Failure('not kept across the loop: %s' % missing[:4])
    nobl = 0
    for src, c, p, inv, (cond, m, end) in paths:
        where = 'from %s to %s' % ('entry' if src == 'entry' else 'head ' + src,
                                  'ret' if end == 'ret' else 'head ' + heads[end][0])
        p2 = simp(m.gpr['x2'] - buf0)
        d = simp(p2 - p)
        ends = [simp(off - p + nb) for _, kind, base, off, nb in m.trace if base == 'buf']
        if not z3.is_bv_value(d) or not all(z3.is_bv_value(e) for e in ends):
            raise Failure('%s: bytes consumed %s or read not constant' % (where, d))
        nread = max([e.as_long() for e in ends] + [0])
        if nread % gbytes or nread > 1 << 10:
            raise Failure('%s: %d bytes read, not whole groups' % (where, nread))
        G = nread // gbytes * per
        c2 = z3.Extract(31, 0, m.gpr['x0' if end == 'ret' else 'x1'])
        # no count reaches 256 within the step (c + G <= 256 at the head): the counts at
        # the stores are claimed by their differences (store_claims)
        unguarded = G <= 256 and holds([z3.Implies(inv, z3.ULE(c, 256 - G))])
        out, lemmas = store_claims(kernel, m, c, p, G, c2, unguarded)
        claims = lemmas + out + access_claims(m, c, p, L) + m.side
        if end == 'ret':
            claims.append(('x0 = the count, upper half zero; the spec has stopped (count >= 256 or no '
                           'whole group left)', z3.And(z3.Extract(63, 32, m.gpr['x0']) == 0,
                                                       z3.Or(z3.UGE(c2, 256), z3.ULT(L - p2, stop_left)))))
            claims += [('%s as at entry' % r, m.gpr[r] == entry.init[r]) for r in PRESERVED]
            claims += [('d%d as at entry' % i, m.vec[i][j] == entry.vec[i][j]) for _, i, j in D8_15]
        else:
            lab, (cmax, rmin) = heads[end]
            claims.append(('at head %s: the bytes read are those consumed, x3 = len - p, count <= %d, '
                           'len - p >= %d, p <= len' % (lab, cmax, rmin),
                           z3.And(d == nread, m.gpr['x3'] == L - p2,
                                  z3.ULE(c2, cmax), z3.ULE(p2, L), z3.UGE(L - p2, rmin))))
            claims.append(('the %d kept registers kept' % len(kept), z3.And(*[
                (m.gpr[k[1]] if k[0] == 'g' else m.vec[k[1]][k[2]]) == v for k, v in kept.items()])))
        t1 = time.time()
        prove_claims(m, inv, cond, claims, where)
        if DEBUG:
            print('%6.2f s %s, %d claims' % (time.time() - t1, where, len(claims)), flush=True)
        nobl += 1
        rep.ok('step %s (%d candidates)' % (where, G), '%d claims' % len(claims), time.time() - t1)
    rep.ok('whole loop: %d paths between the entry, %d loop heads and ret' % (nobl, len(heads)),
           'by induction: a[n..count) = FIPS 204 %s of buf, the count returned' %
           ('RejNTTPoly' if kernel == 'rej_uniform' else 'RejBoundedPoly'), time.time() - t0)
