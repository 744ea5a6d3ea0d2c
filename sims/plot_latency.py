#!/usr/bin/python3
"""Latency-vs-load plot of a `meshmp traffic --rates` sweep, titled with its network, with an optional
reference curve (named by its file). Where the sweep's CSV has the column average_network_latency_cycles,
its network latency is drawn under the average latency: the gap between them is the source queueing.
Where it has average_packet_latency_cycles_ci95 (a sweep of several seeds), each average latency has an
error bar: its 95 % confidence interval over the seeds.

Usage: plot_latency.py CURVE.csv OUT.png NETWORK [REFERENCE.csv]
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

NETWORK_COLUMN = "average_network_latency_cycles"
LATENCY_INTERVAL_COLUMN = "average_packet_latency_cycles_ci95"


def read(path):
    """The loads (column 0), average latencies (column 2) and, where the header names them, the network
    latencies and the latencies' 95 % interval half widths (0 where a load had one measuring seed) of a
    curve's rows."""
    loads, latencies, network, intervals = [], [], [], []
    network_column = interval_column = None
    with open(path) as f:
        for row in csv.reader(f):
            if NETWORK_COLUMN in row:
                network_column = row.index(NETWORK_COLUMN)
            if LATENCY_INTERVAL_COLUMN in row:
                interval_column = row.index(LATENCY_INTERVAL_COLUMN)
            try:  # a header, a setting line or a load that measured no packet (empty latency) is no point
                load, latency = float(row[0]), float(row[2])
            except (ValueError, IndexError):
                continue
            loads.append(load)
            latencies.append(latency)
            if network_column is not None and network_column < len(row):
                network.append(float(row[network_column]))
            if interval_column is not None and interval_column < len(row):
                intervals.append(float(row[interval_column] or 0))
    return (loads, latencies, network if len(network) == len(loads) else [],
            intervals if len(intervals) == len(loads) else [])


def main():
    curve, out, network = sys.argv[1], sys.argv[2], sys.argv[3]
    loads, latencies, network_latencies, intervals = read(curve)
    plt.figure(figsize=(6, 4))
    if intervals:
        plt.errorbar(loads, latencies, yerr=intervals, fmt="o-", capsize=3, label="meshmp (95% interval over the seeds)")
    else:
        plt.plot(loads, latencies, "o-", label="meshmp")
    if network_latencies:
        plt.plot(loads, network_latencies, ".:", color="C0", label="meshmp, network latency (no source queueing)")
    if len(sys.argv) > 4:
        ref_loads, ref_latencies, _, _ = read(sys.argv[4])
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
