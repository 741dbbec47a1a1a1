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


def context(isa) -> dict:
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
