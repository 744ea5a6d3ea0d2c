#!/usr/bin/env python3
"""A fixed set of runs whose statistics must not change when the code is only restructured.

    scripts/compare-statistics.py record MESHMP OUT_DIR    runs every case with the meshmp binary MESHMP
                                                          and keeps what it wrote in OUT_DIR
    scripts/compare-statistics.py compare DIR_A DIR_B     every file of the two records compared, host
                                                          times and the build's identity aside; exit 1
                                                          on the first case that differs, naming the key

The cases cover every algorithm family, both fidelities, the three shared-resource fabrics of 004, the
RTL and dual routers, synthetic traffic and a sweep. Each case writes its statistics JSON (a sweep also
its CSV); the printed summary is kept too, with its host-time line dropped.
"""
import json
import os
import re
import subprocess
import sys

# (name, arguments after the binary). Every run writes its JSON to <name>.json in OUT_DIR.
RUNS = [
    # the baselines and Bruck (002 §1, 003 §3)
    ("direct-torus8x8", "run"),
    ("direct-ascending-mesh4x4", "run -t mesh:4x4 --algorithm-option order=ascending -m 32"),
    ("pairwise-hypercube5", "run -t hypercube:5 -a pairwise -m 16 --port-model all-port"),
    ("pairwise-torus5x3", "run -t torus:5x3 -a pairwise -m 8"),
    ("bruck-torus8x8", "run -t torus:8x8 -a bruck -m 8"),
    ("bruck-ring12", "run -t ring:12 -a bruck -m 24 --switching cut-through --buffer-flits 17"),
    # 000
    ("suh-mesh-4x6", "run -t mesh:4x6 -a suh-mesh -m 8"),
    ("suh-mesh-4x4x4", "run -t mesh:4x4x4 -a suh-mesh -m 4"),
    # 001
    ("tseng-ring-16", "run -t ring:16 -a tseng-ring -m 8"),
    ("tseng-t1-8x8", "run -t torus:8x8 -a tseng-t1 -m 8"),
    ("tseng-t4-16x16", "run -t torus:16x16 -a tseng-t4 -m 8"),
    ("tseng-t4-barrier", "run -t torus:16x16 -a tseng-t4 -m 8 --algorithm-option sync=barrier"),
    ("tseng-c1-8x8x8", "run -t torus:8x8x8 -a tseng-c1 -m 1"),
    # 002
    ("dima-1d-ring7", "run -t ring:7 -a dima-1d -m 8"),
    ("dima-a1-product", "run -t product:path4xring6xcomplete3 -a dima-a1 -m 8"),
    ("dima-a2-hypercube4", "run -t hypercube:4 -a dima-a2 -m 8 --port-model all-port"),
    # 003
    ("transpose-direct-hypercube4", "run -t hypercube:4 -a transpose-direct"),
    ("jh-exchange-hypercube4", "run -t hypercube:4 -a jh-exchange"),
    ("jh-sbt-hypercube5", "run -t hypercube:5 -a jh-sbt -m 16"),
    ("jh-sbnt-hypercube4", "run -t hypercube:4 -a jh-sbnt --port-model all-port"),
    ("jh-spt-hypercube4", "run -t hypercube:4 -a jh-spt --workload-option partitioning=2d-consecutive"),
    ("jh-dpt-hypercube4", "run -t hypercube:4 -a jh-dpt --port-model all-port --workload-option partitioning=2d-consecutive"),
    ("jh-mpt-hypercube4", "run -t hypercube:4 -a jh-mpt --port-model all-port --workload-option partitioning=2d-consecutive"),
    ("jh-gray-transpose-hypercube4", "run -t hypercube:4 -a jh-gray-transpose --workload-option partitioning=2d-consecutive"),
    ("jh-permute-hypercube4", "run -t hypercube:4 -a jh-permute"),
    # 004 on the nearest-neighbour machines and the three shared-resource fabrics
    ("saad-one-to-one-ring8", "run -t ring:8 -a saad-one-to-one --cost-model 004"),
    ("saad-broadcast-torus4x4", "run -t torus:4x4 -a saad-broadcast --cost-model 004"),
    ("saad-all-to-all-broadcast-hypercube4", "run -t hypercube:4 -a saad-all-to-all-broadcast --cost-model 004"),
    ("saad-scatter-torus4x4", "run -t torus:4x4 -a saad-scatter --cost-model 004"),
    ("saad-gather-ring8", "run -t ring:8 -a saad-gather --cost-model 004"),
    ("saad-multiscatter-hypercube3", "run -t hypercube:3 -a saad-multiscatter --cost-model 004"),
    ("saad-broadcast-bus8", "run -t bus:8 -a saad-broadcast --cost-model 004"),
    ("saad-multiscatter-bus8", "run -t bus:8 -a saad-multiscatter --cost-model 004"),
    ("saad-scatter-shared-memory8", "run -t shared-memory:8 -a saad-scatter --cost-model 004"),
    ("saad-all-to-all-broadcast-shared-memory8",
     "run -t shared-memory:8 -a saad-all-to-all-broadcast --cost-model 004"),
    ("saad-broadcast-omega16", "run -t omega:16 -a saad-broadcast --cost-model 004"),
    ("saad-multiscatter-omega8", "run -t omega:8 -a saad-multiscatter --cost-model 004"),
    # the transaction level, and both levels side by side
    ("direct-tlm-torus8x8", "run --fidelity tlm"),
    ("tseng-t4-both-16x16", "run -t torus:16x16 -a tseng-t4 -m 8 --fidelity both"),
    ("pairwise-both-hypercube5", "run -t hypercube:5 -a pairwise -m 16 --fidelity both"),
    ("direct-tlm-startup-on-channel", "run -t torus:4x4 --fidelity tlm --startup-on channel"),
    # the RTL and dual routers, and router options
    ("direct-rtl-torus4x4", "run -t torus:4x4 --router rtl"),
    ("bruck-dual-mesh4x4", "run -t mesh:4x4 -a bruck --router dual -m 16"),
    ("direct-islip-from-front", "run -t torus:4x4 --vc-allocator islip --head-pipeline from-front"),
    ("direct-store-and-forward", "run -t mesh:4x4 --switching store-and-forward -m 32 --buffer-flits 17"),
    ("direct-split-ties-threads", "run -t torus:8x8 --routing dimension-order-split-ties --host-threads 2"),
    ("direct-deep-pipeline", "run -t torus:4x4 --pipeline-depth 4 --vcs 2 --buffer-flits 2 --link-latency 2"),
    # synthetic traffic at either level, and a latency-vs-load sweep
    ("traffic-uniform-mesh8x8", "traffic -t mesh:8x8 --rate 0.2 --warmup-cycles 500 --measure-cycles 2000"),
    ("traffic-transpose-torus8x8",
     "traffic -t torus:8x8 --pattern transpose --rate 0.1 --warmup-cycles 300 --measure-cycles 1000"),
    ("traffic-hotspot-tlm", "traffic -t torus:4x4 --pattern hotspot --rate 0.05 --fidelity tlm "
                            "--warmup-cycles 200 --measure-cycles 1000"),
    ("traffic-rates-mesh4x4", "traffic -t mesh:4x4 --rates 0.05,0.15 --warmup-cycles 200 --measure-cycles 600 "
                              "--csv {out}/traffic-rates-mesh4x4.csv --png {out}/traffic-rates-mesh4x4.png"),
    # a sweep of runs in child processes
    ("sweep-torus", "sweep --topologies torus:4x4,torus:8x8 --algorithms bruck,direct,pairwise -m 8,64 -j 2 "
                    "--csv {out}/sweep-torus.csv"),
]

