# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The encoders: pack_w1 (FIPS 204 w1Encode, Alg. 28: SimpleBitPack(w1, (q-1)/(2 gamma2)
- 1), Alg. 16), on every ISA. The function runs symbolically on free input dwords; what
it writes must be exactly out[0 .. 32 b - 1], each byte once, what it reads exactly
a[0..255]; and for all inputs with every a_i in [0, 2^b) (the contract: w1 from
Decompose or UseHint is below (q-1)/(2 gamma2) <= 2^b), every output byte is the bits
8 k .. 8 k + 7 of the coefficients laid end to end, b bits each, little-endian: one Z3
query per byte."""
import time
import z3
from .kernels import execute
from .lanes import check_structure, prove, Failure

N = 256
# kernel -> bits per coefficient
BITS = {'pack_w1_g88': 6, 'pack_w1_g32': 4}


def prove_pack(unit, isa, rep, kernel):
    b = BITS[kernel]
    nbytes = N * b // 8
    t0 = time.time()
    try:
        res = execute(unit, isa, 'mldsa_%s_%s' % (kernel, isa), {'rdi': ('ptr', 'out'), 'rsi': ('ptr', 'a')})
        st = check_structure(res, ['out'], ['a'], n=nbytes // 4, in_sizes={'a': 4 * N})
    except Exception as e:
        rep.fail('execute + structure', str(e))
        return
    rep.ok('structure', '%d instructions executed; out written exactly once each of %d bytes; '
           'a read exactly bytes 0..%d' % (st['steps'], nbytes, 4 * N - 1), time.time() - t0)
    m = res.m
    a = [m.input_var('a', i) for i in range(N)]
    pre = z3.And([z3.ULT(x, 1 << b) for x in a])
    t1, secs = time.time(), 0.0
    for k in range(nbytes):
        bits = [z3.Extract(g % b, g % b, a[g // b]) for g in range(8 * k + 7, 8 * k - 1, -1)]
        try:
            secs += prove(z3.Implies(pre, m.load('out', k, 1) == z3.Concat(*bits)), what='out[%d]' % k)
        except Failure as e:
            rep.fail('out = SimpleBitPack(a, 2^%d - 1)' % b, str(e))
            return
    rep.ok('out bits %d i .. %d i + %d = a_i, FIPS 204 SimpleBitPack, every a_i in [0, 2^%d)' % (b, b, b - 1, b),
           '%d bytes, one Z3 query each (%.2f s in Z3)' % (nbytes, secs), time.time() - t1)


OBLIGATIONS = {k: (lambda k: lambda unit, isa, rep: prove_pack(unit, isa, rep, k))(k) for k in BITS}
