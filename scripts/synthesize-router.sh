#!/usr/bin/env bash
# Synthesizes the RTL router (rtl/) with Debian's yosys for three configurations and reports cells,
# flip-flops and memory bits per configuration, and the router's area from the RTL beside the power
# model's area of the same router (docs/architecture.md, "RTL router", and docs/energy.md, "Area from the
# RTL", have the figures); it fails when the cells or flip-flops are more than 10 % from the figures
# expected below, or when the area ratio RTL / model leaves its band (below).
#
# The flow is yosys's generic `synth` (coarse passes, then fine mapping to yosys's internal gate library)
# without `memory_map` and without `share`: the flit buffers and the routing table stay memories, as SRAM
# macros would be, and are reported in bits; `share` (SAT-based resource sharing) is skipped because it
# took most of the run time and memory here and finds nothing to share in the allocators.
#
# Area from the RTL, per router [mm^2] (docs/energy.md, "Area from the RTL"): logic + memories.
#   logic: yosys's transistor estimate (`stat -tech cmos`) of the mapped gates, after the memories are
#     removed and every flip-flop with an enable or a synchronous reset is legalized to a plain D
#     flip-flop (16 transistors) and multiplexers (12 each; `stat -tech cmos` counts only plain flip-flops),
#     times the area of one transistor in the model's technology (hw/power/technology.h, its defaults): a
#     D1 NAND2, 4 transistors, is H_ND2D1 x W_ND2D1 metal pitches, so a transistor is
#     H_ND2D1 W_ND2D1 / 4 MetalPitch^2 (8 x 3 / 4 = 6 pitches, 0.0384 um^2 at 80 nm);
#   memories: the flit buffers' and the routing table's bits times an SRAM cell, H_SRAM x W_SRAM metal
#     pitches (8 x 6 = 48, 0.307 um^2), as the model prices its input buffers.
# The model's area, per router [mm^2]: its switch + input + output areas (no channels) from
# `meshmp traffic -o` on a small network of routers of this shape (same ports, VCs, 32-flit buffers
# per VC, --channel-width = the RTL's 342-bit flit), divided by its routers: the model's area_mm2 sums every
# router of the network (hw/power/network_power.cpp). The ratio RTL / model must lie in
# [ratio_low, ratio_high] below.
#
# yosys depends on xdot (and so on GTK3 and graphviz): when it is not on the PATH, its Debian package and
# berkeley-abc's are downloaded with apt-get and unpacked into build/tools/yosys, nothing installed.
#
#   scripts/synthesize-router.sh [--only p5v2|p5v4|p7v4] [--meshmp MESHMP] [output.md]
#       (default: all three, build/synthesis/router-synthesis.md; MESHMP default build/release/sims/meshmp)
#   scripts/synthesize-router.sh --fetch-tools    (yosys only, then exit)
# The test suite runs one configuration per test (tests/CMakeLists.txt, Rtl.Synthesizes/*).
set -euo pipefail
cd "$(dirname "$0")/.."
only=""
fetch_only=false
meshmp=build/release/sims/meshmp
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only=$2; shift 2 ;;
    --meshmp) meshmp=$2; shift 2 ;;
    --fetch-tools) fetch_only=true; shift ;;
    *) break ;;
  esac
done
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

# The model's technology: the defaults of hw/power/technology.h, read from it so that the two stay one.
technology() {
  local value
  value=$(grep -o "\b$1 = [0-9.eE+-]*" hw/power/technology.h | head -1 | awk '{print $3}')
  if [ -z "$value" ]; then echo "no default for $1 in hw/power/technology.h" >&2; exit 1; fi
  echo "$value"
}
metal_pitch=$(technology MetalPitch)
transistor_mm2=$(awk -v h="$(technology H_ND2D1)" -v w="$(technology W_ND2D1)" -v p="$metal_pitch" 'BEGIN{printf "%.6e", h * w / 4 * p * p}')
sram_bit_mm2=$(awk -v h="$(technology H_SRAM)" -v w="$(technology W_SRAM)" -v p="$metal_pitch" 'BEGIN{printf "%.6e", h * w * p * p}')
# The band of RTL / model (docs/energy.md, "Area from the RTL"): 1.48, 1.59 and 1.20 on the three configurations
# at the time of writing. Outside it, either side has changed its arithmetic or its shape (a lost memory, a
# flit width or buffer depth that no longer match), and the figures and this band are to be reviewed.
ratio_low=1.0; ratio_high=2.0

