# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Context of templates/kernels/keccak_f1600_x1.S.j2: Keccak-f[1600] on one state, lane
x + 5y at s[x + 5y], for the sponges (H(pk), mu, c~, SampleInBall: 25 to 45 sequential
permutations per verify or sign).

Two bodies (STYLE.md: share what is the same, specialise what is not):

  gpr (SSE2, AVX2: the vector ISA does not matter; base x86-64 only, no BMI andn/rorx)
      The state ping-pongs between the caller's buffer A and a stack buffer E (A -> E
      -> A: two rounds per loop iteration, 24 rounds end in A), in the style of the
      Keccak team's and CRYPTOGAMS' x86-64 code:
        theta   the column parities C[x] accumulate in five registers with memory-operand
                xors (plane 4 of the previous round is still in those registers), then
                D[x] = C[x-1] ^ ROL(C[x+1], 1) in place with one spare register;
        rho-pi  per output plane, its five source lanes are loaded, xored with D and
                rotated into five registers B;
        chi     lane complementing (the Keccak implementation overview, section 2.2):
                the lanes of COMPLEMENTED are kept inverted, so that every
                A ^ (~B & C) becomes one and/or, with one NOT per plane (base x86-64 has
                no andn). The formula of each output, their order and the register of
                every intermediate come from the search of chi_plane(); outputs are
                stored to the other buffer, plane 4's also kept in the C registers;
        iota    a memory-operand xor.
      ~200 instructions per round. No 64-bit lane code does fewer than 130 logic
      operations per round (C 20, D 10, A ^ D 25, rho 24, chi 50, iota 1); without
      andn and three-operand forms, loads, stores and copies come on top.
      plan_gpr() interprets its own instruction list on random states against
      gen.keccak.permute before the template sees it.
  xmm (AVX-512: F and VL, on xmm registers)
      keccak_f1600_batch's resident body with one state: lane i in quadword 0 of
      %xmm<i> for all 24 rounds, C, D and chi's copies in xmm25-31, rho-pi as register
      renaming, vpternlogq for the 3-way xors and chi, vprolq for rho, XMM_UNROLL rounds
      per loop iteration. ~110 instructions per round, all on the vector pipes.

Measured on AMD Zen 4 (rdtsc ticks per permutation, median, back-to-back calls; the C
permutation of src/fips202.c: ~835): gpr ~684; xmm ~532; and, tried and dropped, a
row-vector body (the five planes in five zmm registers: theta by vpternlogq and vpermq,
rho by vprolvq, pi by one vpermq per row into columns, chi by vpternlogq across
registers, a 5x5 transpose back by vpunpck/vpermt2q/vpermi2q: 41 instructions per
round) ~910: four 5-cycle cross-lane shuffle levels per round on the critical path, and
512-bit shuffles, rotates and vpternlogq at half rate on Zen 4. The xmm body is
limited by rotates and vpternlogq (2 per cycle between them, about 30 cycles a round).
So AVX-512 uses xmm, SSE2 and AVX2 use gpr.

