# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Context of templates/kernels/unpack_z.S.j2: the decoder of z and y (FIPS 204
BitUnpack(v, gamma1 - 1, gamma1), Alg. 19): 256 coefficients of b = bitlen(2 gamma1 - 1)
bits each (18 for gamma1 = 2^17, 20 for 2^19), little-endian bit order, coefficient i
= gamma1 - (bits b i .. b i + b - 1 of the buffer).

Every coefficient lies within 3 bytes of the buffer (b + 7 <= 24), starting at byte
b i / 8 with a shift of b i mod 8. A group of 4 coefficients fills b / 2 bytes (9 or
10), so the groups start on whole bytes.

  AVX2, AVX-512: one group per 128-bit lane, loaded with 16 bytes from its first byte
      (the last group from 16 bytes before the buffer's end, so that nothing past it is
      read: its shuffle row is offset by the difference); vpshufb puts the 3 bytes of each
      coefficient into its dword, vpsrlvd shifts it by b i mod 8, a mask keeps b bits.
  NEON: the same plan with one group per register (four lanes): tbl with one table
      register is vpshufb on one 128-bit lane (an index >= 16, 0x80 here, gives 0), and
      ushl by a negative count is the right shift of vpsrlvd (`ushl_counts`).
  SSE2 (no pshufb, no variable shift): a step of 8 coefficients is 4 pairs of b + b
      bits; pair p starts at byte 2 b p / 8 with a shift of 2 b p mod 8 (0 or 4), the same
      for the two even pairs of a step and for the two odd ones. The even pairs are loaded
      as the two quadwords of one register (movq, movhps), the odd pairs of another, each
      shifted as a whole; in each quadword the low b bits are the first coefficient and
      the next b the second (a mask, a shift by b, a shift by 32 into the high dword);
      punpcklqdq / punpckhqdq then put the 8 in order. The last pair is loaded from 8
      bytes before the buffer's end and shifted further, alone.