tmp_out=$out.tmp.$$
trap 'rm -f "$tmp_out"' EXIT
{
  echo "| configuration | ports | VCs | cells | flip-flops | memory bits (flit buffers + routing table) | yosys CPU s |" \
       "logic transistors | RTL area mm² (logic + memories) | model area mm² (switch + input + output) | RTL / model |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
} > "$tmp_out"

# name, PORTS, NET_PORTS, VCS, the cells and flip-flops this RTL synthesizes to (docs/architecture.md): a
# run more than 10 % away from either fails, so that a change of the RTL that changes its size is seen (and
# these figures updated with it); and the network `meshmp traffic` prices the model's router on, every
# router of it of this configuration's ports (the last field, so its own colon stays in it).
for configuration in "2-D mesh, 2 VCs:5:4:2:67903:3334:mesh:4x4" "2-D mesh, 4 VCs:5:4:4:176240:4674:mesh:4x4" \
                     "hypercube of dimension 6, 4 VCs:7:6:4:287406:6504:hypercube:6"; do
  IFS=: read -r name ports net_ports vcs expected_cells expected_flops topology <<< "$configuration"
  if [ -n "$only" ] && [ "$only" != "p${ports}v${vcs}" ]; then continue; fi
  base=build/synthesis/p${ports}v${vcs}
  log=$base.log
  cat > "$base.ys.tmp" <<YS
read_verilog -sv$read_sources
chparam -set PORTS $ports -set NET_PORTS $net_ports -set VCS $vcs -set MAX_BUFFER $max_buffer -set TABLE_BITS $table_bits meshmp_router
synth -top meshmp_router -noshare -run begin:fine
opt -fast -full
techmap
opt -fast
abc -fast
opt -fast
tee -o $base.stat stat
delete t:\$mem_v2
dfflegalize -cell \$_DFF_P_ 01 -cell \$_DFF_N_ 01
tee -o $base.cmos stat -tech cmos
YS
  mv "$base.ys.tmp" "$base.ys"
  rm -f "$base.stat" "$base.cmos"
  echo "synthesizing $name (PORTS=$ports NET_PORTS=$net_ports VCS=$vcs) ..."
  yosys -q -l "$log" "$base.ys" >/dev/null
  # The design-hierarchy totals of each statistics.
  totals=$(awk '/=== design hierarchy ===/{found=1} found' "$base.stat")
  cells=$(awk '/Number of cells:/{n=$4} END{print n}' <<< "$totals")
  flops=$(awk '$1 ~ /^\$_(S)?DFF/ {n+=$2} END{print n+0}' <<< "$totals")
  transistors=$(awk '/=== design hierarchy ===/{found=1} found && /Estimated number of transistors:/{n=$5} END{print n}' "$base.cmos")
  cpu=$(grep -o 'CPU: user [0-9.]*s' "$log" | tail -1 | grep -o '[0-9.]*')
  memory_bits=$((ports * vcs * max_buffer * flit_bits + (1 << table_bits) * table_entry_bits))
  if [ -z "$cells" ] || [ "$flops" -eq 0 ]; then echo "no statistics in $base.stat" >&2; exit 1; fi
  # An estimate with a `+` counted cells it has no figure for: the area would be too small.
  if ! [[ "$transistors" =~ ^[0-9]+$ ]]; then
    echo "$name: logic transistors '$transistors' in $base.cmos, not an exact count (a cell type stat -tech cmos does not know)" >&2
    exit 1
  fi
  rtl_mm2=$(awk -v t="$transistors" -v ta="$transistor_mm2" -v b="$memory_bits" -v ba="$sram_bit_mm2" 'BEGIN{printf "%.4f", t * ta + b * ba}')

  # The model's router: a network of `topology`, whose routers all have `ports` ports, priced at the RTL's
  # flit width and buffer depth; its areas do not depend on the traffic, so the run is short.
  json=$base-model.json
  "$meshmp" traffic -t "$topology" --vcs "$vcs" --buffer-flits "$max_buffer" --channel-width "$flit_bits" \
    --warmup-cycles 10 --measure-cycles 10 --rate 0.01 -o "$json" >/dev/null
  read -r model_mm2 model_ports <<< "$(python3 - "$json" "$flit_bits" "$metal_pitch" <<'PY'
