# SPDX-License-Identifier: Apache-2.0 OR MIT
"""python3 -m prover [--isa I] [--kernel K] [--asm-dir D] [--self-test [--plants-every N --seed S]]
                   [--mutate N]
                   [--differential [--cases N] [--sample K]]  (x86 on this CPU, A64 under qemu-aarch64)
                   [--imports] [--build DIR] [--build-aarch64 DIR]

Proves what asm_out/ holds (the .S text, not the generator) as the build compiles and
links it (build.py, linked.py; the builds named by --build, --build-aarch64), prints per
ISA x kernel what was proved and the time, and exits 1 on any failed or unfinished
obligation (also on an instruction without semantics, an object the build links that is
not the one proved, or a kernel in asm_out/ the prover has no obligation for: those are
listed as 'not proved' and fail the run unless declared in inventory.py as tested only)."""
import argparse
import os
import re
import sys
import time
from pathlib import Path

from . import asm, build, codecs, keccak, keccak_a64, kernels, ntt, pool, reorder, sampler_lanes, semantics
from .inventory import ELEMENTWISE, ISAS, KECCAK, NEON_NOT_PROVED, NOT_PROVED, neon_key
from .kernels import Report

# AArch64: the element-wise kernels, the products, the transforms and the decoder are
# proved against the same obligations as on x86 (prover/a64.py is the front end), the
# Keccak bodies as x86's Keccak kernels (keccak_a64.py); the rest is declared in
# inventory.py.
NEON_TRANSFORMS = ['ntt_reorder', 'ntt', 'invntt_tomont']
NEON_PROVED = (ELEMENTWISE + NEON_TRANSFORMS + list(codecs.OBLIGATIONS) + list(keccak_a64.KERNELS)
               + list(sampler_lanes.OBLIGATIONS))


def neon_file(k):
    """the .S (without the suffix) of neon kernel k"""
    return keccak_a64.KERNELS[k]['file'] if k in keccak_a64.KERNELS else file_of(k)


def neon_function(k):
    """the neon function proved under kernel name k"""
    if k in keccak_a64.KERNELS:
        return keccak_a64.function_name(k)
    return 'mldsa_%s_neon' % ('pointwise_acc' if k.startswith('pointwise_acc') else k)


def neon_functions(asm_dir):
    return sorted(set(re.findall(r'\.glob(?:a)?l (mldsa_\w+_neon(?:_\w+)?)\b', '\n'.join(
        f.read_text() for f in sorted(Path(asm_dir, 'neon').glob('*.S'))))))


def prove_neon(asm_dir, only=None, out=print):
    """the neon kernels with an AArch64 obligation; every other neon function is printed
    as a declared gap (and one the prover knows neither way fails the run)."""
    from . import a64
    reps, units, bad = [], {}, False
    for k in NEON_PROVED:
        if only and k not in only and neon_file(k) not in only:
            continue
        rep = Report('neon', k)
        t = time.time()
        try:
            f = neon_file(k)
            if f not in units:
                units[f] = asm.parse(os.path.join(asm_dir, 'neon', f + '.S'), arch='a64')
            u = units[f]
            fn = u.functions.get(neon_function(k))
            missing = sorted({i.mnem for i in fn.insns if not a64.known_insn(i)}) if fn else []
            if missing:
                raise Exception('no AArch64 semantics for %s' % ', '.join(missing))
            if k == 'ntt_reorder':
                with open(os.path.join(asm_dir, 'neon', 'ntt.S')) as fh:
                    reorder.prove_reorder(u, 'neon', rep, fh.read())
            elif k in ntt.TRANSFORMS:
                ntt.TRANSFORMS[k](u, 'neon', rep)
            elif k in codecs.OBLIGATIONS:
                codecs.OBLIGATIONS[k](u, 'neon', rep)
            elif k in keccak_a64.KERNELS:
                keccak_a64.prove_kernel(u, k, rep)
            elif k in sampler_lanes.OBLIGATIONS:
                sampler_lanes.OBLIGATIONS[k](u, 'neon', rep)
            else:
                kernels.K[k](u, 'neon', rep)
        except Exception as e:          # a prover error is a failure, never a skip
            rep.fail('prover error', '%s: %s' % (type(e).__name__, e))
        rep.secs = time.time() - t
        reps.append(rep)
        out('%-7s %-22s %-7s %6.1f s' % ('neon', k, ('PARTIAL' if rep.gaps else 'PROVED') if rep.passed else 'FAILED', rep.secs))
        for what, detail, secs, ok, msg in rep.items:
            out('        %s %s%s (%.2f s)' % ('ok ' if ok else 'NO ', what,
                                    (' [%s]' % detail if detail else '') if ok else ': ' + msg, secs))
        for what, why in rep.gaps:
            out('        NOT PROVED (declared gap) %s: %s' % (what, why))
    covered = {neon_function(k) for k in NEON_PROVED}
    for n in neon_functions(asm_dir):
        k = neon_key(n)
        if n in covered:
            continue
        if k in NEON_NOT_PROVED:
            if not only:
                out('%-7s %-22s not proved: %s' % ('neon', k, NEON_NOT_PROVED[k]))
        else:
            out('%-7s %-22s NO OBLIGATION (a kernel the prover does not know)' % ('neon', k))
            bad = True
    return reps, bad


