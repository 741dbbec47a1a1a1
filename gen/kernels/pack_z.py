# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Context of templates/kernels/pack_z.S.j2: the encoder of z (FIPS 204 BitPack(z,
gamma1 - 1, gamma1), Alg. 17, inside sigEncode, Alg. 26): coefficient i is the b-bit
field v_i = gamma1 - z_i at bits b i .. b i + b - 1 of the output, little-endian, b = 18
(gamma1 = 2^17) or 20 (2^19); the inverse of unpack_z.

A group of 4 coefficients fills G = b / 2 whole bytes (9 or 10) and is one 128-bit lane
(the lanes of a register are consecutive groups, as loaded):
  1. v = gamma1 - z (four b-bit fields in dwords);
  2. each quadword's two fields become one field of 2 b bits: the high dword shifted
     down by 32 and up by b (psrlq, psllq), ORed onto the low dword (NEON: uzp1 / uzp2
     split the fields, shl / ushr / orr join them, zip1 makes quadwords again);
  3. the lane's two quadword fields become one of 4 b bits (= 8 G): the high quadword,
     moved down (psrldq $8 / zip2 with zero), shifted up by 2 b as a 128-bit value (its
     low part psllq $2b, its high part psrlq $(64-2b) moved up by pslldq $8 / zip1 with
     zero), ORed onto the low quadword;
  4. the lane is stored whole at byte G g: its 16 - G bytes above the group are zeros
     that the next group's store writes over. The stores go in order, so every byte
     ends with its group's value. The last group cannot be stored whole (its 16 bytes
     would pass the end): the last 16 bytes of out are stored instead, the last group's
     G bytes shifted to the top and the one before's top bytes below them (psrldq /
     pslldq / por; NEON: two tbl lookups), after that group's own store.
Every plan is simulated here on random and extreme inputs against BitPack before it is
used.
"""

import random

from .. import constants as c

VARIANTS = (("g17", 1 << 17), ("g19", 1 << 19))
LANE = 16
TBL_ZERO = 0xFF


def bits_of(gamma1: int) -> int:
    return (2 * gamma1 - 1).bit_length()


def model(z: list, gamma1: int) -> bytes:
    b = bits_of(gamma1)
    v = 0
    for i, x in enumerate(z):
        v |= (gamma1 - x) << (b * i)
    return v.to_bytes(c.N * b // 8, "little")


def tail_rows(G: int) -> tuple:
    """NEON: tbl rows of the last 16 bytes: the one-before-last group's bytes 2 G - 16 ..
    G - 1 first, then the last group's G bytes (0xff: a zero byte)."""
    keep = 16 - G
    lo = [2 * G - 16 + j for j in range(keep)] + [TBL_ZERO] * G
    hi = [TBL_ZERO] * keep + list(range(G))
    return lo, hi


def plan(isa, gamma1: int) -> dict:
    b = bits_of(gamma1)
    G = b // 2
    groups = c.N // 4
    nbytes = c.N * b // 8
    lanes = isa.vbytes // LANE if isa.arch == "x86_64" else 1
    p = dict(bits=b, G=G, bytes=nbytes, regs=groups // lanes, lanes=lanes,
             s=2 * b, tail=tail_rows(G), last=nbytes - LANE)
    if 2 * b > 64 or 2 * G - LANE < 0:
        raise AssertionError("pack_z: a group is not between 8 and 16 bytes")
    _check(p, gamma1)
    return p


def _lane(v4: list, b: int) -> int:
    """Steps 2 and 3 on one lane's four fields, as the template computes them."""
    q = [v4[0] | v4[1] << 32, v4[2] | v4[3] << 32]
    q = [(x & 0xFFFFFFFF) | ((x >> 32) << b) for x in q]
    hi = q[1]
    low = (hi << 2 * b) & ((1 << 64) - 1)
    high = hi >> (64 - 2 * b)
    return q[0] | low | high << 64


def _simulate(p: dict, z: list, gamma1: int) -> bytes:
    G, out = p["G"], bytearray(p["bytes"])
    lanes = [_lane([gamma1 - x for x in z[4 * g:4 * g + 4]], p["bits"]).to_bytes(16, "little")
             for g in range(c.N // 4)]
    for g, lane in enumerate(lanes[:-1]):
        out[G * g:G * g + LANE] = lane
    lo, hi = p["tail"]
    prev, last = lanes[-2], lanes[-1]
    out[p["last"]:] = bytes((prev[x] if x < 16 else 0) | (last[y] if y < 16 else 0) for x, y in zip(lo, hi))
    return bytes(out)


def _check(p: dict, gamma1: int) -> None:
    rng = random.Random(gamma1)
    for trial in range(4):
        z = [(-gamma1 + 1) if trial == 0 else gamma1 if trial == 1 else rng.randint(-gamma1 + 1, gamma1)
             for _ in range(c.N)]
        if _simulate(p, z, gamma1) != model(z, gamma1):
            raise AssertionError("pack_z: the plan differs from BitPack")


def context(isa) -> dict:
    variants = []
    for tag, gamma1 in VARIANTS:
        v = dict(tag=tag, gamma1=gamma1)
        v.update(plan(isa, gamma1))
        variants.append(v)
    return dict(variants=variants)