import json, math, sys
result = json.load(open(sys.argv[1]))
# One router per node: a source each.
area, routers = result["power"]["area_mm2"], len(result["source_offered_flits_per_cycle"])
width, pitch = float(sys.argv[2]), float(sys.argv[3])
switch = area["switch"] / routers
# The crossbar is (P W 2 MetalPitch)^2 per router: its ports P, to check the network's routers are this shape.
print(f"{(area['switch'] + area['input'] + area['output']) / routers:.4f} {math.sqrt(switch) / (width * 2 * pitch):.3f}")
PY
)"
  ratio=$(awk -v r="$rtl_mm2" -v m="$model_mm2" 'BEGIN{printf "%.2f", r / m}')
  echo "| $name | $ports | $vcs | $cells | $flops | $memory_bits | $cpu | $transistors | $rtl_mm2 | $model_mm2 | $ratio |" >> "$tmp_out"

  for measure in "cells:$cells:$expected_cells" "flip-flops:$flops:$expected_flops"; do
    IFS=: read -r what got expected <<< "$measure"
    if [ $((got * 10)) -lt $((expected * 9)) ] || [ $((got * 10)) -gt $((expected * 11)) ]; then
      echo "$name: $got $what, more than 10 % from the $expected expected (scripts/synthesize-router.sh)" >&2
      exit 1
    fi
  done
  if ! awk -v p="$model_ports" -v want="$ports" 'BEGIN{exit !(p > want - 0.01 && p < want + 0.01)}'; then
    echo "$name: the model's routers on $topology have $model_ports ports, not $ports (scripts/synthesize-router.sh)" >&2
    exit 1
  fi
  if ! awk -v r="$ratio" -v lo="$ratio_low" -v hi="$ratio_high" 'BEGIN{exit !(r >= lo && r <= hi)}'; then
    echo "$name: area RTL / model $ratio (RTL $rtl_mm2 mm², model $model_mm2 mm² per router), outside [$ratio_low, $ratio_high] (scripts/synthesize-router.sh)" >&2
    exit 1
  fi
done
if [ "$(wc -l < "$tmp_out")" -le 2 ]; then echo "--only $only: expected p5v2, p5v4 or p7v4" >&2; exit 2; fi
{
  echo
  echo "Areas per router. RTL: logic transistors x $transistor_mm2 mm² (a D1 NAND2's footprint over its 4 transistors)" \
       "+ memory bits x $sram_bit_mm2 mm² (an SRAM cell), hw/power/technology.h's defaults. Model: \`meshmp traffic\`'s" \
       "power.area_mm2 switch + input + output (no channels), which sums every router of the network, over its routers," \
       "at $flit_bits-bit flits, $max_buffer flits per VC. RTL / model must lie in [$ratio_low, $ratio_high]."
} >> "$tmp_out"
mv "$tmp_out" "$out"
trap - EXIT
cat "$out"
