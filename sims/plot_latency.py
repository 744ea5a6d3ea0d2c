#!/usr/bin/python3
"""Latency-vs-load and accepted-vs-load panels of a `meshmp traffic --rates` sweep, titled with its network,
with an optional reference curve (named by its file). Where the sweep's CSV has the column routing (a sweep of
--routings), each routing function is a curve of its own. Where it has average_network_latency_cycles (one
curve), the network latency is drawn under the average latency: the gap between them is the source queueing.
Where it has the _ci95 columns (a sweep of several seeds), each mean has an error bar: its 95 % confidence
interval over the seeds. Where it has power.watts.total, a third panel draws the network's power.

Usage: plot_latency.py CURVE.csv OUT.png NETWORK [REFERENCE.csv]
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

OPTIONAL_COLUMNS = {
    "network": "average_network_latency_cycles",
    "latency_ci95": "average_packet_latency_cycles_ci95",
    "accepted_ci95": "accepted_flits_per_node_per_cycle_ci95",
    "routing": "routing",
    "power": "power.watts.total",
}


def read(path):
    """A curve's rows by curve name (its routing function, or "" for a sweep of one), each curve a dict of
    lists: load (column 0), accepted (column 1), latency (column 2) and, where the header names them, the
    optional columns; a load that measured no packet has no latency point but keeps its accepted load."""
    curves = {}
    columns = {}
    with open(path) as f:
        for row in csv.reader(f):
            if "load_flits_per_node_per_cycle" in row or (row and row[0].startswith("load")):
                columns = {name: row.index(column) for name, column in OPTIONAL_COLUMNS.items() if column in row}
                continue
            try:  # a header or a setting line is no point
                load, accepted = float(row[0]), float(row[1])
            except (ValueError, IndexError):
                continue

            def cell(name):
                index = columns.get(name)
                return row[index] if index is not None and index < len(row) else ""

            curve = curves.setdefault(cell("routing"), {"load": [], "accepted": [], "accepted_ci95": [],
                                                        "latency_load": [], "latency": [], "network": [],
                                                        "latency_ci95": [], "power_load": [], "power": []})
            if cell("power"):
                curve["power_load"].append(load)
                curve["power"].append(float(cell("power")))
            curve["load"].append(load)
            curve["accepted"].append(accepted)
            curve["accepted_ci95"].append(float(cell("accepted_ci95") or 0))
            if len(row) > 2 and row[2]:
                curve["latency_load"].append(load)
                curve["latency"].append(float(row[2]))
                curve["network"].append(float(cell("network") or "nan"))
                curve["latency_ci95"].append(float(cell("latency_ci95") or 0))
    return curves, columns


def main():
    curve_file, out, network = sys.argv[1], sys.argv[2], sys.argv[3]
    curves, columns = read(curve_file)
    with_power = any(curve["power"] for curve in curves.values())
    figure, panels = plt.subplots(1, 3 if with_power else 2, figsize=(16 if with_power else 11, 4.2))
    latency_panel, accepted_panel = panels[0], panels[1]
    several = len(curves) > 1 or "routing" in columns
    seeds = "latency_ci95" in columns
    lowest = []
    for k, (routing, curve) in enumerate(curves.items()):
        colour = "C%d" % k
        label = routing if several else "meshmp"
        if seeds:
            label += " (95% interval over the seeds)"
            latency_panel.errorbar(curve["latency_load"], curve["latency"], yerr=curve["latency_ci95"], fmt="o-",
                                   capsize=3, color=colour, label=label)
            accepted_panel.errorbar(curve["load"], curve["accepted"], yerr=curve["accepted_ci95"], fmt="o-",
                                    capsize=3, color=colour, label=label)
        else:
            latency_panel.plot(curve["latency_load"], curve["latency"], "o-", color=colour, label=label)
            accepted_panel.plot(curve["load"], curve["accepted"], "o-", color=colour, label=label)
        if with_power:
            panels[2].plot(curve["power_load"], curve["power"], "o-", color=colour, label=label)
        if not several and "network" in columns:
            latency_panel.plot(curve["latency_load"], curve["network"], ".:", color=colour,
                               label="meshmp, network latency (no source queueing)")
        lowest += curve["latency"][:1]
    if len(sys.argv) > 4:
        reference = next(iter(read(sys.argv[4])[0].values()), None)
        if reference:
            name = os.path.basename(sys.argv[4])
            latency_panel.plot(reference["latency_load"], reference["latency"], "s--", color="C9", label=name)
            accepted_panel.plot(reference["load"], reference["accepted"], "s--", color="C9", label=name)
    loads = [load for curve in curves.values() for load in curve["load"]]
    if loads:  # the ideal: every offered flit accepted
        accepted_panel.plot([0, max(loads)], [0, max(loads)], ":", color="grey", label="accepted = offered")
    figure.suptitle(network, fontsize=8)
    latency_panel.set_ylim(0, max(4 * min(lowest), 1) if lowest else 1)
    latency_panel.set_xlabel("offered load (flits/node/cycle)")
    latency_panel.set_ylabel("average packet latency (cycles)")
    accepted_panel.set_xlabel("offered load (flits/node/cycle)")
    accepted_panel.set_ylabel("accepted load (flits/node/cycle)")
    if with_power:
        panels[2].set_xlabel("offered load (flits/node/cycle)")
        panels[2].set_ylabel("network power (W, docs/energy.md)")
        panels[2].set_ylim(bottom=0)
    for panel in panels:
        panel.grid(True, alpha=0.3)
        panel.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(out, dpi=100)


if __name__ == "__main__":
    main()
