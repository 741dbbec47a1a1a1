# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Symbolic execution of one function: instructions in order, branches taken only where
their condition is a constant (loop counters and pointers are concrete offsets from the
argument pointers; a branch on data is an error unless the caller allows it). Loops are
run to completion, so every iteration's body is executed and proved; the number of times
each back edge is taken is recorded for the loop-structure check. At `ret` the stack
pointer and the callee-saved registers must hold their values at entry (the return address
and the caller's memory cannot have changed: machine.py allows stack writes only within
the declared frame below the return address), and the upper halves of ymm0-15 must be
those of the entry (untouched: SSE code) or zero (vzeroupper), so that no caller pays the
AVX-SSE transition; `ret $n` is refused. The direction flag is preserved as no instruction
with a semantics writes it (std, cld and the string instructions have none). The status
flags at entry are unknown: reading one that no instruction has written fails the run
(machine.Flags), and every memory operand of a form that requires alignment is checked
against what its base guarantees (semantics.check_alignment, machine.alignment)."""
import z3
from . import semantics as S
from .machine import Machine, ExecError, CALLEE_SAVED, simp

MAX_STEPS = 400000
# No kernel loop runs more than 192 times (one coefficient or group per pass at most); a
# back edge taken 512 times is a loop that does not end as intended (a mutated counter
# would otherwise spin to the step limit, minutes at the executor's speed).
MAX_BACK_EDGES = 512
import os
STOP = int(os.environ.get('PROVER_STOP_STEPS', '0'))


def check_return(ins):
    """System V's return is a plain ret: `ret $n` would also pop n bytes of the caller's
    stack, which no System V caller expects."""
    if ins.ops:
        raise ExecError('ret with an operand (%s): the caller\'s %%rsp would end off by it' % ins.text)


def resolve(fn, pc, target):
    if target.endswith(('b', 'f')) and target[:-1].isdigit():
        n = int(target[:-1])
        if target.endswith('b'):
            cands = [i for i, k in fn.numeric if k == n and i <= pc]
            if cands:
                return max(cands)
        else:
            cands = [i for i, k in fn.numeric if k == n and i > pc]
            if cands:
                return min(cands)
    elif target in fn.labels:
        return fn.labels[target]
    raise ExecError('unknown branch target %s' % target)


class Result:
    def __init__(self, m, back_edges, steps):
        self.m = m
        self.back_edges = back_edges
        self.steps = steps
        self.stopped = None


def run(unit, fname, args, pre=None, machine_cls=Machine, after=None, stop=None, frame=0):
    """args: register -> ('ptr', name) | ('val', term). after(m, ins), if given, runs after
    every non-branch instruction (ntt.py closes lane terms there); stop(m, ins), if given,
    ends the run before an instruction (the Result's `stopped` is it). Returns a Result."""
    fn = unit.functions.get(fname)
    if fn is None:
        raise ExecError('no function ' + fname)
    m = machine_cls(unit, args, frame=frame)
    pc = 0
    back = {}
    steps = 0
    while True:
        if pc >= len(fn.insns):
            raise ExecError('%s: fell off the end' % fname)
        ins = fn.insns[pc]
        steps += 1
        m.step = steps
        if STOP and steps > STOP:
            raise ExecError('stop')
        if steps > MAX_STEPS:
            raise ExecError('%s: more than %d steps' % (fname, MAX_STEPS))
        mn = ins.mnem
        if stop and stop(m, ins):
            r = Result(m, back, steps)
            r.stopped = ins
            return r
        try:
            if mn in S.NOPS:
                pc += 1
                continue
            if mn in ('ret', 'retq'):
                check_return(ins)
                if not simp(m.gpr['rsp'] == m.init['rsp']).eq(z3.BoolVal(True)) and \
                        not z3.simplify(m.gpr['rsp'] - m.init['rsp']).eq(z3.BitVecVal(0, 64)):
                    raise ExecError('stack pointer not restored at ret')
                for r in CALLEE_SAVED:
                    if not simp(m.gpr[r] == m.init[r]).eq(z3.BoolVal(True)):
                        raise ExecError('callee-saved %s not restored at ret' % r)
                for i in range(16):
                    up = [simp(x) for x in m.vec[i][4:]]
                    if not (all(z3.is_bv_value(x) and x.as_long() == 0 for x in up) or
                            all(x.eq(z3.BitVec('init_v%d_%d' % (i, j + 4), 32)) for j, x in enumerate(up))):
                        raise ExecError('upper half of ymm%d dirty at ret (no vzeroupper)' % i)
                return Result(m, back, steps)
            if mn == 'jmp' or mn in S.BRANCHES:
                tgt = resolve(fn, pc, ins.ops[0].sym)
                if mn == 'jmp':
                    taken = True
                else:
                    if not m.flags:
                        raise ExecError('branch before any flag was set')
                    c = simp(S.BRANCHES[mn](m.flags))
                    if z3.is_true(c):
                        taken = True
                    elif z3.is_false(c):
                        taken = False
                    else:
                        raise ExecError('branch on a non-constant condition: %s' % ins.text)
                if taken:
                    if tgt <= pc:
                        back[ins.line] = back.get(ins.line, 0) + 1
                        if back[ins.line] > MAX_BACK_EDGES:
                            raise ExecError('back edge taken more than %d times' % MAX_BACK_EDGES)
                    pc = tgt
                else:
                    pc += 1
                continue
            nops, h = S.lookup(mn)
            ops = list(reversed(ins.ops))
            if not mn.startswith('v') and len(ops) == nops - 1 and nops >= 3:
                ops.insert(1, ops[0])
            h(m, ins, ops)
            if after:
                after(m, ins)
        except ExecError as e:
            raise ExecError('%s line %d (%s): %s' % (unit.path, ins.line, ins.text, e))
        pc += 1
