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
(sampler_step.candidates) and the counts cnt_0 = c, cnt_{j+1} = cnt_j + [ok_j and
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
exactly the spec's output, and the returned count is the spec's.

The claim a'[cnt_j] = v_j is proved store by store (store_claims), never by reading the
array: the stores of a step may overlap (rej_eta's four left-packs per step), and a
later one only writes at or past the count the earlier ones reached. A loop head
without a declared invariant (sse2 rej_uniform's one-by-one pass over the 4 of a step,
counted by a constant) is unrolled. Before a left-pack (vpermd by .Lleft_pack rows,
vpcompressd) its source lanes and mask become fresh variables (abstract_pack): the
pack's rank and count claims are proved about them alone, and lemmas, proved from their
definitions, tie them to the candidates."""
import functools
import time
import z3
from . import semantics as S
from .executor import resolve, check_return
from .machine import Machine, ExecError, CALLEE_SAVED, simp, vreg

from .lanes import Failure, free_vars
from .sampler_step import candidates

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
        self.stores = []
        self.defs, self.packs, self.masks = [], [], {}
        ro = z3.K(W64, z3.BitVecVal(0, 8))
        for i, b in enumerate(unit.rodata):
            if b:
                ro = z3.Store(ro, z3.BitVecVal(i, 64), z3.BitVecVal(b, 8))
        self.arr = {'rodata': ro, 'buf': z3.Array('buf', W64, W8), 'a': z3.Array('a_mem', W64, W8)}

    # the state a path changes: copied when it splits (the terms themselves are shared)
    LISTS = ('axioms', 'stores', 'defs', 'packs', 'k', 'trace')
    DICTS = ('rows', 'masks', 'gpr', 'flags', 'arr')

    def clone(self):
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        for name in self.LISTS:
            setattr(c, name, list(getattr(self, name)))
        for name in self.DICTS:
            setattr(c, name, dict(getattr(self, name)))
        c.vec = [list(r) for r in self.vec]
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
                x8 = self.fresh_mask(x8)
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

    def fresh(self, name, definition):
        SymMachine.nrow += 1
        f = z3.BitVec('%s%d' % (name, SymMachine.nrow), definition.size())
        self.defs.append(f == definition)
        return f

    def control(self, fn, pc, ins):
        """(kind, target, condition): 'nop', 'ret', 'jump' to target, 'branch' to target
        when condition holds, or None for an instruction to execute."""
        mn = ins.mnem
        if mn in S.NOPS:
            return 'nop', None, None
        if mn in ('ret', 'retq'):
            check_return(ins)
            return 'ret', None, None
        if mn == 'jmp' or mn in S.BRANCHES:
            tgt = resolve(fn, pc, ins.ops[0].sym)
            if mn == 'jmp':
                return 'jump', tgt, None
            if not self.flags:
                raise ExecError('line %d: branch before any flag was set' % ins.line)
            return 'branch', tgt, S.BRANCHES[mn](self.flags)
        return None, None, None

    def execute(self, ins):
        """ins by its semantics; a left-pack's source and mask abstracted first, the count
        named after an instruction that writes it."""
        mn = ins.mnem
        nops, h = S.lookup(mn)
        ops = list(reversed(ins.ops))
        if not mn.startswith('v') and len(ops) == nops - 1 and nops >= 3:
            ops.insert(1, ops[0])
        if mn in ('vpermd', 'vpcompressd'):
            self.abstract_pack(mn, ops)
        h(self, ins, ops)
        if ins.ops and ins.ops[-1].kind == 'reg' and ins.ops[-1].reg in ('eax', 'rax'):
            self.name_count()

    def name_count(self):
        """the count (%eax) after an instruction that added a term of the step's bytes (a
        popcount, an accept bit): a fresh variable, defined apart (self.defs). The branch
        on it and the claims about it then speak of one variable: Z3 would otherwise have
        to prove two differently summed forms of 64 accept bits equal, which bit-blasting
        does slowly."""
        rax = simp(self.gpr['rax'])
        upper = simp(z3.Extract(63, 32, rax))
        low = simp(z3.Extract(31, 0, rax))
        if not (z3.is_bv_value(upper) and upper.as_long() == 0) or set(free_vars(low)) <= {'c', 'n'}:
            return
        self.gpr['rax'] = z3.ZeroExt(32, self.fresh('count', low))

    def fresh_mask(self, x):
        """a table row's index (the accept mask of a left-pack) as a fresh variable, the
        same one for every read of the same index, defined apart (self.defs)."""
        if all(v.startswith(('kmask', 'mask')) for v in free_vars(x)):
            self.last_mask = x              # already of fresh variables alone
            return x
        if x.get_id() not in self.masks:
            self.masks[x.get_id()] = self.fresh('mask', x)
        self.last_mask = self.masks[x.get_id()]
        return self.last_mask

    def abstract_pack(self, mn, ops):
        """before a left-pack (vpermd by table rows, vpcompressd): its source lanes and
        its mask become fresh variables, their definitions kept apart (self.defs). The
        pack's claims are proved from lemmas about the fresh variables (mask bit i =
        [candidate i kept], source lane i = its value where kept), which are proved from
        the definitions: proved for every value the variables may take, they hold for the
        defined one."""
        src = ops[2] if mn == 'vpermd' else ops[1]
        if src.kind != 'reg':
            raise ExecError('%s from memory not abstracted' % mn)
        r, n = vreg(src.reg)
        lanes = []
        for i in range(n):
            self.vec[r][i] = self.fresh('lane', self.vec[r][i])
            lanes.append(self.vec[r][i])
        if mn == 'vpcompressd':
            kr, k = int(ops[0].mask[1:]), self.k[int(ops[0].mask[1:])]
            mask = self.fresh('kmask', simp(z3.Extract(n - 1, 0, k)))     # the bits it reads
            self.k[kr] = simp(z3.Concat(z3.Extract(k.size() - 1, n, k), mask)) if k.size() > n else mask
        else:
            mask = self.last_mask
        self.packs.append((mask, lanes))

    def store(self, base, off, value, nbytes):
        if base not in ('a',):
            raise ExecError('store to %s' % base)
        self.trace.append((self.step, 'w', base, self._off(off, 0), nbytes))
        self.stores.append((self.step, self._off(off, 0), simp(value), nbytes, simp(z3.Extract(31, 0, self.gpr['rax']))))
        for i in range(nbytes):
            self.arr[base] = z3.Store(self.arr[base], self._off(off, i), simp(z3.Extract(8 * i + 7, 8 * i, value)))


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


def explore(fn, m, pc, heads):
    """every path from pc to a head (not pc itself on the first instruction) or ret: a
    list of (path condition, machine, end: head pc or 'ret'). A path splits at a branch
    on a non-constant condition only; the machine decodes control flow (m.control) and
    runs every other instruction (m.execute)."""
    out, work, steps = [], [(m, pc, [], True)], 0
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
            m.step += 1
            kind, tgt, c = m.control(fn, pc, ins)
            if kind == 'ret':
                out.append((z3.And(*cond) if cond else z3.BoolVal(True), m, 'ret'))
                break
            if kind == 'branch':
                c = simp(c)
                if z3.is_true(c):
                    pc = tgt
                elif z3.is_false(c):
                    pc += 1
                else:
                    work.append((m.clone(), pc + 1, cond + [z3.Not(c)], False))
                    cond, pc = cond + [c], tgt
                continue
            if kind == 'jump':
                pc = tgt
                continue
            if kind != 'nop':
                try:
                    m.execute(ins)
                except ExecError as e:
                    raise ExecError('line %d (%s): %s' % (ins.line, ins.text, e))
            pc += 1
    return out


# kernel -> (bytes per group, candidates per group, bytes left when the spec stops: < this)
GROUP = {'rej_uniform': (3, 1, 3), 'rej_eta2': (1, 2, 1), 'rej_eta4': (1, 2, 1)}
# (kernel, isa) -> {loop head label: (cmax, rmin)}: the invariants, proved at each arrival
HEADS = {
    ('rej_uniform', 'avx2'): {'10': (248, 24), '30': (255, 3)},
    ('rej_uniform', 'sse2'): {'10': (252, 14), '30': (255, 3)},
    ('rej_uniform', 'avx512'): {'10': (240, 48), '12': (248, 24), '30': (255, 3)},
    ('rej_eta2', 'sse2'): {'10': (240, 8), '30': (255, 1)},
    ('rej_eta4', 'sse2'): {'10': (240, 8), '30': (255, 1)},
    ('rej_eta2', 'avx2'): {'10': (224, 16), '12': (248, 4), '30': (255, 1)},
    ('rej_eta4', 'avx2'): {'10': (224, 16), '12': (248, 4), '30': (255, 1)},
    ('rej_eta2', 'avx512'): {'10': (192, 32), '12': (240, 8), '30': (255, 1)},
    ('rej_eta4', 'avx512'): {'10': (192, 32), '12': (240, 8), '30': (255, 1)},
}
STATE = ('rax', 'rdx', 'rcx')


def vector_stores(stores):
    """the writes of each instruction as one store: (offset, its dwords in order, %eax then)."""
    out, last = [], None
    for step, off, val, nb, count in stores:
        if nb != 4:
            raise Failure('a store of %d bytes to a: not whole dwords' % nb)
        if step == last:
            d = simp(off - out[-1][0])
            if not (z3.is_bv_value(d) and d.as_long() == 4 * len(out[-1][1])):
                raise Failure('one instruction stores dwords that do not follow each other')
            out[-1][1].append(val)
        else:
            out.append((off, [val], count))
        last = step
    return out


def store_claims(kernel, m, c, p, G, c2, unguarded):
    """the step's output claims, store by store. The step's stores to a, in order, are
    whole dwords: store s of W_s dwords at a[K_s] takes the next W_s candidates, group s
    = [g_s, g_s + W_s). Claimed: K_s = cnt_{g_s}; for j in group s with live_j, the
    stored dword at lane cnt_j - cnt_{g_s} (split by that rank) is v_j; the groups' counts
    rise (cnt_{g_{s+1}} <= cnt_{g_t} for t > s); candidates past the last group are not
    live; the new count is cnt_G. With every write in [4 c, 1024) (claimed with the reads)
    these give the whole-step claim: for a live j in group s, a'[cnt_j] is written by
    store s (its rank is below W_s) and by no later store t, which starts at cnt_{g_t} >=
    cnt_{g_{s+1}} > cnt_j and does not wrap. No claim reads the array a itself.

    unguarded (c + G <= 256 proved at the head): no count reaches 256 within the step,
    so cnt_j = c + the accepted among candidates 0 .. j-1, and K_s = cnt_{g_s} is
    claimed by differences, group by group: store s is at a[K_s] with K_s its %eax,
    K_0 - c = 0, K_{s+1} - K_s = the accepted of group s and the new count - K_last = the
    accepted of the last group; K_s = cnt_{g_s} follows by induction over s."""

    def byte(o):
        return z3.Select(m.arr['buf'], p + o)
    cands = candidates(kernel, byte, G)
    one, zero = z3.BitVecVal(1, 32), z3.BitVecVal(0, 32)
    cnt = [c]
    for v, ok in cands:
        cnt.append(cnt[-1] + z3.If(ok if unguarded else z3.And(ok, z3.ULT(cnt[-1], 256)), one, zero))

    vs = vector_stores(m.stores)
    if m.packs and (len(m.packs) != len(vs) or not unguarded):
        raise Failure('%d left-packs and %d stores in a step whose count %s reach 256' % (
            len(m.packs), len(vs), 'cannot' if unguarded else 'may'))
    # a left-packed step's claims speak of each pack's fresh mask and source lanes; the
    # lemmas tie them to the candidates (mask bit i = ok_{g+i}, source lane i = v_{g+i}
    # where kept), so that a claim about bits and lanes is the claim about ok and v
    ind, val = {}, {}
    g = 0
    for s, (off, lanes, K) in enumerate(vs):
        for j in range(g, min(g + len(lanes), G)):
            if m.packs:
                mask, src = m.packs[s]
                ind[j], val[j] = z3.Extract(j - g, j - g, mask) == 1, src[j - g]
        g += len(lanes)
    for j, (v, ok) in enumerate(cands):
        ind.setdefault(j, ok)
        val.setdefault(j, v if v.size() == 32 else z3.SignExt(32 - v.size(), v))

    def kept(a, b):         # cnt_b - cnt_a, unguarded: the accepted among a .. b-1 alone
        return simp(sum([z3.If(ind[i], one, zero) for i in range(a, b)], zero)) if unguarded \
            else cnt[b] - cnt[a]
    claims, g = [], 0
    starts, counts = [], []
    lemmas = []
    for s, (off, lanes, K) in enumerate(vs):
        W = min(len(lanes), G - g)
        if W <= 0:
            raise Failure('store %d past the %d candidates of the step' % (s, G))
        starts.append(g)
        counts.append(K)
        if unguarded:
            claims.append(('store %d at a[4 * the count register then]' % s, off == z3.ZeroExt(32, K) * 4))
        else:
            claims.append(('store %d at a[cnt_%d]' % (s, g), off == z3.ZeroExt(32, cnt[g]) * 4))
        for j in range(g, g + W):
            v, ok = cands[j]
            v32 = v if v.size() == 32 else z3.SignExt(32 - v.size(), v)
            if m.packs:
                lemmas.append(('left-pack %d: mask bit %d = [candidate %d kept]' % (s, j - g, j), ind[j] == ok))
                lemmas.append(('left-pack %d: source lane %d = candidate %d where kept' % (s, j - g, j),
                               z3.Implies(ok, val[j] == v32)))
            live = ind[j] if unguarded else z3.And(ok, z3.ULT(cnt[j], 256))
            rank = kept(g, j)
            for r in range(j - g + 1):
                claims.append(('candidate %d, %d kept before it in store %d: its lane %d' % (j, r, s, r),
                               z3.Implies(z3.And(live, rank == r), lanes[r] == val[j])))
            if not unguarded:
                claims.append(('candidate %d: cnt_%d - cnt_%d in [0, %d]' % (j, j, g, j - g),
                               z3.ULE(rank, j - g)))
        g += W
    starts.append(g)
    if unguarded:
        if g != G:
            raise Failure('the stores hold %d of the %d candidates' % (g, G))
        for s, (a, b) in enumerate(zip([c] + counts, counts + [c2])):
            claims.append(('count %s - count %s = the accepted of candidates %d .. %d'
                           % ('at store %d' % s if s < len(counts) else 'after', 'at store %d' % (s - 1) if s else 'c',
                              ([0] + starts)[s], starts[s] - 1 if s < len(counts) else G - 1),
                           simp(b - a) == kept(([0] + starts)[s], starts[s] if s < len(counts) else G)))
        return claims, lemmas
    for s in range(len(starts) - 1):
        for t in range(s + 1, len(starts) - 1):
            claims.append(('store %d starts at or past the kept part of store %d' % (t, s),
                           z3.ULE(cnt[starts[s + 1]], cnt[starts[t]])))
    for j in range(g, G):
        claims.append(('candidate %d (past the stores) not live' % j,
                       z3.Not(z3.And(cands[j][1], z3.ULT(cnt[j], 256)))))
    claims.append(('count = c + accepted', c2 == cnt[G]))
    return claims, lemmas


# the state's variables: every claim and fact has them, they link nothing
STATE_VARS = {'buf', 'p', 'len', 'c', 'n'}


# the claims that hold by the path's condition (the branches to the head or ret)
PATH_CLAIMS = ('at head', '%eax upper half zero')


_VARS = {}


def names(e):
    """free_vars(e)'s names, remembered by term (the paths share most of their terms)."""
    hit = _VARS.get(e.get_id())
    if hit is None:
        hit = _VARS[e.get_id()] = (e, frozenset(free_vars(e)))   # e kept: its id stays its own
    return hit[1]


