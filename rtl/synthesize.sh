#!/usr/bin/env bash
# Synthesizes the RTL router with yosys (generic `synth`, no technology library) for a few configurations
# and reports cells and flip-flops. Uses yosys from the PATH, else unpacks Debian's yosys and berkeley-abc
# into build/yosys (no installation: yosys would pull GTK3 and graphviz).
#   rtl/synthesize.sh [out.txt]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/synthesis.txt}
if ! command -v yosys >/dev/null; then
  root=build/yosys
  if [ ! -x "$root/usr/bin/yosys" ]; then
    mkdir -p "$root" && (cd "$root" && apt-get download yosys berkeley-abc >/dev/null 2>&1)
    for deb in "$root"/*.deb; do dpkg -x "$deb" "$root"; done
  fi
  export PATH="$PWD/$root/usr/bin:$PATH"
fi
mkdir -p "$(dirname "$out")"
: > "$out"
# name PORTS NET_PORTS VCS MAX_BUFFER TABLE_BITS
configurations=(
  "2-D mesh, 2 VCs: 5 4 2 4 6"
  "2-D mesh, 4 VCs: 5 4 4 4 6"
  "hypercube:6, 2 VCs: 7 6 2 4 6"
)
for c in "${configurations[@]}"; do
  name=${c%%:*}; read -r ports net vcs buffer table <<<"${c#*:}"
  echo "== $name (PORTS=$ports NET_PORTS=$net VCS=$vcs MAX_BUFFER=$buffer TABLE_BITS=$table)" | tee -a "$out"
  start=$(date +%s)
  yosys -q -p "read_verilog -sv rtl/meshmp_flit_pkg.sv rtl/meshmp_router.sv;
               chparam -set PORTS $ports -set NET_PORTS $net -set VCS $vcs -set MAX_BUFFER $buffer -set TABLE_BITS $table meshmp_router;
               synth -top meshmp_router; tee -q -o build/synthesis-stat.txt stat" >/dev/null
  cells=$(grep -m1 "Number of cells:" build/synthesis-stat.txt | awk '{print $4}')
  flops=$(grep -E '\$_(S|D)FF|\$_DFFE|\$_SDFF' build/synthesis-stat.txt | awk '{s += $2} END {print s + 0}')
  echo "   cells $cells, flip-flops $flops, $(( $(date +%s) - start )) s" | tee -a "$out"
done
