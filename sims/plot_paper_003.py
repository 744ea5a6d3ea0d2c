#!/usr/bin/python3
"""The figure of `meshmp paper 003-paths`: for SPT, DPT and MPT (003 §6.1) the measured transpose time
over Theorem 3's lower bound max(n tau, PQ/(2N) t_c), against the packet size B, one panel per start-up
cost; dashed, the paper's model (routing cycles x (tau + B t_c)) over the same bound.

Usage: plot_paper_003.py TABLE.csv OUT.png
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    taus = sorted({int(r["startup_cycles"]) for r in rows})
    fig, axes = plt.subplots(1, len(taus), figsize=(5.5 * len(taus), 4.2), squeeze=False)
    for ax, tau in zip(axes[0], taus):
        lines = defaultdict(list)
        for r in rows:
            if int(r["startup_cycles"]) == tau:
                lines[r["algorithm"]].append(
                    (int(r["packet_elements"]), float(r["cycles"]) / float(r["bound_cycles"]),
                     float(r["paper_model_cycles"]) / float(r["bound_cycles"])))
        for (algorithm, points), colour in zip(sorted(lines.items()), ["C0", "C1", "C2"]):
            points.sort()
            ax.plot([p[0] for p in points], [p[1] for p in points], "o-", color=colour, label=algorithm + " measured")
            ax.plot([p[0] for p in points], [p[2] for p in points], "--", color=colour, label=algorithm + " paper model")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("packet size B (elements)")
        ax.set_ylabel("T / Theorem 3 bound")
        ax.set_title("hypercube:6, 256x256, tau/t_c = %d" % tau)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
