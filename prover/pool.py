# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Independent jobs of the prover (the ISAs of the full run, the self-test's planted bugs,
the mutants) in forked processes, as many at once as there are CPUs unless told: each job
is a Z3 run of its own, and the results come back in the order of the jobs, so that what
is printed does not depend on which finished first."""
import contextlib
import io
import multiprocessing
import os
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


def printed(fn, *args):
    """(fn(*args), what it printed); an exception is printed as its traceback and returns 1."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            rc = fn(*args)
        except Exception:
            traceback.print_exc(file=out)
            rc = 1
    return rc, out.getvalue()
