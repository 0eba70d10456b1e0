#!/usr/bin/env bash
# Installs what attnviz needs, then builds and runs every test through CTest twice:
# a portable release build with -Werror (warnings are errors here and in CI, never in a user's build) (then packaged as a .deb, installed and checked), and a
# native AddressSanitizer + UndefinedBehaviorSanitizer build;
# then fuzzes every parser for a bounded time (scripts/fuzz.sh, clang + libFuzzer; a crash
# fails the run and is kept in tests/fuzz/corpus). Vulkan runs on whatever driver is present
# (lavapipe in CI), windows under Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

# timed NAME COMMAND...: runs COMMAND and keeps how long it took for the summary printed last,
# so a CI log says where its time went.
timings=()
timed() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  timings+=("$name $((SECONDS - start)) s")
}

timed "install" ./scripts/install-deps.sh
# The code as .clang-format writes it: a file that is not fails at once, before any build.
timed "format" ./scripts/check-format.sh

# The release build is the portable one the .deb ships (x86-64-v2); the sanitizer build is
# native, so the two builds' numbers are compared (Install.TwoBuildsComputeTheSameNumbers).
timed "release build" env ATTNVIZ_WERROR=ON ATTNVIZ_NATIVE=OFF ./scripts/build.sh release
timed "release tests" ctest --test-dir build/release --output-on-failure -j "$jobs"
# The .deb: built, installed with apt, checked as installed, removed.
timed "package" tests/install/check_package.sh build/release

timed "asan build" env ATTNVIZ_WERROR=ON ATTNVIZ_CMAKE_ARGS="-DATTNVIZ_COMPARE_WITH=$PWD/build/release/app/attnviz" ./scripts/build.sh asan
# LeakSanitizer stays off: Mesa's shader JIT and the Vulkan loader keep allocations until
# exit by design, and their reports would bury ours. Tests labelled "slow" (the largest
# sequences) and "gui" (those that start the real window under Xvfb: each takes minutes under
# the sanitizers) run only in the release build; the sanitizers still cover the window's
# panels, edits, heatmaps and sessions through their own tests.
timed "asan tests" env ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/asan --output-on-failure -j "$jobs" -LE 'slow|gui'

# Every fuzz target, side by side, in FUZZ_TOTAL_SECONDS of wall time in all (default 180, plus
# the clang build), however many parsers there are; FUZZ_SECONDS=S gives each target S seconds.
if [ -n "${FUZZ_SECONDS:-}" ]; then
  timed "fuzz" ./scripts/fuzz.sh "$FUZZ_SECONDS"
else
  timed "fuzz" env FUZZ_TOTAL_SECONDS="${FUZZ_TOTAL_SECONDS:-180}" ./scripts/fuzz.sh
fi
echo "run-tests: passed in $SECONDS s: $(IFS=,; echo "${timings[*]}" | sed 's/,/, /g')"
