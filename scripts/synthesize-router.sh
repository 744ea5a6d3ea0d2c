#!/usr/bin/env bash
# Synthesizes the RTL router (rtl/) with Debian's yosys for three configurations and reports cells,
# flip-flops and memory bits per configuration (docs/architecture.md, "RTL router", has the figures); it
# fails when the cells or flip-flops are more than 10 % from the figures expected below.
#
# The flow is yosys's generic `synth` (coarse passes, then fine mapping to yosys's internal gate library)
# without `memory_map` and without `share`: the flit buffers and the routing table stay memories, as SRAM
# macros would be, and are reported in bits; `share` (SAT-based resource sharing) is skipped because it
# took most of the run time and memory here and finds nothing to share in the allocators.
#
# yosys depends on xdot (and so on GTK3 and graphviz): when it is not on the PATH, its Debian package and
# berkeley-abc's are downloaded with apt-get and unpacked into build/tools/yosys, nothing installed.
#
#   scripts/synthesize-router.sh [--only p5v2|p5v4|p7v4] [output.md]
#       (default: all three, build/synthesis/router-synthesis.md)
#   scripts/synthesize-router.sh --fetch-tools    (yosys only, then exit)
# The test suite runs one configuration per test (tests/CMakeLists.txt, Rtl.Synthesizes/*).
set -euo pipefail
cd "$(dirname "$0")/.."
only=""
fetch_only=false
case "${1:-}" in
  --only) only=$2; shift 2 ;;
  --fetch-tools) fetch_only=true; shift ;;
esac
out=${1:-build/synthesis/router-synthesis${only:+-$only}.md}
mkdir -p "$(dirname "$out")" build/synthesis

if ! command -v yosys >/dev/null; then
  tools=$PWD/build/tools/yosys
  if [ ! -x "$tools/usr/bin/yosys" ]; then
    mkdir -p "$tools/debs"
    (cd "$tools/debs" && apt-get download yosys berkeley-abc >/dev/null)
    for deb in "$tools"/debs/*.deb; do dpkg -x "$deb" "$tools"; done
  fi
  export PATH=$tools/usr/bin:$PATH
fi
if $fetch_only; then yosys -V; exit 0; fi

sources=(meshmp_flit_pkg meshmp_router_pkg meshmp_input_unit meshmp_route_table meshmp_route_compute meshmp_route_select
         meshmp_vc_allocator meshmp_switch_allocator meshmp_crossbar meshmp_output_unit meshmp_router)
read_sources=""
for s in "${sources[@]}"; do read_sources+=" rtl/$s.sv"; done

flit_bits=342; max_buffer=32; table_bits=12   # rtl/meshmp_flit_pkg.sv, rtl/CMakeLists.txt (MESHMP_RTL_MAX_BUFFER)
# A routing-table entry: one port (8 bits) and an adaptive function's choices (a 3-bit count, 4 entries of
# port, VC range, escape and source-column flags: rtl/meshmp_route_compute.sv).
table_entry_bits=$((8 + 3 + 4 * (8 + 4 + 4 + 2)))
{
  echo "| configuration | ports | VCs | cells | flip-flops | memory bits (flit buffers + routing table) | yosys CPU s |"
  echo "|---|---|---|---|---|---|---|"
} > "$out"

# name, PORTS, NET_PORTS, VCS, and the cells and flip-flops this RTL synthesizes to (docs/architecture.md):
# a run more than 10 % away from either fails, so that a change of the RTL that changes its size is seen
# (and these figures updated with it).
for configuration in "2-D mesh, 2 VCs:5:4:2:67903:3334" "2-D mesh, 4 VCs:5:4:4:176240:4674" \
                     "hypercube of dimension 6, 4 VCs:7:6:4:287406:6504"; do
  IFS=: read -r name ports net_ports vcs expected_cells expected_flops <<< "$configuration"
  if [ -n "$only" ] && [ "$only" != "p${ports}v${vcs}" ]; then continue; fi
  log=build/synthesis/p${ports}v${vcs}.log
  cat > build/synthesis/p${ports}v${vcs}.ys <<YS
read_verilog -sv$read_sources
chparam -set PORTS $ports -set NET_PORTS $net_ports -set VCS $vcs -set MAX_BUFFER $max_buffer -set TABLE_BITS $table_bits meshmp_router
synth -top meshmp_router -noshare -run begin:fine
opt -fast -full
techmap
opt -fast
abc -fast
opt -fast
stat
YS
  echo "synthesizing $name (PORTS=$ports NET_PORTS=$net_ports VCS=$vcs) ..."
  yosys -q -l "$log" "build/synthesis/p${ports}v${vcs}.ys" >/dev/null
  # The design-hierarchy totals are the last statistics printed.
  totals=$(awk '/=== design hierarchy ===/{found=1} found' "$log")
  cells=$(awk '/Number of cells:/{n=$4} END{print n}' <<< "$totals")
  flops=$(awk '$1 ~ /^\$_(S)?DFF/ {n+=$2} END{print n+0}' <<< "$totals")
  cpu=$(grep -o 'CPU: user [0-9.]*s' "$log" | tail -1 | grep -o '[0-9.]*')
  memory_bits=$((ports * vcs * max_buffer * flit_bits + (1 << table_bits) * table_entry_bits))
  echo "| $name | $ports | $vcs | $cells | $flops | $memory_bits | $cpu |" >> "$out"
  if [ -z "$cells" ] || [ "$flops" -eq 0 ]; then echo "no statistics in $log" >&2; exit 1; fi
  for measure in "cells:$cells:$expected_cells" "flip-flops:$flops:$expected_flops"; do
    IFS=: read -r what got expected <<< "$measure"
    if [ $((got * 10)) -lt $((expected * 9)) ] || [ $((got * 10)) -gt $((expected * 11)) ]; then
      echo "$name: $got $what, more than 10 % from the $expected expected (scripts/synthesize-router.sh)" >&2
      exit 1
    fi
  done
done
if [ "$(wc -l < "$out")" -le 2 ]; then echo "--only $only: expected p5v2, p5v4 or p7v4" >&2; exit 2; fi
cat "$out"
