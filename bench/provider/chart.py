#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A bar chart of bench/provider/run.sh's figures: operations per second (log scale) of
keygen, sign and verify per set through OpenSSL 3.5's default provider and through this
provider on the AVX2 and AVX-512 paths. Byte-stable output for given inputs.

    python3 bench/provider/chart.py DIR    (reads DIR/speed-{avx2,avx512}.txt, writes DIR/speed.svg)
"""
import io
import os
import sys

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    """{(set, op): (default, provider)} and the CPU line of one speed file."""
    rows, cpu = {}, ""
    with open(path) as f:
        for line in f:
            if line.startswith("# CPU:"):
                cpu = line.split(":", 1)[1].strip()
            parts = line.split()
            if len(parts) >= 4 and parts[0].startswith("ML-DSA-"):
                rows[(parts[0], parts[1])] = (float(parts[2]), float(parts[3]))
    return rows, cpu


def main(outdir):
    avx512, cpu = read(os.path.join(outdir, "speed-avx512.txt"))
    avx2, _ = read(os.path.join(outdir, "speed-avx2.txt"))
    keys = list(avx512)
    series = (("OpenSSL 3.5 default provider", [avx512[k][0] for k in keys], "#fdae6b"),
              ("mldsa provider, AVX2", [avx2[k][1] for k in keys], "#3182bd"),
              ("mldsa provider, AVX-512", [avx512[k][1] for k in keys], "#08519c"))
    fig, ax = plt.subplots(figsize=(11, 5))
    width = 0.27
    for i, (label, values, colour) in enumerate(series):
        ax.bar([x + (i - 1) * width for x in range(len(keys))], values, width, label=label,
               color=colour)
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([f"{s[7:]}\n{op}" for s, op in keys])
    ax.set_yscale("log")
    ax.set_ylabel("operations per second (log scale)")
    ax.set_title(f"ML-DSA through OpenSSL 3.5's EVP interface, {cpu}")
    ax.legend()
    ax.grid(axis="y", which="both", alpha=0.3)
    plt.rcParams["svg.hashsalt"] = "libmldsa"
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    svg = buf.getvalue().split("\n", 1)[1]  # the XML declaration gives way to the licence
    with open(os.path.join(outdir, "speed.svg"), "w") as f:
        f.write("<!-- SPDX-License-Identifier: Apache-2.0 OR MIT -->\n" + svg)


if __name__ == "__main__":
    main(sys.argv[1])