def relevant(axioms, claim):
    """the axioms (each with its free variables) that share a variable other than the
    state's with the claim or with one of those, transitively."""
    linked = set(names(claim)) - STATE_VARS
    rest = [(i, v - STATE_VARS) for i, (_, v) in enumerate(axioms)]
    taken = set()
    grew = True
    while grew:
        grew = False
        left = []
        for i, v in rest:
            if v & linked:
                taken.add(i)
                linked |= v
                grew = True
            else:
                left.append((i, v))
        rest = left
    return [axioms[i][0] for i in sorted(taken)]


def offset_name(off, origin, name):
    """off for a claim's name: origin + k where the difference is a constant, else a
    placeholder (printing a count term of 64 candidates takes Z3 a second)."""
    d = simp(off - origin)
    return '%s + %d' % (name, d.as_signed_long()) if z3.is_bv_value(d) else '%s + a count' % name


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


def bv_vars(e):
    """the bit-vector variables of e; None if e has a term of another sort than
    bit-vector or Boolean (an array)."""
    out, seen, todo = {}, set(), [e]
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if not (z3.is_bv(t) or z3.is_bool(t)):
            return None
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED and z3.is_bv(t):
            out[t.get_id()] = t
        todo += t.children()
    return list(out.values())


def access_claims(m, c, p, L):
    """every read of buf within [0, len), every write of a within [4 c, 1024), every
    .rodata read at a symbolic offset within .rodata; no other memory touched."""
    claims = []
    for _, kind, base, off, nb in m.trace:
        if base == 'buf':
            claims.append(('read buf[%s, +%d) within [0, len)' % (offset_name(off, p, 'p'), nb),
                           z3.ULE(z3.ZeroExt(1, off) + nb, z3.ZeroExt(1, L))))
        elif base == 'a' and kind == 'w':
            claims.append(('write a[%s, +%d) within [4 c, 1024)'
                           % (offset_name(off, z3.ZeroExt(32, c) * 4, '4 c'), nb), z3.And(
                z3.ULE(z3.ZeroExt(32, c) * 4, off), z3.ULE(z3.ZeroExt(1, off) + nb, 1024))))
        elif base == 'rodata' and not z3.is_bv_value(simp(off)):
            claims.append(('table read .rodata[%s, +%d) within .rodata' % (off, nb),
                           z3.ULE(z3.ZeroExt(1, off) + nb, len(m.unit.rodata))))
        elif base != 'rodata':
            raise Failure('access to %s' % base)
    return claims


