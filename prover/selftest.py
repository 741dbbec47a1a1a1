# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The prover's self-test: planted bugs in copies of real kernels (in memory; asm_out/ is
not touched) must be rejected (the unmodified kernels are proved by the main run). Also checks one
semantics fact the product abstraction relies on, by Z3 over the integers."""
import os
import z3

from . import asm, kernels, ntt, sampler_lanes
from .kernels import Report

# (isa, file, kernel, line substring, replacement, what the bug is)
PLANTED = [
    ('avx2', 'add', 'add', 'vpaddd %ymm5, %ymm4, %ymm4', 'vpsubd %ymm5, %ymm4, %ymm4',
     'one register of lanes subtracted instead of added'),
    ('sse2', 'reduce32', 'reduce32', 'psrad $23', 'psrad $22', 'shift count off by one'),
    ('avx512', 'caddq', 'caddq', 'vpaddd', 'vpsubd', 'q subtracted in one register'),
    ('avx2', 'decompose', 'decompose_g32', '.Lg32_mult:  # highbits multiplier\n    .long 1025',
     '.Lg32_mult:  # highbits multiplier\n    .long 1026', 'the g32 highbits multiplier off by one'),
    ('avx2', 'make_hint', 'make_hint_g88', 'vpsubd %ymm4, %ymm0, %ymm0', 'vpaddd %ymm4, %ymm0, %ymm0',
     'the count adds the -1 masks instead of subtracting them'),
    ('avx512', 'pointwise_montgomery', 'pointwise_montgomery', '58728449', '58728451', 'q^-1 wrong'),
    ('sse2', 'add', 'add', 'add $128, %rdi', 'add $112, %rdi', 'output pointer step short: overlap'),
    ('sse2', 'chknorm', 'chknorm', 'pcmpgtd %xmm8, %xmm1', 'pcmpgtd %xmm1, %xmm8', 'one compare reversed'),
    ('avx2', 'shiftl', 'shiftl', 'vpslld', 'vpsllq', 'an instruction with a different lane width'),
    ('avx2', 'sub', 'sub', 'vpsubd', 'vfoo', 'an instruction the prover has no semantics for'),
    ('avx2', 'ntt', 'ntt', '.long -3572223, -3572223,', '.long -3572222, -3572223,',
     'one lane of the first twiddle off by one'),
    ('sse2', 'invntt_tomont', 'invntt_tomont', 'paddd .Lntt_data+16(%rip), %xmm12  # d + 256q',
     'paddd .Lntt_data+0(%rip), %xmm12  # d + q', 'the unsigned product sees d + q, which can be negative'),
    ('avx512', 'ntt', 'ntt', 'vpsubd %zmm26, %zmm0, %zmm1', 'vpsubd %zmm0, %zmm26, %zmm1',
     'one butterfly computes t - a instead of a - t'),
    ('avx512', 'rej_uniform', 'rej_uniform', 'vpcmpgtd %zmm0, %zmm15, %k1', 'vpcmpgtd %zmm15, %zmm0, %k1',
     'the accept compare reversed'),
    ('avx2', 'rej_eta', 'rej_eta2', 'vpcmpgtb %ymm0, %ymm14, %ymm1', 'vpcmpgtb %ymm14, %ymm0, %ymm1',
     'eta = 2: the accept compare reversed'),
    ('sse2', 'rej_eta', 'rej_eta4', 'psubb %xmm0, %xmm1              # 4 - b',
     'paddb %xmm0, %xmm1              # 4 + b', 'eta = 4 value 4 + b'),
]


def plant(text, old, new):
    if old is None:
        return None
    i = text.find(old)
    if i < 0:
        return None
    return text[:i] + new + text[i + len(old):]


def run_one(path, text, isa, k):
    rep = Report(isa, k)
    try:
        (ntt.TRANSFORMS.get(k) or sampler_lanes.OBLIGATIONS.get(k) or kernels.K[k])(asm.parse(path, text), isa, rep)
    except Exception as e:
        rep.fail('prover error', str(e))
    return rep


def main(asm_dir):
    from . import lanes
    lanes.DEFAULT_TIMEOUT_MS = 20000
    bad = 0
    # the unsigned/signed product identity machine.product uses for pmuludq: over the
    # integers, with a, b the signed values and sa, sb = [a < 0], [b < 0] (each case),
    # (a + 2^32 sa)(b + 2^32 sb) - (a b + 2^32 (sa b + sb a)) - 2^64 sa sb is the zero
    # polynomial (Z3's sum-of-monomials normal form); mod 2^64 the last term vanishes.
    a, b = z3.Ints('a b')
    ok = True
    for sa in (0, 1):
        for sb in (0, 1):
            e = (a + sa * 2 ** 32) * (b + sb * 2 ** 32) - (a * b + 2 ** 32 * (sa * b + sb * a)) - 2 ** 64 * sa * sb
            r = z3.simplify(e, som=True)
            ok &= z3.is_int_value(r) and r.as_long() == 0
    print('self-test: zext(a) zext(b) = sext(a) sext(b) + 2^32 ([a<0] b + [b<0] a) mod 2^64: %s'
          % ('proved' if ok else 'NOT PROVED'))
    bad += not ok
    # sections that are not code or read-only data are skipped (a .note.gnu.property)
    path = os.path.join(asm_dir, 'avx2', 'add.S')
    with open(path) as fh:
        text = fh.read()
    note = ('    .pushsection .note.gnu.property, "a"\n    .p2align 3\n    .long 4, 16, 5\n'
            '    .asciz "GNU"\n    .long 0xc0000002, 4, 3\n    .p2align 3\n    .popsection\n')
    rep = run_one(path, text.replace('    .text\n', note + '    .text\n', 1) +
                  '\n    .section .note.gnu.property,"a"\n    .quad 1\n', 'avx2', 'add')
    print('self-test: avx2 add with .note.gnu.property sections: %s' % ('accepted' if rep.passed else 'REJECTED'))
    bad += not rep.passed
    for isa, f, k, old, new, what in PLANTED:
        path = os.path.join(asm_dir, isa, f + '.S')
        with open(path) as fh:
            text = fh.read()
        mut = plant(text, old, new)
        if mut is None:
            print('self-test: %s %s: could not plant "%s" (the kernel changed?)' % (isa, k, what))
            bad += 1
            continue
        rep = run_one(path, mut, isa, k)
        why = next((it[4] for it in rep.items if not it[3]), '')
        caught = not rep.passed
        print('self-test: %-7s %-22s planted bug (%s) %s%s' %
              (isa, k, what, 'rejected' if caught else 'ACCEPTED', ': ' + why[:140] if why else ''), flush=True)
        bad += not caught
    print('self-test: %s' % ('passed' if not bad else '%d problems' % bad))
    return 1 if bad else 0
