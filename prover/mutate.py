# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The mutation check: random single-edit mutations of the proved kernels' .S text, each
proved again; the prover must reject at least 95% of them (a counterexample, a failed
structure or byte check, an execution error). A mutant whose only failures are
unfinished obligations (Z3 gave up) is counted as surviving: not finishing is no proof
that the mutant is wrong. Mutations:
  swap     two register operands exchanged (of instructions whose result depends on the
           order: sources of a commutative operation swapped give the same instruction,
           so those are not drawn);
  const    an immediate changed (shift count, shuffle selector, loop count: +-1 or one
           bit flipped) or a memory displacement moved by +-4 bytes;
  drop     the instruction deleted;
  mnem     the mnemonic swapped for another of its class (add/sub, and/or/xor/andn,
           logical/arithmetic/left shift, min/max, low/high unpack, signed/unsigned
           multiply, gt/eq compare ...), operands kept;
  mask     an AVX-512 opmask decoration removed, or {%kN} added to a vector destination;
  semi     a second statement after ';' on the line (the destination doubled, or a
           general-purpose destination incremented);
  stack    a store to the stack before the instruction (the return address, the
           caller's frame, the red zone: no proved kernel declares a frame);
  rodata   a .rodata constant off by one or by q.
Survivors are printed with the instruction, to be explained (an equivalent mutation) or
closed. Only kernels with obligations are mutated (not the samplers' code, not Keccak).
The transforms (ntt, invntt_tomont) take 5-40 s per proof and a mutant that
keeps a lane from closing takes minutes, so they are mutated only when named with
--kernel."""
import os
import random
import re
import time

from . import asm, codecs, kernels, lanes, ntt, pool, reorder
from .kernels import Report

COMMUTATIVE = set()
for _n in ('paddd psubd_no paddq paddb pand por pxor pmulld pminud pmaxud pmuludq pmuldq pmulhuw '
           'pmulhrsw pmaddwd pcmpeqd psadbw vpandd vpord vpxord vpxorq').split():
    COMMUTATIVE |= {_n, 'v' + _n}
CONTROL = re.compile(r'^(j\w+|ret|endbr64|vzeroupper|push|pop)$')

# mnemonic classes: the same operands, a different operation
CLASSES = [c.split() for c in (
    'paddd psubd', 'paddq psubq', 'paddb psubb', 'pand por pxor pandn', 'pslld psrld psrad',
    'psllq psrlq', 'psllw psrlw', 'pcmpgtd pcmpeqd', 'pminud pmaxud', 'pmuludq pmuldq',
    'pmulhuw pmulhrsw', 'punpckldq punpckhdq', 'punpcklqdq punpckhqdq', 'pmovzxbd pmovsxbd')]
CLASSES = [c for c in CLASSES] + [['v' + x for x in c] for c in CLASSES] + [c.split() for c in (
    'vpandd vpord vpxord vpandnd', 'vpandq vporq vpxorq vpandnq', 'vpternlogd vpternlogq',
    'vprold vprolq', 'vpminud vpmaxud', 'vpcmpud vpcmpd', 'add sub', 'and or xor', 'shr sar shl',
    'inc dec', 'adc add', 'movzbl movsbl')]
# (not drawn: vmovdqu32/64/8 and vextracti128/32x4 unmasked are the same operation)
Q = 8380417


def kernel_of(fname, isa):
    k = fname[len('mldsa_'):-len('_' + isa)]
    if k == 'pointwise_acc':
        return 'pointwise_acc_L4'
    return k


def targets(asm_dir, isa, only=None):
    out = []
    for f in sorted(os.listdir(os.path.join(asm_dir, isa))):
        if not f.endswith('.S'):
            continue
        path = os.path.join(asm_dir, isa, f)
        u = asm.parse(path)
        for fn in u.functions.values():
            k = kernel_of(fn.name, isa)
            if (k in kernels.K or k in codecs.OBLIGATIONS or k == 'ntt_reorder'
                    or (k in ntt.TRANSFORMS and only and k in only)):
                out.append((path, fn, k))
    return out


def mutants_of(line, ins, rnd, isa=''):
    """candidate mutated lines for one instruction (text edits of the .S line)."""
    code, _, comment = line.partition('#')
    indent = code[:len(code) - len(code.lstrip())]
    ops = asm.split_operands(code.strip()[len(ins.mnem):].strip())
    out = [('drop', indent + '# dropped: ' + code.strip())]
    regs = [i for i, o in enumerate(ops) if o.startswith('%') and '{' not in o]
    if len(regs) >= 2 and ins.mnem not in COMMUTATIVE:
        i, j = regs[0], regs[-1]
        if ops[i] != ops[j]:
            o2 = list(ops)
            o2[i], o2[j] = o2[j], o2[i]
            out.append(('swap', indent + ins.mnem + ' ' + ', '.join(o2)))
    elif len(regs) >= 3 and ins.mnem in COMMUTATIVE:
        # the destination with a source: a different instruction
        i, j = regs[-2], regs[-1]
        if ops[i] != ops[j]:
            o2 = list(ops)
            o2[i], o2[j] = o2[j], o2[i]
            out.append(('swap', indent + ins.mnem + ' ' + ', '.join(o2)))
    for i, o in enumerate(ops):
        if o.startswith('$'):
            v = int(o[1:], 0)
            nv = rnd.choice([v + 1, v - 1, v ^ (1 << rnd.randrange(0, 8))])
            o2 = list(ops)
            o2[i] = '$%d' % nv
            out.append(('const', indent + ins.mnem + ' ' + ', '.join(o2)))
        mt = re.match(r'^(-?\d*)\((%r\w+)', o)
        if mt and mt.group(2) != '%rip':
            d = int(mt.group(1) or 0) + rnd.choice([4, -4])
            o2 = list(ops)
            o2[i] = '%d%s' % (d, o[len(mt.group(1)):])
            out.append(('const', indent + ins.mnem + ' ' + ', '.join(o2)))
    for c in CLASSES:
        if ins.mnem in c and len(c) > 1:
            others = [x for x in c if x != ins.mnem]
            if len(set(ops)) < len(ops):
                # x andn x = x xor x = 0: a zeroing idiom stays one under andn
                others = [x for x in others if 'andn' not in x] if 'xor' in ins.mnem else others
            if others:
                out.append(('mnem', indent + rnd.choice(others) + ' ' + ', '.join(ops)))
    if ins.mnem.startswith('v') and ops and ops[-1].startswith('%') and isa == 'avx512':
        if '{%k' in code:
            out.append(('mask', indent + re.sub(r'\{%k\d\}(\{z\})?', '', code.strip())))
        elif re.match(r'^%[xyz]mm\d+$', ops[-1]):
            o2 = list(ops)
            o2[-1] += '{%%k%d}' % rnd.randrange(1, 8)
            out.append(('mask', indent + ins.mnem + ' ' + ', '.join(o2)))
    dst = ops[-1] if ops else ''
    vm = re.match(r'^%([xyz])mm(\d+)$', dst)
    if vm:
        # all ones: a value that differs from the result unless the result is dead
        add = ('vpcmpeqd %s, %s, %s' % (dst, dst, dst) if vm.group(1) != 'z' else
               'vpternlogd $0xff, %s, %s, %s' % (dst, dst, dst)) if ins.mnem.startswith('v') \
            else ('pcmpeqd %s, %s' % (dst, dst))
        out.append(('semi', indent + code.strip() + ' ; ' + add))
    elif re.match(r'^%(r\w+|e\w\w)$', dst) and not dst.startswith('%rsp'):
        out.append(('semi', indent + code.strip() + ' ; inc ' + dst))
    if rnd.random() < 0.25:
        reg = rnd.choice(['%rax', '%rdi', '%rcx', '%r11'])
        off = rnd.choice([0, 8, -8, -64, -256])
        out.append(('stack', indent + 'mov %s, %d(%%rsp) ; ' % (reg, off) + code.strip()))
    return out


def rodata_mutant(line, rnd):
    code, _, comment = line.partition('#')
    mt = re.match(r'^(\s*)(\.long|\.int|\.word|\.short|\.byte|\.quad)\s+(.*)$', code)
    if not mt:
        return None
    vals = [v.strip() for v in mt.group(3).split(',')]
    i = rnd.randrange(len(vals))
    v = int(vals[i], 0)
    vals[i] = str(v + rnd.choice([1, -1] + ([Q, -Q] if mt.group(2) in ('.long', '.int', '.quad') else [])))
    return ('rodata', mt.group(1) + mt.group(2) + ' ' + ', '.join(vals))


def judge(text, path, isa, k, ntt_text):
    rep = Report(isa, k)
    try:
        u = asm.parse(path, text)
        if k == 'ntt_reorder':
            reorder.prove_reorder(u, isa, rep, ntt_text)
        elif k in ntt.TRANSFORMS:
            ntt.TRANSFORMS[k](u, isa, rep)
        elif k in codecs.OBLIGATIONS:
            codecs.OBLIGATIONS[k](u, isa, rep)
        else:
            kernels.K[k](u, isa, rep)
    except Exception as e:
        rep.fail('prover error', str(e))
    return rep


def judge_job(job):
    """one mutant, in a worker: (passed, the failed items' messages, seconds)."""
    asm_dir, text, path, isa, k = job
    t = time.time()
    with open(os.path.join(asm_dir, isa, 'ntt.S')) as f:
        ntt_text = f.read()
    rep = judge(text, path, isa, k, ntt_text)
    return rep.passed, [it[4] for it in rep.items if not it[3]], time.time() - t


def main(asm_dir, n, seed, isas, only=None):
    rnd = random.Random(seed)
    lanes.DEFAULT_TIMEOUT_MS = 10000
    sites = []
    data = []
    for isa in isas:
        for path, fn, k in targets(asm_dir, isa, only):
            if only and k not in only:
                continue
            sites += [(isa, path, fn, k, ins) for ins in fn.insns if not CONTROL.match(ins.mnem)]
            with open(path) as f:
                lines = f.read().split('\n')
            # the .rodata lines under a label this function reads
            used = {o.sym for ins in fn.insns for o in ins.ops if o.sym}
            sec, label = None, None
            for line_no, line in enumerate(lines, 1):
                w = line.split('#')[0].split()
                if w and w[0] in ('.section', '.text'):
                    sec = w[1].rstrip(',') if len(w) > 1 else w[0]
                elif w and sec == '.rodata' and w[0].endswith(':'):
                    label = w[0][:-1]
                elif w and sec == '.rodata' and label in used and \
                        w[0] in ('.long', '.int', '.word', '.short', '.byte', '.quad'):
                    data.append((isa, path, fn, k, line_no))
    # the mutants are drawn first (the same ones for a seed), then judged in parallel
    texts, drawn = {}, []
    for _ in range(n):
        if data and rnd.random() < 0.1:
            isa, path, fn, k, line_no = rnd.choice(data)
            ins = None
        else:
            isa, path, fn, k, ins = rnd.choice(sites)
            line_no = ins.line
        if path not in texts:
            with open(path) as f:
                texts[path] = f.read()
        lines = texts[path].split('\n')
        if ins is None:
            kind, new = rodata_mutant(lines[line_no - 1], rnd)
        else:
            kind, new = rnd.choice(mutants_of(lines[line_no - 1], ins, rnd, isa))
        lines2 = list(lines)
        lines2[line_no - 1] = new
        drawn.append((isa, path, k, line_no, ins.text if ins else lines[line_no - 1].strip(), kind, new,
                      '\n'.join(lines2)))
    killed, survivors, kinds = 0, [], {}
    t0 = time.time()
    jobs = [(asm_dir, text, path, isa, k) for isa, path, k, _, _, _, _, text in drawn]
    for done, ((isa, path, k, line_no, was, kind, new, _), (passed, fails, secs)) in \
            enumerate(zip(drawn, pool.in_order(judge_job, jobs)), 1):
        st = kinds.setdefault(kind, [0, 0])
        st[0] += 1
        if passed or all('unfinished' in f for f in fails):
            # a declared gap, or any obligation, left unfinished is no rejection
            survivors.append((isa, k, line_no, was, kind, new.strip()))
            verdict = 'SURVIVED' + (' (unfinished: %s)' % fails[0][:80] if fails else '')
        else:
            killed += 1
            st[1] += 1
            verdict = 'killed: ' + fails[0][:110]
        print('%4d %-7s %-22s %4d %-6s %-45s %5.1f s %s' % (done, isa, k, line_no, kind, new.strip()[:45],
                                                          secs, verdict), flush=True)
    done = len(drawn)
    rate = killed / max(1, done)
    print()
    for kind, (a, b) in sorted(kinds.items()):
        print('  %-6s %d drawn, %d killed' % (kind, a, b))
    print('mutation check: %d mutants, %d killed (%.1f%%), %d survived, %.0f s' %
          (done, killed, 100 * rate, len(survivors), time.time() - t0))
    for s in survivors:
        print('  SURVIVOR %s %s line %d: %s  ->  [%s] %s' % s)
    return 0 if rate >= 0.95 else 1
