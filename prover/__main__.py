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
import functools
import os
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor
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


def neon_kernels(only=None):
    """the neon kernels prove_neon runs, in order"""
    return [k for k in NEON_PROVED if not (only and k not in only and neon_file(k) not in only)]


def prove_neon_kernel(asm_dir, k, unit, out=print):
    """neon kernel k (unit(f): the parsed neon/f.S), printed; its Report."""
    from . import a64
    rep = Report('neon', k)
    t = time.time()
    try:
        u = unit(neon_file(k))
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
    print_report(rep, out)
    return rep


def neon_listing(asm_dir, only=None, out=print):
    """every neon function without an obligation: a declared gap is printed (in a run of
    every kernel), one the prover knows neither way fails the run (True)."""
    bad = False
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
    return bad


def prove_neon(asm_dir, only=None, out=print):
    """the neon kernels with an AArch64 obligation; every other neon function is printed
    as a declared gap (and one the prover knows neither way fails the run)."""
    units = {}

    def unit(f):
        if f not in units:
            units[f] = asm.parse(os.path.join(asm_dir, 'neon', f + '.S'), arch='a64')
        return units[f]
    reps = [prove_neon_kernel(asm_dir, k, unit, out) for k in neon_kernels(only)]
    return reps, neon_listing(asm_dir, only, out)


def neon_declared(asm_dir):
    """the number of neon functions declared NOT PROVED"""
    return sum(1 for n in neon_functions(asm_dir) if neon_key(n) in NEON_NOT_PROVED)


def print_report(rep, out=print):
    out('%-7s %-22s %-7s %6.1f s' % (rep.isa, rep.kernel, ('PARTIAL' if rep.gaps else 'PROVED') if rep.passed else 'FAILED', rep.secs))
    for what, detail, secs, ok, msg in rep.items:
        out('        %s %s%s (%.2f s)' % ('ok ' if ok else 'NO ', what,
                                (' [%s]' % detail if detail else '') if ok else ': ' + msg, secs))
    for what, why in rep.gaps:
        out('        NOT PROVED (declared gap) %s: %s' % (what, why))


def file_of(k):
    for pre in ('decompose', 'make_hint', 'use_hint', 'pointwise_acc', 'rej_eta', 'unpack_z', 'pack_w1', 'pack_z'):
        if k.startswith(pre):
            return pre
    return k


def check_semantics(asm_dir, isas, parse=asm.parse):
    """every mnemonic of every function in asm_out has a semantics (or is control flow)."""
    missing = {}
    for isa in isas:
        d = os.path.join(asm_dir, isa)
        for f in sorted(os.listdir(d)):
            if not f.endswith('.S'):
                continue
            u = parse(os.path.join(d, f))
            for fn in u.functions.values():
                for ins in fn.insns:
                    if not semantics.known(ins.mnem):
                        missing.setdefault(ins.mnem, []).append('%s/%s:%d' % (isa, f, ins.line))
    return missing


def x86_kernels(isa, only=None):
    """the kernels prove_isa runs on an x86 ISA, in order"""
    extra = [k for k in (only or []) if k in kernels.K and k not in ELEMENTWISE]
    out = []
    for k in (ELEMENTWISE + extra + ['ntt_reorder', 'ntt', 'invntt_tomont'] + list(sampler_lanes.OBLIGATIONS)
              + list(codecs.OBLIGATIONS) + KECCAK):
        if only and k not in only and file_of(k) not in only:
            continue
        if k in KECCAK and (isa, k) not in keccak.KERNELS_X86:
            continue
        out.append(k)
    return out


def prove_kernel(asm_dir, isa, k, unit, out=print):
    """x86 kernel k on isa (unit(f): the parsed isa/f.S), printed; its Report."""
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
    print_report(rep, out)
    return rep


def prove_isa(asm_dir, isa, only=None, out=print):
    units = {}

    def unit(f):
        if f not in units:
            units[f] = asm.parse(os.path.join(asm_dir, isa, f + '.S'))
        return units[f]
    return [prove_kernel(asm_dir, isa, k, unit, out) for k in x86_kernels(isa, only)]


