# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Keccak-f[1600] (FIPS 202, section 3) and the proof that a kernel computes it.

The specification is written from FIPS 202 itself, not from the kernels: the state is 25
lanes of 64 bits, lane (x, y) at index x + 5y, bit z of a lane its bit z (FIPS 202's
little-endian string-to-state map, section 3.1.2); one round is iota . chi . pi . rho .
theta (Algorithm 7, steps 1-5), the rho offsets come from the (x, y) -> (y, 2x + 3y) walk
of Algorithm 2, and the round constants from the rc(t) LFSR of Algorithm 5 (Algorithm 6).
The same functions run on Python integers (the spec's own check against hashlib's SHA3)
and on Z3 bit-vectors (the proofs).

The proof of a kernel (prove_kernel): the kernel is executed symbolically (executor.py
for x86, a64.py for AArch64) on a symbolic state; the loop runs with its concrete counter,
so every iteration is executed and every round constant is read from .rodata at the
address the kernel computes. The state is cut at the loop head: a declared invariant
says where each lane of each state sits there (memory, a general register, a quadword of
a vector register) and whether it is kept complemented. At the k-th arrival at the head
every declared location is proved (Z3, bit-vector equality for all values) to hold
round_{R k - 1} ... round_{R (k - 1)}(S_{k-1}) (R the kernel's rounds per iteration; at
the first arrival the input state itself), and is then replaced by a fresh state S_k.
This is sound: the fresh S_k stands for the value just proved, and every later claim is
proved for all S_k. At ret the state in memory must be the last R rounds of the last cut
state, and R times the number of cuts must be 24: by induction the output is
Keccak-f[1600] of the input, for every input. The x86 batches (W states, one per 64-bit
lane) run with one symbolic state in all W lanes under the lane lemma checked on that run
(lane_local.py: lane s of the output is a function G_s of state s alone); every lane of
every output state is proved equal to the spec, so G_s is Keccak-f[1600] for each s. The
neon batches give every state its own variables, each compared with its own spec."""
import time

import z3

W = 64
ROUNDS = 24


def rc_bit(t):
    """FIPS 202 Algorithm 5: rc(t), an 8-bit LFSR."""
    if t % 255 == 0:
        return 1
    R = [1, 0, 0, 0, 0, 0, 0, 0]
    for _ in range(t % 255):
        R = [0] + R
        R[0] ^= R[8]
        R[4] ^= R[8]
        R[5] ^= R[8]
        R[6] ^= R[8]
        R = R[:8]
    return R[0]


def round_constant(ir):
    """FIPS 202 Algorithm 6 step 2-3: RC[2^j - 1] = rc(j + 7 ir), j = 0..6."""
    rc = 0
    for j in range(7):
        rc |= rc_bit(j + 7 * ir) << ((1 << j) - 1)
    return rc


RC = [round_constant(i) for i in range(ROUNDS)]


def rho_offsets():
    """FIPS 202 Algorithm 2: offset of lane (x, y), from the walk (x, y) -> (y, 2x + 3y)."""
    off = [0] * 25
    x, y = 1, 0
    for t in range(24):
        off[x + 5 * y] = ((t + 1) * (t + 2) // 2) % W
        x, y = y, (2 * x + 3 * y) % 5
    return off


RHO = rho_offsets()
MASK = (1 << W) - 1


class IntOps:
    @staticmethod
    def rotl(a, r):
        r %= W
        return ((a << r) | (a >> (W - r))) & MASK if r else a

    @staticmethod
    def inv(a):
        return ~a & MASK

    @staticmethod
    def const(v):
        return v


class Z3Ops:
    @staticmethod
    def rotl(a, r):
        return z3.RotateLeft(a, r % W) if r % W else a

    @staticmethod
    def inv(a):
        return ~a

    @staticmethod
    def const(v):
        return z3.BitVecVal(v, W)


def theta(A, o):
    C = [A[x] ^ A[x + 5] ^ A[x + 10] ^ A[x + 15] ^ A[x + 20] for x in range(5)]
    D = [C[(x - 1) % 5] ^ o.rotl(C[(x + 1) % 5], 1) for x in range(5)]
    return [A[x + 5 * y] ^ D[x] for y in range(5) for x in range(5)]


def rho(A, o):
    return [o.rotl(A[i], RHO[i]) for i in range(25)]


def pi(A, o):
    return [A[(x + 3 * y) % 5 + 5 * x] for y in range(5) for x in range(5)]


def chi(A, o):
    return [A[x + 5 * y] ^ (o.inv(A[(x + 1) % 5 + 5 * y]) & A[(x + 2) % 5 + 5 * y])
            for y in range(5) for x in range(5)]


def iota(A, ir, o):
    return [A[0] ^ o.const(RC[ir])] + list(A[1:])


def keccak_round(A, ir, o=Z3Ops):
    return iota(chi(pi(rho(theta(A, o), o), o), o), ir, o)


def keccak_f(A, o=IntOps, rounds=range(ROUNDS)):
    for ir in rounds:
        A = keccak_round(A, ir, o)
    return A


def check_spec():
    """the spec against an independent implementation: SHA3-256 and SHAKE128 of a few
    messages (one block each) through the spec's permutation equal hashlib's."""
    import hashlib

    def sponge(msg, rate, pad, outlen):
        block = bytearray(rate)
        block[:len(msg)] = msg
        block[len(msg)] ^= pad
        block[rate - 1] ^= 0x80
        A = [int.from_bytes(block[8 * i:8 * i + 8], 'little') if 8 * i < rate else 0 for i in range(25)]
        A = keccak_f(A)
        return b''.join(a.to_bytes(8, 'little') for a in A)[:outlen]
    for msg in (b'', b'abc', bytes(range(100))):
        if sponge(msg, 136, 0x06, 32) != hashlib.sha3_256(msg).digest():
            return False
        if sponge(msg, 168, 0x1f, 64) != hashlib.shake_128(msg).digest(64):
            return False
    return True


# ---------------------------------------------------------------- normal forms
# A bitwise term (xor, and, or, not, rotations, shifts by constants, extracts and
# concatenations) has a canonical form in the Boolean ring of 64-bit words: a sum (xor) of
# monomials c * a_1 * ... * a_k, c a 64-bit constant (and), each a_i an atom rot(v, r) of
# a 64-bit variable v. Rotation is a ring automorphism, so it moves onto the atoms and
# the constant; a shift is a rotation times a constant mask; an extract of bits [l, h] is
# rot(., -l) masked to h - l + 1 bits; x | y = x + y + x y; ~x = x + 1...1. Atoms are
# idempotent (a a = a), so a monomial is a set of atoms. The form is canonical: at bit z a
# monomial is the product of the bits v[z - r], and distinct atom sets give distinct
# products, so two terms are the same function iff their forms are equal. Equal forms
# are therefore a proof of equality (for every value of the variables); forms that
# differ are a proof of a difference (Z3 is then asked for a counterexample).
class Unsupported(Exception):
    pass


def _rotc(c, r):
    return IntOps.rotl(c, r % W)


# A lane one round after a cut has about 150 monomials (chi's one product of two 11-atom
# sums); a product far beyond that is of a term that spans more than one round (a stale
# register), which is not a lane to match.
PRODUCT_LIMIT = 1 << 16


class Poly:
    __slots__ = ('t',)

    def __init__(self, t):
        self.t = t                      # {frozenset of (var, rot): 64-bit coefficient}

    @staticmethod
    def const(c):
        return Poly({frozenset(): c & MASK} if c & MASK else {})

    @staticmethod
    def var(name, rot=0, mask=MASK):
        return Poly({frozenset([(name, rot % W)]): mask})

    def __xor__(self, o):
        t = dict(self.t)
        for k, c in o.t.items():
            v = t.get(k, 0) ^ c
            if v:
                t[k] = v
            else:
                t.pop(k, None)
        return Poly(t)

    def __and__(self, o):
        if isinstance(o, int):
            return Poly({k: c & o for k, c in self.t.items() if c & o})
        if len(self.t) * len(o.t) > PRODUCT_LIMIT:
            raise Unsupported('a product of %d x %d monomials' % (len(self.t), len(o.t)))
        t = {}
        for k1, c1 in self.t.items():
            for k2, c2 in o.t.items():
                c = c1 & c2
                if c:
                    k = k1 | k2
                    v = t.get(k, 0) ^ c
                    if v:
                        t[k] = v
                    else:
                        del t[k]
        return Poly(t)

    def __or__(self, o):
        return self ^ o ^ (self & o)

    def rot(self, r):
        r %= W
        if not r:
            return self
        return Poly({frozenset((v, (s + r) % W) for v, s in k): _rotc(c, r) for k, c in self.t.items()})

    def eval(self, env):
        """the value at env (variable name -> 64-bit value); None if a variable is not in env."""
        acc = 0
        for k, c in self.t.items():
            for v, r in k:
                x = env.get(v)
                if x is None:
                    return None
                c &= _rotc(x, r)
                if not c:
                    break
            acc ^= c
        return acc

    def __eq__(self, o):
        return self.t == o.t

    def __hash__(self):
        return hash(frozenset(self.t.items()))


class PolyOps:
    @staticmethod
    def rotl(a, r):
        return a.rot(r)

    @staticmethod
    def inv(a):
        return a ^ Poly.const(MASK)

    @staticmethod
    def const(v):
        return Poly.const(v)


def _mask(w):
    return (1 << w) - 1


class Normalizer:
    """z3 term -> Poly (memoized by term id). var_map: name of a variable -> (64-bit
    variable name, bit offset) for the 32-bit halves of an input lane."""

    def __init__(self, var_map=None):
        self.memo = {}
        self.var_map = var_map or {}

    def __call__(self, t):
        k = t.get_id()
        hit = self.memo.get(k)
        if hit is None:
            # the term is kept with its form: an id is reused once its term is freed
            hit = self.memo[k] = (t, self._norm(t))
        return hit[1]

    def _boolfun(self, t, most=4):
        """t an or/and/not tree over at most `most` other terms (vpternlogq's minterms):
        its truth table's algebraic normal form (Moebius transform) over their forms, so
        that a ^ (~b & c) costs one product, not the products of its minterms. None if the
        tree has more leaves."""
        leaves, seen, stack = [], set(), [t]
        conn = (z3.Z3_OP_BOR, z3.Z3_OP_BAND, z3.Z3_OP_BNOT)
        while stack:
            x = stack.pop()
            if z3.is_app(x) and x.decl().kind() in conn:
                stack.extend(x.children())
            elif x.get_id() not in seen:
                seen.add(x.get_id())
                leaves.append(x)
                if len(leaves) > most:
                    return None
        idx = {x.get_id(): n for n, x in enumerate(leaves)}
        k = len(leaves)

        def ev(x, bits, memo):
            i = x.get_id()
            if i in idx:
                return (bits >> idx[i]) & 1
            if i not in memo:
                kd = x.decl().kind()
                vs = [ev(c, bits, memo) for c in x.children()]
                memo[i] = (1 - vs[0]) if kd == z3.Z3_OP_BNOT else (int(any(vs)) if kd == z3.Z3_OP_BOR else int(all(vs)))
            return memo[i]
        anf = [ev(t, b, {}) for b in range(1 << k)]
        for i in range(k):                      # Moebius transform: truth table -> ANF
            for b in range(1 << k):
                if b >> i & 1:
                    anf[b] ^= anf[b ^ (1 << i)]
        forms = [self(x) for x in leaves]
        out = Poly({})
        for b in range(1 << k):
            if anf[b]:
                p = Poly.const(_mask(t.size()))
                for i in range(k):
                    if b >> i & 1:
                        p = p & forms[i]
                out = out ^ p
        return out

    def _norm(self, t):
        w = t.size()
        if w > W:
            raise Unsupported('a %d-bit term' % w)
        if z3.is_bv_value(t):
            return Poly.const(t.as_long())
        if z3.is_const(t):
            n = str(t)
            if n in self.var_map:
                v, off = self.var_map[n]
                return Poly.var(v, -off, _mask(w))
            if w != W:
                raise Unsupported('a %d-bit variable %s' % (w, n))
            return Poly.var(n)
        kind = t.decl().kind()
        args = t.children()
        if kind == z3.Z3_OP_BXOR:
            p = self(args[0])
            for a in args[1:]:
                p = p ^ self(a)
            return p
        if kind == z3.Z3_OP_BAND:
            p = self(args[0])
            for a in args[1:]:
                p = p & self(a)
            return p
        if kind == z3.Z3_OP_BOR:
            f = self._boolfun(t)
            if f is not None:
                return f
            p = self(args[0])
            for a in args[1:]:
                p = p | self(a)
            return p
        if kind == z3.Z3_OP_BNOT:
            return self(args[0]) ^ Poly.const(_mask(w))
        if kind == z3.Z3_OP_EXTRACT:
            h, l = t.params()
            return self(args[0]).rot(-l) & _mask(h - l + 1)
        if kind == z3.Z3_OP_CONCAT:
            p, sh = Poly({}), 0
            for a in reversed(args):
                p = p ^ self(a).rot(sh)
                sh += a.size()
            return p
        if kind == z3.Z3_OP_ZERO_EXT:
            return self(args[0])
        if kind in (z3.Z3_OP_ROTATE_LEFT, z3.Z3_OP_ROTATE_RIGHT):
            if w != W:
                raise Unsupported('a %d-bit rotation' % w)
            r = t.params()[0]
            return self(args[0]).rot(r if kind == z3.Z3_OP_ROTATE_LEFT else -r)
        if kind in (z3.Z3_OP_EXT_ROTATE_LEFT, z3.Z3_OP_EXT_ROTATE_RIGHT) and z3.is_bv_value(args[1]) \
                and w == W:
            r = args[1].as_long() % W
            return self(args[0]).rot(r if kind == z3.Z3_OP_EXT_ROTATE_LEFT else -r)
        if kind in (z3.Z3_OP_BSHL, z3.Z3_OP_BLSHR) and z3.is_bv_value(args[1]):
            r = args[1].as_long()
            if r >= w:
                return Poly({})
            if kind == z3.Z3_OP_BSHL:
                return self(args[0]).rot(r) & (_mask(w) & ~_mask(r))
            return self(args[0]).rot(-r) & _mask(w - r)
        if kind == z3.Z3_OP_BMUL and len(args) == 2 and z3.is_bv_value(args[0]):
            c = args[0].as_long()               # x + x, as Z3 writes it: 2 * x
            if c and c & (c - 1) == 0:
                r = c.bit_length() - 1
                return self(args[1]).rot(r) & (_mask(w) & ~_mask(r))
        if kind == z3.Z3_OP_BADD and len(args) == 2 and args[0].eq(args[1]):
            return self(args[0]).rot(1) & (_mask(w) & ~1)
        raise Unsupported('%s' % t.decl().name())


# ---------------------------------------------------------------- the proof
class KeccakFailure(Exception):
    pass


def prove_equal(pairs, what, norm, timeout_ms=120000):
    """every (name, got term, want Poly, want term) equal for all values of the variables:
    by the normal forms (canonical: equal forms are a proof); a term outside the forms'
    operations goes to Z3; a difference of forms is a failure, with Z3's counterexample."""
    secs = 0.0
    for name, got, want_p, want_t in pairs:
        try:
            if norm(got) == want_p:
                continue
            differs = True
        except Unsupported:
            differs = False
        s = z3.Solver()
        s.set('timeout', timeout_ms if not differs else 20000)
        s.add(got != want_t())
        t = time.time()
        r = s.check()
        secs += time.time() - t
        if r == z3.sat:
            mdl = s.model()
            raise KeccakFailure('%s: %s differs from FIPS 202 (e.g. got %s, want %s)'
                                % (what, name, mdl.eval(got, True), mdl.eval(want_t(), True)))
        if differs:
            raise KeccakFailure('%s: %s differs from FIPS 202 (normal forms differ)' % (what, name))
        if r != z3.unsat:
            raise KeccakFailure('%s: %s unfinished (Z3 %s)' % (what, name, s.reason_unknown()))
    return secs


class Loc:
    """a place that may hold a lane at a cut: ('mem', base, byte offset), ('gpr', name) or
    ('vec', register, quadword)."""

    def __init__(self, kind, a, b=None):
        self.kind, self.a, self.b = kind, a, b

    def __repr__(self):
        return '%s %s%s' % (self.kind, self.a, '' if self.b is None else ':%s' % self.b)


def column_parities(A):
    return [A[x] ^ A[x + 5] ^ A[x + 10] ^ A[x + 15] ^ A[x + 20] for x in range(5)]


class Cutter:
    """the cut at each round's start (see the module docstring). At a cut the expected
    states (one round after the last cut's, the input state at the first) are known; the
    machine's locations (`places(m)`, read and written by `access`) are evaluated at two
    random points to find which location holds which lane of which state, complemented
    or not, rotated by how much (lazy rotation), or a column parity C[x] (a body that
    accumulates the next round's parities while it stores the state); that is only a
    guess: each location so matched is then proved equal to it for all values, and
    replaced by the same function of fresh variables. Locations not matched keep their
    terms (sound: they are then functions of older variables, which every later proof
    also quantifies over). lane_of(loc), for a batch run on one state shared by its
    `lanes` lanes: the lane a location belongs to (None: none), so that a lane left out
    fails at the cut where it is lost, not at ret (the claim itself is at_end's)."""

    def __init__(self, nstates, access, places, rotations=False, lane_of=None, lanes=1):
        self.W = nstates
        self.lane_of = lane_of
        self.lanes = lanes
        self.access = access
        self.places = places
        self.rotations = rotations
        self.cuts = 0
        self.state = None             # the current symbolic states (lists of 25 terms)
        self.secs = 0.0
        self.log = []

    def expected(self):
        """(Poly states, z3 states) one round after the last cut's."""
        r = self.cuts - 1
        if r >= ROUNDS:
            raise KeccakFailure('a round start reached after round 23: more than 24 rounds')
        return ([keccak_round(st, r, PolyOps) for st in self.state_p],
                [keccak_round(st, r, Z3Ops) for st in self.state])

    def candidates(self, vals):
        """value -> (state, kind, index, rotation, complemented) for the lanes and column
        parities of the concrete states vals."""
        table = {}
        for j, st in enumerate(vals):
            items = [('lane', i, v) for i, v in enumerate(st)] + \
                [('C', x, v) for x, v in enumerate(column_parities(st))]
            for kind, i, v in items:
                for r in (range(W) if self.rotations else (0,)):
                    rv = IntOps.rotl(v, r)
                    table.setdefault(rv, (j, kind, i, r, False))
                    table.setdefault(rv ^ MASK, (j, kind, i, r, True))
        return table

    @staticmethod
    def form(states, j, kind, i, r, inv, o):
        v = states[j][i] if kind == 'lane' else column_parities(states[j])[i]
        v = o.rotl(v, r)
        return o.inv(v) if inv else v

    def at_cut(self, m, want, var_of, var_map=None):
        """want: the expected states (Poly, z3); var_of(rng) -> (the variables' values,
        the concrete states) at one random point; var_map: the normalizer's renaming of
        the input's 32-bit halves."""
        import random
        want_p, want_z = want
        rng = random.Random(1600 + self.cuts)
        points = [var_of(rng) for _ in range(2)]
        tables = [self.candidates(vals) for _, vals in points]
        norm = Normalizer(var_map)
        found = []
        for loc in self.places(m):
            t = self.access(m, loc)
            if z3.is_const(t) or t.size() != W:
                continue
            try:
                p = norm(t)
            except Unsupported:
                continue
            keys = []
            for (env, _), table in zip(points, tables):
                v = p.eval(env)
                if v is None:
                    break
                keys.append(table.get(v))
            if len(keys) == 2 and keys[0] is not None and keys[0] == keys[1]:
                found.append((loc, t, keys[0]))
        if self.lane_of:
            lanes = {(self.lane_of(loc), i) for loc, _, (j, kind, i, r, inv) in found if kind == 'lane'}
            missing = [(j, i) for j in range(self.lanes) for i in range(25) if (j, i) not in lanes]
        else:
            lanes = {(j, i) for _, _, (j, kind, i, r, inv) in found if kind == 'lane'}
            missing = [(j, i) for j in range(self.W) for i in range(25) if (j, i) not in lanes]
        what = 'start of round %d' % self.cuts if self.cuts else 'entry'
        if missing:
            raise KeccakFailure('%s: lane %d of state %d is in no register or memory cell' % (
                what, missing[0][1], missing[0][0]))
        pairs = [('state %d %s %d%s%s at %r' % (j, kind, i, ' rotated by %d' % r if r else '',
                                                 ' complemented' if inv else '', loc),
                  t, self.form(want_p, j, kind, i, r, inv, PolyOps),
                  lambda key=(j, kind, i, r, inv): self.form(want_z, *key, o=Z3Ops))
                 for loc, t, (j, kind, i, r, inv) in found]
        self.secs += prove_equal(pairs, what, norm)
        self.log.append(len(found))
        fresh = [[z3.BitVec('S%d_%d_%d' % (self.cuts, j, i), 64) for i in range(25)] for j in range(self.W)]
        for loc, _, key in found:
            self.access(m, loc, self.form(fresh, *key, o=Z3Ops))
        self.state = fresh
        self.state_p = [[Poly.var(str(v)) for v in st] for st in fresh]
        self.cuts += 1

    def at(self, m, off):
        """the cut at a round start: the input state in memory at the first (lane i of
        state j: the two input dwords at byte offset off(j, i) of the buffer 's'), one
        round after the last cut's at the others."""
        if self.cuts:
            return self.at_round(m)
        Wn = self.W

        def var_of(rng):
            vals = [[rng.getrandbits(W) for _ in range(25)] for _ in range(Wn)]
            return {'X_%d_%d' % (j, i): vals[j][i] for j in range(Wn) for i in range(25)}, vals
        want = [[z3.Concat(m.input_var('s', off(j, i) // 4 + 1), m.input_var('s', off(j, i) // 4))
                 for i in range(25)] for j in range(Wn)]
        want_p = [[Poly.var('X_%d_%d' % (j, i)) for i in range(25)] for j in range(Wn)]
        var_map = {}
        for j in range(Wn):
            for i in range(25):
                var_map[str(m.input_var('s', off(j, i) // 4))] = ('X_%d_%d' % (j, i), 0)
                var_map[str(m.input_var('s', off(j, i) // 4 + 1))] = ('X_%d_%d' % (j, i), 32)
        self.at_cut(m, (want_p, want), var_of, var_map)

    def var_of_state(self, rng):
        vals = [[rng.getrandbits(W) for _ in range(25)] for _ in range(self.W)]
        env = {str(self.state[j][i]): vals[j][i] for j in range(self.W) for i in range(25)}
        return env, [keccak_f(st, IntOps, [self.cuts - 1]) for st in vals]

    def at_round(self, m):
        self.at_cut(m, self.expected(), self.var_of_state)

    def at_end(self, got_states, spec_of=lambda j: j):
        """got_states[j][i]: lane i of state j in memory at ret, to equal the spec of the
        symbolic state spec_of(j) (0 for every j when the lanes share one)."""
        if self.cuts != ROUNDS:
            raise KeccakFailure('%d round starts reached: not 24 rounds' % self.cuts)
        want_p, want_z = self.expected()
        pairs = [('state %d lane %d' % (j, i), got_states[j][i], want_p[spec_of(j)][i],
                  lambda j=j, i=i: want_z[spec_of(j)][i])
                 for j in range(len(got_states)) for i in range(25)]
        self.secs += prove_equal(pairs, 'at ret (round 23)', Normalizer())


def round_starts(unit, fn):
    """the instructions where a round starts: the first after each `---- round` comment of
    the .S (a hint only: the state found there is proved, whatever the comment says)."""
    import re
    lines = [n + 1 for n, l in enumerate(unit.lines)
             if re.match(r'\s*(#|//) ---- round \d+', l)]
    out = []
    for ln in lines:
        after = [k for k, ins in enumerate(fn.insns) if ins.line > ln]
        if after and (not fn.insns or fn.insns[0].line < ln):
            out.append(fn.insns[after[0]])
    if not out:
        raise KeccakFailure('no round start found in %s' % fn)
    return out


# ---------------------------------------------------------------- x86
def x86_access(m, loc, value=None):
    """read (value None) or replace a lane at a location of the x86 machine; a read at the
    cut leaves no trace entry (the trace is the kernel's own accesses)."""
    if loc.kind == 'mem':
        if value is None:
            n = len(m.trace)
            t = m.load(loc.a, loc.b, 8)
            del m.trace[n:]
            return t
        m.sid = getattr(m, 'sid', 0) + 1
        for i in range(8):
            m.mem[(loc.a, loc.b + i)] = (m.sid, value, i, 8, loc.b)
        return None
    if loc.kind == 'gpr':
        if value is None:
            return m.gpr[loc.a]
        m.gpr[loc.a] = value
        return None
    if loc.kind == 'vec':
        v = m.vec[loc.a]
        if value is None:
            return z3.Concat(v[2 * loc.b + 1], v[2 * loc.b])
        v = list(v)                     # registers may share one list (moves)
        v[2 * loc.b] = z3.Extract(31, 0, value)
        v[2 * loc.b + 1] = z3.Extract(63, 32, value)
        m.vec[loc.a] = v
        return None
    raise KeccakFailure('unknown location %r' % loc)


def head_index(fn, label=1):
    """the instruction index of the loop head (numeric label `label`, the only one)."""
    idx = [i for i, k in fn.numeric if k == label]
    if len(idx) != 1:
        raise KeccakFailure('expected one loop head label %d:, found %d' % (label, len(idx)))
    return idx[0]


def check_bounds(trace, base, size):
    """every access of the kernel to the caller's memory lies within the state buffer."""
    for step, kind, b, off, nb in trace:
        if b in ('rodata', 'stack'):
            continue
        if b != base:
            raise KeccakFailure('access to %s, which is not the state buffer' % b)
        if off < 0 or off + nb > size:
            raise KeccakFailure('%s of %s bytes [%d, %d): outside [0, %d)' % (
                'write' if kind == 'w' else 'read', b, off, off + nb, size))


def x86_places(frame, size):
    """every location that may hold a lane: the 16 general registers but %rsp, the
    quadwords of zmm0-31, the state buffer's and the stack frame's quadwords."""
    from .machine import GPR64

    def places(m):
        out = [Loc('gpr', r) for r in GPR64 if r != 'rsp']
        out += [Loc('vec', v, q) for v in range(32) for q in range(8)]
        out += [Loc('mem', 's', o) for o in range(0, size, 8)]
        out += [Loc('mem', 'stack', o) for o in range(-frame, 0, 8) if ('stack', o) in m.mem]
        return out
    return places


def shared_states_machine(base_cls, W):
    """a Machine whose state buffer holds one symbolic state in all W lanes: the input
    dword of lane i of any state is lane i of state 0's (the instance of the lane lemma,
    lane_local.py, in which every lane's computation is proved)."""
    class SharedStates(base_cls):
        def input_var(self, base, idx):
            if base == 's':
                q = idx // 2                    # lane q // W of state q % W
                idx = 2 * W * (q // W) + idx % 2
            return base_cls.input_var(self, base, idx)
    return SharedStates


def prove_x86(unit, fname, kd):
    """kd: the kernel description (KERNELS_X86): states W, stack frame, and the offset of
    lane i of state j in the buffer (the C side's layout). A batch (W > 1) runs on one
    symbolic state shared by its W lanes, under the lane lemma checked on that run."""
    from .executor import run
    from .lane_local import LaneCheck
    from .machine import Machine
    fn = unit.functions.get(fname)
    if fn is None:
        raise KeccakFailure('no function ' + fname)
    starts = {id(i) for i in round_starts(unit, fn)}
    Wn = kd['states']
    size = 200 * Wn
    off = kd['offset']
    lanes = LaneCheck(Wn) if Wn > 1 else None
    cut = Cutter(1, x86_access, x86_places(kd['frame'], size), lane_of=lanes and lanes.lane_of, lanes=Wn)
    machine = kd.get('machine') or Machine
    if lanes:
        machine = shared_states_machine(machine, Wn)

    def stop(m, ins):
        if lanes:
            lanes.check(m, ins)
        if id(ins) in starts:
            cut.at(m, off)
        return False
    t = time.time()
    res = run(unit, fname, {'rdi': ('ptr', 's')}, stop=stop, frame=kd['frame'], machine_cls=machine)
    m = res.m
    check_bounds(m.trace, 's', size)
    if lanes:
        lanes.check_trace(m.trace)
    t_exec = time.time() - t - cut.secs
    got = [[x86_access(m, Loc('mem', 's', off(j, i))) for i in range(25)] for j in range(Wn)]
    cut.at_end(got, lambda j: 0)
    return cut, res, t_exec


KERNELS_X86 = {
    # lane i of state j at states[i W + j] (src/fips202x.h)
    ('sse2', 'keccak_f1600_x1'): dict(states=1, frame=6 * 8 + 200, offset=lambda j, i: 8 * i),
    ('avx2', 'keccak_f1600_x1'): dict(states=1, frame=6 * 8 + 200, offset=lambda j, i: 8 * i),
    ('sse2', 'keccak_f1600_batch'): dict(states=2, frame=8 + 400 + 8, offset=lambda j, i: 8 * (2 * i + j),
                                         entry_mods=(8,)),
    ('avx512', 'keccak_f1600_x1'): dict(states=1, frame=0, offset=lambda j, i: 8 * i),
    ('avx2', 'keccak_f1600_batch'): dict(states=4, frame=8 + 800 + 24, offset=lambda j, i: 8 * (4 * i + j),
                                         entry_mods=(8, 24)),
    ('avx512', 'keccak_f1600_batch'): dict(states=8, frame=0, offset=lambda j, i: 8 * (8 * i + j)),
}


def prove_into(rep, states, run):
    """the permutation's obligation into rep: run() -> (the Cutter, the run's result,
    execution seconds, a note) proves it, any exception is a failure. The run's result,
    or None."""
    t = time.time()
    if not check_spec():
        rep.fail('FIPS 202 spec', 'the spec does not give hashlib\'s SHA3-256 / SHAKE128')
        return None
    try:
        cut, res, t_exec, note = run()
    except Exception as e:
        rep.fail('Keccak-f[1600] = FIPS 202', '%s: %s' % (type(e).__name__, e))
        return None
    rep.ok('Keccak-f[1600] = FIPS 202, all %d-bit inputs' % (1600 * states),
           '%d state%s, 24 round starts, %d-%d locations proved at each; RC from .rodata; '
           'execution and normal forms %.1f s, Z3 %.1f s%s' % (
               states, 's' if states > 1 else '', min(cut.log), max(cut.log), t_exec, cut.secs, note),
           time.time() - t)
    return res


def prove_kernel_x86(unit, isa, kernel, rep):
    """the obligations of one x86 Keccak kernel, into rep."""
    kd = KERNELS_X86[(isa, kernel)]
    fname = 'mldsa_%s_%s' % (kernel, isa)
    mods = kd.get('entry_mods')

    def run():
        for mod in (mods or (None,)):
            cut, res, t_exec = prove_x86(unit, fname, dict(kd, machine=aligned_stack_machine(mod)) if mods else kd)
            a = getattr(res.m, 'aligned', 1)
            need = {(8 + 16 * t) % a for t in range(4)} if a > 16 else set()
            if not need <= {x % a for x in mods or ()}:
                raise KeccakFailure('%%rsp aligned to %d: entry residues %s not all proved' % (a, sorted(need)))
        note = '; per entry %%rsp residue %s' % (mods,) if mods else ''
        if kd['states'] > 1:
            note += '; every instruction lane-local (lane_local.py), so one symbolic state in all %d lanes' \
                % kd['states']
        return cut, res, t_exec, note
    res = prove_into(rep, kd['states'], run)
    if res is not None:
        rep.ok('memory and ABI', 'state buffer [0, %d) only, stack within the %d-byte frame, '
               'callee-saved and %%rsp restored, back edges %s' % (200 * kd['states'], kd['frame'],
                                                                  sorted(res.back_edges.values())), 0.0)


def aligned_stack_machine(entry_mod):
    """a Machine whose entry %rsp is entry_mod modulo 2^k for the alignment 2^k the kernel
    applies (System V: 8 modulo 16 at entry; the proof runs once per residue the kernel
    declares, and prove_kernel_x86 checks that they cover every residue 8 + 16 t modulo
    the alignment used): `and $-2^k, %rsp` then gives a stack address base + constant,
    the constant proved (Z3) to be the value's for every stack base with that residue."""
    from .machine import Machine, ExecError

    class AlignedStack(Machine):
        def wr_gpr(self, name, value):
            if name == 'rsp':
                value = z3.simplify(value)
                try:
                    self.split_addr(value)
                except ExecError:
                    value = self.realign(value)
            Machine.wr_gpr(self, name, value)

        def realign(self, value):
            """value: the new %rsp, computed from the current one (stack + off): the
            first alignment 2^k whose aligned offset Z3 proves equal to it."""
            from .machine import ExecError
            base, off = self.split_addr(self.gpr['rsp'])
            if base != 'stack':
                raise ExecError('%rsp is not a stack address')
            p = self.base('stack')
            for k in range(1, 7):
                cand = p + (((entry_mod + off) & -(1 << k)) - entry_mod)
                s = z3.Solver()
                s.add(z3.Extract(k - 1, 0, p) == entry_mod % (1 << k), value != cand)
                if s.check() == z3.unsat:
                    self.aligned = max(getattr(self, 'aligned', 1), 1 << k)
                    return z3.simplify(cand)
            raise ExecError('%%rsp = %s: not the stack base + a constant' % value)
    return AlignedStack


if __name__ == '__main__':
    import sys
    from . import asm
    from .kernels import Report
    isa = sys.argv[1]
    r = Report(isa, 'keccak_f1600_batch')
    prove_kernel_x86(asm.parse('asm_out/%s/keccak_f1600_batch.S' % isa), isa, 'keccak_f1600_batch', r)
    for it in r.items:
        print(it)
