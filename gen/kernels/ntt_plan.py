# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The plans of the NTT kernels (ntt, invntt_tomont, ntt_reorder) per ISA.

A plan is the list of steps a template renders (loads, butterflies, transposition
shuffles, stores) with every register chosen, plus the twiddle table in the order the
steps use it. It is computed by following the coefficient index held by every lane of
every register through the steps, so that:

  * the butterflies of a layer are found, not written down: two registers whose lanes hold
    j and j + len (j & len == 0) pair up, and the twiddle of each lane follows from j;
  * each ISA's NTT order is whatever its data movement produces; it is read off at the
    stores and checked (check_order) to be what the templates' headers say
    (the standard order with every group of L*L coefficients, L = lanes, transposed as an
    L x L matrix), and ntt_reorder is that data movement with the arithmetic left out;
  * the inverse is the mirror image and must end in the natural order (asserted);
  * the coefficient bounds of the contracts are checked by interval arithmetic over the
    very twiddles in the table (check_bounds), so a change here that breaks |out| < 9q or
    |out| < q, or overflows an int32, stops the generator.

Shape of the computation (L = lanes, one "row" = one vector of L coefficients):

  avx512  one pass: the 16 rows of the polynomial in 16 zmm; layers 1-4 pair registers
          (twiddles broadcast); a 16 x 16 transposition; layers 5-8 pair registers again
          (a twiddle vector per layer and register pair, shared by the pairs). 32 zmm.
  avx2    pass 1: 4 columns of 8 rows at stride 32 coefficients, layers 1-3 (twiddles
          common to all lanes). pass 2: 4 blocks of 64 coefficients in 8 ymm: layers 4-5,
          an 8 x 8 transposition, layers 6-8 (twiddle vectors).
  sse2    pass 1: 8 columns of 8 rows at stride 32, layers 1-3. pass 2: 8 blocks of 32
          coefficients in 8 xmm: layers 4-6, two 4 x 4 transpositions, layers 7-8.
  neon    the shape of sse2 (4 lanes); the transpositions are zip1/zip2 .4s and .2d.

  A pass over several groups is a loop (the same steps for each group; checked); where
  the twiddles differ between groups, each group has its part of the table, laid out
  alike, and %rsi walks through them.

