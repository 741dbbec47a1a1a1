#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""One SVG bar chart per parameter set from peers-bench's JSON: rdtsc ticks per
operation (keygen, sign median, sign mean, verify) for libmldsa's paths beside the
peers, with the CPU and the run's shape in the title. Byte-stable output for a given
JSON (no dates, fixed SVG hash salt), so a regenerated chart only differs when the
figures do.

    python3 bench/peers/chart.py RESULTS.json OUTDIR    (writes OUTDIR/ml-dsa-NN.svg)
"""
import io
import json
import os
import sys

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402

OPS = (("keygen", "median", "keygen"), ("sign", "median", "sign (median)"),
       ("sign", "mean", "sign (mean)"), ("verify", "median", "verify"))
COLOURS = {
    "libmldsa-scalar": "#9ecae1", "libmldsa-sse2": "#6baed6",
    "libmldsa-avx2": "#3182bd", "libmldsa-avx512": "#08519c",
    "pqcrystals-ref": "#fdd0a2", "pqcrystals-avx2-noavx512": "#fd8d3c",
    "pqcrystals-avx2": "#d94801",
    "mldsa-native": "#c7e9c0", "mldsa-native-avx2": "#31a354",
}


def chart(data: dict, param: int, path: str) -> None:
    rows = [r for r in data["results"] if r["param"] == param]
    # this tree's paths and the peers; other libmldsa builds (libmldsa@REV-isa, for
    # before/after tables) stay out of the picture
    impls = [i["name"] for i in data["impls"] if "@" not in i["name"]
             and any(r["impl"] == i["name"] for r in rows)]
    value = {(r["impl"], r["op"]): r for r in rows}
    fig, ax = plt.subplots(figsize=(10, 5.2))
    width = 0.8 / len(impls)
    for k, name in enumerate(impls):
        xs = [j + (k - (len(impls) - 1) / 2) * width for j in range(len(OPS))]
        ys = [value[(name, op)][stat] for op, stat, _ in OPS]
        ax.bar(xs, ys, width, label=name, color=COLOURS.get(name, "#999999"),
               edgecolor="white", linewidth=0.4)
    ax.set_xticks(range(len(OPS)))
    ax.set_xticklabels([label for _, _, label in OPS])
    ax.set_ylabel("rdtsc ticks per operation (lower is better)")
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(
        lambda v, _: f"{v / 1000:,.0f}k" if v else "0"))
    ax.grid(axis="y", linewidth=0.3)
    ax.set_axisbelow(True)
    ax.set_title(f"ML-DSA-{param}: {data['cpu']}\n"
                 f"same run, interleaved, {data['rounds']} rounds x {data['calls']} calls, "
                 f"medians (sign mean: over {data['calls']} messages)", fontsize=9)
    ax.legend(fontsize=8, ncol=2, frameon=False)
    fig.tight_layout()
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    svg = buf.getvalue()
    if svg.startswith("<?xml"):        # optional in UTF-8 XML: the licence line goes first
        svg = svg.split("\n", 1)[1]
    with open(path, "w") as f:
        f.write("<!-- SPDX-License-Identifier: Apache-2.0 OR MIT -->\n" + svg)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        data = json.load(f)
    plt.rcParams["svg.hashsalt"] = "libmldsa"
    plt.rcParams["svg.fonttype"] = "none"     # text as text: small and searchable
    os.makedirs(sys.argv[2], exist_ok=True)
    for param in sorted({r["param"] for r in data["results"]}):
        path = os.path.join(sys.argv[2], f"ml-dsa-{param}.svg")
        chart(data, param, path)
        print(f"chart: wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
