# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The encoders, on every ISA: pack_w1 (FIPS 204 w1Encode, Alg. 28: SimpleBitPack(w1,
(q-1)/(2 gamma2) - 1), Alg. 16) and pack_z (BitPack(z, gamma1 - 1, gamma1), Alg. 17).
The function runs symbolically on free input dwords; what it writes must be exactly
out[0 .. 32 b - 1] (pack_w1: each byte once; pack_z's stores overlap, so its bytes are
proved as they are at the end), what it reads exactly a[0..255]; and for all inputs
whose fields f_i (pack_w1: a_i, w1 from Decompose or UseHint, below (q-1)/(2 gamma2) <=
2^b; pack_z: gamma1 - z_i for z_i in [-gamma1 + 1, gamma1]) lie in [0, 2^b), every
output byte is the bits 8 k .. 8 k + 7 of the fields laid end to end, b bits each,
little-endian: one Z3 query per 8 coefficients' b bytes."""
import time
import z3
from .kernels import execute
from .lanes import check_structure, prove, Failure

N = 256
# kernel -> (bits per coefficient, the field of a coefficient x: x, or offset - x when
# offset is given, whether stores overlap)
FIELDS = {'pack_w1_g88': (6, None, False), 'pack_w1_g32': (4, None, False),
          'pack_z_g17': (18, 1 << 17, True), 'pack_z_g19': (20, 1 << 19, True)}


WINDOW = 8


def prove_pack(unit, isa, rep, kernel):
    b, offset, overlap = FIELDS[kernel]
    nbytes = N * b // 8
    t0 = time.time()
    try:
        res = execute(unit, isa, 'mldsa_%s_%s' % (kernel, isa), {'rdi': ('ptr', 'out'), 'rsi': ('ptr', 'a')})
        st = check_structure(res, ['out'], ['a'], n=nbytes // 4, in_sizes={'a': 4 * N},
                             rewritten=['out'] if overlap else [])
    except Exception as e:
        rep.fail('execute + structure', str(e))
        return
    rep.ok('structure', '%d instructions executed; out written %s each of %d bytes; '
           'a read exactly bytes 0..%d' % (st['steps'], 'at least once' if overlap else 'exactly once',
                                           nbytes, 4 * N - 1), time.time() - t0)
    m = res.m
    # the claims are stated over the fields f_i: each input coefficient is offset - f_i
    # (a bijection of 32-bit values, so "for all f" is "for all inputs"), which lets the
    # kernel's offset - x simplify to f_i before the query
    a = [z3.BitVec('f[%d]' % i, 32) for i in range(N)]
    subs = [(m.input_var('a', i), a[i] if offset is None else offset - a[i]) for i in range(N)]
    t1, secs = time.time(), 0.0
    # one query per 8 coefficients (b bytes), assuming in range only the fields within
    # WINDOW coefficients of them, not all 256 (a stronger claim, and a small query: a byte
    # that needs a farther field fails; the kernels OR up to 8 fields into one dword, so
    # a byte may need 7 neighbours). Only those fields are substituted: any other input
    # left in a byte's term is a free variable the claim must hold for.
    for k0 in range(0, nbytes, b):
        near = range(max(0, k0 * 8 // b - WINDOW), min(N, (k0 + b) * 8 // b + WINDOW))
        here = [subs[i] for i in near]
        claims = []
        for k in range(k0, k0 + b):
            bits = [z3.Extract(g % b, g % b, a[g // b]) for g in range(8 * k + 7, 8 * k - 1, -1)]
            claims.append(z3.simplify(z3.substitute(m.load('out', k, 1), *here)) == z3.Concat(*bits))
        pre = z3.And([z3.ULT(a[i], 1 << b) for i in near])
        try:
            secs += prove(z3.Implies(pre, z3.And(claims)), what='out[%d..%d]' % (k0, k0 + b - 1))
        except Failure as e:
            rep.fail('out = SimpleBitPack(a, 2^%d - 1)' % b, str(e))
            return
    rep.ok('out bits %d i .. %d i + %d = field f_i, FIPS 204 %s, every f_i in [0, 2^%d)'
           % (b, b, b - 1, 'BitPack' if overlap else 'SimpleBitPack', b),
           '%d bytes, one Z3 query per %d (%.2f s in Z3)' % (nbytes, b, secs), time.time() - t1)


OBLIGATIONS = {k: (lambda k: lambda unit, isa, rep: prove_pack(unit, isa, rep, k))(k) for k in FIELDS}
