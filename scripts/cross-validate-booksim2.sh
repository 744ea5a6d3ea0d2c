#!/usr/bin/env bash
# Cross-validation against BookSim2 (issue 26): every reference curve sims/reference/booksim2-<topology>-
# v<VCs>b<buffer>p<packet>l<link latency>-uniform.csv is measured again with `meshmp traffic`, the router
# configured as BookSim2's input-queued router (4-cycle pipeline, credits as it returns them, a head
# routed once the packet ahead has left its VC, output VCs taken in turn, torus VC halves per ring
# stretch, ties split), and
# compared load by load: latency ratios, saturation (latency 3x its low-load value) and the largest
# difference below 90% of saturation. The loads run 0.04 past the reference's last stable load, so
# meshmp's own saturation is found. Writes each curve's CSV and PNG under OUTDIR. The curves of
# sims/reference/link-latency/ come from a BookSim2 given a link-latency option (its README); those of
# sims/reference/routing/ (issue 40: min_adapt, valiant, romm, on_off injection) name their network, routing
# and injection in their "# key: value" lines, which the run takes as its options.
#   scripts/cross-validate-booksim2.sh [MESHMP] [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
meshmp=${1:-meshmp}
out=${2:-cross-validation}
mkdir -p "$out"
# The first reference (4 VCs x 8 flits, 4-flit packets) is named for its topology alone.
for reference in sims/reference/booksim2-mesh8x8-uniform.csv sims/reference/booksim2-*-v*b*p*l*-uniform.csv \
                 sims/reference/link-latency/booksim2-*-v*b*p*l*-uniform.csv; do
  name=$(basename "$reference" .csv)
  spec=${name#booksim2-}; spec=${spec%-uniform}
  [ "$spec" = mesh8x8 ] && spec=mesh8x8-v4b8p4l1
  network=${spec%%-*}; router=${spec#*-}
  [[ $router =~ ^v([0-9]+)b([0-9]+)p([0-9]+)l([0-9]+)$ ]] || { echo "unparsable name: $name" >&2; exit 2; }
  vcs=${BASH_REMATCH[1]} buffer=${BASH_REMATCH[2]} packet=${BASH_REMATCH[3]} link=${BASH_REMATCH[4]}
  topology=${network%8x8}:8x8
  last=$(awk -F, 'NR > 1 && $2 != "" { load = $1 } END { print load }' "$reference")
  to=$(awk -v x="$last" 'BEGIN { printf "%.2f", x + 0.04 }')
  echo "== $name: $topology, $vcs VCs x $buffer flits, $packet-flit packets, $link-cycle links"
  "$meshmp" traffic --topology "$topology" --router-rules booksim2 --vcs "$vcs" --buffer-flits "$buffer" \
    --packet-flits "$packet" --link-latency "$link" \
    --rates "0.02:$to:0.02" --compare-reference "$reference" --csv "$out/$name.csv" --png "$out/$name.png" |
    grep -E "load [0-9.]+:|saturation|largest"
done
for reference in sims/reference/routing/booksim2-*.csv; do
  name=$(basename "$reference" .csv)
  # Every key but the rules' own routing (dimension order with BookSim2's ties) becomes an option.
  options=$(awk -F': ' '/^# / { key = substr($1, 3); gsub(/_/, "-", key);
                                  if (key != "routing" || $2 != "dimension-order-split-ties") printf "--%s %s ", key, $2 }' \
            "$reference")
  last=$(awk -F, '!/^#/ && NR > 1 && $2 != "" && $1 ~ /^[0-9]/ { load = $1 } END { print load }' "$reference")
  to=$(awk -v x="$last" 'BEGIN { printf "%.2f", x + 0.04 }')
  echo "== $name: $options"
  # shellcheck disable=SC2086  # the options are words
  "$meshmp" traffic --router-rules booksim2 $options --rates "0.02:$to:0.02" --compare-reference "$reference" \
    --csv "$out/$name.csv" --png "$out/$name.png" | grep -E "load [0-9.]+:|saturation|largest"
done
