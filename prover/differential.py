# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The differential check: instruction forms executed on this CPU and by the prover's
semantics (semantics.py, through the same parser and executor as the proofs), on random
and edge operands, outputs compared bit for bit.

Each form is one instruction with its operands renamed into a small frame: sources and
the destination's old value loaded from `in` (%rdi, 64 bytes per register), the opmask
from `in` too, the destination (vector register, opmask or general register) stored to
`out` (%rsi); for the general-purpose forms also the flags the SDM defines after it. Forms: every vector mnemonic of the semantics table at each width its
extension has (legacy SSE xmm, VEX xmm/ymm, EVEX xmm/ymm/zmm), the EVEX ones also under a
merging and a zeroing mask and with registers 16-31. The CPU side is the same .S built
into a shared object (cc) and called through ctypes; AVX-512 forms run only where the CPU
has AVX-512 F/BW/VL (else they are skipped and counted so).

  python3 -m prover --differential [--cases N] [--sample K] [--seed S]"""
import ctypes
import os
import random
import re
import subprocess
import tempfile
import time

import z3

from . import asm
from .executor import run
from .machine import Machine


class ExactMachine(Machine):
    """products exact (the proofs abstract a product of two variables as P with its
    facts; the abstraction's identities are the self-test's, the table's forms are here)."""

    def product(self, kind, x, y):
        if kind == 's':
            return z3.SignExt(32, x) * z3.SignExt(32, y)
        if kind == 'u':
            return z3.ZeroExt(32, x) * z3.ZeroExt(32, y)
        return x * y

Q = 8380417
EDGE = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, Q, (-Q) & 0xffffffff, 0x8000, 0xffff, 0x80, 0xff]

# mnemonic (without the legacy/VEX 'v'), its operand shape (AT&T order) and where it exists:
#   V a vector source, D the destination (also read: merging, legacy two-operand forms),
#   I<a,b,...> an immediate drawn from the list, K an opmask destination, X an xmm source
#   (whatever the width), Y a ymm source, H a source of half the destination's width.
# ext: 's' legacy SSE + VEX xmm/ymm (+ EVEX), 'e' EVEX only, 'v' VEX only (xmm/ymm).
FORMS = [(m, 'V V D', 's') for m in (
    'paddd psubd paddq paddb psubb pand pandn por pxor pcmpgtd pcmpgtb pcmpeqd pmulld pminud '
    'pmaxud pmuludq pmuldq pmulhuw pmulhrsw pmaddwd psadbw punpckldq punpckhdq punpcklqdq '
    'punpckhqdq punpcklbw pshufb').split()]
FORMS += [(m, 'V V D', 'e') for m in 'vpandd vpandq vpandnd vpandnq vpord vporq vpxord vpxorq'.split()]
FORMS += [('vpermd', 'V V D', 'w'), ('vpsrlvd', 'V V D', 'e')]
FORMS += [(m, 'I<0,1,7,13,23,31,32,33,64,128,255> V D', 's') for m in 'pslld psrld psrad'.split()]
FORMS += [(m, 'I<0,1,13,31,32,63,64,65,128,255> V D', 's') for m in 'psllq psrlq'.split()]
FORMS += [(m, 'I<0,1,8,15,16,17,32,255> V D', 's') for m in 'psllw psrlw'.split()]
FORMS += [('psrldq', 'I<0,1,4,8,15,16,17,255> V D', 's'), ('pshufd', 'I<0,27,78,177,228,255> V D', 's'),
          ('shufps', 'I<0,27,68,136,221,255> V V D', 's')]
FORMS += [('vprold', 'I<0,1,7,31> V D', 'e'), ('vprolq', 'I<0,1,14,44,63> V D', 'e'),
          ('vpternlogd', 'I<0,150,202,254,255,17> V V D', 'e'), ('vpternlogq', 'I<150,232,1,210,0,255> V V D', 'e'),
          ('vpblendd', 'I<0,165,255,15> V V D', 'v'), ('vperm2i128', 'I<0,1,19,32,49,136> V V D', 'y'),
          ('vshufi64x2', 'I<0,68,78,177,228,255> V V D', 'w'), ('vshufi32x4', 'I<0,68,78,228> V V D', 'w'),
          ('pabsd', 'V D', 's'), ('movshdup', 'V D', 's'), ('vpbroadcastd', 'X D', 'v'),
          ('vpbroadcastq', 'X D', 'v'), ('pmovzxbd', 'X D', 's'), ('pmovsxbd', 'X D', 's'),
          ('pmovzxbw', 'H D', 's'),
          ('vextracti128', 'I<0,1> V Dh', 'y'), ('vextracti32x4', 'I<0,1,2,3> V Dx', 'w'),
          ('vextracti64x4', 'I<0,1> V Dh', 'z'), ('vinserti128', 'I<0,1> X V D', 'y'),
          ('vinserti32x4', 'I<0,1,2,3> X V D', 'w'), ('vinserti64x4', 'I<0,1> Y V D', 'z'),
          ('vpcmpgtd', 'V V K', 'e'), ('vpcmpeqd', 'V V K', 'e'), ('vpcmpgtb', 'V V K', 'e'),
          ('vpcmpud', 'I<0,1,2,3,4,5,6,7> V V K', 'e'), ('vpcmpd', 'I<0,1,2,3,4,5,6,7> V V K', 'e'),
          ('vpcompressd', 'V D', 'c')]

