# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The self-test's planted bugs at the edges of the ABI: memory alignment, the flags at
entry, the return, AArch64's preserved registers and return-address signing. Each must be
rejected, and for its reason: the first failed item's message must name the cause. Also
instruction forms whose operand size follows the register class, with known answers."""
import z3

from . import asm, pool

# (isa, file, kernel, text, replacement, what the bug is, what the rejection must say)
PLANTED = [
    # alignment: an aligned form on an argument the contract leaves unaligned
    ('sse2', 'add', 'add', 'movdqu 0(%rsi), %xmm0  # a', 'movdqa 0(%rsi), %xmm0  # a',
     'movdqa on the polynomial a (4-byte aligned by its contract)', 'movdqa needs a 16-byte aligned address: argument a'),
    ('avx2', 'add', 'add', 'vmovdqu 0(%rsi), %ymm0  # a', 'vmovdqa 0(%rsi), %ymm0  # a',
     'vmovdqa on the polynomial a', 'vmovdqa needs a 32-byte aligned address: argument a'),
    ('avx512', 'add', 'add', 'vmovdqu32 0(%rsi), %zmm0  # a', 'vmovdqa32 0(%rsi), %zmm0  # a',
     'vmovdqa32 on the polynomial a', 'vmovdqa32 needs a 64-byte aligned address: argument a'),
    ('sse2', 'add', 'add', 'paddd %xmm1, %xmm0', 'paddd 0(%rdx), %xmm0',
     'a legacy-SSE paddd with the polynomial b as its memory operand', 'paddd needs a 16-byte aligned address: argument b'),
    ('avx2', 'keccak_f1600_batch', 'keccak_f1600_batch', 'vmovdqu 0(%rdi), %ymm0', 'vmovdqa 0(%rdi), %ymm0',
     'vmovdqa on the Keccak states (8-byte aligned by their contract)', 'argument s by its contract is only 8-byte aligned'),
    # alignment: .rodata placed off the alignment its aligned loads need
    ('sse2', 'caddq', 'caddq', '    .balign 16\n.Lq:', '    .balign 4\n.Lq:',
     '.rodata aligned to 4 only (movdqa .Lq)', '.rodata is only 4-byte aligned in the object'),
    ('sse2', 'caddq', 'caddq', '.Lq:  # q\n', '    .long 0\n.Lq:  # q\n',
     '.Lq 4 bytes past the section\'s 16-byte alignment', 'offset 4 from rodata'),
    ('sse2', 'pointwise_montgomery', 'pointwise_montgomery', '    .balign 16\n.Lq:', '    .balign 16\n    .quad 0\n.Lq:',
     '.Lq and .Lqinv 8 bytes off (movdqa and pand read them)', 'from rodata (8 modulo 16)'),
    # the flags at entry are unknown
    ('avx2', 'add', 'add', '    mov $4, %eax\n', '    inc %r11\n    jc 9f\n9:\n    mov $4, %eax\n',
     'inc keeps CF: a jc on the caller\'s CF', 'CF read before any instruction wrote it'),
    ('sse2', 'add', 'add', '    mov $8, %eax\n', '    mov $8, %eax\n    dec %r11\n    setc %r11b\n',
     'setc after dec (which keeps CF) reads the caller\'s CF', 'CF read before any instruction wrote it'),
    ('sse2', 'add', 'add', '    mov $8, %eax\n', '    mov $8, %eax\n    rol $1, %r11\n    jz 9f\n9:\n',
     'rol writes CF and OF only: a jz on the caller\'s ZF', 'ZF read before any instruction wrote it'),
    ('avx512', 'add', 'add', '    mov $2, %eax\n', '    adc $0, %r11\n    mov $2, %eax\n',
     'adc at entry adds the caller\'s CF', 'CF read before any instruction wrote it'),
    ('neon', 'add', 'add', '    mov w9, #8\n', '    mov w9, #8\n    cset w10, hs\n',
     'cset at entry reads the caller\'s NZCV', 'before any flag was set'),
    # the return
    ('avx2', 'add', 'add', '    vzeroupper\n    ret', '    vzeroupper\n    ret $8',
     'ret $8: the caller\'s stack ends 8 bytes off', 'ret with an operand'),
    ('sse2', 'add', 'add', '# end of body\n    ret', '# end of body\n    ret $16', 'ret $16', 'ret with an operand'),
    ('avx2', 'add', 'add', '    vzeroupper\n    ret', '    vzeroupper\n    lea 8(%rsp), %rsp\n    ret',
     '%rsp 8 bytes up at ret (no write)', 'stack pointer not restored at ret'),
    ('sse2', 'add', 'add', '# end of body\n    ret', '# end of body\n    sub $16, %rsp\n    ret',
     '%rsp 16 bytes down at ret', 'stack pointer not restored at ret'),
    ('neon', 'sub', 'sub', '    ret\n', '    mov x18, x0\n    ret\n', 'the platform register x18 written',
     'x18 not preserved at ret'),
    ('neon', 'add', 'add', '    ret\n', '    movi v15.2d, #0\n    ret\n', 'callee-saved d15 clobbered',
     'callee-saved d15'),
    ('neon', 'sub', 'sub', '    ret\n', '    add sp, sp, #16\n    ret\n', 'sp 16 bytes up at ret', 'sp not restored at ret'),
    ('neon', 'add', 'add', '    ret\n', '    hint #25  // paciasp\n    ret\n',
     'x30 signed (paciasp) and returned to without autiasp', 'x30 not preserved at ret'),
    ('neon', 'add', 'add', '    hint #34  // bti c', '    hint #36  // bti j',
     'bti j at the entry: an indirect call (blr) there faults under BTI',
     'does not start with bti c'),  # the object's BTI property is checked before the model runs
    ('neon', 'sub', 'sub', '    ret\n', '    ret x0\n', 'a return to x0', 'ret to a register other than x30'),
]

# Forms whose operand size follows the register class (GNU as encodes movd with a 64-bit
# general register as movq): (what, code, register, expected value).
FORMS = [
    ('movd %rax, %xmm0 moves 64 bits', 'mov $0x123456789, %rax\n movd %rax, %xmm0\n movq %xmm0, %rcx',
     'rcx', 0x123456789),
    ('movd %xmm0, %rdx moves 64 bits', 'mov $0x123456789, %rax\n movq %rax, %xmm0\n movd %xmm0, %rdx',
     'rdx', 0x123456789),
    ('vmovd %rax, %xmm0 moves 64 bits', 'mov $-2, %rax\n vmovd %rax, %xmm0\n vmovq %xmm0, %rcx',
     'rcx', (1 << 64) - 2),
    ('movd %eax, %xmm0 moves 32 bits', 'mov $0x123456789, %rax\n movd %eax, %xmm0\n movq %xmm0, %rcx',
     'rcx', 0x23456789),
]

# Programs the executor must refuse, and what it must say.
REFUSED = [
    ('jc at entry', 'jc 1f\n1:', 'branch before any flag was set'),
    ('inc then jc', 'inc %rax\n jc 1f\n1:', 'CF read before any instruction wrote it'),
    ('imul then jz (ZF undefined)', 'imul %rcx, %rax\n jz 1f\n1:', 'non-constant condition'),
    ('shl by 0 then jz (no flag written)', 'rol $1, %rax\n shl $0, %rax\n jz 1f\n1:',
     'ZF read before any instruction wrote it'),
    ('movdqa to the stack 8 bytes off 16', 'movdqa %xmm0, -16(%rsp)', 'offset -16 from stack'),
    ('movdqa to the stack at a multiple of 16: the frame is checked next', 'movdqa %xmm0, -24(%rsp)',
     'outside the declared frame'),
    ('pxor from .rodata aligned to 8', 'pxor .Lb(%rip), %xmm0', '.rodata is only 8-byte aligned'),
]


def check_forms():
    from .executor import run
    bad = 0
    for what, code, reg, want in FORMS:
        text = '    .text\nf:\n    ' + code.replace('\n', '\n   ') + '\n    ret\n'
        try:
            got = z3.simplify(run(asm.parse('form.S', text), 'f', {}).m.gpr[reg])
            ok = z3.is_bv_value(got) and got.as_long() == want
            msg = '' if ok else 'got %s, want %#x' % (got, want)
        except Exception as e:
            ok, msg = False, 'prover error: %s' % e
        print('self-test: form %s: %s%s' % (what, 'right' if ok else 'WRONG', ': ' + msg[:200] if msg else ''))
        bad += not ok
    for what, code, why in REFUSED:
        text = ('    .text\nf:\n    ' + code.replace('\n', '\n   ') + '\n    ret\n'
                '    .section .rodata\n    .balign 8\n.Lb:\n    .quad 1, 2\n')
        try:
            run(asm.parse('form.S', text), 'f', {})
            msg = 'accepted'
        except Exception as e:
            msg = str(e)
        ok = why in msg
        print('self-test: %s: %s: %s' % (what, 'refused' if ok else 'NOT REFUSED AS EXPECTED', msg[:160]))
        bad += not ok
    return bad


def main(asm_dir, run_planted):
    """run_planted(job) -> (planted, rejected, message) is the self-test's runner."""
    bad = check_forms()
    jobs = [(asm_dir,) + entry[:6] for entry in PLANTED]
    for entry, (planted, caught, why) in zip(PLANTED, pool.in_order(run_planted, jobs)):
        isa, _, k, _, _, what, reason = entry
        if not planted:
            print('self-test: %s %s: could not plant "%s" (the kernel changed?)' % (isa, k, what))
            bad += 1
            continue
        right = caught and reason in why
        print('self-test: %-7s %-22s planted bug (%s) %s%s' %
              (isa, k, what, 'rejected' if right else ('REJECTED FOR ANOTHER REASON' if caught else 'ACCEPTED'),
               ': ' + why[:160] if why else ''), flush=True)
        bad += not right
    return bad
