#!/usr/bin/python3
"""Latency-vs-load plot of a `meshmp traffic --rates` sweep, titled with its network, with an optional
reference curve (named by its file).

Usage: plot_latency.py CURVE.csv OUT.png NETWORK [REFERENCE.csv]
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    loads, latencies = [], []
    with open(path) as f:
        for row in csv.reader(f):
            try:  # a header, a setting line or a load that measured no packet (empty latency) is no point
                load, latency = float(row[0]), float(row[2])
            except (ValueError, IndexError):
                continue
            loads.append(load)
            latencies.append(latency)
    return loads, latencies


def main():
    curve, out, network = sys.argv[1], sys.argv[2], sys.argv[3]
    loads, latencies = read(curve)
    plt.figure(figsize=(6, 4))
    plt.plot(loads, latencies, "o-", label="meshmp")
    if len(sys.argv) > 4:
        ref_loads, ref_latencies = read(sys.argv[4])
        plt.plot(ref_loads, ref_latencies, "s--", label=os.path.basename(sys.argv[4]))
    plt.title(network, fontsize=8)
    top = 4 * min(latencies) if latencies else 1
    plt.ylim(0, max(top, 1))
    plt.xlabel("offered load (flits/node/cycle)")
    plt.ylabel("average packet latency (cycles)")
    plt.grid(True, alpha=0.3)
    plt.legend()
    plt.tight_layout()
    plt.savefig(out, dpi=100)


if __name__ == "__main__":
    main()
