# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Context of templates/kernels/keccak_f1600_batch.S.j2: W = bits / 64 Keccak-f[1600]
states at once, lane i of state j at states[i * W + j].

Two bodies, because the register files differ (STYLE.md: share what is the same,
specialise what is not):

  streaming (SSE2, AVX2: 16 registers)   the state lives in memory, ping-ponging between
      the caller's buffer A and an aligned stack buffer E (A -> E -> A, 24 rounds end in
      A). A round reads each lane once and writes it once; the column parities C of the
      next round are accumulated while chi's outputs are stored. Registers: C0-4, D0-4,
      one plane B0-4 and one temporary: exactly 16.
  resident (AVX-512: 32 registers)       the 25 lanes stay in registers for all 24
      rounds. rho-pi is a renaming, not a move: this module tracks which register holds
      which lane round by round, and a few register moves at the end of each loop
      iteration bring every lane home (pi is a 24-cycle: none after 24 rounds).

Everything here is bookkeeping (which lane, which register, which rotation); the
instructions themselves are written in the template. Keccak's numbers come from
gen.keccak (FIPS 202), never pasted.
"""

from .. import keccak
from . import keccak_a64

ROUNDS = 24


def lane(x: int, y: int) -> int:
    """State index of lane (x, y)."""
    return x % 5 + 5 * (y % 5)


def pi_sources() -> dict:
    """rho-pi inverted: (X, Y) -> the lane (x, y) that lands there."""
    return {keccak.pi_target(x, y): (x, y) for x in range(5) for y in range(5)}


def planes() -> list:
    """For each output plane Y, for X = 0..4: where B[X, Y] = ROL(A[x, y] ^ D[x], r)
    comes from (streaming body)."""
    src, rho = pi_sources(), keccak.rho_offsets()
    out = []
    for y_out in range(5):
        row = []
        for x_out in range(5):
            x, y = src[(x_out, y_out)]
            row.append(dict(src=lane(x, y), d=x, rot=rho[lane(x, y)], dst=lane(x_out, y_out)))
        out.append(row)
    return out


def resident_rounds(nregs: int, unroll: int) -> dict:
    """Register allocation of the resident body: lane i starts and ends in register i;
    the seven spare registers (25..31) hold C, D and chi's copies. `unroll` rounds per
    loop iteration (24: no loop and no moves, since pi^24 is the identity).

    Round r: C       C[x] = A[x,0] ^ A[x,1] ^ A[x,2] ^ A[x,3] ^ A[x,4]: xor, 3-way xor,
                     xor (A[x,4], the last lane the previous round wrote, last)
             D       D[x] = C[x-1] ^ ROL(C[x+1], 1), in an order where every rotation
                     lands in a free register or over a C no longer needed
             planes  for each output plane Y: its five source lanes ^= D and rotated in
                     place (rho; pi renames registers), then chi: B0 and B1 copied,
                     A[X] = B[X] ^ (~B[X+1] & B[X+2]) in place, one vpternlogq each (the
                     copies stand in for B0, B1 once overwritten); iota after plane 0
    Measured on Zen 4 against the alternatives: applying D to a lane with one
    vpternlogq (C[x-1] ^ ROL(C[x+1]) without D) is 9% slower, there a 3-way XOR costs
    about two 2-way XORs; so is rotating all 25 lanes before any chi, or accumulating
    the next C during chi (which forces that order: D and C do not fit together).
    """
    if ROUNDS % unroll:
        raise ValueError(f"unroll {unroll} does not divide {ROUNDS}")
    rho = keccak.rho_offsets()
    src = pi_sources()
    spare = list(range(25, nregs))
    if len(spare) < 7:
        raise ValueError(f"the resident body needs 32 registers, has {nregs}")
    cs, t, u = spare[:5], spare[5], spare[6]
    # (x, the C rotated, where the rotation goes, where D[x] goes)
    steps = [(0, cs[1], t, t), (1, cs[2], u, u), (3, cs[4], cs[4], cs[2]),
             (2, cs[3], cs[4], cs[1]), (4, cs[0], cs[0], cs[3])]
    d = [dict(x=x, rsrc=rs, rdst=rd, cprev=cs[(x - 1) % 5], dst=dd) for x, rs, rd, dd in steps]
    dreg = {x: dd for x, _, _, dd in steps}
    f0, f1 = cs[4], cs[0]                      # free once D is made
    loc = list(range(25))                      # loc[i]: register of lane i
    rounds = []
    for r in range(unroll):
        theta = [dict(x=x, c=cs[x], lanes=[loc[lane(x, y)] for y in range(5)])
                 for x in range(5)]
        new = [None] * 25
        for x in range(5):
            for y in range(5):
                new[lane(*keccak.pi_target(x, y))] = loc[lane(x, y)]
        loc = new
        planes_ = []
        for y in range(5):
            srcs = []
            for xo in range(5):
                i = lane(*src[(xo, y)])
                srcs.append(dict(reg=loc[lane(xo, y)], d=dreg[i % 5], r=rho[i], lane=i))
            b = [loc[lane(x, y)] for x in range(5)]
            ops = [(b[0], b[1], b[2]), (b[1], b[2], b[3]), (b[2], b[3], b[4]),
                   (b[3], b[4], f0), (b[4], f0, f1)]
            planes_.append(dict(y=y, srcs=srcs, b=b, f0=f0, f1=f1, ops=ops))
        rounds.append(dict(r=r, theta=theta, d=d, planes=planes_, iota=loc[0]))
    # moves that bring every lane home (lane i in register i) at the end of a loop
    # iteration: register i takes register loc[i]; each cycle of that permutation is
    # broken with a spare register. None for unroll = 24.
    if sorted(loc) != list(range(25)):
        raise AssertionError("lanes left registers 0-24")
    moves, seen = [], set()
    for start in range(25):
        if start in seen or loc[start] == start:
            continue
        cycle = [start]
        while loc[cycle[-1]] != start:
            cycle.append(loc[cycle[-1]])
        seen.update(cycle)
        moves.append((cycle[0], t))
        moves += [(s_, d_) for d_, s_ in zip(cycle, cycle[1:])]
        moves.append((t, cycle[-1]))
    return dict(schedule=rounds, restore=moves)


def pshufb_rotate(r: int) -> list:
    """The 16 pshufb indices that rotate each quadword left by r bits (r a multiple of
    8): byte k of the result is byte k - r/8 (mod 8) of the same quadword."""
    if r % 8:
        raise ValueError(f"pshufb rotates by whole bytes, not {r} bits")
    return [(k // 8) * 8 + (k - r // 8) % 8 for k in range(16)]


def ternlog_imm(f) -> int:
    """vpternlogq's immediate for dst = f(dst, src2, src3) (AT&T: $imm, src3, src2, dst):
    bit 4a + 2b + c of the immediate is f(a, b, c)."""
    return sum((f(a, b, c) & 1) << (4 * a + 2 * b + c)
               for a in (0, 1) for b in (0, 1) for c in (0, 1))


def context(isa) -> dict:
    if isa.arch == "aarch64":
        # two states, one per 64-bit half of each vector; two bodies, chosen in C:
        # base (Armv8.0 Advanced SIMD) and sha3 (Armv8.2 SHA3)
        return dict(W=2, nrounds=ROUNDS,
                    rc=[f"0x{v:016x}" for v in keccak.round_constants(ROUNDS)],
                    lane_names=[f"A[{x},{y}]" for y in range(5) for x in range(5)],
                    bodies=[("_base", keccak_a64.plan("vec")),
                            ("_sha3", keccak_a64.plan("sha3"))])
    # the resident body needs AVX-512F (vpternlogq, vprolq, 32 registers)
    resident = isa.opmask and isa.nregs >= 32
    ctx = dict(
        W=isa.bits // 64, nrounds=ROUNDS,
        rc=[f"0x{v:016x}" for v in keccak.round_constants(ROUNDS)],
        lane_names=[f"A[{x},{y}]" for y in range(5) for x in range(5)],
        resident=resident,
        # SSE2 keeps each RC twice (a whole xmm, loaded with movdqa); AVX2 broadcasts
        # one quadword (vpbroadcastq), AVX-512 uses it as an embedded {1to8} broadcast
        rc_bytes=8 if isa.vex else 16,
    )
    if resident:
        # Four rounds per loop iteration, then 28 register moves (eliminated at rename)
        # bring the lanes home: as fast as all 24 rounds unrolled on Zen 4 (measured),
        # and ~3 KB of code instead of ~15 KB, small enough for a uop cache.
        unroll = 4
        ctx.update(resident_rounds(isa.nregs, unroll), unroll=unroll,
                   xor3=f"0x{ternlog_imm(lambda a, b, c: a ^ b ^ c):02x}",
                   chi=f"0x{ternlog_imm(lambda a, b, c: a ^ (~b & c)):02x}")
    else:
        # rho's byte-multiple rotations (8 and 56) are one vpshufb where SSSE3's
        # instruction exists in the ISA (AVX2's VEX form); SSE2 shifts
        byte_rot = sorted({r for r in keccak.rho_offsets() if r and r % 8 == 0})
        ctx.update(planes=planes(), rol_masks={r: pshufb_rotate(r) for r in byte_rot})
    return ctx