def coverage(asm_dir, isa, parse=asm.parse):
    """functions in asm_out/<isa> and whether an obligation covers them."""
    names = set()
    for f in os.listdir(os.path.join(asm_dir, isa)):
        if f.endswith('.S'):
            names |= set(parse(os.path.join(asm_dir, isa, f)).functions)
    covered = {'mldsa_%s_%s' % (k if not k.startswith('pointwise_acc') else 'pointwise_acc', isa)
               for k in ELEMENTWISE} | {'mldsa_%s_%s' % (k, isa) for k in
                                        ['ntt_reorder', 'ntt', 'invntt_tomont'] + list(sampler_lanes.OBLIGATIONS)
                                        + list(codecs.OBLIGATIONS)} | \
        {'mldsa_%s_%s' % (k, i) for i, k in keccak.KERNELS_X86 if i == isa}
    declared = {'mldsa_%s_%s' % (k, isa) for k in NOT_PROVED if (isa, k) not in keccak.KERNELS_X86}
    return sorted(names - covered - declared), sorted(names & declared)


def check_linked(asm_dir, isa, parse=asm.parse):
    """every .S of the ISA read as the build reads it and its object the one the build
    links (asm.parse, linked.py), also a file whose functions are declared not proved;
    True if one is not."""
    t, bad, files = time.time(), False, sorted(Path(asm_dir, isa).glob('*.S'))
    for f in files:
        try:
            parse(str(f))
        except asm.ParseError as e:
            print('%-7s %-22s LINKED OBJECT FAILED: %s' % (isa, f.stem, e))
            bad = True
    if not bad:
        print('%-7s linked: the %d objects of %s/%s are the ones libmldsa.a and libmldsa.so hold, '
              'with their kernels hidden, defined once, and their notes held (%.1f s)'
              % (isa, len(files), asm_dir, isa, time.time() - t))
    return bad


def isa_head(asm_dir, isas, parse=asm.parse):
    """what a run prints before the kernels of x86 isas: the semantics of every
    instruction; True if one has none."""
    missing = check_semantics(asm_dir, isas, parse) if isas else {}
    if missing:
        for mn, where in sorted(missing.items()):
            print('NO SEMANTICS for %s (%d uses, first %s)' % (mn, len(where), where[0]))
        return True
    if isas:
        print('semantics: every instruction of every function in %s/{%s} has one' % (asm_dir, ','.join(isas)))
    return False


def isa_tail(asm_dir, isa, whole, parse=asm.parse):
    """what a run prints after the kernels of an x86 isa (whole: a run of every kernel,
    not --kernel): the samplers' tables, the objects linked, the functions without an
    obligation and the ones declared not proved; True if one of them fails the run."""
    bad = False
    if whole:
        from .samplers import check as tables
        for f, what, ok, bad_entries in tables(asm_dir, isa, parse):
            print('%-7s %-22s %-7s table %s%s' % (isa, f, 'CHECKED' if ok else 'FAILED', what,
                                               '' if ok else ' wrong at %s' % bad_entries))
            bad |= not ok
        bad |= check_linked(asm_dir, isa, parse)
    unknown, declared = coverage(asm_dir, isa, parse)
    for n in unknown:
        print('%-7s %-22s NO OBLIGATION (a kernel the prover does not know)' % (isa, n))
        bad = True
    if whole:
        for n in declared:
            k = n[len('mldsa_'):-len('_' + isa)]
            print('%-7s %-22s not proved: %s' % (isa, k, NOT_PROVED[k]))
    return bad


def neon_tail(asm_dir):
    """what a run of every kernel prints after the neon kernels' listing, before the
    summary line: the objects linked; True if one is not the one the build links."""
    return check_linked(asm_dir, 'neon')


