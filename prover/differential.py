# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The differential check: instruction forms executed on this CPU and by the prover's
semantics (semantics.py, through the same parser and executor as the proofs), on random
and edge operands, outputs compared bit for bit. Every form the proved kernels use
(form_key: the mnemonic and its operands' kinds) must be among the forms run, and each
run also plants semantics errors that it must catch (planted).

Each form is one instruction with its operands renamed into a small frame: sources and
the destination's old value loaded from `in` (%rdi, 64 bytes per register), the opmask
from `in` too, the destination (vector register, opmask or general register) stored to
`out` (%rsi); for the general-purpose forms also the flags the SDM defines after it. Forms: every vector mnemonic of the semantics table at each width its
extension has (legacy SSE xmm, VEX xmm/ymm, EVEX xmm/ymm/zmm), the EVEX ones also under a
merging and a zeroing mask and with registers 16-31, with the first source from memory
and as an EVEX broadcast; EXPLICIT_FORMS has the rest, written out. The CPU side is the same .S built
into a shared object (cc) and called through ctypes; AVX-512 forms run only where the CPU
has AVX-512 F/BW/VL (else they are skipped and counted so). `in` and `out` are 64-byte
aligned; every form with a memory operand also runs with both 4 bytes off that, and the
CPU must fault (SIGSEGV) exactly where the model's alignment rule refuses the access.

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
# ext: 's' legacy SSE + VEX xmm/ymm (+ EVEX), 'e' EVEX only, 'v' VEX xmm/ymm (+ EVEX zmm),
# 'Y' VEX ymm (+ EVEX ymm/zmm), 'y' VEX ymm only, 'w' EVEX ymm/zmm, 'z' EVEX zmm.
FORMS = [(m, 'V V D', 's') for m in (
    'paddd psubd paddq paddb psubb pand pandn por pxor pcmpgtd pcmpgtb pcmpeqd pmulld pminud '
    'pmaxud pmuludq pmuldq pmulhuw pmulhrsw pmaddwd psadbw punpckldq punpckhdq punpcklqdq '
    'punpckhqdq punpcklbw pshufb').split()]
FORMS += [(m, 'V V D', 'e') for m in 'vpandd vpandq vpandnd vpandnq vpord vporq vpxord vpxorq'.split()]
FORMS += [('vpermd', 'V V D', 'Y'), ('vpsrlvd', 'V V D', 'v'), ('vpsrlvd', 'V V D', 'e')]
FORMS += [(m, 'I<0,1,7,13,23,31,32,33,64,128,255> V D', 's') for m in 'pslld psrld psrad'.split()]
FORMS += [(m, 'I<0,1,13,31,32,63,64,65,128,255> V D', 's') for m in 'psllq psrlq'.split()]
FORMS += [(m, 'I<0,1,8,15,16,17,32,255> V D', 's') for m in 'psllw psrlw'.split()]
FORMS += [('psrldq', 'I<0,1,4,8,15,16,17,255> V D', 's'), ('pslldq', 'I<0,1,4,6,8,12,15,16,17,255> V D', 's'),
          ('pshufd', 'I<0,27,78,177,228,255> V D', 's'),
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
NOMASK = {'psadbw', 'psrldq', 'pslldq', 'vpblendd', 'vperm2i128', 'vextracti128', 'vinserti128'}
COMPARE = {'pcmpgtd', 'pcmpgtb', 'pcmpeqd'}     # EVEX: into an opmask (the K forms)
LEGACY_IMM_SHIFT = {'pslld', 'psrld', 'psrad', 'psllq', 'psrlq', 'psllw', 'psrlw', 'psrldq', 'pslldq'}
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
        elif ext == 'Y':
            variants += [(m, 'y', 'vex', False), (m, 'y', 'evex', False), (m, 'z', 'evex', False),
                         (m, 'z', 'evex', 'merge')]
        elif ext == 'w':
            variants += [(m, 'y', 'evex', False), (m, 'z', 'evex', False), (m, 'z', 'evex', 'merge')]
        elif ext == 'z':
            variants += [(m, 'z', 'evex', False), (m, 'z', 'evex', 'merge'), (m, 'z', 'evex', 'zero')]
        elif ext == 'c':
            variants += [(m, 'z', 'evex', 'zero'), (m, 'y', 'evex', 'merge')]
        if MEMORY_SOURCE.search(shape):
            # the first source from memory: legacy xmm, VEX ymm, EVEX zmm; and broadcast
            # from one element where EVEX has it (at every width)
            mems = [(mn, w, enc, masked, 'm') for mn, w, enc, masked in variants
                    if not masked and (enc, w) in (('legacy', 'x'), ('vex', 'x'), ('vex', 'y'), ('evex', 'z'))
                    and m not in NO_MEMORY_SOURCE and not (m in LEGACY_IMM_SHIFT and enc != 'evex')]
            mems += [(mn, w, enc, masked, 'b') for mn, w, enc, masked in variants
                     if enc == 'evex' and BROADCAST.get(mn) and w in 'xyz' and masked in (False, 'merge')]
        else:
            mems = []
        for mn, w, enc, masked, mem in [v + (None,) for v in variants] + mems:
            if mn in ('vpcmpgtd', 'vpcmpeqd', 'vpcmpgtb', 'vpcmpud', 'vpcmpd') and masked:
                masked = 'merge'        # a compare under a mask ANDs it into the result
            out.append((mn, w, shape, enc, masked, mem))
    return out


# A source that may be a memory operand: the first vector source of the shape (in AT&T
# order the one the encoding allows in memory).
MEMORY_SOURCE = re.compile(r'(^|\s)[VXYH](\s|$)')
# Forms whose vector source must be a register (the memory form is the destination's).
NO_MEMORY_SOURCE = {'vextracti128', 'vextracti32x4', 'vextracti64x4', 'vpcompressd'}
# EVEX embedded broadcast: the element size, in bytes, of the mnemonics that have one.
BROADCAST = {m: 4 for m in (
    'vpaddd vpsubd vpmulld vpminud vpmaxud vpandd vpandnd vpord vpxord vpcmpgtd vpcmpeqd vpabsd '
    'vpsrlvd vpermd vpunpckldq vpunpckhdq vpshufd vpslld vpsrld vpsrad vprold vpternlogd '
    'vpcmpud vpcmpd vshufi32x4').split()}
BROADCAST.update({m: 8 for m in (
    'vpaddq vpmuludq vpmuldq vpandq vpandnq vporq vpxorq vpunpcklqdq vpunpckhqdq vpsllq vpsrlq '
    'vprolq vpternlogq vshufi64x2').split()})


def regs_for(enc, rnd, n):
    pool = list(range(32 if enc == 'evex' else 16))
    rnd.shuffle(pool)
    return pool[:n]


def instance_text(mn, w, shape, enc, masked, mem, rnd, idx):
    """the function's body and its destination: ('v', reg index, dwords) or ('k', ...).
    mem: None, 'm' (the first vector source from memory) or 'b' (broadcast from it)."""
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
            if mem and not srcs and not any(o.startswith('MEM') for o in ops):
                # the source's 64-byte slot of `in`, read in place
                ops.append('MEM%d' % ri)
                continue
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
        if len(vs) == 2 and ops[vs[1]].startswith('%'):
            r = int(re.search(r'\d+', ops[vs[1]]).group(0))
            ops[-1] = '%%xmm%d' % r
            dest = ('v', r, 4, 'x')
            del ops[vs[1]]
            srcs = [s for s in srcs if s[0] != r] + [(r, 'x')]
    for i, o in enumerate(ops):
        if o.startswith('MEM'):
            slot = 64 * (int(o[3:]) - 1)
            if mem == 'b':
                ops[i] = '%d(%%rdi){1to%d}' % (slot, 4 * WIDTH[w] // BROADCAST[mn])
            else:
                ops[i] = '%d(%%rdi)' % slot
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


# Forms that fit no shape above (immediates of the general-purpose operations, moves
# between register files, loads, stores, masked moves, opmask operations), each written
# out: the instructions after the frame's loads, the frame ('g' general registers only,
# 'x' legacy SSE, 'y' VEX, 'z' EVEX with %k1 and %k2 from `in`, 'k64' EVEX with a 64-bit
# %k1 from a byte compare; a 64-byte stack frame for push and pop), and what is stored to
# `out` in order (a register, an opmask
# through %r8d, the vector zmm0 read back through a masked byte move, 'out' for a store
# the form makes itself, then flag letters as in GPR_FORMS).
EXPLICIT_FORMS = [
    (['adc $0, %eax'], 'g', 'rax czsl'), (['adc $5, %eax'], 'g', 'rax czsl'),
    (['add $7, %eax'], 'g', 'rax czsl'), (['add $-64, %rax'], 'g', 'rax czsl'),
    (['and $255, %eax'], 'g', 'rax czs'), (['cmp $240, %eax'], 'g', 'czsl'),
    (['cmp $48, %rax'], 'g', 'czsl'), (['sub $48, %rax'], 'g', 'rax czsl'),
    (['sub $3, %eax'], 'g', 'rax czsl'), (['mov $21845, %eax'], 'g', 'rax'),
    (['movl $61440, %eax'], 'g', 'rax'),
    (['lea (%rax,%rax,4), %eax'], 'g', 'rax'), (['lea -1(%rcx), %eax'], 'g', 'rax'),
    (['lea 12(%rax,%rcx,8), %rdx'], 'g', 'rdx'), (['movsbl %cl, %eax'], 'g', 'rax'),
    (['movzbl 37(%rdi), %eax'], 'g', 'rax'), (['movzwl 37(%rdi), %eax'], 'g', 'rax'),
    (['setnz %al'], 'g', 'rax'), (['mov %rcx, %rdx'], 'g', 'rdx'),
    (['and $-64, %rax'], 'g', 'rax czsl'), (['xor 40(%rdi), %rax'], 'g', 'rax czsl'),
    (['mov 40(%rdi), %rax', 'mov %rax, (%rsi)', 'notq (%rsi)'], 'g', 'out8'),
    (['push %rax', 'push %rcx', 'pop %rdx', 'pop %rax'], 'g', 'rax rdx'),
    (['vmovq %xmm1, (%rsi)'], 'y', 'out8'), (['vmovdqa32 %xmm17, %xmm0'], 'z', 'z0'),
    (['movd %eax, %xmm0'], 'x', 'x0'), (['movd %xmm1, %eax'], 'x', 'rax'),
    (['movq %xmm1, %rax'], 'x', 'rax'), (['movq 40(%rdi), %xmm0'], 'x', 'x0'),
    # movd with a 64-bit general register: GNU as encodes it as movq (REX.W, VEX.W1)
    (['movd %rax, %xmm0'], 'x', 'x0'), (['movd %xmm1, %rax'], 'x', 'rax'),
    (['vmovd %rax, %xmm0'], 'y', 'y0'), (['vmovd %xmm1, %rax'], 'y', 'rax'),
    (['movq %rax, %xmm0'], 'x', 'x0'), (['vmovq %rax, %xmm0'], 'y', 'y0'),
    (['pand 64(%rdi), %xmm1', 'movdqa %xmm1, %xmm0'], 'x', 'x0'),
    (['vmovdqa 64(%rdi), %ymm0'], 'y', 'y0'), (['vmovdqa %ymm1, (%rsi)'], 'y', 'out32'),
    (['vmovdqa32 64(%rdi), %zmm0'], 'z', 'z0'), (['vmovdqa64 %zmm1, (%rsi)'], 'z', 'out64'),
    (['movhps 40(%rdi), %xmm0'], 'x', 'x0'), (['movmskps %xmm1, %eax'], 'x', 'rax'),
    (['pmovmskb %xmm1, %eax'], 'x', 'rax'), (['movdqa 64(%rdi), %xmm0'], 'x', 'x0'),
    (['movdqa %xmm1, %xmm0'], 'x', 'x0'), (['movdqu 40(%rdi), %xmm0'], 'x', 'x0'),
    (['movdqu %xmm1, (%rsi)'], 'x', 'out16'),
    (['vmovd %eax, %xmm0'], 'y', 'y0'), (['vmovd %xmm1, %eax'], 'y', 'rax'),
    (['vmovd 40(%rdi), %xmm0'], 'y', 'y0'), (['vmovq %xmm1, %rax'], 'y', 'rax'),
    (['vmovq 40(%rdi), %xmm0'], 'y', 'y0'), (['vmovmskps %ymm1, %eax'], 'y', 'rax'),
    (['vpmovmskb %xmm1, %eax'], 'y', 'rax'), (['vpmovmskb %ymm1, %eax'], 'y', 'rax'),
    (['vmovdqu 40(%rdi), %xmm0'], 'y', 'y0'), (['vmovdqu 40(%rdi), %ymm0'], 'y', 'y0'),
    (['vmovdqu %ymm1, (%rsi)'], 'y', 'out32'), (['vmovdqa %ymm1, %ymm0'], 'y', 'y0'),
    (['vmovdqa %xmm1, %xmm0'], 'y', 'y0'), (['vextracti128 $1, %ymm1, (%rsi)'], 'y', 'out16'),
    (['vbroadcasti128 64(%rdi), %ymm0'], 'y', 'y0'), (['vpbroadcastd %xmm1, %ymm0'], 'y', 'y0'),
    (['vinserti128 $1, 40(%rdi), %ymm1, %ymm0'], 'y', 'y0'),
    (['vmovq 40(%rdi), %xmm16', 'vmovdqa64 %zmm16, %zmm0'], 'z', 'z0'),
    (['vmovq %xmm17, %rax'], 'z', 'rax'), (['vpbroadcastd %eax, %zmm0'], 'z', 'z0'),
    (['vmovdqu32 40(%rdi), %xmm0'], 'z', 'z0'), (['vmovdqu32 40(%rdi), %ymm0'], 'z', 'z0'),
    (['vmovdqu32 40(%rdi), %zmm0'], 'z', 'z0'), (['vmovdqu32 40(%rdi), %zmm20', 'vmovdqa64 %zmm20, %zmm0'], 'z', 'z0'),
    (['vmovdqu32 %zmm1, (%rsi)'], 'z', 'out64'), (['vextracti32x4 $3, %zmm1, (%rsi)'], 'z', 'out16'), (['vmovdqu32 %zmm17, (%rsi)'], 'z', 'out64'),
    (['vmovdqa32 %zmm1, %zmm0'], 'z', 'z0'), (['vmovdqa32 %zmm1, %zmm0{%k1}'], 'z', 'z0'), (['vmovdqa32 %zmm1, %zmm0{%k1}{z}'], 'z', 'z0'), (['vmovdqa32 %zmm17, %zmm0{%k1}{z}'], 'z', 'z0'),
    (['vmovdqu8 %zmm1, %zmm0{%k1}{z}'], 'k64', 'z0'), (['vmovdqu8 %xmm1, %xmm0{%k1}{z}'], 'k64', 'z0'),
    (['vbroadcasti32x4 64(%rdi), %zmm0'], 'z', 'z0'),
    (['vinserti32x4 $1, 40(%rdi), %ymm1, %ymm0'], 'z', 'z0'),
    (['vinserti32x4 $3, 40(%rdi), %zmm1, %zmm0'], 'z', 'z0'),
    (['vpcompressd %ymm1, %ymm0{%k1}{z}'], 'z', 'z0'), (['vpcompressd %zmm1, %zmm0{%k1}{z}'], 'z', 'z0'),
    (['vpcompressd %zmm1, %zmm0{%k1}'], 'z', 'z0'),
    (['korw %k1, %k2, %k1'], 'z', 'k1'), (['kortestw %k1, %k2'], 'z', 'zc'),
    (['kortestw %k1, %k1'], 'z', 'zc'), (['kmovw %k2, %eax'], 'z', 'rax'),
] + [(['kshiftrq $%d, %%k1, %%k2' % c, 'vmovdqu8 %zmm1, %zmm0{%k2}{z}'], 'k64', 'z0')
     for c in (0, 16, 32, 48, 63)]


def explicit_text(body, frame, outs, idx):
    """the function for one written-out form and the number of dwords it stores."""
    pre = ['mov 0(%rdi), %rax', 'mov 8(%rdi), %rcx', 'mov 16(%rdi), %rdx']
    vload = {'x': 'movdqu %d(%%rdi), %%xmm%d', 'y': 'vmovdqu %d(%%rdi), %%ymm%d'}.get(
        frame, 'vmovdqu32 %d(%%rdi), %%zmm%d')
    if frame != 'g':
        pre += [vload % (64 * j, r) for j, r in ((1, 1), (2, 2), (3, 0))]
    if frame in ('z', 'k64'):
        pre += ['vmovdqu32 64(%rdi), %zmm17', 'mov 256(%rdi), %r8d', 'kmovw %r8d, %k1',
                'mov 260(%rdi), %r8d', 'kmovw %r8d, %k2']
    if frame == 'k64':
        pre += ['vpcmpgtb %zmm1, %zmm2, %k1']
    pre.append('cmp %rcx, %rax')        # flags from the inputs (adc reads CF, setnz ZF)
    post, off = [], 0
    words = outs.split()
    for w in words:
        if w in ('rax', 'rdx'):
            post.append('mov %%%s, %d(%%rsi)' % (w, off))
            off += 8
        elif w in ('x0', 'y0', 'z0'):
            n = {'x0': 16, 'y0': 32, 'z0': 64}[w]
            st = {'x0': 'movdqu %xmm0', 'y0': 'vmovdqu %ymm0', 'z0': 'vmovdqu32 %zmm0'}[w]
            post.append('%s, %d(%%rsi)' % (st, off))
            off += n
        elif w in ('k1', 'k2'):
            post += ['kmovw %%%s, %%r8d' % w, 'mov %%r8d, %d(%%rsi)' % off]
            off += 4
        elif w.startswith('out'):
            off += int(w[3:])           # the form itself stored them at 0
    for f in (words[-1] if words and words[-1].isalpha() and words[-1] not in ('rax', 'rdx') else ''):
        post += ['set%s %%dl' % f, 'movzbl %dl, %edx', 'mov %%edx, %d(%%rsi)' % off]
        off += 4
    name = 'e%d' % idx
    lines = pre + body + post + (['vzeroupper'] if frame != 'g' else []) + ['ret']
    return name, '    .globl %s\n%s:\n' % (name, name) + ''.join('    %s\n' % b for b in lines), \
        ('m', None, off // 4, None)


# ------------------------------------------------------------------ coverage
# Not compared with the CPU: control flow (the proofs follow it: loop structure, the
# taken branches' conditions), and addresses of .rodata (lea sym(%rip): the assembled
# object's relocations are checked against the parsed text by asm.py).
def _is_control(ins):
    return ins.mnem.startswith('j') or ins.mnem in ('ret', 'endbr64')


def form_key(ins):
    """an instruction's form: its mnemonic and the kind of each operand (register file and
    width, memory, broadcast, immediate, mask decoration), not which register or value."""
    def kind(o):
        if o.kind == 'reg':
            r = o.reg
            if r[:3] in ('xmm', 'ymm', 'zmm'):
                k = r[0]
            elif re.fullmatch(r'k\d', r):
                k = 'k'
            elif re.fullmatch(r'r([a-z]{2}|\d+)', r):
                k = 'g64'
            elif re.fullmatch(r'e[a-z]{2}|r\d+d', r):
                k = 'g32'
            else:
                k = 'g8' if re.search(r'(l|b)$', r) else 'g16'
        elif o.kind == 'mem':
            # a load from .rodata is the same form as one from memory anywhere (what
            # %rip addresses is checked against the object by asm.py); lea of it is not
            k = 'm' + ('{1to%d}' % o.bcst if o.bcst else '')
            if o.base == 'rip' and ins.mnem == 'lea':
                k = 'rip' 
        else:
            k = o.kind
        return k + ('{k}' if o.mask else '') + ('{z}' if o.zero else '')
    return (ins.mnem,) + tuple(kind(o) for o in ins.ops)


def kernel_forms(asm_dir, isas=None):
    """form -> where the proved x86 kernels of isas use it (a function declared not proved
    is not counted: its forms come with its proof)."""
    from .inventory import ISAS, NOT_PROVED
    from .keccak import KERNELS_X86
    skip = {'mldsa_%s_%s' % (k, isa) for k in NOT_PROVED for isa in ISAS if (isa, k) not in KERNELS_X86}
    used = {}
    for isa in isas or ISAS:
        d = os.path.join(asm_dir, isa)
        for f in sorted(os.listdir(d)):
            if not f.endswith('.S'):
                continue
            for fn in asm.parse(os.path.join(d, f)).functions.values():
                if fn.name in skip:
                    continue
                for ins in fn.insns:
                    key = form_key(ins)
                    if _is_control(ins) or (ins.mnem == 'lea' and key[1] == 'rip'):
                        continue
                    used.setdefault(key, '%s/%s:%d' % (isa, f, ins.line))
    return used


def cpu_has_avx512():
    try:
        with open('/proc/cpuinfo') as f:
            flags = next(l for l in f if l.startswith('flags')).split()
        return all(x in flags for x in ('avx512f', 'avx512bw', 'avx512vl'))
    except (OSError, StopIteration):
        return False


def build_forms(rnd, sample=0, have_avx512=True):
    """(name, text, destination, description) of every form to run."""
    insts = instances(rnd)
    if not have_avx512:
        skipped = [i for i in insts if i[3] == 'evex']
        insts = [i for i in insts if i[3] != 'evex']
        print('differential: no AVX-512 on this CPU: %d EVEX forms skipped' % len(skipped))
    if sample and sample < len(insts):
        insts = rnd.sample(insts, sample)
    funcs = []
    for idx, (mn, w, shape, enc, masked, mem) in enumerate(insts):
        name, text, dest = instance_text(mn, w, shape, enc, masked, mem, rnd, idx)
        funcs.append((name, text, dest, '%s %s %s%s%s' % (mn, w + 'mm', enc, ' ' + masked if masked else '',
                                                       {'m': ' memory', 'b': ' broadcast'}.get(mem, ''))))
    for idx, (ins, flags, w) in enumerate(gpr_instances()):
        name, text, dest = gpr_text(ins, flags, idx)
        funcs.append((name, text, dest, '%s (%d-bit; flags %s)' % (ins, w, flags or '-')))
    for idx, (body, frame, outs) in enumerate(EXPLICIT_FORMS):
        if frame in ('z', 'k64') and not have_avx512:
            continue
        name, text, dest = explicit_text(body, frame, outs, idx)
        funcs.append((name, text, dest, '; '.join(body) + ' (%s frame)' % frame))
    return funcs


def run_forms(funcs, cases, rnd, used=None, machine_cls=None, quiet=False):
    """build the forms into a shared object, run each on this CPU and by the semantics;
    returns (forms wrong or not run, cases). used: forms that must be among those run."""
    say = (lambda *a: None) if quiet else print
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
        run_keys = {form_key(i) for fn in unit.functions.values() for i in fn.insns}
        for k, where in sorted((used or {}).items()):
            if k not in run_keys:
                say('differential: NOT RUN: %s %s (used at %s)' % (k[0], ', '.join(k[1:]), where))
                bad += 1
        cls = machine_cls or ExactMachine
        at64 = type('At64', (cls,), {'arg_align': {'in': (64, 0), 'out': (64, 0)}})
        # every memory form also at an unaligned address: which fault, on the CPU and in the model
        faulted = cpu_faults(lib, [name for name, _, _, what in funcs if memory_form(what)])
        for name, text, dest, what in funcs:
            if memory_form(what):
                bad += check_unaligned(unit, name, what, cls, name in faulted, say)
            try:
                m = run(unit, name, {'rdi': ('ptr', 'in'), 'rsi': ('ptr', 'out')},
                        machine_cls=at64, frame=64).m
            except Exception as e:      # a form the semantics cannot run is a failure
                say('differential: %s: prover error: %s' % (what, e))
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
                words += [rnd.choice([0, 0xffff, 0x5555, 0xff00, 0x00ff, rnd.getrandbits(16)]) for _ in range(2)]
                # `in` and `out` 64-byte aligned (the unaligned run is check_unaligned's)
                raw, inp = aligned_words(96, 0)
                for j, x in enumerate(words):
                    raw[inp + j] = x
                outbuf, outp = aligned_words(48, 0)
                fn(ctypes.c_void_p(ctypes.addressof(raw) + 4 * inp), ctypes.c_void_p(ctypes.addressof(outbuf) + 4 * outp))
                cpu = list(outbuf)[outp:outp + nbytes // 4]
                subs = [(v, z3.BitVecVal(words[k[1]] if k[1] < len(words) else 0, 32)) for k, v in invars]
                val = z3.simplify(z3.substitute(whole, *subs)) if subs else z3.simplify(whole)
                ncases += 1
                if not z3.is_bv_value(val):
                    say('differential: %s: the prover\'s result is not a function of the inputs: %s'
                        % (what, str(val)[:200]))
                    bad += 1
                    break
                v = val.as_long()
                got = [(v >> (32 * (len(outs) - 1 - j))) & 0xffffffff for j in range(len(outs))]
                if got != cpu:
                    say('differential: MISMATCH %s\n  %s\n  inputs %s\n  cpu    %s\n  prover %s'
                        % (what, text.split('\n')[-5].strip(), [hex(x) for x in words[:16]],
                           [hex(x) for x in cpu], [hex(x) for x in got]))
                    bad += 1
                    break
    return bad, ncases


def aligned_words(n, off):
    """a zeroed buffer of n dwords and the index of its first dword at off bytes past a
    64-byte boundary (off a multiple of 4), with at least n - 16 dwords from there."""
    raw = (ctypes.c_uint32 * n)()
    return raw, ((off - ctypes.addressof(raw)) % 64) // 4


# The unaligned run: `in` and `out` both 4 bytes past a 64-byte boundary, which no form
# that requires alignment (16, 32 or 64 bytes) accepts.
MISALIGN = 4


def memory_form(what):
    """whether the form run is one with a memory operand (the frame's own loads from `in`
    and stores to `out` are forms of their own)."""
    return what.endswith((' memory', ' broadcast')) or '(%r' in what


def cpu_faults(lib, names):
    """the functions of names that fault on this CPU when called with `in` and `out` both
    MISALIGN bytes off a 64-byte boundary. They run in order in a child process, which
    names each before calling it; a fault (SIGSEGV, SIGBUS) ends the child, and a new one
    goes on after the function that faulted."""
    import signal
    import struct
    faulted, start = set(), 0
    while start < len(names):
        rd, wr = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(rd)
                raw, inp = aligned_words(128, MISALIGN)
                out, outp = aligned_words(48, MISALIGN)
                args = (ctypes.c_void_p(ctypes.addressof(raw) + 4 * inp), ctypes.c_void_p(ctypes.addressof(out) + 4 * outp))
                for i in range(start, len(names)):
                    os.write(wr, struct.pack('<i', i))
                    getattr(lib, names[i])(*args)
                os.write(wr, struct.pack('<i', -1))
            finally:
                os._exit(0)
        os.close(wr)
        with os.fdopen(rd, 'rb') as f:
            data = f.read()
        _, status = os.waitpid(pid, 0)
        seen = struct.unpack('<%di' % (len(data) // 4), data[:len(data) // 4 * 4])
        if seen and seen[-1] == -1:
            break
        if not (seen and os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGSEGV, signal.SIGBUS)):
            raise RuntimeError('the unaligned run ended with status %d after %s' % (status, seen[-1:]))
        faulted.add(names[seen[-1]])
        start = seen[-1] + 1
    return faulted


def check_unaligned(unit, name, what, cls, cpu, say):
    """the model of a memory form with `in` and `out` off alignment: it must refuse the
    access exactly where the CPU faulted (cpu). Returns 1 on a disagreement."""
    off = type('Off', (cls,), {'arg_align': {'in': (64, MISALIGN), 'out': (64, MISALIGN)}})
    try:
        run(unit, name, {'rdi': ('ptr', 'in'), 'rsi': ('ptr', 'out')}, machine_cls=off, frame=64)
        model = None
    except Exception as e:
        model = str(e)
        if 'aligned address' not in model:
            return 0        # not an alignment matter: the aligned run reports it
    if cpu == bool(model):
        return 0
    say('differential: ALIGNMENT %s: at an address %d bytes off a 64-byte boundary the CPU %s, the model %s'
        % (what, MISALIGN, 'faults' if cpu else 'does not fault', model or 'accepts it'))
    return 1


class _SwappedBroadcast(ExactMachine):
    """a planted semantics error: a broadcast qword's dwords in the wrong order."""

    def load_dwords(self, op, n):
        ds = super().load_dwords(op, n)
        if op.bcst and n == 2 * op.bcst:
            ds = [ds[1], ds[0]] * op.bcst
        return ds


def planted(funcs, rnd):
    """the harness must fail on planted errors: a semantics entry replaced (movsbl
    zero-extending, vpminud signed), broadcasts of qwords swapped, and a form the kernels
    use left out. Returns the number of plants that went unnoticed."""
    from . import semantics
    missed = 0
    pick = lambda words: [f for f in funcs if any(w in f[1] for w in words)]
    # (the entry planted, the entry whose semantics it is given, text of the forms to run)
    swaps = [('movsbl', 'movzbl', ['movsbl']), ('vpminud', 'pcmpgtd', ['minud'])]
    for name, like, words in swaps:
        saved = semantics.TABLE[name]
        semantics.TABLE[name] = (saved[0], semantics.TABLE[like][1])
        try:
            bad, _ = run_forms(pick(words), 4, rnd, quiet=True)
        finally:
            semantics.TABLE[name] = saved
        print('differential: planted %s given %s semantics: %s' % (name, like, 'caught' if bad else 'MISSED'))
        missed += not bad
    if any('{1to8}' in f[1] for f in funcs):      # EVEX: where the CPU has AVX-512
        bad, _ = run_forms(pick(['{1to8}']), 4, rnd, machine_cls=_SwappedBroadcast, quiet=True)
        print('differential: planted qword broadcast halves swapped: %s' % ('caught' if bad else 'MISSED'))
        missed += not bad
    # the alignment model planted wrong both ways: no form requiring alignment (the CPU
    # faults on movdqa and legacy pand), and every memory form requiring it (it does not
    # fault on movdqu)
    saved = semantics.alignment_required
    for what, plant, words in (('no form requiring alignment', lambda ins: None, ['movdqa 64(%rdi)', 'pand 64(%rdi)']),
                               ('every memory form requiring 16 bytes', lambda ins: 16, ['movdqu 40(%rdi)'])):
        semantics.alignment_required = plant
        try:
            bad, _ = run_forms(pick(words), 1, rnd, quiet=True)
        finally:
            semantics.alignment_required = saved
        print('differential: planted alignment model with %s: %s' % (what, 'caught' if bad else 'MISSED'))
        missed += not bad
    key = ('planted', 'y')
    rest = funcs[:1]
    bad, _ = run_forms(rest, 1, rnd, used={key: 'planted'}, quiet=True)
    print('differential: planted a used form left out of the harness: %s' % ('caught' if bad else 'MISSED'))
    missed += not bad
    return missed


def main(cases=16, sample=0, seed=1, asm_dir='asm_out'):
    rnd = random.Random(seed)
    t0 = time.time()
    have_avx512 = cpu_has_avx512()
    funcs = build_forms(rnd, sample, have_avx512)
    # every form the proved kernels use must be among those run (on a CPU without
    # AVX-512 the avx512 kernels' forms are skipped, as the EVEX forms above)
    used = {} if sample else kernel_forms(asm_dir, None if have_avx512 else ['sse2', 'avx2'])
    bad, ncases = run_forms(funcs, cases, rnd, used)
    print('differential: %d instruction forms (%d used by the proved kernels, every one run), %d cases, '
          '%d mismatches, %.0f s' % (len(funcs), len(used), ncases, bad, time.time() - t0))
    missed = planted(funcs, rnd)
    return 1 if bad or missed else 0