def buf_bytes(e, buf):
    """each read of buf in e, Select(buf, i), paired with a byte variable of its own: a
    claim proved of free bytes holds of buf's (and is plain bit-vector logic, which Z3
    bit-blasts, not array logic)."""
    out, seen, todo = [], set(), [e]
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_select(t) and t.arg(0).eq(buf):
            out.append((t, z3.BitVec('buf@%s' % simp(t.arg(1)), 8)))     # one variable per offset
        else:
            todo += t.children()
    return out


def bv_valid(f, what, timeout_ms=120000, pure=None):
    """f is valid, by bit-blasting (Z3's QF_BV solver) where f has no arrays left (pure:
    known of f already), else by valid()."""
    if not pure if pure is not None else bv_vars(f) is None:
        return valid(f, what, timeout_ms=timeout_ms)
    s = z3.SolverFor('QF_BV')
    s.set('timeout', timeout_ms)
    s.add(z3.Not(f))
    r = s.check()
    if r != z3.unsat:
        raise Failure('%s: %s' % (what, 'counterexample' if r == z3.sat else 'unfinished (Z3 %s)' % s.reason_unknown()))


class FreeBytes:
    """a path's claims proved with buf's bytes as free bytes (buf_bytes, bv_valid), the
    reads of buf found and the absence of other arrays checked once for all the path's
    terms, not per claim (each claim is a part of them)."""
    def __init__(self, terms, buf):
        whole = z3.And(*terms)
        self.pairs = buf_bytes(whole, buf)
        self.pure = bv_vars(z3.substitute(whole, *self.pairs) if self.pairs else whole) is not None

    def valid(self, f, what, timeout_ms=120000):
        bv_valid(z3.substitute(f, *self.pairs) if self.pairs else f, what, timeout_ms, self.pure)


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
    # a loop without a declared invariant (sse2's one-by-one pass over the 4 of a step,
    # counted by a constant) is unrolled: explore follows it, and fails past its step bound
    heads = {pc: v for pc, v in heads.items() if v is not None}
    bad = check_tables(unit)
    if bad:
        raise Failure('table rows wrong: %s' % bad[:3])
    L = z3.BitVec('len', 64)
    n = z3.BitVec('n', 32)
    entry = SymMachine(unit, {'rdi': ('ptr', 'a'), 'rsi': ('val', z3.Concat(z3.BitVec('init_upper_rsi', 32), n)),
                              'rdx': ('ptr', 'buf'), 'rcx': ('val', L)})
    buf0 = entry.base('buf')
    paths = [('entry', n, z3.BitVecVal(0, 64), z3.BoolVal(True), p) for p in
             explore(fn, entry, 0, heads)]
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
            paths += [(lab, c, p, inv, x) for x in explore(fn, m, hpc, heads)]
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
        claims = []
        if end == 'ret' and sum(len(x[1]) for x in vector_stores(m.stores)) > G:
            # stopped inside a group (the count reached 256 at its first half-byte, buf
            # not advanced): the group is the spec's too, if it lies within buf
            G += per
            p2 = simp(p2 + gbytes)
            claims.append(('the group stopped in lies within buf', z3.ULE(p2, L)))
        # no count reaches 256 within the step: a claim about the invariant alone
        unguarded = G <= 256
        try:
            valid(z3.Implies(inv, z3.ULE(c, 256 - G)), 'c + G <= 256', timeout_ms=20000)
        except Failure:
            unguarded = False
        out, lemmas = store_claims(kernel, m, c, p, G, c2, unguarded)
        claims += out
        claims += access_claims(m, c, p, L)
        if end == 'ret':
            claims.append(('%eax upper half zero, the spec has stopped (count >= 256 or no whole group left)',
                           z3.And(z3.Extract(63, 32, rax) == 0,
                                  z3.Or(z3.UGE(c2, 256), z3.ULT(L - p2, stop_left)))))
            for r in CALLEE_SAVED + ['rsp']:
                claims.append(('%s restored' % r, m.gpr[r] == entry.init[r]))
            for i in range(16 if isa != 'sse2' else 0):     # sse2 code has no upper halves to clear
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

        # bit-vector logic: store_claims never reads a, .rodata at a constant offset is its byte
        prove = FreeBytes([inv, cond] + m.axioms + m.defs + [c_ for _, c_ in lemmas + claims],
                          m.arr['buf']).valid
        ax = [(a, names(a)) for a in m.axioms]
        full = [(a, names(a)) for a in m.axioms + m.defs]
        lem = [c_ for _, c_ in lemmas]
        for n_, (what, c_) in enumerate(lemmas + claims):
            t2 = time.time()
            # a claim may rest on the lemmas (each proved here from the definitions); a
            # lemma may not (it would assume itself)
            hyps = lem if n_ >= len(lemmas) else []
            if what.startswith(PATH_CLAIMS):
                # the head's guards and the stop: true on this path, by its condition
                keys = [z3.Implies(z3.And(inv, *relevant(f, z3.And(cond, c_)), cond), c_) for f in (ax, full)]
                if not any(k.get_id() in proved for k in keys):
                    try:
                        prove(keys[0], what, timeout_ms=20000)
                    except Failure:
                        prove(keys[1], '%s: %s' % (where, what))
                        keys = keys[1:]
                    proved[keys[0].get_id()] = keys[0]
                    if DEBUG:
                        print('%6.2f s %s (by the path condition)' % (time.time() - t2, what))
                continue
            # first without the path condition (the step's body is shared by the paths
            # that part after it: the claim is the same term, proved once) and with only
            # the facts about its variables (fewer hypotheses: a stronger claim); first
            # from the table facts alone, without the definitions of the fresh variables
            tries = [z3.Implies(z3.And(inv, *relevant(full, c_)), c_)]
            if m.defs and not what.startswith('left-pack'):
                tries.insert(0, z3.Implies(z3.And(inv, *relevant(ax, c_)), c_))
            if any(k.get_id() in proved for k in tries):
                continue
            for i, key in enumerate(tries):
                try:
                    prove(key, what, timeout_ms=20000)
                    proved[key.get_id()] = key
                    break
                except Failure:
                    if i + 1 == len(tries):
                        prove(z3.Implies(z3.And(pre, *m.defs, *hyps), c_), '%s: %s' % (where, what))
            if DEBUG:
                print('%6.2f s %s%s' % (time.time() - t2, what, '' if i == 0 else ' (second try)'))
        nobl += 1
        rep.ok('step %s (%d candidates)' % (where, G), '%d claims' % len(claims), time.time() - t1)
    rep.ok('whole loop: %d paths between the entry, %d loop heads and ret' % (nobl, len(heads)),
           'by induction: a[n..count) = FIPS 204 %s of buf, the count returned' %
           ('RejNTTPoly' if kernel == 'rej_uniform' else 'RejBoundedPoly'), time.time() - t0)
