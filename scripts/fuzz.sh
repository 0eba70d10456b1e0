#!/usr/bin/env bash
# Builds the fuzz targets of tests/fuzz with clang (libFuzzer, AddressSanitizer,
# UndefinedBehaviorSanitizer) into build/fuzz and runs each for a bounded time.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     default: 60 seconds, every target
#   FUZZ_TOTAL_SECONDS=S scripts/fuzz.sh                 every target, S seconds of wall time
#                                                        in all, shared out between the targets
#
# Targets run side by side, one per processor (FUZZ_JOBS, default nproc): each libFuzzer
# process uses one. With FUZZ_TOTAL_SECONDS each target gets S · jobs / targets seconds, at
# least 15, so CI's time stays the same as parsers are added.
#
# Each target starts from its corpus in the repository (tests/fuzz/corpus/NAME, plus the
# presets and fixtures for scenarios) and keeps what it finds in build/fuzz/corpus/NAME. An
# input that crashes, hangs (10 s) or runs out of memory (2 GiB) fails the run: it is copied to
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
# -O1 -g1, as libFuzzer's own documentation builds its targets: most of the speed of -O2 for
# far less compile time (clang compiles every library again, instrumented), and stack traces
# that name the line.
cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DATTNVIZ_FUZZ=ON \
  -DATTNVIZ_BUILD_APP=OFF -DATTNVIZ_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
cmake --build build/fuzz -j "$(nproc)" --target attnviz_fuzzers

jobs=${FUZZ_JOBS:-$(nproc)}
mapfile -t targets < <(grep -v '^[[:space:]]*$' build/fuzz/fuzzers.txt)
if [ ${#wanted[@]} -gt 0 ]; then
  chosen=()
  for line in "${targets[@]}"; do
    name=${line%% *}
    [[ " ${wanted[*]} " =~ " ${name} " ]] && chosen+=("$line")
  done
  targets=("${chosen[@]}")
fi
if [ -n "${FUZZ_TOTAL_SECONDS:-}" ] && [ ${#targets[@]} -gt 0 ]; then
  seconds=$(( FUZZ_TOTAL_SECONDS * jobs / ${#targets[@]} ))
  [ "$seconds" -ge 15 ] || seconds=15
fi

# fuzz_one NAME BINARY DICT MAX_LEN SEEDS...: runs one target; its report goes to
# build/fuzz/NAME.report, its exit status says whether it found something.
fuzz_one() {
  local name=$1 binary=$2 dict=$3 max_len=$4
  shift 4
  local work=build/fuzz/corpus/$name artifacts=build/fuzz/artifacts/$name
  mkdir -p "$work" "$artifacts"
  local options=(-max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048
                 -artifact_prefix="$artifacts/" -print_final_stats=1)
  [ "$dict" = "-" ] || options+=(-dict="$dict")
  if ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      "$binary" "${options[@]}" "$work" "$@" 2>"build/fuzz/$name.log"; then
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "build/fuzz/$name.log" | sed "s/^/fuzz: $name: /" \
      >"build/fuzz/$name.report"
    return 0
  fi
  {
    tail -n 60 "build/fuzz/$name.log"
    for found in "$artifacts"/*; do
      [ -e "$found" ] || continue
      cp "$found" "tests/fuzz/corpus/$name/"
      echo "fuzz: $name: $(basename "$found") kept as tests/fuzz/corpus/$name/$(basename "$found")"
      rm -f "$found"
    done
  } >"build/fuzz/$name.report" 2>&1
  return 1
}

echo "fuzz: ${#targets[@]} target(s), ${seconds}s each, $jobs at a time"
failed=0
pids=()
names=()
for line in "${targets[@]}"; do
  # shellcheck disable=SC2086  # the line is NAME BINARY DICT MAX_LEN SEEDS...
  fuzz_one $line &
  pids+=($!)
  names+=("${line%% *}")
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
done
for index in "${!pids[@]}"; do
  if wait "${pids[$index]}"; then
    cat "build/fuzz/${names[$index]}.report"
  else
    cat "build/fuzz/${names[$index]}.report" >&2
    echo "fuzz: ${names[$index]} failed" >&2
    failed=1
  fi
done
exit $failed
