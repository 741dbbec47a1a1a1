# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What the samplers' proofs on either machine share: the FIPS 204 candidates of a step
(value and accept predicate, from the input bytes), the symbolic run to the first use of
the accept pattern, and the solver check of a list of claims. Used by sampler_lanes.py
and sampler_loop.py (x86) and sampler_a64.py (AArch64)."""
import z3

Q = 8380417


def candidates(kernel, byte, L):
    """(value, accepted) of candidate j as the FIPS 204 samplers define them."""
    out = []
    for j in range(L):
        if kernel == 'rej_uniform':
            v = z3.Concat(z3.BitVecVal(0, 9), z3.Extract(6, 0, byte(3 * j + 2)), byte(3 * j + 1), byte(3 * j))
            out.append((v, z3.ULT(v, Q)))
            continue
        b = z3.Extract(3 + 4 * (j % 2), 4 * (j % 2), byte(j // 2))     # the low half-byte first
        b8 = z3.ZeroExt(4, b)
        if kernel == 'rej_eta2':
            out.append((2 - z3.URem(b8, 5), z3.ULT(b, 15)))
        else:
            out.append((4 - b8, z3.ULT(b, 9)))
    return out


def run_step(rep, go):
    """go(): the symbolic run to the first use of the accept pattern; its Result, or None
    (the failure reported) if it raised or returned without stopping."""
    try:
        res = go()
    except Exception as e:
        rep.fail('execution to the accept pattern', str(e))
        return None
    if res.stopped is None:
        rep.fail('execution to the accept pattern', 'returned without using an accept pattern')
        return None
    return res


def buf_candidates(m, kernel, L):
    """the FIPS 204 candidates of the step's buf bytes (the run's inputs, dwords buf[i])."""
    return candidates(kernel, lambda o: z3.Extract(8 * (o % 4) + 7, 8 * (o % 4), m.input_var('buf', o // 4)), L)


def holds(claims):
    s = z3.Solver()
    s.set('timeout', 20000)
    s.add(z3.Not(z3.And(claims)))
    return s.check() == z3.unsat
