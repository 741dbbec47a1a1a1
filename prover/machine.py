# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Machine state for symbolic execution: general-purpose registers (64-bit terms),
vector registers (zmm0-31, each 16 dword terms), opmasks k0-k7 (64-bit terms), flags,
and memory as bytes at (base, offset): a base is an argument pointer, the stack or the
unit's .rodata. Inputs are fresh 32-bit variables named base[i], created on first read.
Every memory access is recorded (the trace) for the loop-structure checks. Each base has
a known alignment (alignment()): an argument's from its contract (alignment.ARG_ALIGN), the
stack's from System V, .rodata's from the object."""
import z3

from .alignment import ARG_ALIGN

GPR64 = ['rax', 'rbx', 'rcx', 'rdx', 'rsi', 'rdi', 'rbp', 'rsp'] + ['r%d' % i for i in range(8, 16)]
GPR = {}
for _r in GPR64:
    GPR[_r] = (_r, 64)
for _a, _b in zip(['rax', 'rbx', 'rcx', 'rdx'], 'abcd'):
    GPR['e%sx' % _b] = (_a, 32)
    GPR['%sx' % _b] = (_a, 16)
    GPR['%sl' % _b] = (_a, 8)
for _a in ['rsi', 'rdi', 'rbp', 'rsp']:
    GPR['e' + _a[1:]] = (_a, 32)
    GPR[_a[1:]] = (_a, 16)
    GPR[_a[1:] + 'l'] = (_a, 8)
for _i in range(8, 16):
    GPR['r%dd' % _i] = ('r%d' % _i, 32)
    GPR['r%dw' % _i] = ('r%d' % _i, 16)
    GPR['r%db' % _i] = ('r%d' % _i, 8)

CALLEE_SAVED = ['rbx', 'rbp', 'r12', 'r13', 'r14', 'r15']


class ExecError(Exception):
    pass


class Flags(dict):
    """the status flags an instruction has written since entry. The caller's flags are not
    an input (System V guarantees only DF = 0, kept apart as Machine.df): a flag no
    instruction has written is unknown, and reading it is an error, not a 0."""

    def __missing__(self, name):
        raise ExecError('%s read before any instruction wrote it (the flags at entry are unknown)' % name)


def vreg(name):
    """'ymm3' -> (3, 8 dwords), None if not a vector register."""
    for p, w in (('xmm', 4), ('ymm', 8), ('zmm', 16)):
        if name.startswith(p) and name[3:].isdigit():
            return int(name[3:]), w
    return None


def simp(e):
    return z3.simplify(e)


def mq_facts(MQ, x, Q=8380417):
    """what is true of MQ = sext(x) q."""
    return z3.And(z3.Extract(31, 0, MQ) == simp(x * Q), MQ >= -(1 << 31) * Q, MQ <= ((1 << 31) - 1) * Q)


class Machine:
    def __init__(self, unit, args, frame=0):
        """args: register -> ('ptr', base) or ('val', 64-bit term); frame: the bytes below
        the return address the function may write (none of the proved kernels has one)."""
        self.unit = unit
        self.frame = frame
        self.gpr = {}
        for r in GPR64:
            self.gpr[r] = z3.BitVec('init_' + r, 64)
        self.ptrs = {}
        for reg, (kind, v) in args.items():
            if kind == 'ptr':
                self.gpr[reg] = self.base(v)
            else:
                self.gpr[reg] = v
        self.gpr['rsp'] = self.base('stack')
        self.init = dict(self.gpr)
        self.vec = [[z3.BitVec('init_v%d_%d' % (i, j), 32) for j in range(16)] for i in range(32)]
        self.k = [z3.BitVec('init_k%d' % i, 64) for i in range(8)]
        self.flags = {}
        self.df = False          # System V: the direction flag is clear at entry and at return
        self.mem = {}
        self.inputs = {}
        self.trace = []
        self.step = 0
        self.prods = {}
        self.mqs = {}
        self.axioms = []

    @property
    def flags(self):
        return self._flags

    @flags.setter
    def flags(self, value):
        self._flags = value if isinstance(value, Flags) else Flags(value)

    PRODUCT_BOUND = 9 * 8380417 - 1
    Q = 8380417

    def product(self, kind, x, y):
        """x * y of two 32-bit terms: 's' sext(x) sext(y), 'u' zext(x) zext(y) (64 bits),
        'lo' the low 32 bits. With a constant operand, the product term itself. Of two
        non-constant operands, a fresh 64-bit P stands for the signed product (bit-blasted
        32 x 32 multipliers are beyond Z3 here), with one true fact about it: |P| <= B^2
        where |x|, |y| <= B (B = 9q - 1, the largest bound of any kernel contract). The
        unsigned product and the low half are exact functions of P."""
        x, y = simp(x), simp(y)
        if z3.is_bv_value(x) and not z3.is_bv_value(y):
            x, y = y, x
        if z3.is_bv_value(y) and y.as_long() == self.Q and kind in ('s', 'u') and not z3.is_bv_value(x):
            # x q (Montgomery's m q): a fresh 64-bit MQ(x) stands for sext(x) q, with
            # the facts lo(MQ) = x q mod 2^32 and -2^31 q <= MQ <= (2^31 - 1) q.
            name = 'MQ(%s)' % x
            if name not in self.mqs:
                MQ = z3.BitVec(name, 64)
                self.mqs[name] = MQ
                self.axioms.append(mq_facts(MQ, x))
            MQ = self.mqs[name]
            if kind == 's':
                return MQ
            return MQ + z3.If(x < 0, z3.BitVecVal(self.Q << 32, 64), z3.BitVecVal(0, 64))
        if z3.is_bv_value(x) or z3.is_bv_value(y):
            if kind == 's':
                return z3.SignExt(32, x) * z3.SignExt(32, y)
            if kind == 'u':
                return z3.ZeroExt(32, x) * z3.ZeroExt(32, y)
            return x * y
        key = tuple(sorted((x.get_id(), y.get_id())))
        if key not in self.prods:
            nx, ny = sorted((str(x), str(y)))
            P = z3.BitVec('P(%s,%s)' % (nx, ny) if len(nx) + len(ny) < 60 else 'P#%d' % len(self.prods), 64)
            self.prods[key] = P
            B = self.PRODUCT_BOUND
            X, Y = z3.SignExt(32, x), z3.SignExt(32, y)
            ok = z3.And(X <= B, X >= -B, Y <= B, Y >= -B)
            self.axioms.append(z3.Implies(ok, z3.And(P <= B * B, P >= -B * B)))
        P = self.prods[key]
        if kind == 's':
            return P
        if kind == 'lo':
            return z3.Extract(31, 0, P)
        corr = z3.If(x < 0, y, z3.BitVecVal(0, 32)) + z3.If(y < 0, x, z3.BitVecVal(0, 32))
        return P + z3.Concat(corr, z3.BitVecVal(0, 32))

    def base(self, name):
        if name not in self.ptrs:
            self.ptrs[name] = z3.BitVec('ptr_' + name, 64)
        return self.ptrs[name]

    # ---- addresses
    def split_addr(self, a):
        a = simp(a)
        if z3.is_bv_value(a):
            raise ExecError('absolute address %s' % a)
        names = {str(v): k for k, v in self.ptrs.items()}
        if z3.is_const(a) and str(a) in names:
            return names[str(a)], 0
        if z3.is_app_of(a, z3.Z3_OP_BADD) and a.num_args() == 2:
            x, y = a.arg(0), a.arg(1)
            if z3.is_bv_value(x):
                x, y = y, x
            if z3.is_const(x) and str(x) in names and z3.is_bv_value(y):
                off = y.as_long()
                if off >= 1 << 63:
                    off -= 1 << 64
                return names[str(x)], off
        raise ExecError('address not base + constant: %s' % a)

    def addr(self, op):
        if op.base == 'rip':
            if op.sym not in self.unit.symbols:
                raise ExecError('unknown symbol ' + str(op.sym))
            return 'rodata', self.unit.symbols[op.sym] + op.disp
        if op.sym:
            raise ExecError('symbolic displacement without %rip: ' + op.text)
        a = z3.BitVecVal(op.disp, 64)
        if op.base:
            a = a + self.rd_gpr(op.base, 64)
        if op.index:
            a = a + self.rd_gpr(op.index, 64) * op.scale
        return self.split_addr(a)

    # ---- alignment
    # System V: %rsp + 8 is a multiple of 16 at entry, so the return address (offset 0 of
    # the stack base) is at 8 modulo 16.
    STACK_ALIGN = (16, 8)

    def alignment(self, base):
        """(m, r): every address base + off is r + off modulo m."""
        if base == 'rodata':
            # the section's alignment as the object has it (asm.py compares it with what
            # the prover read); a label's offset in it is checked there too
            return getattr(self.unit, 'rodata_align', 1), 0
        if base == 'stack':
            return self.STACK_ALIGN
        if base in getattr(self, 'arg_align', {}):
            return self.arg_align[base]
        return ARG_ALIGN.get(base, 1), 0

    def require_aligned(self, op, n, what):
        """the memory operand op of a form that faults unless its address is a multiple of n."""
        base, off = self.addr(op)
        m, r = self.alignment(base)
        if m % n == 0 and (r + off) % n == 0:
            return
        if m % n:
            why = '%s is only %d-byte aligned' % (base if base in ('rodata', 'stack') else
                                                   'argument ' + base + ' by its contract', m)
            if base == 'rodata':
                why = '.rodata is only %d-byte aligned in the object' % m
        else:
            why = 'offset %d from %s (%d modulo %d)' % (off, base, (r + off) % m, m)
        raise ExecError('%s needs a %d-byte aligned address: %s' % (what, n, why))

    # ---- memory
    def input_var(self, base, idx):
        key = (base, idx)
        if key not in self.inputs:
            self.inputs[key] = z3.BitVec('%s[%d]' % key, 32)
        return self.inputs[key]

    def load_byte(self, base, off):
        if base == 'rodata':
            if not 0 <= off < len(self.unit.rodata):
                raise ExecError('read outside .rodata at %d' % off)
            return z3.BitVecVal(self.unit.rodata[off], 8)
        cell = self.mem.get((base, off))
        if cell is not None:
            sid, value, i, n, start = cell
            return z3.Extract(8 * i + 7, 8 * i, value)
        if base == 'stack':
            raise ExecError('read of uninitialised stack at %d' % off)
        v = self.input_var(base, off // 4)
        return z3.Extract(8 * (off % 4) + 7, 8 * (off % 4), v)

    def load(self, base, off, nbytes):
        if base == 'stack':
            self.stack_check(off, nbytes, 'read')
        self.trace.append((self.step, 'r', base, off, nbytes))
        cells = [self.mem.get((base, off + i)) for i in range(nbytes)]
        if cells[0] is not None and all(c is not None and c[0] == cells[0][0] for c in cells) \
                and cells[0][4] == off and cells[0][3] == nbytes:
            return cells[0][1]
        if base not in ('rodata', 'stack') and all(c is None for c in cells) and off % 4 == 0 and nbytes % 4 == 0:
            ds = [self.input_var(base, off // 4 + j) for j in range(nbytes // 4)]
            return ds[0] if len(ds) == 1 else simp(z3.Concat(*reversed(ds)))
        bs = [self.load_byte(base, off + i) for i in range(nbytes)]
        return simp(z3.Concat(*reversed(bs))) if nbytes > 1 else simp(bs[0])

    # System V: the 128 bytes below %rsp (the red zone) survive a signal; below them
    # anything may be overwritten at any time.
    RED_ZONE = 128

    def stack_check(self, off, nbytes, what):
        '''stack offsets are from the entry %rsp (the return address is at [0, 8), the
        caller's memory above it): a write must lie within the declared frame below the
        entry %rsp, and nothing is read or written below the red zone of the current %rsp.'''
        base, sp = self.split_addr(self.gpr['rsp'])
        if base != 'stack':
            raise ExecError('%rsp is not a stack address')
        if off < sp - self.RED_ZONE:
            raise ExecError('%s of the stack at %d, below the red zone of %%rsp = %d' % (what, off, sp))
        if what == 'write' and not (-self.frame <= off and off + nbytes <= 0):
            raise ExecError('stack write at [%d, %d): outside the declared frame [%d, 0) below the '
                            'return address' % (off, off + nbytes, -self.frame))

    def store(self, base, off, value, nbytes):
        if base == 'rodata':
            raise ExecError('store to .rodata')
        if base == 'stack':
            self.stack_check(off, nbytes, 'write')
        self.trace.append((self.step, 'w', base, off, nbytes))
        self.sid = getattr(self, 'sid', 0) + 1
        for i in range(nbytes):
            self.mem[(base, off + i)] = (self.sid, value, i, nbytes, off)

    def load_dwords(self, op, n):
        base, off = self.addr(op)
        if op.bcst and n == 2 * op.bcst:
            # {1toN} of a qword element (vpmuldq, vpmuludq, vpaddq ...): N copies of 2 dwords
            lo, hi = self.load(base, off, 4), self.load(base, off + 4, 4)
            return [lo, hi] * op.bcst
        if n == 1 or op.bcst:
            d = self.load(base, off, 4)
            return [d] * (op.bcst or n)
        # dword-aligned relative to the base: keep whole dword terms
        return [self.load(base, off + 4 * i, 4) for i in range(n)]

    def store_dwords(self, op, ds):
        base, off = self.addr(op)
        for i, d in enumerate(ds):
            self.store(base, off + 4 * i, d, 4)

    # ---- registers
    def rd_gpr(self, name, width=None):
        full, w = GPR[name]
        v = self.gpr[full]
        return simp(z3.Extract(w - 1, 0, v)) if w < 64 else v

    def wr_gpr(self, name, value):
        full, w = GPR[name]
        assert value.size() == w, (name, value.size())
        if w == 64:
            self.gpr[full] = simp(value)
        elif w == 32:
            self.gpr[full] = simp(z3.ZeroExt(32, value))
        else:
            old = self.gpr[full]
            self.gpr[full] = simp(z3.Concat(z3.Extract(63, w, old), value))

    def gpr_width(self, name):
        return GPR[name][1]