# Keys whose values are the host's or the build's, not the model's.
HOST_KEYS = {"commit", "host_seconds", "simulated_cycles_per_second", "stepped_cycles_per_second",
             "host_seconds_tlm", "host_seconds_cycle", "host_speedup"}
HOST_COLUMNS = re.compile(r"host|per_second|commit")
HOST_LINE = re.compile(r"^\s*(simulation|  \[\d+/)|host time|host s\b")


def record(binary, out):
    os.makedirs(out, exist_ok=True)
    for name, arguments in RUNS:
        arguments = arguments.format(out=out)
        json_file = os.path.join(out, name + ".json")
        command = [binary] + arguments.split() + ["-o", json_file]
        if arguments.startswith("sweep"):
            command = command[:-2]  # a sweep writes its CSV, no JSON
        result = subprocess.run(command, capture_output=True, text=True, cwd=out,
                                env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
        summary = [line.replace(out, "OUT") for line in (result.stdout + result.stderr).splitlines()
                   if not HOST_LINE.search(line)]
        with open(os.path.join(out, name + ".out"), "w") as f:
            f.write("exit %d\n" % result.returncode + "\n".join(summary) + "\n")
        print("%-44s exit %d" % (name, result.returncode), flush=True)


def strip_host(value):
    if isinstance(value, dict):
        return {k: strip_host(v) for k, v in value.items() if k not in HOST_KEYS and "host" not in k}
    if isinstance(value, list):
        return [strip_host(v) for v in value]
    return value


def first_difference(a, b, path=""):
    if type(a) is not type(b):
        return path or "."
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return path + "." + key
            found = first_difference(a[key], b[key], path + "." + key)
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return path + "[] (length)"
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, "%s[%d]" % (path, i))
            if found:
                return found
        return None
    return None if a == b else path


def csv_rows(file):
    with open(file) as f:
        lines = f.read().splitlines()
    header = lines[0].split(",")
    keep = [i for i, column in enumerate(header) if not HOST_COLUMNS.search(column)]
    return [[row.split(",")[i] for i in keep if i < len(row.split(","))] for row in lines]


def compare(dir_a, dir_b):
    differing = 0
    files = sorted(f for f in os.listdir(dir_a) if f.endswith((".json", ".csv", ".out")))
    for file in files:
        a, b = os.path.join(dir_a, file), os.path.join(dir_b, file)
        if not os.path.exists(b):
            print("%s: missing from %s" % (file, dir_b))
            differing += 1
            continue
        if file.endswith(".json"):
            found = first_difference(strip_host(json.load(open(a))), strip_host(json.load(open(b))))
        elif file.endswith(".csv"):
            found = None if csv_rows(a) == csv_rows(b) else "a row"
        else:
            found = None if open(a).read() == open(b).read() else "the printed summary"
        if found:
            print("%s: differs at %s" % (file, found))
            differing += 1
    print("%d files compared, %d differ" % (len(files), differing))
    return 1 if differing else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "record":
        record(os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
