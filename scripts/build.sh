#!/usr/bin/env bash
# Configures and builds attnviz into build/<variant>: release (default) or asan (ASan+UBSan).
# Further arguments name the targets to build (e.g. `scripts/build.sh release attnviz`, the window
# and command line alone); without them, everything, tests included.
# Both variants are optimised for this machine's processor (-march=native); ATTNVIZ_NATIVE=OFF
# makes a portable build instead (any x86-64-v2 processor: what the .deb ships, and what CI's
# release build is).
# Warnings are errors only where ATTNVIZ_WERROR=ON asks for it (CI and scripts/run-tests.sh, and
# developers': `ATTNVIZ_WERROR=ON scripts/build.sh`), never in a user's build: a newer or older
# compiler's new warning must not stop someone from running the app. Unset, a build directory
# keeps whatever it was configured with.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-release}
targets=("${@:2}")
case "$variant" in
  release) flags=(-DCMAKE_BUILD_TYPE=Release) ;;
  # -O1 -g1: what AddressSanitizer needs for fast enough tests and readable stack traces, at
  # half the compile time of -O2 -g (the sanitizers make every file several times slower to build).
  # No benchmarks: no test runs them, and their figures mean nothing under the sanitizers.
  asan) flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DATTNVIZ_SANITIZE=ON
               -DATTNVIZ_BUILD_BENCHMARKS=OFF) ;;
  *) echo "usage: scripts/build.sh [release|asan] [TARGET...]" >&2; exit 2 ;;
esac
if [ -n "${ATTNVIZ_WERROR:-}" ]; then flags+=(-DATTNVIZ_WERROR="$ATTNVIZ_WERROR"); fi
cmake -S . -B "build/$variant" -G Ninja -DATTNVIZ_NATIVE="${ATTNVIZ_NATIVE:-ON}" "${flags[@]}" \
  ${ATTNVIZ_CMAKE_ARGS:-} >/dev/null
if [ ${#targets[@]} -gt 0 ]; then
  cmake --build "build/$variant" -j "$(nproc)" --target "${targets[@]}"
else
  cmake --build "build/$variant" -j "$(nproc)"
fi
