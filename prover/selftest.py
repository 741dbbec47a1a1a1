# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The prover's self-test: planted bugs in copies of real kernels (in memory; asm_out/ is
not touched) must be rejected (the unmodified kernels are proved by the main run). Also checks one
semantics fact the product abstraction relies on, by Z3 over the integers."""
import os
import z3

from . import (asm, codecs, keccak, keccak_a64, kernels, ntt, pool, reorder, sampler_lanes,
               selftest_abi, selftest_build)
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
    # sse2 pointwise_acc: the checked rewrites (rewrite.py) must not hide a wrong correction
    ('sse2', 'pointwise_acc', 'pointwise_acc_L4', 'psrad $31, %xmm10  # b < 0 ? a : 0\n    pand %xmm6, %xmm10',
     'psrad $31, %xmm10  # b < 0 ? a : 0\n    pand %xmm7, %xmm10', 'a sign correction adds b for b < 0, not a'),
    ('sse2', 'pointwise_acc', 'pointwise_acc_L5', 'paddq %xmm6, %xmm0', 'paddd %xmm6, %xmm0',
     'the even products summed by dword: the carry into the high half dropped'),
    ('sse2', 'pointwise_acc', 'pointwise_acc_L7', 'pand .Lq(%rip), %xmm6  # m < 0: signed hi(m q) is q lower\n'
     '    paddd %xmm6, %xmm3', 'pand .Lqinv(%rip), %xmm6  # m < 0: signed hi(m q) is q lower\n    paddd %xmm6, %xmm3',
     'the m < 0 correction adds qinv instead of q (second register)'),
    ('sse2', 'pointwise_acc', 'pointwise_acc_L4', '.Lqinv:  # q^-1 mod 2^32\n    .long 58728449, 58728449',
     '.Lqinv:  # q^-1 mod 2^32\n    .long 58728451, 58728449', 'q^-1 wrong in lane 0 (pmuludq reads lanes 0, 2)'),
    # avx2 rej_uniform's whole loop (sampler_loop.py)
    ('avx2', 'rej_uniform', 'rej_uniform', '    cmp $248, %eax\n    ja 11f\n    cmp $24, %rcx\n    jb 11f\n',
     '    cmp $249, %eax\n    ja 11f\n    cmp $24, %rcx\n    jb 11f\n',
     'the vector loop entered at count 249: its 8-dword store reaches a[256]'),
    ('avx2', 'rej_uniform', 'rej_uniform', '    cmp $3, %rcx\n    jae 30b\n', '    cmp $2, %rcx\n    jae 30b\n',
     'the one-by-one loop continues with 2 bytes left: reads past len'),
    ('avx2', 'rej_uniform', 'rej_uniform', 'vmovdqu %ymm0, (%rdi,%rax,4)', 'vmovdqu %ymm0, 4(%rdi,%rax,4)',
     'the left-packed vector stored one dword late'),
    ('avx2', 'rej_uniform', 'rej_uniform', '    add $24, %rdx\n', '    add $21, %rdx\n',
     'the vector step advances buf by 7 groups after storing 8'),
    ('avx2', 'rej_uniform', 'rej_uniform', '    .byte 0, 1, 0, 0, 0, 0, 0, 0\n', '    .byte 1, 0, 0, 0, 0, 0, 0, 0\n',
     '.Lleft_pack row 3 swapped (the loop proof states the rows as facts: they are checked first)'),
    # the other samplers' whole loops, store by store (sampler_loop.py)
    ('avx2', 'rej_eta', 'rej_eta2', 'vmovdqu %ymm1, (%rdi,%rax,4)', 'vmovdqu %ymm1, 4(%rdi,%rax,4)',
     'eta = 2: the second left-packed vector of a step stored one dword late'),
    ('avx2', 'rej_eta', 'rej_eta2', '    vmovdqu %ymm2, (%rdi,%rax,4)\n    movzbl (%r9,%r11), %r11d\n    add %r11d, %eax\n',
     '    vmovdqu %ymm2, (%rdi,%rax,4)\n    movzbl (%r9,%r11), %r11d\n',
     'eta = 2: the third left-pack\'s count not added (the fourth store overwrites its kept dwords)'),
    ('avx512', 'rej_eta', 'rej_eta2', '    cmp $192, %eax\n    ja 11f\n    cmp $32, %rcx\n    jb 11f\n',
     '    cmp $193, %eax\n    ja 11f\n    cmp $32, %rcx\n    jb 11f\n',
     'eta = 2: the 64-candidate loop entered at count 193: its fourth store reaches a[256]'),
    ('avx512', 'rej_eta', 'rej_eta2', 'kshiftrq $32, %k1, %k2', 'kshiftrq $31, %k1, %k2',
     'eta = 2: the third compress keeps by the accept bits of the candidates one earlier'),
    ('avx512', 'rej_eta', 'rej_eta2', 'vextracti32x4 $1, %zmm1, %xmm4', 'vextracti32x4 $2, %zmm1, %xmm4',
     'eta = 2: the second group\'s count taken from the third group\'s sum'),
    ('sse2', 'rej_eta', 'rej_eta2', '    cmp $256, %eax\n    jae 31f\n', '    cmp $257, %eax\n    jae 31f\n',
     'eta = 2: the one-by-one step goes on to the high half-byte at count 256 (writes a[256])'),
    ('sse2', 'rej_uniform', 'rej_uniform', 'mov $4, %r11d', 'mov $3, %r11d',
     'after a rejection only 3 of the 4 candidates are taken one by one, 4 groups consumed'),
    # Keccak-f[1600] (keccak.py): each must differ from FIPS 202 at some round start or at ret
    ('avx2', 'keccak_f1600_x1', 'keccak_f1600_x1', 'rol $44, %r8', 'rol $45, %r8',
     'Keccak: rho rotation of A[1,1] by 45 instead of 44'),
    ('sse2', 'keccak_f1600_x1', 'keccak_f1600_x1', '.quad 0x8000000080008000  # round 3',
     '.quad 0x8000000080008001  # round 3', 'Keccak: round 3\'s constant in .rodata one bit off'),
    ('avx2', 'keccak_f1600_x1', 'keccak_f1600_x1', 'mov 48(%rdi), %r8', 'mov 56(%rdi), %r8',
     'Keccak: pi takes A[2,1] where A[1,1] belongs'),
    ('avx512', 'keccak_f1600_x1', 'keccak_f1600_x1', 'vpternlogq $0xd2, %xmm12, %xmm6, %xmm0', 'vpternlogq $0xb4, %xmm12, %xmm6, %xmm0',
     'Keccak: chi a ^ (b & ~c) instead of a ^ (~b & c) in one lane'),
    ('sse2', 'keccak_f1600_batch', 'keccak_f1600_batch', 'pandn %xmm12, %xmm0', 'pand %xmm12, %xmm0',
     'Keccak batch: chi and instead of andn in one lane'),
    ('sse2', 'keccak_f1600_batch', 'keccak_f1600_batch', '    por %xmm15, %xmm14\n    movdqa %xmm11, %xmm0\n',
     '    por %xmm15, %xmm14\n    pshufd $0x4e, %xmm14, %xmm14\n    movdqa %xmm11, %xmm0\n',
     'Keccak batch: one lane of the two states swapped (states mixed)'),
    ('avx2', 'keccak_f1600_batch', 'keccak_f1600_batch', '.Lkeccak_rol8:  # vpshufb: rotate each quadword left by 8 bits\n    .byte 7, 0,',
     '.Lkeccak_rol8:  # vpshufb: rotate each quadword left by 8 bits\n    .byte 15, 0,',
     'Keccak batch: the rotate-by-8 table takes a byte of the next state'),
    # the batches run one symbolic state in all lanes: a lane mixing states must fail the
    # lane lemma (lane_local.py), a lane computed wrongly the proof of its lane
    ('sse2', 'keccak_f1600_batch', 'keccak_f1600_batch', 'movdqu %xmm15, 352(%rdi)', 'movdqu %xmm15, 360(%rdi)',
     'Keccak batch: a lane stored one state late (state 1\'s lane i where state 0\'s belongs)'),
    ('avx512', 'keccak_f1600_batch', 'keccak_f1600_batch', 'vprolq $44, %zmm6, %zmm6', 'vprolq $45, %zmm6, %zmm6',
     'Keccak batch: rho rotation of one register off by one'),
    ('avx512', 'keccak_f1600_batch', 'keccak_f1600_batch', 'vprolq $44, %zmm6, %zmm6\n',
     'vprolq $44, %zmm6, %zmm6\n    vpshufd $0x4e, %zmm6, %zmm6\n',
     'Keccak batch: two states\' lanes swapped in one register (vpshufd across quadwords)'),
    ('avx2', 'keccak_f1600_batch', 'keccak_f1600_batch',
     '12, 13, 14\n.Lkeccak_rol56:', '12, 14, 13\n.Lkeccak_rol56:',
     'Keccak batch: the rotate-by-8 table swaps two bytes of state 3\'s quadword only'),
    ('avx2', 'keccak_f1600_batch', 'keccak_f1600_batch', 'vpbroadcastq 0(%rax), %ymm15',
     'vpbroadcastq 0(%rax), %ymm15\n    vpaddq %ymm15, %ymm15, %ymm15',
     'Keccak batch: a round constant doubled in every lane'),
    ('avx2', 'keccak_f1600_x1', 'keccak_f1600_x1', '    pop %rbx\n', '    pop %rbx\n    mov %rdi, 200(%rdi)\n',
     'Keccak: a write one lane past the state buffer'),
    # what the assembler reads, not the text as the prover once read it
    ('avx2', 'sub', 'sub', '    .text\n', '#define vpsubd vpaddd\n    .text\n',
     'a #define makes every vpsubd a vpaddd (the build runs cpp)'),
    ('avx2', 'sub', 'sub', '    vpsubd %ymm1, %ymm0, %ymm0\n',
     '    vpsubd %ymm1, %ymm0, %ymm0\n    nop ; vpsubd %ymm1, %ymm0, %ymm0\n', 'a second statement after ;'),
    ('avx2', 'add', 'add', '    vmovdqu 0(%rsi), %ymm0  # a\n',
     '    vmovdqu 0(%rsi), %ymm0  # a\n    .balign 64, 0xc3\n', '.balign 64, 0xc3 in the loop: the fill is rets'),
    ('avx2', 'add', 'add', '    .p2align 4\n1:\n', '    .p2align 4, 0xcc\n1:\n',
     'alignment before the loop filled with int3'),
    ('avx2', 'sub', 'sub', '    .text\n',
     '    .section .data\n    .macro vpsubd x, y, z\n    vpaddd \\x, \\y, \\z\n    .endm\n    .text\n',
     'an assembler macro named vpsubd, defined in a section the prover skips'),
    ('avx2', 'add', 'add', '    vzeroupper\n    ret',
     '    vzeroupper\n    ret\n    .pushsection .text.unlikely, "ax"\n    ret\n    .popsection',
     'code in another executable section'),
    # memory and the ABI
    ('avx2', 'add', 'add', '    vzeroupper\n    ret', '    vzeroupper\n    mov %rdi, (%rsp)\n    ret',
     'the return address overwritten'),
    ('avx2', 'add', 'add', '    vzeroupper\n    ret', '    vzeroupper\n    mov %rdi, -8(%rsp)\n    ret',
     'a stack write in the red zone with no declared frame'),
    ('avx2', 'add', 'add', '    mov $4, %eax\n', '    mov $4, %eax\n    vmovdqu 1024(%rdi), %ymm15\n',
     'a read 32 bytes past the output-only buffer c'),
    ('avx2', 'add', 'add', '    vzeroupper\n    ret', '    ret', 'no vzeroupper before ret'),
    ('avx2', 'add', 'add', '    vzeroupper\n    ret', '    vzeroupper\n    mov %rdi, %rbx\n    ret',
     'callee-saved rbx clobbered'),
    # five instructions inside the NTT that subtract 122880 from negative lanes only: the
    # middle bits 30..27 of a lane, read as unsigned, are 15 for a negative lane
    ('avx2', 'ntt', 'ntt', '    vmovshdup %ymm1, %ymm11  # odd lanes of x into the even slots\n',
     '    vpslld $1, %ymm0, %ymm11\n    vpsrld $16, %ymm11, %ymm11\n    vpsrld $12, %ymm11, %ymm11\n'
     '    vpslld $13, %ymm11, %ymm11\n    vpsubd %ymm11, %ymm0, %ymm0\n'
     '    vmovshdup %ymm1, %ymm11  # odd lanes of x into the even slots\n',
     'negative lanes of the first layer lowered by 122880 (bits 30..27 as unsigned)'),
    # opmask granularity per mnemonic (the last letter of vpunpckldq is q, of vshufi64x2 2)
    ('avx512', 'add', 'add', '    vmovdqu32 0(%rsi), %zmm0  # a\n',
     '    vmovdqu32 0(%rsi), %zmm0  # a\n    mov $0xff00, %r11d\n    kmovw %r11d, %k2\n'
     '    vpunpckldq %zmm0, %zmm0, %zmm0{%k2}\n', 'vpunpckldq under a dword mask (0xff00: dwords 8-15)'),
    ('avx512', 'add', 'add', '    vmovdqu32 0(%rsi), %zmm0  # a\n',
     '    vmovdqu32 0(%rsi), %zmm0  # a\n    mov $0xff, %r11d\n    kmovw %r11d, %k2\n'
     '    vshufi64x2 $0x44, %zmm0, %zmm0, %zmm0{%k2}\n', 'vshufi64x2 under a qword mask (0xff: all 8 qwords)'),
    # AArch64 (prover/a64.py), the same obligations as x86
    ('neon', 'reduce32', 'reduce32', 'sshr v3.4s, v3.4s, #23', 'sshr v3.4s, v3.4s, #22',
     'one register of lanes shifted by 22 instead of 23'),
    ('neon', 'pointwise_montgomery', 'pointwise_montgomery', 'sqdmulh v7.4s, v7.4s, v31.4s',
     'sqrdmulh v7.4s, v7.4s, v31.4s', 'one sqdmulh replaced by sqrdmulh (rounds)'),
    ('neon', 'pointwise_acc', 'pointwise_acc_L5', 'smlal2 v1.2d, v16.4s, v20.4s',
     'smlsl2 v1.2d, v16.4s, v20.4s', 'one multiply-accumulate subtracts'),
    ('neon', 'decompose', 'decompose_g88', '.Lg88_mult:  // highbits multiplier\n    .long 11275',
     '.Lg88_mult:  // highbits multiplier\n    .long 11276', 'the g88 highbits multiplier off by one'),
    ('neon', 'make_hint', 'make_hint_g88', 'sub v0.4s, v0.4s, v2.4s', 'add v0.4s, v0.4s, v2.4s',
     'the count adds the -1 masks instead of subtracting them'),
    ('neon', 'chknorm', 'chknorm', 'cset w0, hs', 'cset w0, hi', 'max > bound instead of >='),
    ('neon', 'add', 'add', '    mov w9, #8\n', '    mov w9, #8\n    ldr q24, [x1, #1024]\n',
     'a read 16 bytes past the input buffer a'),
    ('neon', 'add', 'add', 'add x0, x0, #128', 'add x0, x0, #112', 'output pointer step short: overlap'),
    ('neon', 'add', 'add', '    ret\n', '    movi v8.2d, #0\n    ret\n', 'callee-saved d8 clobbered'),
    ('neon', 'sub', 'sub', '    ret\n', '    mov x19, x0\n    ret\n', 'callee-saved x19 clobbered'),
    ('neon', 'sub', 'sub', '    ret\n', '    mov x30, x0\n    ret\n', 'the link register overwritten'),
    ('neon', 'sub', 'sub', '    ret\n', '    str q0, [sp]\n    ret\n', 'a stack write with no declared frame'),
    ('neon', 'shiftl', 'shiftl', 'shl v1.4s, v1.4s, #13', 'sqshl v1.4s, v1.4s, #13',
     'an instruction the prover has no semantics for'),
    ('neon', 'sub', 'sub', '    .text\n', '#define sub add\n    .text\n',
     'a #define makes every sub an add (the build runs cpp)'),
    ('neon', 'sub', 'sub', '    sub v0.4s, v0.4s, v1.4s\n',
     '    sub v0.4s, v0.4s, v1.4s ; sub v0.4s, v0.4s, v1.4s\n', 'a second statement after ;'),
    ('neon', 'add', 'add', '    .p2align 4\n1:\n', '    .p2align 4, 0xd6\n1:\n',
     'alignment before the loop filled with a byte that is not the assembler\'s nop'),
    # the neon transforms (products t = x z - q round(x zt / 2^31): sqrdmulh, mul, mls)
    ('neon', 'ntt', 'ntt', '.long -3572223, -915382907', '.long -3572222, -915382907',
     'the first twiddle z off by one'),
    ('neon', 'ntt', 'ntt', '.long -3572223, -915382907', '.long -3572223, 915382907',
     'the first twisted constant zt with its sign flipped (t = 2 x z, wraps)'),
    ('neon', 'ntt', 'ntt', 'mls v23.4s, v24.4s, v31.4s', 'mla v23.4s, v24.4s, v31.4s',
     'one mls replaced by mla (x z + h q)'),
    ('neon', 'ntt', 'ntt', 'mul v23.4s, v1.4s, v19.s[0]', 'mul v23.4s, v1.4s, v19.s[1]',
     'a product by element takes zt (lane 1) instead of z (lane 0)'),
    ('neon', 'ntt', 'ntt', '    str q7, [x9, #896]\n', '    str q7, [x9, #896]\n    str q7, [x9, #1024]\n',
     'a write 16 bytes past the array'),
    ('neon', 'invntt_tomont', 'invntt_tomont', 'mls v1.4s, v24.4s, v31.4s', 'mla v1.4s, v24.4s, v31.4s',
     'one mls replaced by mla (x z + h q)'),
    ('neon', 'invntt_tomont', 'invntt_tomont', 'ldp q29, q30, [x11, #32]', 'ldp q29, q30, [x11, #48]',
     'one pair of per-lane twiddles read 16 bytes off'),
    ('neon', 'ntt_reorder', 'ntt_reorder', 'zip2 v20.2d, v0.2d, v2.2d', 'zip2 v20.4s, v0.4s, v2.4s',
     'a qword interleave done on dwords'),
    ('neon', 'ntt_reorder', 'ntt_reorder', 'add x9, x9, #128', 'add x9, x9, #112',
     'group pointer step short: overlap'),
    ('neon', 'unpack_z', 'unpack_z_g17', '.long 0, -2, -4, -6', '.long 0, -2, -4, -5',
     'one ushl count off by one'),
    ('neon', 'unpack_z', 'unpack_z_g19', '.byte 0, 1, 2, 128, 2, 3, 4, 128, 5, 6, 7, 128',
     '.byte 0, 1, 2, 128, 2, 3, 4, 128, 5, 6, 8, 128', 'one tbl index a byte off'),
    ('neon', 'unpack_z', 'unpack_z_g17', 'ldr q1, [x1], #9  // coefficients 4..7',
     'ldr q1, [x1], #10  // coefficients 4..7', 'one post-index step a byte long'),
    ('neon', 'unpack_z', 'unpack_z_g17', 'ldr q3, [x1]  // coefficients 252..255',
     'ldr q3, [x1, #16]  // coefficients 252..255', 'the last group read 16 bytes past the buffer'),
    ('sse2', 'pack_w1', 'pack_w1_g88', 'pslldq $6, %xmm5', 'pslldq $5, %xmm5',
     "a unit's high quadword moved a byte short"),
    ('avx2', 'pack_w1', 'pack_w1_g32', 'vpslld $4, %ymm8, %ymm8', 'vpslld $5, %ymm8, %ymm8',
     'a merge shift off by one'),
    ('avx2', 'pack_w1', 'pack_w1_g32', 'vmovdqu %ymm0, 32(%rdi)', 'vmovdqu %ymm0, 31(%rdi)',
     'two stores overlap by a byte (each must be written once)'),
    ('sse2', 'pack_z', 'pack_z_g17', 'psrlq $28, %xmm3', 'psrlq $27, %xmm3',
     "the 128-bit shift's high part off by one"),
    ('avx2', 'pack_z', 'pack_z_g17', 'vextracti128 $1, %ymm1, 27(%rdi)', 'vextracti128 $1, %ymm1, 28(%rdi)',
     'a group stored a byte late'),
    ('neon', 'pack_z', 'pack_z_g17', 'str q1, [x0], #9  // out[9..]', 'str q1, [x0], #10  // out[9..]',
     'one post-index step a byte long'),
    ('avx512', 'pack_z', 'pack_z_g19', 'vmovdqu32 %xmm7, 624(%rdi)', 'vmovdqu32 %xmm7, 625(%rdi)',
     'the last 16 bytes stored a byte past the end'),
    # the neon Keccak bodies (keccak_a64.py)
    ('neon', 'keccak_f1600_x1', 'keccak_f1600_x1_base', 'eor x30, x27, x29, ror #63  // D[2]',
     'eor x30, x27, x29, ror #62  // D[2]', 'base: theta\'s ROL(C[3], 1) by a lazy rotation off by one'),
    ('neon', 'keccak_f1600_x1', 'keccak_f1600_x1_base', '.quad 0x800000000000808a  // round 2',
     '.quad 0x800000000000808b  // round 2', 'base: RC[2] in .rodata (adrp + ldr :lo12: +16) one bit off'),
    ('neon', 'keccak_f1600_x1', 'keccak_f1600_x1_base', 'str x6, [x8, #192]  // A[4,4]',
     'str x6, [x8, #200]  // A[4,4]', 'base: the last lane written past the state'),
    ('neon', 'keccak_f1600_x1', 'keccak_f1600_x1_base', 'sub sp, sp, #112', 'sub sp, sp, #96',
     'base: a frame 16 bytes short (x29, x30 saved above the entry sp)'),
    ('neon', 'keccak_f1600_x1', 'keccak_f1600_x1_base', '    hint #29  // autiasp: x30 checked after it is restored',
     '    hint #0  // autiasp dropped', 'base: x30 returned to still signed (no autiasp)'),
    ('neon', 'keccak_f1600_x1', 'keccak_f1600_x1_base',
     '    add sp, sp, #112\n    .cfi_def_cfa_offset 0\n    hint #29  // autiasp: x30 checked after it is restored',
     '    hint #29  // autiasp under the frame\'s sp\n    add sp, sp, #112\n    .cfi_def_cfa_offset 0',
     'base: x30 authenticated with another sp than it was signed with'),
    ('neon', 'keccak_f1600_x1', 'keccak_f1600_x1_sha3', 'xar v2.2d, v2.2d, v26.2d, #2  // ROL(A[2,0] ^ D, 62)',
     'xar v2.2d, v2.2d, v26.2d, #3  // ROL(A[2,0] ^ D, 62)', 'sha3: one XAR rotation off by one'),
    ('neon', 'keccak_f1600_x1', 'keccak_f1600_x1_sha3', 'ldp d8, d9, [sp], #64', 'ldp d9, d8, [sp], #64',
     'sha3: d8 and d9 restored swapped'),
    ('neon', 'keccak_f1600_batch', 'keccak_f1600_batch_sha3', 'bcax v29.16b, v0.16b, v12.16b, v6.16b  // A[0,0]',
     'bcax v29.16b, v0.16b, v6.16b, v12.16b  // A[0,0]', 'sha3: chi\'s BCAX operands exchanged'),
    ('neon', 'keccak_f1600_batch', 'keccak_f1600_batch_base', 'sri v30.2d, v1.2d, #63  // ROL(A[1,0] ^ D, 1)',
     'sri v30.2d, v1.2d, #62  // ROL(A[1,0] ^ D, 1)', 'base: a shl + sri rotation with a bit doubled'),
    ('neon', 'keccak_f1600_batch', 'keccak_f1600_batch_base', '    ldr q24, [x0, #384]  // A[4,4]\n',
     '    ldr q24, [x0, #384]  // A[4,4]\n    zip1 v0.2d, v0.2d, v1.2d\n',
     'base: state 1\'s A[0,0] replaced by state 0\'s A[1,0] (two states mixed)'),
    # the neon samplers' vector step (sampler_a64.py): each group of 4 candidates
    ('neon', 'rej_uniform', 'rej_uniform', 'cmhi v3.4s, v31.4s, v1.4s', 'cmhi v3.4s, v1.4s, v31.4s',
     'the second register\'s accept compare reversed'),
    ('neon', 'rej_uniform', 'rej_uniform', 'ldur q1, [x2, #8]', 'ldur q1, [x2, #9]',
     'candidates 4..7 read a byte late'),
    ('neon', 'rej_eta', 'rej_eta2', '.byte 2, 1, 0, 255, 254, 2, 1, 0, 255, 254, 2, 1, 0, 255, 254, 2',
     '.byte 2, 1, 0, 255, 254, 2, 1, 0, 255, 254, 2, 1, 0, 255, 0, 2', 'eta = 2: the value of half-byte 14 is 0'),
    ('neon', 'rej_eta', 'rej_eta4', '.byte 17, 18, 20, 24, 17, 18, 20, 24, 17, 18, 20, 24, 17, 18, 20, 24',
     '.byte 17, 18, 20, 24, 17, 18, 20, 24, 17, 18, 20, 8, 17, 18, 20, 24',
     'eta = 4: a kept half-byte 11 not counted (its weight lacks the 16)'),
    ('neon', 'rej_eta', 'rej_eta2', 'sxtl2 v7.4s, v3.8h  // half-bytes 12..15', 'sxtl v7.4s, v3.4h  // half-bytes 12..15',
     'eta = 2: half-bytes 12..15 take the values of 8..11 (the first function in the file is eta = 2\'s)'),
    ('neon', 'rej_eta', 'rej_eta2', 'zip1 v0.16b, v0.16b, v1.16b', 'zip1 v0.16b, v1.16b, v0.16b',
     'eta = 2: the high half-byte first'),
    # the neon samplers' whole loop (sampler_a64.prove_loop): the left-packs, the counts,
    # the guards and the byte-wise tail, which the per-lane step does not see
    ('neon', 'rej_eta', 'rej_eta2', 'add x11, x0, w1, uxtw #2\n    str q5, [x11]',
     'add x11, x0, w1, uxtw #2\n    add x11, x11, #4\n    str q5, [x11]', 'eta = 2: the second group stored at a[count + 1]'),
    ('neon', 'rej_eta', 'rej_eta2', 'ubfx w11, w10, #12, #4  // popcount(m)', 'ubfx w11, w10, #12, #5  // popcount(m)',
     'eta = 2: the second popcount field a bit wide'),
    ('neon', 'rej_eta', 'rej_eta2', 'ubfx w11, w10, #20, #4  // popcount(m)', 'ubfx w11, w10, #21, #4  // popcount(m)',
     'eta = 2: the third popcount field a bit high'),
    ('neon', 'rej_eta', 'rej_eta2', 'tbl v5.16b, {v5.16b}, v16.16b', 'tbl v5.16b, {v4.16b}, v16.16b',
     'eta = 2: the second left-pack packs the first group\'s packed values'),
    ('neon', 'rej_eta', 'rej_eta2', 'sub x3, x3, #8\n    cmp w1, #240', 'sub x3, x3, #8\n    cmp w1, #241',
     'eta = 2: the 16-candidate step\'s guard lets count 241 in'),
    ('neon', 'rej_eta', 'rej_eta2', 'cmp w1, #240', 'cmp w1, #244', 'eta = 2: the guard before the loop lets count 244 in'),
    ('neon', 'rej_eta', 'rej_eta2', 'cinc w1, w1, lo', 'add w1, w1, #1', 'eta = 2: the tail counts a rejected low half-byte'),
    ('neon', 'rej_eta', 'rej_eta2', 'cmp w1, #256\n    b.hs 31f', 'cmp w1, #257\n    b.hs 31f',
     'eta = 2: the tail goes on to a high half-byte at count 256'),
    ('neon', 'rej_eta', 'rej_eta4', 'cmp w12, #9  // lo: kept\n    cinc w1, w1, lo\n    add x2',
     'cmp w12, #10  // lo: kept\n    cinc w1, w1, lo\n    add x2', 'eta = 4: the tail keeps a high half-byte 9'),
    ('neon', 'rej_uniform', 'rej_uniform', 'str q1, [x11]', 'str q3, [x11]',
     'the second store writes the accept weights, not the packed values'),
    ('neon', 'rej_uniform', 'rej_uniform', 'ubfx w11, w10, #4, #4  // popcount(m)\n    add w1, w1, w11\n    add x2',
     'ubfx w11, w10, #0, #4  // popcount(m)\n    add w1, w1, w11\n    add x2', 'the second count step adds the mask, not its popcount'),
    ('neon', 'rej_uniform', 'rej_uniform', 'sub x3, x3, #24\n    cmp w1, #248', 'sub x3, x3, #24\n    cmp w1, #249',
     'the 8-candidate step\'s guard lets count 249 in'),
    ('neon', 'rej_uniform', 'rej_uniform', 'cinc w1, w1, lo', 'add w1, w1, #1', 'the tail counts a rejected candidate'),
]

# Instruction forms with a known answer: (what, code, register, expected value). Each runs
# alone (a function of its own) from registers holding unknown values.
FORMS = [
    ('shr by 32 (count 0 mod 32) of a 32-bit register zero-extends',
     'mov $-1, %rax\n shr $32, %eax', 'rax', 0xffffffff),
    ('shl by 32 of a 32-bit register zero-extends', 'mov $-1, %rax\n shl $32, %eax', 'rax', 0xffffffff),
    ('imul sets CF when the product overflows',
     'mov $0x10000, %ecx\n imul $0x10000, %ecx, %edx\n setc %al\n movzbl %al, %eax', 'rax', 1),
    ('imul clears CF when it fits', 'mov $3, %ecx\n imul $5, %ecx, %edx\n setc %al\n movzbl %al, %eax', 'rax', 0),
    ('shl by 1: OF = top bit xor CF (setl is SF != OF)',
     'mov $0x40000000, %ecx\n shl $1, %ecx\n setl %al\n movzbl %al, %eax', 'rax', 0),
    ('shr by 1: OF = the old top bit', 'mov $0x80000000, %ecx\n shr $1, %ecx\n setl %al\n movzbl %al, %eax',
     'rax', 1),
    ('vpmovzxbd from memory', 'vpmovzxbd .Lb(%rip), %xmm0', 'xmm0', [1, 2, 0x80, 0xff]),
    ('vpmovsxbd from memory', 'vpmovsxbd .Lb(%rip), %xmm0', 'xmm0', [1, 2, 0xffffff80, 0xffffffff]),
    ('vpcmpud predicate 7 (true)', 'vpcmpud $7, %zmm0, %zmm1, %k1\n kmovw %k1, %eax', 'rax', 0xffff),
    ('vpcmpud predicate 3 (false)', 'vpcmpud $3, %zmm0, %zmm1, %k1\n kmovw %k1, %eax', 'rax', 0),
    ('vpcmpd predicate 7 (true)', 'vpcmpd $7, %zmm0, %zmm1, %k1\n kmovw %k1, %eax', 'rax', 0xffff),
]


def check_forms():
    from .executor import run
    bad = 0
    for what, code, reg, want in FORMS:
        text = ('    .text\nf:\n    ' + code.replace('\n', '\n   ') + '\n    ret\n'
                '    .section .rodata\n.Lb:\n    .byte 1, 2, 0x80, 0xff\n')
        try:
            m = run(asm.parse('form.S', text), 'f', {}).m
            if reg.startswith('xmm'):
                got = [z3.simplify(x) for x in m.vec[int(reg[3:])][:4]]
                ok = all(z3.is_bv_value(g) and g.as_long() == w for g, w in zip(got, want))
            else:
                got = z3.simplify(m.gpr[reg])
                ok = z3.is_bv_value(got) and got.as_long() == want
            msg = '' if ok else 'got %s, want %s' % (got, want)
        except Exception as e:
            ok, msg = False, 'prover error: %s' % e
        print('self-test: form %s: %s%s' % (what, 'right' if ok else 'WRONG', ': ' + msg[:200] if msg else ''))
        bad += not ok
    return bad


# AArch64 forms with a known answer (Arm ARM pseudocode, worked by hand): v0 holds
# 0xff800201 (-8388095) in every lane, v2 zero, v4 holds -2^31 in every lane.
A64_SETUP = ('adrp x16, .Lb\n add x16, x16, :lo12:.Lb\n ld1r {v0.4s}, [x16]\n movi v2.2d, #0\n'
             ' adrp x16, .Lm\n add x16, x16, :lo12:.Lm\n ld1r {v4.4s}, [x16]\n')
A64_FORMS = [
    ('urshr #1 rounds without wrapping', 'urshr v1.4s, v0.4s, #1', 'v1', [0x7fc00101] * 4),
    ('sqdmulh: hi(2 x x)', 'sqdmulh v1.4s, v0.4s, v0.4s', 'v1', [0x7ffb] * 4),
    ('sqdmulh saturates at -2^31 -2^31', 'sqdmulh v1.4s, v4.4s, v4.4s', 'v1', [0x7fffffff] * 4),
    ('shsub: (0 - x) >> 1 without wrapping', 'shsub v1.4s, v2.4s, v0.4s', 'v1', [0x3ffeff] * 4),
    ('sshr #31 of a negative lane', 'sshr v1.4s, v0.4s, #31', 'v1', [0xffffffff] * 4),
    ('ushr #31 of a negative lane', 'ushr v1.4s, v0.4s, #31', 'v1', [1] * 4),
    ('cmgt is signed', 'cmgt v1.4s, v2.4s, v0.4s', 'v1', [0xffffffff] * 4),
    ('umax is unsigned', 'umax v1.4s, v2.4s, v0.4s', 'v1', [0xff800201] * 4),
    ('smlal: the signed 64-bit square in each qword', 'movi v3.2d, #0\n smlal v3.2d, v0.2s, v0.2s', 'v3',
     [0xff040401, 0x3ffd] * 2),
    ('smlsl2 from zero: minus the square', 'movi v3.2d, #0\n smlsl2 v3.2d, v0.4s, v0.4s', 'v3',
     [0x00fbfbff, 0xffffc002] * 2),
    ('uzp2 takes the odd dwords', 'movi v3.2d, #0\n smlal v3.2d, v0.2s, v0.2s\n uzp2 v1.4s, v3.4s, v2.4s', 'v1',
     [0x3ffd, 0x3ffd, 0, 0]),
    ('addv wraps mod 2^32 and clears the rest', 'addv s1, v0.4s', 'v1', [0xfe000804, 0, 0, 0]),
    ('cmp equal, cset hs', 'mov w1, #5\n mov w2, #5\n cmp w1, w2\n cset w0, hs', 'x0', 1),
    ('cmp 4 < 5 unsigned, cset hs', 'mov w1, #4\n mov w2, #5\n cmp w1, w2\n cset w0, hs', 'x0', 0),
    ('a w register write clears the upper half', 'mov x0, #-1\n mov w0, w0', 'x0', 0xffffffff),
    ('mls: 0 - lo(x x)', 'mls v2.4s, v0.4s, v0.4s', 'v2', [0xfbfbff] * 4),
    ('sqrdmulh by element saturates at -2^31 -2^31', 'sqrdmulh v1.4s, v4.4s, v4.s[2]', 'v1', [0x7fffffff] * 4),
    ('zip1 .4s interleaves the low dwords', 'zip1 v1.4s, v2.4s, v0.4s', 'v1', [0, 0xff800201] * 2),
    ('zip2 .2d takes the high qwords', 'zip2 v1.2d, v0.2d, v2.2d', 'v1', [0xff800201, 0xff800201, 0, 0]),
    ('ldr d clears the upper half', 'adrp x17, .Lb\n add x17, x17, :lo12:.Lb\n ldr d0, [x17]', 'v0',
     [0xff800201, 0x80000000, 0, 0]),
    # the Keccak bodies' forms: v0's qwords are 0xff800201ff800201, v4's 0x8000000080000000
    ('rax1 rotates its second source left by 1', 'rax1 v1.2d, v2.2d, v0.2d', 'v1', [0xff000403] * 4),
    ('xar rotates right', 'xar v1.2d, v0.2d, v2.2d, #4', 'v1', [0x1ff80020] * 4),
    ('bcax clears with its third source', 'bcax v1.16b, v2.16b, v0.16b, v4.16b', 'v1', [0x7f800201] * 4),
    ('sri keeps the destination\'s top bits', 'sri v4.2d, v0.2d, #4', 'v4', [0x1ff80020, 0x8ff80020] * 2),
    ('eor with a ror #4 operand rotates right', 'fmov x1, d0\n eor x0, xzr, x1, ror #4', 'x0', 0x1ff800201ff80020),
    ('bic with an lsl #8 operand', 'fmov x1, d0\n bic x0, x1, x1, lsl #8', 'x0', 0x7f8002007f800201),
]


def check_forms_a64():
    from . import a64
    bad = 0
    for what, code, reg, want in A64_FORMS:
        text = ('    .arch armv8.2-a+sha3\n    .text\nf:\n    ' + (A64_SETUP + code).replace('\n', '\n   ') + '\n    ret\n'
                '    .section .rodata\n.Lb:\n    .byte 1, 2, 0x80, 0xff\n.Lm:\n    .long 0x80000000\n')
        try:
            m = a64.run(asm.parse('form.S', text, arch='a64'), 'f', {}).m
            if reg.startswith('v'):
                got = [z3.simplify(x) for x in m.vec[int(reg[1:])]]
                ok = all(z3.is_bv_value(g) and g.as_long() == w for g, w in zip(got, want))
            else:
                got = z3.simplify(m.gpr[reg])
                ok = z3.is_bv_value(got) and got.as_long() == want
            msg = '' if ok else 'got %s, want %s' % (got, want)
        except Exception as e:
            ok, msg = False, 'prover error: %s' % e
        print('self-test: A64 form %s: %s%s' % (what, 'right' if ok else 'WRONG', ': ' + msg[:200] if msg else ''))
        bad += not ok
    return bad


def check_rewrite():
    """the checked rewrites (rewrite.py): a rewrite whose lemma is false is refused by Z3
    (hi(x + w) = hi(x) + hi(w) for a w whose low half is not zero: the carry), a
    generalisation that does not give the term back is refused, and the real rules do
    not apply to an addend with a nonzero low half."""
    from .lanes import prove, Failure
    from .rewrite import CheckedRewrite, hi_carry_free
    bad = 0
    y, w = z3.BitVecs('y w', 64)
    k = z3.BitVec('k', 32)
    cr = CheckedRewrite()
    t = z3.Extract(63, 32, y + w)
    cr.apply(t, [y, w], lambda vs: z3.Extract(63, 32, vs[0]) + z3.Extract(63, 32, vs[1]), 'a false lemma')
    for what, f in cr.lemmas.values():
        try:
            prove(f, what=what)
            ok = False
        except Failure as e:
            ok = 'counterexample' in str(e)
        print('self-test: rewrite with a false lemma (hi(y + w) = hi(y) + hi(w), any w): %s' %
              ('refused' if ok else 'ACCEPTED'))
        bad += not ok
    try:        # a term that already holds a variable named like the generic ones (capture)
        cr.apply(z3.Extract(63, 32, y + z3.BitVec('v0', 64)), [y], lambda vs: z3.Extract(63, 32, vs[0]),
                 'a generalisation that captures v0')
        ok = False
    except ValueError:
        ok = True
    print('self-test: rewrite whose generalisation does not give the term back (capture): %s' % ('refused' if ok else 'ACCEPTED'))
    bad += not ok
    cr = CheckedRewrite()
    lo1 = z3.Concat(k, z3.BitVecVal(1, 32))
    r = hi_carry_free(z3.Extract(63, 32, y + lo1), cr)
    ok = not cr.steps and r.eq(z3.Extract(63, 32, y + lo1))
    print('self-test: hi(y + Concat(k, 1)) left alone by the rewrites: %s' % ('yes' if ok else 'NO: %s' % r))
    bad += not ok
    return bad


def check_lift():
    """the lifted system of a middle extract of an unsigned value admits every input (the
    unsigned range, not the signed one, bounds its quotient), and a system that excludes
    inputs is refused (the corner check)."""
    from . import lift
    bad = 0
    x = z3.BitVec('x', 32)
    leaves = {'x': (-lift.Q + 1, lift.Q - 1)}
    for t in (z3.Extract(30, 15, x), z3.Extract(47, 20, z3.ZeroExt(32, x) * z3.BitVecVal(3 << 29, 64))):
        L = lift.Lifter(leaves)
        L.val(z3.simplify(t))
        try:
            L.check_corners()
            ok, msg = True, ''
        except lift.Fail as e:
            ok, msg = False, str(e)
        print('self-test: lift of %s admits every input: %s%s' % (t, 'yes' if ok else 'NO', ': ' + msg if msg else ''))
        bad += not ok
    L = lift.Lifter(leaves)
    L.val(x)
    h = L.new('h', 0, 10)              # a variable bounded more tightly than its definition
    L.defs.append(('div', (h, L.new('r', 0, 1)), {'x': 1}, 1))
    try:
        L.check_corners()
        caught = False
    except lift.Fail:
        caught = True
    print('self-test: lift: a system that excludes inputs is %s' % ('refused' if caught else 'ACCEPTED'))
    return bad + (not caught) + check_lift_values()


def check_lift_values():
    """the lifted value (each defined variable from its definition) equals the bit-vector
    value at the corners and at random points: bits 62..31 of a product (sqrdmulh's high
    half) within 2^62, the neon butterfly's t = lo(x z) - lo(h q), and bits 62..31 of a
    product that reaches 2^62, whose top bits do not copy bit 62 (x = -2^31 times -2^31)."""
    import random
    from . import lift
    rnd = random.Random(5)
    x = z3.BitVec('x', 32)
    q, z, zt = lift.Q, -3572223, -915382907

    def hi(c):
        return z3.Extract(62, 31, z3.SignExt(32, x) * z3.BitVecVal(c, 64) + z3.BitVecVal(1 << 30, 64))
    cases = [('bits 62..31 of x zt + 2^30', hi(zt), (-q + 1, q - 1)),
             ('x z - q round(x zt / 2^31)', x * z - hi(zt) * q, (-q + 1, q - 1)),
             ('bits 62..31 of x (-2^31) + 2^30, x any int32', hi(-(1 << 31)), (-(1 << 31), (1 << 31) - 1))]
    bad = 0
    for what, t, (lo, hi_) in cases:
        t = z3.simplify(t)
        L = lift.Lifter({'x': (lo, hi_)})
        E = L.val(t)
        pts = [lo, hi_, 0, -1] + [rnd.randint(lo, hi_) for _ in range(20)]
        wrong = None
        for v in pts:
            err, val = L.values({'x': v})
            got = sum(c * val[k] for k, c in E.items() if k != '') + E.get('', 0)
            bv = z3.simplify(z3.substitute(t, (x, z3.BitVecVal(v, 32)))).as_long()
            want = bv - (1 << 32) if bv >> 31 else bv
            if err is not None or got != want:
                wrong = 'x = %d: lifted %s, bit-vector %d%s' % (
                    v, got, want, ' (%s out of bounds)' % err if err else '')
                break
        print('self-test: lift of %s agrees with the bit-vector value: %s'
              % (what, 'yes' if not wrong else 'NO: ' + wrong))
        bad += wrong is not None
    return bad


def check_normal_forms():
    """keccak.py's normal forms against Z3's evaluation: random bitwise terms (xor, and,
    or, not, rotations, shifts, 2 x, extracts and concatenations, constants) over four
    64-bit variables, each evaluated at random points by both; and terms that differ
    must have different forms."""
    import random
    rng = random.Random(202)
    V = [z3.BitVec('v%d' % i, 64) for i in range(4)]

    def term(d):
        if d == 0 or rng.random() < 0.15:
            return rng.choice(V) if rng.random() < 0.85 else z3.BitVecVal(rng.getrandbits(64), 64)
        op = rng.randrange(9)
        a = term(d - 1)
        if op == 0:
            return a ^ term(d - 1)
        if op == 1:
            return a & term(d - 1)
        if op == 2:
            return a | term(d - 1)
        if op == 3:
            return ~a
        if op == 4:
            return z3.RotateLeft(a, rng.randrange(1, 64))
        if op == 5:
            return (a << rng.randrange(0, 64)) if rng.random() < 0.5 else z3.LShR(a, rng.randrange(0, 64))
        if op == 6:
            return a + a
        if op == 7:
            h = rng.randrange(32, 64)
            return z3.Concat(z3.Extract(h, h - 31, a), z3.Extract(31, 0, term(d - 1)))
        return z3.RotateRight(a, rng.randrange(1, 64))
    bad = tried = 0
    for n in range(300):
        t = term(5)
        try:
            p = keccak.Normalizer()(t)
        except keccak.Unsupported:
            continue
        tried += 1
        for _ in range(3):
            env = {str(v): rng.getrandbits(64) for v in V}
            want = z3.simplify(z3.substitute(t, *[(v, z3.BitVecVal(env[str(v)], 64)) for v in V])).as_long()
            if p.eval(env) != want:
                bad += 1
                break
    x, y = V[0], V[1]
    N = keccak.Normalizer()
    distinct = N(x & ~y) != N(~x & y) and N(z3.RotateLeft(x, 44)) != N(z3.RotateLeft(x, 45)) and \
        N(x ^ (~y & V[2])) != N(x ^ (y & ~V[2])) and N(x ^ y) == N(~(~x ^ y)) and N(x | y) == N(~(~x & ~y))
    print('self-test: Keccak normal forms: %d of %d random terms disagree with Z3; '
          'different functions have different forms, equal ones equal: %s' % (bad, tried, 'yes' if distinct else 'NO'))
    return bad + (not distinct) + (tried < 250)


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
        if isa == 'neon' and k in keccak_a64.KERNELS:
            return keccak_a64.prove_kernel(asm.parse(path, text), k, rep) or rep
        if k.startswith('keccak_f1600'):
            return keccak.prove_kernel_x86(asm.parse(path, text), isa, k, rep) or rep
        if k == 'ntt_reorder':
            with open(os.path.join(os.path.dirname(path), 'ntt.S')) as fh:
                reorder.prove_reorder(asm.parse(path, text), isa, rep, fh.read())
            return rep
        (ntt.TRANSFORMS.get(k) or sampler_lanes.OBLIGATIONS.get(k) or codecs.OBLIGATIONS.get(k)
         or kernels.K[k])(asm.parse(path, text), isa, rep)
    except Exception as e:
        rep.fail('prover error', str(e))
    return rep


def run_planted(job):
    """one entry of PLANTED: (planted at all, rejected, the first failed item's message)."""
    asm_dir, isa, f, k, old, new, what = job
    path = os.path.join(asm_dir, isa, f + '.S')
    with open(path) as fh:
        text = fh.read()
    mut = plant(text, old, new)
    if mut is None:
        return False, False, ''
    rep = run_one(path, mut, isa, k)
    return True, not rep.passed, next((it[4] for it in rep.items if not it[3]), '')


def sampled(plants, every, seed):
    """The planted bugs a sampled run takes: every `every`-th, starting at seed mod every
    (every <= 1: all of them). The other checks of the self-test are cheap and always run."""
    if every <= 1:
        return list(plants)
    return [p for i, p in enumerate(plants) if (i + seed) % every == 0]


def main(asm_dir, every=1, seed=0):
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
    bad += check_forms()
    bad += check_forms_a64()
    bad += check_lift()
    bad += check_rewrite()
    bad += check_normal_forms()
    bad += selftest_abi.main(asm_dir, run_planted)
    bad += selftest_build.main(asm_dir, run_one)
    # the planted bugs run in as many processes as there are CPUs, reported in order
    plants = sampled(PLANTED, every, seed)
    if every > 1:
        print('self-test: %d of the %d planted bugs below (one in %d, offset %d; ci/prove --self-test '
              'runs them all)' % (len(plants), len(PLANTED), every, seed % every))
    jobs = [(asm_dir,) + entry for entry in plants]
    for (_, isa, f, k, old, new, what), (planted, caught, why) in zip(jobs, pool.in_order(run_planted, jobs)):
        if not planted:
            print('self-test: %s %s: could not plant "%s" (the kernel changed?)' % (isa, k, what))
            bad += 1
            continue
        print('self-test: %-7s %-22s planted bug (%s) %s%s' %
              (isa, k, what, 'rejected' if caught else 'ACCEPTED', ': ' + why[:140] if why else ''), flush=True)
        bad += not caught
    print('self-test: %s' % ('passed' if not bad else '%d problems' % bad))
    return 1 if bad else 0
