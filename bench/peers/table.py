#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Markdown tables from peers-bench's JSON: ticks per implementation, and the ratios
libmldsa / peer (keygen / sign median / sign mean / verify) against pq-crystals and
mldsa-native (its AVX2 backends and its portable C), and against any other libmldsa
build in the run (libmldsa@REV-isa).

    python3 bench/peers/table.py RESULTS.json
"""
import json
import sys

COLS = (("keygen", "median"), ("sign", "median"), ("sign", "mean"), ("verify", "median"))
# a pair is printed when both are in the run (mldsa-native-avx2 only from its single-unit
# layout; the avx512 path against it too, as the fastest each has on an x86-64 CPU)
RATIOS = (("libmldsa-avx512", "pqcrystals-avx2"), ("libmldsa-avx512", "mldsa-native-avx2"),
          ("libmldsa-avx2", "pqcrystals-avx2"), ("libmldsa-avx2", "pqcrystals-avx2-noavx512"),
          ("libmldsa-avx2", "mldsa-native-avx2"), ("libmldsa-scalar", "mldsa-native"),
          ("libmldsa-scalar", "pqcrystals-ref"))


def main() -> int:
    with open(sys.argv[1]) as f:
        data = json.load(f)
    v = {(r["param"], r["impl"], r["op"]): r for r in data["results"]}
    params = sorted({r["param"] for r in data["results"]})
    names = [i["name"] for i in data["impls"]]
    print(f"CPU: {data['cpu']}; {data['rounds']} rounds x {data['calls']} calls, "
          f"load average {data['loadavg_at_start']:.2f} at start, "
          f"{data['loadavg_at_end']:.2f} at end\n")
    print("| ratio, keygen / sign median / sign mean / verify | "
          + " | ".join(f"ML-DSA-{p}" for p in params) + " |")
    print("|---|" + "---|" * len(params))
    # another libmldsa build (build-peers.sh --libmldsa): this tree's path against it
    ratios = list(RATIOS) + [("libmldsa-" + n.rsplit("-", 1)[1], n) for n in names
                             if n.startswith("libmldsa@")]
    for a, b in ratios:
        if a not in names or b not in names:
            continue
        cells = [" / ".join(f"{v[(p, a, op)][st] / v[(p, b, op)][st]:.2f}" for op, st in COLS)
                 for p in params]
        print(f"| {a[9:]} / {b} | " + " | ".join(cells) + " |")
    print()
    print("| ticks, keygen / sign median / sign mean / verify | "
          + " | ".join(f"ML-DSA-{p}" for p in params) + " |")
    print("|---|" + "---|" * len(params))
    for n in names:
        cells = [" / ".join(f"{v[(p, n, op)][st]:,}" for op, st in COLS) for p in params]
        print(f"| {n} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
