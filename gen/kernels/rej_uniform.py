# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Context of templates/kernels/rej_uniform.S.j2 (RejNTTPoly's inner loop, FIPS 204
Alg. 30/14): the candidate format and every table the SIMD steps use, computed here and
checked against a model of the scalar loop before anything is rendered.

Candidates are 3-byte little-endian groups masked to 23 bits (q < 2^23); one is kept when
it is below q. A vector step turns 8 groups (24 bytes, AVX2) or 16 (48 bytes, AVX-512)
into dwords:

  each 128-bit lane is loaded with 16 bytes: lane 2i from byte 24i (groups 8i..8i+3 at
  bytes 0..11 of the lane), lane 2i+1 from byte 24i+8 (groups 8i+4..8i+7 at bytes 4..15),
  so no load reaches past the 24 or 48 bytes of the step; vpshufb then moves each group
  into its dword (`expand_shuffle`), and the mask leaves 23 bits.

The accepted dwords are packed to the left: on AVX2 by vpermd with the indices
`left_pack(m)` of the 8-bit accept mask m, one 8-byte row per m, and the count advanced
by `popcounts()[m]` (public data: ExpandA may use addresses that depend on rejections);
on AVX-512 by vpcompressd, the count again from the byte table (two lookups, one per
byte of the 16-bit mask; popcnt is no declared feature).

