# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The A64 semantics against execution: every vector form of prover/a64.py the neon
kernels use is built into a small static AArch64 program (one function per form: load
v0, v1 (and v17 = v1), v2 from memory, the instruction, store v2), run under
qemu-aarch64 (-cpu max: the SHA3 forms too) on random and edge operands, and run by the prover's parser, executor and
semantics with exact products; the 128 bits of v2 (and what a form stores itself: 32 bytes of out, zeroed
before each call) must agree. General-purpose forms run between fmov moves (their flags
read by cset). Every form the proved neon kernels use (form_key) must be among those run,
and planted semantics errors must be caught."""
import functools
import os
import random
import re
import shutil
import subprocess
import tempfile

import z3

from . import a64, asm

FORMS = ['%s v2.4s, v0.4s, v1.4s' % m for m in
         ('add', 'sub', 'cmgt', 'cmeq', 'smin', 'smax', 'umin', 'umax', 'shsub', 'mul',
          'sqdmulh', 'sqrdmulh')]
FORMS += ['%s v2.16b, v0.16b, v1.16b' % m for m in ('and', 'orr', 'eor', 'bic')]
FORMS += ['abs v2.4s, v0.4s']
FORMS += ['shl v2.4s, v0.4s, #%d' % k for k in (0, 1, 13, 31)]
FORMS += ['%s v2.4s, v0.4s, #%d' % (m, k) for m in ('sshr', 'ushr', 'urshr') for k in (1, 13, 23, 31, 32)]
FORMS += ['ushr v2.2d, v0.2d, #%d' % k for k in (1, 24, 28, 32, 33, 63, 64)]
FORMS += ['smlal v2.2d, v0.2s, v1.2s', 'smlal2 v2.2d, v0.4s, v1.4s',
          'smlsl v2.2d, v0.2s, v1.2s', 'smlsl2 v2.2d, v0.4s, v1.4s']
FORMS += ['uzp1 v2.4s, v0.4s, v1.4s', 'uzp2 v2.4s, v0.4s, v1.4s', 'addv s2, v0.4s', 'umaxv s2, v0.4s',
          'movi v2.2d, #0']
# the transforms: multiply-subtract, products by element, interleaves, d and pair loads
# (x0 points to the 48 input bytes: the loads' results are the input bytes they name)
FORMS += ['mls v2.4s, v0.4s, v1.4s', 'mla v2.4s, v0.4s, v1.4s']
FORMS += ['%s v2.4s, v0.4s, v1.s[%d]' % (m, i) for m in ('mul', 'sqrdmulh', 'sqdmulh') for i in range(4)]
FORMS += ['sqrdmulh v2.4s, v0.4s, v17.s[3]']
FORMS += ['%s v2.%s, v0.%s, v1.%s' % (m, a, a, a) for m in ('zip1', 'zip2') for a in ('4s', '2d')]
FORMS += ['ldr d2, [x0, #8]', 'ldr d2, [x0, #40]', 'ldr q2, [x0, #16]',
          'ldp q2, q3, [x0, #16]', 'ldp q3, q2, [x0]']
# unpack_z: post-indexed loads and stores (the next access sees the new base; the out
# buffer holds 8 dwords), tbl of one register, ushl by signed per-lane counts
FORMS += ['ldr q3, [x0], #9\n    ldr q2, [x0]', 'ldr q3, [x0], #-4\n    ldr q2, [x0, #16]',
          'str q0, [x1], #4', 'str q0, [x1], #13\n    sub x1, x1, #9']
FORMS += ['tbl v2.16b, {v0.16b}, v1.16b', 'tbl v2.16b, {v17.16b}, v0.16b', 'ushl v2.4s, v0.4s, v1.4s']
# General-purpose forms: w2 and w3 from lanes 0 of v0 and v1 (x2, x3 zero-extended), the
# form, the flags it sets read by cset into w4; w2 (or x2) back into v2 and w4 into v3,
# stored at out[16..31].
def _gpr(form, xform=False, cond=None):
    lines = ['fmov w2, s0', 'fmov w3, s1', form]
    if cond:
        lines.append('cset w4, ' + cond)
    lines.append('fmov d2, x2' if xform else 'fmov s2, w2')
    if cond:
        lines += ['fmov s3, w4', 'str q3, [x1, #16]']
    return '\n    '.join(lines)


FLAG_CONDS = ('eq', 'ne', 'hs', 'lo', 'hi', 'ls', 'mi', 'lt', 'gt')
FORMS += [_gpr('subs w2, w2, #1', cond=c) for c in FLAG_CONDS]
FORMS += [_gpr('cmp w2, w3', cond=c) for c in FLAG_CONDS]
FORMS += [_gpr('cmp w2, #%d' % k, cond=c) for k in (0, 8, 255) for c in ('hi', 'lo', 'hs')]
FORMS += [_gpr('add x2, x2, #%d' % k, xform=True) for k in (1, 4095)]
FORMS += [_gpr('add x2, x2, x3', xform=True), _gpr('sub w2, w2, w3'), _gpr('mov w2, #4660'),
          _gpr('mov w2, w3'), _gpr('mov x2, x3', xform=True), _gpr('add x3, x2, x2\n    mov x2, x3', xform=True)]
FORMS += ['ld1r {v2.4s}, [x0]', 'add x3, x0, #20\n    ld1r {v2.4s}, [x3]', 'ldr d2, [x0]', 'str q1, [x1]\n    ldr q2, [x1]']
# The Keccak bodies: the SHA3 extension (v2 the third source), 64-bit lanes; 64-bit
# general forms (x2, x3 from the low halves of v0, v1; x2 back into v2's low half) with
# shifted registers, ror, movz; loads and stores of x and d registers and pairs, pre- and
# post-indexed (each writeback seen by the next access or moved into v2), and sp moved.
FORMS += ['eor3 v2.16b, v0.16b, v1.16b, v2.16b', 'bcax v2.16b, v0.16b, v1.16b, v2.16b',
          'rax1 v2.2d, v0.2d, v1.2d', 'add v2.2d, v0.2d, v1.2d']
FORMS += ['xar v2.2d, v0.2d, v1.2d, #%d' % k for k in (0, 1, 2, 37, 63)]
FORMS += ['sri v2.2d, v0.2d, #%d' % k for k in (1, 8, 36, 63, 64)]
FORMS += ['shl v2.2d, v0.2d, #%d' % k for k in (0, 1, 28, 31, 32, 36, 40, 63)]
FORMS += ['ld1r {v2.2d}, [x0]', 'mov x3, x0\n    ld1r {v3.2d}, [x3], #8\n    ld1r {v2.2d}, [x3]\n    str q3, [x1, #16]']


def _gpr64(form):
    return '\n    '.join(['fmov x2, d0', 'fmov x3, d1', form, 'fmov d2, x2'])


FORMS += [_gpr64('%s x2, x2, x3, %s #%d' % (op, sh, k)) for op in ('eor', 'bic')
          for sh in ('ror', 'lsl', 'lsr', 'asr') for k in (0, 1, 44, 63)]
FORMS += [_gpr64('eor x2, x2, x3'), _gpr64('bic x2, x2, x3')]
FORMS += [_gpr64('ror x2, x3, #%d' % k) for k in (0, 1, 44, 63)]
FORMS += [_gpr64('movz x2, #%d, lsl #%d' % (v, k)) for v, k in ((1, 0), (32898, 0), (65535, 16), (0x8000, 48))]
FORMS += [_gpr64('movz x2, #138')]
FORMS += ['ldr x2, [x0]\n    fmov d2, x2', 'ldr x2, [x0, #24]\n    fmov d2, x2',
          'ldp x2, x3, [x0, #8]\n    fmov d2, x2\n    fmov d3, x3\n    str q3, [x1, #16]',
          'fmov x2, d0\n    str x2, [x1, #16]', 'fmov x2, d0\n    fmov x3, d1\n    stp x2, x3, [x1, #16]',
          'ldp d2, d3, [x0, #8]\n    str q3, [x1, #16]', 'stp d0, d1, [x1, #16]', 'str d1, [x1, #24]',
          'stp q0, q1, [x1]\n    ldr q2, [x1]',
          'add x3, x1, #32\n    stp d0, d1, [x3, #-16]!\n    sub x3, x3, x1\n    fmov d2, x3',
          'mov x3, x0\n    ldp d2, d3, [x3], #24\n    ldr d3, [x3]\n    str q3, [x1, #16]',
          'sub sp, sp, #112\n    mov x2, sp\n    add sp, sp, #112\n    mov x3, sp\n    sub x2, x3, x2\n'
          '    fmov d2, x2']
# the samplers: byte compares, shifts, interleaves and pair sums, sign extensions, an
# element insert, s/b/h loads, unscaled and register-offset addressing (the index a
# constant, so the store lands in out[16..31]; x3's upper half set first, which uxtw drops),
# ubfx, movk, cinc, shifted-register and bitmask-immediate forms, mul, lsr
FORMS += ['cmhi v2.4s, v0.4s, v1.4s', 'cmhi v2.16b, v0.16b, v1.16b', 'addp v2.16b, v0.16b, v1.16b',
          'zip1 v2.16b, v0.16b, v1.16b', 'zip2 v2.16b, v0.16b, v1.16b']
FORMS += ['ushr v2.8b, v0.8b, #%d' % k for k in (1, 4, 8)] + ['ushr v2.16b, v0.16b, #3']
FORMS += ['sxtl v2.8h, v0.8b', 'sxtl2 v2.8h, v0.16b', 'sxtl v2.4s, v0.4h', 'sxtl2 v2.4s, v0.8h',
          'mov v2.s[2], v1.s[0]', 'mov v2.s[0], v1.s[3]']
FORMS += ['ldr s2, [x0, #8]', 'ldr s2, [x0]', 'ldur q2, [x0, #8]', 'ldur q2, [x0, #3]']
FORMS += [_gpr('ldrb w2, [x0, #%d]' % k) for k in (2, 7)] + [_gpr('ldrh w2, [x0, #%d]' % k) for k in (0, 6)]
FORMS += [_gpr('mov w3, #5\n    str w2, [x1, w3, uxtw #2]'),
          _gpr('mov x3, #5\n    add x3, x3, x3, lsl #32\n    str w2, [x1, w3, uxtw #2]')]
FORMS += [_gpr('ubfx w2, w2, #%d, #%d' % (l, n)) for l, n in ((0, 4), (4, 4), (28, 4), (5, 27))]
FORMS += [_gpr('movk w2, #127, lsl #16'), _gpr('movk w2, #4660')]
FORMS += [_gpr('cmp w2, w3\n    cinc w2, w2, %s' % c) for c in ('lo', 'hs', 'hi')]
FORMS += [_gpr('add x2, x2, x3, lsl #4', xform=True), _gpr('add x2, x2, w3, uxtw #2', xform=True),
          _gpr('add x3, x3, x3, lsl #32\n    add x2, x2, w3, uxtw #2', xform=True),
          _gpr('add w2, w2, w3'), _gpr('add w2, w2, w2, lsl #2'), _gpr('add w2, w2, w3, lsl #31'), _gpr('add w2, w2, #2'),
          _gpr('sub w2, w2, w3, lsl #3')]
FORMS += [_gpr('orr w2, w2, w3, lsl #16'), _gpr('and w2, w2, #0x7fffff'), _gpr('and w2, w3, #15'),
          _gpr('mul w2, w2, w3'), _gpr('lsr w2, w2, #10'), _gpr('lsr w2, w3, #4')]
FORMS += [_gpr('cmp x2, #%d' % k, xform=True, cond=c) for k in (3, 24) for c in ('lo', 'hs')]

# v1's words for these forms: tbl indexes in [0, 20) (a fifth beyond the table), ushl
# counts in [-40, 40] (beyond 32 both ways)
SMALL = {'tbl v2.16b, {v0.16b}, v1.16b':
         lambda r, w: int.from_bytes(bytes(r.randrange(20) for _ in range(4)), 'little'),
         'ushl v2.4s, v0.4s, v1.4s': lambda r, w: (w & ~0xff) | (r.randint(-40, 40) & 0xff)}

EDGE = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 8380417, (-8380417) % (1 << 32), 58728449]


class Exact(a64.A64):
    """products as exact bit-vector terms (the operands are concrete here)."""
    def product(self, kind, x, y):
        if kind == 's':
            return z3.SignExt(32, x) * z3.SignExt(32, y)
        if kind == 'u':
            return z3.ZeroExt(32, x) * z3.ZeroExt(32, y)
        return x * y


@functools.lru_cache(maxsize=None)
def run_form(form):
    """the form run once by the semantics, on symbolic inputs."""
    text = '    .text\nf:\n' + ''.join('    %s\n' % l for l in frame(form))
    u = asm.parse('form.S', text, arch='a64', check_bytes=False)
    saved = a64.A64
    try:
        a64.A64 = Exact
        return a64.run(u, 'f', {'x0': ('ptr', 'in'), 'x1': ('ptr', 'out')}).m
    finally:
        a64.A64 = saved


def prover_value(form, ins):
    m = run_form(form)
    subs = [(m.input_var('in', i), z3.BitVecVal(v, 32)) for i, v in enumerate(ins)]
    subs += [(m.input_var('out', i), z3.BitVecVal(0, 32)) for i in range(8)]   # zeroed
    out = []
    for j in range(8):
        t = z3.simplify(z3.substitute(m.load('out', 4 * j, 4), *subs))
        out.append(t.as_long() if z3.is_bv_value(t) else None)
    return out


def form_key(ins):
    """an instruction's form: the mnemonic and each operand's kind (arrangement, element
    size, register class, immediate, memory), not which register or value."""
    def kind(o):
        if o.kind in ('vreg', 'vlist', 'velem'):
            return '%s.%s' % (o.kind, o.sym)
        if o.kind == 'reg':
            return o.reg[0] if o.reg[0] in 'xwqdsbh' else o.reg
        if o.kind == 'shift' or o.kind == 'mem' and o.index:
            return '%s.%s' % (o.kind, o.sym)
        return o.kind
    return (ins.mnem,) + tuple(kind(o) for o in ins.ops)


def _not_compared(ins):
    """control flow (the proofs follow it), the BTI landing pad, and .rodata addresses
    (adrp + add :lo12: or ldr [xN, #:lo12:], checked against the object's relocations by
    asm.py; ldr's load is the form ldr x, [xN] run here)."""
    return ins.mnem in ('ret', 'hint', 'adrp', 'cbz', 'cbnz', 'b') or ins.mnem.startswith('b.') or \
        any(o.kind in ('lo12', 'memlo12') for o in ins.ops)


def kernel_forms(asm_dir='asm_out'):
    """form -> where the proved neon kernels use it."""
    from .inventory import NEON_NOT_PROVED, neon_key
    used = {}
    for f in sorted(os.listdir(os.path.join(asm_dir, 'neon'))):
        if not f.endswith('.S'):
            continue
        path = os.path.join(asm_dir, 'neon', f)
        text = open(path).read()
        names = [n for n in re.findall(r'\.globl (mldsa_\w+)', text) if neon_key(n) not in NEON_NOT_PROVED]
        if not names:
            continue
        u = asm.parse(path, arch='a64')
        for n in names:
            for ins in u.functions[n].insns:
                if not _not_compared(ins):
                    used.setdefault(form_key(ins), '%s:%d' % (f, ins.line))
    return used


def frame(form):
    return ['ldr q0, [x0]', 'ldr q1, [x0, #16]', 'ldr q17, [x0, #16]', 'ldr q2, [x0, #32]',
            form, 'str q2, [x1]', 'ret']


def uncovered(forms, used):
    text = '    .text\n' + ''.join('f%d:\n' % k + ''.join('    %s\n' % l for l in frame(f))
                                 for k, f in enumerate(forms))
    u = asm.parse('forms.S', text, arch='a64', check_bytes=False)
    run = {form_key(i) for fn in u.functions.values() for i in fn.insns}
    return {k: w for k, w in used.items() if k not in run}


def main(cases=16, seed=1, asm_dir='asm_out'):
    cc = os.environ.get('CC_AARCH64', 'aarch64-linux-gnu-gcc')
    qemu = shutil.which('qemu-aarch64') or shutil.which('qemu-aarch64-static')
    if not shutil.which(cc) or not qemu:
        # a check that did not run must not pass: CI installs both (ci/install-deps)
        print('A64 differential: FAILED: no %s or qemu-aarch64 (ci/install-deps '
              'gcc-aarch64-linux-gnu qemu-user)' % cc)
        return 1
    rnd = random.Random(seed)
    data = []
    for f in FORMS:
        rows = []
        for _ in range(cases):
            row = [rnd.choice(EDGE) if rnd.random() < 0.3 else rnd.getrandbits(32) for _ in range(12)]
            if f in SMALL:
                row[4:8] = [SMALL[f](rnd, w) for w in row[4:8]]
            rows.append(row)
        data.append(rows)
    s = ['    .arch armv8.2-a+sha3', '    .text']
    for k, f in enumerate(FORMS):
        s += ['    .globl f%d' % k, 'f%d:' % k] + ['    ' + l for l in frame(f)]
    c = ['#include <stdio.h>', '#include <stdint.h>']
    c += ['void f%d(const uint32_t *, uint32_t *);' % k for k in range(len(FORMS))]
    c += ['static const uint32_t in[%d][%d][12] = {%s};' % (len(FORMS), cases, ','.join(
        '{%s}' % ','.join('{%s}' % ','.join('0x%xu' % v for v in row) for row in rows) for rows in data))]
    c += ['typedef void (*fn)(const uint32_t *, uint32_t *);',
          'static const fn fs[] = {%s};' % ','.join('f%d' % k for k in range(len(FORMS))),
          'int main(void) { for (unsigned k = 0; k < %d; k++) for (unsigned i = 0; i < %d; i++) {'
          ' uint32_t o[8] = {0}; fs[k](in[k][i], o); for (unsigned j = 0; j < 8; j++)'
          ' printf("%%x%%c", o[j], j < 7 ? 32 : 10); } return 0; }' % (len(FORMS), cases)]
    with tempfile.TemporaryDirectory(prefix='prover-a64-') as d:
        with open(os.path.join(d, 'f.S'), 'w') as fh:
            fh.write('\n'.join(s) + '\n')
        with open(os.path.join(d, 'm.c'), 'w') as fh:
            fh.write('\n'.join(c) + '\n')
        exe = os.path.join(d, 'a')
        subprocess.run([cc, '-static', '-O1', '-o', exe, os.path.join(d, 'm.c'), os.path.join(d, 'f.S')],
                       check=True)
        lines = subprocess.run([qemu, '-cpu', 'max', exe], check=True, capture_output=True, text=True).stdout.split('\n')
    # every form the proved neon kernels use must be among those run; a form left out
    # must be noticed
    used = kernel_forms(asm_dir)
    missing = uncovered(FORMS, used)
    for k, where in sorted(missing.items()):
        print('A64 differential: NOT RUN: %s %s (used at %s)' % (k[0], ', '.join(k[1:]), where))
    left_out = next(f for f in FORMS if 'ld1r' in f)
    if not uncovered([f for f in FORMS if f != left_out and 'ld1r' not in f], used):
        print('A64 differential: planted a used form (ld1r) left out: MISSED')
        missing['planted'] = ''
    bad, n = len(missing), 0
    for k, f in enumerate(FORMS):
        wrong = 0
        for i in range(cases):
            real = [int(x, 16) for x in lines[k * cases + i].split()]
            got = prover_value(f, data[k][i])
            n += 1
            if got != real:
                wrong += 1
                if wrong == 1:
                    print('A64 differential: %s on %s: qemu %s, prover %s' % (
                        f, [hex(x) for x in data[k][i]], [hex(x) for x in real],
                        [hex(x) if x is not None else None for x in got]))
        bad += wrong > 0
    print('A64 differential: %d forms (%d used by the proved neon kernels, every one run), %d cases against '
          'qemu-aarch64, %d forms wrong or not run' % (len(FORMS), len(used), n, bad))
    # planted semantics errors must be caught: uzp1 given uzp2's, bcax given eor3's, cmp
    # with its operands exchanged, the unsigned compare given the signed one's, zip1 .16b
    # given zip2's
    cmp = a64.TABLE['cmp']
    plants = [('vuzp1', a64.TABLE['vuzp2'], 'uzp1 '), ('vbcax', a64.TABLE['veor3'], 'bcax '),
              ('cmp', lambda m, ins, ops: cmp(m, ins, ops[::-1]), 'cmp w2, w3'),
              ('vcmhi', a64.TABLE['vcmgt'], 'cmhi v2.4s'), ('vzip1', a64.TABLE['vzip2'], 'zip1 v2.16b')]
    for key, wrong_sem, text in plants:
        saved = a64.TABLE[key]
        a64.TABLE[key] = wrong_sem
        run_form.cache_clear()
        try:
            caught = any(prover_value(f, data[k][i]) != [int(x, 16) for x in lines[k * cases + i].split()]
                         for k, f in enumerate(FORMS) if text in f for i in range(cases))
        finally:
            a64.TABLE[key] = saved
            run_form.cache_clear()
        print('A64 differential: planted %s semantics wrong: %s' % (key, 'caught' if caught else 'MISSED'))
        bad += not caught
    return 1 if bad else 0
