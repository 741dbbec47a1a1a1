#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The binding's call overhead over C: ML-DSA verify timed from C and from Python.

The C side is a timing loop compiled at run time with cffi against the same libmldsa.a as
the binding (mldsa_build.py's MLDSA_LIBRARY), so both sides run the same code on the same
ISA in one process; no ctypes. Each sample is one call between two CLOCK_MONOTONIC
readings (Python's perf_counter_ns reads the same clock). The sides alternate in rounds so
that a busy machine slows both alike; medians over all rounds are compared:

  C          mldsa_verify called from C
  cffi call  lib.mldsa_verify called from Python (cffi's own cost: arguments, GIL release)
  binding    MLDSA65.verify(pk, msg, sig, ctx) (the binding's Python code on top)

    make bench-python            (or: python3 bench.py [--param 65] [--rounds R] [--calls N])
"""
import argparse
import importlib.util
import os
import platform
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The sources next to this script have no compiled extension: mldsa comes from the build
# (make bench-python puts it on PYTHONPATH) or from an installed copy.
if sys.path and os.path.abspath(sys.path[0]) == HERE:
    sys.path.pop(0)

import mldsa  # noqa: E402
from mldsa._mldsa import lib  # noqa: E402

TIMER_C = r"""
#include <time.h>
#include <mldsa.h>

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* n samples of one mldsa_verify each; returns the number of calls that did not verify. */
int time_verify(int p, const uint8_t *pk, size_t pk_len, const uint8_t *msg, size_t msg_len,
                const uint8_t *ctx, size_t ctx_len, const uint8_t *sig, size_t sig_len,
                uint64_t *ns, size_t n) {
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t t0 = now_ns();
    int r = mldsa_verify((mldsa_param)p, sig, sig_len, msg, msg_len, ctx, ctx_len, pk, pk_len);
    ns[i] = now_ns() - t0;
    failed += r != MLDSA_OK;
  }
  return failed;
}
"""


def build_timer(tmpdir):
    from cffi import FFI
    spec = importlib.util.spec_from_file_location("mldsa_build",
                                                  os.path.join(HERE, "mldsa_build.py"))
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    ffi = FFI()
    ffi.cdef("int time_verify(int p, const uint8_t *pk, size_t pk_len, const uint8_t *msg,"
             " size_t msg_len, const uint8_t *ctx, size_t ctx_len, const uint8_t *sig,"
             " size_t sig_len, uint64_t *ns, size_t n);")
    ffi.set_source("_mldsa_bench_timer", TIMER_C, include_dirs=[build.INCLUDE_DIR],
                   extra_objects=[build.LIBRARY], libraries=["pthread"],
                   extra_compile_args=["-O2"])
    path = ffi.compile(tmpdir=tmpdir)
    spec = importlib.util.spec_from_file_location("_mldsa_bench_timer", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ffi, module.lib


def cpu_name():
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--param", type=int, default=65, choices=(44, 65, 87))
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--calls", type=int, default=100, help="calls per side per round")
    args = parser.parse_args()

    param_set = mldsa.PARAMETER_SETS[args.param]
    pk, sk = param_set.keygen(bytes(32))
    msg, ctx = bytes(32), b""  # the 32-byte message of mldsa-bench --api
    sig = param_set.sign(sk, msg, ctx, rnd=bytes(32))

    with tempfile.TemporaryDirectory() as tmpdir:
        tffi, tlib = build_timer(tmpdir)
        samples = tffi.new("uint64_t[]", args.calls)
        c_ns, cffi_ns, binding_ns = [], [], []
        verify, raw, clock = param_set.verify, lib.mldsa_verify, time.perf_counter_ns
        p, pk_len, msg_len, sig_len = args.param, len(pk), len(msg), len(sig)
        for _ in range(args.rounds):
            if tlib.time_verify(p, pk, pk_len, msg, msg_len, ctx, 0, sig, sig_len, samples,
                                args.calls):
                raise SystemExit("bench: the C loop's signature did not verify")
            c_ns.extend(samples[0:args.calls])
            for _ in range(args.calls):
                t0 = clock()
                r = raw(p, sig, sig_len, msg, msg_len, ctx, 0, pk, pk_len)
                cffi_ns.append(clock() - t0)
                assert r == 0
            for _ in range(args.calls):
                t0 = clock()
                ok = verify(pk, msg, sig, ctx)
                binding_ns.append(clock() - t0)
                assert ok

    c = statistics.median(c_ns)
    print(f"{param_set.name} verify, {len(msg)}-byte message; ISA {mldsa.isa()}; "
          f"{cpu_name()}; Python {platform.python_version()}; "
          f"{args.rounds} rounds x {args.calls} calls per side")
    print(f"{'':12} {'median ns':>10} {'over C':>8}")
    for name, ns in (("C", c_ns), ("cffi call", cffi_ns), ("binding", binding_ns)):
        m = statistics.median(ns)
        print(f"{name:12} {m:10.0f} {100 * (m - c) / c:+7.1f} %")
    overhead = 100 * (statistics.median(binding_ns) - c) / c
    print(f"binding overhead over C: {overhead:+.1f} % (target <= 10 %: "
          f"{'met' if overhead <= 10 else 'NOT met'})")


if __name__ == "__main__":
    main()
