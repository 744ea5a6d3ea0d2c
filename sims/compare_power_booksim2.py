#!/usr/bin/python3
"""meshmp's network power and area model against BookSim2's power module, configuration by configuration
(docs/energy.md, "Against BookSim2's power module").

The matrix: an 8x8 mesh and an 8x8 torus; 2 and 4 VCs; 4- and 8-flit buffers per VC; 4-flit packets of
uniform traffic at 0.05, 0.15 and 0.25 flits/node/cycle: 24 configurations, each a file
sims/reference/power/booksim2-<topology>8x8-v<V>b<B>p4-uniform-<load>.txt holding BookSim2's configuration,
the meshmp traffic arguments of the same network and load, and BookSim2's power summary [W] and area
summary [mm^2] by meshmp's names.

  compare_power_booksim2.py --meshmp MESHMP [--table OUT.md]
      runs `meshmp traffic` on each file's arguments and compares its `power` with BookSim2's figures:
      a table per configuration (every component, meshmp, BookSim2, difference) on the standard output
      or in OUT.md; exit status 1, naming the configuration and the component, when one differs by more
      than 2 %. The test suite runs it (Power.AgainstBookSim2Matrix: about 10 s).
  compare_power_booksim2.py --booksim BOOKSIM [--only NAME]
      regenerates the reference files with an externally built BookSim2 binary (its technology file is
      read from src/power/techfile.txt beside the binary's folder, or --techfile): writes each
      configuration, runs it and parses its summaries. Nothing here builds BookSim2.
Every file is written whole or not at all (written beside, then renamed).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE_DIR = os.path.join(HERE, "reference", "power")
TOLERANCE = 0.02
LOADS = ("0.05", "0.15", "0.25")

# BookSim2's summary lines, by meshmp's names (hw/power/power_report.cpp).
BOOKSIM_LINES = {
    "- Channel Wire Power:": "watts.channel_wire",
    "- Channel Clock Power:": "watts.channel_clock",
    "- Channel Retiming Power:": "watts.channel_retiming",
    "- Channel Leakage Power:": "watts.channel_leakage",
    "- Input Read Power:": "watts.input_read",
    "- Input Write Power:": "watts.input_write",
    "- Input Leakage Power:": "watts.input_leakage",
    "- Switch Power:": "watts.switch",
    "- Switch Control Power:": "watts.switch_control",
    "- Switch Leakage Power:": "watts.switch_leakage",
    "- Output DFF Power:": "watts.output_dff",
    "- Output Clk Power:": "watts.output_clock",
    "- Output Control Power:": "watts.output_control",
    "- Total Power:": "watts.total",
    "- Channel Area:": "area_mm2.channel",
    "- Switch  Area:": "area_mm2.switch",
    "- Input  Area:": "area_mm2.input",
    "- Output  Area:": "area_mm2.output",
    "- Total Area:": "area_mm2.total",
}


def configurations():
    """(name, BookSim2 configuration lines, meshmp traffic arguments) of every point of the matrix."""
    for topology in ("mesh", "torus"):
        for vcs in (2, 4):
            for buffer_flits in (4, 8):
                for load in LOADS:
                    name = f"booksim2-{topology}8x8-v{vcs}b{buffer_flits}p4-uniform-{load}.txt"
                    config = [f"topology = {topology};"]
                    if topology == "torus":
                        config.append("use_noc_latency = 0;")  # 1-cycle channels, as meshmp's links
                    config += ["k = 8;", "n = 2;", "routing_function = dim_order;", f"num_vcs = {vcs};",
                               f"vc_buf_size = {buffer_flits};", "wait_for_tail_credit = 0;",
                               "vc_allocator = islip;", "sw_allocator = islip;", "alloc_iters = 1;",
                               "credit_delay = 0;", "routing_delay = 0;", "vc_alloc_delay = 1;",
                               "sw_alloc_delay = 1;", "st_final_delay = 1;", "input_speedup = 1;",
                               "output_speedup = 1;", "internal_speedup = 1.0;", "traffic = uniform;",
                               "packet_size = 4;", f"injection_rate = {load};", "injection_rate_uses_flits = 1;",
                               "sim_type = latency;", "sample_period = 10000;", "warmup_periods = 1;",
                               "max_samples = 2;", "sim_power = 1;", "channel_width = 128;", "seed = 0;"]
                    arguments = (f"-t {topology}:8x8 --router-rules booksim2 --vcs {vcs} --buffer-flits {buffer_flits} "
                                 f"--packet-flits 4 --rate {load}")
                    yield name, config, arguments


def write_whole(path, text):
    folder = os.path.dirname(path) or "."
    handle, temporary = tempfile.mkstemp(prefix=".partial-", dir=folder)
    try:
        with os.fdopen(handle, "w") as out:
            out.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp's 0600 would outlive the rename
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise


def read_reference(path):
    """BookSim2's figures and the meshmp arguments of a reference file."""
    figures, arguments = {}, None
    marker = "# meshmp traffic arguments: "
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith(marker):
                arguments = line[len(marker):]
            if not line or line.startswith("#"):
                continue
            key, value = line.split()
            figures[key] = float(value)
    if arguments is None or len(figures) != len(BOOKSIM_LINES):
        sys.exit(f"{path}: not a power reference file (arguments line and {len(BOOKSIM_LINES)} figures expected)")
    return figures, arguments


