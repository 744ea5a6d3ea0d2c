#!/usr/bin/python3
"""The figure of `meshmp paper 004-ring | 004-grid | 004-hypercube --plot`: one pipelined operation of
paper 004 §3 timed on the machine against the number of packets nu, beside the paper's t(nu) =
(nu - 1 + i)(tau + N / (nu b)) and its optimum (3.5) at (3.4)'s nu_opt, marked.

Usage: plot_paper_004.py TABLE.csv TITLE OUT.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    nus = [int(r["packets"]) for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    left.plot(nus, [float(r["completion_cycles"]) for r in rows], "o-", label="measured")
    left.plot(nus, [float(r["paper_estimate_cycles"]) for r in rows], "--", label="paper t(nu)")
    right.plot(nus, [float(r["completion_cycles"]) / float(r["paper_estimate_cycles"]) for r in rows], "o-", label="measured / t(nu)")
    right.plot(nus, [float(r["completion_cycles"]) / float(r["paper_optimum_cycles"]) for r in rows], "s-",
               label="measured / (3.5) optimum")
    nu_opt = float(rows[0]["nu_opt"])
    for ax in (left, right):
        ax.axvline(nu_opt, color="grey", linestyle=":", label="nu_opt (3.4) = %.1f" % nu_opt)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("packets nu")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    left.set_ylabel("cycles")
    right.set_ylabel("ratio")
    fig.suptitle(sys.argv[2])
    fig.tight_layout()
    fig.savefig(sys.argv[3], dpi=110)


if __name__ == "__main__":
    main()