Every table is checked here against a model of the scalar decoder before it is used.
"""

import random

from .. import constants as c

VARIANTS = (("g17", 1 << 17), ("g19", 1 << 19))
LANE_BYTES = 16


def bits_of(gamma1: int) -> int:
    return (2 * gamma1 - 1).bit_length()


def buffer_bytes(gamma1: int) -> int:
    return c.N * bits_of(gamma1) // 8


def model(buf: bytes, gamma1: int) -> list:
    """The scalar decoder: gamma1 minus each b-bit field, little-endian."""
    b = bits_of(gamma1)
    v = int.from_bytes(buf, "little")
    return [gamma1 - ((v >> (b * i)) & ((1 << b) - 1)) for i in range(c.N)]


# ------------------------------------------------------------------ AVX2 and AVX-512
def group_loads(gamma1: int, groups_per_step: int) -> list:
    """Per step: [(load offset, delta)] per 128-bit lane, delta = group start - offset."""
    b, total = bits_of(gamma1), buffer_bytes(gamma1)
    steps = []
    for s in range(c.N // (4 * groups_per_step)):
        lanes = []
        for k in range(groups_per_step):
            start = (s * groups_per_step + k) * b // 2
            off = min(start, total - LANE_BYTES)
            lanes.append((off, start - off))
        steps.append(lanes)
    return steps


def shuffle_row(gamma1: int, delta: int) -> list:
    """vpshufb control of one lane: dword j gets bytes b j / 8 .. + 2 (+ delta), 0."""
    b = bits_of(gamma1)
    row = []
    for j in range(4):
        first = b * j // 8 + delta
        row += [first, first + 1, first + 2, 0x80]
    if max(x for x in row if x != 0x80) >= LANE_BYTES:
        raise ValueError("unpack_z: a coefficient beyond its lane's 16 bytes")
    return row


def lane_shifts(gamma1: int) -> list:
    b = bits_of(gamma1)
    return [b * j % 8 for j in range(4)]


def ushl_counts(gamma1: int) -> list:
    """NEON: ushl shifts each lane left by its signed count, right when negative."""
    return [-s for s in lane_shifts(gamma1)]


def _pshufb(data: list, control: list) -> list:
    out = []
    for i, ctl in enumerate(control):
        base = i // LANE_BYTES * LANE_BYTES
        out.append(0 if ctl & 0x80 else data[base + (ctl & 15)])
    return out


def simd_plan(isa, gamma1: int) -> dict:
    groups = isa.lanes // 4
    steps = group_loads(gamma1, groups)
    deltas = sorted({d for st in steps for _, d in st})
    rows = {d: shuffle_row(gamma1, d) for d in deltas}
    plan_steps = []
    for s, lanes in enumerate(steps):
        shuffle = [x for _, d in lanes for x in rows[d]]
        plan_steps.append(dict(loads=[off for off, _ in lanes],
                               shuffle=tuple(deltas.index(d) for _, d in lanes),
                               out=4 * isa.lanes * s))
    # the shuffle registers a step needs: one per distinct row combination
    combos = sorted({st["shuffle"] for st in plan_steps})
    for st in plan_steps:
        st["shuffle"] = combos.index(st["shuffle"])
    tables = [[x for d in combo for x in rows[deltas[d]]] for combo in combos]
    _check_simd(gamma1, plan_steps, tables)
    return dict(steps=plan_steps, tables=tables, shifts=lane_shifts(gamma1) * groups)


def _check_simd(gamma1: int, steps: list, tables: list) -> None:
    b, total = bits_of(gamma1), buffer_bytes(gamma1)
    rng = random.Random(gamma1)
    for trial in range(3):
        buf = bytes(rng.getrandbits(8) if trial else 0xFF for _ in range(total))
        got = []
        for st in steps:
            data = []
            for off in st["loads"]:
                if off < 0 or off + LANE_BYTES > total:
                    raise AssertionError("unpack_z: a load outside the buffer")
                data += list(buf[off:off + LANE_BYTES])
            sh = _pshufb(data, tables[st["shuffle"]])
            shifts = lane_shifts(gamma1) * (len(st["loads"]))
            for j in range(len(sh) // 4):
                d = int.from_bytes(bytes(sh[4 * j:4 * j + 4]), "little")
                got.append(gamma1 - ((d >> shifts[j]) & ((1 << b) - 1)))
        if got != model(buf, gamma1):
            raise AssertionError("unpack_z: SIMD plan differs from the model")


# ------------------------------------------------------------------ SSE2
def pair_load(gamma1: int, p: int) -> tuple:
    """(load offset, shift) of pair p, 8 bytes loaded: no byte past the buffer."""
    b, total = bits_of(gamma1), buffer_bytes(gamma1)
    start, shift = 2 * b * p // 8, 2 * b * p % 8
    off = min(start, total - 8)
    return off, shift + 8 * (start - off)


def sse2_plan(gamma1: int) -> dict:
    steps = []
    for s in range(c.N // 8):
        halves = []
        for parity in (0, 1):                      # even pairs, odd pairs
            lo = pair_load(gamma1, 4 * s + parity)
            hi = pair_load(gamma1, 4 * s + parity + 2)
            halves.append(dict(lo=lo[0], hi=hi[0], shift=lo[1], hi_shift=hi[1],
                               together=lo[1] == hi[1]))
        steps.append(dict(even=halves[0], odd=halves[1], out=32 * s))
    _check_sse2(gamma1, steps)
    return dict(steps=steps)


def _check_sse2(gamma1: int, steps: list) -> None:
    b, total = bits_of(gamma1), buffer_bytes(gamma1)
    mask = (1 << b) - 1
    rng = random.Random(gamma1 + 1)
    for trial in range(3):
        buf = bytes(rng.getrandbits(8) if trial else 0xFF for _ in range(total))

        def q(off, shift):
            if off < 0 or off + 8 > total:
                raise AssertionError("unpack_z: an SSE2 load outside the buffer")
            return int.from_bytes(buf[off:off + 8], "little") >> shift

        got = []
        for st in steps:
            regs = []
            for h in (st["even"], st["odd"]):
                qs = [q(h["lo"], h["shift"]), q(h["hi"], h["hi_shift"])]
                regs.append([[x & mask, (x >> b) & mask] for x in qs])   # dwords per qword
            ev, od = regs
            got += ev[0] + od[0] + ev[1] + od[1]    # punpcklqdq, punpckhqdq
        if [gamma1 - v for v in got] != model(buf, gamma1):
            raise AssertionError("unpack_z: SSE2 plan differs from the model")


def byte_shuffle(isa) -> bool:
    """A byte shuffle within each 128-bit lane: vpshufb (AVX2, AVX-512) or tbl (NEON)."""
    return isa.bits >= 256 or isa.arch == "aarch64"


def context(isa) -> dict:
    variants = []
    for tag, gamma1 in VARIANTS:
        v = dict(tag=tag, gamma1=gamma1, bits=bits_of(gamma1), mask=(1 << bits_of(gamma1)) - 1,
                 bytes=buffer_bytes(gamma1))
        if byte_shuffle(isa):
            v.update(simd_plan(isa, gamma1))
            if isa.arch == "aarch64":
                v.update(shifts=ushl_counts(gamma1))
        else:
            v.update(sse2_plan(gamma1))
        variants.append(v)
    return dict(variants=variants, byte_shuffle=byte_shuffle(isa))