WIDTH = {'x': 4, 'y': 8, 'z': 16}
NOMASK = {'psadbw', 'psrldq', 'vpblendd', 'vperm2i128', 'vextracti128', 'vinserti128'}
COMPARE = {'pcmpgtd', 'pcmpgtb', 'pcmpeqd'}     # EVEX: into an opmask (the K forms)
LEGACY_IMM_SHIFT = {'pslld', 'psrld', 'psrad', 'psllq', 'psrlq', 'psllw', 'psrlw', 'psrldq'}
EVEX_ONLY_NAME = {'pand': 'vpandd', 'pandn': 'vpandnd', 'por': 'vpord', 'pxor': 'vpxord'}


def instances(rnd):
    """(mnemonic, width letter, operand text, destination kind, masked) of every form."""
    out = []
    for m, shape, ext in FORMS:
        variants = []
        if ext == 's':
            variants += [(m, 'x', 'legacy', False), ('v' + m, 'x', 'vex', False), ('v' + m, 'y', 'vex', False)]
            em = EVEX_ONLY_NAME.get(m, 'v' + m)
            if m not in COMPARE:
                for w in 'xyz':
                    variants.append((em, w, 'evex', False))
                if m not in NOMASK:
                    variants += [(em, 'z', 'evex', 'merge'), (em, 'y', 'evex', 'zero')]
        elif ext == 'e':
            for w in 'xyz':
                variants.append((m, w, 'evex', False))
            variants += [(m, 'z', 'evex', 'merge'), (m, 'x', 'evex', 'zero')]
        elif ext == 'v':
            variants += [(m, 'x', 'vex', False), (m, 'y', 'vex', False)]
            if m not in NOMASK:
                variants += [(m, 'z', 'evex', False), (m, 'z', 'evex', 'merge')]
        elif ext == 'y':
            variants += [(m, 'y', 'vex', False)]
        elif ext == 'w':
            variants += [(m, 'y', 'evex', False), (m, 'z', 'evex', False), (m, 'z', 'evex', 'merge')]
        elif ext == 'z':
            variants += [(m, 'z', 'evex', False), (m, 'z', 'evex', 'merge'), (m, 'z', 'evex', 'zero')]
        elif ext == 'c':
            variants += [(m, 'z', 'evex', 'zero'), (m, 'y', 'evex', 'merge')]
        for mn, w, enc, masked in variants:
            if mn in ('vpcmpgtd', 'vpcmpeqd', 'vpcmpgtb', 'vpcmpud', 'vpcmpd') and masked:
                masked = 'merge'        # a compare under a mask ANDs it into the result
            out.append((mn, w, shape, enc, masked))
    return out


def regs_for(enc, rnd, n):
    pool = list(range(32 if enc == 'evex' else 16))
    rnd.shuffle(pool)
    return pool[:n]


