# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Context of templates/kernels/pack_w1.S.j2: the encoder of w1 (FIPS 204 w1Encode,
Alg. 28: SimpleBitPack(w1_i, (q-1)/(2 gamma2) - 1), Alg. 16), b = 6 bits per coefficient
(gamma2 = (q-1)/88) or 4 (gamma2 = (q-1)/32), little-endian bit order: coefficient i is
bits b i .. b i + b - 1 of the output.

The coefficients are merged pairwise, level by level: a level takes two registers A and B
whose dwords hold runs of consecutive coefficients, puts the even dwords in one register
and the odd ones in another (shufps $0x88 / $0xdd per 128-bit lane on x86, uzp1 / uzp2 on
NEON) and ORs the odd ones, shifted by the width of a run, onto the even ones. After two
levels a dword holds 4 coefficients (24 bits for b = 6), after three 8 (32 bits for b =
4). A merge within 128-bit lanes joins the runs of dwords 2k and 2k + 1 of a lane; on AVX2
and AVX-512 those stop being consecutive at the third level, which then merges the even
and odd 128-bit lanes instead (vperm2i128 / vshufi64x2), and a vpermd puts the result in
order (the plan below finds both by simulation).

b = 4: one register of merged dwords is one whole store.
b = 6: the 24-bit dwords are compacted to 3 bytes each:
  AVX2, AVX-512: a vpermd puts a unit's dwords in coefficient order, vpshufb packs each
      128-bit lane's 12 bytes low, a second vpermd joins the lanes (3 W bytes from W
      dwords). Units go in pairs: the second unit's join puts its first W bytes in its
      top quarter, a blend moves them into the first unit's free quarter (one full
      store) and the second unit's remaining 2 W bytes are a half-register store.
  SSE2 (no pshufb): per quadword the two 24-bit dwords become 48 contiguous bits (a shift
      by 8 and two masks), the high quadword's 6 bytes move down next to the low one's
      (psrldq, pslldq), and four units of 12 bytes make three 16-byte stores by byte
      shifts.
  NEON: four units of four 24-bit dwords make three 16-byte stores, each the OR of two
      single-register tbl lookups (an index >= 16 gives 0).
No store overlaps another and nothing past the output is written.