Keccak's numbers come from gen.keccak (FIPS 202), never pasted.
"""

import itertools
import random
from functools import lru_cache

from .. import keccak
from . import keccak_a64, keccak_f1600_batch

ROUNDS = 24
MASK = (1 << 64) - 1

# The body of ISAs with AVX-512 (the other is "gpr"; both correct, "xmm" faster: above).
AVX512_BODY = "xmm"


def lane(x: int, y: int) -> int:
    """State index of lane (x, y)."""
    return x % 5 + 5 * (y % 5)


def pi_sources() -> dict:
    """rho-pi inverted: (X, Y) -> the lane (x, y) that lands there."""
    return {keccak.pi_target(x, y): (x, y) for x in range(5) for y in range(5)}


# =====================================================================================
# gpr body
# =====================================================================================

# The lanes kept complemented (the implementation overview's pattern, "Bebigokimisa":
# lanes (1,0), (2,0), (3,1), (2,2), (2,3), (0,4)). A design choice, not a constant of
# Keccak; plan_gpr() checks that it is a fixed point of the round and that chi needs one
# NOT per plane with it.
COMPLEMENTED = (lane(1, 0), lane(2, 0), lane(3, 1), lane(2, 2), lane(2, 3), lane(0, 4))

C_REGS = ("%rax", "%rbx", "%rcx", "%rdx", "%rbp")        # C[x], then D, then plane 4
B_REGS = ("%rsi", "%r8", "%r9", "%r10", "%r11")         # one plane of B
T_REGS = ("%r12", "%r13")                               # chi's copies, D's spare
RC_REG = "%r15"                                         # round constants
COUNTER = "%r14d"                                       # loop iterations
CALLEE_SAVED = ("%rbx", "%rbp", "%r12", "%r13", "%r14", "%r15")


def _op(k, **kw):
    """One abstract instruction of the plan: kind k (the template spells it), its
    operands, and c, the comment."""
    return {"k": k, "c": "", **kw}


def chi_plane(m, want, b_regs, temps, dest=None, iota=False, y=0):
    """The instructions of chi on one plane. b_regs[i] holds B[i] ^ m[i] (m[i] 1: the
    register holds the complement); output X must be stored as A[X] ^ want[X]. When dest
    is given, output X must end in register dest[X] (plane 4: the next round's C).

    Per output, ~B1 & B2 is written with one and/or of the registers p1, p2 (or the NOT
    of one of them) up to a complement:
        and: needs p1 = ~B1, p2 = B2            (NOT the register that is not so)
        or:  p1 | p2 = ~(~B1 & B2) when p1 = B1, p2 = ~B2
    and the final complement, if any, is a NOT of the output or the NOT of B0's register
    (when that NOT is made anyway). Searched: the form of each output and the final NOT
    (fewest NOTs first), then the order of the five outputs (fewest copies: an operand
    whose every use is done is overwritten in place)."""
    best = None
    choices = []
    for forms in itertools.product(("and", "or"), repeat=5):
        per_out = []
        for X in range(5):
            m0, m1, m2 = m[X], m[(X + 1) % 5], m[(X + 2) % 5]
            if forms[X] == "and":
                n1, n2, k = 1 - m1, m2, 0
            else:
                n1, n2, k = m1, 1 - m2, 1
            final = m0 ^ k ^ want[X]
            per_out.append((n1, n2, final))
        fin_opts = [("out", "w") if f else ("none",) for (_, _, f) in per_out]
        for fins in itertools.product(*fin_opts):
            outs = []
            nots = set()
            notout = 0
            for X in range(5):
                n1, n2, _ = per_out[X]
                u, v = ((X + 1) % 5, n1), ((X + 2) % 5, n2)
                w = (X, 1 if fins[X] == "w" else 0)
                for val in (u, v, w):
                    if val[1]:
                        nots.add(val[0])
                notout += fins[X] == "out"
                outs.append(dict(X=X, op=forms[X], u=u, v=v, w=w, notout=fins[X] == "out"))
            choices.append((len(nots) + notout, outs))
    least = min(c for c, _ in choices)
    for _, outs in (c for c in choices if c[0] == least):
        for order in itertools.permutations(range(5)):
            code = _chi_code(outs, order, b_regs, temps, dest, iota, y)
            if code is not None and (best is None or len(code) < len(best)):
                best = code
    if best is None:
        raise ValueError("chi: no allocation fits the registers")
    return best, least


def _chi_code(outs, order, b_regs, temps, dest, iota, y):
    """One candidate: the instructions for outputs in `order`, or None if registers run
    out. Values are (i, negated)."""
    uses = {}
    for X in order:
        for val in (outs[X]["u"], outs[X]["v"], outs[X]["w"]):
            uses[val] = uses.get(val, 0) + 1
    where = {(i, 0): b_regs[i] for i in range(5)}
    free = list(temps)
    code = []
    names = "B[%d]"

    def name(val):
        return ("~" if val[1] else "") + names % val[0]

    def alive(val):
        """Still needed: a use to come, or the NOT of it to be made from it."""
        if uses.get(val, 0) > 0:
            return True
        neg = (val[0], 1)
        return val[1] == 0 and neg not in where and uses.get(neg, 0) > 0

    def ensure(val):
        if val in where:
            return True
        plain = (val[0], 0)
        if uses.get(plain, 0) == 0:                # the plain value is dead: in place
            r = where.pop(plain)
        else:
            if not free:
                return False
            r = free.pop(0)
            code.append(_op("mov", src=where[plain], dst=r, c=f"copy of {name(plain)}"))
        code.append(_op("not", dst=r, c=name(val)))
        where[val] = r
        return True

    def release(val):
        if not alive(val) and val in where:
            r = where.pop(val)
            if r not in free and r not in (dest or ()):
                free.append(r)

    for X in order:
        o = outs[X]
        u, v, w = o["u"], o["v"], o["w"]
        for val in (u, v, w):
            if not ensure(val):
                return None
        for val in (u, v, w):
            uses[val] -= 1
        sym = "&" if o["op"] == "and" else "|"
        what = f"{name(u)} {sym} {name(v)}"
        target = dest[X] if dest else None
        if target is None and not alive(u) and where[u] != where[w]:
            t = where.pop(u)
            code.append(_op(o["op"], src=where[v], dst=t, c=what))
        elif target is None and not alive(v) and where[v] != where[w]:
            t = where.pop(v)
            code.append(_op(o["op"], src=where[u], dst=t, c=what))
        else:
            if target is None:
                if not free:
                    return None
                t = free.pop(0)
            else:
                t = target
            code.append(_op("mov", src=where[u], dst=t))
            code.append(_op(o["op"], src=where[v], dst=t, c=what))
        code.append(_op("xor", src=where[w], dst=t,
                        c=f"{name(w)} ^ ({what})" + ("" if o["notout"] else
                                                      f": A[{X},{y}]")))
        if o["notout"]:
            code.append(_op("not", dst=t, c=f"A[{X},{y}]"))
        if iota and X == 0:
            code.append(_op("iota", dst=t, c="A[0,0] ^= RC"))
        code.append(_op("store", src=t, lane=lane(X, y)))
        for val in (u, v, w):
            release(val)
        if target is None:
            free.append(t)
    return code


@lru_cache(maxsize=None)
def plan_gpr() -> dict:
    """One round as a list of abstract instructions on the source buffer S (read) and the
    target buffer T (written); the template writes it twice per loop iteration, S = A, T
    = E and then S = E, T = A."""
    rho = keccak.rho_offsets()
    src = pi_sources()
    comp = [1 if i in COMPLEMENTED else 0 for i in range(25)]
    code = []
    # theta: C[x] (plane 4 already in C_REGS)
    for y in range(4):
        for x in range(5):
            what = f"C[{x}]" if y == 3 else ""
            code.append(_op("xorm", lane=lane(x, y), dst=C_REGS[x], c=what))
    ccomp = [sum(comp[lane(x, y)] for y in range(5)) % 2 for x in range(5)]
    # D[x] = C[x-1] ^ ROL(C[x+1], 1) into the register of C[x+1]; the order x = 1, 4, 2,
    # 0, 3 overwrites each C after its last plain use, but for the first (saved in a spare)
    t = T_REGS[0]
    dreg = {}
    order = [(1 + 3 * i) % 5 for i in range(5)]
    saved = C_REGS[(order[0] + 1) % 5]
    code.append(_op("mov", src=saved, dst=t, c=f"C[{(order[0] + 1) % 5}]"))
    for x in order:
        r = C_REGS[(x + 1) % 5]
        prev = C_REGS[(x - 1) % 5]
        if x == order[-1]:
            prev = t
        code.append(_op("rol", n=1, dst=r))
        code.append(_op("xor", src=prev, dst=r,
                        c=f"D[{x}] = C[{(x - 1) % 5}] ^ ROL(C[{(x + 1) % 5}], 1)"))
        dreg[x] = r
    dcomp = [ccomp[(x - 1) % 5] ^ ccomp[(x + 1) % 5] for x in range(5)]
    nots = []
    for y in range(5):
        m = []
        for X in range(5):
            sx, sy = src[(X, y)]
            i = lane(sx, sy)
            r = rho[i]
            what = f"B[{X}] = ROL(A[{sx},{sy}] ^ D[{sx}], {r})"
            code.append(_op("load", lane=i, dst=B_REGS[X]))
            code.append(_op("xor", src=dreg[sx], dst=B_REGS[X], c=what if not r else ""))
            if r:
                code.append(_op("rol", n=r, dst=B_REGS[X], c=what))
            m.append(comp[i] ^ dcomp[sx])
        want = [comp[lane(X, y)] for X in range(5)]
        chi, n = chi_plane(m, want, B_REGS, T_REGS, dest=C_REGS if y == 4 else None,
                           iota=y == 0, y=y)
        nots.append(n)
        code += chi
    plan = dict(round=code, complemented=list(COMPLEMENTED), nots=nots, c_regs=C_REGS,
                complemented_names=[f"A[{i % 5},{i // 5}]" for i in COMPLEMENTED],
                rc_reg=RC_REG, counter=COUNTER, callee_saved=CALLEE_SAVED)
    _check_gpr(plan)
    return plan


def _run_gpr_round(code, S, T, regs, rc):
    for o in code:
        k = o["k"]
        if k == "xorm":
            regs[o["dst"]] ^= S[o["lane"]]
        elif k == "load":
            regs[o["dst"]] = S[o["lane"]]
        elif k == "store":
            T[o["lane"]] = regs[o["src"]]
        elif k == "mov":
            regs[o["dst"]] = regs[o["src"]]
        elif k == "xor":
            regs[o["dst"]] ^= regs[o["src"]]
        elif k == "and":
            regs[o["dst"]] &= regs[o["src"]]
        elif k == "or":
            regs[o["dst"]] |= regs[o["src"]]
        elif k == "not":
            regs[o["dst"]] ^= MASK
        elif k == "rol":
            regs[o["dst"]] = keccak.rol64(regs[o["dst"]], o["n"])
        elif k == "iota":
            regs[o["dst"]] ^= rc
        else:
            raise ValueError(k)


def _check_gpr(plan):
    """Interpret the plan (entry complement, 24 rounds ping-ponging, exit complement) on
    random states and the zero state against gen.keccak.permute."""
    rng = random.Random(1600)
    rcs = keccak.round_constants(ROUNDS)
    for trial in range(4):
        s = [rng.getrandbits(64) if trial else 0 for _ in range(25)]
        A = [v ^ (MASK if i in plan["complemented"] else 0) for i, v in enumerate(s)]
        E = [0] * 25
        regs = {r: 0 for r in C_REGS + B_REGS + T_REGS}
        for x in range(5):
            regs[C_REGS[x]] = A[lane(x, 4)]
        for r in range(ROUNDS):
            S, T = (A, E) if r % 2 == 0 else (E, A)
            _run_gpr_round(plan["round"], S, T, regs, rcs[r])
        out = [v ^ (MASK if i in plan["complemented"] else 0) for i, v in enumerate(A)]
        if out != keccak.permute(s):
            raise AssertionError("keccak_f1600_x1 gpr plan is wrong")
    if plan["nots"] != [1] * 5:
        raise AssertionError(f"lane complementing: NOTs per plane {plan['nots']}")


# =====================================================================================
# xmm body
# =====================================================================================

# Rounds per loop iteration: 1, 2, 4, 8 and 24 measure the same on Zen 4 (the register
# moves at the end of an iteration are eliminated at rename); 4 keeps the loop ~3 KB.
XMM_UNROLL = 4


def plan_xmm(nregs: int) -> dict:
    """The register schedule of keccak_f1600_batch's resident body (lane i in register i,
    C, D and chi's copies in the other seven, rho-pi as renaming, XMM_UNROLL rounds per
    loop iteration), used with one state: quadword 0 of each xmm register."""
    plan = keccak_f1600_batch.resident_rounds(nregs, XMM_UNROLL)
    imm = keccak_f1600_batch.ternlog_imm
    plan.update(unroll=XMM_UNROLL, xor3=f"0x{imm(lambda a, b, c: a ^ b ^ c):02x}",
                chi=f"0x{imm(lambda a, b, c: a ^ (~b & c)):02x}")
    _check_xmm(plan)
    return plan


def _check_xmm(plan):
    """Interpret the schedule as the template writes it (registers 0..31, one lane
    each) on random states against gen.keccak.permute."""
    rng = random.Random(128)
    rcs = keccak.round_constants(ROUNDS)
    for trial in range(3):
        s = [rng.getrandbits(64) if trial else 0 for _ in range(25)]
        v = s + [0] * 7
        for base in range(0, ROUNDS, plan["unroll"]):
            for rd in plan["schedule"]:
                for col in rd["theta"]:
                    ln = col["lanes"]
                    v[col["c"]] = v[ln[0]] ^ v[ln[1]] ^ v[ln[2]] ^ v[ln[3]] ^ v[ln[4]]
                for d in rd["d"]:
                    v[d["rdst"]] = keccak.rol64(v[d["rsrc"]], 1)
                    v[d["dst"]] = v[d["rdst"]] ^ v[d["cprev"]]
                for p in rd["planes"]:
                    for ln in p["srcs"]:
                        v[ln["reg"]] = keccak.rol64(v[ln["reg"]] ^ v[ln["d"]], ln["r"])
                    v[p["f0"]], v[p["f1"]] = v[p["b"][0]], v[p["b"][1]]
                    for dst, s2, s3 in p["ops"]:
                        v[dst] ^= ~v[s2] & v[s3]
                    if p["y"] == 0:
                        v[rd["iota"]] ^= rcs[base + rd["r"]]
            for src, dst in plan["restore"]:
                v[dst] = v[src]
        if v[:25] != keccak.permute(s):
            raise AssertionError("keccak_f1600_x1 xmm plan is wrong")


def context(isa) -> dict:
    if isa.arch == "aarch64":
        # two bodies, chosen in C: base (general registers) and sha3 (Armv8.2 SHA3 on the
        # low halves of v0-v24; the batch's plan with one state)
        return dict(nrounds=ROUNDS, rc=[f"0x{v:016x}" for v in keccak.round_constants(ROUNDS)],
                    lane_names=[f"A[{x},{y}]" for y in range(5) for x in range(5)],
                    bodies=[("_base", keccak_a64.plan("gpr")),
                            ("_sha3", keccak_a64.plan("sha3"))])
    # the xmm body needs AVX-512F and VL (vpternlogq, vprolq on xmm) and 32 registers
    xmm = isa.opmask and "avx512vl" in isa.features and isa.nregs >= 32
    body = AVX512_BODY if xmm else "gpr"
    ctx = dict(body=body, nrounds=ROUNDS,
               rc=[f"0x{v:016x}" for v in keccak.round_constants(ROUNDS)],
               lane_names=[f"A[{x},{y}]" for y in range(5) for x in range(5)])
    if body == "gpr":
        ctx["gpr"] = plan_gpr()
    else:
        ctx["xmm"] = plan_xmm(isa.nregs)
    return ctx