def instance_text(mn, w, shape, enc, masked, rnd, idx):
    """the function's body and its destination: ('v', reg index, dwords) or ('k', ...)."""
    toks = shape.split()
    nsrc = sum(t in ('V', 'X', 'Y', 'H') for t in toks)
    regs = regs_for(enc, rnd, nsrc + 1)
    if enc != 'evex' and rnd.random() < 0.3 and 'D' in toks:
        regs[0] = regs[-1]          # the destination as a source (legacy forms always)
    body, ops, srcs = [], [], []
    dw = WIDTH[w]
    ri = 0
    for t in toks:
        if t.startswith('I<'):
            ops.append('$%d' % rnd.choice([int(x) for x in t[2:-1].split(',')]))
        elif t in ('V', 'X', 'Y', 'H'):
            sw = {'V': w, 'X': 'x', 'Y': 'y', 'H': 'y' if w == 'z' else 'x'}[t]
            r = regs[ri]
            ri += 1
            srcs.append((r, sw))
            ops.append('%%%smm%d' % (sw, r))
        elif t.startswith('D'):
            dwl = {'D': w, 'Dh': 'y', 'Dx': 'x'}[t]
            if t == 'Dh' and w == 'y':
                dwl = 'x'
            d = regs[-1]
            dest = ('v', d, WIDTH[dwl], dwl)
            deco = ''
            if masked:
                deco = '{%k1}' + ('{z}' if masked == 'zero' else '')
            ops.append('%%%smm%d%s' % (dwl, d, deco))
        elif t == 'K':
            dest = ('k', 2, 0, None)
            ops.append('%k2')
    if dest[0] == 'k' and masked:
        ops[-1] = '%k2{%k1}'
    if enc == 'legacy':
        # two-operand legacy form: the destination is the first source
        vs = [i for i, t in enumerate(toks) if t in ('V',)]
        if mn in LEGACY_IMM_SHIFT:
            vs = [None] + vs
        if len(vs) == 2:
            r = int(re.search(r'\d+', ops[vs[1]]).group(0))
            ops[-1] = '%%xmm%d' % r
            dest = ('v', r, 4, 'x')
            del ops[vs[1]]
            srcs = [s for s in srcs if s[0] != r] + [(r, 'x')]
    load = 'movdqu' if enc == 'legacy' else ('vmovdqu64' if enc == 'evex' else 'vmovdqu')
    # the destination's old value first, then the sources (a source may be the destination)
    if dest[0] == 'v':
        body.append('%s %d(%%rdi), %%%smm%d' % (load if dest[3] != 'z' else 'vmovdqu64', 64 * 3,
                                                 'z' if enc == 'evex' else ('x' if enc == 'legacy' else 'y'), dest[1]))
    for j, (r, sw) in enumerate(srcs):
        if enc == 'evex' or r >= 16:
            body.append('vmovdqu64 %d(%%rdi), %%zmm%d' % (64 * j, r))
        elif enc == 'vex':
            body.append('vmovdqu %d(%%rdi), %%ymm%d' % (64 * j, r))
        else:
            body.append('movdqu %d(%%rdi), %%xmm%d' % (64 * j, r))
    if masked or dest[0] == 'k':
        body += ['mov %d(%%rdi), %%eax' % (64 * 4), 'kmovw %eax, %k1']
    body.append('%s %s' % (mn, ', '.join(ops)))
    if dest[0] == 'v':
        st = {'x': 'vmovdqu' if enc != 'legacy' else 'movdqu', 'y': 'vmovdqu', 'z': 'vmovdqu64'}[dest[3]]
        if dest[1] >= 16 or (enc == 'evex'):
            st = 'vmovdqu64' if dest[3] == 'z' else 'vmovdqu32'
        body.append('%s %%%smm%d, (%%rsi)' % (st, dest[3], dest[1]))
    else:
        body += ['kmovw %k2, %eax', 'mov %eax, (%rsi)']
    body += ['vzeroupper', 'ret']
    name = 'f%d' % idx
    text = '    .globl %s\n%s:\n' % (name, name) + ''.join('    %s\n' % b for b in body)
    return name, text, dest


# General-purpose forms: (instruction with %A the destination, %B the source register, at
# 32 or 64 bits; the flags read after it). Flags the SDM leaves undefined are not read
# (the prover makes them unknowns, so a read would fail the run, not mismatch).
GPR_FORMS = [(op + ' %B, %A', 'czsl') for op in ('add', 'sub', 'and', 'or', 'xor')] + [
    ('cmp %B, %A', 'czsl'), ('test %B, %A', 'czsl'), ('inc %A', 'zsl'), ('dec %A', 'zsl'),
    ('neg %A', 'czsl'), ('not %A', ''), ('imul %B, %A', 'c'), ('imul $205, %B, %A', 'c'),
    ('imul $-3, %B, %A', 'c'), ('mov %B, %A', '')]
for _op in ('shl', 'shr', 'sar'):
    GPR_FORMS += [(_op + ' $1, %A', 'czsl')] + [(_op + ' $%d, %%A' % c, 'czs') for c in (2, 5, 31)] + \
        [(_op + ' $%d, %%A' % c, '') for c in (0, 32, 33, 63, 64)]
GPR_FORMS += [('rol $1, %A', 'c'), ('rol $7, %A', 'c'), ('rol $32, %A', ''), ('rol $44, %A', 'c'),
              ('rol $63, %A', 'c')]
REG = {64: ('rax', 'rcx'), 32: ('eax', 'ecx')}


def gpr_instances():
    out = []
    for form, flags in GPR_FORMS:
        for w in (32, 64):
            a, b = REG[w]
            out.append((form.replace('%A', '%' + a).replace('%B', '%' + b), flags, w))
    return out


def gpr_text(ins, flags, idx):
    body = ['mov 0(%rdi), %rax', 'mov 8(%rdi), %rcx', 'cmp %rcx, %rax', ins, 'mov %rax, (%rsi)']
    for j, f in enumerate(flags):
        body += ['set%s %%dl' % f, 'movzbl %dl, %edx', 'mov %%edx, %d(%%rsi)' % (8 + 4 * j)]
    body.append('ret')
    name = 'g%d' % idx
    return name, '    .globl %s\n%s:\n' % (name, name) + ''.join('    %s\n' % b for b in body), \
        ('m', None, 2 + len(flags), None)


