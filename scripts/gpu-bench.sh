#!/usr/bin/env bash
# The GPU benchmarks in one table, for a bare x86-64 machine with a GPU driver and (or without)
# the Vulkan loader: the overview (N = 16,384 and 65,536, 8 heads, d_k 64), the tiled kernel
# (fp32, and fp16 on cooperative matrices where the device has them) and the materialised
# kernels at the README's sizes, with the device's name; first the tiled kernels' and the
# overview's tests under the validation layer (bundled), whose summary heads the output. Every
# command is bounded in time (the whole script stays under 8 minutes, within one device call).
# Raw outputs follow the table.
#
#   on this machine:  scripts/build-gpu-bench.sh         (makes build/gpu-bench/bundle)
#   on the GPU one:   scripts/gpu-bench.sh [BUNDLE_DIR]  (default build/gpu-bench/bundle)
#
# ATTNVIZ_DEVICE=N picks another Vulkan device (attnviz devices lists them); the preferred one
# is a discrete GPU.
set -uo pipefail
cd "$(dirname "$0")/.."
bundle=${1:-build/gpu-bench/bundle}
if [ ! -x "$bundle/attnviz_overview_bench" ]; then
  echo "gpu-bench: no $bundle/attnviz_overview_bench: run scripts/build-gpu-bench.sh and carry $bundle" >&2
  exit 2
fi
export LD_LIBRARY_PATH="$PWD/$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if ! ldconfig -p 2>/dev/null | grep -q 'libvulkan\.so\.1 '; then
  echo "gpu-bench: no Vulkan loader on this machine: using the bundled one" >&2
  export LD_LIBRARY_PATH="$PWD/$bundle/loader:$LD_LIBRARY_PATH"
fi
# A driver whose manifest is not where the loader looks (a container's mounted driver folder).
if ! ls /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json /usr/local/share/vulkan/icd.d/*.json >/dev/null 2>&1; then
  for manifest in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/local/nvidia/icd.d/nvidia_icd.json; do
    if [ -f "$manifest" ]; then
      export VK_DRIVER_FILES="$manifest" VK_ICD_FILENAMES="$manifest"
      echo "gpu-bench: driver manifest $manifest" >&2
      break
    fi
  done
fi
# A fresh container may hold the driver's libraries in folders its loader cache does not list yet.
[ "$(id -u)" = 0 ] && ldconfig 2>/dev/null
logs=$(mktemp -d)
run() {  # NAME SECONDS COMMAND...: the command's output in $logs/NAME, bounded in time
  local name=$1 seconds=$2
  shift 2
  timeout --kill-after=5 "$seconds" "$@" >"$logs/$name" 2>&1
  local status=$?
  [ $status -eq 124 ] && echo "(stopped after $seconds s)" >>"$logs/$name"
  [ $status -ne 0 ] && echo "gpu-bench: $name exited $status (see its output below)" >&2
  return 0
}
layer=$(mktemp -d)
tar -xJf "$bundle/validation.tar.xz" -C "$layer"
VK_LAYER_PATH="$layer" run tests 90 "$bundle/gpu_tests" --gtest_filter='*TiledFp16*:*TiledKernel*:*PushLayout*:*PositionsParity*:*OverviewVulkan*'
run overview 110 "$bundle/attnviz_overview_bench" --backends vulkan --cases 16384x8,65536x8 --masks none,causal \
  --reference off --runs 3
# Mask expressions held as runs (sinks: a causal window of 1,024 and 4 sinks; strided: s = 256).
run overview_masks 80 "$bundle/attnviz_overview_bench" --backends vulkan --cases 65536x8 --masks sinks,strided \
  --reference off --runs 3
# RoPE (a pass over Q and K) and ALiBi (a bias on every score) beside causal above.
run overview_positions 30 "$bundle/attnviz_overview_bench" --backends vulkan --cases 65536x8 --masks causal \
  --positions rope,alibi --reference off --runs 3
run overview_cpu 40 "$bundle/attnviz_overview_bench" --backends cpu --cases 16384x8 --masks none --reference on
run tiled 60 "$bundle/attnviz_tiled_bench" --sizes 128,512,1024,2048 --runs 3
run dense 60 "$bundle/attnviz_bench" --sizes 128,512,1024,2048,4096 --backends vulkan,eigen --runs 3

device=$(sed -n 's/^Device: //p' "$logs/overview" | head -1)
echo "Tests (validation layer on): $(grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ tests?' "$logs/tests" | tr '\n' ' ')"
echo "Device: ${device:-unknown} · host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) threads"
echo "d_k = d_v = 64, 8 heads; GFLOP/s: the overview counts 2·(its score multiply-adds) (both passes, hidden tiles"
echo "skipped); the other kernels 4·N²·d_k per head (Q·Kᵀ and A·V), also for causal masks"
echo
echo "| kernel | N | heads | mask | backend | ms | GFLOP/s |"
echo "|---|---:|---:|---|---|---:|---:|"
# The overview: | N | heads | mask | backend | device | ms | multiply-adds | GFLOP/s | ...
awk -F'|' '/^\| [0-9]/ {for (i = 2; i <= 9; ++i) gsub(/^ +| +$/, "", $i);
  printf "| overview (weights, max) | %s | %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $7, $9}' \
  "$logs/overview" "$logs/overview_masks" "$logs/overview_positions" "$logs/overview_cpu"
# The tiled bench: | N | mask | Eigen dense ms | Eigen tiled ms | × | Vulkan dense ms | Vulkan tiled ms | ...
awk -F'|' '/^\| [0-9]/ {for (i = 2; i <= 8; ++i) gsub(/^ +| +$/, "", $i); flop = 4.0 * $2 * $2 * 64 * 8;
  printf "| tiled (FlashAttention-2) | %s | 8 | %s | vulkan | %s | %.1f |\n", $2, $3, $8, flop / $8 / 1e6;
  printf "| tiled (FlashAttention-2) | %s | 8 | %s | eigen | %s | %.1f |\n", $2, $3, $5, flop / $5 / 1e6;
  gsub(/^ +| +$/, "", $12); gsub(/^ +| +$/, "", $13);
  if ($12 + 0 > 0) printf "| tiled, fp16 cooperative matrices (largest difference %s) | %s | 8 | %s | vulkan | %s | %.1f |\n",
                          $13, $2, $3, $12, flop / $12 / 1e6}' "$logs/tiled"
# The materialised recompute, from attnviz_bench's progress lines: N=512 causal: vulkan 43.6 ms, eigen 5.5 ms, ...
awk '/^N=[0-9]+ / {n = substr($1, 3); line = $0; sub(/^N=[0-9]+ /, "", line); mask = line; sub(/: vulkan.*/, "", mask);
  v = line; sub(/.*vulkan /, "", v); sub(/ ms.*/, "", v); e = line; sub(/.*eigen /, "", e); sub(/ ms.*/, "", e);
  flop = 4.0 * n * n * 64 * 8;
  if (v + 0 > 0) printf "| materialised (all N×N kept) | %s | 8 | %s | vulkan | %s | %.1f |\n", n, mask, v, flop / v / 1e6;
  if (e + 0 > 0) printf "| materialised (all N×N kept) | %s | 8 | %s | eigen | %s | %.1f |\n", n, mask, e, flop / e / 1e6}' "$logs/dense"
for name in tests overview overview_masks overview_positions overview_cpu tiled dense; do
  echo
  echo "---- $name ----"
  cat "$logs/$name"
done
rm -rf "$logs" "$layer"