def neon_summary(passed, declared, secs):
    return ('neon: %d kernels proved as on x86, %d functions declared NOT PROVED (%.1f s)'
            % (passed, declared, secs))


# ---------------------------------------------------------------- the full run, in parallel
#
# The full run is cut into independent jobs, each in a process forked for it
# (pool.forked_in_order) and printed in the order one process per ISA printed them
# before: per x86 ISA its head (the semantics check), each kernel, its tail (tables,
# linked objects, coverage); then each neon kernel and the neon tail. A kernel's proof
# does not depend on another's: the obligations and verdicts are the same, and each
# kernel prints what `--isa I --kernel K` prints for it alone (its details, such as how
# lanes fall into classes, follow Z3's term order, which a process's earlier proofs set,
# so they no longer follow the kernels before it on its ISA). The wall time is no longer
# bounded by the slowest ISA but by about the CPU time over the processes.

# The kinds of proof known to be heavy, in the order they are started
HEAVY = ['rej_eta2', 'rej_eta4', 'rej_uniform', 'keccak_f1600_batch', 'invntt_tomont', 'keccak_f1600_x1',
         'ntt', 'pointwise_acc_L7']
WIDTH = {'avx512': 512, 'avx2': 256, 'sse2': 128, 'neon': 128}


def job_order(job):
    """The order the jobs are started in (they are printed in their own order): the kinds
    of proof known to be heavy first, so that the processes end at about the same time
    with only short jobs left at the end, then the others in their order. Derived from what
    each proof does, not from recorded times (which would rot as the kernels and the
    prover change): first the samplers' whole-loop induction (Z3 queries for every claim
    of every path between loop heads, more the more candidates a vector step has), then
    the Keccak permutations (24 rounds run symbolically and normalised, the batched ones
    on several states), the transforms (8 layers of butterflies), the longest
    accumulation; within a kind the wider vectors first (more lanes per step)."""
    if job[0] != 'kernel':
        return (len(HEAVY), 0)
    k = job[3]
    rank = next((i for i, h in enumerate(HEAVY) if k == h or k.startswith(h + '_')), len(HEAVY) + 1)
    return (rank, -WIDTH[job[2]])


def run_job(job):
    """one job of the full run, in a process of its own: ('kernel', asm_dir, isa, k),
    ('head', asm_dir, isa) or ('tail', asm_dir, isa) -> ([(text printed, raised, value)],
    seconds): a kernel's value (passed, obligations, declared gaps), a head's or a tail's
    True if it fails the run; the neon tail's parts the listing, the linked objects and
    the number of functions declared not proved, each after one that did not raise."""
    kind, asm_dir, isa = job[:3]
    t = time.time()

    def parse(path):
        """the file as read before the fork (the job's own copy), else read here"""
        if path not in PARSED:
            PARSED[path] = asm.parse(path, arch='a64' if isa == 'neon' else None)
        return PARSED[path]
    if kind == 'kernel':
        rep, text, raised = pool.captured(
            prove_neon_kernel if isa == 'neon' else functools.partial(prove_kernel, isa=isa),
            asm_dir=asm_dir, k=job[3], unit=lambda f: parse(os.path.join(asm_dir, isa, f + '.S')))
        parts = [(text, raised, None if raised else (rep.passed, len(rep.items), len(rep.gaps)))]
    elif kind == 'head':
        bad, text, raised = pool.captured(isa_head, asm_dir, [isa], parse)
        parts = [(text, raised, bad)]
    elif isa == 'neon':
        parts = []
        for fn in (neon_listing, neon_tail, neon_declared):
            value, text, raised = pool.captured(fn, asm_dir)
            parts.append((text, raised, value))
            if raised:
                break
    else:
        bad, text, raised = pool.captured(isa_tail, asm_dir, isa, True, parse)
        parts = [(text, raised, bad)]
    return parts, time.time() - t


# path -> the Unit asm.parse made of it, read before the jobs are forked (warm)
PARSED = {}


