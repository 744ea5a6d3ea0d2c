#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds, and runs one job:
#   scripts/setup.sh run       Release build, then `meshmp run` on the built-in default configuration
#   scripts/setup.sh test      Release build, then the whole test suite through ctest
#   scripts/setup.sh sanitize  AddressSanitizer+UndefinedBehaviorSanitizer build, then ctest
#   scripts/setup.sh bench     Release build, then `meshmp bench`
set -euo pipefail
cd "$(dirname "$0")/.."
job=${1:-run}

packages=(build-essential cmake ninja-build pkg-config ccache libsystemc-dev verilator
          libgtest-dev libcli11-dev nlohmann-json3-dev python3-matplotlib python3-jsonschema parallel slurm-wlm munge)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

jobs=$(nproc)
build() {  # build <dir> <cmake-args...>
  local dir=$1; shift
  cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

# Puts meshmp on a bin folder of the PATH: /usr/local when root, else ~/.local.
install_tool() {
  local prefix=/usr/local
  [ "$(id -u)" -eq 0 ] || prefix="$HOME/.local"
  cmake --install build/release --prefix "$prefix" >/dev/null
  echo "meshmp installed: $prefix/bin/meshmp"
}

case "$job" in
  run)      build build/release -DCMAKE_BUILD_TYPE=Release
            install_tool
            build/release/sims/meshmp run ;;
  test)     build build/release -DCMAKE_BUILD_TYPE=Release
            install_tool
            ctest --test-dir build/release -j "$jobs" --output-on-failure ;;
  sanitize) build build/sanitize -DCMAKE_BUILD_TYPE=Debug -DMESHMP_SANITIZE=ON
            ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
              ctest --test-dir build/sanitize -j "$jobs" --output-on-failure ;;
  bench)    build build/release -DCMAKE_BUILD_TYPE=Release
            build/release/sims/meshmp bench ;;
  *) echo "unknown job '$job': expected run, test, sanitize or bench" >&2; exit 2 ;;
esac