def file_of(k):
    for pre in ('decompose', 'make_hint', 'use_hint', 'pointwise_acc', 'rej_eta', 'unpack_z', 'pack_w1', 'pack_z'):
        if k.startswith(pre):
            return pre
    return k


def check_semantics(asm_dir, isas):
    """every mnemonic of every function in asm_out has a semantics (or is control flow)."""
    missing = {}
    for isa in isas:
        d = os.path.join(asm_dir, isa)
        for f in sorted(os.listdir(d)):
            if not f.endswith('.S'):
                continue
            u = asm.parse(os.path.join(d, f))
            for fn in u.functions.values():
                for ins in fn.insns:
                    if not semantics.known(ins.mnem):
                        missing.setdefault(ins.mnem, []).append('%s/%s:%d' % (isa, f, ins.line))
    return missing


def prove_isa(asm_dir, isa, only=None, out=print):
    reps = []
    units = {}

    def unit(f):
        if f not in units:
            units[f] = asm.parse(os.path.join(asm_dir, isa, f + '.S'))
        return units[f]
    extra = [k for k in (only or []) if k in kernels.K and k not in ELEMENTWISE]
    for k in (ELEMENTWISE + extra + ['ntt_reorder', 'ntt', 'invntt_tomont'] + list(sampler_lanes.OBLIGATIONS)
              + list(codecs.OBLIGATIONS) + KECCAK):
        if only and k not in only and file_of(k) not in only:
            continue
        if k in KECCAK and (isa, k) not in keccak.KERNELS_X86:
            continue
        rep = Report(isa, k)
        t = time.time()
        try:
            if k in sampler_lanes.OBLIGATIONS:
                sampler_lanes.OBLIGATIONS[k](unit(file_of(k)), isa, rep)
            elif k in KECCAK:
                keccak.prove_kernel_x86(unit(k), isa, k, rep)
            elif k in codecs.OBLIGATIONS:
                codecs.OBLIGATIONS[k](unit(file_of(k)), isa, rep)
            elif k in ('ntt_reorder', 'ntt', 'invntt_tomont'):
                with open(os.path.join(asm_dir, isa, 'ntt.S')) as f:
                    order = f.read()
                if k == 'ntt_reorder':
                    reorder.prove_reorder(unit('ntt_reorder'), isa, rep, order)
                else:
                    ntt.TRANSFORMS[k](unit(k), isa, rep)
            else:
                kernels.K[k](unit(file_of(k)), isa, rep)
        except Exception as e:          # a prover error is a failure, never a skip
            rep.fail('prover error', '%s: %s' % (type(e).__name__, e))
        rep.secs = time.time() - t
        reps.append(rep)
        out('%-7s %-22s %-7s %6.1f s' % (isa, k, ('PARTIAL' if rep.gaps else 'PROVED') if rep.passed else 'FAILED', rep.secs))
        for what, detail, secs, ok, msg in rep.items:
            out('        %s %s%s (%.2f s)' % ('ok ' if ok else 'NO ', what,
                                    (' [%s]' % detail if detail else '') if ok else ': ' + msg, secs))
        for what, why in rep.gaps:
            out('        NOT PROVED (declared gap) %s: %s' % (what, why))
    return reps