def warm(asm_dir, isas, workers):
    """every .S read (preprocessed, assembled twice, its object compared with the one
    linked: asm.parse) before the jobs are forked, workers files at once (the time is in
    the compiler's processes), so that the jobs share what was read instead of each
    reading its files again. A file that does not read is left to the job that meets it,
    which reports it as a run of one process did."""
    for arch in ('x86', 'a64'):
        try:
            build.of(arch).members()
            build.of(arch).shared()
        except Exception:
            pass
    paths = [os.path.join(asm_dir, isa, f.name) for isa in isas for f in sorted(Path(asm_dir, isa).glob('*.S'))]

    def read(path):
        try:
            return path, asm.parse(path, arch='a64' if os.path.basename(os.path.dirname(path)) == 'neon' else None)
        except Exception:
            return path, None
    with ThreadPoolExecutor(max_workers=max(1, workers)) as ex:
        PARSED.update((path, u) for path, u in ex.map(read, paths) if u is not None)


def in_parallel(a):
    """The full run in a.jobs processes at once (run_job, started in job_order), printed
    as one process per ISA printed it: each ISA's lines in order, its FAILED lines last,
    nothing more of an ISA after an exception; then sign.c's chains. The summary adds up
    the ISAs'."""
    t0 = time.time()
    warm(a.asm_dir, ISAS + ['neon'], a.jobs)
    jobs = []
    for isa in ISAS:
        jobs += [('head', a.asm_dir, isa)] + [('kernel', a.asm_dir, isa, k) for k in x86_kernels(isa)] + \
            [('tail', a.asm_dir, isa)]
    jobs += [('kernel', a.asm_dir, 'neon', k) for k in neon_kernels()] + [('tail', a.asm_dir, 'neon')]
    totals, rc = [0, 0, 0, 0], 0
    by_isa = {}
    for job in jobs:
        by_isa.setdefault(job[2], []).append(job)
    results = pool.forked_in_order(run_job, jobs, a.jobs, job_order)
    for isa, isa_jobs in by_isa.items():
        # (its process printed a line starting with 'FAILED: ' after the others, and the
        # failed kernels after its summary, which it did not reach after an exception)
        counts, printed_failed, failed, stopped, secs = [0, 0, 0, 0], [], [], False, 0.0
        for job in isa_jobs:
            parts, t = next(results)
            secs += t
            if stopped:         # its process ended at an exception: nothing more of the ISA
                continue
            for text, raised, value in parts:
                for line in text.rstrip('\n').split('\n'):
                    if line.startswith('FAILED: '):
                        printed_failed.append(line)
                    elif line:
                        print(line)
                if raised:
                    stopped = True
                    break
                if job[0] == 'kernel':
                    passed, items, gaps = value
                    counts = [counts[0] + 1, counts[1] + (items if passed else 0), counts[2] + (not passed),
                              counts[3] + gaps]
                    if not passed:
                        failed.append('FAILED: %s %s' % (isa, job[3]))
                elif value is True:
                    rc = 1
            if job[0] == 'tail' and isa == 'neon' and not stopped:
                print(neon_summary(counts[0] - counts[2], parts[-1][2], secs))
        for line in printed_failed + ([] if stopped else failed):
            print(line)
        if stopped or failed:
            rc = 1
        if not stopped:
            totals = [t + c for t, c in zip(totals, counts)]
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
                    help='the full run: its kernels proved in N processes at once (default: the CPUs)')
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
    bad = isa_head(a.asm_dir, isas)
    summary = []
    for isa in isas:
        summary += prove_isa(a.asm_dir, isa, a.kernel)
        bad |= isa_tail(a.asm_dir, isa, not a.kernel)
    if not a.isa or 'neon' in a.isa:
        t = time.time()
        reps, nbad = prove_neon(a.asm_dir, a.kernel)
        summary += reps
        bad |= nbad
        if not a.kernel:
            bad |= neon_tail(a.asm_dir)
            print(neon_summary(sum(r.passed for r in reps), neon_declared(a.asm_dir), time.time() - t))
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
