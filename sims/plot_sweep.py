#!/usr/bin/env python3
"""Speedup plot of a `meshmp sweep` CSV, like 001's Fig. 9: for each t_s / (b t_c) of the sweep, the
completion time of every other algorithm divided by that of REFERENCE (default tseng-t4), against the
number of nodes. Points a run did not verify (or did not support) are left out.

Usage: plot_sweep.py SWEEP.csv OUT.png [REFERENCE]
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def nodes(topology):
    shape = topology.split(":", 1)[1]
    if topology.startswith("hypercube"):
        return 2 ** int(shape)
    total = 1
    for side in shape.split("x"):
        total *= int("".join(ch for ch in side if ch.isdigit()))
    return total


def main():
    sweep, out = sys.argv[1], sys.argv[2]
    reference = sys.argv[3] if len(sys.argv) > 3 else "tseng-t4"
    # completion[(ratio)][algorithm][nodes]
    completion = defaultdict(lambda: defaultdict(dict))
    with open(sweep) as f:
        for row in csv.DictReader(f):
            if row["verified"] != "yes":
                continue
            ratio = float(row["startup_cycles"]) * float(row["flit_bytes"]) / float(row["block_bytes"])
            completion[ratio][row["algorithm"]][nodes(row["topology"])] = float(row["completion_cycles"])
    ratios = sorted(r for r in completion if reference in completion[r])
    if not ratios:
        sys.exit(f"no verified {reference} runs in {sweep}")
    fig, axes = plt.subplots(1, len(ratios), figsize=(4.5 * len(ratios), 3.8), squeeze=False)
    for ax, ratio in zip(axes[0], ratios):
        base = completion[ratio][reference]
        for algorithm, times in sorted(completion[ratio].items()):
            if algorithm == reference:
                continue
            xs = sorted(n for n in times if n in base)
            if xs:
                ax.plot(xs, [times[n] / base[n] for n in xs], marker="o", label=f"{algorithm} / {reference}")
        ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("nodes")
        ax.set_ylabel("speedup (completion time ratio)")
        ax.set_title(f"t_s / (b t_c) = {ratio:g}")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
