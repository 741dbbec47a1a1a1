"""The plans of the NTT kernels (ntt, invntt_tomont, ntt_reorder) per ISA.

A plan is the list of steps a template renders (loads, butterflies, transposition
shuffles, stores) with every register chosen, plus the twiddle table in the order the
steps use it. It is computed by following the coefficient index held by every lane of
every register through the steps, so that:

  * the butterflies of a layer are found, not written down: two registers whose lanes hold
    j and j + len (j & len == 0) pair up, and the twiddle of each lane follows from j;
  * each ISA's NTT order is whatever its data movement produces; it is read off at the
    stores, documented by order_text(), checked to be what the templates' headers say
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
          broadcast). pass 2: 4 blocks of 64 coefficients in 8 ymm: layers 4-5, an 8 x 8
          transposition, layers 6-8 (twiddle vectors).
  sse2    pass 1: 8 columns of 8 rows at stride 32, layers 1-3. pass 2: 8 blocks of 32
          coefficients in 8 xmm: layers 4-6, two 4 x 4 transpositions, layers 7-8.

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
"""

from collections import deque

from .. import constants as c

Q = c.Q
N = c.N
NTT_OUT_MAX = 9 * Q          # ntt: |out| < 9q
SSE2_BIAS = 9 * Q            # sse2 ntt: coefficients carried as a + 9q
SSE2_INV_BIAS = 256 * Q      # sse2 invntt: differences and sums multiplied as x + 256q