def meshmp_power(meshmp, arguments):
    command = [meshmp, "traffic"] + arguments.split() + ["-o", "-"]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({run.returncode}): {run.stderr.strip()}")
    power = json.loads(run.stdout)["power"]
    return {key: power[key.split(".")[0]][key.split(".")[1]] for key in BOOKSIM_LINES.values()}


def compare(args):
    names = [name for name, _, _ in configurations()]
    lines, failures, worst = [], [], {}
    for name in names:
        reference, arguments = read_reference(os.path.join(REFERENCE_DIR, name))
        measured = meshmp_power(args.meshmp, arguments)
        lines += [f"### {name[len('booksim2-'):-len('.txt')]}", "", f"`meshmp traffic {arguments}`", "",
                  "| component | meshmp | BookSim2 | difference |", "|---|---:|---:|---:|"]
        for key, expected in reference.items():
            difference = measured[key] / expected - 1 if expected else (0.0 if measured[key] == 0 else float("inf"))
            worst[name] = max(worst.get(name, 0.0), abs(difference))
            lines.append(f"| {key} | {measured[key]:.5g} | {expected:.5g} | {100 * difference:+.2f} % |")
            if abs(difference) > TOLERANCE:
                failures.append(f"{name}: {key} is {measured[key]:.6g}, BookSim2's {expected:.6g} "
                                f"({100 * difference:+.2f} %, more than {100 * TOLERANCE:g} %)")
        lines.append("")
    summary = ["| configuration | largest difference |", "|---|---:|"]
    summary += [f"| {name[len('booksim2-'):-len('.txt')]} | {100 * worst[name]:.2f} % |" for name in names]
    text = "\n".join(summary + [""] + lines) + "\n"
    if args.table:
        write_whole(args.table, text)
    else:
        sys.stdout.write(text)
    for failure in failures:
        print("compare_power_booksim2: " + failure, file=sys.stderr)
    print(f"compare_power_booksim2: {len(names)} configurations, {len(failures)} figures more than "
          f"{100 * TOLERANCE:g} % from BookSim2's; largest difference {100 * max(worst.values()):.2f} %",
          file=sys.stderr)
    return 1 if failures else 0


def regenerate(args):
    booksim = os.path.abspath(args.booksim)
    techfile = args.techfile or os.path.join(os.path.dirname(booksim), "power", "techfile.txt")
    if not os.path.isfile(techfile):
        sys.exit(f"--techfile: {techfile} is not a file (BookSim2's src/power/techfile.txt)")
    commit = subprocess.run(["git", "-C", os.path.dirname(booksim), "rev-parse", "--short=8", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    with tempfile.TemporaryDirectory() as work:
        for name, config, arguments in configurations():
            if args.only and name != args.only:
                continue
            config_path = os.path.join(work, "config")
            with open(config_path, "w") as f:
                f.write("\n".join(config + [f"tech_file = {techfile};"]) + "\n")
            run = subprocess.run([booksim, config_path], capture_output=True, text=True, cwd=work)
            figures = {}
            for line in run.stdout.splitlines():
                for prefix, key in BOOKSIM_LINES.items():
                    if line.startswith(prefix):
                        figures[key] = line[len(prefix):].strip()
            # BookSim2's main returns -1 (exit status 255) when its simulation succeeded: its summary decides.
            if len(figures) != len(BOOKSIM_LINES):
                sys.exit(f"BookSim2 on {name} printed no power summary (exit status {run.returncode}): "
                         f"{run.stdout[-300:]}{run.stderr[-300:]}")
            text = [f"# BookSim2's power module (commit {commit}, sim_power = 1, its src/power/techfile.txt, "
                    "channel_width 128):",
                    "# its OCN power summary [W] and area summary [mm^2] for this configuration, averaged over "
                    "its whole run.",
                    "# BookSim2 configuration:"]
            text += [f"#   {line}" for line in config]
            text.append(f"# meshmp traffic arguments: {arguments}")
            text += [f"{key} {figures[key]}" for key in BOOKSIM_LINES.values()]
            write_whole(os.path.join(REFERENCE_DIR, name), "\n".join(text) + "\n")
            print(f"  {name}: total {figures['watts.total']} W")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--meshmp", help="the meshmp binary to compare")
    action.add_argument("--booksim", help="an externally built BookSim2 binary: regenerate the reference files")
    parser.add_argument("--table", help="write the comparison tables (markdown) to this file")
    parser.add_argument("--only", help="regenerate this reference file only")
    parser.add_argument("--techfile", help="BookSim2's technology file (default: power/techfile.txt beside it)")
    args = parser.parse_args()
    return compare(args) if args.meshmp else regenerate(args)


if __name__ == "__main__":
    sys.exit(main())
