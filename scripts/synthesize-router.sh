#!/usr/bin/env bash
# Synthesizes the RTL router (rtl/) with Debian's yosys for three configurations and reports cells,
# flip-flops and memory bits per configuration (docs/architecture.md, "RTL router", has the figures); it
# fails when the cells or flip-flops are more than 10 % from the figures expected below.
#
# Area, a second opinion on the power model's (docs/energy.md, "Area from the RTL"): the logic's
# transistors as yosys estimates them (`stat -tech cmos`) at a D1 NAND's footprint per 4 transistors, and
# the flit buffers' bits at an SRAM cell's, both from the model's technology (hw/power/technology.h:
# H_ND2D1 x W_ND2D1 = 8 x 3 and H_SRAM x W_SRAM = 8 x 6 metal pitches of 8e-5 mm); beside it the model's
# router area (input buffers, crossbar, output stage) for the same ports, VCs, buffer depth and flit
# width, from `meshmp traffic` (--meshmp PATH), and the ratio. The routing table has no counterpart in the
# model and is left out of both.
#
# The flow is yosys's generic `synth` (coarse passes, then fine mapping to yosys's internal gate library)
# without `memory_map` and without `share`: the flit buffers and the routing table stay memories, as SRAM
# macros would be, and are reported in bits; `share` (SAT-based resource sharing) is skipped because it
# took most of the run time and memory here and finds nothing to share in the allocators.
#
# yosys depends on xdot (and so on GTK3 and graphviz): when it is not on the PATH, its Debian package and
# berkeley-abc's are downloaded with apt-get and unpacked into build/tools/yosys, nothing installed.
#
#   scripts/synthesize-router.sh [--only p5v2|p5v4|p7v4] [--meshmp MESHMP] [output.md]
#       (default: all three, build/synthesis/router-synthesis.md)
#   scripts/synthesize-router.sh --fetch-tools    (yosys only, then exit)
# The test suite runs one configuration per test (tests/CMakeLists.txt, Rtl.Synthesizes/*).
set -euo pipefail
cd "$(dirname "$0")/.."
only=""
meshmp=""
fetch_only=false
case "${1:-}" in
  --only) only=$2; shift 2 ;;
  --fetch-tools) fetch_only=true; shift ;;
esac
if [ "${1:-}" = "--meshmp" ]; then meshmp=$2; shift 2; fi
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
  echo "| configuration | ports | VCs | cells | flip-flops | memory bits (flit buffers + routing table) | transistors (logic) | RTL area mm^2 (logic + buffers) | model area mm^2 | RTL / model | yosys CPU s |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
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
stat -tech cmos
YS
  echo "synthesizing $name (PORTS=$ports NET_PORTS=$net_ports VCS=$vcs) ..."
  yosys -q -l "$log" "build/synthesis/p${ports}v${vcs}.ys" >/dev/null
  # The design-hierarchy totals are the last statistics printed (`stat -tech cmos`'s, with the transistors).
  totals=$(awk '/=== design hierarchy ===/{text=""; found=1} found{text=text $0 "\n"} END{printf "%s", text}' "$log")
  cells=$(awk '/Number of cells:/{n=$4} END{print n}' <<< "$totals")
  flops=$(awk '$1 ~ /^\$_(S)?DFF/ {n+=$2} END{print n+0}' <<< "$totals")
  cpu=$(grep -o 'CPU: user [0-9.]*s' "$log" | tail -1 | grep -o '[0-9.]*')
  buffer_bits=$((ports * vcs * max_buffer * flit_bits))
  memory_bits=$((buffer_bits + (1 << table_bits) * table_entry_bits))
  transistors=$(awk '/Estimated number of transistors:/{n=$5; sub(/\+$/, "", n)} END{print n}' <<< "$totals")  # '+': memories not counted
  if [ -z "$cells" ] || [ "$flops" -eq 0 ] || [ -z "$transistors" ]; then echo "no statistics in $log" >&2; exit 1; fi
  pitch_mm2=6.4e-9  # MetalPitch^2
  rtl_area=$(awk -v t="$transistors" -v b="$buffer_bits" -v p=$pitch_mm2 'BEGIN{printf "%.4f", (t / 4 * 8 * 3 + b * 8 * 6) * p}')
  model_area="-"; ratio="-"
  if [ -n "$meshmp" ]; then
    # A network whose every router has this router's ports: a 2-D mesh (5), a 3-D mesh (7).
    network=$([ "$net_ports" -eq 4 ] && echo mesh:3x3 || echo mesh:3x3x3)
    routers=$([ "$net_ports" -eq 4 ] && echo 9 || echo 27)
    model_area=$("$meshmp" traffic -t $network --vcs $vcs --buffer-flits $max_buffer --channel-width $flit_bits \
                   --rate 0.01 --warmup-cycles 10 --measure-cycles 10 -o - 2>/dev/null |
                 python3 -c "import json,sys; a=json.load(sys.stdin)['power']['area_mm2']; print('%.4f' % ((a['input'] + a['switch'] + a['output']) / $routers))")
    ratio=$(awk -v r="$rtl_area" -v m="$model_area" 'BEGIN{printf "%.2f", r / m}')
    # A second opinion, not a match: the RTL's crossbar is multiplexers, the model's a wire matrix
    # (docs/energy.md). A ratio outside 0.05..20 says one of the two lost a part.
    if awk -v q="$ratio" 'BEGIN{exit !(q < 0.05 || q > 20)}'; then
      echo "$name: RTL area $rtl_area mm^2 against the model's $model_area mm^2 (ratio $ratio): outside 0.05..20" >&2
      exit 1
    fi
  fi
  echo "| $name | $ports | $vcs | $cells | $flops | $memory_bits | $transistors | $rtl_area | $model_area | $ratio | $cpu |" >> "$out"
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
