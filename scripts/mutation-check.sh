#!/usr/bin/env bash
# Mutation check: shows that the test suite catches small, plausible bugs.
#
# Each "mutant" below is one small change to the source: a comparison off by one, a round-robin pointer
# that no longer moves past the winner, a dimension order reversed, a counter counted twice. For each
# mutant the script puts the change into a scratch copy of the committed tree, rebuilds, and runs the
# tests expected to notice it. The mutant is "caught" when those tests fail, "MISSED" when they all
# pass (a gap in the tests), "build failed" when the changed code does not build, and "stale" when its
# text is no longer found exactly once in the file (the code moved on; the table needs updating).
# The file is then put back, so every mutant starts from the committed code.
#
# This is run by hand, not in CI: it rebuilds the project once per mutant (a change to rtl/*.sv
# re-verilates the router), which takes a long while. It never touches the working tree: only the
# committed tree (HEAD) is copied, so commit what you want checked first.
#
# Usage: scripts/mutation-check.sh [options]
#   --list             print the mutants and exit
#   --dry-run          only check that every mutant's text occurs exactly once in the committed files
#                      (no copy, no build)
#   --only A[,B...]    run only the named mutants
#   --scratch DIR      where the copy goes (default build/mutation-check/src; its build in DIR/build,
#                      kept between runs so that the next run rebuilds only what changed)
#   --report FILE      the markdown report (default build/mutation-check/report.md; logs beside it,
#                      in logs/)
#   --jobs N           parallel build jobs and tests (default: the number of cores)
#   --baseline         first run every selected mutant's tests on the unchanged copy, and stop if
#                      any fails (a mutant "caught" by a test that fails anyway proves nothing)
#   -h, --help         this text
#
# It prints "N mutants: C caught, M missed, B build failures, S stale" and exits 0 only when every
# selected mutant is caught. Needs git, python3, cmake, ninja and the project's build dependencies;
# uses ccache when it is installed.
#
# Adding a mutant: one line in the table below, five fields separated by '|':
#   name|file|from|to|tests
# `from` is an exact piece of `file` (as committed) that occurs there exactly once, `to` replaces it
# (neither may contain '|'; both must leave code that still builds, warnings included: the project
# builds with -Werror and verilates with -Wall). `tests` is the ctest regular expression (everything
# after the fourth '|', so it may use '|') of the tests that should catch it; keep it to a few dozen
# tests. The test names are those of `ctest -N`: Suite.Name for a gtest, Instance/Suite.Name/param for
# a parameterised one, and the same again with the prefix rtl/ for the tests that also run on the
# verilated router.
set -euo pipefail

