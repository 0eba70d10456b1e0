#!/usr/bin/env bash
# The mechanical renames of branch core-split (core/ restructured into one library per layer),
# as sed commands over app/ and tests/, in the order they were made. Run from the repository
# root, e.g. after moving app files, to bring their include paths and namespaces in step with
# core/. Idempotent: each command only matches the old spelling, so a second run changes nothing.
# (Meant for replaying these renames once; a later "core/model" for pretrained models is a new
# folder that this script must not be run over.)
set -euo pipefail
cd "$(dirname "$0")"

# files_with EXTENDED_REGEX: the files under app/ and tests/ that match, NUL-separated.
files_with() { grep -rlZE -- "$1" app tests 2>/dev/null || true; }
# files_without EXTENDED_REGEX: of the NUL-separated files on stdin, those that do not match.
files_without() { xargs -0 -r grep -LZE -- "$1" || true; }
# replace EXTENDED_REGEX SED_EXPRESSION: applies the expression to every file under app/ and
# tests/ that matches the regex.
replace() { files_with "$1" | xargs -0 -r sed -i -E -- "$2"; }

# 1. core/model -> core/scenario (Scenario, Problem, generation, scenario JSON).
replace 'core/model/' 's#core/model/#core/scenario/#g'
replace "core/model's" "s#core/model's#core/scenario's#g"

# 2. make_cpu_backend() is declared in core/cpu/cpu_backend.h (core/attention/backend.h holds
#    only the interface, which the cpu layer implements).
files_with 'make_cpu_backend' | files_without 'core/cpu/cpu_backend.h' |
  xargs -0 -r sed -i -E 's#^\#include "core/attention/backend.h"$#\#include "core/cpu/cpu_backend.h"#'
files_with 'make_cpu_backend' | files_without 'core/cpu/cpu_backend.h' |
  xargs -0 -r perl -0pi -e '
    my $line = qq{#include "core/cpu/cpu_backend.h"\n};
    # before the first core include that sorts after it, else after the last core include
    s{^(?=#include "core/(?:[d-z]|cpu/[d-z])[^"]*"$)}{$line}m
      or s{(.*^#include "core/[^"]*"\n)}{$1$line}ms;'

# 3. MaskPredicate is Mask (core/attention/mask.h): the one mask object every consumer uses.
replace '\bMaskPredicate\b' 's#\bMaskPredicate\b#Mask#g'

# 4. core/vk split: the Vulkan toolkit stays in core/vk (namespace attnviz::vk); the attention
#    backend moves to core/gpu (namespace attnviz::gpu), vulkan_backend.h becoming
#    vulkan_attention.h; the device-result view types are plain data in
#    core/attention/device_results.h (namespace attnviz), DeviceResultView renamed DeviceResults.
replace 'core/vk/(attention_layout|dispatch_plan|plan_bindings|workspace|host_packing|kernels)\.h' \
  's#core/vk/(attention_layout|dispatch_plan|plan_bindings|workspace|host_packing|kernels)\.h#core/gpu/\1.h#g'
replace 'core/vk/vulkan_backend\.h' 's#core/vk/vulkan_backend\.h#core/gpu/vulkan_attention.h#g'
replace 'tests/vk/problem_factory\.h' 's#tests/vk/problem_factory\.h#tests/gpu/problem_factory.h#g'
gpu_names='VulkanAttention|VulkanAttentionOptions|TileConfig|choose_tile_config|matmul_shared_bytes|AttentionShape|AttentionLayout|make_layout|PlanLimits|plan_attention|PlannedDispatch|PlannedView|Stage|stage_name|MatmulPush|ScoresPush|SoftmaxPush|ContextPush|OperandPush|ChunkPush|Kernels|Kernel|Workspace|Slot|slot_name|Placement|PlanBindings|pack_rows|pack_column_blocks|unpack_rows'
replace "\bvk::($gpu_names)\b" "s#\bvk::($gpu_names)\b#gpu::\1#g"
replace '\bvk::(DeviceMatrix|DeviceHead)\b' 's#\bvk::(DeviceMatrix|DeviceHead)\b#\1#g'
replace '\bvk::DeviceResultView\b' 's#\bvk::DeviceResultView\b#DeviceResults#g'

# 5. One Backend interface for both backends: VulkanAttention::last_timing() is the
#    Backend::timing() override.
replace '\blast_timing\(\)' 's#\blast_timing\(\)#timing()#g'

# 6. Keep each run of consecutive quoted #include lines sorted in the moved Vulkan tests.
for dir in tests/gpu tests/vk; do
  [ -d "$dir" ] || continue
  find "$dir" -name '*.cpp' -o -name '*.h' | xargs -r perl -0pi -e \
    's{((?:^#include "[^"]+"\n)+)}{join("", sort split(/^/m, $1))}gme'
done
