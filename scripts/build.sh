#!/usr/bin/env bash
# Configures and builds attnviz into build/<variant>: release (default) or asan (ASan+UBSan).
# Warnings are errors in both, as in CI. Both are optimised for this machine's processor
# (-march=native); ATTNVIZ_NATIVE=OFF makes a portable build instead (any x86-64-v2 processor:
# what the .deb ships, and what CI's release build is).
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-release}
case "$variant" in
  release) flags=(-DCMAKE_BUILD_TYPE=Release) ;;
  # -O1 -g1: what AddressSanitizer needs for fast enough tests and readable stack traces, at
  # half the compile time of -O2 -g (the sanitizers make every file several times slower to build).
  # No benchmarks: no test runs them, and their figures mean nothing under the sanitizers.
  asan) flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DATTNVIZ_SANITIZE=ON
               -DATTNVIZ_BUILD_BENCHMARKS=OFF) ;;
  *) echo "usage: scripts/build.sh [release|asan]" >&2; exit 2 ;;
esac
cmake -S . -B "build/$variant" -G Ninja -DATTNVIZ_WERROR=ON -DATTNVIZ_NATIVE="${ATTNVIZ_NATIVE:-ON}" "${flags[@]}" \
  ${ATTNVIZ_CMAKE_ARGS:-} >/dev/null
cmake --build "build/$variant" -j "$(nproc)"
