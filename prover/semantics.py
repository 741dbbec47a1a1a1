# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The semantics table: one bit-vector transfer function per mnemonic (SSE2, AVX, AVX2,
AVX-512 F/BW/VL incl. opmasks, and the base x86-64 instructions the kernels use).

Operands arrive in Intel order (destination first). A legacy SSE form with one operand
fewer than its VEX form gets its destination repeated as the first source. Legacy SSE
writes keep bits 128 and up of the destination; VEX/EVEX writes zero them. An EVEX write
with {%kN} merges (or, with {z}, zeroes) the elements whose mask bit is clear.

A mnemonic missing here is an error of the prover's run (semantics.lookup raises)."""
import re

import z3
from .machine import ExecError, vreg, simp, GPR

BV = z3.BitVecVal


# ---------------------------------------------------------------- lanes
def to_lanes(ds, w):
    if w == 32:
        return list(ds)
    if w == 64:
        return [z3.Concat(ds[2 * i + 1], ds[2 * i]) for i in range(len(ds) // 2)]
    if w == 128:
        return [z3.Concat(*reversed(ds[4 * i:4 * i + 4])) for i in range(len(ds) // 4)]
    out = []
    for d in ds:
        for j in range(32 // w):
            out.append(z3.Extract(w * j + w - 1, w * j, d))
    return out


def from_lanes(ls, w):
    if w == 32:
        return [simp(x) for x in ls]
    if w > 32:
        out = []
        for x in ls:
            for j in range(w // 32):
                out.append(simp(z3.Extract(32 * j + 31, 32 * j, x)))
        return out
    k = 32 // w
    return [simp(z3.Concat(*reversed(ls[k * i:k * i + k]))) for i in range(len(ls) // k)]


def width_of(op, default=None):
    if op.kind == 'reg':
        v = vreg(op.reg)
        if v:
            return v[1]
    if default is None:
        raise ExecError('cannot tell the vector width of ' + op.text)
    return default


def rd(m, op, n):
    """n dwords of a vector operand (register or memory)."""
    if op.kind == 'reg':
        v = vreg(op.reg)
        if not v:
            raise ExecError('expected a vector register: ' + op.text)
        return m.vec[v[0]][:n]
    if op.kind == 'mem':
        return m.load_dwords(op, n)
    raise ExecError('bad vector operand ' + op.text)


# The element an EVEX opmask selects, per mnemonic (Intel SDM, each instruction's EVEX
# form), not per spelling: vpunpckldq masks dwords, vshufi64x2 and vextracti64x4 qwords,
# vpmovzxbw and the 16-bit multiplies and shifts words. A masked form not listed here is
# an error, never a guess.
MASK_ESIZE = {}
for _w, _names in ((8, 'vpaddb vpsubb vpshufb vpunpcklbw vpunpckhbw vmovdqu8 vpcmpgtb vpminub vpmaxub'),
                   (16, 'vpmulhuw vpmulhrsw vpmullw vpsllw vpsrlw vpsraw vpmovzxbw vpmovsxbw vpaddw vpsubw '
                        'vmovdqu16 vpmaddubsw vpunpcklwd vpunpckhwd'),
                   (32, 'vpaddd vpsubd vpandd vpandnd vpord vpxord vpmulld vpminud vpmaxud vpminsd vpmaxsd '
                        'vpslld vpsrld vpsrad vpsrlvd vpsllvd vpabsd vpshufd vpunpckldq vpunpckhdq vpermd '
                        'vpternlogd vmovdqa32 vmovdqu32 vpbroadcastd vpcompressd vprold vpmovzxbd vpmovsxbd '
                        'vshufi32x4 vextracti32x4 vextracti32x8 vinserti32x4 vinserti32x8 vbroadcasti32x4 '
                        'vpmaddwd vmovshdup vshufps'),
                   (64, 'vpaddq vpsubq vpandq vpandnq vporq vpxorq vpsllq vpsrlq vprolq vpmuldq vpmuludq '
                        'vpunpcklqdq vpunpckhqdq vpternlogq vmovdqa64 vmovdqu64 vpbroadcastq vshufi64x2 '
                        'vextracti64x2 vextracti64x4 vinserti64x2 vinserti64x4')):
    for _n in _names.split():
        MASK_ESIZE[_n] = _w


def esize_of(mnem):
    if mnem not in MASK_ESIZE:
        raise ExecError('no opmask granularity known for %s' % mnem)
    return MASK_ESIZE[mnem]


def wr(m, ins, op, ds, legacy=None):
    """Write dwords ds to a vector register or memory operand."""
    if legacy is None:
        legacy = not ins.mnem.startswith('v')
    if op.kind == 'mem':
        if op.mask:
            raise ExecError('masked store not modelled: ' + ins.text)
        m.store_dwords(op, ds)
        return
    v = vreg(op.reg)
    if not v:
        raise ExecError('expected a vector destination: ' + op.text)
    i, n = v
    assert len(ds) == n, (ins.text, len(ds), n)
    old = m.vec[i]
    ds = [simp(d) for d in ds]
    if op.mask and op.mask != 'k0':
        es = esize_of(ins.mnem)
        k = m.k[int(op.mask[1:])]
        new, prev = to_lanes(ds, es), to_lanes(old[:n], es)
        out = []
        for j, (a, b) in enumerate(zip(new, prev)):
            bit = z3.Extract(j, j, k) == 1
            out.append(z3.If(bit, a, BV(0, es) if op.zero else b))
        ds = from_lanes(out, es)
    elif op.zero:
        raise ExecError('{z} without a mask')
    if legacy:
        m.vec[i] = ds + old[n:]
    else:
        m.vec[i] = ds + [BV(0, 32)] * (16 - n)


def imm(op):
    if op.kind != 'imm':
        raise ExecError('expected an immediate: ' + op.text)
    return op.imm


TABLE = {}


def sem(names, nops):
    def deco(f):
        for nm in names.split():
            TABLE[nm] = (nops, f)
        return f
    return deco


def both(*names):
    """'paddd' -> 'paddd vpaddd'."""
    out = []
    for nm in names:
        out += [nm, 'v' + nm]
    return ' '.join(out)


# ---------------------------------------------------------------- lane-wise binary
def binop(names, w, f):
    def h(m, ins, ops):
        d, a, b = ops
        n = width_of(d)
        A, B = to_lanes(rd(m, a, n), w), to_lanes(rd(m, b, n), w)
        wr(m, ins, d, from_lanes([f(x, y) for x, y in zip(A, B)], w))
    sem(names, 3)(h)


def ones(w):
    return BV((1 << w) - 1, w)


def mask_if(c, w):
    return z3.If(c, ones(w), BV(0, w))


binop(both('paddd'), 32, lambda x, y: x + y)
binop(both('psubd'), 32, lambda x, y: x - y)
binop(both('paddq'), 64, lambda x, y: x + y)
binop(both('paddb'), 8, lambda x, y: x + y)
binop(both('psubb'), 8, lambda x, y: x - y)
binop(both('pand') + ' vpandd vpandq', 32, lambda x, y: x & y)
binop(both('pandn') + ' vpandnd vpandnq', 32, lambda x, y: ~x & y)
binop(both('por') + ' vpord vporq', 32, lambda x, y: x | y)
binop(both('pxor') + ' vpxord vpxorq', 32, lambda x, y: x ^ y)
binop(both('pcmpgtd'), 32, lambda x, y: mask_if(x > y, 32))
binop(both('pcmpgtb'), 8, lambda x, y: mask_if(x > y, 8))
binop(both('pcmpeqd'), 32, lambda x, y: mask_if(x == y, 32))
def mulop(names, w, kind):
    def h(m, ins, ops):
        d, a, b = ops
        n = width_of(d)
        A, B = to_lanes(rd(m, a, n), w), to_lanes(rd(m, b, n), w)
        lo = (lambda v: v) if w == 32 else (lambda v: z3.Extract(31, 0, v))
        wr(m, ins, d, from_lanes([m.product(kind, lo(x), lo(y)) for x, y in zip(A, B)], w))
    sem(names, 3)(h)


mulop('pmulld vpmulld', 32, 'lo')
binop('pminud vpminud', 32, lambda x, y: z3.If(z3.ULT(x, y), x, y))
binop('pmaxud vpmaxud', 32, lambda x, y: z3.If(z3.UGT(x, y), x, y))
mulop(both('pmuludq'), 64, 'u')
mulop('pmuldq vpmuldq', 64, 's')
binop(both('pmulhuw'), 16, lambda x, y: z3.Extract(31, 16, z3.ZeroExt(16, x) * z3.ZeroExt(16, y)))
binop(both('pmulhrsw'), 16,
      lambda x, y: z3.Extract(16, 1, ((z3.SignExt(16, x) * z3.SignExt(16, y)) >> 14) + 1))


def _pabsd(m, ins, ops):
    d, s = ops
    n = width_of(d)
    wr(m, ins, d, [z3.If(x < 0, -x, x) for x in rd(m, s, n)])


sem('pabsd vpabsd', 2)(_pabsd)


def _pmaddwd(m, ins, ops):
    d, a, b = ops
    n = width_of(d)
    A, B = to_lanes(rd(m, a, n), 16), to_lanes(rd(m, b, n), 16)
    out = []
    for i in range(n):
        out.append(z3.SignExt(16, A[2 * i]) * z3.SignExt(16, B[2 * i]) +
                   z3.SignExt(16, A[2 * i + 1]) * z3.SignExt(16, B[2 * i + 1]))
    wr(m, ins, d, from_lanes(out, 32))


sem(both('pmaddwd'), 3)(_pmaddwd)


def _psadbw(m, ins, ops):
    d, a, b = ops
    n = width_of(d)
    A, B = to_lanes(rd(m, a, n), 8), to_lanes(rd(m, b, n), 8)
    out = []
    for q in range(n // 2):
        s = BV(0, 64)
        for j in range(8):
            x, y = z3.ZeroExt(56, A[8 * q + j]), z3.ZeroExt(56, B[8 * q + j])
            s = s + z3.If(z3.UGE(x, y), x - y, y - x)
        out.append(s)
    wr(m, ins, d, from_lanes(out, 64))


sem(both('psadbw'), 3)(_psadbw)


# ---------------------------------------------------------------- shifts by an immediate
def shiftop(names, w, kind):
    def h(m, ins, ops):
        d, a, c = ops
        n = width_of(d)
        s = imm(c)
        A = to_lanes(rd(m, a, n), w)
        if kind == 'l':
            R = [x << s if s < w else BV(0, w) for x in A]
        elif kind == 'r':
            R = [z3.LShR(x, s) if s < w else BV(0, w) for x in A]
        elif kind == 'a':
            R = [x >> min(s, w - 1) for x in A]
        else:
            R = [z3.RotateLeft(x, s % w) for x in A]
        wr(m, ins, d, from_lanes(R, w))
    sem(names, 3)(h)


def _vpsrlvd(m, ins, ops):
    """per dword: a >> count, 0 where count >= 32."""
    d, a, c = ops
    n = width_of(d)
    A, C = rd(m, a, n), rd(m, c, n)
    wr(m, ins, d, [z3.If(z3.UGE(y, 32), BV(0, 32), z3.LShR(x, y)) for x, y in zip(A, C)])


sem('vpsrlvd', 3)(_vpsrlvd)


def _movhps(m, ins, ops):
    """movhps m64, xmm: the high quadword from memory, the low one kept (legacy SSE)."""
    d, s = ops
    if s.kind != 'mem' or not (d.kind == 'reg' and vreg(d.reg)):
        raise ExecError('movhps: only the load form is modelled: ' + ins.text)
    i, _ = vreg(d.reg)
    base, off = m.addr(s)
    m.vec[i] = m.vec[i][:2] + [m.load(base, off + 4 * j, 4) for j in range(2)] + m.vec[i][4:]


sem('movhps', 2)(_movhps)


shiftop(both('pslld'), 32, 'l')
shiftop(both('psrld'), 32, 'r')
shiftop(both('psrad'), 32, 'a')
shiftop(both('psllq'), 64, 'l')
shiftop(both('psrlq'), 64, 'r')
shiftop(both('psllw'), 16, 'l')
shiftop(both('psrlw'), 16, 'r')
shiftop('vprolq', 64, 'rol')
shiftop('vprold', 32, 'rol')


def byte_shift(left):
    """psrldq / pslldq: each 128-bit lane shifted by whole bytes (a count above 15
    clears it)."""
    def h(m, ins, ops):
        d, a, c = ops
        n = width_of(d)
        s = imm(c)
        B = to_lanes(rd(m, a, n), 8)
        out = []
        for L in range(n // 4):
            lane = B[16 * L:16 * L + 16]
            src = [j - s if left else j + s for j in range(16)]
            out += [lane[k] if 0 <= k < 16 else BV(0, 8) for k in src]
        wr(m, ins, d, from_lanes(out, 8))
    return h


sem(both('psrldq'), 3)(byte_shift(False))
sem(both('pslldq'), 3)(byte_shift(True))


# ---------------------------------------------------------------- moves
def _mov_full(m, ins, ops):
    d, s = ops
    n = width_of(d) if d.kind == 'reg' else width_of(s)
    wr(m, ins, d, rd(m, s, n))


sem(both('movdqa') + ' ' + both('movdqu') + ' vmovdqa32 vmovdqu32 vmovdqa64 vmovdqu64 vmovdqu8', 2)(_mov_full)


def _movq_movd(size):
    def h(m, ins, ops):
        d, s = ops
        # movd with a 64-bit general register is the movq it assembles to (REX.W / VEX.W1)
        nbytes = 8 if any(o.kind == 'reg' and o.reg in GPR and m.gpr_width(o.reg) == 64 for o in ops) else size
        legacy_zero = True   # movq/movd to xmm zero the rest of the 128 bits in both forms
        if d.kind == 'reg' and vreg(d.reg):
            i, _ = vreg(d.reg)
            if s.kind == 'reg' and vreg(s.reg):
                src = m.vec[vreg(s.reg)[0]][:nbytes // 4]
            elif s.kind == 'reg':
                v = m.rd_gpr(s.reg)
                src = [simp(z3.Extract(31, 0, v))] + ([simp(z3.Extract(63, 32, v))] if nbytes == 8 else [])
            else:
                base, off = m.addr(s)
                src = [m.load(base, off + 4 * j, 4) for j in range(nbytes // 4)]
            new = src + [BV(0, 32)] * (4 - len(src))
            if ins.mnem.startswith('v'):
                m.vec[i] = new + [BV(0, 32)] * 12
            else:
                m.vec[i] = new + m.vec[i][4:]
            return
        src = m.vec[vreg(s.reg)[0]][:nbytes // 4]
        val = simp(z3.Concat(*reversed(src))) if len(src) > 1 else src[0]
        if d.kind == 'reg':
            m.wr_gpr(d.reg, val if m.gpr_width(d.reg) == 8 * nbytes else simp(z3.ZeroExt(m.gpr_width(d.reg) - 8 * nbytes, val)))
        else:
            base, off = m.addr(d)
            m.store(base, off, val, nbytes)
    return h


sem('movq vmovq', 2)(_movq_movd(8))
sem('movd vmovd', 2)(_movq_movd(4))


def _movshdup(m, ins, ops):
    d, s = ops
    n = width_of(d)
    S = rd(m, s, n)
    wr(m, ins, d, [S[2 * (i // 2) + 1] for i in range(n)])


sem(both('movshdup'), 2)(_movshdup)


# ---------------------------------------------------------------- shuffles
def _pshufd(m, ins, ops):
    d, s, c = ops
    n = width_of(d)
    S, k = rd(m, s, n), imm(c)
    wr(m, ins, d, [S[4 * (i // 4) + ((k >> (2 * (i % 4))) & 3)] for i in range(n)])


sem(both('pshufd'), 3)(_pshufd)


def _shufps(m, ins, ops):
    d, a, b, c = ops
    n = width_of(d)
    A, B, k = rd(m, a, n), rd(m, b, n), imm(c)
    out = []
    for L in range(n // 4):
        sel = [(k >> (2 * j)) & 3 for j in range(4)]
        out += [A[4 * L + sel[0]], A[4 * L + sel[1]], B[4 * L + sel[2]], B[4 * L + sel[3]]]
    wr(m, ins, d, out)


sem(both('shufps'), 4)(_shufps)


def unpck(names, w, high):
    def h(m, ins, ops):
        d, a, b = ops
        n = width_of(d)
        A, B = to_lanes(rd(m, a, n), w), to_lanes(rd(m, b, n), w)
        per = 128 // w
        out = []
        for L in range(len(A) // per):
            base = L * per + (per // 2 if high else 0)
            for j in range(per // 2):
                out += [A[base + j], B[base + j]]
        wr(m, ins, d, from_lanes(out, w))
    sem(names, 3)(h)


unpck(both('punpckldq'), 32, False)
unpck(both('punpckhdq'), 32, True)
unpck(both('punpcklqdq'), 64, False)
unpck(both('punpckhqdq'), 64, True)
unpck(both('punpcklbw'), 8, False)


def _pblendd(m, ins, ops):
    d, a, b, c = ops
    n = width_of(d)
    A, B, k = rd(m, a, n), rd(m, b, n), imm(c)
    wr(m, ins, d, [B[i] if (k >> (i % 8)) & 1 else A[i] for i in range(n)])


sem('vpblendd', 4)(_pblendd)


def _perm2i128(m, ins, ops):
    d, a, b, c = ops
    A, B, k = rd(m, a, 8), rd(m, b, 8), imm(c)
    src = [A[0:4], A[4:8], B[0:4], B[4:8]]
    out = []
    for j in range(2):
        ctl = (k >> (4 * j)) & 15
        out += [BV(0, 32)] * 4 if ctl & 8 else src[ctl & 3]
    wr(m, ins, d, out)


sem('vperm2i128', 4)(_perm2i128)


def _shufi64x2(m, ins, ops):
    d, a, b, c = ops
    n = width_of(d)
    A, B, k = rd(m, a, n), rd(m, b, n), imm(c)
    L = n // 4
    bits = 2 if L == 4 else 1
    out = []
    for j in range(L):
        src = A if j < L // 2 else B
        sel = (k >> (bits * j)) & ((1 << bits) - 1)
        out += src[4 * sel:4 * sel + 4]
    wr(m, ins, d, out)


sem('vshufi64x2 vshufi32x4', 4)(_shufi64x2)


def select(idx, items):
    """items[idx] for a term idx (If-chain) or a constant."""
    idx = simp(idx)
    if z3.is_bv_value(idx):
        return items[idx.as_long()]
    r = items[-1]
    for j in range(len(items) - 2, -1, -1):
        r = z3.If(idx == j, items[j], r)
    return r


def _permd(m, ins, ops):
    d, ix, s = ops
    n = width_of(d)
    I, S = rd(m, ix, n), rd(m, s, n)
    wr(m, ins, d, [select(z3.Extract((n - 1).bit_length() - 1, 0, I[i]), S) for i in range(n)])


sem('vpermd', 3)(_permd)


def _pshufb(m, ins, ops):
    d, a, b = ops
    n = width_of(d)
    A, B = to_lanes(rd(m, a, n), 8), to_lanes(rd(m, b, n), 8)
    out = []
    for i in range(len(A)):
        L = 16 * (i // 16)
        c = simp(B[i])
        lane = A[L:L + 16]
        v = select(z3.Extract(3, 0, c), lane)
        out.append(simp(z3.If(z3.Extract(7, 7, c) == 1, BV(0, 8), v)))
    wr(m, ins, d, from_lanes(out, 8))


sem(both('pshufb'), 3)(_pshufb)


def _extract(lanes_dw):
    def h(m, ins, ops):
        d, s, c = ops
        n = width_of(s)
        S, k = rd(m, s, n), imm(c)
        k &= (n // lanes_dw) - 1
        part = S[lanes_dw * k:lanes_dw * k + lanes_dw]
        if d.kind == 'mem':
            m.store_dwords(d, part)
        else:
            wr(m, ins, d, part)
    return h


sem('vextracti128 vextracti32x4 vextracti64x2', 3)(_extract(4))
sem('vextracti64x4 vextracti32x8', 3)(_extract(8))


def _insert(lanes_dw):
    def h(m, ins, ops):
        d, a, b, c = ops
        n = width_of(d)
        A, B, k = rd(m, a, n), rd(m, b, lanes_dw), imm(c)
        k &= (n // lanes_dw) - 1
        out = list(A)
        out[lanes_dw * k:lanes_dw * k + lanes_dw] = B
        wr(m, ins, d, out)
    return h


sem('vinserti128 vinserti32x4 vinserti64x2', 4)(_insert(4))
sem('vinserti64x4 vinserti32x8', 4)(_insert(8))


def _bcst128(m, ins, ops):
    d, s = ops
    n = width_of(d)
    S = rd(m, s, 4)
    wr(m, ins, d, S * (n // 4))


sem('vbroadcasti128 vbroadcasti32x4', 2)(_bcst128)


def _pbroadcastd(m, ins, ops):
    d, s = ops
    n = width_of(d)
    if s.kind == 'reg' and not vreg(s.reg):
        x = m.rd_gpr(s.reg)
        if x.size() != 32:
            raise ExecError('vpbroadcastd from a non-32-bit register')
    else:
        x = rd(m, s, 1)[0]
    wr(m, ins, d, [x] * n)


sem('vpbroadcastd', 2)(_pbroadcastd)


def _pbroadcastq(m, ins, ops):
    d, s = ops
    n = width_of(d)
    x = rd(m, s, 2)
    wr(m, ins, d, x * (n // 2))


sem('vpbroadcastq', 2)(_pbroadcastq)


def pmovx(names, src_w, dst_w, signed):
    def h(m, ins, ops):
        d, s = ops
        n = width_of(d)
        count = n * 32 // dst_w
        nbytes = count * src_w // 8
        if s.kind == 'mem':
            base, off = m.addr(s)
            raw = [m.load(base, off + j, 1) for j in range(nbytes)]
            step = src_w // 8
            src = [simp(raw[j]) if step == 1 else simp(z3.Concat(*reversed(raw[j:j + step])))
                   for j in range(0, nbytes, step)]
        else:
            src = to_lanes(rd(m, s, max(1, nbytes // 4)), src_w)[:count]
        ext = z3.SignExt if signed else z3.ZeroExt
        wr(m, ins, d, from_lanes([ext(dst_w - src_w, x) for x in src], dst_w))
    sem(names, 2)(h)


pmovx('vpmovsxbd pmovsxbd', 8, 32, True)
pmovx('vpmovzxbd pmovzxbd', 8, 32, False)
pmovx('vpmovzxbw pmovzxbw', 8, 16, False)


def _movmsk(w):
    def h(m, ins, ops):
        d, s = ops
        n = width_of(s)
        L = to_lanes(rd(m, s, n), w)
        bits = [z3.Extract(w - 1, w - 1, x) for x in L]
        v = z3.Concat(*reversed(bits)) if len(bits) > 1 else bits[0]
        dw = m.gpr_width(d.reg)
        m.wr_gpr(d.reg, simp(z3.ZeroExt(dw - len(bits), v)))
    return h


sem(both('movmskps'), 2)(_movmsk(32))
sem(both('pmovmskb'), 2)(_movmsk(8))


def _vzeroupper(m, ins, ops):
    for i in range(16):
        m.vec[i] = m.vec[i][:4] + [BV(0, 32)] * 12


sem('vzeroupper', 0)(_vzeroupper)


def _ternlog(w):
    def h(m, ins, ops):
        d, b, c, k = ops
        n = width_of(d)
        A, B, C, t = rd(m, d, n), rd(m, b, n), rd(m, c, n), imm(k)
        out = []
        for x, y, z in zip(A, B, C):
            r = BV(0, 32)
            for p in range(8):
                if (t >> p) & 1:
                    term = ones(32)
                    for bit, v in ((4, x), (2, y), (1, z)):
                        term = term & (v if p & bit else ~v)
                    r = r | term
            out.append(r)
        wr(m, ins, d, out)
    return h


def _ternlog_anf(m, ins, ops):
    """vpternlogq as its truth table's algebraic normal form (xor of ands: $0x96 is
    a ^ b ^ c, $0xd2 a ^ c ^ (b & c)), the same function as the minterms of _ternlog;
    Keccak's normal forms (keccak.py) take it as it is."""
    d, b, c, k = ops
    n = width_of(d)
    A, B, C, t = rd(m, d, n), rd(m, b, n), rd(m, c, n), imm(k)
    anf = [(t >> p) & 1 for p in range(8)]
    for i in (1, 2, 4):                 # Moebius transform: truth table -> ANF
        for p in range(8):
            if p & i:
                anf[p] ^= anf[p ^ i]
    out = []
    for x, y, z in zip(A, B, C):
        r = BV(0, 32)
        for p in range(8):
            if anf[p]:
                term = ones(32)
                for bit, v in ((4, x), (2, y), (1, z)):
                    if p & bit:
                        term = term & v
                r = r ^ term
        out.append(r)
    wr(m, ins, d, out)


sem('vpternlogd', 4)(_ternlog(32))
sem('vpternlogq', 4)(_ternlog_anf)


# ---------------------------------------------------------------- AVX-512 opmasks
def kwrite(m, op, bits):
    """bits: list of 1-bit terms, element 0 first; writes k (zero above), under a mask."""
    v = z3.Concat(*reversed(bits)) if len(bits) > 1 else bits[0]
    v = z3.ZeroExt(64 - len(bits), v)
    if op.mask and op.mask != 'k0':
        v = v & m.k[int(op.mask[1:])]
    m.k[int(op.reg[1:])] = simp(v)


def kcmp(names, pred, w=32):
    def h(m, ins, ops):
        if len(ops) == 4:
            d, a, b, c = ops
            p = pred(imm(c))
        else:
            d, a, b = ops
            p = pred
        n = width_of(a)
        A, B = to_lanes(rd(m, a, n), w), to_lanes(rd(m, b, n), w)
        kwrite(m, d, [z3.If(p(x, y), BV(1, 1), BV(0, 1)) for x, y in zip(A, B)])
    return h


sem('vpcmpgtd', 3)(lambda m, ins, ops: (kcmp('', lambda x, y: x > y) if not vreg(ops[0].reg) else TABLE['pcmpgtd'][1])(m, ins, ops))
sem('vpcmpeqd', 3)(lambda m, ins, ops: (kcmp('', lambda x, y: x == y) if not vreg(ops[0].reg) else TABLE['pcmpeqd'][1])(m, ins, ops))
sem('vpcmpgtb', 3)(lambda m, ins, ops: (kcmp('', lambda x, y: x > y, 8) if not vreg(ops[0].reg) else TABLE['pcmpgtb'][1])(m, ins, ops))

_UCMP = {0: lambda x, y: x == y, 1: z3.ULT, 2: z3.ULE, 3: lambda x, y: z3.BoolVal(False),
         4: lambda x, y: x != y, 5: z3.UGE, 6: z3.UGT, 7: lambda x, y: z3.BoolVal(True)}
_SCMP = {0: lambda x, y: x == y, 1: lambda x, y: x < y, 2: lambda x, y: x <= y,
         3: lambda x, y: z3.BoolVal(False), 4: lambda x, y: x != y, 5: lambda x, y: x >= y,
         6: lambda x, y: x > y, 7: lambda x, y: z3.BoolVal(True)}


def _pcmp_imm(table):
    def pred(k):
        k &= 7          # the predicate is imm8[2:0]
        if k not in table:
            raise ExecError('compare predicate %d not modelled' % k)
        return table[k]
    return kcmp('', pred)


sem('vpcmpud', 4)(_pcmp_imm(_UCMP))
sem('vpcmpd', 4)(_pcmp_imm(_SCMP))


def _compress(m, ins, ops):
    d, s = ops
    n = width_of(d)
    S = rd(m, s, n)
    if not d.mask or d.mask == 'k0':
        raise ExecError('vpcompressd without a mask')
    k = m.k[int(d.mask[1:])]
    bits = [z3.Extract(i, i, k) for i in range(n)]
    # out[j] = S[i] for the i-th set bit being the j-th; count of set bits before i
    cnt = [BV(0, 8)]
    for i in range(n):
        cnt.append(cnt[-1] + z3.ZeroExt(7, bits[i]))
    old = rd(m, d, n) if d.kind == 'reg' else None
    out = []
    for j in range(n):
        r = BV(0, 32) if d.zero else old[j]
        for i in range(n - 1, j - 1, -1):
            r = z3.If(z3.And(bits[i] == 1, cnt[i] == j), S[i], r)
        out.append(r)
    if d.kind == 'mem':
        raise ExecError('vpcompressd to memory not modelled')
    i, _ = vreg(d.reg)
    m.vec[i] = [simp(x) for x in out] + [BV(0, 32)] * (16 - n)


sem('vpcompressd', 2)(_compress)


def _kmovw(m, ins, ops):
    d, s = ops
    if s.reg.startswith('k'):
        v = z3.Extract(15, 0, m.k[int(s.reg[1:])])
    else:
        v = z3.Extract(15, 0, m.rd_gpr(s.reg))
    if d.reg.startswith('k') and d.reg[1:].isdigit():
        m.k[int(d.reg[1:])] = simp(z3.ZeroExt(48, v))
    else:
        m.wr_gpr(d.reg, simp(z3.ZeroExt(m.gpr_width(d.reg) - 16, v)))


sem('kmovw', 2)(_kmovw)


def _korw(m, ins, ops):
    d, a, b = ops
    v = z3.Extract(15, 0, m.k[int(a.reg[1:])] | m.k[int(b.reg[1:])])
    m.k[int(d.reg[1:])] = simp(z3.ZeroExt(48, v))


sem('korw', 3)(_korw)


def _kshiftrq(m, ins, ops):
    d, a, c = ops
    s = imm(c)
    m.k[int(d.reg[1:])] = simp(z3.LShR(m.k[int(a.reg[1:])], s)) if s < 64 else BV(0, 64)


sem('kshiftrq', 3)(_kshiftrq)


def _kortestw(m, ins, ops):
    a, b = ops
    v = simp(z3.Extract(15, 0, m.k[int(a.reg[1:])] | m.k[int(b.reg[1:])]))
    m.flags = {'ZF': v == 0, 'CF': v == 0xffff, 'SF': z3.BoolVal(False), 'OF': z3.BoolVal(False)}


sem('kortestw', 2)(_kortestw)


# ---------------------------------------------------------------- general-purpose
def gwidth(m, ins, ops):
    for o in ops:
        if o.kind == 'reg' and o.reg in GPR:
            return m.gpr_width(o.reg)
    suf = ins.mnem[-1]
    if suf in 'bwlq':
        return {'b': 8, 'w': 16, 'l': 32, 'q': 64}[suf]
    raise ExecError('operand size unknown: ' + ins.text)


def grd(m, op, w):
    if op.kind == 'imm':
        return BV(op.imm % (1 << w), w)
    if op.kind == 'reg':
        if op.reg not in GPR:
            raise ExecError('expected a general-purpose register: ' + op.text)
        return m.rd_gpr(op.reg)
    base, off = m.addr(op)
    return m.load(base, off, w // 8)


def gwr(m, op, v):
    if op.kind == 'reg':
        m.wr_gpr(op.reg, v)
    else:
        base, off = m.addr(op)
        m.store(base, off, v, v.size() // 8)


def szf(m, r, cf, of):
    m.flags = {'ZF': r == 0, 'SF': r < 0, 'CF': cf, 'OF': of}


def arith(names, kind):
    def h(m, ins, ops):
        d, s = ops
        w = gwidth(m, ins, ops)
        a, b = grd(m, d, w), grd(m, s, w)
        if kind == 'add':
            r = a + b
            cf = z3.ULT(r, a)
            of = z3.And(a < 0, b < 0, r >= 0) if False else z3.Or(z3.And(a < 0, b < 0, r >= 0), z3.And(a >= 0, b >= 0, r < 0))
        elif kind == 'adc':
            c = z3.If(m.flags['CF'], BV(1, w), BV(0, w))
            r = a + b + c
            cf = z3.Extract(w, w, z3.ZeroExt(1, a) + z3.ZeroExt(1, b) + z3.ZeroExt(1, c)) == 1
            of = z3.Or(z3.And(a < 0, b < 0, r >= 0), z3.And(a >= 0, b >= 0, r < 0))
        elif kind in ('sub', 'cmp'):
            r = a - b
            cf = z3.ULT(a, b)
            of = z3.Or(z3.And(a < 0, b >= 0, r >= 0), z3.And(a >= 0, b < 0, r < 0))
        else:
            r = {'and': a & b, 'or': a | b, 'xor': a ^ b, 'test': a & b}[kind]
            cf = of = z3.BoolVal(False)
        r = simp(r)
        szf(m, r, cf, of)
        if kind not in ('cmp', 'test'):
            gwr(m, d, r)
    sem(names, 2)(h)


for _k in ('add', 'adc', 'sub', 'cmp', 'and', 'or', 'xor', 'test'):
    arith(' '.join(_k + s for s in ('', 'l', 'q')), _k)


def _incdec(delta):
    def h(m, ins, ops):
        (d,) = ops
        w = gwidth(m, ins, ops)
        a = grd(m, d, w)
        r = simp(a + delta)
        of = (r == (1 << (w - 1))) if delta > 0 else (r == (1 << (w - 1)) - 1)
        kept = m.flags.get('CF')     # inc and dec leave CF as it was, known or not
        szf(m, r, kept, of)
        if kept is None:
            del m.flags['CF']
        gwr(m, d, r)
    return h


sem('inc incl incq', 1)(_incdec(1))
sem('dec decl decq', 1)(_incdec(-1))


def _not(m, ins, ops):
    (d,) = ops
    w = gwidth(m, ins, ops)
    gwr(m, d, simp(~grd(m, d, w)))


sem('not notl notq', 1)(_not)


def _neg(m, ins, ops):
    (d,) = ops
    w = gwidth(m, ins, ops)
    a = grd(m, d, w)
    r = simp(-a)
    szf(m, r, a != 0, a == (1 << (w - 1)))
    gwr(m, d, r)


sem('neg negl negq', 1)(_neg)


_UNDEF = [0]


def undefined_flag(what):
    """a flag the SDM leaves undefined: a fresh, unconstrained value (a branch on it is
    on a non-constant condition, so the run fails)."""
    _UNDEF[0] += 1
    return z3.Bool('undefined_%s_%d' % (what, _UNDEF[0]))


def _shift(kind):
    def h(m, ins, ops):
        if len(ops) == 1:
            d, c = ops[0], 1
        else:
            d, cop = ops
            if cop.kind != 'imm':
                raise ExecError('shift by a register not modelled: ' + ins.text)
            c = cop.imm
        w = gwidth(m, ins, [d])
        c &= 63 if w == 64 else 31
        a = grd(m, d, w)
        if c == 0:
            # flags unchanged; a 32-bit destination register is still written (zero-extended)
            gwr(m, d, a)
            return
        if c >= w:
            raise ExecError('a shift count not below the operand width not modelled: ' + ins.text)
        if kind == 'shr':
            r = z3.LShR(a, c)
            cf = z3.Extract(c - 1, c - 1, a) == 1
            of = (z3.Extract(w - 1, w - 1, a) == 1) if c == 1 else undefined_flag('OF')
        elif kind == 'sar':
            r = a >> c
            cf = z3.Extract(c - 1, c - 1, a) == 1
            of = z3.BoolVal(False) if c == 1 else undefined_flag('OF')
        elif kind == 'shl':
            r = a << c
            cf = z3.Extract(w - c, w - c, a) == 1
            of = z3.Xor(z3.Extract(w - 1, w - 1, r) == 1, cf) if c == 1 else undefined_flag('OF')
        else:
            r = simp(z3.RotateLeft(a, c))
            gwr(m, d, r)
            m.flags = dict(m.flags)
            cf = z3.Extract(0, 0, r) == 1
            m.flags['CF'] = cf
            m.flags['OF'] = z3.Xor(z3.Extract(w - 1, w - 1, r) == 1, cf) if c == 1 else undefined_flag('OF')
            return
        r = simp(r)
        szf(m, r, cf, of)
        gwr(m, d, r)
    return h


sem('shr shrl shrq', 2)(_shift('shr'))
sem('sar sarl sarq', 2)(_shift('sar'))
sem('shl shll shlq sal', 2)(_shift('shl'))
sem('rol roll rolq', 2)(_shift('rol'))


def _mov(m, ins, ops):
    d, s = ops
    w = gwidth(m, ins, ops)
    gwr(m, d, grd(m, s, w))


sem('mov movl movq_gpr', 2)(_mov)


def _movx(sw, signed):
    def h(m, ins, ops):
        d, s = ops
        dw = m.gpr_width(d.reg)
        v = grd(m, s, sw) if s.kind != 'reg' else m.rd_gpr(s.reg)
        if v.size() != sw:
            raise ExecError('source size: ' + ins.text)
        m.wr_gpr(d.reg, simp((z3.SignExt if signed else z3.ZeroExt)(dw - sw, v)))
    return h


sem('movzbl movzbq', 2)(_movx(8, False))
sem('movzwl movzwq', 2)(_movx(16, False))
sem('movsbl movsbq', 2)(_movx(8, True))
sem('movslq', 2)(_movx(32, True))


def _lea(m, ins, ops):
    d, s = ops
    a = z3.BitVecVal(s.disp, 64)
    if s.sym:
        # sym(%rip): an address in the unit's .rodata (loads through it read the bytes)
        if s.base != 'rip' or s.index or s.sym not in m.unit.symbols:
            raise ExecError('lea of a symbol other than sym(%rip)')
        m.wr_gpr(d.reg, simp(m.base('rodata') + (m.unit.symbols[s.sym] + s.disp)))
        return
    if s.base:
        a = a + m.rd_gpr(s.base) if m.gpr_width(s.base) == 64 else a + z3.ZeroExt(32, m.rd_gpr(s.base))
    if s.index:
        a = a + m.rd_gpr(s.index) * s.scale if m.gpr_width(s.index) == 64 else a + z3.ZeroExt(32, m.rd_gpr(s.index)) * s.scale
    w = m.gpr_width(d.reg)
    m.wr_gpr(d.reg, simp(z3.Extract(w - 1, 0, a)))


sem('lea leal leaq', 2)(_lea)


def _imul(m, ins, ops):
    if len(ops) == 3:
        d, s, c = ops
    else:
        d, s = ops
        c = d
    w = m.gpr_width(d.reg)
    x, y = grd(m, s, w), grd(m, c, w)
    r = simp(x * y)
    # CF = OF = the signed product does not fit the destination; SF, ZF undefined
    over = simp(z3.SignExt(w, x) * z3.SignExt(w, y) != z3.SignExt(w, r))
    m.flags = {'ZF': undefined_flag('ZF'), 'SF': undefined_flag('SF'), 'CF': over, 'OF': over}
    m.wr_gpr(d.reg, r)


sem('imul imull imulq', 3)(_imul)


def _push(m, ins, ops):
    (s,) = ops
    v = grd(m, s, 64)
    m.gpr['rsp'] = simp(m.gpr['rsp'] - 8)
    base, off = m.split_addr(m.gpr['rsp'])
    m.store(base, off, v, 8)


def _pop(m, ins, ops):
    (d,) = ops
    base, off = m.split_addr(m.gpr['rsp'])
    v = m.load(base, off, 8)
    m.gpr['rsp'] = simp(m.gpr['rsp'] + 8)
    m.wr_gpr(d.reg, v)


sem('push pushq', 1)(_push)
sem('pop popq', 1)(_pop)

CONDS = {
    'nz': lambda f: z3.Not(f['ZF']), 'ne': lambda f: z3.Not(f['ZF']),
    'z': lambda f: f['ZF'], 'e': lambda f: f['ZF'],
    'a': lambda f: z3.And(z3.Not(f['CF']), z3.Not(f['ZF'])),
    'ae': lambda f: z3.Not(f['CF']), 'nb': lambda f: z3.Not(f['CF']), 'nc': lambda f: z3.Not(f['CF']),
    'b': lambda f: f['CF'], 'c': lambda f: f['CF'], 'be': lambda f: z3.Or(f['CF'], f['ZF']),
    'l': lambda f: f['SF'] != f['OF'], 'ge': lambda f: f['SF'] == f['OF'],
    'g': lambda f: z3.And(z3.Not(f['ZF']), f['SF'] == f['OF']),
    'le': lambda f: z3.Or(f['ZF'], f['SF'] != f['OF']),
    's': lambda f: f['SF'], 'ns': lambda f: z3.Not(f['SF']),
}


def _setcc(cc):
    def h(m, ins, ops):
        (d,) = ops
        if not m.flags:
            raise ExecError('flags read before any instruction set them')
        c = CONDS[cc](m.flags)
        gwr(m, d, simp(z3.If(c, BV(1, 8), BV(0, 8))))
    return h


for _cc in CONDS:
    sem('set' + _cc, 1)(_setcc(_cc))

BRANCHES = {'j' + cc: CONDS[cc] for cc in CONDS}
CONTROL = set(BRANCHES) | {'jmp', 'ret', 'retq'}
NOPS = {'endbr64', 'nop'}


# ---- alignment: the forms that fault (#GP) unless their memory operand is aligned to its
# size. The aligned moves in every encoding; and every legacy-SSE instruction with a
# 128-bit memory operand except the unaligned moves. A VEX or EVEX instruction other than
# an aligned move, and a general-purpose one (alignment checking is off in user mode),
# accept any address. The differential check runs each used memory form at an address 4
# bytes off a 64-byte boundary and compares which fault with this.
ALIGNED_MOVES = {'movdqa', 'movaps', 'movapd', 'movntdq', 'movntdqa', 'movntps', 'movntpd'}
ALIGNED_MOVES |= {'v' + x for x in ALIGNED_MOVES} | {'vmovdqa32', 'vmovdqa64'}
# legacy SSE forms that read or write fewer than 16 bytes, or are unaligned by definition
LEGACY_ANY_ADDRESS = set('movdqu movups movupd lddqu movd movq movhps movlps movhpd movlpd movss movsd '
                         'pinsrb pinsrw pinsrd pinsrq pextrb pextrw pextrd pextrq'.split())
LEGACY_NARROW = re.compile(r'pmov[sz]x')


def alignment_required(ins):
    """the alignment, in bytes, ins's memory operand must have; None if any address."""
    if not any(o.kind == 'mem' for o in ins.ops) or ins.mnem == 'lea':
        return None
    vecs = [vreg(o.reg) for o in ins.ops if o.kind == 'reg' and vreg(o.reg)]
    if ins.mnem in ALIGNED_MOVES:
        return 4 * vecs[0][1] if vecs else 16
    if ins.mnem.startswith('v') or not vecs:
        return None
    if ins.mnem in LEGACY_ANY_ADDRESS or LEGACY_NARROW.match(ins.mnem):
        return None
    return 16


def check_alignment(m, ins):
    need = alignment_required(ins)
    if need:
        for o in ins.ops:
            if o.kind == 'mem':
                m.require_aligned(o, need, ins.mnem)


def lookup(mnem):
    """(operand count, handler) of mnem; the handler checks alignment first."""
    if mnem in TABLE:
        nops, h = TABLE[mnem]

        def checked(m, ins, ops):
            check_alignment(m, ins)
            return h(m, ins, ops)
        return nops, checked
    raise ExecError('no semantics for mnemonic %r' % mnem)


def known(mnem):
    return mnem in TABLE or mnem in CONTROL or mnem in NOPS
