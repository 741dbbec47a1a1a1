# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The GIL is released around each C call, shown without timing anything.

The switch interval is set far beyond the test's length, so the interpreter never takes
the GIL from a thread running Python: another thread can only run while the first is in
a call that releases the GIL itself. A Python thread that makes progress during a
verify() call, or two threads inside verify() at once, therefore prove the release; with
the GIL held, neither can happen, whatever the machine's load. The loops are bounded by
a count of calls, never by a clock.
"""
import contextlib
import sys
import threading

import pytest

from mldsa import MLDSA65

MSG = bytes(range(256)) * 256  # 64 KiB: each verify spends a while in C


@pytest.fixture(scope="module")
def signed():
    pk, sk = MLDSA65.keygen(bytes(32))
    return pk, MSG, MLDSA65.sign(sk, MSG, b"ctx")


@contextlib.contextmanager
def no_preemption():
    interval = sys.getswitchinterval()
    sys.setswitchinterval(3600.0)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


def test_python_runs_while_a_thread_is_in_c(signed):
    pk, msg, sig = signed
    ready, go = threading.Event(), threading.Event()
    ran = []

    def other():
        ready.set()
        go.wait()
        ran.append(True)  # needs the GIL

    ran_during_call = False
    with no_preemption():
        thread = threading.Thread(target=other)
        thread.start()
        ready.wait()
        go.set()  # from here on, the other thread only waits for the GIL
        for _ in range(5000):
            before = len(ran)
            assert MLDSA65.verify(pk, msg, sig, b"ctx")
            if len(ran) != before:
                ran_during_call = True
                break
        thread.join()
    assert ran_during_call, "no Python thread ran while verify() was in C: the GIL was held"


def test_four_threads_verify_in_parallel(signed):
    pk, msg, sig = signed
    bad = bytes([sig[0] ^ 1]) + sig[1:]
    lock = threading.Lock()
    state = {"inside": 0, "peak": 0}
    results = [[] for _ in range(4)]
    start = threading.Barrier(4)

    def worker(index):
        start.wait()
        for i in range(2000):
            with lock:
                state["inside"] += 1
                state["peak"] = max(state["peak"], state["inside"])
            good = MLDSA65.verify(pk, msg, sig, b"ctx")
            forged = MLDSA65.verify(pk, msg, bad, b"ctx")
            with lock:
                state["inside"] -= 1
            results[index].append((good, forged))
            if state["peak"] >= 2 and i >= 20:
                break

    with no_preemption():
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    for per_thread in results:
        assert per_thread and all(r == (True, False) for r in per_thread)
    assert state["peak"] >= 2, "never two threads in verify() at once: the GIL was held"
