#!/usr/bin/env bash
# Builds the benchmark programs for a GPU machine that has only an NVIDIA (or other) driver and
# the Vulkan loader: a portable release build (any x86-64-v2 processor, -DATTNVIZ_NATIVE=OFF)
# in build/gpu-bench, and a bundle in build/gpu-bench/bundle holding
#   attnviz_overview_bench, attnviz_bench, attnviz_tiled_bench   (shaders embedded)
#   gpu_tests  the Vulkan kernels' tests (the fp16 tiled kernel's run only on such a GPU)
#   validation.tar.xz  VK_LAYER_KHRONOS_validation and its manifest, which the tests need
#   lib/      libstdc++.so.6, libgcc_s.so.1, libgomp.so.1 of this build machine
#   loader/   libvulkan.so.1 (used only where the machine has no Vulkan loader)
# Carry build/gpu-bench/bundle to the GPU machine and run scripts/gpu-bench.sh there.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build/gpu-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DATTNVIZ_WERROR=ON -DATTNVIZ_NATIVE=OFF \
  ${ATTNVIZ_CMAKE_ARGS:-} >/dev/null
cmake --build build/gpu-bench -j "$(nproc)" --target attnviz_overview_bench attnviz_bench attnviz_tiled_bench \
  gpu_tests
bundle=build/gpu-bench/bundle
rm -rf "$bundle"
mkdir -p "$bundle/lib" "$bundle/loader"
cp build/gpu-bench/tests/bench/attnviz_overview_bench build/gpu-bench/tests/bench/attnviz_bench \
   build/gpu-bench/tests/bench/attnviz_tiled_bench build/gpu-bench/tests/gpu/gpu_tests "$bundle/"
tar -cJf "$bundle/validation.tar.xz" -C /usr/lib/x86_64-linux-gnu libVkLayer_khronos_validation.so \
  -C /usr/share/vulkan/explicit_layer.d VkLayer_khronos_validation.json
library() { ldconfig -p | awk -v name="$1" '$1 == name && /x86-64/ {print $NF; exit}'; }
for name in libstdc++.so.6 libgcc_s.so.1 libgomp.so.1; do cp -L "$(library "$name")" "$bundle/lib/"; done
cp -L "$(library libvulkan.so.1)" "$bundle/loader/"
# Nothing beyond the C library, the Vulkan loader and the bundled libraries may be needed.
for program in "$bundle"/attnviz_* "$bundle"/gpu_tests; do
  unexpected=$(ldd "$program" | awk '{print $1}' |
    grep -v -E '^(linux-vdso|/lib64/ld-linux|libc\.so|libm\.so|libvulkan\.so\.1|libstdc\+\+\.so|libgcc_s\.so|libgomp\.so)' || true)
  if [ -n "$unexpected" ]; then
    echo "build-gpu-bench: $program needs $unexpected" >&2
    exit 1
  fi
done
du -sh "$bundle"