mutant_table() {
  cat <<'EOF'
router-store-and-forward-tail|hw/router/router.cpp|unit.age(v, vc.front_flit().packet_flits - 1) >= params_.pipeline_depth;|unit.age(v, vc.front_flit().packet_flits - 1) > params_.pipeline_depth;|^StoreAndForward/ZeroLoadLatency\.|^RtlLockstep\.StoreAndForward$
router-flit-pipeline|hw/router/router.h|return unit.front_age(v) + lead >= flit_pipeline_cycles(vc.front_flit());|return unit.front_age(v) + lead > flit_pipeline_cycles(vc.front_flit());|^Wormhole/ZeroLoadLatency\.|^RtlLockstep\.MeshInteriorWormhole$
credits-last-credit-refused|hw/router/output_unit.cpp|if (credits_[vc] <= 0) return false;|if (credits_[vc] <= 1) return false;|^SingleRouter\.|^TwoRouterLine/CreditLimitedLatency\..*buffer 1 hops
vc-allocator-pointer-stays|hw/router/vc_allocator.h|pointer_[out] = (last_winner + 1) % input_vcs_;|pointer_[out] = last_winner % input_vcs_;|^VcAllocator\.|^RtlLockstep\.MeshInteriorWormhole$
switch-allocator-pointer-stays|hw/router/switch_allocator.cpp|output_pointer_[out] = (in + 1) % static_cast<int>(input_pick_.size());|output_pointer_[out] = in % static_cast<int>(input_pick_.size());|^SwitchAllocator\.|^RtlLockstep\.MeshInteriorWormhole$
routing-dimension-order-reversed|hw/router/routing.cpp|for (int d = 0; d < topology.num_dimensions(); ++d) {|for (int d = topology.num_dimensions() - 1; d >= 0; --d) {|DimensionOrder
rtl-credit-needs-two|rtl/meshmp_output_unit.sv|has_credit[v] = credits[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS] != '0;|has_credit[v] = credits[v*FLIT_COUNT_BITS +: FLIT_COUNT_BITS] > FLIT_COUNT_BITS'(1);|^RtlLockstep\.|^rtl/SingleRouter\.
rtl-dateline-class-range|rtl/meshmp_route_compute.sv|rc_vc_begin[v*VC_BITS +: VC_BITS] = upper ? VC_BITS'(VCS / 2) : '0;|rc_vc_begin[v*VC_BITS +: VC_BITS] = upper ? VC_BITS'(VCS / 2 - 1) : '0;|^RtlLockstep\.Torus|^RtlLockstep\.AllPort$
rtl-switch-output-pointer-stays|rtl/meshmp_switch_allocator.sv|? '0 : PORT_INDEX_BITS'(grant_input[p*PORT_BITS +: PORT_BITS] + 1'b1);|? '0 : PORT_INDEX_BITS'(grant_input[p*PORT_BITS +: PORT_BITS]);|^RtlLockstep\.
verifier-skips-last-byte|firmware/api/placement_verifier.cpp|std::memcmp(data, expected.data(), check.unit_bytes) == 0|std::memcmp(data, expected.data(), check.unit_bytes - 1) == 0|^ExchangeVerifier\.|^FaultInjection\.
bruck-one-step-short|firmware/baselines/bruck.cpp|while ((1 << steps) < n) ++steps;|while ((2 << steps) < n) ++steps;|^Shapes/Bruck\.
ring-gather-case-off-by-one-level|firmware/paper001/ring_exchange_plan.cpp|const bool case2 = level == top|const bool case2 = level + 1 == top|^TsengRingPlan\.|^Rings/TsengRing\.
shared-memory-multiscatter-stride|firmware/paper004/fabric_programs.cpp|const GlobalPieces column{m, row};|const GlobalPieces column{m, m};|^SaadFabric
zero-load-model-link-latency|hw/network/zero_load_model.cpp|h * (params.pipeline_depth + params.link_latency_cycles)|h * params.pipeline_depth|^ZeroLoadModel\.|^ZeroLoadObserver\.
network-flit-hops-twice|hw/network/network.cpp|++flit_hops_;|flit_hops_ += 2;|^Dimensions/Dima1d\..*/ring_|^[^/]*/ContentionFree\.
run-statistics-startups-total|hw/machine/run_statistics.cpp|startups_total += machine.node(i).cpu.startups();|startups_total = machine.node(i).cpu.startups();|^Machines/BaselineExchange\.
transaction-network-hop-latency|hw/network/transaction_network.cpp|written = leaves + params_.link_latency_cycles;|written = leaves + params_.link_latency_cycles + 1;|^[^/]*/ContentionFree\.|^TransactionTraffic\.
fabric-startup-extra-cycle|tlm/message_transfer.h|return startup_cycles + (bytes + bytes_per_cycle - 1) / bytes_per_cycle;|return startup_cycles + 1 + (bytes + bytes_per_cycle - 1) / bytes_per_cycle;|^TlmOmegaSim\.|^TlmSharedMemory\.
bus-fixed-priority|tlm/broadcast_bus.cpp|auto next = ready_.upper_bound(last_granted_);|auto next = ready_.begin();|^TlmBus\.
omega-round-robin-reversed|tlm/omega_switch.cpp|return (source - last_granted - 1 + 2 * nodes) % nodes;|return (last_granted - source - 1 + 2 * nodes) % nodes;|^TlmOmega
shared-memory-port-limit|tlm/shared_memory.cpp|in_flight < static_cast<std::uint64_t>(ports_)|in_flight <= static_cast<std::uint64_t>(ports_)|^TlmSharedMemory\.
stop-signal-exit-status|sims/stop_signals.cpp|int stopped_exit_status() { return 128 + stop_signal(); }|int stopped_exit_status() { return 1 + stop_signal(); }|^Interrupt\.
EOF
}

usage() { sed -n '2,/^set -euo pipefail$/{/^#/!d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
die() { echo "mutation-check: $*" >&2; exit 2; }

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$script_dir/.." && pwd)

mode=run
only=""
scratch=""
report=""
jobs=""
baseline=0
while (($# > 0)); do
  case "$1" in
    --list) mode=list ;;
    --dry-run) mode=dry-run ;;
    --only) (($# >= 2)) || die "--only needs a list of names"; only=$2; shift ;;
    --only=*) only=${1#*=} ;;
    --scratch) (($# >= 2)) || die "--scratch needs a directory"; scratch=$2; shift ;;
    --scratch=*) scratch=${1#*=} ;;
    --report) (($# >= 2)) || die "--report needs a file"; report=$2; shift ;;
    --report=*) report=${1#*=} ;;
    --jobs | -j) (($# >= 2)) || die "--jobs needs a number"; jobs=$2; shift ;;
    --jobs=*) jobs=${1#*=} ;;
    --baseline) baseline=1 ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  shift
done
[[ -z "$jobs" ]] && jobs=$(nproc)
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "--jobs wants a positive number, not '$jobs'"

command -v python3 >/dev/null || die "python3 is needed"
command -v git >/dev/null || die "git is needed"

# ---- The table: parse, check its shape, select. ----
names=() files=() froms=() tos=() regexes=()
declare -A seen=()
line_number=0
while IFS='|' read -r name file from to regex; do
  line_number=$((line_number + 1))
  [[ -z "$name" || "$name" == \#* ]] && continue
  [[ -n "$file" && -n "$from" && -n "$to" && -n "$regex" ]] ||
    die "table line $line_number ($name): wants name|file|from|to|tests"
  [[ "$from" != "$to" ]] || die "mutant $name: 'to' is the same as 'from'"
  [[ -z "${seen[$name]:-}" ]] || die "mutant $name is in the table twice"
  seen[$name]=1
  names+=("$name") files+=("$file") froms+=("$from") tos+=("$to") regexes+=("$regex")
done < <(mutant_table)

selected=()
if [[ -n "$only" ]]; then
  IFS=',' read -r -a wanted <<<"$only"
  for i in "${!names[@]}"; do
    for w in "${wanted[@]}"; do
      if [[ "${names[$i]}" == "$w" ]]; then
        selected+=("$i")
        break
      fi
    done
  done
  for w in "${wanted[@]}"; do
    [[ -z "$w" || -n "${seen[$w]:-}" ]] || die "no mutant named '$w' (see --list)"
  done
else
  selected=("${!names[@]}")
fi
((${#selected[@]} > 0)) || die "no mutant selected"

# Occurrences of $2 in the file $1 ("-" for the standard input), exactly (bytes, no pattern).
count_occurrences() {
  python3 -c '
import os, sys
path, needle = sys.argv[1], os.fsencode(sys.argv[2])
data = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
print(data.count(needle))
' "$1" "$2"
}

# Replaces the one occurrence of $2 in the file $1 by $3 (exact text; fails unless it occurs once).
replace_once() {
  python3 - "$1" "$2" "$3" <<'PY'
import os, sys
path, old, new = sys.argv[1], os.fsencode(sys.argv[2]), os.fsencode(sys.argv[3])
data = open(path, "rb").read()
if data.count(old) != 1:
    sys.exit("expected the text once in %s, found it %d times" % (path, data.count(old)))
with open(path, "wb") as out:
    out.write(data.replace(old, new, 1))
PY
}

# The change in a few words, as markdown: the whole text when it is short, else what differs between $1
# and $2 with a word of context on either side.
short_change() {
  python3 - "$1" "$2" <<'PY'
import sys
a, b = sys.argv[1], sys.argv[2]
p = 0
s = 0
if len(a) > 40 or len(b) > 40:
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    while s < min(len(a), len(b)) - p and a[len(a) - 1 - s] == b[len(b) - 1 - s]:
        s += 1
    for _ in range(2):  # back to the start of this word, then of the one before
        while p > 0 and a[p - 1] == " ":
            p -= 1
        while p > 0 and a[p - 1] != " ":
            p -= 1
    for _ in range(2):
        while s > 0 and a[len(a) - s] == " ":
            s -= 1
        while s > 0 and a[len(a) - s] != " ":
            s -= 1
def cut(text):
    text = text.strip() or "(nothing)"
    return text if len(text) <= 60 else text[:57] + "..."
def code(text):
    return "`" + text.replace("|", "\\|") + "`"
print(code(cut(a[p:len(a) - s])) + " → " + code(cut(b[p:len(b) - s])))
PY
}

# ---- --list ----
if [[ "$mode" == list ]]; then
  for i in "${selected[@]}"; do
    printf '%s  (%s)\n' "${names[$i]}" "${files[$i]}"
    printf '    from:  %s\n' "${froms[$i]}"
    printf '    to:    %s\n' "${tos[$i]}"
    printf '    tests: %s\n' "${regexes[$i]}"
  done
  echo "${#selected[@]} mutants"
  exit 0
fi

# ---- --dry-run: every 'from' once in the committed file. ----
if [[ "$mode" == dry-run ]]; then
  commit=$(git -C "$repo" rev-parse --short=12 HEAD)
  # With the build of an earlier run, the tests each regex selects are counted too.
  listing=""
  scratch_build="${scratch:-$repo/build/mutation-check/src}/build"
  if [[ -f "$scratch_build/CTestTestfile.cmake" ]] && command -v ctest >/dev/null; then
    listing=$scratch_build
  fi
  ok=0 stale=0
  for i in "${selected[@]}"; do
    name=${names[$i]} file=${files[$i]}
    if ! git -C "$repo" cat-file -e "HEAD:$file" 2>/dev/null; then
      printf '%-36s stale: %s is not in the committed tree\n' "$name" "$file"
      stale=$((stale + 1))
      continue
    fi
    n=$(git -C "$repo" show "HEAD:$file" | count_occurrences - "${froms[$i]}")
    tests=""
    if [[ -n "$listing" ]]; then
      tests=$(ctest --test-dir "$listing" -N -R "${regexes[$i]}" 2>/dev/null | sed -nE 's/^Total Tests: ([0-9]+).*/\1/p')
      tests=${tests:-0}
    fi
    if [[ "$n" == 1 && "$tests" == 0 ]]; then
      printf '%-36s stale: no test of %s matches %s\n' "$name" "$listing" "${regexes[$i]}"
      stale=$((stale + 1))
    elif [[ "$n" == 1 ]]; then
      printf '%-36s ok: found once in %s%s\n' "$name" "$file" "${tests:+; $tests tests}"
      ok=$((ok + 1))
    else
      printf '%-36s stale: found %s times in %s (wants exactly once)\n' "$name" "$n" "$file"
      stale=$((stale + 1))
    fi
  done
  echo "dry run on commit $commit: ${#selected[@]} mutants: $ok found once, $stale stale"
  [[ -n "$listing" ]] || echo "(no earlier build in the scratch directory: the test regexes were not checked)"
  if ((stale > 0)); then exit 1; fi
  exit 0
fi

# ---- The run. ----
for tool in cmake ninja ctest; do command -v "$tool" >/dev/null || die "$tool is needed"; done

scratch=${scratch:-$repo/build/mutation-check/src}
report=${report:-$repo/build/mutation-check/report.md}
mkdir -p "$scratch" "$(dirname "$report")"
scratch=$(cd "$scratch" && pwd)
report="$(cd "$(dirname "$report")" && pwd)/$(basename "$report")"
build="$scratch/build"
logs="$(dirname "$report")/logs"
# The copy is kept in step with the commit, deleting what is not committed: only in a directory this
# script made (marked), or an empty one.
marker="$scratch/.mutation-check-scratch"
[[ "$scratch" != "$repo" ]] || die "the scratch directory cannot be the repository itself"
if [[ ! -e "$marker" && -n "$(ls -A "$scratch")" ]]; then
  die "$scratch is not empty and was not made by this script: give an empty or new --scratch directory"
fi
touch "$marker"
mkdir -p "$logs"

work=$(mktemp -d)
current=""  # the index of the mutant whose change is in the scratch copy, while it is
cleanup() {
  if [[ -n "$current" ]]; then
    cp "$work/pristine" "$scratch/${files[$current]}"
    printf '\nmutation-check: stopped; %s is put back as committed\n' "${files[$current]}" >&2
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The copy of the committed tree. A scratch copy left by an earlier run is brought up to date file by
# file: a file whose content changed is rewritten (a new modification time, so the build sees it), an
# unchanged one is left alone (so nothing needs rebuilding), and files no longer committed go. The build
# directory stays.
commit=$(git -C "$repo" rev-parse --short=12 HEAD)
echo "copying commit $commit to $scratch"
mkdir -p "$work/tree"
git -C "$repo" archive HEAD | tar -x -C "$work/tree"
python3 - "$work/tree" "$scratch" "$(basename "$marker")" <<'PY'
import os, shutil, sys
fresh, scratch, marker = sys.argv[1], sys.argv[2], sys.argv[3]
wanted = set()
for root, dirs, files in os.walk(fresh):
    for f in files:
        src = os.path.join(root, f)
        rel = os.path.relpath(src, fresh)
        wanted.add(rel)
        dst = os.path.join(scratch, rel)
        with open(src, "rb") as a:
            new = a.read()
        try:
            with open(dst, "rb") as b:
                if b.read() == new:
                    continue
        except OSError:
            pass
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.lexists(dst):
            os.remove(dst)
        shutil.copyfile(src, dst)
        shutil.copymode(src, dst)
for root, dirs, files in os.walk(scratch):
    rel_root = os.path.relpath(root, scratch)
    if rel_root == ".":
        dirs[:] = [d for d in dirs if d != "build"]
    for f in files:
        rel = os.path.normpath(os.path.join(rel_root, f))
        if rel not in wanted and rel != marker:
            os.remove(os.path.join(root, f))
PY

# The build in the copy never asks the repository above it which commit it is (git stops at the copy).
export GIT_CEILING_DIRECTORIES
GIT_CEILING_DIRECTORIES=$(dirname "$scratch")
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$scratch"
fi

echo "configuring $build"
if ! cmake -S "$scratch" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
    >"$logs/configure.log" 2>&1; then
  tail -n 30 "$logs/configure.log" >&2
  die "the configuration failed (log: $logs/configure.log)"
fi
echo "building the unchanged copy (log: $logs/build.log)"
if ! cmake --build "$build" -j"$jobs" >"$logs/build.log" 2>&1; then
  tail -n 30 "$logs/build.log" >&2
  die "the unchanged copy does not build (log: $logs/build.log)"
fi

# The failed tests named in a ctest log, one a line (parameter comments dropped).
failed_tests() {
  sed -n '/^The following tests FAILED:/,$p' "$1" |
    sed -nE 's/^[[:space:]]*[0-9]+ - (.*) \([^()]*\)[[:space:]]*$/\1/p' |
    sed -E 's/  # .*$//'
}

test_count() {
  ctest --test-dir "$build" -N -R "$1" 2>/dev/null | sed -nE 's/^Total Tests: ([0-9]+).*/\1/p'
}

if ((baseline)); then
  union=""
  for i in "${selected[@]}"; do union+="${union:+|}${regexes[$i]}"; done
  echo "baseline: the selected tests on the unchanged copy ($(test_count "$union") tests)"
  if ! ctest --test-dir "$build" -R "$union" -j"$jobs" --timeout 600 --output-on-failure \
      >"$logs/baseline.log" 2>&1; then
    failed_tests "$logs/baseline.log" | sed 's/^/    /' >&2
    die "tests fail without any mutant (log: $logs/baseline.log): fix them first"
  fi
fi

caught=0 missed=0 build_failures=0 stale=0
rows=()
total=${#selected[@]}
k=0
for i in "${selected[@]}"; do
  k=$((k + 1))
  name=${names[$i]} file=${files[$i]} from=${froms[$i]} to=${tos[$i]} regex=${regexes[$i]}
  target="$scratch/$file"
  change=$(short_change "$from" "$to")
  failed_cell=""
  note=""
  printf '[%2d/%d] %-36s ' "$k" "$total" "$name"

  n=0
  [[ -f "$target" ]] && n=$(count_occurrences "$target" "$from")
  if [[ "$n" != 1 ]]; then
    result="stale"
    [[ -f "$target" ]] && failed_cell="text found $n times" || failed_cell="no such file"
    stale=$((stale + 1))
    echo "stale ($failed_cell)"
    rows+=("| $name | \`$file\` | $change | \`${regex//|/\\|}\` | **stale** | $failed_cell |")
    continue
  fi

  tests=$(test_count "$regex")
  if [[ -z "$tests" || "$tests" == 0 ]]; then
    stale=$((stale + 1))
    echo "stale (no test matches $regex)"
    rows+=("| $name | \`$file\` | $change | \`${regex//|/\\|}\` | **stale** | no test matches the regex |")
    continue
  fi

  cp "$target" "$work/pristine"
  current=$i
  replace_once "$target" "$from" "$to"
  if ! cmake --build "$build" -j"$jobs" >"$logs/$name.build.log" 2>&1; then
    result="build failed"
    failed_cell="log: logs/$name.build.log"
    build_failures=$((build_failures + 1))
  else
    if ctest --test-dir "$build" -R "$regex" -j"$jobs" --timeout 600 --output-on-failure \
        >"$logs/$name.test.log" 2>&1; then
      result="MISSED"
      failed_cell="all $tests passed"
      missed=$((missed + 1))
    else
      result="caught"
      caught=$((caught + 1))
      mapfile -t failed < <(failed_tests "$logs/$name.test.log")
      if ((${#failed[@]} == 0)); then
        note="ctest failed, no test named"
        failed_cell="ctest failed (log: logs/$name.test.log)"
      else
        note="${#failed[@]} of $tests tests failed"
        failed_cell="${#failed[@]} of $tests: "
        for ((f = 0; f < ${#failed[@]} && f < 3; ++f)); do
          if ((f > 0)); then failed_cell+=", "; fi
          failed_cell+="\`${failed[$f]}\`"
        done
        if ((${#failed[@]} > 3)); then failed_cell+=", …"; fi
      fi
    fi
  fi
  cp "$work/pristine" "$target"  # a new modification time: the next build compiles it again
  current=""

  case "$result" in
    caught) echo "caught ($note)" ;;
    MISSED) echo "MISSED: $failed_cell (log: $logs/$name.test.log)" ;;
    "build failed") echo "build failed (log: $logs/$name.build.log)" ;;
    *) echo "$result ($failed_cell)" ;;
  esac
  shown=$result
  [[ "$result" == caught ]] || shown="**$result**"
  rows+=("| $name | \`$file\` | $change | \`${regex//|/\\|}\` | $shown | ${failed_cell//|/\\|} |")
done

summary="$total mutants: $caught caught, $missed missed, $build_failures build failures, $stale stale"
{
  echo "# Mutation check"
  echo
  echo "Commit $commit, copied to \`$scratch\`; $(date -u '+%Y-%m-%d %H:%M UTC'). Each mutant is one change to"
  echo "the committed code; the tests selected by its regular expression must fail for it to be caught."
  echo "Build and test logs are in \`$logs\`."
  echo
  echo "| Mutant | File | Change | Tests run | Result | Failed tests |"
  echo "|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "$summary"
} >"$report"

echo "$summary"
echo "report: $report"
if ((caught != total)); then exit 1; fi
