# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Independent jobs of the prover (the kernels of the full run, the self-test's planted
bugs, the mutants) in forked processes, as many at once as there are CPUs unless told:
each job is a Z3 run of its own, and the results come back in the order of the jobs, so
that what is printed does not depend on which finished first (nor on the order they were
started in)."""
import contextlib
import gc
import io
import multiprocessing
import os
import pickle
import select
import signal
import sys
import traceback
from concurrent.futures import ProcessPoolExecutor


def in_order(fn, jobs, workers=None):
    """fn(job) for every job (fn a module-level function: it is named to the workers),
    yielded in job order as each is ready."""
    workers = workers or os.cpu_count() or 1
    if workers == 1 or len(jobs) <= 1:
        yield from map(fn, jobs)
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context('fork')) as ex:
        yield from ex.map(fn, jobs)


def forked_in_order(fn, jobs, workers=None, start=None):
    """fn(job) for every job, each in a process of its own forked from the caller, at most
    workers at once, yielded in job order as each is ready. Every job starts from the
    caller's state (what it set up: parsed files, Z3's terms), never from what an earlier
    job left in a reused worker, so a job's result does not depend on which jobs ran
    before it where (Z3 orders the arguments it normalises by the terms' creation, and a
    kernel's printed classes of lanes follow). start: a key the jobs are started by (the
    longest first, so that the processes end together); a stable sort, so jobs of equal
    key start in their order. An exception in fn is raised here, with the job's
    traceback; a job whose process dies raises too."""
    workers = workers or os.cpu_count() or 1
    order = sorted(range(len(jobs)), key=(lambda i: start(jobs[i])) if start else None)
    done, running = {}, {}          # job index -> result; read end -> [index, pid, chunks]
    # the caller's objects out of the collector's reach: a child's collections would
    # otherwise go through all of them, writing to (so copying) every page they are on
    gc.freeze()
    try:
        nxt = 0
        for i in range(len(jobs)):
            while i not in done:
                while nxt < len(order) and len(running) < workers:
                    running.update([_fork(fn, jobs[order[nxt]], order[nxt])])
                    nxt += 1
                for r in select.select(list(running), [], [])[0]:
                    chunk = os.read(r, 1 << 16)
                    if chunk:
                        running[r][2].append(chunk)
                        continue
                    j, pid, chunks = running.pop(r)
                    os.close(r)
                    os.waitpid(pid, 0)
                    if not chunks:
                        raise RuntimeError('job %r: its process died' % (jobs[j],))
                    ok, value = pickle.loads(b''.join(chunks))
                    if not ok:
                        raise RuntimeError('job %r raised:\n%s' % (jobs[j], value))
                    done[j] = value
            yield done.pop(i)
    finally:
        gc.unfreeze()
        for r, (_, pid, _) in running.items():
            os.close(r)
            try:
                os.kill(pid, signal.SIGTERM)
                os.waitpid(pid, 0)
            except OSError:
                pass


def _fork(fn, job, index):
    """(read end, [index, pid, []]) of a process that runs fn(job) and writes back
    (True, result) or (False, traceback), pickled."""
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:                # the job's process: never returns to the caller
        code = 0
        try:
            os.close(r)
            try:
                data = pickle.dumps((True, fn(job)))
            except BaseException:
                data = pickle.dumps((False, traceback.format_exc()))
            with os.fdopen(w, 'wb') as f:
                f.write(data)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(w)
    return r, [index, pid, []]


def captured(fn, *args, **kw):
    """(fn(*args, **kw), what it printed, False), or (None, what it printed and the
    traceback, True) if it raised."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            return fn(*args, **kw), out.getvalue(), False
        except Exception:
            traceback.print_exc(file=out)
            return None, out.getvalue(), True