Products by twiddles:

  avx2, avx512  Shoup: t = lo(b z) - lo(q h), h = hi(b zb), zb = round(z 2^32 / q)
                (gen.constants.shoup_twist); two vpmuldq (even, odd lanes) for h and two
                vpmulld. t = b z mod q in [0, q) up to q|b|/2^33. The forward NTT lets one
                layer grow its outputs only downwards (a + t - q, a - t) and one only
                upwards (a + t, a - t + q), so |out| < 9q. The last inverse layer rounds
                h (adds 2^31 before taking the high half): |t| <= q/2 + q|b|/2^33 < q.
  sse2          Montgomery with pmuludq only (no signed product): for b >= 0 and
                z' = z 2^32 mod q in [0, q), m = lo(b z' q^-1) read as unsigned,
                t = hi(b z') - hi(m q) = (b z' - m q) / 2^32 is exact, congruent to b z
                and in (-q, b z' / 2^32]. The forward NTT keeps every coefficient biased
                by +9q (>= 0 throughout; the bias leaves the last layer's outputs), the
                inverse adds 256q to each difference (and sum) it multiplies.
  neon          t = b z - q round(b zt / 2^31), zt = round(z 2^31 / q)
                (gen.constants.barrett_twist): sqrdmulh, mul, mls. |t| <= q/2 + q|b|/2^32
                (centered), so the forward layers need no fix-ups (|out| < 5.1q) and the
                last inverse layer, whose factors include 2^32/256, ends below q. A
                twiddle common to the lanes is a (z, zt) pair taken by element.
"""

import re
from collections import deque

from .. import constants as c

Q = c.Q
N = c.N
NTT_OUT_MAX = 9 * Q          # ntt: |out| < 9q
SSE2_BIAS = 9 * Q            # sse2 ntt: coefficients carried as a + 9q
SSE2_INV_BIAS = 256 * Q      # sse2 invntt: differences and sums multiplied as x + 256q


def shape(isa) -> list:
    """Passes of the forward NTT per ISA: each pass is a list of groups of rows (the
    coefficient offset of each row) and a list of stages: ('layer', len) or
    ('transpose', [row indices] per transposition); twiddles "per group" when they
    differ between the groups of the pass."""
    L = isa.lanes
    if isa.name == "avx512":
        return [dict(name="all layers", groups=[[16 * i for i in range(16)]],
                     stages=[("layer", 128), ("layer", 64), ("layer", 32), ("layer", 16),
                             ("transpose", [list(range(16))]),
                             ("layer", 8), ("layer", 4), ("layer", 2), ("layer", 1)])]
    if isa.name == "avx2":
        return [dict(name="pass 1, layers 1-3",
                     groups=[[32 * i + 8 * col for i in range(8)] for col in range(4)],
                     stages=[("layer", 128), ("layer", 64), ("layer", 32)]),
                dict(name="pass 2, layers 4-8", twiddles="per group",
                     groups=[[64 * blk + 8 * i for i in range(8)] for blk in range(4)],
                     stages=[("layer", 16), ("layer", 8), ("transpose", [list(range(8))]),
                             ("layer", 4), ("layer", 2), ("layer", 1)])]
    if L == 4:                   # sse2, neon
        return [dict(name="pass 1, layers 1-3",
                     groups=[[32 * i + 4 * col for i in range(8)] for col in range(8)],
                     stages=[("layer", 128), ("layer", 64), ("layer", 32)]),
                dict(name="pass 2, layers 4-8", twiddles="per group",
                     groups=[[32 * blk + 4 * i for i in range(8)] for blk in range(8)],
                     stages=[("layer", 16), ("layer", 8), ("layer", 4),
                             ("transpose", [[0, 1, 2, 3], [4, 5, 6, 7]]),
                             ("layer", 2), ("layer", 1)])]
    raise ValueError(f"no NTT plan for {isa.name} ({L} lanes)")


# -- transpositions ---------------------------------------------------------------------
#
# An L x L transposition of rows (registers) r[0..L-1] in log2(L) stages of two-source
# shuffles, each turning a pair (x, y) into (lo, hi). The kinds are the per-ISA blocks of
# ntt_tr_pair in templates/macros.S.j2; their lane semantics are modelled here so that the
# plan can check that the stages do transpose.

def _per128(f, x, y):
    out_lo, out_hi = [], []
    for k in range(0, len(x), 4):
        lo, hi = f(x[k:k + 4], y[k:k + 4])
        out_lo += lo
        out_hi += hi
    return out_lo, out_hi


SHUFFLES = {
    # punpck{l,h}dq: (x0 y0 x1 y1), (x2 y2 x3 y3) per 128-bit lane
    "ud": lambda x, y: _per128(lambda a, b: ([a[0], b[0], a[1], b[1]],
                                             [a[2], b[2], a[3], b[3]]), x, y),
    # punpck{l,h}qdq: (x0 x1 y0 y1), (x2 x3 y2 y3) per 128-bit lane
    "uq": lambda x, y: _per128(lambda a, b: (a[0:2] + b[0:2], a[2:4] + b[2:4]), x, y),
    # vperm2i128 $0x20 / $0x31: (x.lo y.lo), (x.hi y.hi)
    "h128": lambda x, y: (x[0:4] + y[0:4], x[4:8] + y[4:8]),
    # vshufi64x2 $0x88 / $0xdd: 128-bit chunks (x0 x2 y0 y2), (x1 x3 y1 y3)
    "s128": lambda x, y: (x[0:4] + x[8:12] + y[0:4] + y[8:12],
                          x[4:8] + x[12:16] + y[4:8] + y[12:16]),
}


def transpose_stages(lanes: int) -> list:
    """[(kind, [(x, y, lo, hi), ...]), ...] on row indices: rows 0..L-1 in, and the index
    of the row that holds column i at the end is i. Intermediate rows are numbered on."""
    stages = []
    nxt = lanes

    def fresh():
        nonlocal nxt
        nxt += 1
        return nxt - 1

    r = list(range(lanes))
    # stage 1: dword interleave of row pairs
    t = [None] * lanes
    pairs = []
    for i in range(0, lanes, 2):
        t[i], t[i + 1] = fresh(), fresh()
        pairs.append((r[i], r[i + 1], t[i], t[i + 1]))
    stages.append(("ud", pairs))
    # stage 2: qword interleave within groups of 4 rows; u[4g + c] = column c of each
    # 128-bit lane of rows 4g..4g+3
    u = [None] * lanes
    pairs = []
    for g in range(0, lanes, 4):
        u[g], u[g + 1], u[g + 2], u[g + 3] = fresh(), fresh(), fresh(), fresh()
        pairs.append((t[g], t[g + 2], u[g], u[g + 1]))
        pairs.append((t[g + 1], t[g + 3], u[g + 2], u[g + 3]))
    stages.append(("uq", pairs))
    if lanes == 4:
        return stages, u
    if lanes == 8:
        out = [None] * 8
        pairs = []
        for cc in range(4):
            out[cc], out[4 + cc] = fresh(), fresh()
            pairs.append((u[cc], u[4 + cc], out[cc], out[4 + cc]))
        stages.append(("h128", pairs))
        return stages, out
    if lanes == 16:
        v = {}
        pairs = []
        for cc in range(4):
            for g in (0, 2):           # (rows 0-3, 4-7) and (rows 8-11, 12-15)
                lo, hi = fresh(), fresh()
                v[g, cc] = (lo, hi)
                pairs.append((u[4 * g + cc], u[4 * g + 4 + cc], lo, hi))
        stages.append(("s128", pairs))
        out = [None] * 16
        pairs = []
        for cc in range(4):
            for half in (0, 1):        # chunks 0/2 (half 0) and 1/3 (half 1) of each row
                x, y = v[0, cc][half], v[2, cc][half]
                out[4 * half + cc], out[8 + 4 * half + cc] = fresh(), fresh()
                pairs.append((x, y, out[4 * half + cc], out[8 + 4 * half + cc]))
        stages.append(("s128", pairs))
        return stages, out
    raise ValueError(f"no transposition for {lanes} lanes")


def _check_transpose_model():
    for lanes in (4, 8, 16):
        stages, out = transpose_stages(lanes)
        rows = {i: [(i, j) for j in range(lanes)] for i in range(lanes)}
        for kind, pairs in stages:
            for x, y, lo, hi in pairs:
                rows[lo], rows[hi] = SHUFFLES[kind](rows.pop(x), rows.pop(y))
        for i in range(lanes):
            assert rows[out[i]] == [(j, i) for j in range(lanes)], (lanes, i)


_check_transpose_model()


# -- the table of twiddles and constants -----------------------------------------------

class Table:
    """32-bit values in .rodata under one local label, each entry aligned to its size and
    deduplicated by content (a twiddle vector shared by several register pairs is stored
    once)."""

    def __init__(self, label: str):
        self.label = label
        self.entries = []        # (offset, values, comment)
        self.size = 0
        self._seen = {}

    def add(self, values, comment: str, align: int = None) -> int:
        values = [int(v) for v in values]
        align = align or 4 * len(values)
        key = (tuple(values), align)
        if key in self._seen:
            return self._seen[key]
        if self.size % align:
            pad = align - self.size % align
            self.entries.append((self.size, [0] * (pad // 4), "(alignment)"))
            self.size += pad
        off = self.size
        self.entries.append((off, values, comment))
        self.size += 4 * len(values)
        self._seen[key] = off
        return off

    def pad_to(self, align: int) -> None:
        if self.size % align:
            pad = align - self.size % align
            self.entries.append((self.size, [0] * (pad // 4), "(alignment)"))
            self.size += pad

    def extend(self, parts, align: int) -> int:
        """Appends the entries of the tables `parts` one after the other, from an offset
        aligned to `align`; returns that offset."""
        self.pad_to(align)
        base = self.size
        for g, part in enumerate(parts):
            for off, values, comment in part.entries:
                self.entries.append((self.size + off, values, f"group {g}: {comment}"))
            self.size += part.size
        return base

    def mem(self, off: int, deco: str = "") -> str:
        return f"{self.label}+{off}(%rip){deco}"

    def rows(self):
        """(comment, [value lines of at most 8 values]) per entry, for the template."""
        out = []
        for off, values, comment in self.entries:
            lines = [", ".join(str(v) for v in values[i:i + 8])
                     for i in range(0, len(values), 8)]
            out.append(dict(off=off, comment=comment, lines=lines))
        return out


# -- the plan builder -------------------------------------------------------------------

# Scheduling (see schedule()). The vector registers keep TEMP_SETS sets of TEMPS
# temporaries for the butterflies; the rest hold rows. With two sets, consecutive
# independent butterflies are emitted two at a time with their instructions interleaved,
# each with its own set (Zen 4: -3% on AVX2, -2.5% on AVX-512; even on SSE2, which lacks
# the registers). GROUPS_PER_ITER groups of rows are scheduled together per loop
# iteration: 2 or 4 (up to 13 rows in registers, 6 butterflies in flight instead of 4)
# gained at most 2% on AVX2 and needs unrolled code, so 1. On AVX2 and SSE2 a group has
# 4 independent butterflies per layer, each ~10 cycles deep: that latency, more than
# the instruction count, bounds those two ISAs on Zen 4.
GROUPS_PER_ITER = {"sse2": 1, "avx2": 1, "avx512": 1, "neon": 1}
TEMPS = {"sse2": 4, "avx2": 3, "avx512": 3, "neon": 4}
TEMP_SETS = {"sse2": 1, "avx2": 2, "avx512": 2, "neon": 2}
ISSUE = {"sse2": 4.0, "avx2": 4.0, "avx512": 2.0, "neon": 2.0}
# Vector registers that hold constants for a whole kernel (NEON: q, the last register;
# A64 has no memory operands for arithmetic).
RESERVED = {"sse2": 0, "avx2": 0, "avx512": 0, "neon": 1}
LATENCY = {"load": 7, "store": 1, "addc": 1, "tr": 3, "ct": 10, "gs": 11}
OPS = {"load": 0, "store": 0, "addc": 1, "tr": 2, "ct": 10, "gs": 10}


def interleave(texts) -> str:
    """The instruction lines of independent butterflies, taken in turn."""
    lines = [t.split("\n") for t in texts]
    out = []
    for i in range(max(len(x) for x in lines)):
        out += [x[i] for x in lines if i < len(x)]
    return "\n".join(out)


class Plan:
    """Registers, layout and steps of one kernel for one ISA.

    A pass runs the same steps on each of its groups (columns or blocks of rows): one
    loop, %rax pointing at the group's coefficients and, where the twiddles differ from
    group to group, %rsi at the group's part of the table (the parts are laid out alike,
    which is checked); %ecx counts. Each group is planned with virtual registers, then
    list-scheduled and given vector registers (schedule)."""

    def __init__(self, isa, kernel: str):
        self.isa = isa
        self.kernel = kernel
        self.steps = []
        self.table = Table(".Lntt_data")
        self.gtable = None
        self.lay = {}            # (virtual) register -> coefficient index per lane
        self.slot = {}           # row index -> (virtual) register
        self.products = []       # (kind, values) for check_bounds
        self.resident = {}       # NEON: hoisted (z, zt) pairs (hoist_twiddles)
        self.nvirt = 0
        self.product = ("barrett" if isa.arch == "aarch64" else
                        "shoup" if isa.signed_mul else "mont")
        self.shoup = self.product == "shoup"
        nt = TEMPS[isa.name]
        sets = TEMP_SETS[isa.name]
        first = isa.nregs - nt * sets - RESERVED[isa.name]
        self.temps = [[isa.v(first + nt * k + i) for i in range(nt)] for k in range(sets)]
        self.phys = [isa.v(i) for i in range(first)]
        self.cst = self._constants()

    # constants ------------------------------------------------------------------------

    def _constants(self) -> dict:
        isa, t = self.isa, self.table
        if isa.name == "avx512":
            cst = dict(q=t.mem(t.add([Q], "q"), "{1to16}"),
                       rnd=t.mem(t.add([1 << 31, 0], "2^31 (qword): rounds hi(x zb)"),
                                 "{1to8}"),
                       keven="%k1")
        elif isa.name == "avx2":
            cst = dict(q=t.mem(t.add([Q] * 8, "q")),
                       rnd=t.mem(t.add([1 << 31, 0] * 4, "2^31 (qwords): rounds hi(x zb)")))
        elif self.product == "barrett":
            cst = dict(q=isa.v(isa.nregs - 1), qmem=t.mem(t.add([Q] * 4, "q")))
        else:
            cst = dict(q=t.mem(t.add([Q] * 4, "q")))
            if self.kernel == "ntt":
                cst["bias"] = t.mem(t.add([SSE2_BIAS] * 4,
                                          "9q: the bias of the coefficients"))
            else:
                cst["bias"] = t.mem(t.add([SSE2_INV_BIAS] * 4,
                                          "256q: the bias of the multiplied values"))
        return cst

    # registers ------------------------------------------------------------------------
    # Planned with virtual registers (%v0, %v1, ...: one per row value that a load or a
    # transposition makes; butterflies update theirs in place); schedule() maps them to
    # the vector registers.

    def virt(self) -> str:
        self.nvirt += 1
        return f"%v{self.nvirt - 1}"

    def comment(self, text: str) -> None:
        self.steps.append(dict(op="comment", text=text))

    def load(self, rows, order, ptr) -> None:
        """Rows i at coefficient offsets rows[i] (from rows[0], at ptr) into the data
        registers; the lanes get the coefficient indices order[] of the positions."""
        self.lay, self.slot = {}, {}
        for i, off in enumerate(rows):
            reg = self.virt()
            self.steps.append(dict(op="load", reg=reg, mem=f"{4 * (off - rows[0])}({ptr})"))
            self.lay[reg] = [order[off + j] for j in range(self.isa.lanes)]
            self.slot[i] = reg

    def store(self, rows, out_order, ptr) -> None:
        for i, off in enumerate(rows):
            reg = self.slot[i]
            mem = f"{4 * (off - rows[0])}({ptr})"
            self.steps.append(dict(op="store", reg=reg, mem=mem))
            for j, coef in enumerate(self.lay[reg]):
                out_order[off + j] = coef

    def addc(self, operand: str, comment: str) -> None:
        for i in sorted(self.slot):
            self.steps.append(dict(op="addc", reg=self.slot[i], c=operand, comment=comment))

    def transpose(self, groups) -> None:
        for rows in groups:
            stages, out = transpose_stages(len(rows))
            name = {i: self.slot[r] for i, r in enumerate(rows)}
            for kind, pairs in stages:
                for x, y, lo, hi in pairs:
                    rx, ry = name.pop(x), name.pop(y)
                    rlo, rhi = self.virt(), self.virt()
                    self.steps.append(dict(op="tr", kind=kind, x=rx, y=ry, lo=rlo, hi=rhi))
                    lx, ly = self.lay.pop(rx), self.lay.pop(ry)
                    self.lay[rlo], self.lay[rhi] = SHUFFLES[kind](lx, ly)
                    name[lo], name[hi] = rlo, rhi
            for i, r in enumerate(rows):
                self.slot[r] = name[out[i]]

    # twiddles ---------------------------------------------------------------------------

    def add(self, values, what):
        """A table entry: in the group's part of the table (operand off(%rsi)) while a
        pass with per-group twiddles is planned, else in the table (RIP-relative)."""
        if self.gtable is not None:
            return f"{self.gtable.add(values, what)}(%rsi)"
        return self.table.mem(self.table.add(values, what))

    @staticmethod
    def plus4(mem: str) -> str:
        if mem.endswith("(%rsi)"):
            return f"{int(mem[:-6]) + 4}(%rsi)"
        label, rest = mem.split("+", 1)
        off, tail = rest.split("(", 1)
        return f"{label}+{int(off) + 4}({tail}"

    def twiddle(self, values, what: str) -> dict:
        """Operands of a product by the lane factors `values` (centered, plain)."""
        isa, t = self.isa, self.table
        uniform = len(set(values)) == 1
        if self.product == "barrett":
            # NEON: z and zt = round(z 2^31 / q) per lane, or one (z, zt) pair that the
            # products take by element
            zt = [c.barrett_twist(v) for v in values]
            self.products.append(("barrett", values))
            if uniform:
                return dict(pair=self.add([values[0], zt[0]], f"{what}: z, zt"))
            return dict(z=self.add(values, f"{what}: z per lane"),
                        zt=self.add(zt, f"{what}: zt per lane"))
        if self.shoup:
            zb = [c.shoup_twist(v) for v in values]
            self.products.append(("shoup", values))
            if uniform and isa.name == "avx512" and self.gtable is None:
                off = t.add([zb[0], values[0]], f"{what}: zb, z")
                return dict(zb=t.mem(off, "{1to8}"), zbo=t.mem(off, "{1to8}"),
                            z=t.mem(off + 4, "{1to16}"))
            mb = self.add(zb, f"{what}: zb" + ("" if uniform else " per lane"))
            mz = self.add(values, f"{what}: z" + ("" if uniform else " per lane"))
            # zbo: the zb vector read 4 bytes on has its odd lanes in the even slots
            return dict(zb=mb, zbo=mb if uniform else self.plus4(mb), z=mz)
        # SSE2: Montgomery factors in [0, q), lanes duplicated into the even slots
        zm = [c.montgomery_form_unsigned(v) for v in values]
        zq = [c.montgomery_twist_unsigned(v) for v in zm]
        self.products.append(("mont", zm))
        ops = {}
        for name, vec, label in (("z", zm, "z 2^32 mod q"), ("zq", zq, "its q^-1 twist")):
            for half, lanes in (("01", (0, 1)), ("23", (2, 3))):
                vals = [vec[lanes[0]]] * 2 + [vec[lanes[1]]] * 2
                ops[name + half] = self.add(vals, f"{what}: {label}" +
                                            ("" if uniform else f", lanes {half}"))
        return ops

    # layers -----------------------------------------------------------------------------

    def pairs(self, length: int) -> list:
        regs = {tuple(v): r for r, v in self.lay.items()}
        out = []
        for i in sorted(self.slot):
            ra = self.slot[i]
            la = self.lay[ra]
            if la[0] & length:
                continue
            assert all(j & length == 0 for j in la), (self.isa.name, length, la)
            rb = regs.get(tuple(j + length for j in la))
            if rb is None:
                raise ValueError(f"{self.isa.name}: no partner for {la} at len {length}")
            slot_b = [s for s, r in self.slot.items() if r == rb][0]
            out.append((i, slot_b))
        assert 2 * len(out) == len(self.slot)
        return out

    @staticmethod
    def block(j: int, length: int) -> int:
        """k of FIPS 204 Alg. 41 for the butterfly of coefficient j at this length."""
        return (N + j - j % (2 * length)) // (2 * length)

    def butterfly(self, length: int, sa: int, sb: int, inverse: bool, fix, last) -> dict:
        """The step of one butterfly (its twiddles go to the table now)."""
        layer_no = 8 - length.bit_length() + 1
        f = c.invntt_scale_plain()
        ra, rb = self.slot[sa], self.slot[sb]
        ks = [self.block(j, length) for j in self.lay[ra]]
        what = f"layer {layer_no} k {ks[0]}" + ("" if len(set(ks)) == 1 else f"..{ks[-1]}")
        if not inverse:
            tw = self.twiddle([c.ntt_twiddle(k) for k in ks], what)
            return dict(op="ct", a=ra, b=rb, tw=tw, fix=fix, unbias=last, layer=layer_no,
                        rows=(sa, sb))
        w = [c.intt_twiddle(k) for k in ks]
        if last:
            tw = self.twiddle([c.centered(x * f) for x in w], what + " times 2^32/256")
            scale = self.twiddle([f] * self.isa.lanes, "2^32/256")
        else:
            tw, scale = self.twiddle(w, what), None
        return dict(op="gs", a=ra, b=rb, tw=tw, scale=scale, layer=layer_no, rows=(sa, sb))

    def layers(self, specs, inverse: bool) -> None:
        """Consecutive layers [(len, fix, last), ...] between data movements."""
        for length, fix, last in specs:
            for sa, sb in self.pairs(length):
                self.steps.append(self.butterfly(length, sa, sb, inverse, fix, last))

    # passes -----------------------------------------------------------------------------

    def run_pass(self, ps, mem, body) -> list:
        """The pass ps over its groups; body(group index) plans the stages of one group
        between its load and its store. Returns the coefficient index per position.

        The groups are planned one by one with virtual registers; then every k of them
        (GROUPS_PER_ITER) are scheduled together into one loop iteration. Each iteration
        must come out the same (checked), with %rax at its first group's coefficients
        and, for twiddles per group, %rsi at its first group's part of the table."""
        groups = ps["groups"]
        rel = [[r - rows[0] for r in rows] for rows in groups]
        assert all(x == rel[0] for x in rel)
        many = len(groups) > 1
        k = GROUPS_PER_ITER[self.isa.name] if many else 1
        assert len(groups) % k == 0
        ptr = "%rax" if many else "%rdi"
        per_group = many and ps.get("twiddles") == "per group"
        out = list(mem)
        outer, bodies, tables = self.steps, [], []
        for g, rows in enumerate(groups):
            self.steps = []
            self.gtable = Table("") if per_group else None
            self.load(rows, mem, ptr)
            body(g)
            self.store(rows, out, ptr)
            bodies.append(loads_by_first_use([st for st in self.steps
                                              if st["op"] != "comment"]))
            tables.append(self.gtable)
        self.steps, self.gtable = outer, None
        stride = 4 * (groups[1][0] - groups[0][0]) if many else 0
        assert all(4 * (b[0] - a[0]) == stride for a, b in zip(groups, groups[1:]))
        psize = 0
        if per_group:
            align = max(16, self.isa.vbytes)
            shape0 = [(o, len(v)) for o, v, _ in tables[0].entries]
            for tg in tables:
                assert [(o, len(v)) for o, v, _ in tg.entries] == shape0, "parts differ"
                tg.pad_to(align)
            psize = tables[0].size
            base = self.table.extend(tables, align)
        phys, hoisted = self.phys, []
        if self.product == "barrett" and many and not per_group:
            hoisted = self.hoist_twiddles(bodies)
        iters = []
        for i in range(len(groups) // k):
            steps = []
            for j in range(k):
                steps += shift_operands(bodies[i * k + j], {"%rax": j * stride,
                                                            "%rsi": j * psize})
            iters.append(self.schedule(steps))
        for it in iters[1:]:
            if it != iters[0]:
                raise ValueError(f"{self.isa.name}: iterations of '{ps['name']}' differ")
        if not many:
            self.comment(ps["name"])
            self.steps += iters[0]
            return out
        self.comment(f"{ps['name']}: {len(groups)} groups of rows {groups[0][0]}, "
                     f"{groups[0][1]}, ..., {k} per iteration")
        begin = dict(op="loop", count=len(iters), ptr=ptr, src="%rdi", tab=None)
        end = dict(op="endloop", adds=[(k * stride, ptr)])
        if per_group:
            begin["tab"] = (self.table.mem(base), "%rsi")
            end["adds"].append((k * psize, "%rsi"))
        self.steps += hoisted + [begin] + iters[0] + [end]
        self.phys, self.resident = phys, {}
        return out

    def hoist_twiddles(self, bodies) -> list:
        """NEON, a pass whose groups share their twiddles: its (z, zt) pairs (contiguous
        in the table) loaded once before the loop, into registers that the rows and a
        transposition leave free (taken from self.phys for the pass); the butterflies
        take them by element (self.resident: table offset -> (register, lane of z)).
        Returns the load steps, none when the registers do not suffice."""
        offs = set()
        for body in bodies:
            for st in body:
                for tw in (st.get("tw"), st.get("scale")):
                    if tw and "pair" in tw:
                        offs.add(self.isa.plan_off(tw["pair"]))
        if not offs:
            return []
        lo = min(offs) // 16 * 16
        n = (max(offs) + 8 - lo + 15) // 16
        rows = max(sum(1 for st in body if st["op"] == "load") for body in bodies)
        if len(self.phys) - n < rows + 1:
            return []
        regs = self.phys[len(self.phys) - n:]
        self.phys = self.phys[:len(self.phys) - n]
        self.resident = {o: (regs[(o - lo) // 16], (o - lo) % 16 // 4) for o in offs}
        return ([dict(op="comment", text="the twiddles of every group: (z, zt) pairs "
                      "taken by element")] +
                [dict(op="load", reg=r, mem=self.table.mem(lo + 16 * i))
                 for i, r in enumerate(regs)])

    def schedule(self, steps) -> list:
        """List scheduling of planned steps (virtual registers) and register allocation.

        Every step waits for the previous access to each register it touches. Among the
        steps whose predecessors are placed, the one that can start first on the machine
        model (ISSUE vector operations per cycle, LATENCY) goes next, ties to the longest
        path to the end. A load takes a free register only if one stays free for the
        transposition that may need it (deadlock-free); a transposition writes lo over x,
        hi into a free register; a store frees its register."""
        def regs(st):
            op = st["op"]
            if op == "load":
                return [], [st["reg"]]
            if op == "store":
                return [st["reg"]], []
            if op == "addc":
                return [st["reg"]], [st["reg"]]
            if op in ("ct", "gs"):
                return [st["a"], st["b"]], [st["a"], st["b"]]
            if op == "tr":
                return [st["x"], st["y"]], [st["lo"], st["hi"]]
            raise ValueError(f"schedule: step {op}")

        n = len(steps)
        last, preds, succs = {}, [set() for _ in steps], [set() for _ in steps]
        for i, st in enumerate(steps):
            uses, defs = regs(st)
            for r in uses + defs:
                if r in last and last[r] != i:
                    preds[i].add(last[r])
                    succs[last[r]].add(i)
                last[r] = i
        cp = [0.0] * n
        for i in reversed(range(n)):
            cp[i] = LATENCY[steps[i]["op"]] + max((cp[j] for j in succs[i]), default=0)
        nfree_min = 1 if any(st["op"] == "tr" for st in steps) else 0
        free = deque(self.phys)
        phys = {}
        done, finish, clock = set(), {}, 0.0
        waiting = {i: len(preds[i]) for i in range(n)}
        ready = [i for i in range(n) if not preds[i]]
        order = []
        while ready:
            def feasible(i):
                op = steps[i]["op"]
                if op == "load":
                    return len(free) - 1 >= nfree_min
                if op == "tr":
                    return len(free) >= 1
                return True

            cand = [i for i in ready if feasible(i)]
            if not cand:
                raise ValueError(f"{self.isa.name}: schedule: out of registers")
            start = {i: max([clock] + [finish[j] for j in preds[i]]) for i in cand}
            i = min(cand, key=lambda i: (start[i], -cp[i], i))
            ready.remove(i)
            st = dict(steps[i])
            op = st["op"]
            if op == "load":
                phys[st["reg"]] = free.popleft()
            elif op == "tr":
                phys[st["lo"]] = phys[st["x"]]
                phys[st["hi"]] = free.popleft()
                free.append(phys[st["y"]])
            uses, defs = regs(st)
            for key in ("reg", "a", "b", "x", "y", "lo", "hi"):
                if key in st:
                    st[key] = phys[st[key]]
            if op == "store":
                free.append(st["reg"])
            order.append(st)
            clock = start[i] + OPS[op] / ISSUE[self.isa.name]
            finish[i] = start[i] + LATENCY[op]
            for j in succs[i]:
                waiting[j] -= 1
                if waiting[j] == 0:
                    ready.append(j)
        assert len(order) == n
        return self.pair_butterflies(order)

    def pair_butterflies(self, order) -> list:
        """Gives each butterfly its temporaries; two consecutive independent ones become
        one interleaved step."""
        out, i = [], 0
        while i < len(order):
            st = order[i]
            if st["op"] not in ("ct", "gs"):
                out.append(st)
                i += 1
                continue
            nxt = order[i + 1] if i + 1 < len(order) else None
            for b in (st, nxt):
                for key in ("tw", "scale"):
                    tw = b.get(key) if b and b["op"] in ("ct", "gs") else None
                    if tw and "pair" in tw and self.isa.plan_off(tw["pair"]) in self.resident:
                        b[key] = dict(elem=self.resident[self.isa.plan_off(tw["pair"])])
            st["t"] = self.temps[0]
            pair = [st]
            if (len(self.temps) > 1 and nxt is not None and nxt["op"] == st["op"]
                    and not {st["a"], st["b"]} & {nxt["a"], nxt["b"]}):
                nxt["t"] = self.temps[1]
                pair.append(nxt)
            out.append(dict(op="comment", text="; ".join(
                f"layer {b['layer']}: {b['a']} {b['b']}" for b in pair)))
            if (self.product == "barrett" and len(pair) == 2
                    and ("pair" in st["tw"] or "z" in st["tw"])
                    and pair[0]["tw"] == pair[1]["tw"] and not st.get("scale")):
                # NEON: the factors of both butterflies loaded once, into temporaries
                # of the first that neither writes then: a (z, zt) pair taken by
                # element, or the z and zt vectors
                tw = st["tw"]
                if "pair" in tw:
                    out.append(dict(op="twiddle", reg=st["t"][2], mem=tw["pair"]))
                    shared = dict(reg=st["t"][2])
                else:
                    out.append(dict(op="twiddles", regs=st["t"][2:4],
                                    mems=(tw["z"], tw["zt"])))
                    shared = dict(zreg=st["t"][2], ztreg=st["t"][3])
                for b in pair:
                    b["tw"] = shared
            out.append(pair[0] if len(pair) == 1 else
                       dict(op="group", steps=pair, zip=interleave))
            i += len(pair)
        return out


def loads_by_first_use(steps) -> list:
    """The steps with the loads (which come first) in the order their rows are first
    used: the scheduler then loads the rows of a butterfly together."""
    loads = [st for st in steps if st["op"] == "load"]
    rest = [st for st in steps if st["op"] != "load"]

    def first_use(st):
        for i, x in enumerate(rest):
            if st["reg"] in (x.get("a"), x.get("b"), x.get("x"), x.get("y"), x.get("reg")):
                return i
        return len(rest)

    assert steps[:len(loads)] == loads
    return sorted(loads, key=first_use) + rest


def shift_operands(obj, by: dict):
    """A copy of obj (steps: dicts, lists, strings) with every memory operand off(%reg)
    of a register in `by` moved by by[reg] bytes."""
    if isinstance(obj, dict):
        return {k: shift_operands(v, by) for k, v in obj.items()}
    if isinstance(obj, list):
        return [shift_operands(v, by) for v in obj]
    if isinstance(obj, str):
        m = re.match(r"^(-?\d+)\((%r[a-z]+)\)$", obj)
        if m and m.group(2) in by:
            return f"{int(m.group(1)) + by[m.group(2)]}({m.group(2)})"
    return obj


def build_ntt(isa) -> Plan:
    """The forward NTT. Returns the plan, whose .order[p] is the standard index of the
    coefficient at memory position p of the output (the ISA's NTT order)."""
    p = Plan(isa, "ntt")
    mem = list(range(N))                 # coefficient index at each memory position
    nlayer = 0
    for pi, ps in enumerate(shape(isa)):
        n0 = nlayer

        def body(g, ps=ps, pi=pi, n0=n0):
            if pi == 0 and p.product == "mont":
                p.addc(p.cst["bias"], "+9q: every coefficient >= 0 from here on")
            n, run = n0, []
            for kind, arg in ps["stages"] + [("end", None)]:
                if kind == "layer":
                    n += 1
                    fix = None
                    if p.shoup and n == 1:
                        fix = "down"
                    elif p.shoup and n == 2:
                        fix = "up"
                    run.append((arg, fix, n == 8 and p.product == "mont"))
                    continue
                if run:
                    p.layers(run, inverse=False)
                    run = []
                if kind == "transpose":
                    p.transpose(arg)

        mem = p.run_pass(ps, mem, body)
        nlayer += sum(1 for k, _ in ps["stages"] if k == "layer")
    assert nlayer == 8
    p.order = mem
    check_order(isa, p.order)
    return p


def build_invntt(isa) -> Plan:
    """The mirror image of build_ntt: its input in the ISA's NTT order, its output in
    the natural order."""
    fwd = build_ntt(isa)
    p = Plan(isa, "invntt_tomont")
    mem = list(fwd.order)
    n = 8
    for ps in reversed(shape(isa)):
        stages = list(reversed(ps["stages"]))
        n0 = n

        def body(g, stages=stages, n0=n0):
            m, run = n0, []
            for kind, arg in stages + [("end", None)]:
                if kind == "layer":
                    run.append((arg, None, m == 1))
                    m -= 1
                    continue
                if run:
                    p.layers(run, inverse=True)
                    run = []
                if kind == "transpose":
                    p.transpose(arg)

        mem = p.run_pass(dict(ps, name=ps["name"] + " (inverse)"), mem, body)
        n -= sum(1 for k, _ in stages if k == "layer")
    assert mem == list(range(N)), "invntt does not end in the natural order"
    p.order = fwd.order
    return p


def build_reorder(isa) -> Plan:
    """The data movement of build_ntt without its arithmetic: standard order in, the
    ISA's order out. Passes without transpositions move nothing and are left out."""
    fwd = build_ntt(isa)
    p = Plan(isa, "ntt_reorder")
    mem = list(range(N))
    for ps in shape(isa):
        if not any(k == "transpose" for k, _ in ps["stages"]):
            continue

        def body(g, ps=ps):
            for kind, arg in ps["stages"]:
                if kind == "transpose":
                    p.transpose(arg)

        mem = p.run_pass(dict(ps, twiddles=None), mem, body)
    assert mem == fwd.order, "ntt_reorder does not produce the NTT order"
    p.order = mem
    return p


def check_order(isa, order) -> None:
    """The order the templates document: every group of L*L consecutive coefficients of
    the standard order, read as an L x L row-major matrix, is transposed."""
    L = isa.lanes
    for p in range(N):
        g, r = divmod(p, L * L)
        row, col = divmod(r, L)
        assert order[p] == g * L * L + col * L + row, (isa.name, p, order[p])


# -- bounds ---------------------------------------------------------------------------

def check_bounds(isa, kind: str, plan: Plan) -> dict:
    """Interval arithmetic over the layers with the worst case of the twiddles used:
    raises if a contract bound or the int32 range can break. Returns the bounds."""
    shoup = [v for k, v in plan.products if k == "shoup"]
    mont = [v for k, v in plan.products if k == "mont"]
    R = c.R
    if shoup:
        # |x zb / 2^32 - x z / q| <= |x| emax / 2^32
        emax = max(abs(c.shoup_twist(z) - z * R / Q) for vals in shoup for z in vals)
    if mont:
        zmax = max(z for vals in mont for z in vals)
    out = {}
    barrett = [v for k, v in plan.products if k == "barrett"]
    if barrett:
        # t = b z - q round(b zt / 2^31) with zt = z 2^31 / q + e, |e| <= emax (<= 1/2):
        # t / q = b z / q - round(b z / q + b e / 2^31), so |t| <= q/2 + q |b| emax / 2^31
        emax = max(abs(c.barrett_twist(z) - z * 2 ** 31 / Q) for vals in barrett
                   for z in vals)

        def tmax(b):
            assert b < 2 ** 31                     # b is an int32 (mul, sqrdmulh)
            return Q / 2 + Q * b * emax / 2 ** 31

        m = Q - 1
        if kind == "ntt":                          # a + t, a - t
            for n in range(1, 9):
                m = m + tmax(m)
                assert m < 2 ** 31
            assert m < NTT_OUT_MAX, (isa.name, m / Q)
            return dict(lo=-m / Q, hi=m / Q)
        for n in range(8, 0, -1):                  # a + b, (a - b) w
            assert 2 * m < 2 ** 31
            # the last layer multiplies both outputs (by 2^32/256, w times it)
            m = tmax(2 * m) if n == 1 else max(2 * m, tmax(2 * m))
        assert m < Q, (isa.name, m / Q)
        return dict(max=m / Q)
    if kind == "ntt" and isa.signed_mul:
        lo, hi = -(Q - 1), Q - 1
        for n in range(1, 9):
            eps = Q * max(-lo, hi) * emax / R
            tlo, thi = -eps, Q + eps               # t = b z mod q, Shoup
            if n == 1:                             # a + t - q, a - t
                lo, hi = lo - thi, hi + max(thi - Q, -tlo)
            elif n == 2:                           # a + t, a - t + q
                lo, hi = lo + min(tlo, Q - thi), hi + thi
            else:
                lo, hi = lo - thi, hi + thi
        assert -NTT_OUT_MAX < lo and hi < NTT_OUT_MAX, (isa.name, lo / Q, hi / Q)
        out = dict(lo=lo / Q, hi=hi / Q)
    elif kind == "ntt":
        lo, hi = SSE2_BIAS - (Q - 1), SSE2_BIAS + Q - 1
        for n in range(1, 9):
            assert lo >= 0 and hi < 2 ** 31          # biased, pmuludq reads them unsigned
            tlo, thi = -(Q - 1), hi * zmax / R       # t = (b z' - m q) / 2^32, m < 2^32
            if n == 8:
                lo, hi = lo - SSE2_BIAS, hi - SSE2_BIAS
            lo, hi = lo + min(tlo, -thi), hi + max(thi, -tlo)
        assert -NTT_OUT_MAX < lo and hi < NTT_OUT_MAX, (isa.name, lo / Q, hi / Q)
        out = dict(lo=lo / Q, hi=hi / Q)
    elif isa.signed_mul:
        m = Q - 1
        for n in range(8, 0, -1):
            assert 2 * m < 2 ** 31
            eps = Q * 2 * m * emax / R
            if n == 1:                             # rounded: |t| <= q/2 + eps
                m = Q / 2 + eps
            else:
                m = max(2 * m, Q + eps)
        assert m < Q, (isa.name, m / Q)
        out = dict(max=m / Q)
    else:
        m = Q - 1
        for n in range(8, 0, -1):
            assert 2 * m < SSE2_INV_BIAS            # x + 256q in [0, 512q) < 2^32
            x = 2 * m + SSE2_INV_BIAS
            assert x < 2 ** 32
            t = max(Q - 1, x * zmax / R)
            m = t if n == 1 else max(2 * m, t)
        assert m < Q, (isa.name, m / Q)
        out = dict(max=m / Q)
    return out


def context(isa, kernel: str) -> dict:
    build = {"ntt": build_ntt, "invntt_tomont": build_invntt,
             "ntt_reorder": build_reorder}[kernel]
    plan = build(isa)
    bounds = check_bounds(isa, kernel, plan) if kernel != "ntt_reorder" else {}
    if plan.product != "barrett":
        plan.table.add([0] * (isa.lanes), "(padding: zbo reads 4 bytes past a zb vector)",
                       align=4)
    return dict(steps=plan.steps, table=plan.table.rows(), table_label=plan.table.label,
                table_align=max(16, isa.vbytes), cst=plan.cst, bounds=bounds,
                n_steps=len(plan.steps))