def coverage(asm_dir, isa):
    """functions in asm_out/<isa> and whether an obligation covers them."""
    names = set()
    for f in os.listdir(os.path.join(asm_dir, isa)):
        if f.endswith('.S'):
            names |= set(asm.parse(os.path.join(asm_dir, isa, f)).functions)
    covered = {'mldsa_%s_%s' % (k if not k.startswith('pointwise_acc') else 'pointwise_acc', isa)
               for k in ELEMENTWISE} | {'mldsa_%s_%s' % (k, isa) for k in
                                        ['ntt_reorder', 'ntt', 'invntt_tomont'] + list(sampler_lanes.OBLIGATIONS)
                                        + list(codecs.OBLIGATIONS)} | \
        {'mldsa_%s_%s' % (k, i) for i, k in keccak.KERNELS_X86 if i == isa}
    declared = {'mldsa_%s_%s' % (k, isa) for k in NOT_PROVED if (isa, k) not in keccak.KERNELS_X86}
    return sorted(names - covered - declared), sorted(names & declared)


def check_linked(asm_dir, isa):
    """every .S of the ISA read as the build reads it and its object the one the build
    links (asm.parse, linked.py), also a file whose functions are declared not proved;
    True if one is not."""
    t, bad, files = time.time(), False, sorted(Path(asm_dir, isa).glob('*.S'))
    for f in files:
        try:
            asm.parse(str(f))
        except asm.ParseError as e:
            print('%-7s %-22s LINKED OBJECT FAILED: %s' % (isa, f.stem, e))
            bad = True
    if not bad:
        print('%-7s linked: the %d objects of %s/%s are the ones libmldsa.a and libmldsa.so hold, '
              'with their kernels hidden, defined once, and their notes held (%.1f s)'
              % (isa, len(files), asm_dir, isa, time.time() - t))
    return bad


SUMMARY = re.compile(r'^(\d+) kernel runs, (\d+) obligations proved, (\d+) failed kernels, '
                     r'(\d+) declared gaps')


def prove_one_isa(job):
    """one ISA of the full run, in a worker: (exit code, what it printed)."""
    asm_dir, isa = job
    return pool.printed(main, ['--asm-dir', asm_dir, '--no-composition', '--isa', isa,
                               '--build', build.of('x86').dir, '--build-aarch64', build.of('a64').dir])