NEON loads the 24 bytes of an AVX2 step into two registers (the same two 16-byte loads,
`lane_load_offsets(8)`) and tbl moves the groups into dwords by the same rows
(`expand_shuffle(8)`, one 16-byte row per register). Each register of 4 candidates is
packed on its own: the compare (all ones where kept) ANDed with `accept_weights()` and
summed by addv gives m + 16 popcount(m), m the 4-bit accept mask, in one number, so
no branch and no popcount table; tbl by row m of `left_pack_bytes` (16 rows of 16
bytes) packs the kept dwords to the left. Then, as AVX-512 goes on with steps of 8,
NEON goes on with steps of 4 candidates (12 bytes, read exactly: 8 bytes and 4 more
into the first register) by the first row, before the candidates one by one.
"""

from .. import constants as c

GROUP_BYTES = 3                          # one candidate
CANDIDATE_BITS = (c.Q - 1).bit_length()  # 23
CANDIDATE_MASK = (1 << CANDIDATE_BITS) - 1
LANE_BYTES = 16


def lane_load_offsets(lanes: int) -> list:
    """Byte offset, within one step, of the 16 bytes loaded into each 128-bit lane."""
    per_lane = lanes * 32 // 8 // LANE_BYTES          # 128-bit lanes per register
    return [GROUP_BYTES * 8 * (k // 2) + 8 * (k % 2) for k in range(per_lane)]


def expand_shuffle(lanes: int) -> list:
    """vpshufb control bytes (one register of `lanes` dwords): dword d of a lane gets
    the 3 bytes of its group and a zero byte (0x80)."""
    out = []
    for k in range(lanes * 4 // LANE_BYTES):
        first = 0 if k % 2 == 0 else 4                # odd lanes start at byte 8 of 12
        for d in range(4):
            out += [first + 3 * d, first + 3 * d + 1, first + 3 * d + 2, 0x80]
    return out


def left_pack(mask: int, lanes: int = 8) -> list:
    """vpermd indices that move the lanes set in mask to the front, in order; the rest
    repeat lane 0 (their values land beyond the count and are overwritten later)."""
    idx = [i for i in range(lanes) if mask >> i & 1]
    return idx + [0] * (lanes - len(idx))


def left_pack_bytes(mask: int, lanes: int = 4) -> list:
    """tbl indices (bytes) that move the dwords set in mask to the front, in order: the
    vpermd row of left_pack, each dword index d spelled as its bytes 4d .. 4d + 3."""
    return [4 * d + k for d in left_pack(mask, lanes) for k in range(4)]


def accept_weights(lanes: int = 4) -> list:
    """ANDed with the accept compare and summed: lane i adds 2^i to the mask m and
    2^lanes to the count, so the sum is m + 2^lanes popcount(m) (< 2^8 for 4 lanes)."""
    return [1 << i | 1 << lanes for i in range(lanes)]


def popcounts(bits: int = 8) -> list:
    return [bin(m).count("1") for m in range(1 << bits)]


def _model(buf: bytes) -> list:
    """The scalar loop of src/kernels_scalar.c, without the bound of 256."""
    out = []
    for i in range(0, len(buf) - 2, GROUP_BYTES):
        t = int.from_bytes(buf[i:i + 3], "little") & CANDIDATE_MASK
        if t < c.Q:
            out.append(t)
    return out


def _pshufb(data: list, control: list) -> list:
    out = []
    for i, ctl in enumerate(control):
        base = i // LANE_BYTES * LANE_BYTES
        out.append(0 if ctl & 0x80 else data[base + (ctl & 15)])
    return out


def _check(lanes: int) -> None:
    """Simulate one vector step on bytes whose candidates are half kept, half not."""
    step = GROUP_BYTES * lanes
    buf = []
    for g in range(lanes):
        t = (g * 0x2A5F31 + 0x123457) & CANDIDATE_MASK
        if g % 3 == 1:
            t = c.Q + g                               # rejected
        buf += list((t | (g & 1) << 23).to_bytes(3, "little"))   # bit 23 is masked away
    reg = []
    for off in lane_load_offsets(lanes):
        if off + LANE_BYTES > step:
            raise ValueError("rej_uniform: a lane load reaches past the step")
        reg += buf[off:off + LANE_BYTES]
    shuffled = _pshufb(reg, expand_shuffle(lanes))
    dwords = [int.from_bytes(bytes(shuffled[4 * i:4 * i + 4]), "little") & CANDIDATE_MASK
              for i in range(lanes)]
    mask = sum(1 << i for i, t in enumerate(dwords) if t < c.Q)
    kept = []
    for lo in range(0, lanes, 8):
        part = dwords[lo:lo + 8]
        kept += [part[i] for i in left_pack(mask >> lo & 0xFF)][:popcounts()[mask >> lo & 0xFF]]
    if kept != _model(bytes(buf)):
        raise ValueError(f"rej_uniform: the {lanes}-lane step differs from the scalar loop")


def _check_neon4() -> None:
    """The NEON step of 4: bytes 0..11 of the step (the rest zero) through row 0."""
    buf = []
    for g in range(4):
        t = c.Q - 1 + g                               # kept, kept, rejected, rejected
        buf += list((t | 1 << 23).to_bytes(3, "little"))
    row = expand_shuffle(8)[:LANE_BYTES]
    if max(x for x in row if x != 0x80) >= 3 * 4:
        raise ValueError("rej_uniform: NEON's 4-candidate step reads past 12 bytes")
    shuffled = _pshufb(buf + [0] * 4, row)
    dwords = [int.from_bytes(bytes(shuffled[4 * i:4 * i + 4]), "little") & CANDIDATE_MASK
              for i in range(4)]
    if [t for t in dwords if t < c.Q] != _model(bytes(buf)):
        raise ValueError("rej_uniform: NEON's 4-candidate step differs from the scalar loop")


def _check_neon_pack() -> None:
    """Simulate the NEON packing of 4 dwords for every accept mask."""
    for m in range(16):
        total = sum(w for i, w in enumerate(accept_weights()) if m >> i & 1)
        if total & 15 != m or total >> 4 != popcounts()[m] or total >= 256:
            raise ValueError("rej_uniform: accept weights")
        data = [0x10 * d + k for d in range(4) for k in range(4)]
        packed = [data[i] for i in left_pack_bytes(m)]
        kept = [data[4 * d:4 * d + 4] for d in range(4) if m >> d & 1]
        if [packed[4 * j:4 * j + 4] for j in range(len(kept))] != kept:
            raise ValueError("rej_uniform: left_pack_bytes")


def context(isa) -> dict:
    if isa.arch == "aarch64":
        _check(8)
        _check_neon4()
        _check_neon_pack()
        return {
            "group_bytes": GROUP_BYTES,
            "cand_mask": CANDIDATE_MASK,
            "lane_offsets": lane_load_offsets,
            "shuffle": expand_shuffle(8),
            "left_pack": [left_pack_bytes(m) for m in range(16)],
            "weights": accept_weights(),
        }
    if isa.bits >= 256:
        for lanes in (8, isa.lanes):
            _check(lanes)
    return {
        "group_bytes": GROUP_BYTES,
        "cand_mask": CANDIDATE_MASK,
        "lane_offsets": lane_load_offsets,
        "shuffle": expand_shuffle(isa.lanes) if isa.bits >= 256 else [],
        "left_pack": [left_pack(m) for m in range(256)],
        "popcount": popcounts(),
    }
