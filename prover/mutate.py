# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The mutation check: random single-instruction mutations of the proved kernels' .S
text, each proved again; the prover must reject (counterexample, failed structure check,
execution error or unfinished obligation) at least 95% of them. Mutations:
  swap     two register operands exchanged (of instructions whose result depends on the
           order: sources of a commutative operation swapped give the same instruction,
           so those are not drawn);
  const    an immediate changed (shift count, shuffle selector, loop count: +-1 or one
           bit flipped) or a memory displacement moved by +-4 bytes;
  drop     the instruction deleted.
Survivors are printed with the instruction, to be explained (an equivalent mutation) or
closed. Only kernels with obligations are mutated (not the samplers' code, not Keccak).
The transforms (ntt, invntt_tomont) take 5-40 s per proof and a mutant that
keeps a lane from closing takes minutes, so they are mutated only when named with
--kernel."""
import os
import random
import re
import time

from . import asm, decoders, kernels, lanes, ntt, reorder
from .kernels import Report

COMMUTATIVE = set()
for _n in ('paddd psubd_no paddq paddb pand por pxor pmulld pminud pmaxud pmuludq pmuldq pmulhuw '
           'pmulhrsw pmaddwd pcmpeqd psadbw vpandd vpord vpxord vpxorq').split():
    COMMUTATIVE |= {_n, 'v' + _n}
CONTROL = re.compile(r'^(j\w+|ret|endbr64|vzeroupper|push|pop)$')


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
            if (k in kernels.K or k in decoders.OBLIGATIONS or k == 'ntt_reorder'
                    or (k in ntt.TRANSFORMS and only and k in only)):
                out.append((path, fn, k))
    return out


def mutants_of(line, ins, rnd):
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
    return out


def judge(text, path, isa, k, ntt_text):
    u = asm.parse(path, text)
    rep = Report(isa, k)
    try:
        if k == 'ntt_reorder':
            reorder.prove_reorder(u, isa, rep, ntt_text)
        elif k in ntt.TRANSFORMS:
            ntt.TRANSFORMS[k](u, isa, rep)
        elif k in decoders.OBLIGATIONS:
            decoders.OBLIGATIONS[k](u, isa, rep)
        else:
            kernels.K[k](u, isa, rep)
    except Exception as e:
        rep.fail('prover error', str(e))
    return rep


def main(asm_dir, n, seed, isas, only=None):
    rnd = random.Random(seed)
    lanes.DEFAULT_TIMEOUT_MS = 10000
    pool = []
    for isa in isas:
        for path, fn, k in targets(asm_dir, isa, only):
            if only and k not in only:
                continue
            pool += [(isa, path, fn, k, ins) for ins in fn.insns if not CONTROL.match(ins.mnem)]
    texts = {}
    killed, survivors, kinds = 0, [], {}
    t0 = time.time()
    done = 0
    while done < n:
        isa, path, fn, k, ins = rnd.choice(pool)
        if path not in texts:
            with open(path) as f:
                texts[path] = f.read()
        lines = texts[path].split('\n')
        cands = mutants_of(lines[ins.line - 1], ins, rnd)
        kind, new = rnd.choice(cands)
        lines2 = list(lines)
        lines2[ins.line - 1] = new
        with open(os.path.join(asm_dir, isa, 'ntt.S')) as f:
            ntt_text = f.read()
        rep = judge('\n'.join(lines2), path, isa, k, ntt_text)
        done += 1
        st = kinds.setdefault(kind, [0, 0])
        st[0] += 1
        if rep.passed:          # a declared gap left unfinished is no rejection
            survivors.append((isa, k, ins.line, ins.text, kind, new.strip()))
            verdict = 'SURVIVED'
        else:
            killed += 1
            st[1] += 1
            why = next((it[4] for it in rep.items if not it[3]), '')
            verdict = 'killed: ' + why[:110]
        print('%4d %-7s %-22s %4d %-5s %-45s %s' % (done, isa, k, ins.line, kind, new.strip()[:45], verdict), flush=True)
    rate = killed / max(1, done)
    print()
    for kind, (a, b) in sorted(kinds.items()):
        print('  %-5s %d drawn, %d killed' % (kind, a, b))
    print('mutation check: %d mutants, %d killed (%.1f%%), %d survived, %.0f s' %
          (done, killed, 100 * rate, len(survivors), time.time() - t0))
    for s in survivors:
        print('  SURVIVOR %s %s line %d: %s  ->  [%s] %s' % s)
    return 0 if rate >= 0.95 else 1