def in_parallel(a):
    """The full run as one process per ISA, a.jobs at a time, each printed whole in ISA
    order when it ends; then sign.c's chains. The summary adds up the processes'."""
    t0 = time.time()
    totals, rc = [0, 0, 0, 0], 0
    isas = ISAS + ['neon']
    for code, text in pool.in_order(prove_one_isa, [(a.asm_dir, isa) for isa in isas], a.jobs):
        lines = text.rstrip('\n').split('\n')
        for line in lines:
            m = SUMMARY.match(line)
            if m:
                totals = [t + int(x) for t, x in zip(totals, m.groups())]
            elif not line.startswith('FAILED: ') and line:
                print(line)
        for line in lines:
            if line.startswith('FAILED: '):
                print(line)
        rc |= code != 0
    from .composition import main as comp
    print()
    rc |= comp() != 0
    print()
    print('%d kernel runs, %d obligations proved, %d failed kernels, %d declared gaps (not proved), '
          '%.1f s in all (%d processes at once)' % (*totals, time.time() - t0, a.jobs))
    return 1 if rc else 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog='prover')
    ap.add_argument('--asm-dir', default='asm_out')
    ap.add_argument('--isa', action='append')
    ap.add_argument('--kernel', action='append')
    ap.add_argument('--self-test', action='store_true')
    ap.add_argument('--plants-every', type=int, default=1, metavar='N',
                    help='--self-test: only every N-th planted bug of the main list, from --seed mod N')
    ap.add_argument('--mutate', type=int, default=0, metavar='N')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--differential', action='store_true')
    ap.add_argument('--imports', action='store_true', help='fail on an import cycle in the package')
    ap.add_argument('--build', default='build', metavar='DIR',
                    help='the x86-64 CMake build whose options and libraries are proved (default build)')
    ap.add_argument('--build-aarch64', default='build-aarch64', metavar='DIR',
                    help='the AArch64 cross build (default build-aarch64)')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1, metavar='N',
                    help='the full run: ISAs proved in N processes at once (default: the CPUs)')
    ap.add_argument('--no-composition', action='store_true', help=argparse.SUPPRESS)
    ap.add_argument('--cases', type=int, default=16)
    ap.add_argument('--sample', type=int, default=0, metavar='K')
    a = ap.parse_args(argv)
    if a.imports:
        from .import_graph import main as imports
        return imports()
    try:
        build.use(a.build, a.build_aarch64)
    except asm.ParseError as e:
        print('prover: %s' % e, file=sys.stderr)
        return 2
    if a.differential:
        from .differential import main as diff
        from .a64diff import main as diff_a64
        rc = diff(a.cases, a.sample, a.seed, a.asm_dir)
        return diff_a64(a.cases, a.seed, a.asm_dir) or rc
    if a.self_test:
        from .selftest import main as st
        return st(a.asm_dir, a.plants_every, a.seed)
    if a.mutate:
        from .mutate import main as mu
        return mu(a.asm_dir, a.mutate, a.seed, a.isa or ISAS, a.kernel)
    if a.jobs > 1 and not a.isa and not a.kernel:
        return in_parallel(a)
    isas = [i for i in (a.isa or ISAS) if i != 'neon']
    t0 = time.time()
    bad = False
    missing = check_semantics(a.asm_dir, isas) if isas else {}
    if missing:
        for mn, where in sorted(missing.items()):
            print('NO SEMANTICS for %s (%d uses, first %s)' % (mn, len(where), where[0]))
        bad = True
    elif isas:
        print('semantics: every instruction of every function in %s/{%s} has one' % (a.asm_dir, ','.join(isas)))
    summary = []
    for isa in isas:
        reps = prove_isa(a.asm_dir, isa, a.kernel)
        summary += reps
        if not a.kernel:
            from .samplers import check as tables
            t = time.time()
            for f, what, ok, bad_entries in tables(a.asm_dir, isa):
                print('%-7s %-22s %-7s table %s%s' % (isa, f, 'CHECKED' if ok else 'FAILED', what,
                                                   '' if ok else ' wrong at %s' % bad_entries))
                bad |= not ok
        if not a.kernel:
            bad |= check_linked(a.asm_dir, isa)
        unknown, declared = coverage(a.asm_dir, isa)
        for n in unknown:
            print('%-7s %-22s NO OBLIGATION (a kernel the prover does not know)' % (isa, n))
            bad = True
        if not a.kernel:
            for n in declared:
                k = n[len('mldsa_'):-len('_' + isa)]
                print('%-7s %-22s not proved: %s' % (isa, k, NOT_PROVED[k]))
    if not a.isa or 'neon' in a.isa:
        t = time.time()
        reps, nbad = prove_neon(a.asm_dir, a.kernel)
        summary += reps
        bad |= nbad
        if not a.kernel:
            bad |= check_linked(a.asm_dir, 'neon')
        if not a.kernel:
            print('neon: %d kernels proved as on x86, %d functions declared NOT PROVED (%.1f s)'
                  % (sum(r.passed for r in reps), sum(1 for n in neon_functions(a.asm_dir) if
                                                       neon_key(n) in NEON_NOT_PROVED),
                     time.time() - t))
    if not a.kernel and not a.no_composition:
        from .composition import main as comp
        print()
        bad |= comp() != 0
    failed = [r for r in summary if not r.passed]
    gaps = sum(len(r.gaps) for r in summary)
    print()
    print('%d kernel runs, %d obligations proved, %d failed kernels, %d declared gaps (not proved), %.1f s in all'
          % (len(summary), sum(len(r.items) for r in summary if r.passed), len(failed), gaps, time.time() - t0))
    for r in failed:
        print('FAILED: %s %s' % (r.isa, r.kernel))
    return 1 if (failed or bad) else 0


if __name__ == '__main__':
    sys.exit(main())
