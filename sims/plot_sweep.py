#!/usr/bin/python3
"""Speedup plots of a `meshmp sweep` CSV: the completion time of every other algorithm divided by that
of REFERENCE (default tseng-t4), REFERENCE's speedup over each: above 1, REFERENCE is faster.
  nodes (default), like 001's Fig. 9: one panel per t_s, m and link width (titled with t_s / (b t_c)), a
    line per algorithm and topology family against the number of nodes (two topologies of one family and
    size share a position: the script says so);
  block-bytes, like 001's Fig. 10: one panel per topology, one line per algorithm and t_s / t_c (t_c in
    cycles per byte), against the block size b;
  machines (REFERENCE unused), 004 §4's comparison: one panel per algorithm and t_s / (b t_c), the
    completion time of each of 004's six machines (the topology's kind: ring, torus = grid, hypercube, bus,
    shared-memory, omega = switch) against the nodes; and, on the standard output, which machine is
    fastest for each algorithm, t_s / (b t_c) and number of nodes;
  bound (REFERENCE unused): per topology, each algorithm's completion time over 002's lower bound in time,
    the bound's steps (AS(G) on one-port nodes, the cut bound on all-port ones, whichever is larger)
    times one step of 002's model, t_s + m t_c;
  energy (REFERENCE unused): per topology, each run's energy (statistics.energy, docs/energy.md) against
    its completion time, one marker per algorithm; the Pareto front (the points no other point of the
    panel beats in both time and energy) joined and marked, and printed on the standard output.
Points a run did not verify (or did not support) are left out.

Usage: plot_sweep.py SWEEP.csv OUT.png [REFERENCE [nodes|block-bytes|machines|bound|energy]]
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


def speedup_label(reference):
    # The ratio the lines show, read the right way round.
    return f"{reference}'s speedup\n(the other's time / {reference}'s)"


def against_block_size(sweep, out, reference):
    # completion[topology][(algorithm, ts_over_tc)][block_bytes]
    completion = defaultdict(lambda: defaultdict(dict))
    with open(sweep) as f:
        for row in csv.DictReader(f):
            if row["verified"] != "yes":
                continue
            ratio = float(row["startup_cycles"]) * float(row["flit_bytes"])
            completion[row["topology"]][(row["algorithm"], ratio)][int(row["block_bytes"])] = float(
                row["completion_cycles"])
    topologies = sorted((t for t in completion if any(a == reference for a, _ in completion[t])), key=nodes)
    if not topologies:
        sys.exit(f"no verified {reference} runs in {sweep}")
    algorithms = sorted({a for t in topologies for a, _ in completion[t] if a != reference})
    ratios = sorted({r for t in topologies for _, r in completion[t]})
    colour = {a: f"C{i % 10}" for i, a in enumerate(algorithms)}  # a colour per algorithm,
    style = {r: ["-", "--", ":", "-."][i % 4] for i, r in enumerate(ratios)}  # a line style per t_s / t_c
    fig, axes = plt.subplots(1, len(topologies), figsize=(6 * len(topologies), 4.5), squeeze=False)
    for ax, topology in zip(axes[0], topologies):
        lines = completion[topology]
        for (algorithm, ratio), times in sorted(lines.items()):
            base = lines.get((reference, ratio))
            if algorithm == reference or not base:
                continue
            xs = sorted(b for b in times if b in base)
            if xs:
                ax.plot(xs, [times[b] / base[b] for b in xs], marker="o", markersize=3, color=colour[algorithm],
                        linestyle=style[ratio], label=f"over {algorithm}, start-up = {ratio:g} byte times")
        ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_xlabel("block size b (bytes)")
        ax.set_ylabel(speedup_label(reference))
        ax.set_title(f"{topology}: {reference}'s speedup")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def against_bound(sweep, out):
    # ratio[topology][algorithm] = completion / bound (the first verified point of each pair)
    ratio = defaultdict(dict)
    with open(sweep) as f:
        for row in csv.DictReader(f):
            if row["verified"] != "yes":
                continue
            steps = float(row["cut_bound_unrounded_steps"])
            if row["port_model"] != "all-port":
                steps = max(steps, float(row["status_bound_steps"]))
            step = float(row["startup_cycles"]) + float(row["block_bytes"]) / float(row["flit_bytes"])
            ratio[row["topology"]].setdefault(row["algorithm"], float(row["completion_cycles"]) / (steps * step))
    topologies = sorted(ratio, key=nodes)
    if not topologies:
        sys.exit(f"no verified runs in {sweep}")
    algorithms = sorted({a for t in topologies for a in ratio[t]})
    width = 0.8 / len(algorithms)
    fig, ax = plt.subplots(figsize=(max(6, 1.4 * len(topologies) + 2), 4.5))
    for k, algorithm in enumerate(algorithms):
        xs = [i + (k - (len(algorithms) - 1) / 2) * width for i, t in enumerate(topologies) if algorithm in ratio[t]]
        ys = [ratio[t][algorithm] for t in topologies if algorithm in ratio[t]]
        ax.bar(xs, ys, width=width, label=algorithm, color=f"C{k % 10}")
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_yscale("log", base=2)
    ax.set_xticks(range(len(topologies)))
    ax.set_xticklabels(topologies, rotation=20, fontsize=8)
    ax.set_ylabel("completion time / 002 lower bound")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


MACHINES = {"ring": "ring", "torus": "grid", "hypercube": "hypercube", "bus": "bus", "shared-memory": "shared memory",
            "omega": "switch"}


def against_machines(sweep, out):
    # completion[(ratio, algorithm)][machine][nodes]
    completion = defaultdict(lambda: defaultdict(dict))
    with open(sweep) as f:
        for row in csv.DictReader(f):
            kind = row["topology"].split(":", 1)[0]
            if row["verified"] != "yes" or kind not in MACHINES:
                continue
            ratio = float(row["startup_cycles"]) * float(row["flit_bytes"]) / float(row["block_bytes"])
            completion[(ratio, row["algorithm"])][MACHINES[kind]][nodes(row["topology"])] = float(
                row["completion_cycles"])
    if not completion:
        sys.exit(f"no verified runs of 004's machines in {sweep}")
    ratios = sorted({r for r, _ in completion})
    algorithms = sorted({a for _, a in completion})
    colour = {m: f"C{i}" for i, m in enumerate(MACHINES.values())}
    fig, axes = plt.subplots(len(ratios), len(algorithms), figsize=(4 * len(algorithms), 3.4 * len(ratios)),
                             squeeze=False)
    for row_axes, ratio in zip(axes, ratios):
        for ax, algorithm in zip(row_axes, algorithms):
            for machine, times in completion[(ratio, algorithm)].items():
                xs = sorted(times)
                ax.plot(xs, [times[n] for n in xs], marker="o", markersize=3, color=colour[machine], label=machine)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("nodes k")
            ax.set_ylabel("cycles")
            ax.set_title(f"{algorithm}\nstart-up = {ratio:g} block times (t_s / (m t_c))", fontsize=9)
            ax.grid(True, alpha=0.3)
    handles = [plt.Line2D([], [], color=colour[m], marker="o", markersize=3, label=m) for m in MACHINES.values()]
    fig.legend(handles=handles, loc="upper center", ncol=len(handles), fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(out, dpi=100)
    # Which machine wins: the fastest at each size, among the machines that ran there; a size where some
    # machine of the row did not run names them, so no conclusion is drawn from a missing series.
    sizes = sorted({n for times in completion.values() for t in times.values() for n in t})
    print("  fastest machine (measured), per algorithm and t_s / (m t_c), at k =", " ".join(str(n) for n in sizes))
    for ratio in ratios:
        for algorithm in algorithms:
            machines = completion[(ratio, algorithm)]
            cells = []
            for n in sizes:
                ran = {m: t[n] for m, t in machines.items() if n in t}
                missing = [m for m in MACHINES.values() if m in machines and m not in ran]
                cell = min(ran, key=ran.get) if ran else "-"
                if ran and missing:
                    cell += " (" + ", ".join(missing) + " not run)"
                cells.append(cell)
            print(f"    {algorithm:27s} {ratio:>9g}: " + ", ".join(f"{n}: {c}" for n, c in zip(sizes, cells)))


def pareto_front(points):
    """The points (time, energy, label) no other point matches or beats in both, by time."""
    front = []
    for point in sorted(points):
        if not front or point[1] < front[-1][1]:
            front.append(point)
    return front


def against_energy(sweep, out):
    # runs[topology] = [(completion cycles, joules, label)]
    runs = defaultdict(list)
    with open(sweep) as f:
        for row in csv.DictReader(f):
            if row["verified"] != "yes" or not row["energy.joules.total"]:
                continue
            label = f"{row['algorithm']} m={row['block_bytes']} t_s={row['startup_cycles']}"
            runs[row["topology"]].append((float(row["completion_cycles"]), float(row["energy.joules.total"]), label))
    if not runs:
        sys.exit(f"no verified runs with an energy in {sweep}")
    topologies = sorted(runs, key=lambda t: (nodes(t), t))
    fig, axes = plt.subplots(1, len(topologies), figsize=(5 * len(topologies), 4.2), squeeze=False)
    algorithms = sorted({label.split()[0] for points in runs.values() for _, _, label in points})
    colour = {a: f"C{i % 10}" for i, a in enumerate(algorithms)}
    print("  Pareto front (no other run both faster and cheaper in energy), per topology:")
    for ax, topology in zip(axes[0], topologies):
        for time, joules, label in runs[topology]:
            ax.plot(time, joules * 1e6, marker="o", linestyle="", color=colour[label.split()[0]])
        front = pareto_front(runs[topology])
        ax.plot([p[0] for p in front], [p[1] * 1e6 for p in front], color="black", linewidth=0.8,
                marker="o", markerfacecolor="none", markersize=10, label="Pareto front")
        ax.set_xlabel("completion cycles")
        ax.set_ylabel("energy [uJ]")
        ax.set_title(topology, fontsize=9)
        ax.grid(True, alpha=0.3)
        for time, joules, label in front:
            print(f"    {topology:16s} {label:40s} {time:12.0f} cycles {joules * 1e6:12.4g} uJ")
    handles = [plt.Line2D([], [], color=colour[a], marker="o", linestyle="", label=a) for a in algorithms]
    handles.append(plt.Line2D([], [], color="black", marker="o", markerfacecolor="none", markersize=10,
                              label="Pareto front"))
    fig.legend(handles=handles, loc="upper center", ncol=min(len(handles), 5), fontsize=8)
    fig.tight_layout(rect=(0, 0, 1, 0.88))
    fig.savefig(out, dpi=100)


def main():
    sweep, out = sys.argv[1], sys.argv[2]
    reference = sys.argv[3] if len(sys.argv) > 3 else "tseng-t4"
    if len(sys.argv) > 4 and sys.argv[4] == "block-bytes":
        against_block_size(sweep, out, reference)
        return
    if len(sys.argv) > 4 and sys.argv[4] == "machines":
        against_machines(sweep, out)
        return
    if len(sys.argv) > 4 and sys.argv[4] == "bound":
        against_bound(sweep, out)
        return
    if len(sys.argv) > 4 and sys.argv[4] == "energy":
        against_energy(sweep, out)
        return
    # completion[(t_s, m, flit)][(algorithm, topology family)][nodes]: a panel per sweep setting (titled
    # with its t_s / (b t_c)), a line per algorithm and topology family, divided by the reference on the
    # same family and nodes.
    completion = defaultdict(lambda: defaultdict(dict))
    topology_at = {}  # (panel, algorithm, family, nodes) -> topology: two topologies at one position
    shared = set()
    with open(sweep) as f:
        for row in csv.DictReader(f):
            if row["verified"] != "yes":
                continue
            panel = (float(row["startup_cycles"]), int(row["block_bytes"]), int(row["flit_bytes"]))
            family = row["topology"].split(":", 1)[0]
            n = nodes(row["topology"])
            place = (panel, row["algorithm"], family, n)
            if place in topology_at and topology_at[place] != row["topology"]:
                shared.add((topology_at[place], row["topology"], n))
            topology_at[place] = row["topology"]
            completion[panel][(row["algorithm"], family)][n] = float(row["completion_cycles"])
    panels = sorted(p for p in completion if any(a == reference for a, _ in completion[p]))
    if not panels:
        sys.exit(f"no verified {reference} runs in {sweep}")
    for first, second, n in sorted(shared):
        print(f"  plot: {first} and {second} share a position ({n} nodes); the plot shows {second}")
    fig, axes = plt.subplots(1, len(panels), figsize=(4.5 * len(panels), 3.8), squeeze=False)
    for ax, panel in zip(axes[0], panels):
        ts, m, flit = panel
        for (algorithm, family), times in sorted(completion[panel].items()):
            base = completion[panel].get((reference, family))
            if algorithm == reference or not base:
                continue
            xs = sorted(n for n in times if n in base)
            if xs:
                ax.plot(xs, [times[n] / base[n] for n in xs], marker="o", label=f"over {algorithm} ({family})")
        ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("nodes")
        ax.set_ylabel(speedup_label(reference))
        ax.set_title(f"start-up {ts:g} cycles, {m}-byte blocks, {flit}-byte links\n"
                     f"(start-up = {ts * flit / m:g} block times: t_s / (b t_c))", fontsize=8)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
