# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The AArch64 Keccak-f[1600] bodies proved equal to FIPS 202's permutation: keccak.py's
method (the cut at each of the 24 round starts, the normal forms, the check at ret) on
prover/a64.py's machine.

The bodies are straight-line (24 rounds unrolled, no branch: checked), so a cut taken
after the instruction before a round start is the cut at that start. The lanes may sit in
x0-x30 (the _base GPR body keeps each lane rotated by a pending amount: the cut looks for
every rotation of every lane), in either 64-bit half of v0-v31 (the batch: state j in
half j; x1's _sha3: the low halves), in the state buffer or in the stack frame. At ret
the buffer must hold round 23 of the last cut, every access lies within the buffer or the
frame, and a64.run checks AAPCS64 (sp, x19-x30, d8-d15 as at entry)."""
import time

from . import a64
from .keccak import Cutter, KeccakFailure, Loc, check_bounds, prove_into, round_starts, x86_access

# key (neon_key of the function) -> file, states, the stack frame the body declares
# (x1 _base: the pointer and x19-x30, 112 bytes; the others: d8-d15, 64 bytes), whether
# lanes are kept rotated. Lane i of state j at byte 8 (W i + j) (src/fips202x.h).
KERNELS = {
    'keccak_f1600_x1_base': dict(file='keccak_f1600_x1', states=1, frame=112, rotations=True),
    'keccak_f1600_x1_sha3': dict(file='keccak_f1600_x1', states=1, frame=64),
    'keccak_f1600_batch_base': dict(file='keccak_f1600_batch', states=2, frame=64),
    'keccak_f1600_batch_sha3': dict(file='keccak_f1600_batch', states=2, frame=64),
}


def function_name(key):
    """keccak_f1600_x1_base -> mldsa_keccak_f1600_x1_neon_base"""
    k, _, body = key.rpartition('_')
    return 'mldsa_%s_neon_%s' % (k, body)


def places(frame, size):
    """every location that may hold a lane: x0-x30, the two quadwords of v0-v31, the
    state buffer's and the stack frame's quadwords."""
    def at(m):
        out = [Loc('gpr', 'x%d' % r) for r in range(31)]
        out += [Loc('vec', v, q) for v in range(32) for q in range(2)]
        out += [Loc('mem', 's', o) for o in range(0, size, 8)]
        out += [Loc('mem', 'stack', o) for o in range(-frame, 0, 8) if ('stack', o) in m.mem]
        return out
    return at


def straight_line(fn):
    branches = [i for i in fn.insns if i.mnem in ('b', 'cbz', 'cbnz') or i.mnem.startswith('b.')]
    if branches or fn.labels or fn.numeric:
        raise KeccakFailure('%s is not straight-line (line %d)' % (
            fn.name, branches[0].line if branches else fn.insns[0].line))


def prove_body(unit, key):
    """(the Cutter, the run's result, execution seconds) of one body, or KeccakFailure."""
    kd = KERNELS[key]
    fn = unit.functions.get(function_name(key))
    if fn is None:
        raise KeccakFailure('no function ' + function_name(key))
    straight_line(fn)
    Wn, size = kd['states'], 200 * kd['states']

    def off(j, i):
        return 8 * (Wn * i + j)
    pos = {id(x): n for n, x in enumerate(fn.insns)}
    before = {id(fn.insns[pos[id(s)] - 1]) for s in round_starts(unit, fn) if pos[id(s)] > 0}
    cut = Cutter(Wn, x86_access, places(kd['frame'], size), rotations=kd.get('rotations', False))

    def after(m, ins):
        if id(ins) in before:
            cut.at(m, off)
    t = time.time()
    res = a64.run(unit, fn.name, {'x0': ('ptr', 's')}, frame=kd['frame'], after=after)
    m = res.m
    check_bounds(m.trace, 's', size)
    t_exec = time.time() - t - cut.secs
    cut.at_end([[x86_access(m, Loc('mem', 's', off(j, i))) for i in range(25)] for j in range(Wn)])
    return cut, res, t_exec


def prove_kernel(unit, key, rep):
    """the obligations of one AArch64 Keccak body, into rep."""
    kd = KERNELS[key]

    def run():
        return prove_body(unit, key) + ('; lanes kept rotated' if kd.get('rotations') else '',)
    if prove_into(rep, kd['states'], run) is not None:
        rep.ok('memory and AAPCS64', 'state buffer [0, %d) only, stack within the %d-byte frame, '
               'sp, x19-x30 and d8-d15 restored' % (200 * kd['states'], kd['frame']), 0.0)
