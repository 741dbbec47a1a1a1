# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The samplers' whole loop (FIPS 204 RejNTTPoly / RejBoundedPoly's inner loops, Alg. 30
and 31 with Alg. 14 and 15), by induction over the loop steps.

The loop heads (the targets of backward branches) are cut points. At a cut point the
state is symbolic: the count c (%eax, upper half zero), the input position p (%rdx =
buf + p, %rcx = len - p) and the output memory a (any bytes); every other register is
either proved to hold the same value at every arrival (the constants the entry loads:
q, masks, table addresses) or is unknown. Each head has an invariant, declared below and
proved at every arrival: c <= cmax, len - p >= rmin (the guards the step relies on), p <=
len. From the entry (c = n, p = 0) and from each head, every path to the next head or to
`ret` (branches on the state split the path; table lookups and the left-pack by the
accept mask stay symbolic: the table is .rodata as a Z3 array) must satisfy, with
G the candidates of the bytes consumed, v_j, ok_j as FIPS 204 defines them
(sampler_lanes.candidates) and the counts cnt_0 = c, cnt_{j+1} = cnt_j + [ok_j and
cnt_j < 256]:
  - the bytes consumed, p' - p, are a constant number of whole groups (3 bytes, or one
    byte of two half-bytes); every read of buf lies in [0, len);
  - every write to a lies in [4 c, 1024): below the count nothing changes, nothing past
    a[255] is touched;
  - for every candidate j with ok_j and cnt_j < 256: a'[cnt_j] = v_j (a 32-bit lane);
  - the new count is cnt_G;
  - at `ret`: %eax = the count and the spec has stopped (count >= 256 or fewer bytes than
    a group left); at a head: its invariant, and %rcx = len - p'.
