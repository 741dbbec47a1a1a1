# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Register plans of the AArch64 Keccak-f[1600] bodies (templates/keccak_a64.S.j2, used by
keccak_f1600_x1 and keccak_f1600_batch for neon). Not a kernel of its own: the two
kernels' context modules call plan().

One plan per body, all written from one description of a round:

  gpr    one state in general registers (mldsa_keccak_f1600_x1_neon_base), with lazy
         rotation (_LazyGpr below: its own planner, since rho costs nothing there). 30
         registers (x0-x17, x19-x30: never x18, the platform register); x0 (the state
         pointer), x19-x29 and the link register are saved on the stack (no PAC signing
         happens in the body, so x30 only has to be back before ret).
  vec    two states, one per 64-bit half of each of v0-v31, Armv8.0 Advanced SIMD
         (mldsa_keccak_f1600_batch_neon_base). d8-d15 are saved.
  sha3   the same with the Armv8.2 SHA3 instructions (EOR3, RAX1, XAR, BCAX): the
         batch's _neon_sha3 body, and with one state in the low halves, x1's.

A round of the vector bodies (the gpr body's differs as _LazyGpr says), on lanes that
stay in registers for all 24 rounds:
  theta   C[x] = xor of column x into a free register (one EOR3 pair with SHA3);
          D[x] = C[x-1] ^ ROL(C[x+1], 1) into a free register, or over a C whose last
          use it is (RAX1; gpr: eor with a rotated operand). gpr has 29 registers for 25
          lanes and 5 parities: one lane is spilled to the stack while D is made, and
          the first column takes C[x-1] and ROL(C[x+1], 1) one after the other (no D);
  rho     gpr: A ^= D, then ror in place; vec: A ^= D, then shl + sri into a free
          register (no rotate instruction); sha3: XAR does both in place;
  pi      renaming: B[X, Y] is simply whichever register holds the rotated lane;
  chi     A[X, Y] = B[X] ^ (~B[X+1] & B[X+2]) into a free register (bic + eor; BCAX),
          B registers free once their last output is made;
  iota    A[0, 0] ^= RC (gpr: adrp + ldr from .rodata; vec: ld1r with post-increment).
All 24 rounds are unrolled, so renaming costs nothing: the epilogue stores each lane
from wherever it ended. No lane complementing: A64 has bic (and-not), so chi is two
instructions per lane either way.

plan() checks itself: _run() interprets the instruction list on random states against
gen.keccak.permute before any template sees it.
"""

import random
from functools import lru_cache

from .. import keccak

ROUNDS = 24
MASK = (1 << 64) - 1

GPR_POOL = tuple(f"x{i}" for i in range(18)) + tuple(f"x{i}" for i in range(19, 30))
GPR_SAVED = tuple(f"x{i}" for i in range(19, 30))
VEC_POOL = tuple(f"v{i}" for i in range(32))


def _op(k, **kw):
    return {"k": k, "c": "", **kw}


def lane(x, y):
    return x % 5 + 5 * (y % 5)


class _Planner:
    def __init__(self, body):
        self.body = body
        pool = GPR_POOL if body == "gpr" else VEC_POOL
        self.reg = {i: pool[i] for i in range(25)}    # lane -> register
        self.free = list(pool[25:])
        self.code = []

    def take(self):
        if not self.free:
            raise ValueError(f"keccak {self.body}: out of registers")
        return self.free.pop(0)

    def give(self, r):
        self.free.append(r)

    def theta(self, rd):
        body, reg = self.body, self.reg
        c = {}
        spilled = None
        for x in range(5):
            if not self.free:                      # gpr: spill a lane of a done column
                spilled = lane(0, 0)
                self.code.append(_op("spill", src=reg[spilled], c="A[0,0] to the stack"))
                self.give(reg.pop(spilled))
            c[x] = self.take()
            self.code.append(_op("xor5", dst=c[x], srcs=[reg[lane(x, y)] for y in range(5)],
                                 c=f"C[{x}]"))
        uses = {k: {(k - 1) % 5, (k + 1) % 5} for k in range(5)}   # C[k] feeds D[k-1], D[k+1]
        pending = [1, 2, 3, 4, 0] if spilled is not None else list(range(5))
        d = {}
        while pending:
            choice = None
            for x in pending:
                if spilled is not None and x == spilled % 5 and len(pending) > 1:
                    continue
                prev, nxt = (x - 1) % 5, (x + 1) % 5
                if body != "vec":                  # in place over a C at its last use
                    for k in (prev, nxt):
                        if uses[k] == {x}:
                            choice = (x, c[k], False)
                            break
                if choice:
                    break
                if self.free and choice is None:
                    choice = (x, None, False)
                    break
            if choice is None:                     # gpr: the column without a D
                x = next(x for x in pending if spilled is None or x != spilled % 5)
                choice = (x, None, True)
            x, dst, direct = choice
            pending.remove(x)
            prev, nxt = (x - 1) % 5, (x + 1) % 5
            what = f"D[{x}] = C[{prev}] ^ ROL(C[{nxt}], 1)"
            if direct:
                for y in range(5):
                    self.code.append(_op("xor2", dst=reg[lane(x, y)], a=c[prev], b=c[nxt],
                                         c=f"A[{x},{y}] ^= C[{prev}] ^ ROL(C[{nxt}], 1)"))
            else:
                if dst is None:
                    dst = self.take()
                self.code.append(_op("rolxor", dst=dst, a=c[prev], b=c[nxt], c=what))
                d[x] = dst
            for k in (prev, nxt):
                uses[k].discard(x)
                if not uses[k] and c[k] != d.get(x):
                    self.give(c[k])
            if direct or body == "sha3":
                continue
            if spilled is not None and x == spilled % 5:
                r = self.take()
                self.code.append(_op("reload", dst=r, c="A[0,0]"))
                reg[spilled] = r
            for y in range(5):
                self.code.append(_op("xor", dst=reg[lane(x, y)], a=d[x],
                                     c=f"A[{x},{y}] ^= D[{x}]"))
            self.give(d.pop(x))
        return d

    def rho(self, d):
        rho = keccak.rho_offsets()
        reg = self.reg
        for i in range(25):
            r = rho[i]
            what = f"ROL(A[{i % 5},{i // 5}] ^ D, {r})"
            if self.body == "sha3":
                self.code.append(_op("xorrol", dst=reg[i], d=d[i % 5], n=r, c=what))
            elif r == 0:
                continue
            elif self.body == "gpr":
                self.code.append(_op("rol", dst=reg[i], src=reg[i], n=r, c=what))
            else:
                t = self.take()
                self.code.append(_op("rol", dst=t, src=reg[i], n=r, c=what))
                self.give(reg[i])
                reg[i] = t
        for x in sorted(d):
            self.give(d[x])

    def chi(self, rnd):
        src = {keccak.pi_target(x, y): lane(x, y) for x in range(5) for y in range(5)}
        new = {}
        for Y in range(5):
            b = [self.reg[src[(X, Y)]] for X in range(5)]
            left = {X: {(X - 2) % 5, (X - 1) % 5, X} for X in range(5)}   # B[X]'s outputs
            for X in range(5):
                o = self.take()
                self.code.append(_op("chi", dst=o, a=b[X], b=b[(X + 1) % 5],
                                     c_=b[(X + 2) % 5], c=f"A[{X},{Y}]"))
                new[lane(X, Y)] = o
                for k in range(5):
                    if X in left[k]:
                        left[k].discard(X)
                        if not left[k]:
                            self.give(b[k])
            if Y == 0:
                t = self.take()
                self.code.append(_op("iota", dst=new[0], tmp=t, round=rnd,
                                     c=f"A[0,0] ^= RC[{rnd}]"))
                self.give(t)
        self.reg = new

    def round(self, rnd):
        self.code.append(_op("round", round=rnd))
        d = self.theta(rnd)
        self.rho(d)
        self.chi(rnd)


def _rolx(v, n):
    return keccak.rol64(v, n)


def _run(code, lanes_in, body):
    """Interpret a plan on one state (a vector register's two halves behave alike)."""
    pool = GPR_POOL if body == "gpr" else VEC_POOL
    regs = {r: 0 for r in pool}
    for i in range(25):
        regs[pool[i]] = lanes_in[i]
    stack = None
    rcs = keccak.round_constants(ROUNDS)
    for o in code:
        k = o["k"]
        if k == "round":
            continue
        if k == "xor5":
            v = 0
            for s in o["srcs"]:
                v ^= regs[s]
            regs[o["dst"]] = v
        elif k == "spill":
            stack = regs[o["src"]]
            regs[o["src"]] = None
        elif k == "reload":
            regs[o["dst"]] = stack
        elif k == "xor2":
            regs[o["dst"]] ^= regs[o["a"]] ^ _rolx(regs[o["b"]], 1)
        elif k == "rolxor":
            regs[o["dst"]] = regs[o["a"]] ^ _rolx(regs[o["b"]], 1)
        elif k == "xor":
            regs[o["dst"]] ^= regs[o["a"]]
        elif k == "xorrol":
            regs[o["dst"]] = _rolx(regs[o["dst"]] ^ regs[o["d"]], o["n"])
        elif k == "rol":
            regs[o["dst"]] = _rolx(regs[o["src"]], o["n"])
        elif k == "chi":
            if o["dst"] in (o["a"], o["b"], o["c_"]):
                raise AssertionError("chi writes a source")
            regs[o["dst"]] = regs[o["a"]] ^ (~regs[o["b"]] & regs[o["c_"]] & MASK)
        elif k == "iota":
            regs[o["dst"]] ^= rcs[o["round"]]
        else:
            raise ValueError(k)
    return regs


# gpr: lazy rotation. Each lane register holds its lane rotated right by a pending
# amount (the lane's frame): the true lane is ROL(register, frame). A64's eor and bic
# rotate their second operand for free (Xm, ror #n), so an operand read in another frame
# costs nothing, and rho only adds its offset to the frame: no ror in the rounds. The
# results: eor and bic produce their first operand's frame; chi's bic + eor and theta's
# C, D and A ^= D are the same instruction counts as with explicit rotations, minus rho's
# 24 ror. The frames after the last round are undone once (a ror per lane whose frame is
# not 0). 30 registers (x19-x30 saved): 25 lanes and 5 parities, so nothing is spilled.
GPR_LAZY_POOL = GPR_POOL + ("x30",)
GPR_LAZY_SAVED = GPR_SAVED + ("x30",)


def _movz(v):
    """(imm16, shift) when v is one 16-bit chunk (a single movz), else None."""
    for sh in range(0, 64, 16):
        if v & ~(0xFFFF << sh) & MASK == 0:
            return v >> sh, sh
    return None


class _LazyGpr:
    def __init__(self):
        self.reg = {i: GPR_LAZY_POOL[i] for i in range(25)}  # lane -> register
        self.off = {r: 0 for r in GPR_LAZY_POOL}             # register -> frame
        self.free = list(GPR_LAZY_POOL[25:])
        self.code = []
        self.rcs = keccak.round_constants(ROUNDS)
        self.last = False

    def take(self):
        if not self.free:
            raise ValueError("keccak gpr: out of registers")
        return self.free.pop(0)

    def give(self, r):
        self.free.append(r)

    def bin(self, k, dst, a, b, boff, c=""):
        """dst = a OP (value of b, whose frame is boff) in a's frame."""
        n = (self.off[a] - boff) % 64
        self.code.append(_op(k, dst=dst, a=a, b=b, n=n, c=c))
        self.off[dst] = self.off[a]

    def theta(self):
        reg, c = self.reg, {}

        def parity(x):
            c[x] = self.take()
            ys = [reg[lane(x, y)] for y in range(5)]
            self.bin("eor", c[x], ys[0], ys[1], self.off[ys[1]])
            for y in range(2, 5):
                self.bin("eor", c[x], c[x], ys[y], self.off[ys[y]],
                         c=f"C[{x}]" if y == 4 else "")

        uses = {k: {(k - 1) % 5, (k + 1) % 5} for k in range(5)}

        def d_and_apply(x):
            prev, nxt = (x - 1) % 5, (x + 1) % 5
            last = [k for k in (prev, nxt) if uses[k] == {x}]
            dst = c[last[0]] if last else self.take()
            # D[x] = C[x-1] ^ ROL(C[x+1], 1): ROL(C, 1) is C's register in frame +1
            self.bin("eor", dst, c[prev], c[nxt], self.off[c[nxt]] + 1,
                     c=f"D[{x}] = C[{prev}] ^ ROL(C[{nxt}], 1)")
            for k in (prev, nxt):
                uses[k].discard(x)
                if not uses[k] and c[k] != dst:
                    self.give(c[k])
            rho = keccak.rho_offsets()
            for y in range(5):
                a = reg[lane(x, y)]
                what = f"A[{x},{y}] ^= D[{x}]"
                if self.last and (self.off[dst] + rho[lane(x, y)]) % 64 == 0:
                    # the last round: D's frame brings this lane to frame 0 after rho
                    self.bin("eor", a, dst, a, self.off[a], c=what)
                else:
                    self.bin("eor", a, a, dst, self.off[dst], c=what)
            self.give(dst)

        # Five free registers for five parities, but each D needs a register before any
        # C reaches its last use: C[0..3], then D[2] (from C[1], C[3]) in the fifth.
        for x in range(4):
            parity(x)
        d_and_apply(2)
        parity(4)
        pending = [0, 1, 3, 4]
        while pending:
            for x in pending:
                if self.free or any(uses[k] == {x} for k in ((x - 1) % 5, (x + 1) % 5)):
                    break
            else:
                raise ValueError("keccak gpr: theta is stuck")
            pending.remove(x)
            d_and_apply(x)

    def rho(self):
        rho = keccak.rho_offsets()
        for i in range(25):
            self.off[self.reg[i]] = (self.off[self.reg[i]] + rho[i]) % 64

    def chi(self, rnd):
        src = {keccak.pi_target(x, y): lane(x, y) for x in range(5) for y in range(5)}
        new = {}
        for Y in range(5):
            b = [self.reg[src[(X, Y)]] for X in range(5)]
            left = {X: {(X - 2) % 5, (X - 1) % 5, X} for X in range(5)}
            for X in range(5):
                o = self.take()
                b0, b1, b2 = b[X], b[(X + 1) % 5], b[(X + 2) % 5]
                self.bin("bic", o, b2, b1, self.off[b1])
                if self.last and self.off[b0] == 0 and self.off[o] != 0:
                    # the last round: in b0's frame 0, no ror after the round
                    self.bin("eor", o, b0, o, self.off[o], c=f"A[{X},{Y}]")
                else:
                    self.bin("eor", o, o, b0, self.off[b0], c=f"A[{X},{Y}]")
                new[lane(X, Y)] = o
                for k in range(5):
                    if X in left[k]:
                        left[k].discard(X)
                        if not left[k]:
                            self.give(b[k])
            if Y == 0:
                t = self.take()
                v = self.rcs[rnd]
                mz = _movz(v)
                if mz:
                    self.code.append(_op("rc", dst=t, round=rnd, imm=mz[0], shift=mz[1]))
                else:
                    self.code.append(_op("rc", dst=t, round=rnd, imm=None, shift=0))
                self.bin("eor", new[0], new[0], t, 0, c=f"A[0,0] ^= RC[{rnd}]")
                self.give(t)
        self.reg = new

    def finish(self):
        for i in range(25):
            r = self.reg[i]
            if self.off[r]:
                self.code.append(_op("ror", dst=r, src=r, n=(64 - self.off[r]) % 64,
                                     c=f"A[{i % 5},{i // 5}] out of its frame"))
                self.off[r] = 0


def _run_lazy(code, lanes_in):
    """Interpret the gpr plan's A64 semantics on one state."""
    regs = {r: None for r in GPR_LAZY_POOL}
    for i in range(25):
        regs[GPR_LAZY_POOL[i]] = lanes_in[i]
    rcs = keccak.round_constants(ROUNDS)

    def ror(v, n):
        return keccak.rol64(v, (64 - n) % 64)

    for o in code:
        k = o["k"]
        if k == "round":
            continue
        if k == "eor":
            regs[o["dst"]] = regs[o["a"]] ^ ror(regs[o["b"]], o["n"])
        elif k == "bic":
            regs[o["dst"]] = regs[o["a"]] & ~ror(regs[o["b"]], o["n"]) & MASK
        elif k == "rc":
            v = o["imm"] << o["shift"] if o["imm"] is not None else rcs[o["round"]]
            regs[o["dst"]] = v
        elif k == "ror":
            regs[o["dst"]] = ror(regs[o["src"]], o["n"])
        else:
            raise ValueError(k)
    return regs


def _plan_gpr() -> dict:
    p = _LazyGpr()
    for r in range(ROUNDS):
        p.last = r == ROUNDS - 1
        p.code.append(_op("round", round=r))
        p.theta()
        p.rho()
        p.chi(r)
    p.finish()
    out = dict(body="gpr", code=p.code, final=[p.reg[i] for i in range(25)],
               free=list(p.free), initial=list(GPR_LAZY_POOL[:25]), saved=GPR_LAZY_SAVED)
    rng = random.Random(1600)
    for trial in range(3):
        s = [rng.getrandbits(64) if trial else 0 for _ in range(25)]
        regs = _run_lazy(p.code, s)
        if [regs[out["final"][i]] for i in range(25)] != keccak.permute(s):
            raise AssertionError("keccak a64 gpr plan is wrong")
    return out


@lru_cache(maxsize=None)
def plan(body: str) -> dict:
    if body == "gpr":
        out = _plan_gpr()
        kinds = {}
        for o in out["code"]:
            kinds[o["k"]] = kinds.get(o["k"], 0) + 1
        out["kinds"] = kinds
        return out
    p = _Planner(body)
    for r in range(ROUNDS):
        p.round(r)
    out = dict(body=body, code=p.code, final=[p.reg[i] for i in range(25)],
               free=list(p.free), initial=[(GPR_POOL if body == "gpr" else VEC_POOL)[i]
                                           for i in range(25)],
               saved=GPR_SAVED if body == "gpr" else tuple(f"d{i}" for i in range(8, 16)))
    rng = random.Random(1600)
    for trial in range(3):
        s = [rng.getrandbits(64) if trial else 0 for _ in range(25)]
        regs = _run(p.code, s, body)
        if [regs[out["final"][i]] for i in range(25)] != keccak.permute(s):
            raise AssertionError(f"keccak a64 {body} plan is wrong")
    kinds = {}
    for o in p.code:
        kinds[o["k"]] = kinds.get(o["k"], 0) + 1
    out["kinds"] = kinds
    return out
