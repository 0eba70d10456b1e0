#!/usr/bin/env bash
# Builds the fuzz targets of tests/fuzz with clang (libFuzzer, AddressSanitizer,
# UndefinedBehaviorSanitizer) into build/fuzz and runs each for a bounded time.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     default: 60 seconds, every target
#
# Each target starts from its corpus in the repository (tests/fuzz/corpus/NAME, plus the
# presets and fixtures for scenarios) and keeps what it finds in build/fuzz/corpus/NAME. An
# input that crashes, hangs (10 s) or runs out of memory (2 GiB) stops the run: it is copied to
# tests/fuzz/corpus/NAME/ (commit it with the fix: the ordinary builds replay that folder as
# the CTest test Fuzz.NAME) and the script exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
wanted=("$@")

export CC=clang CXX=clang++
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTNVIZ_FUZZ=ON \
  -DATTNVIZ_BUILD_APP=OFF -DATTNVIZ_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
cmake --build build/fuzz -j "$(nproc)" --target attnviz_fuzzers

failed=0
while read -r name binary dict max_len seeds; do
  [ -n "$name" ] || continue
  if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " =~ " ${name} " ]]; then continue; fi
  work=build/fuzz/corpus/$name
  artifacts=build/fuzz/artifacts/$name
  mkdir -p "$work" "$artifacts"
  options=(-max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048
           -artifact_prefix="$artifacts/" -print_final_stats=1)
  [ "$dict" = "-" ] || options+=(-dict="$dict")
  echo "fuzz: $name for ${seconds}s"
  # shellcheck disable=SC2086  # seeds is a list of folders
  if ! ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      "$binary" "${options[@]}" "$work" $seeds 2>"build/fuzz/$name.log"; then
    tail -n 60 "build/fuzz/$name.log" >&2
    for found in "$artifacts"/*; do
      [ -e "$found" ] || continue
      cp "$found" "tests/fuzz/corpus/$name/"
      echo "fuzz: $name: $(basename "$found") kept as tests/fuzz/corpus/$name/$(basename "$found")" >&2
      rm -f "$found"
    done
    failed=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "build/fuzz/$name.log" | sed "s/^/fuzz: $name: /"
  fi
done < build/fuzz/fuzzers.txt
exit $failed
