#!/bin/bash
# meshmp as a library (docs/library.md): `cmake --install` of this build into a scratch prefix, then the
# out-of-tree project examples/library-user configured with find_package(meshmp) against it, built, and
# run in its six cases (a machine running meshmp's algorithm, its own algorithm, its own router model, its
# own workload, its own machine (fabric), its own TLM-2.0 module driving a node's DMA registers);
# the installed meshmp finds its example configurations and reference curves from another directory.
#   tests/library_install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 source=$2
scratch=$(mktemp -d "${TMPDIR:-/tmp}/meshmp-library.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
cmake -S "$source/examples/library-user" -B "$scratch/build" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/build" >/dev/null
user=$scratch/build/library-user

# The same machine through the installed meshmp: the library's run takes as many cycles.
cd "$scratch"
"$scratch/prefix/bin/meshmp" run --topology torus:4x4 --algorithm direct -m 64 -o cli.json >/dev/null
cycles=$(python3 -c 'import json; print(json.load(open("cli.json"))["statistics"]["completion_cycles"])')
out=$("$user" machine 2>&1) || fail "machine: $out"
echo "$out"
! grep -q "Copyright" <<<"$out" || fail "machine: SystemC's banner was printed (the program's main silences it)"
grep -q "^direct on torus:4x4 (router model cpp): $cycles cycles, 256 of 256 blocks in place$" <<<"$out" ||
  fail "machine: expected $cycles cycles and every block in place"

out=$("$user" algorithm) || fail "algorithm: $out"
echo "$out"
grep -q "^reverse-direct on torus:4x4 (router model cpp): [0-9]* cycles, 256 of 256 blocks in place$" <<<"$out" ||
  fail "algorithm: its own algorithm did not put every block in place"

out=$("$user" router-model) || fail "router-model: $out"
echo "$out"
grep -q "^direct on torus:4x4 (router model counting): $cycles cycles, 256 of 256 blocks in place$" <<<"$out" ||
  fail "router-model: the wrapped SystemC router should take the same $cycles cycles"
grep -q "^counting router: [1-9][0-9]* router steps, [1-9][0-9]* flits received$" <<<"$out" ||
  fail "router-model: the registered model was not the one stepped"

# Its own workload, with the algorithm that solves it: every block where the workload says.
out=$("$user" workload) || fail "workload: $out"
echo "$out"
grep -q "^shift-by-one on torus:4x4 (router model cpp): [1-9][0-9]* cycles, 16 of 16 blocks in place$" <<<"$out" ||
  fail "workload: its own workload's blocks were not all in place"

# Its own machine: a bus with a channel per node takes the cycles of meshmp's bus with k* = K.
"$scratch/prefix/bin/meshmp" run --topology bus:8 --concurrent-transfers 8 --algorithm direct -m 64 -o bus.json >/dev/null
bus_cycles=$(python3 -c 'import json; print(json.load(open("bus.json"))["statistics"]["completion_cycles"])')
out=$("$user" fabric) || fail "fabric: $out"
echo "$out"
grep -q "^direct on multibus:8 (fabric multibus): $bus_cycles cycles, 64 of 64 blocks in place$" <<<"$out" ||
  fail "fabric: the registered multibus should take the $bus_cycles cycles of bus:8 with k* = 8"
grep -q "^multibus: 56 transfers, at most [2-8] at once$" <<<"$out" ||
  fail "fabric: the registered fabric's statistics were not the ones reported"

out=$("$user" tlm-source) || fail "tlm-source: $out"
echo "$out"
grep -q "^tlm source on node 0: sent at cycle [0-9]*; node 1 holds node 0's 64-byte block for it after [1-9][0-9]* cycles$" <<<"$out" ||
  fail "tlm-source: the module bound to node 0's registers did not deliver the block"

# Data files from any directory: the installed copies under share/meshmp.
mkdir -p "$scratch/elsewhere" && cd "$scratch/elsewhere"
"$scratch/prefix/bin/meshmp" run --config sims/examples/hypercube6_pairwise.json -m 8 -o h.json >/dev/null ||
  fail "the installed meshmp did not find sims/examples/hypercube6_pairwise.json from another directory"
"$scratch/prefix/bin/meshmp" traffic --topology mesh:8x8 --pipeline-depth 4 --vcs 4 --buffer-flits 8 \
  --rates 0.02:0.02:0.02 --compare-reference reference/booksim2-mesh8x8-uniform.csv >/dev/null ||
  fail "the installed meshmp did not find reference/booksim2-mesh8x8-uniform.csv from another directory"
echo "PASS"