By induction over the steps, a[n..count) holds the accepted candidates of buf in order,
exactly the spec's output, and the returned count is the spec's."""
import functools
import time
import z3
from . import semantics as S
from .executor import resolve
from .machine import Machine, ExecError, CALLEE_SAVED, simp

from .lanes import Failure, free_vars

import os
DEBUG = bool(os.environ.get('PROVER_DEBUG'))
W64 = z3.BitVecSort(64)
W8 = z3.BitVecSort(8)


class SymMachine(Machine):
    """memory as Z3 arrays (buf, a: any bytes; .rodata: its bytes), offsets may be terms."""
    nrow = 0

    def __init__(self, unit, args, frame=0):
        super().__init__(unit, args, frame)
        for b in ('a', 'buf', 'rodata'):
            self.base(b)
        self.rows = {}
        self.wlog = []
        ro = z3.K(W64, z3.BitVecVal(0, 8))
        for i, b in enumerate(unit.rodata):
            if b:
                ro = z3.Store(ro, z3.BitVecVal(i, 64), z3.BitVecVal(b, 8))
        self.arr = {'rodata': ro, 'buf': z3.Array('buf', W64, W8), 'a': z3.Array('a_mem', W64, W8)}

    def clone(self):
        c = object.__new__(SymMachine)
        c.__dict__.update(self.__dict__)
        c.axioms, c.rows, c.wlog = list(self.axioms), dict(self.rows), list(self.wlog)
        c.gpr, c.flags, c.arr = dict(self.gpr), dict(self.flags), dict(self.arr)
        c.vec, c.k, c.trace = [list(r) for r in self.vec], list(self.k), list(self.trace)
        return c

    def split_addr(self, a):
        a = simp(a)
        for name, ptr in self.ptrs.items():
            d = simp(a - ptr)
            if not any(v.startswith('ptr_') for v in free_vars(d)):
                return name, d
        raise ExecError('address not base + offset: %s' % a)

    def _off(self, off, i):
        return simp((off if z3.is_bv(off) else z3.BitVecVal(off, 64)) + i)

    def load(self, base, off, nbytes):
        if base not in self.arr:
            raise ExecError('read of %s' % base)
        self.trace.append((self.step, 'r', base, self._off(off, 0), nbytes))
        if base == 'rodata' and z3.is_bv(off) and not z3.is_bv_value(simp(off)):
            return self.table_load(simp(off), nbytes)
        bs = [simp(z3.Select(self.arr[base], self._off(off, i))) for i in range(nbytes)]
        return simp(z3.Concat(*reversed(bs))) if nbytes > 1 else bs[0]

    def table_load(self, off, nbytes):
        """a byte of .Lleft_pack or .Lpopcount at a row given by a mask x (at most 8 bits):
        .Lpopcount[x] is popcount(x); .Lleft_pack row x, column k is a fresh R with, for
        k < popcount(x), bit R of x set and k bits of x below it (the k-th set bit). Both
        are what check_tables proves of every row, exhaustively, before the proof runs."""
        k, x, scale = _table_index(off)
        if nbytes != 1 or x is None:
            raise ExecError('table read at a symbolic offset of another form: %s' % off)
        syms = self.unit.symbols
        for lab, rowlen in (('.Lleft_pack', 8), ('.Lpopcount', 1)):
            o = syms.get(lab)
            if o is not None and scale == rowlen and o <= k < o + rowlen:
                col = k - o
                x8 = z3.ZeroExt(8 - x.size(), x) if x.size() < 8 else x
                pc = popcount(x8)
                if lab == '.Lpopcount':
                    return pc
                key = (x8.get_id(), col)
                if key not in self.rows:
                    SymMachine.nrow += 1        # a name of its own: facts of two rows never meet
                    R = z3.BitVec('row%d[%d]' % (SymMachine.nrow, col), 8)
                    below = popcount(x8 & (z3.BitVecVal(1, 8) << R) - 1)
                    self.axioms.append(z3.Implies(z3.ULT(col, pc), z3.And(
                        z3.ULT(R, 8), z3.Extract(0, 0, z3.LShR(x8, R)) == 1, below == col)))
                    self.rows[key] = (x8, R)
                return self.rows[key][1]
        raise ExecError('table read at a symbolic offset outside .Lleft_pack / .Lpopcount: %s' % off)

    def store(self, base, off, value, nbytes):
        if base not in ('a',):
            raise ExecError('store to %s' % base)
        self.trace.append((self.step, 'w', base, self._off(off, 0), nbytes))
        for i in range(nbytes):
            self.arr[base] = z3.Store(self.arr[base], self._off(off, i), simp(z3.Extract(8 * i + 7, 8 * i, value)))
            self.wlog.append((self._off(off, i), simp(z3.Extract(8 * i + 7, 8 * i, value))))

    def read_a(self, off):
        """the byte of a at off after the step: the last write whose offset differs from
        off by 0, when every later write differs by a nonzero constant (so the array's
        Select is that value); else the Select itself."""
        for w_off, v in reversed(self.wlog):
            d = simp(w_off - off)
            if not z3.is_bv_value(d):
                return z3.Select(self.arr['a'], off)
            if d.as_long() == 0:
                return v
        return z3.Select(self.arr['a'], off)


def popcount(x):
    return functools.reduce(lambda a, b: a + b, [z3.ZeroExt(x.size() - 1, z3.Extract(i, i, x))
                                                 for i in range(x.size())])


def _table_index(off):
    """off = k + scale * ZeroExt(x) -> (k, x, scale); (k, None, 0) otherwise."""
    k, rest = 0, []
    for t in (off.children() if z3.is_app_of(off, z3.Z3_OP_BADD) else [off]):
        if z3.is_bv_value(t):
            k += t.as_long()
        else:
            rest.append(t)
    if len(rest) != 1:
        return k, None, 0
    t, scale = rest[0], 1
    if z3.is_app_of(t, z3.Z3_OP_BMUL) and t.num_args() == 2 and z3.is_bv_value(t.arg(0)):
        scale, t = t.arg(0).as_long(), t.arg(1)
    if z3.is_app_of(t, z3.Z3_OP_CONCAT) and z3.is_bv_value(t.arg(0)) and t.arg(0).as_long() == 0 \
            and t.size() - t.arg(0).size() <= 8:
        x = t.children()[1:]
        return k % (1 << 64), (x[0] if len(x) == 1 else z3.Concat(*x)), scale
    if z3.is_app_of(t, z3.Z3_OP_ZERO_EXT) and t.arg(0).size() <= 8:
        return k % (1 << 64), t.arg(0), scale
    return k, None, 0


def check_tables(unit):
    """the facts table_load states, for every row of the tables the unit has."""
    bad = []
    syms, ro = unit.symbols, unit.rodata
    if '.Lleft_pack' in syms:
        o = syms['.Lleft_pack']
        for x in range(256):
            bits = [i for i in range(8) if x >> i & 1]
            if list(ro[o + 8 * x:o + 8 * x + len(bits)]) != bits:
                bad.append(('.Lleft_pack', x))
    if '.Lpopcount' in syms:
        o = syms['.Lpopcount']
        bad += [('.Lpopcount', x) for x in range(256) if ro[o + x] != bin(x).count('1')]
    return bad


def explore(unit, fn, m, pc, heads, first=True):
    """every path from pc to a head (not pc itself on the first instruction) or ret:
    a list of (path condition, machine, end: head pc or 'ret')."""
    out, work = [], [(m, pc, [], first)]
    steps = 0
    while work:
        m, pc, cond, first = work.pop()
        while True:
            if pc in heads and not first:
                out.append((z3.And(*cond) if cond else z3.BoolVal(True), m, pc))
                break
            first = False
            steps += 1
            if steps > 20000:
                raise ExecError('more than 20000 steps between cut points')
            ins = fn.insns[pc]
            mn = ins.mnem
            m.step += 1
            if mn in S.NOPS:
                pc += 1
                continue
            if mn in ('ret', 'retq'):
                out.append((z3.And(*cond) if cond else z3.BoolVal(True), m, 'ret'))
                break
            if mn == 'jmp' or mn in S.BRANCHES:
                tgt = resolve(fn, pc, ins.ops[0].sym)
                if mn == 'jmp':
                    pc = tgt
                    continue
                if not m.flags:
                    raise ExecError('line %d: branch before any flag was set' % ins.line)
                c = simp(S.BRANCHES[mn](m.flags))
                if z3.is_true(c):
                    pc = tgt
                elif z3.is_false(c):
                    pc += 1
                else:
                    m2 = m.clone()
                    work.append((m2, pc + 1, cond + [z3.Not(c)], False))
                    cond = cond + [c]
                    pc = tgt
                continue
            nops, h = S.lookup(mn)
            ops = list(reversed(ins.ops))
            if not mn.startswith('v') and len(ops) == nops - 1 and nops >= 3:
                ops.insert(1, ops[0])
            try:
                h(m, ins, ops)
            except ExecError as e:
                raise ExecError('line %d (%s): %s' % (ins.line, ins.text, e))
            pc += 1
    return out


# kernel -> (bytes per group, candidates per group, bytes left when the spec stops: < this)
GROUP = {'rej_uniform': (3, 1, 3), 'rej_eta2': (1, 2, 1), 'rej_eta4': (1, 2, 1)}
# (kernel, isa) -> {loop head label: (cmax, rmin)}: the invariants, proved at each arrival
HEADS = {
    ('rej_uniform', 'avx2'): {'10': (248, 24), '30': (255, 3)},
}
# not yet: the eta loops (four left-packs per step whose stores overlap), avx512
# rej_uniform (16 candidates per step: 136 rank claims of up to 20 s each, unfinished
# after 20 minutes) and sse2 (a branch on the accept pattern inside the step)
TRIED = {
    ('rej_uniform', 'avx512'): {'10': (240, 48), '12': (248, 24), '30': (255, 3)},
    ('rej_eta2', 'avx2'): {'10': (224, 16), '12': (248, 4), '30': (255, 1)},
    ('rej_eta4', 'avx2'): {'10': (224, 16), '12': (248, 4), '30': (255, 1)},
}
STATE = ('rax', 'rdx', 'rcx')


def valid(f, what, timeout_ms=60000):
    s = z3.Solver()
    s.set('timeout', timeout_ms)
    s.add(z3.Not(f))
    r = s.check()
    if r == z3.unsat:
        return
    if r == z3.sat:
        mdl = s.model()
        raise Failure('%s: counterexample %s' % (what, ', '.join(
            '%s=%s' % (d.name(), mdl[d]) for d in mdl.decls() if d.arity() == 0)[:300]))
    raise Failure('%s: unfinished (Z3 %s)' % (what, s.reason_unknown()))


def prove_loop(unit, isa, rep, kernel):
    t0 = time.time()
    fname = 'mldsa_%s_%s' % (kernel, isa)
    fn = unit.functions.get(fname)
    gbytes, per, stop_left = GROUP[kernel]
    decl = HEADS.get((kernel, isa))
    if decl is None or fn is None:
        raise Failure('no loop invariants declared for %s %s' % (kernel, isa))
    # the loop heads: targets of backward branches, each with its declared invariant
    heads = {}
    for pc, ins in enumerate(fn.insns):
        if ins.mnem in S.BRANCHES or ins.mnem == 'jmp':
            tgt = resolve(fn, pc, ins.ops[0].sym)
            if tgt <= pc:
                heads[tgt] = None
    for lab, inv in decl.items():
        cands = [i for i, k in fn.numeric if str(k) == lab]
        if len(cands) != 1 or cands[0] not in heads:
            raise Failure('label %s is not one loop head' % lab)
        heads[cands[0]] = (lab, inv)
    if any(v is None for v in heads.values()):
        raise Failure('a loop head without a declared invariant')
    bad = check_tables(unit)
    if bad:
        raise Failure('table rows wrong: %s' % bad[:3])
    L = z3.BitVec('len', 64)
    n = z3.BitVec('n', 32)
    entry = SymMachine(unit, {'rdi': ('ptr', 'a'), 'rsi': ('val', z3.Concat(z3.BitVec('init_upper_rsi', 32), n)),
                              'rdx': ('ptr', 'buf'), 'rcx': ('val', L)})
    buf0 = entry.base('buf')
    paths = [('entry', n, z3.BitVecVal(0, 64), z3.BoolVal(True), p) for p in
             explore(unit, fn, entry, 0, heads)]
    # the registers that keep their entry value at every head: a fixpoint from "all"
    kept = None
    for _ in range(4):
        arrivals = [m for _, _, _, _, (pc_, m, end) in paths if end != 'ret']
        regs = {('g', r): entry_v for r, entry_v in arrivals[0].gpr.items()} if arrivals else {}
        cand = {}
        for key in list(regs):
            r = key[1]
            if r in STATE or r == 'rsp':
                continue
            vals = [m.gpr[r] for m in arrivals]
            if all(simp(v == vals[0]).eq(z3.BoolVal(True)) for v in vals) and (kept is None or key in kept):
                cand[key] = vals[0]
        for i in range(32):
            for j in range(16):
                vals = [m.vec[i][j] for m in arrivals]
                key = ('v', i, j)
                if vals and all(simp(v == vals[0]).eq(z3.BoolVal(True)) for v in vals) and (kept is None or key in kept):
                    cand[key] = vals[0]
        if kept is not None and set(cand) == set(kept) and all(cand[k].eq(kept[k]) for k in cand):
            break
        kept = cand
        # the head states with these registers, the rest unknown
        paths = [x for x in paths if x[0] == 'entry']
        for hpc, (lab, (cmax, rmin)) in heads.items():
            m = SymMachine(unit, {'rdi': ('ptr', 'a'), 'rdx': ('ptr', 'buf')})
            c, p = z3.BitVec('c', 32), z3.BitVec('p', 64)
            for r in list(m.gpr):
                if r not in ('rsp', 'rdi'):
                    m.gpr[r] = kept.get(('g', r), z3.BitVec('head_%s' % r, 64))
            for i in range(32):
                for j in range(16):
                    m.vec[i][j] = kept.get(('v', i, j), z3.BitVec('head_v%d_%d' % (i, j), 32))
            m.k = [z3.BitVec('head_k%d' % i, 64) for i in range(8)]
            for r in CALLEE_SAVED:
                if ('g', r) not in kept:
                    raise Failure('callee-saved %s not kept across the loop' % r)
            m.gpr['rax'] = z3.ZeroExt(32, c)
            m.gpr['rdx'] = buf0 + p
            m.gpr['rcx'] = L - p
            m.init = dict(entry.init)
            inv = z3.And(z3.ULE(c, cmax), z3.ULE(p, L), z3.UGE(L - p, rmin))
            paths += [(lab, c, p, inv, x) for x in explore(unit, fn, m, hpc, heads)]
    nobl = 0
    proved = {}
    for src, c, p, inv, (cond, m, end) in paths:
        pre = z3.And(inv, cond, *m.axioms)
        where = 'from %s to %s' % ('entry' if src == 'entry' else 'head ' + src,
                                  'ret' if end == 'ret' else 'head ' + heads[end][0])
        rax = m.gpr['rax']
        p2 = simp(m.gpr['rdx'] - buf0)
        if any(v.startswith('ptr_') for v in free_vars(p2)):
            raise Failure('%s: %%rdx not buf + offset' % where)
        d = simp(p2 - p)
        if not z3.is_bv_value(d) or d.as_long() % gbytes or d.as_long() >= 1 << 20:
            raise Failure('%s: bytes consumed %s, not a constant number of whole groups' % (where, d))
        G = d.as_long() // gbytes * per
        c2 = z3.Extract(31, 0, rax)

        def byte(o):
            return z3.Select(m.arr['buf'], p + o)
        from .sampler_lanes import candidates
        cands = candidates(kernel, byte, G)
        claims = []
        cnt = c
        for j, (v, ok) in enumerate(cands):
            v32 = v if v.size() == 32 else z3.SignExt(32 - v.size(), v)
            live = z3.And(ok, z3.ULT(cnt, 256))
            off = z3.ZeroExt(32, cnt) * 4
            got = z3.Concat(*[z3.Select(m.arr['a'], off + (3 - i)) for i in range(4)])
            # split by the rank cnt_j - c (0 .. j, every case below, and no other: the last claim)
            for r in range(j + 1):
                o = simp(z3.ZeroExt(32, c + r) * 4)
                got_r = z3.Concat(*[m.read_a(simp(o + (3 - i))) for i in range(4)])
                claims.append(('candidate %d, %d kept before it: stored at a[c + %d]' % (j, r, r),
                               z3.Implies(z3.And(live, cnt == c + r), got_r == v32)))
            claims.append(('candidate %d: cnt_%d - c in [0, %d]' % (j, j, j), z3.ULE(cnt - c, j)))
            cnt = cnt + z3.If(live, z3.BitVecVal(1, 32), z3.BitVecVal(0, 32))
        claims.append(('count = c + accepted', c2 == cnt))
        for _, kind, base, off, nb in m.trace:
            if base == 'buf':
                claims.append(('read buf[%s, +%d) within [0, len)' % (off, nb),
                               z3.ULE(z3.ZeroExt(1, off) + nb, z3.ZeroExt(1, L))))
            elif base == 'a' and kind == 'w':
                claims.append(('write a[%s, +%d) within [4 c, 1024)' % (off, nb), z3.And(
                    z3.ULE(z3.ZeroExt(32, c) * 4, off), z3.ULE(z3.ZeroExt(1, off) + nb, 1024))))
            elif base not in ('rodata',):
                raise Failure('%s: access to %s' % (where, base))
        if end == 'ret':
            claims.append(('%eax upper half zero, the spec has stopped (count >= 256 or no whole group left)',
                           z3.And(z3.Extract(63, 32, rax) == 0,
                                  z3.Or(z3.UGE(c2, 256), z3.ULT(L - p2, stop_left)))))
            for r in CALLEE_SAVED + ['rsp']:
                claims.append(('%s restored' % r, m.gpr[r] == entry.init[r]))
            for i in range(16):
                up = [simp(x) for x in m.vec[i][4:8]]
                if not all(z3.is_bv_value(x) and x.as_long() == 0 for x in up):
                    raise Failure('%s: upper half of ymm%d not zero at ret' % (where, i))
        else:
            lab, (cmax, rmin) = heads[end]
            claims.append(('at head %s: %%eax zero-extended, %%rcx = len - p, count <= %d, len - p >= %d, p <= len'
                           % (lab, cmax, rmin),
                           z3.And(z3.Extract(63, 32, rax) == 0, m.gpr['rcx'] == L - p2, z3.ULE(c2, cmax),
                                  z3.ULE(p2, L), z3.UGE(L - p2, rmin))))
            claims.append(('the %d kept registers kept' % len(kept), z3.And(*[
                (m.gpr[key[1]] if key[0] == 'g' else m.vec[key[1]][key[2]]) == v for key, v in kept.items()])))
        t1 = time.time()
        base = z3.And(inv, *m.axioms)
        for what, c_ in claims:
            # first without the path condition (the step's body is shared by the paths
            # that part after it: the claim is the same term, proved once)
            key = z3.Implies(base, c_)
            if key.get_id() in proved:
                continue
            try:
                t2 = time.time()
                valid(key, what, timeout_ms=20000)
                if DEBUG:
                    print('%6.2f s %s' % (time.time() - t2, what))
                proved[key.get_id()] = key
            except Failure:
                valid(z3.Implies(pre, c_), '%s: %s' % (where, what))
        nobl += 1
        rep.ok('step %s (%d candidates)' % (where, G), '%d claims' % len(claims), time.time() - t1)
    rep.ok('whole loop: %d paths between the entry, %d loop heads and ret' % (nobl, len(heads)),
           'by induction: a[n..count) = FIPS 204 %s of buf, the count returned' %
           ('RejNTTPoly' if kernel == 'rej_uniform' else 'RejBoundedPoly'), time.time() - t0)
