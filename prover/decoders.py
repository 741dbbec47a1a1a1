# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The decoders: unpack_z (FIPS 204 BitUnpack(buf, gamma1 - 1, gamma1), Alg. 19), on
every ISA. The function runs symbolically on a buffer of free bytes; what it writes must
be exactly a[0..255], what it reads exactly buf[0 .. 32 b - 1] (no byte past it), and
every output dword, for all byte values, gamma1 - (bits b i .. b i + b - 1 of buf,
little-endian), b = bitlen(2 gamma1 - 1): one Z3 query per coefficient."""
import time
import z3
from .kernels import execute
from .lanes import check_structure, prove, Failure


def field(byte, start, b):
    """bits start .. start + b - 1 of the buffer as a b-bit value."""
    first, last = start // 8, (start + b - 1) // 8
    bytes_ = [byte(k) for k in range(last, first - 1, -1)]
    v = bytes_[0] if len(bytes_) == 1 else z3.Concat(*bytes_)
    return z3.Extract(start % 8 + b - 1, start % 8, v)


def prove_unpack_z(unit, isa, rep, g):
    gamma1, b = 1 << g, (2 * (1 << g) - 1).bit_length()
    nbytes = 32 * b
    t0 = time.time()
    try:
        res = execute(unit, isa, 'mldsa_unpack_z_g%d_%s' % (g, isa), {'rdi': ('ptr', 'a'), 'rsi': ('ptr', 'buf')})
        st = check_structure(res, ['a'], ['buf'], in_sizes={'buf': nbytes})
    except Exception as e:
        rep.fail('execute + loop structure', str(e))
        return
    rep.ok('structure', '%d instructions executed; a written exactly once each of 256 dwords; '
           'buf read exactly bytes 0..%d' % (st['steps'], nbytes - 1), time.time() - t0)
    m = res.m

    def byte(o):
        return z3.Extract(8 * (o % 4) + 7, 8 * (o % 4), m.input_var('buf', o // 4))
    t1, secs = time.time(), 0.0
    for i in range(256):
        want = z3.BitVecVal(gamma1, 32) - z3.ZeroExt(32 - b, field(byte, b * i, b))
        try:
            secs += prove(m.load('a', 4 * i, 4) == want, what='a[%d]' % i)
        except Failure as e:
            rep.fail('a_i = gamma1 - BitUnpack field i', str(e))
            return
    rep.ok('a_i = gamma1 - (bits %d i .. %d i + %d of buf), FIPS 204 BitUnpack, all byte values'
           % (b, b, b - 1), '256 coefficients, one Z3 query each (%.2f s in Z3)' % secs, time.time() - t1)


OBLIGATIONS = {'unpack_z_g%d' % g: (lambda g: lambda unit, isa, rep: prove_unpack_z(unit, isa, rep, g))(g)
               for g in (17, 19)}