def cpu_has_avx512():
    try:
        with open('/proc/cpuinfo') as f:
            flags = next(l for l in f if l.startswith('flags')).split()
        return all(x in flags for x in ('avx512f', 'avx512bw', 'avx512vl'))
    except (OSError, StopIteration):
        return False


def main(cases=16, sample=0, seed=1):
    rnd = random.Random(seed)
    t0 = time.time()
    insts = instances(rnd)
    if not cpu_has_avx512():
        skipped = [i for i in insts if i[3] == 'evex']
        insts = [i for i in insts if i[3] != 'evex']
        print('differential: no AVX-512 on this CPU: %d EVEX forms skipped' % len(skipped))
    if sample and sample < len(insts):
        insts = rnd.sample(insts, sample)
    funcs = []
    for idx, (mn, w, shape, enc, masked) in enumerate(insts):
        name, text, dest = instance_text(mn, w, shape, enc, masked, rnd, idx)
        funcs.append((name, text, dest, '%s %s %s%s' % (mn, w + 'mm', enc, ' ' + masked if masked else '')))
    for idx, (ins, flags, w) in enumerate(gpr_instances()):
        name, text, dest = gpr_text(ins, flags, idx)
        funcs.append((name, text, dest, '%s (%d-bit; flags %s)' % (ins, w, flags or '-')))
    src = '    .text\n' + ''.join(t for _, t, _, _ in funcs) + '    .section .note.GNU-stack,"",@progbits\n'
    with tempfile.TemporaryDirectory(prefix='prover-diff-') as d:
        path = os.path.join(d, 'forms.S')
        with open(path, 'w') as f:
            f.write(src)
        so = os.path.join(d, 'forms.so')
        subprocess.run([os.environ.get('CC', 'cc'), '-shared', '-nostdlib', '-o', so, path], check=True)
        lib = ctypes.CDLL(so)
        unit = asm.parse(path, src)
        bad, ncases = 0, 0
        for name, text, dest, what in funcs:
            try:
                m = run(unit, name, {'rdi': ('ptr', 'in'), 'rsi': ('ptr', 'out')}, machine_cls=ExactMachine).m
            except Exception as e:      # a form the semantics cannot run is a failure
                print('differential: %s: prover error: %s' % (what, e))
                bad += 1
                continue
            nbytes = 4 * dest[2] if dest[0] in ('v', 'm') else 4
            outs = [m.load('out', off, 4) for off in range(0, nbytes, 4)]
            whole = z3.Concat(*outs) if len(outs) > 1 else outs[0]
            invars = [(k, v) for k, v in m.inputs.items() if k[0] == 'in']
            fn = getattr(lib, name)
            for c in range(cases):
                words = [rnd.choice(EDGE) if rnd.random() < 0.3 else rnd.getrandbits(32) for _ in range(4 * 16)]
                if dest[0] == 'm' and rnd.random() < 0.3:
                    words[1], words[3] = words[0] >> 31 and 0xffffffff, words[2] >> 31 and 0xffffffff
                words += [rnd.choice([0, 0xffff, 0x5555, 0xff00, 0x00ff, rnd.getrandbits(16)])]
                inbuf = (ctypes.c_uint32 * 80)(*(words + [0] * (80 - len(words))))
                outbuf = (ctypes.c_uint32 * 16)()
                fn(inbuf, outbuf)
                cpu = list(outbuf)[:nbytes // 4]
                subs = [(v, z3.BitVecVal(words[k[1]] if k[1] < len(words) else 0, 32)) for k, v in invars]
                val = z3.simplify(z3.substitute(whole, *subs)) if subs else z3.simplify(whole)
                ncases += 1
                if not z3.is_bv_value(val):
                    print('differential: %s: the prover\'s result is not a function of the inputs: %s'
                          % (what, str(val)[:200]))
                    bad += 1
                    break
                v = val.as_long()
                got = [(v >> (32 * (len(outs) - 1 - j))) & 0xffffffff for j in range(len(outs))]
                if got != cpu:
                    print('differential: MISMATCH %s\n  %s\n  inputs %s\n  cpu    %s\n  prover %s'
                          % (what, text.split('\n')[-5].strip(), [hex(x) for x in words[:16]],
                             [hex(x) for x in cpu], [hex(x) for x in got]))
                    bad += 1
                    break
    print('differential: %d instruction forms, %d cases, %d mismatches, %.0f s'
          % (len(funcs), ncases, bad, time.time() - t0))
    return 1 if bad else 0