Every plan is simulated here on random and extreme inputs against SimpleBitPack before
it is used.
"""

import random

from .. import constants as c

LANE_DWORDS = 4          # a 128-bit lane
ZERO = 0x80              # vpshufb / tbl index that gives a zero byte
TBL_ZERO = 0xFF


def variants() -> list:
    out = []
    for tag, gamma2 in (("g88", c.GAMMA2_88), ("g32", c.GAMMA2_32)):
        bits = (c.highbits_modulus(gamma2) - 1).bit_length()
        out.append(dict(tag=tag, gamma2=gamma2, bits=bits, bytes=c.N * bits // 8,
                        levels=3 if bits == 4 else 2))
    return out


def model(a: list, bits: int) -> bytes:
    """SimpleBitPack: coefficient i at bits b i .. b i + b - 1, little-endian."""
    v = 0
    for i, x in enumerate(a):
        v |= x << (bits * i)
    return v.to_bytes(c.N * bits // 8, "little")


# ------------------------------------------------------------------ the merge levels
def _merge_dwords(A: list, B: list) -> tuple:
    """shufps $0x88 / $0xdd (uzp1 / uzp2): the even and the odd dwords of each lane."""
    E, O = [], []
    for g in range(0, len(A), LANE_DWORDS):
        E += [A[g], A[g + 2], B[g], B[g + 2]]
        O += [A[g + 1], A[g + 3], B[g + 1], B[g + 3]]
    return E, O


def _merge_lanes(A: list, B: list) -> tuple:
    """vperm2i128 $0x20 / $0x31, vshufi64x2 $0x88 / $0xdd: the even and odd lanes."""
    lanes = [A[g:g + LANE_DWORDS] for g in range(0, len(A), LANE_DWORDS)]
    blanes = [B[g:g + LANE_DWORDS] for g in range(0, len(B), LANE_DWORDS)]
    E = sum(lanes[0::2] + blanes[0::2], [])
    O = sum(lanes[1::2] + blanes[1::2], [])
    return E, O


MERGES = {"dwords": _merge_dwords, "lanes": _merge_lanes}


def _joined(E: list, O: list) -> list:
    """Runs (first coefficient, count) of E_i | O_i << ...; None where they do not join."""
    out = []
    for (e0, en), (o0, on) in zip(E, O):
        out.append((e0, en + on) if o0 == e0 + en and en == on else None)
    return out


def merge_kinds(isa, levels: int) -> list:
    """Per level, 'dwords' where merging within lanes joins consecutive runs, else
    'lanes' (AVX2, AVX-512 only): found by running the levels on runs."""
    W = isa.lanes
    regs = [[(W * r + j, 1) for j in range(W)] for r in range(1 << levels)]
    kinds = []
    for _ in range(levels):
        for kind in ("dwords", "lanes"):
            if kind == "lanes" and W == LANE_DWORDS:
                continue
            nxt = [_joined(*MERGES[kind](regs[i], regs[i + 1])) for i in range(0, len(regs), 2)]
            if all(None not in r for r in nxt):
                break
        else:
            raise ValueError(f"pack_w1 {isa.name}: no merge joins consecutive runs")
        kinds.append(kind)
        regs = nxt
    return kinds, regs[0]


def order_index(runs: list) -> list:
    """vpermd indices that put the dwords in coefficient order (None: already are)."""
    firsts = [r[0] for r in runs]
    idx = sorted(range(len(runs)), key=lambda i: firsts[i])
    return None if idx == list(range(len(runs))) else idx


# ------------------------------------------------------------------ b = 6 compaction
def lane_compact_row(W: int) -> list:
    """vpshufb: the 3 low bytes of each dword of a lane to its 12 low bytes, 0 above."""
    row = [4 * (k // 3) + k % 3 for k in range(12)] + [ZERO] * 4
    return row * (W // LANE_DWORDS)


def join_index(W: int, second: bool) -> list:
    """vpermd after the compaction: stream dword s of a unit (3 W / 4 of them) sits at
    dword 4 (s // 3) + s % 3. The first unit of a pair: in order, low. The second: its
    dwords W / 4 .. 3 W / 4 - 1 low (the half-register store), its first W / 4 in the
    top quarter (blended into the first unit's free quarter)."""
    n = 3 * W // 4
    src = [4 * (s // 3) + s % 3 for s in range(n)]
    if not second:
        return src + [0] * (W - n)
    q = W // 4
    return src[q:] + [0] * (W - n) + src[:q]


def blend_mask(W: int) -> int:
    """The dwords of the top quarter: vpblendd's immediate, the AVX-512 opmask."""
    return sum(1 << i for i in range(3 * W // 4, W))


def tbl_rows() -> list:
    """NEON: [(lo, hi)] for the three stores of four units D0..D3 (12 stream bytes
    each): store k = tbl(D_k, lo) | tbl(D_k+1, hi), index 0xff a zero byte."""
    stream = [(u, 4 * (k // 3) + k % 3) for u in range(4) for k in range(12)]
    rows = []
    for s in range(3):
        lo, hi = [TBL_ZERO] * 16, [TBL_ZERO] * 16
        for i, (u, byte) in enumerate(stream[16 * s:16 * s + 16]):
            (lo if u == s else hi)[i] = byte
            if u not in (s, s + 1):
                raise AssertionError("pack_w1: a store from a third unit")
        rows.append((lo, hi))
    return rows


def sse2_masks() -> dict:
    """Quadword masks of the 48-bit join: the low dword's 3 bytes, the high dword's 3
    bytes after the shift by 8; and the low quadword."""
    return dict(lo=[0x00FFFFFF, 0, 0x00FFFFFF, 0], mid=[0xFF000000, 0x0000FFFF] * 2,
                q0=[0xFFFFFFFF, 0xFFFFFFFF, 0, 0])


# ------------------------------------------------------------------ the plan
def plan(isa, v: dict) -> dict:
    W, bits, levels = isa.lanes, v["bits"], v["levels"]
    kinds, runs = merge_kinds(isa, levels)
    unit_coeffs = W << levels
    p = dict(kinds=kinds, shifts=[bits << l for l in range(levels)], unit_regs=1 << levels,
             units=c.N // unit_coeffs, unit_bytes=unit_coeffs * bits // 8,
             order=order_index(runs))
    if isa.arch == "x86_64" and isa.bits == 128 and p["order"] is not None:
        raise AssertionError("pack_w1: SSE2 merges out of order")
    if bits == 6:
        if isa.arch == "aarch64":
            p["tbl"] = tbl_rows()
        elif isa.bits == 128:
            p["masks"] = sse2_masks()
        else:
            p.update(compact=lane_compact_row(W), join=[join_index(W, False), join_index(W, True)],
                     blend=blend_mask(W))
        group = 4 if isa.bits == 128 else 2
        if p["units"] % group:
            raise AssertionError("pack_w1: units do not fill whole stores")
        p["group"] = group
    _check(isa, v, p)
    return p


def _simulate(isa, v: dict, p: dict, a: list) -> bytes:
    """The plan on integers, as the template spells it."""
    W = isa.lanes
    out = bytearray()
    pend = []
    for u in range(p["units"]):
        base = u * (W << v["levels"])
        regs = [a[base + W * r: base + W * r + W] for r in range(p["unit_regs"])]
        for kind, sh in zip(p["kinds"], p["shifts"]):
            regs = [[e | o << sh for e, o in zip(*MERGES[kind](regs[i], regs[i + 1]))]
                    for i in range(0, len(regs), 2)]
        (D,) = regs
        if p["order"] is not None:
            D = [D[i] for i in p["order"]]
        if v["bits"] == 4:
            out += b"".join(x.to_bytes(4, "little") for x in D)
            continue
        raw = b"".join(x.to_bytes(4, "little") for x in D)
        pend.append(raw)
        if len(pend) < p["group"]:
            continue
        if isa.arch == "aarch64":
            for s, (lo, hi) in enumerate(p["tbl"]):
                out += bytes((pend[s][x] if x < 16 else 0) | (pend[s + 1][y] if y < 16 else 0)
                             for x, y in zip(lo, hi))
        elif isa.bits == 128:
            Z = []
            for r in pend:
                q = [int.from_bytes(r[0:8], "little"), int.from_bytes(r[8:16], "little")]
                q = [(x & 0xFFFFFF) | ((x >> 8) & 0xFFFFFF000000) for x in q]
                Z.append(q[0] | q[1] << 48)
            s = [Z[0] | Z[1] << 96, Z[1] >> 32 | Z[2] << 64, Z[2] >> 64 | Z[3] << 32]
            out += b"".join((x & ((1 << 128) - 1)).to_bytes(16, "little") for x in s)
        else:
            regs = []
            for k, r in enumerate(pend):
                sh = [r[16 * (i // 16) + (x & 15)] if not x & ZERO else 0
                      for i, x in enumerate(p["compact"])]
                dw = [int.from_bytes(bytes(sh[4 * j:4 * j + 4]), "little") for j in range(W)]
                regs.append([dw[i] for i in p["join"][k]])
            first = [regs[1][i] if p["blend"] >> i & 1 else regs[0][i] for i in range(W)]
            out += b"".join(x.to_bytes(4, "little") for x in first + regs[1][:W // 2])
        pend = []
    return bytes(out)


def _check(isa, v: dict, p: dict) -> None:
    rng = random.Random(v["bits"] * 1000 + isa.bits)
    top = (1 << v["bits"]) - 1
    for trial in range(4):
        a = [top if trial == 0 else 0 if trial == 1 else rng.randrange(top + 1) for _ in range(c.N)]
        if _simulate(isa, v, p, a) != model(a, v["bits"]):
            raise AssertionError(f"pack_w1 {isa.name} b={v['bits']}: plan differs from SimpleBitPack")


def context(isa) -> dict:
    vs = []
    for v in variants():
        v = dict(v)
        v.update(plan(isa, v))
        vs.append(v)
    return dict(variants=vs)
