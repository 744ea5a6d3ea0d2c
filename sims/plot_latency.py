#!/usr/bin/python3
"""Latency-vs-load plot of a `meshmp traffic --rates` sweep, titled with its network, with an optional
reference curve (named by its file). Where the sweep's CSV has the column average_network_latency_cycles,
its network latency is drawn under the average latency: the gap between them is the source queueing.

Usage: plot_latency.py CURVE.csv OUT.png NETWORK [REFERENCE.csv]
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

NETWORK_COLUMN = "average_network_latency_cycles"


def read(path):
    """The loads (column 0), average latencies (column 2) and, where the header names it, the network
    latencies of a curve's rows."""
    loads, latencies, network = [], [], []
    network_column = None
    with open(path) as f:
        for row in csv.reader(f):
            if NETWORK_COLUMN in row:
                network_column = row.index(NETWORK_COLUMN)
            try:  # a header, a setting line or a load that measured no packet (empty latency) is no point
                load, latency = float(row[0]), float(row[2])
            except (ValueError, IndexError):
                continue
            loads.append(load)
            latencies.append(latency)
            if network_column is not None and network_column < len(row):
                network.append(float(row[network_column]))
    return loads, latencies, network if len(network) == len(loads) else []


def main():
    curve, out, network = sys.argv[1], sys.argv[2], sys.argv[3]
    loads, latencies, network_latencies = read(curve)
    plt.figure(figsize=(6, 4))
    plt.plot(loads, latencies, "o-", label="meshmp")
    if network_latencies:
        plt.plot(loads, network_latencies, ".:", color="C0", label="meshmp, network latency (no source queueing)")
    if len(sys.argv) > 4:
        ref_loads, ref_latencies, _ = read(sys.argv[4])
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
