# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The AArch64 front end: statements and operands as GNU as reads them for AArch64, the
machine state (x0-x30, sp, v0-v31 as four dword terms each, NZCV), the bit-vector
semantics of the instructions the neon element-wise kernels and products use, and the
symbolic run of one function with the AAPCS64 checks at `ret`. Everything after the run
(loop structure, lane classes, the per-kernel claims) is the ISA-neutral code of
lanes.py and kernels.py, the same obligations as for x86.

Memory is the x86 machine's (machine.py): bytes at (base, offset), inputs created on
first read, every access traced. The kernels declare no stack frame, so any store to
the stack fails the run."""
import re
import z3

from .syntax import Operand, ParseError
from .executor import resolve, MAX_STEPS, MAX_BACK_EDGES
from .machine import Machine, ExecError, simp

BV = z3.BitVecVal


# ------------------------------------------------------------------------ parsing
def statements(line):
    """GNU as on AArch64: '//' starts a comment anywhere, '#' only at the start of a line
    (elsewhere it prefixes an immediate), ';' separates statements."""
    if line.lstrip().startswith('#'):
        return []
    out, cur, quoted, i = [], '', False, 0
    while i < len(line):
        ch = line[i]
        if quoted:
            cur += ch
            if ch == '\\' and i + 1 < len(line):
                cur += line[i + 1]
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
            cur += ch
        elif line.startswith('//', i):
            break
        elif ch == ';':
            out.append(cur)
            cur = ''
        else:
            cur += ch
        i += 1
    out.append(cur)
    return [x.strip() for x in out if x.strip()]


VREG = re.compile(r'^v(\d+)\.(\d+)([bhsd])$')
VELEM = re.compile(r'^v(\d+)\.([bhsd])\[(\d+)\]$')
# a shifted or extended register operand's shift (eor x0, x1, x2, ror #63; movz x0, #1,
# lsl #16; add x0, x1, w2, uxtw): the amount may be left out
SHIFT = re.compile(r'^(lsl|lsr|asr|ror|uxtw|sxtw)(?:\s+#(\d+))?$')
# a label, or a .rodata label plus a constant (adrp x1, .Lrc+16)
SYMBOL = r'[A-Za-z_.0-9][\w.$]*(?:\+\d+)?'
COND = {'eq', 'ne', 'hs', 'cs', 'lo', 'cc', 'mi', 'pl', 'vs', 'vc', 'hi', 'ls', 'ge', 'lt', 'gt', 'le'}


def _reg_name(t):
    return bool(re.match(r'^([xwqdsbh]\d+|sp|wsp|xzr|wzr)$', t))


def parse_operand(t):
    """kinds: 'reg' (x/w/q/d/s registers), 'vreg' (vN.<arr>, reg 'vN', sym the arrangement),
    'vlist' ({vN.<arr>}), 'velem' (vN.s[i]: reg 'vN', sym the element size, imm the
    index), 'imm' (#n), 'mem' ([xN] or [xN, #n]; [xN, wM, uxtw #k]: index wM, sym the
    extension, imm k or None), 'mempre' ([xN, #n]!: pre-indexed), 'memlo12' ([xN,
    #:lo12:sym]), 'shift' (ror #n, lsl #k, uxtw #k ...: sym the operation, imm the amount
    or None), 'lo12' (:lo12:sym), 'cond', 'label' (sym, or sym+n)."""
    o = Operand(kind='?', text=t)
    t = t.strip()
    m = VREG.match(t)
    e = VELEM.match(t)
    if m:
        o.kind, o.reg, o.sym = 'vreg', 'v' + m.group(1), m.group(2) + m.group(3)
    elif e:
        o.kind, o.reg, o.sym, o.imm = 'velem', 'v' + e.group(1), e.group(2), int(e.group(3))
    elif t.startswith('{') and t.endswith('}'):
        m = VREG.match(t[1:-1].strip())
        if not m:
            raise ParseError('register list not a single vN.<arr>: ' + t)
        o.kind, o.reg, o.sym = 'vlist', 'v' + m.group(1), m.group(2) + m.group(3)
    elif t.startswith('#'):
        o.kind, o.imm = 'imm', int(t[1:].strip(), 0)
    elif t.startswith('[') and t.count(',') == 2:
        m = re.match(r'^\[\s*(x\d+|sp)\s*,\s*(w\d+)\s*,\s*(uxtw|sxtw)(?:\s+#(\d+))?\s*\]$', t)
        if not m:
            raise ParseError('memory operand not [xN, wM, uxtw|sxtw #k]: ' + t)
        o.kind, o.base, o.index, o.sym = 'mem', m.group(1), m.group(2), m.group(3)
        o.imm = int(m.group(4)) if m.group(4) is not None else None
    elif t.startswith('['):
        m = re.match(r'^\[\s*(\w+)\s*(?:,\s*#(-?\w+))?\s*\](!?)$', t)
        lo = re.match(r'^\[\s*(\w+)\s*,\s*#:lo12:(%s)\s*\]$' % SYMBOL, t)
        if lo and _reg_name(lo.group(1)):
            o.kind, o.base, o.sym = 'memlo12', lo.group(1), lo.group(2)
        elif not m or not _reg_name(m.group(1)) or m.group(3) and not m.group(2):
            raise ParseError('memory operand not [xN], [xN, #imm], [xN, #imm]! or [xN, #:lo12:sym]: ' + t)
        else:
            o.kind = 'mempre' if m.group(3) else 'mem'
            o.base, o.disp = m.group(1), int(m.group(2), 0) if m.group(2) else 0
    elif t.startswith(':lo12:'):
        o.kind, o.sym = 'lo12', t[len(':lo12:'):]
    elif SHIFT.match(t):
        m = SHIFT.match(t)
        o.kind, o.sym, o.imm = 'shift', m.group(1), int(m.group(2)) if m.group(2) is not None else None
    elif _reg_name(t):
        o.kind, o.reg = 'reg', t
    elif t in COND:
        o.kind, o.sym = 'cond', t
    elif re.match(r'^%s$' % SYMBOL, t):
        o.kind, o.sym = 'label', t
    else:
        raise ParseError('unknown AArch64 operand ' + t)
    return o


def unparse(ins):
    """the instruction written back from its parsed fields (for the assembled-bytes check)."""
    def op(o):
        if o.kind == 'vreg':
            return '%s.%s' % (o.reg, o.sym)
        if o.kind == 'vlist':
            return '{%s.%s}' % (o.reg, o.sym)
        if o.kind == 'velem':
            return '%s.%s[%d]' % (o.reg, o.sym, o.imm)
        if o.kind == 'imm':
            return '#%d' % o.imm
        if o.kind == 'mem' and o.index:
            return '[%s, %s, %s]' % (o.base, o.index, o.sym + (' #%d' % o.imm if o.imm is not None else ''))
        if o.kind == 'mem':
            return '[%s, #%d]' % (o.base, o.disp) if o.disp else '[%s]' % o.base
        if o.kind == 'mempre':
            return '[%s, #%d]!' % (o.base, o.disp)
        if o.kind == 'memlo12':
            return '[%s, #:lo12:%s]' % (o.base, o.sym)
        if o.kind == 'shift':
            return o.sym + (' #%d' % o.imm if o.imm is not None else '')
        if o.kind == 'lo12':
            return ':lo12:' + o.sym
        if o.kind == 'reg':
            return o.reg
        return o.sym
    return ins.mnem + (' ' + ', '.join(op(o) for o in ins.ops) if ins.ops else '')


# ------------------------------------------------------------------------ machine
CALLEE_SAVED = ['x%d' % i for i in range(19, 30)]   # AAPCS64; d8-d15 checked apart
# x18 is the platform register (reserved on some systems): a kernel must not write it
PRESERVED = CALLEE_SAVED + ['x18']


class A64(Machine):
    def __init__(self, unit, args, frame=0):
        self.unit = unit
        self.frame = frame
        self.gpr = {'x%d' % i: z3.BitVec('init_x%d' % i, 64) for i in range(31)}
        self.ptrs = {}
        for reg, (kind, v) in args.items():
            self.gpr[reg] = self.base(v) if kind == 'ptr' else v
        self.gpr['sp'] = self.base('stack')
        self.init = dict(self.gpr)
        self.vec = [[z3.BitVec('init_v%d_%d' % (i, j), 32) for j in range(4)] for i in range(32)]
        self.flags = {}
        self.mem = {}
        self.inputs = {}
        self.trace = []
        self.step = 0
        self.prods = {}
        self.mqs = {}
        self.axioms = []
        self.pages = {}

    def stack_check(self, off, nbytes, what):
        '''AArch64 has no red zone: nothing below the current sp is accessed, and a write
        lies within the declared frame below the entry sp.'''
        base, sp = self.split_addr(self.gpr['sp'])
        if base != 'stack':
            raise ExecError('sp is not a stack address')
        if off < sp:
            raise ExecError('%s of the stack at %d, below sp = %d' % (what, off, sp))
        if what == 'write' and not (-self.frame <= off and off + nbytes <= 0):
            raise ExecError('stack write at [%d, %d): outside the declared frame [%d, 0)'
                            % (off, off + nbytes, -self.frame))

    def rd_gpr(self, name, width=None):
        if name in ('xzr', 'wzr'):
            return BV(0, 64 if name == 'xzr' else 32)
        if name == 'sp':
            return self.gpr['sp']
        if name[0] == 'w':
            return simp(z3.Extract(31, 0, self.gpr['x' + name[1:]]))
        if name[0] == 'x':
            return self.gpr[name]
        raise ExecError('not a general register: ' + name)

    def wr_gpr(self, name, value):
        if name in ('xzr', 'wzr'):
            return
        if name[0] == 'w':
            assert value.size() == 32
            self.gpr['x' + name[1:]] = simp(z3.ZeroExt(32, value))
        elif name[0] == 'x' or name == 'sp':
            assert value.size() == 64
            self.gpr[name if name == 'sp' else name] = simp(value)
        else:
            raise ExecError('not a general register: ' + name)

    def addr(self, op):
        if op.kind != 'mem':
            raise ExecError('not a memory operand: ' + op.text)
        a = self.rd_gpr(op.base) + op.disp
        if op.index:
            # [xN, wM, uxtw|sxtw #k]: wM extended to 64 bits, shifted left by k
            w = self.rd_gpr(op.index)
            a = a + ((z3.ZeroExt if op.sym == 'uxtw' else z3.SignExt)(32, w) << (op.imm or 0))
        return self.split_addr(a)

    def vr(self, op):
        return list(self.vec[int(op.reg[1:])])

    def vw(self, op, ds):
        assert len(ds) == 4 and all(d.size() == 32 for d in ds)
        self.vec[int(op.reg[1:])] = [simp(d) for d in ds]


# ------------------------------------------------------------------------ semantics
TABLE = {}
NOPS = {'hint'}      # hint #34 is bti c: a landing pad, no effect on the state


def sem(*names):
    def deco(f):
        for n in names:
            TABLE[n] = f
        return f
    return deco


def known(mn):
    return mn in TABLE or mn in NOPS or mn == 'ret' or mn in BRANCHES


def arr(op, *allowed):
    if op.kind != 'vreg' or op.sym not in allowed:
        raise ExecError('arrangement %s not one of %s' % (op.text, '/'.join(allowed)))
    return op.sym


def lanewise(f, arrs=('4s',)):
    """dest, src1, src2 vectors of 4 x 32-bit lanes (or bytes for the bitwise ops, which
    act on dwords alike)."""
    def h(m, ins, ops):
        d, a, b = ops
        for o in ops:
            arr(o, *arrs)
        m.vw(d, [f(x, y) for x, y in zip(m.vr(a), m.vr(b))])
    return h


def ones_if(c):
    return z3.If(c, BV(0xffffffff, 32), BV(0, 32))


for _n, _f in {
    'add': lambda x, y: x + y, 'sub': lambda x, y: x - y,
    'cmgt': lambda x, y: ones_if(x > y), 'cmeq': lambda x, y: ones_if(x == y),
    'cmge': lambda x, y: ones_if(x >= y), 'cmhi': lambda x, y: ones_if(z3.UGT(x, y)),
    'cmtst': lambda x, y: ones_if((x & y) != 0),
    'smin': lambda x, y: z3.If(x < y, x, y), 'smax': lambda x, y: z3.If(x > y, x, y),
    'umin': lambda x, y: z3.If(z3.ULT(x, y), x, y), 'umax': lambda x, y: z3.If(z3.UGT(x, y), x, y),
    'shsub': lambda x, y: z3.Extract(32, 1, z3.SignExt(1, x) - z3.SignExt(1, y)),
}.items():
    TABLE['v' + _n] = lanewise(_f)
for _n, _f in {'and': lambda x, y: x & y, 'orr': lambda x, y: x | y, 'eor': lambda x, y: x ^ y,
               'bic': lambda x, y: x & ~y}.items():
    TABLE['v' + _n] = lanewise(_f, ('16b',))


def src2(m, op):
    """the second source of a product: a vector vN.4s, or one element vN.s[i] (0 <= i
    <= 3; any of v0-v31 for 32-bit elements) taken for all four lanes."""
    if op.kind == 'velem':
        if op.sym != 's' or not 0 <= op.imm <= 3:
            raise ExecError('element %s not one of vN.s[0..3]' % op.text)
        return [m.vec[int(op.reg[1:])][op.imm]] * 4
    arr(op, '4s')
    return m.vr(op)


@sem('vmul', 'vmla', 'vmls')
def _mul(m, ins, ops):
    """mul: lo(a b) per lane; mla/mls: d + lo(a b) / d - lo(a b) (mod 2^32)."""
    d, a, b = ops
    arr(d, '4s'), arr(a, '4s')
    B = src2(m, b)
    if ins.mnem != 'mul' and b.kind == 'velem':
        raise ExecError('%s by element has no semantics here' % ins.mnem)
    p = [m.product('lo', x, y) for x, y in zip(m.vr(a), B)]
    if ins.mnem == 'mla':
        p = [z + x for z, x in zip(m.vr(d), p)]
    elif ins.mnem == 'mls':
        p = [z - x for z, x in zip(m.vr(d), p)]
    m.vw(d, p)


def sqdmulh(m, x, y):
    """hi(2 x y), saturated: only x = y = -2^31 overflows (to 2^31 - 1). 2 P fits in 64
    bits otherwise (|P| <= 2^62), so its high half is bits 62..31 of P."""
    P = m.product('s', x, y)
    sat = z3.And(x == BV(1 << 31, 32), y == BV(1 << 31, 32))
    return z3.If(sat, BV(0x7fffffff, 32), z3.Extract(62, 31, P))


def sqrdmulh(m, x, y):
    """hi(2 x y + 2^31), saturated as sqdmulh: bits 62..31 of P + 2^30 (no 64-bit wrap,
    |P| <= 2^62 - 2^31 except at x = y = -2^31)."""
    P = m.product('s', x, y)
    sat = z3.And(x == BV(1 << 31, 32), y == BV(1 << 31, 32))
    return z3.If(sat, BV(0x7fffffff, 32), z3.Extract(62, 31, P + BV(1 << 30, 64)))


@sem('vsqdmulh', 'vsqrdmulh')
def _sqdmulh(m, ins, ops):
    d, a, b = ops
    arr(d, '4s'), arr(a, '4s')
    f = sqdmulh if ins.mnem == 'sqdmulh' else sqrdmulh
    m.vw(d, [f(m, x, y) for x, y in zip(m.vr(a), src2(m, b))])


@sem('vabs')
def _abs(m, ins, ops):
    d, a = ops
    arr(d, '4s'), arr(a, '4s')
    m.vw(d, [z3.If(x < 0, -x, x) for x in m.vr(a)])


def shift(kind):
    def h(m, ins, ops):
        d, a, n = ops
        arr(d, '4s'), arr(a, '4s')
        if n.kind != 'imm':
            raise ExecError('shift count not an immediate')
        k = n.imm
        lim = (0, 31) if kind == 'shl' else (1, 32)
        if not lim[0] <= k <= lim[1]:
            raise ExecError('shift count %d out of range' % k)

        def f(x):
            if kind == 'shl':
                return x << k
            if kind == 'sshr':
                return x >> min(k, 31)
            if kind == 'ushr':
                return z3.LShR(x, k) if k < 32 else BV(0, 32)
            # urshr: (x + 2^(k-1)) >> k over 33 bits, no wrap
            return z3.Extract(31, 0, z3.LShR(z3.ZeroExt(1, x) + (1 << (k - 1)), k))
        m.vw(d, [f(x) for x in m.vr(a)])
    return h


for _k in ('shl', 'sshr', 'ushr', 'urshr'):
    TABLE['v' + _k] = shift(_k)


def q64(ds, j):
    return z3.Concat(ds[2 * j + 1], ds[2 * j])


def mlal(sign, high):
    """smlal/smlsl(2): 64-bit lanes d_j +/- sext(a_k) sext(b_k), k = j (+2 for the 2 form)."""
    def h(m, ins, ops):
        d, a, b = ops
        arr(d, '2d')
        arr(a, '4s' if high else '2s'), arr(b, '4s' if high else '2s')
        A, B, D = m.vr(a), m.vr(b), m.vr(d)
        out = []
        for j in range(2):
            k = j + 2 * high
            P = m.product('s', A[k], B[k])
            acc = q64(D, j) + P if sign > 0 else q64(D, j) - P
            out += [z3.Extract(31, 0, acc), z3.Extract(63, 32, acc)]
        m.vw(d, out)
    return h


TABLE['vsmlal'], TABLE['vsmlal2'] = mlal(1, 0), mlal(1, 1)
TABLE['vsmlsl'], TABLE['vsmlsl2'] = mlal(-1, 0), mlal(-1, 1)


def uzp(odd):
    def h(m, ins, ops):
        d, a, b = ops
        for o in ops:
            arr(o, '4s')
        A, B = m.vr(a), m.vr(b)
        m.vw(d, [A[odd], A[2 + odd], B[odd], B[2 + odd]])
    return h


TABLE['vuzp1'], TABLE['vuzp2'] = uzp(0), uzp(1)


def zip_(high):
    """zip1/zip2 .4s: the low (high) halves' elements interleaved, a0 b0 a1 b1
    (a2 b2 a3 b3); .2d: the same of qwords, a0 b0 (a1 b1), each qword two dwords."""
    def h(m, ins, ops):
        d, a, b = ops
        k = arr(d, '4s', '2d')
        for o in ops:
            arr(o, k)
        A, B = m.vr(a), m.vr(b)
        if k == '4s':
            m.vw(d, [A[2 * high], B[2 * high], A[2 * high + 1], B[2 * high + 1]])
        else:
            m.vw(d, A[2 * high:2 * high + 2] + B[2 * high:2 * high + 2])
    return h


TABLE['vzip1'], TABLE['vzip2'] = zip_(0), zip_(1)


def byte_of(ds, j):
    return z3.Extract(8 * (j % 4) + 7, 8 * (j % 4), ds[j // 4])


def from_bytes(bs):
    return [simp(z3.Concat(bs[4 * k + 3], bs[4 * k + 2], bs[4 * k + 1], bs[4 * k])) for k in range(4)]


@sem('vtbl')
def _tbl(m, ins, ops):
    """tbl vD.16b, {vN.16b}, vM.16b: byte j = byte M_j of N where M_j < 16, else 0
    (a table of one register)."""
    d, t, x = ops
    if t.kind != 'vlist' or t.sym != '16b':
        raise ExecError('tbl with a table other than one {vN.16b}')
    arr(d, '16b'), arr(x, '16b')
    T, X = m.vr(t), m.vr(x)
    out = []
    for j in range(16):
        ix = byte_of(X, j)
        r = BV(0, 8)
        for k in range(16):
            r = z3.If(ix == k, byte_of(T, k), r)
        out.append(r)
    m.vw(d, from_bytes(out))


@sem('vushl')
def _ushl(m, ins, ops):
    """ushl vD.4s, vN.4s, vM.4s: per lane, s = the signed low byte of M's lane: N << s
    for s >= 0, N >> -s (logical) for s < 0; a count of 32 or more gives 0."""
    d, a, b = ops
    for o in ops:
        arr(o, '4s')
    out = []
    for x, y in zip(m.vr(a), m.vr(b)):
        s_ = z3.SignExt(24, z3.Extract(7, 0, y))
        out.append(z3.If(s_ >= 0, x << s_, z3.LShR(x, -s_)))
    m.vw(d, out)


@sem('vmovi')
def _movi(m, ins, ops):
    d, i = ops
    arr(d, '2d')
    if i.kind != 'imm' or i.imm != 0:
        raise ExecError('movi with an immediate other than 0 has no semantics here')
    m.vw(d, [BV(0, 32)] * 4)


def across(f):
    def h(m, ins, ops):
        d, a = ops
        if d.kind != 'reg' or d.reg[0] != 's':
            raise ExecError('destination not an s register')
        arr(a, '4s')
        xs = m.vr(a)
        r = xs[0]
        for x in xs[1:]:
            r = f(r, x)
        # a scalar write clears the rest of the vector register
        m.vec[int(d.reg[1:])] = [simp(r), BV(0, 32), BV(0, 32), BV(0, 32)]
    return h


TABLE['vaddv'] = across(lambda x, y: x + y)
TABLE['vumaxv'] = across(lambda x, y: z3.If(z3.UGT(x, y), x, y))


@sem('fmov')
def _fmov(m, ins, ops):
    """fmov wN, sM and xN, dM (the low lane, the low two); fmov sN, wM and dN, xM (the
    register's low 32 or 64 bits, the rest of the vector register cleared)."""
    d, s = ops
    if d.kind == 'reg' and s.kind == 'reg' and d.reg[0] + s.reg[0] == 'ws':
        m.wr_gpr(d.reg, m.vec[int(s.reg[1:])][0])
    elif d.kind == 'reg' and s.kind == 'reg' and d.reg[0] + s.reg[0] == 'xd':
        m.wr_gpr(d.reg, q64(m.vec[int(s.reg[1:])], 0))
    elif d.kind == 'reg' and s.kind == 'reg' and d.reg[0] + s.reg[0] in ('sw', 'dx'):
        v = m.rd_gpr(s.reg)
        lanes = [z3.Extract(31, 0, v)] + ([z3.Extract(63, 32, v)] if d.reg[0] == 'd' else [])
        m.vec[int(d.reg[1:])] = [simp(x) for x in lanes] + [BV(0, 32)] * (4 - len(lanes))
    else:
        raise ExecError('fmov %s has no semantics here' % ins.text)


def gpr_src(m, op, width):
    if op.kind == 'imm':
        return BV(op.imm % (1 << width), width)
    if op.kind == 'reg' and op.reg[0] in 'xw' and (op.reg[0] == 'x') == (width == 64) or \
            op.kind == 'reg' and op.reg in ('sp', 'xzr', 'wzr'):
        return m.rd_gpr(op.reg)
    raise ExecError('operand %s is not a %d-bit general register or immediate' % (op.text, width))


def width(op):
    if op.kind != 'reg' or not (op.reg[0] in 'xw' or op.reg == 'sp'):
        raise ExecError('not a general register: ' + op.text)
    return 32 if op.reg[0] == 'w' else 64


@sem('mov')
def _mov(m, ins, ops):
    d, s = ops
    w = width(d)
    if s.kind == 'imm' and not -(1 << 16) <= s.imm < (1 << 16):
        raise ExecError('mov immediate beyond one movz/movn')
    m.wr_gpr(d.reg, gpr_src(m, s, w))


def nzcv_sub(a, b):
    r = a - b
    w = a.size()
    return r, {'N': z3.Extract(w - 1, w - 1, r) == 1, 'Z': r == 0, 'C': z3.UGE(a, b),
               'V': z3.And(z3.Extract(w - 1, w - 1, a) != z3.Extract(w - 1, w - 1, b),
                           z3.Extract(w - 1, w - 1, r) != z3.Extract(w - 1, w - 1, a))}


def addsub(kind, setflags):
    def h(m, ins, ops):
        d, a, b = ops
        w = width(d)
        x = gpr_src(m, a, w)
        if b.kind == 'lo12':
            # adrp + add :lo12: of one symbol in .rodata: its address
            if kind != 'add' or setflags or w != 64 or not x.eq(m.pages.get(b.sym, BV(0, 1))):
                raise ExecError(':lo12:%s not added to the adrp page of the same symbol' % b.sym)
            if b.sym not in m.unit.symbols:
                raise ExecError('unknown symbol ' + b.sym)
            m.wr_gpr(d.reg, m.base('rodata') + m.unit.symbols[b.sym])
            return
        if b.kind == 'imm' and not 0 <= b.imm < 4096:
            raise ExecError('immediate %d not a 12-bit unsigned one' % b.imm)
        y = gpr_src(m, b, w)
        if kind == 'add':
            r = x + y
            if setflags:
                raise ExecError('adds has no semantics here')
        else:
            r, fl = nzcv_sub(x, y)
            if setflags:
                m.flags = fl
        m.wr_gpr(d.reg, r)
    return h


TABLE['add'], TABLE['sub'], TABLE['subs'] = addsub('add', False), addsub('sub', False), addsub('sub', True)


@sem('cmp')
def _cmp(m, ins, ops):
    a, b = ops
    w = width(a)
    if b.kind == 'imm' and not 0 <= b.imm < 4096:
        raise ExecError('immediate not 12-bit')
    m.flags = nzcv_sub(gpr_src(m, a, w), gpr_src(m, b, w))[1]


CONDS = {
    'eq': lambda f: f['Z'], 'ne': lambda f: z3.Not(f['Z']),
    'hs': lambda f: f['C'], 'cs': lambda f: f['C'], 'lo': lambda f: z3.Not(f['C']),
    'cc': lambda f: z3.Not(f['C']), 'mi': lambda f: f['N'], 'pl': lambda f: z3.Not(f['N']),
    'hi': lambda f: z3.And(f['C'], z3.Not(f['Z'])), 'ls': lambda f: z3.Or(z3.Not(f['C']), f['Z']),
    'ge': lambda f: f['N'] == f['V'], 'lt': lambda f: f['N'] != f['V'],
    'gt': lambda f: z3.And(z3.Not(f['Z']), f['N'] == f['V']), 'le': lambda f: z3.Or(f['Z'], f['N'] != f['V']),
}


@sem('cset')
def _cset(m, ins, ops):
    d, c = ops
    if not m.flags:
        raise ExecError('cset before any flag was set')
    m.wr_gpr(d.reg, z3.If(CONDS[c.sym](m.flags), BV(1, width(d)), BV(0, width(d))))


@sem('adrp')
def _adrp(m, ins, ops):
    d, s = ops
    if s.kind != 'label' or s.sym.partition('+')[0] not in m.unit.symbols:
        raise ExecError('adrp of something other than a .rodata label (plus a constant)')
    # the page is an opaque value: only add :lo12: of the same symbol turns it into an
    # address, so a page used alone or with another symbol's offset fails the run
    p = z3.BitVec('adrp_page_%s' % s.sym, 64)
    m.pages[s.sym] = p
    m.wr_gpr(d.reg, p)


# ---- loads and stores: ldr/str of one register, ldp/stp of two; x registers (8 bytes,
# one term), d registers (the low 8 bytes of a vector register, as two dwords; a load
# clears the upper half) and q registers (16 bytes, four dwords)
SIZE = {'x': 8, 'd': 8, 'q': 16}


def _address(m, ins, mem, post, size, pair):
    """(base, offset) of the access and the new base register value (None: no writeback).
    The offset forms are the scaled ones (unsigned 12-bit for one register, signed 7-bit
    for a pair); pre- and post-indexed: a 9-bit signed byte count for one register, the
    scaled signed 7-bit one for a pair; [xN, #:lo12:sym] (ldr x only): the .rodata
    address of sym (plus its constant) when xN holds adrp's page of the same sym."""
    lo, hi = (-64 * size, 63 * size) if pair else (-256, 255)
    if mem.kind == 'memlo12':
        if post is not None or pair or ins.mnem != 'ldr':
            raise ExecError('a :lo12: offset only in ldr xN, [xM, #:lo12:sym]')
        if not m.rd_gpr(mem.base).eq(m.pages.get(mem.sym, BV(0, 1))):
            raise ExecError(':lo12:%s not from the adrp page of the same symbol' % mem.sym)
        label, _, plus = mem.sym.partition('+')
        if label not in m.unit.symbols:
            raise ExecError('unknown symbol ' + label)
        off = m.unit.symbols[label] + int(plus or 0)
        if off % size:
            raise ExecError(':lo12:%s not a multiple of the access size' % mem.sym)
        return ('rodata', off), None
    if mem.kind not in ('mem', 'mempre') or mem.base[0] != 'x' and mem.base != 'sp':
        raise ExecError('memory operand not [xN|sp, ...]: ' + mem.text)
    reg = m.rd_gpr(mem.base)
    if mem.base == 'sp':
        # AArch64 faults on an sp base that is not 16-byte aligned (entry sp is)
        if m.split_addr(reg)[1] % 16:
            raise ExecError('sp not 16-byte aligned as a base')
    if post is not None:
        if post.kind != 'imm' or mem.kind != 'mem' or mem.disp:
            raise ExecError('post-index only as [xN], #imm')
        if not lo <= post.imm <= hi or pair and post.imm % size:
            raise ExecError('post-index %d out of range' % post.imm)
        return m.addr(mem), reg + BV(post.imm % (1 << 64), 64)
    if mem.kind == 'mempre':
        if not lo <= mem.disp <= hi or pair and mem.disp % size:
            raise ExecError('pre-index %d out of range' % mem.disp)
        return m.split_addr(reg + mem.disp), reg + BV(mem.disp % (1 << 64), 64)
    if pair and (mem.disp % size or not lo <= mem.disp <= hi) or \
            not pair and (mem.disp % size or not 0 <= mem.disp < 4096 * size):
        raise ExecError('offset %d not a scaled immediate of the form' % mem.disp)
    return m.addr(mem), None


def _load_reg(m, r, base, off):
    if r.reg[0] == 'x':
        m.wr_gpr(r.reg, m.load(base, off, 8))
    else:
        ds = [m.load(base, off + 4 * j, 4) for j in range(SIZE[r.reg[0]] // 4)]
        m.vec[int(r.reg[1:])] = ds + [BV(0, 32)] * (4 - len(ds))


def _store_reg(m, r, base, off):
    if r.reg[0] == 'x':
        m.store(base, off, m.rd_gpr(r.reg), 8)
    else:
        for j in range(SIZE[r.reg[0]] // 4):
            m.store(base, off + 4 * j, m.vec[int(r.reg[1:])][j], 4)


@sem('ldr', 'str', 'ldp', 'stp')
def _transfer(m, ins, ops):
    """ldr/str Rt, <mem> and ldp/stp Rt1, Rt2, <mem>, Rt all x, d or q registers, <mem>
    [xN|sp, #imm] (offset), [xN|sp, #imm]! (pre-indexed) or [xN|sp], #imm (post-indexed:
    the access at xN, then xN += imm); a pair is Rt1 at the address, Rt2 after it. A load
    of two equal registers and a writeback to a transferred register are unpredictable."""
    pair = ins.mnem in ('ldp', 'stp')
    regs = list(ops[:2] if pair else ops[:1])
    rest = ops[len(regs):]
    if not 1 <= len(rest) <= 2:
        raise ExecError('operands of %s' % ins.mnem)
    mem, post = rest[0], (rest[1] if len(rest) == 2 else None)
    kinds = {r.reg[0] if r.kind == 'reg' else '?' for r in regs}
    if len(kinds) != 1 or not kinds <= set(SIZE) or any(r.reg in ('xzr', 'sp') for r in regs):
        raise ExecError('registers of %s not all x, d or q' % ins.mnem)
    cls = kinds.pop()
    size = SIZE[cls]
    if mem.kind == 'memlo12' and cls != 'x':
        raise ExecError('a :lo12: offset only in ldr xN, [xM, #:lo12:sym]')
    if pair and ins.mnem == 'ldp' and regs[0].reg == regs[1].reg:
        raise ExecError('ldp to one register twice (unpredictable)')
    (base, off), wb = _address(m, ins, mem, post, size, pair)
    if wb is not None and any(r.reg == mem.base for r in regs):
        raise ExecError('writeback to a transferred register (unpredictable)')
    pre = wb is not None and mem.kind == 'mempre'
    if pre:                 # sp moves first: a push below the old sp is within the new
        m.wr_gpr(mem.base, wb)
    for k, r in enumerate(regs):
        (_load_reg if ins.mnem[0] == 'l' else _store_reg)(m, r, base, off + k * size)
    if wb is not None and not pre:
        m.wr_gpr(mem.base, wb)


@sem('ld1r')
def _ld1r(m, ins, ops):
    """ld1r {vN.4s}, [xM] / {vN.2d}, [xM]: one element (4 or 8 bytes) into every lane;
    with #n (n the element's size, the immediate form) xM += n after the load."""
    r, a = ops[:2]
    if r.kind != 'vlist' or r.sym not in ('4s', '2d') or a.kind != 'mem' or a.disp or len(ops) > 3:
        raise ExecError('only ld1r {vN.4s|2d}, [xM]{, #size} has a semantics')
    n = 4 if r.sym == '4s' else 8
    if len(ops) == 3 and (ops[2].kind != 'imm' or ops[2].imm != n):
        raise ExecError('ld1r post-index other than the element size')
    base, off = m.addr(a)
    ds = [m.load(base, off + 4 * j, 4) for j in range(n // 4)]
    m.vec[int(r.reg[1:])] = ds * (4 // len(ds))
    if len(ops) == 3:
        m.wr_gpr(a.base, m.rd_gpr(a.base) + BV(n, 64))


# ---- the Keccak bodies' forms: 64-bit logic with a shifted register, ror, movz; the
# SHA3 extension's EOR3, BCAX, RAX1, XAR; 64-bit lanes (.2d) of add, shl, sri
def shifted(m, op, sh, w=64):
    """a source operand with its optional shift: a register shifted (lsl, lsr, asr, ror
    #k, k < w) or, for 64-bit forms, a w register extended (uxtw/sxtw #k, k <= 4); an
    immediate only unshifted."""
    if sh is None:
        return gpr_src(m, op, w)
    if sh.kind != 'shift' or op.kind != 'reg':
        raise ExecError('shifted operand %s, %s has no semantics here' % (op.text, sh.text))
    k = sh.imm or 0
    if sh.sym in ('uxtw', 'sxtw'):
        if w != 64 or op.reg[0] != 'w' or not 0 <= k <= 4:
            raise ExecError('extended register only as wM, uxtw|sxtw #0..4 of a 64-bit form')
        return (z3.ZeroExt if sh.sym == 'uxtw' else z3.SignExt)(32, m.rd_gpr(op.reg)) << k
    x = gpr_src(m, op, w)
    if not 0 <= k < w:
        raise ExecError('shift count %d out of range' % k)
    return {'lsl': lambda: x << k, 'lsr': lambda: z3.LShR(x, k), 'asr': lambda: x >> k,
            'ror': lambda: z3.RotateRight(x, k)}[sh.sym]()


def logic(f):
    """eor/bic xD, xN, xM{, shift #n}: f(N, the shifted M), 64-bit registers only."""
    def h(m, ins, ops):
        d, a, b = ops[:3]
        if len(ops) > 4 or any(width(o) != 64 for o in (d, a, b)):
            raise ExecError('%s only of x registers' % ins.mnem)
        m.wr_gpr(d.reg, f(gpr_src(m, a, 64), shifted(m, b, ops[3] if len(ops) == 4 else None)))
    return h


TABLE['eor'] = logic(lambda x, y: x ^ y)
TABLE['bic'] = logic(lambda x, y: x & ~y)


@sem('ror')
def _ror(m, ins, ops):
    """ror xD, xN, #n (extr xD, xN, xN, #n)."""
    d, a, n = ops
    if width(d) != 64 or n.kind != 'imm':
        raise ExecError('ror only xD, xN, #imm')
    m.wr_gpr(d.reg, shifted(m, a, Operand(kind='shift', sym='ror', imm=n.imm, text=n.text)))


@sem('movz')
def _movz(m, ins, ops):
    """movz xD, #imm16{, lsl #0|16|32|48}."""
    d, i = ops[:2]
    sh = ops[2] if len(ops) == 3 else None
    s = 0 if sh is None else sh.imm if sh.kind == 'shift' and sh.sym == 'lsl' else -1
    if len(ops) > 3 or width(d) != 64 or i.kind != 'imm' or not 0 <= i.imm < 1 << 16 or s not in (0, 16, 32, 48):
        raise ExecError('movz only xD, #imm16{, lsl #0|16|32|48}')
    m.wr_gpr(d.reg, BV(i.imm << s, 64))


def qwords(m, op):
    ds = m.vr(op)
    return [q64(ds, 0), q64(ds, 1)]


def write_qwords(m, op, qs):
    m.vw(op, [z3.Extract(31, 0, q) if k == 0 else z3.Extract(63, 32, q) for q in qs for k in (0, 1)])


def bytewise3(f):
    """eor3/bcax vD.16b, vN.16b, vM.16b, vA.16b: f(N, M, A) bitwise."""
    def h(m, ins, ops):
        for o in ops:
            arr(o, '16b')
        d, a, b, c = ops
        m.vw(d, [f(x, y, z) for x, y, z in zip(m.vr(a), m.vr(b), m.vr(c))])
    return h


TABLE['veor3'] = bytewise3(lambda n, mm, a: n ^ mm ^ a)
TABLE['vbcax'] = bytewise3(lambda n, mm, a: n ^ (mm & ~a))


def qwordwise(f, imm=None):
    """vD.2d from the 64-bit lanes of vN.2d (and vM.2d, and the immediate #k in imm's
    range): f(d, n[, m][, k]) per lane, d the destination's old lane."""
    def h(m, ins, ops):
        regs = [o for o in ops if o.kind == 'vreg']
        for o in regs:
            arr(o, '2d')
        k = []
        if imm is not None:
            if ops[-1].kind != 'imm' or not imm[0] <= ops[-1].imm <= imm[1]:
                raise ExecError('immediate of %s out of [%d, %d]' % (ins.mnem, *imm))
            k = [ops[-1].imm]
        if len(regs) + (imm is not None) != len(ops):
            raise ExecError('operands of %s' % ins.mnem)
        srcs = [qwords(m, o) for o in regs[1:]]
        old = qwords(m, regs[0])
        write_qwords(m, regs[0], [f(old[j], *[s[j] for s in srcs], *k) for j in (0, 1)])
    return h


TABLE['vrax1'] = qwordwise(lambda d, n, mm: n ^ z3.RotateLeft(mm, 1))
TABLE['vxar'] = qwordwise(lambda d, n, mm, k: z3.RotateRight(n ^ mm, k), (0, 63))
TABLE['vsri'] = qwordwise(lambda d, n, k: (d & ~z3.LShR(BV(-1, 64), k)) | z3.LShR(n, k) if k < 64 else d,
                          (1, 64))


def by_arrangement(hs, rest=None):
    """one mnemonic, a semantics per arrangement of its destination (every vector operand
    in that arrangement); rest, if given, for the arrangements hs does not name."""
    def h(m, ins, ops):
        if ops[0].kind == 'vreg' and ops[0].sym in hs:
            if any(o.kind == 'vreg' and o.sym != ops[0].sym for o in ops):
                raise ExecError('mixed arrangements in %s' % ins.text)
            return hs[ops[0].sym](m, ins, ops)
        if rest is None:
            raise ExecError('arrangement %s not one of %s' % (ops[0].text, '/'.join(hs)))
        return rest(m, ins, ops)
    return h


TABLE['vadd'] = by_arrangement({'4s': TABLE['vadd'], '2d': qwordwise(lambda d, n, mm: n + mm)})
TABLE['vshl'] = by_arrangement({'4s': TABLE['vshl'], '2d': qwordwise(lambda d, n, k: n << k, (0, 63))})
TABLE['vushr'] = by_arrangement({'4s': TABLE['vushr'],
                                 '2d': qwordwise(lambda d, n, k: z3.LShR(n, k) if k < 64 else BV(0, 64), (1, 64))})


# ------------------------------------------------------------------------ the samplers' forms
BRANCHES = {'b', 'cbz', 'cbnz'} | {'b.' + c for c in CONDS}


def _addsub_shifted(plain):
    """add/sub with a shifted or extended register: the plain form's semantics of it."""
    def h(m, ins, ops):
        if len(ops) != 4:
            return plain(m, ins, ops)
        d, a, b, sh = ops
        w = width(d)
        y = shifted(m, b, sh, w)
        x = gpr_src(m, a, w)
        m.wr_gpr(d.reg, x + y if ins.mnem == 'add' else x - y)
    return h


for _n in ('add', 'sub'):
    TABLE[_n] = _addsub_shifted(TABLE[_n])


def logic(f):
    """and/orr/eor wD, wN, #bitmask | wM{, lsl|lsr|asr #k} (no flags)."""
    def h(m, ins, ops):
        d, a, b = ops[:3]
        w = width(d)
        if b.kind == 'imm' and len(ops) == 3:
            y = BV(b.imm % (1 << w), w)
        else:
            y = shifted(m, b, ops[3] if len(ops) == 4 else None, w)
        m.wr_gpr(d.reg, f(gpr_src(m, a, w), y))
    return h


TABLE['and'], TABLE['orr'] = logic(lambda x, y: x & y), logic(lambda x, y: x | y)


@sem('mul')
def _gmul(m, ins, ops):
    """mul wD, wN, wM: the low w bits of the product."""
    d, a, b = ops
    w = width(d)
    m.wr_gpr(d.reg, gpr_src(m, a, w) * gpr_src(m, b, w))


@sem('lsr')
def _glsr(m, ins, ops):
    d, a, k = ops
    w = width(d)
    if k.kind != 'imm' or not 0 <= k.imm < w:
        raise ExecError('lsr only by an immediate below the width')
    m.wr_gpr(d.reg, z3.LShR(gpr_src(m, a, w), k.imm))


@sem('ubfx')
def _ubfx(m, ins, ops):
    """ubfx wD, wN, #lsb, #width: bits lsb .. lsb + width - 1 of wN, zero-extended."""
    d, a, lsb, n = ops
    w = width(d)
    if lsb.kind != 'imm' or n.kind != 'imm' or not (0 <= lsb.imm and 1 <= n.imm and lsb.imm + n.imm <= w):
        raise ExecError('ubfx field outside the register')
    x = z3.Extract(lsb.imm + n.imm - 1, lsb.imm, gpr_src(m, a, w))
    m.wr_gpr(d.reg, z3.ZeroExt(w - n.imm, x) if n.imm < w else x)


@sem('movk')
def _movk(m, ins, ops):
    """movk wD, #imm16{, lsl #s}: bits s .. s + 15 replaced, the others kept."""
    d, i = ops[:2]
    w = width(d)
    s_ = ops[2].imm if len(ops) == 3 else 0
    if i.kind != 'imm' or not 0 <= i.imm < 1 << 16 or len(ops) == 3 and ops[2].sym != 'lsl' or \
            s_ % 16 or not 0 <= s_ < w:
        raise ExecError('movk only #imm16, lsl #(multiple of 16)')
    x = gpr_src(m, d, w)
    keep = BV(((1 << w) - 1) ^ (0xffff << s_), w)
    m.wr_gpr(d.reg, (x & keep) | BV(i.imm << s_, w))


@sem('cinc')
def _cinc(m, ins, ops):
    d, a, c = ops
    if not m.flags:
        raise ExecError('cinc before any flag was set')
    w = width(d)
    x = gpr_src(m, a, w)
    m.wr_gpr(d.reg, z3.If(CONDS[c.sym](m.flags), x + 1, x))


# loads and stores of one register beside _transfer's: s and w registers, b/h by the
# mnemonic, the offset scaled unsigned 12-bit (ldr/str), signed 9-bit unscaled (ldur), or
# a w register extended and shifted by 0 or log2(size)
ONE_SIZE = {'q': 16, 'd': 8, 's': 4, 'w': 4, 'x': 8}


@sem('ldr', 'str', 'ldrb', 'ldrh', 'ldur')
def _ldst_one(m, ins, ops):
    r, a = ops[0], ops[1]
    if ins.mnem in ('ldr', 'str') and r.kind == 'reg' and r.reg[0] in SIZE and \
            not (a.kind == 'mem' and a.index):
        return _transfer(m, ins, ops)
    if len(ops) != 2 or r.kind != 'reg' or a.kind != 'mem' or r.reg[0] not in ONE_SIZE:
        raise ExecError('%s has no semantics here' % ins.text)
    size = {'ldrb': 1, 'ldrh': 2}.get(ins.mnem, ONE_SIZE[r.reg[0]])
    if ins.mnem in ('ldrb', 'ldrh') and r.reg[0] != 'w':
        raise ExecError('ldrb/ldrh only into a w register')
    if a.index:
        if a.sym != 'uxtw' or (a.imm or 0) not in (0, size.bit_length() - 1):
            raise ExecError('register offset only wM, uxtw #0 or #log2(size)')
    elif ins.mnem == 'ldur':
        if not -256 <= a.disp <= 255:
            raise ExecError('ldur offset not a signed 9-bit immediate')
    elif a.disp % size or not 0 <= a.disp < 4096 * size:
        raise ExecError('offset not a scaled unsigned 12-bit immediate')
    base, off = m.addr(a)
    vec = r.reg[0] in 'qds'
    if ins.mnem == 'str':
        v = m.vec[int(r.reg[1:])] if vec else None
        if vec:
            for j in range(size // 4):
                m.store(base, off + 4 * j, v[j], 4)
        else:
            m.store(base, off, m.rd_gpr(r.reg), size)
        return
    ds = [m.load(base, off + 4 * j, 4) for j in range(size // 4)] if size >= 4 else [m.load(base, off, size)]
    if vec:
        m.vec[int(r.reg[1:])] = ds + [BV(0, 32)] * (4 - len(ds))
    else:
        v = ds[0] if len(ds) == 1 else z3.Concat(*reversed(ds))
        m.wr_gpr(r.reg, z3.ZeroExt(ONE_SIZE[r.reg[0]] * 8 - size * 8, v) if size < 4 else v)


# vector elements of any size: 16 bytes, 8 halfwords, 4 dwords, 2 qwords; a 64-bit
# arrangement (8b, 4h, 2s) reads the low half and its write clears the high half
ARR = {'8b': (8, 8), '16b': (16, 8), '4h': (4, 16), '8h': (8, 16), '2s': (2, 32), '4s': (4, 32), '2d': (2, 64)}


def elems(ds, bits):
    n = 32 // bits if bits <= 32 else 1
    if bits == 64:
        return [z3.Concat(ds[2 * k + 1], ds[2 * k]) for k in range(2)]
    return [z3.Extract(bits * (k % n) + bits - 1, bits * (k % n), ds[k // n]) for k in range(128 // bits)]


def rd_elems(m, op):
    n, bits = ARR[op.sym]
    return elems(m.vr(op), bits)[:n]


def wr_elems(m, op, es):
    n, bits = ARR[op.sym]
    es = list(es) + [BV(0, bits)] * (128 // bits - n)
    if bits == 64:
        ds = [d for e in es for d in (z3.Extract(31, 0, e), z3.Extract(63, 32, e))]
    else:
        k = 32 // bits
        ds = [z3.Concat(*reversed(es[k * i:k * i + k])) if k > 1 else es[i] for i in range(4)]
    m.vw(op, ds)


def _cmhi_b(m, ins, ops):
    d, a, b = ops
    wr_elems(m, d, [z3.If(z3.UGT(x, y), BV(0xff, 8), BV(0, 8)) for x, y in zip(rd_elems(m, a), rd_elems(m, b))])


def _ushr_b(m, ins, ops):
    d, a, k = ops
    if k.kind != 'imm' or not 1 <= k.imm <= 8:
        raise ExecError('byte shift count not in 1..8')
    wr_elems(m, d, [z3.LShR(x, k.imm) for x in rd_elems(m, a)])


def zip_b(high):
    def h(m, ins, ops):
        d, a, b = ops
        n = ARR[d.sym][0]
        A, B = rd_elems(m, a), rd_elems(m, b)
        wr_elems(m, d, [x for i in range(n // 2) for x in (A[high * n // 2 + i], B[high * n // 2 + i])])
    return h


# the byte arrangements beside the wider ones defined above
BYTES = ('8b', '16b')
TABLE['vcmhi'] = by_arrangement(dict.fromkeys(BYTES, _cmhi_b), TABLE['vcmhi'])
TABLE['vushr'] = by_arrangement(dict.fromkeys(BYTES, _ushr_b), TABLE['vushr'])
TABLE['vzip1'] = by_arrangement(dict.fromkeys(BYTES, zip_b(0)), TABLE['vzip1'])
TABLE['vzip2'] = by_arrangement(dict.fromkeys(BYTES, zip_b(1)), TABLE['vzip2'])


@sem('vaddp')
def _addp(m, ins, ops):
    """addp vD.16b, vN.16b, vM.16b: the sums of adjacent pairs, N's pairs first."""
    d, a, b = ops
    for o in ops:
        arr(o, '16b')
    es = rd_elems(m, a) + rd_elems(m, b)
    wr_elems(m, d, [es[2 * i] + es[2 * i + 1] for i in range(16)])


def sxtl(high):
    """sxtl vD.<2n>, vN.<n>: the low half's elements sign-extended to twice their width;
    sxtl2 (high): the high half's."""
    def h(m, ins, ops):
        d, a = ops
        n, bits = arr(d, '8h', '4s', '2d') and ARR[d.sym]
        arr(a, {(16, 0): '8b', (32, 0): '4h', (64, 0): '2s', (16, 1): '16b', (32, 1): '8h', (64, 1): '4s'}[bits, high])
        es = elems(m.vr(a), bits // 2)[n * high:n * high + n]
        wr_elems(m, d, [z3.SignExt(bits // 2, x) for x in es])
    return h


TABLE['vsxtl'], TABLE['vsxtl2'] = sxtl(0), sxtl(1)


@sem('vmov')
def _ins(m, ins, ops):
    """mov vD.s[i], vN.s[j]: one dword element inserted, the others kept."""
    d, a = ops
    if d.kind != 'velem' or a.kind != 'velem' or d.sym != 's' or a.sym != 's' or \
            not (0 <= d.imm <= 3 and 0 <= a.imm <= 3):
        raise ExecError('mov of elements only vD.s[i], vN.s[j]')
    ds = m.vr(d)
    ds[d.imm] = m.vec[int(a.reg[1:])][a.imm]
    m.vw(d, ds)



def lookup(ins):
    mn = ins.mnem
    if mn in ('add', 'sub', 'and', 'orr', 'eor', 'bic', 'mul', 'abs') and ins.ops and ins.ops[0].kind == 'vreg':
        mn = 'v' + mn
    elif ins.ops and ins.ops[0].kind in ('vreg', 'vlist', 'velem') and mn != 'ld1r' or mn in ('addv', 'umaxv'):
        mn = 'v' + mn
    if mn not in TABLE:
        raise ExecError('no semantics for %s' % ins.text)
    return TABLE[mn]


def known_insn(ins):
    try:
        return ins.mnem in NOPS or ins.mnem == 'ret' or ins.mnem in BRANCHES or bool(lookup(ins))
    except ExecError:
        return False


def plain_control(ins):
    """'nop' for hint #34 (bti c) or #0, 'ret' for a return to x30, else None; another
    hint or a return to another register is an error."""
    if ins.mnem in NOPS:
        if not (len(ins.ops) == 1 and ins.ops[0].imm in (34, 0)):
            raise ExecError('hint other than bti c / nop')
        return 'nop'
    if ins.mnem == 'ret':
        if ins.ops:
            raise ExecError('ret to a register other than x30')
        return 'ret'
    return None


# Pointer authentication of the link register: hint #25 is paciasp (x30 signed with sp as
# the modifier), hint #29 autiasp (x30 authenticated with sp). Signing is an uninterpreted
# function of both; authentication gives the signed value back only when x30 is a value
# signed with the same sp, else an uninterpreted result, which the return's check (x30 as
# at entry) then refuses. So a return with x30 signed, an autiasp under another sp, or an
# autiasp without a paciasp is not proved.
PAC_HINTS = (25, 29)
_PAC = z3.Function('pac_ia', z3.BitVecSort(64), z3.BitVecSort(64), z3.BitVecSort(64))
_AUT = z3.Function('aut_ia', z3.BitVecSort(64), z3.BitVecSort(64), z3.BitVecSort(64))


def pointer_authentication(m, imm):
    lr, sp = m.gpr['x30'], m.gpr['sp']
    if imm == 25:
        m.gpr['x30'] = _PAC(lr, sp)
        return
    if z3.is_app(lr) and lr.decl().eq(_PAC) and simp(lr.arg(1) == sp).eq(z3.BoolVal(True)):
        m.gpr['x30'] = lr.arg(0)
    else:
        m.gpr['x30'] = _AUT(lr, sp)


# ------------------------------------------------------------------------ execution
def run(unit, fname, args, frame=0, machine_cls=None, after=None, stop=None):
    """as executor.run, for AArch64; args: register (x0..) -> ('ptr', base) | ('val', term);
    machine_cls: an A64 subclass (ntt.py's exact products); after(m, ins), if given, runs
    after every non-branch instruction; stop(m, ins), if given, ends the run before an
    instruction (the Result's `stopped` is it)."""
    from .executor import Result
    fn = unit.functions.get(fname)
    if fn is None:
        raise ExecError('no function ' + fname)
    m = (machine_cls or A64)(unit, args, frame=frame)
    pc, back, steps = 0, {}, 0
    while True:
        if pc >= len(fn.insns):
            raise ExecError('%s: fell off the end' % fname)
        ins = fn.insns[pc]
        steps += 1
        m.step = steps
        if steps > MAX_STEPS:
            raise ExecError('%s: more than %d steps' % (fname, MAX_STEPS))
        mn = ins.mnem
        if stop and stop(m, ins):
            r = Result(m, back, steps)
            r.stopped = ins
            return r
        try:
            if mn in NOPS and len(ins.ops) == 1 and ins.ops[0].imm in PAC_HINTS:
                pointer_authentication(m, ins.ops[0].imm)
                pc += 1
                continue
            if mn in NOPS:
                if mn == 'hint' and not (len(ins.ops) == 1 and ins.ops[0].imm in (34, 0)):
                    raise ExecError('hint other than bti c / nop')
                pc += 1
                continue
            if mn == 'ret':
                if ins.ops:
                    raise ExecError('ret to a register other than x30')
                if not simp(m.gpr['sp'] == m.init['sp']).eq(z3.BoolVal(True)):
                    raise ExecError('sp not restored at ret')
                for r in PRESERVED + ['x30']:
                    if not simp(m.gpr[r] == m.init[r]).eq(z3.BoolVal(True)):
                        raise ExecError('%s not preserved at ret' % r)
                for i in range(8, 16):
                    for j in (0, 1):
                        if not simp(m.vec[i][j]).eq(z3.BitVec('init_v%d_%d' % (i, j), 32)):
                            raise ExecError('callee-saved d%d (low half of v%d) not preserved at ret' % (i, i))
                return Result(m, back, steps)
            if mn in BRANCHES:
                if mn == 'b':
                    taken = True
                    tgt = resolve(fn, pc, ins.ops[0].sym)
                elif mn.startswith('b.'):
                    if not m.flags:
                        raise ExecError('branch before any flag was set')
                    c = simp(CONDS[mn[2:]](m.flags))
                    tgt = resolve(fn, pc, ins.ops[0].sym)
                    taken = z3.is_true(c) if z3.is_true(c) or z3.is_false(c) else None
                else:
                    r = ins.ops[0]
                    c = simp(m.rd_gpr(r.reg) == 0)
                    if mn == 'cbnz':
                        c = simp(z3.Not(c))
                    tgt = resolve(fn, pc, ins.ops[1].sym)
                    taken = z3.is_true(c) if z3.is_true(c) or z3.is_false(c) else None
                if taken is None:
                    raise ExecError('branch on a non-constant condition: %s' % ins.text)
                if taken:
                    if tgt <= pc:
                        back[ins.line] = back.get(ins.line, 0) + 1
                        if back[ins.line] > MAX_BACK_EDGES:
                            raise ExecError('back edge taken more than %d times' % MAX_BACK_EDGES)
                    pc = tgt
                else:
                    pc += 1
                continue
            lookup(ins)(m, ins, ins.ops)
            if after:
                after(m, ins)
        except ExecError as e:
            raise ExecError('%s line %d (%s): %s' % (unit.path, ins.line, ins.text, e))
        pc += 1
