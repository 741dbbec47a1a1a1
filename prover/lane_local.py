# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The batched kernels' lane lemma: every 64-bit lane of every vector is computed only
from the same lane, so lane s of the output is a function of state s alone.

Checked on the run itself (keccak.py's batched proof), instruction by instruction before
it executes, and on the run's memory trace after it. The control flow and every address
are concrete in that run (the executor refuses anything else), so every input takes the
same path through the same instructions at the same addresses. A vector register's
quadword q is lane q (a register is exactly W quadwords wide); the state buffer's
quadword at byte o is lane (o / 8) mod W (lane i of state j at 8 (W i + j)); a stack
quadword used by a vector instruction is lane ((o - c) / 8) mod W, c one phase for the
whole run. Then:
- a vector instruction is in LOCAL (each output quadword a function of the same quadword
  of its register operands and of constants: bitwise, 64-bit adds, shifts and rotations
  by an immediate, moves), or is vpshufb with a concrete control that takes every byte
  from its own quadword (or zeroes it), or vpbroadcastq of a .rodata constant, or
  vzeroupper (upper quadwords set to 0); no opmask, no general-register or vector-count
  operand, every register operand W quadwords wide;
- a vector memory operand on the state buffer or the stack is a whole W-quadword vector
  at an offset of the lane phase (0 for the buffer); .rodata operands are constants;
- a scalar instruction is in SCALAR and has no memory operand (lea computes an address,
  reads nothing); push and pop reach the stack only in bytes no vector instruction
  touches (so no lane's data can pass through a general register: nothing moves a vector
  to a general register, and no general register's value reaches a vector).
By induction over the run every lane's value is a function of its own lane's inputs and
constants, and the same run with all W states equal to one symbolic state X proves, for
each lane s, G_s(X) = the spec of X for all X: that is the claim for every state of
every input (lanes may differ in their constants; each is proved)."""
from .machine import GPR, vreg
from .semantics import CONTROL, NOPS

LOCAL = set('pxor por pand pandn vpxor vpor vpand vpandn vpxorq vporq vpandq vpandnq '
            'paddq vpaddq movdqa movdqu vmovdqa vmovdqu vmovdqa32 vmovdqu32 vmovdqa64 vmovdqu64 '
            'psllq psrlq vpsllq vpsrlq vprolq vpternlogq'.split())
BY_IMMEDIATE = set('psllq psrlq vpsllq vpsrlq vprolq vpternlogq'.split())
SPECIAL = {'pshufb', 'vpshufb', 'vpbroadcastq', 'vzeroupper'}
SCALAR = set('mov lea sub add and dec push pop'.split())


class NotLaneLocal(Exception):
    pass


class LaneCheck:
    """the lemma for a kernel of `lanes` quadwords per vector: check(m, ins) before each
    instruction runs, check_trace(m.trace) after the run."""

    def __init__(self, lanes):
        self.W = lanes
        self.vector_steps = set()
        self.phase = {'s': 0}
        self.checked = 0

    def fail(self, ins, why):
        raise NotLaneLocal('line %d (%s): %s' % (ins.line, ins.text, why))

    def check(self, m, ins):
        mn = ins.mnem
        self.checked += 1
        if mn in NOPS or mn in CONTROL:
            return
        if mn in SCALAR:
            for op in ins.ops:
                if op.kind == 'reg' and op.reg not in GPR:
                    self.fail(ins, 'a scalar instruction with a vector operand')
                if op.kind == 'mem' and mn != 'lea':
                    self.fail(ins, 'a scalar memory access')
            return
        if mn not in LOCAL and mn not in SPECIAL:
            self.fail(ins, 'not a lane-local instruction')
        self.vector_steps.add(m.step)
        if mn in BY_IMMEDIATE and ins.ops[0].kind != 'imm':
            self.fail(ins, 'a count or selector that is not an immediate (psllq %xmm: lane 0 for all)')
        for k, op in enumerate(ins.ops):
            if op.mask or op.zero:
                self.fail(ins, 'an opmask')
            if op.kind == 'imm':
                if mn not in BY_IMMEDIATE or k != 0:
                    self.fail(ins, 'an immediate operand where none is lane-uniform')
            elif op.kind == 'reg':
                v = vreg(op.reg)
                if not v or v[1] != 2 * self.W:
                    self.fail(ins, '%s is not a %d-quadword vector register' % (op.reg, self.W))
            elif op.kind == 'mem':
                self.memory(m, ins, op)
            else:
                self.fail(ins, 'operand %s' % op.text)
        if mn in ('pshufb', 'vpshufb'):
            self.shuffle_control(m, ins, ins.ops[0])
        if mn == 'vpbroadcastq' and ins.ops[0].kind != 'mem':
            self.fail(ins, 'a broadcast of a register (lane 0 to every lane)')

    def memory(self, m, ins, op):
        base, off = m.addr(op)
        if base == 'rodata':
            return                      # a constant in every lane
        if op.bcst or ins.mnem == 'vpbroadcastq':
            self.fail(ins, 'a broadcast from %s' % base)
        size = 8 * self.W
        phase = self.phase.setdefault(base, off % size)
        if off % size != phase:
            self.fail(ins, '%s at %d: not a whole vector at lane phase %d' % (base, off, phase))

    def shuffle_control(self, m, ins, op):
        """every byte k of the result from a byte of k's own quadword, or zero."""
        import z3
        if op.kind == 'mem':
            base, off = m.addr(op)
            if base != 'rodata':
                self.fail(ins, 'a shuffle control not in .rodata')
            ctl = list(m.unit.rodata[off:off + 8 * self.W])
        else:
            ds = [z3.simplify(d) for d in m.vec[vreg(op.reg)[0]][:2 * self.W]]
            if not all(z3.is_bv_value(d) for d in ds):
                self.fail(ins, 'a shuffle control that is not a constant')
            ctl = [(d.as_long() >> (8 * b)) & 0xff for d in ds for b in range(4)]
        if len(ctl) != 8 * self.W:
            self.fail(ins, 'a shuffle control past .rodata')
        for k, c in enumerate(ctl):
            if not c & 0x80 and (c & 15) // 8 != (k % 16) // 8:
                self.fail(ins, 'byte %d of the result from byte %d of the other quadword' % (k, c & 15))

    def lane_of(self, loc):
        """the lane of a keccak.Loc: a vector quadword's index, a buffer or stack quadword's
        by its offset and phase; None for a general register (no lane reaches one)."""
        if loc.kind == 'vec':
            return loc.b if loc.b < self.W else None
        if loc.kind == 'mem' and loc.a in self.phase:
            return (loc.b - self.phase[loc.a]) // 8 % self.W
        return None

    def check_trace(self, trace):
        """the state buffer is reached only by vector instructions; the stack's vector and
        scalar bytes are disjoint."""
        vec_bytes, gpr_bytes = set(), set()
        for step, kind, base, off, nb in trace:
            vector = step in self.vector_steps
            if base == 's' and not vector:
                raise NotLaneLocal('a scalar access to the state buffer at %d' % off)
            if base == 'stack':
                (vec_bytes if vector else gpr_bytes).update(range(off, off + nb))
        both = vec_bytes & gpr_bytes
        if both:
            raise NotLaneLocal('stack byte %d used by both vector and scalar instructions' % min(both))