def shape(isa) -> dict:
    """Passes of the forward NTT per ISA: each pass is a list of groups of rows (the
    coefficient offset of each row) and a list of stages: ('layer', len) or
    ('transpose', [row indices] per transposition)."""
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
                dict(name="pass 2, layers 4-8",
                     groups=[[64 * blk + 8 * i for i in range(8)] for blk in range(4)],
                     stages=[("layer", 16), ("layer", 8), ("transpose", [list(range(8))]),
                             ("layer", 4), ("layer", 2), ("layer", 1)])]
    if isa.name == "sse2":
        return [dict(name="pass 1, layers 1-3",
                     groups=[[32 * i + 4 * col for i in range(8)] for col in range(8)],
                     stages=[("layer", 128), ("layer", 64), ("layer", 32)]),
                dict(name="pass 2, layers 4-8",
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

class Plan:
    """Registers, layout and steps of one kernel for one ISA."""

    def __init__(self, isa, kernel: str):
        self.isa = isa
        self.kernel = kernel
        self.steps = []
        self.table = Table(".Lntt_data")
        self.lay = {}            # register -> coefficient index per lane
        self.slot = {}           # row index -> register
        self.bcast_regs = None
        self.bcast_now = None
        self.products = []       # (kind, values, operand bounds) for check_bounds
        self.fix_layers = {}
        if isa.name == "avx512":
            self.data = [isa.v(i) for i in range(16)]
            self.spare = [isa.v(i) for i in range(16, 32)]
        elif isa.name == "avx2":
            self.data = [isa.v(i) for i in range(8)]
            self.spare = [isa.v(i) for i in range(8, 14)]
            self.bcast_regs = (isa.v(14), isa.v(15))
        else:
            self.data = [isa.v(i) for i in range(8)]
            self.spare = [isa.v(i) for i in range(8, 16)]
        self.shoup = isa.signed_mul
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
        else:
            cst = dict(q=t.mem(t.add([Q] * 4, "q")))
            if self.kernel == "ntt":
                cst["bias"] = t.mem(t.add([SSE2_BIAS] * 4, "9q: the bias of the coefficients"))
            else:
                cst["bias"] = t.mem(t.add([SSE2_INV_BIAS] * 4,
                                          "256q: the bias of the multiplied values"))
        return cst

    # registers ------------------------------------------------------------------------

    def take(self, n: int) -> list:
        return [self.pool.popleft() for _ in range(n)]

    def give(self, regs) -> None:
        for r in regs:
            assert r not in self.pool and r not in self.lay, r
            self.pool.append(r)

    def comment(self, text: str) -> None:
        self.steps.append(dict(op="comment", text=text))

    def load(self, rows, order) -> None:
        """Rows i at coefficient offsets rows[i] into the data registers; the lanes get
        the coefficient indices order[pos] of the memory positions."""
        self.pool = deque(self.spare)
        self.lay, self.slot = {}, {}
        self.bcast_now = None
        for i, off in enumerate(rows):
            reg = self.data[i]
            self.steps.append(dict(op="load", reg=reg, mem=f"{4 * off}(%rdi)"))
            self.lay[reg] = [order[off + j] for j in range(self.isa.lanes)]
            self.slot[i] = reg

    def store(self, rows, out_order) -> None:
        for i, off in enumerate(rows):
            reg = self.slot[i]
            self.steps.append(dict(op="store", reg=reg, mem=f"{4 * off}(%rdi)"))
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
                    if self.isa.vex:
                        rlo, rhi = self.take(2)
                    else:                      # SSE2 is destructive: lo over x
                        rlo, rhi = rx, self.take(1)[0]
                    self.steps.append(dict(op="tr", kind=kind, x=rx, y=ry, lo=rlo, hi=rhi))
                    lx, ly = self.lay.pop(rx), self.lay.pop(ry)
                    self.lay[rlo], self.lay[rhi] = SHUFFLES[kind](lx, ly)
                    self.give([r for r in (rx, ry) if r not in (rlo, rhi)])
                    name[lo], name[hi] = rlo, rhi
            for i, r in enumerate(rows):
                self.slot[r] = name[out[i]]

    # twiddles ---------------------------------------------------------------------------

    def twiddle(self, values, what: str, memory: bool = False) -> dict:
        """Operands of a product by the lane factors `values` (centered, plain): memory
        operands, or on AVX2 broadcast registers for a factor common to all lanes (unless
        `memory`: then a broadcast vector in the table)."""
        isa, t = self.isa, self.table
        L = isa.lanes
        uniform = len(set(values)) == 1 and not (memory and isa.name == "avx2")
        if self.shoup:
            zb = [c.shoup_twist(v) for v in values]
            self.products.append(("shoup", values))
            if uniform and isa.name == "avx512":
                off = t.add([zb[0], values[0]], f"{what}: zb, z")
                return dict(zb=t.mem(off, "{1to8}"), zbo=t.mem(off, "{1to8}"),
                            z=t.mem(off + 4, "{1to16}"))
            if uniform:
                off = t.add([zb[0], values[0]], f"{what}: zb, z")
                if self.bcast_now != off:
                    self.steps.append(dict(op="bcast", reg=self.bcast_regs[0],
                                           mem=t.mem(off)))
                    self.steps.append(dict(op="bcast", reg=self.bcast_regs[1],
                                           mem=t.mem(off + 4)))
                    self.bcast_now = off
                return dict(zb=self.bcast_regs[0], zbo=self.bcast_regs[0],
                            z=self.bcast_regs[1])
            # zbo: the same vector read 4 bytes on, its odd lanes in the even slots
            offb = t.add(zb, f"{what}: zb per lane")
            offz = t.add(values, f"{what}: z per lane")
            return dict(zb=t.mem(offb), zbo=t.mem(offb + 4), z=t.mem(offz))
        # SSE2: Montgomery factors in [0, q), lanes duplicated into the even slots
        zm = [c.montgomery_form_unsigned(v) for v in values]
        zq = [c.montgomery_twist_unsigned(v) for v in zm]
        self.products.append(("mont", zm))
        if uniform:
            oz = t.add([zm[0]] * 4, f"{what}: z 2^32 mod q")
            oq = t.add([zq[0]] * 4, f"{what}: its q^-1 twist")
            return dict(z01=t.mem(oz), z23=t.mem(oz), zq01=t.mem(oq), zq23=t.mem(oq))
        assert L == 4
        ops = {}
        for name, vec, label in (("z", zm, "z 2^32 mod q"), ("zq", zq, "q^-1 twist")):
            for half, lanes in (("01", (0, 1)), ("23", (2, 3))):
                vals = [vec[lanes[0]]] * 2 + [vec[lanes[1]]] * 2
                ops[name + half] = t.mem(t.add(vals, f"{what}: {label}, lanes {half}"))
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

    def layer(self, length: int, inverse: bool, fix=None, last=False) -> None:
        layer_no = 8 - length.bit_length() + 1
        self.comment(f"layer {layer_no} (len {length})"
                     + (", inverse" if inverse else "")
                     + (f", outputs kept {fix}" if fix else "")
                     + (", times 2^32/256" if last else ""))
        f = c.invntt_scale_plain()
        for sa, sb in self.pairs(length):
            ra, rb = self.slot[sa], self.slot[sb]
            ks = [self.block(j, length) for j in self.lay[ra]]
            what = f"layer {layer_no} k {ks[0]}" + ("" if len(set(ks)) == 1 else f"..{ks[-1]}")
            if not inverse:
                tw = self.twiddle([c.ntt_twiddle(k) for k in ks], what)
                step = dict(op="ct", a=ra, b=rb, t=self.take(3), tw=tw, fix=fix,
                            unbias=last)
            else:
                w = [c.intt_twiddle(k) for k in ks]
                if last:
                    tw = self.twiddle([c.centered(x * f) for x in w],
                                      what + " times 2^32/256")
                    scale = self.twiddle([f] * self.isa.lanes, "2^32/256", memory=True)
                else:
                    tw, scale = self.twiddle(w, what), None
                step = dict(op="gs", a=ra, b=rb, t=self.take(3), tw=tw, scale=scale)
            self.steps.append(step)
            self.give(step["t"])


def forward_order() -> list:
    return list(range(N))


def build_ntt(isa) -> Plan:
    """The forward NTT. Returns the plan, whose .order[p] is the standard index of the
    coefficient at memory position p of the output (the ISA's NTT order)."""
    p = Plan(isa, "ntt")
    mem = list(range(N))                 # coefficient index at each memory position
    passes = shape(isa)
    nlayer = 0
    for pi, ps in enumerate(passes):
        out = list(mem)
        for gi, rows in enumerate(ps["groups"]):
            p.comment(f"{ps['name']}: rows {rows[0]}, {rows[1]}, ... (group {gi})")
            p.load(rows, mem)
            if pi == 0 and not p.shoup:
                p.addc(p.cst["bias"], "+9q: every coefficient >= 0 from here on")
            n = nlayer
            for kind, arg in ps["stages"]:
                if kind == "transpose":
                    p.transpose(arg)
                    continue
                n += 1
                fix = None
                if p.shoup and n == 1:
                    fix = "down"
                elif p.shoup and n == 2:
                    fix = "up"
                p.layer(arg, inverse=False, fix=fix, last=(n == 8 and not p.shoup))
            p.store(rows, out)
        nlayer = n
        mem = out
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
    passes = shape(isa)
    n = 8
    for ps in reversed(passes):
        out = list(mem)
        stages = list(reversed(ps["stages"]))
        nl = sum(1 for k, _ in stages if k == "layer")
        for gi, rows in enumerate(ps["groups"]):
            p.comment(f"{ps['name']} (inverse): rows {rows[0]}, {rows[1]}, ... (group {gi})")
            p.load(rows, mem)
            m = n
            for kind, arg in stages:
                if kind == "transpose":
                    p.transpose(arg)
                    continue
                p.layer(arg, inverse=True, last=(m == 1))
                m -= 1
            p.store(rows, out)
        n -= nl
        mem = out
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
        out = list(mem)
        for gi, rows in enumerate(ps["groups"]):
            p.load(rows, mem)
            for kind, arg in ps["stages"]:
                if kind == "transpose":
                    p.transpose(arg)
            p.store(rows, out)
        mem = out
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
    plan.table.add([0] * (isa.lanes), "(padding: zbo reads 4 bytes past a zb vector)",
                   align=4)
    return dict(steps=plan.steps, table=plan.table.rows(), table_label=plan.table.label,
                table_align=max(16, isa.vbytes), cst=plan.cst, bounds=bounds,
                n_steps=len(plan.steps))
